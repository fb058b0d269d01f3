"""ALTER TABLE: one AlterOperation per clause, applied in the server's phase order.

Longer than the ~600 lines a module should hold, for a reason: it is one small frozen command per
ALTER TABLE clause, and :class:`AlterTable` applies them in the server's phases (DROP clauses,
column clauses, new keys and constraints, then table options), which every operation's ``apply``
relies on; split by clause family, that order and the shared phase helpers would be spread over
several modules that only make sense together."""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError
from ..model import charsets, codec, literals
from ..model.catalog import Catalog
from ..model.column import Column, Default, DefaultKind
from ..model.dialects import rules_for
from ..model.ids import TableId, column_key
from ..model.resolve import (
    Context,
    ResolvedColumn,
    add_check_spec,
    add_column_extras,
    add_foreign_key_spec,
    add_key_spec,
    check_expression_columns,
    convert_column_charset,
    first_timestamp_before,
    promote_primary_key_columns,
    prune_generated_indexes,
    refit_keys,
    resolve_column,
    validate_table,
)
from ..model.spec import CheckSpec, ColumnSpec, ForeignKeySpec, KeySpec
from ..model.table import IndexKind, Partitioning, Period, TableEditor
from ..model.types import TypeFamily
from ..options import DEFAULT, Options
from .base import (
    Command,
    _canonical_engine,
    _command,
    _context,
    _database_defaults,
    _ensure_database,
    _put,
    _split_options,
)


class AlterOperation:
    """One clause of ALTER TABLE. ``apply_to(editor, state)`` edits the table being built."""

    __slots__ = ()

    def apply_to(self, ed: TableEditor, st: _AlterState) -> None:
        raise NotImplementedError


def _op(cls):
    return codec.polymorphic(dataclasses.dataclass(frozen=True, slots=True)(cls))


class _AlterState:
    def __init__(self, catalog: Catalog, options: Options, ctx: Context):
        self.catalog = catalog
        self.options = options
        self.ctx = ctx
        self.new_id: TableId | None = None
        self.dropped: list[str] = []  # columns dropped by this statement
        self.original: set[str] = set()  # column keys of the table before the statement
        self.consumed: set[str] = set()  # original columns already changed by a clause
        self.changed: set[str] = set()  # new names of columns redefined by CHANGE/MODIFY/ADD
        self.convert: tuple[str, str] | None = None  # CONVERT TO CHARACTER SET, applied last
        self.binary: set[str] = set()  # columns this statement defines with the BINARY attribute
        self.consumed_in_place: set[str] = set()  # original columns redefined without FIRST/AFTER
        self.new_defs: set[str] = set()  # column names (re)defined by ADD or positioned CHANGE/MODIFY
        self.altered: set[str] = set()  # columns an ALTER COLUMN clause already changed

    def defined(self, ed: TableEditor, rc: ResolvedColumn, spec: ColumnSpec) -> None:
        """ADD/CHANGE/MODIFY put ``rc`` in the table: remember it was redefined (and with the
        BINARY attribute, for CONVERT TO later in the statement) and add its keys and checks."""
        name = rc.column.name.lower()
        self.changed.add(name)
        if spec.type.binary:
            self.binary.add(name)
        add_column_extras(ed, rc, self.ctx)

    def claim_alter(self, name: str, ed: TableEditor) -> None:
        """ALTER COLUMN c SET/DROP DEFAULT | SET [IN]VISIBLE applies to an original column no
        CHANGE/MODIFY/RENAME redefined in place, or to a column the statement (re)defines in its
        second pass (ADD, positioned CHANGE/MODIFY), once (MariaDB 10.11: "MODIFY c ..., ALTER c
        SET DEFAULT 1" and two ALTERs of one column fail with "Unknown column", "ALTER c SET
        DEFAULT 1, MODIFY c ... FIRST" works)."""
        k = column_key(name)
        ok = k in self.new_defs or (k in self.original and k not in self.consumed_in_place)
        if not ok or k in self.altered:
            raise DdlSemanticError(f"Unknown column '{name}' in '{ed.id.name}'")
        self.altered.add(k)

    def claim(self, name: str, ed: TableEditor, in_place: bool = True) -> None:
        """CHANGE/MODIFY/RENAME COLUMN name an original column, and only once per statement:
        the server looks them up in the old definition ("Unknown column" otherwise)."""
        k = column_key(name)
        if k not in self.original or k in self.consumed:
            raise DdlSemanticError(f"Unknown column '{name}' in '{ed.id.name}'")
        self.consumed.add(k)
        if in_place:
            self.consumed_in_place.add(k)


def _position(ed: TableEditor, first: bool, after: str | None, exclude: str | None) -> int:
    cols = [c for c in ed.columns if exclude is None or column_key(c.name) != column_key(exclude)]
    if first:
        return 0
    if after is not None:
        for i, c in enumerate(cols):
            if column_key(c.name) == column_key(after):
                return i + 1
        raise DdlSemanticError(f"Unknown column '{after}' in '{ed.id.name}'")
    if exclude is not None:
        for i, c in enumerate(ed.columns):
            if column_key(c.name) == column_key(exclude):
                return i
    return len(cols)


def _resolve_at(ed: TableEditor, spec: ColumnSpec, st: _AlterState, first: bool, after: str | None,
                exclude: str | None) -> ResolvedColumn:
    cols = [c for c in ed.columns if exclude is None or column_key(c.name) != column_key(exclude)]
    idx = _position(ed, first, after, exclude)
    return resolve_column(spec, st.ctx, first_timestamp=first_timestamp_before(cols, idx))


@_op
class AddColumn(AlterOperation):
    """ADD [COLUMN] [IF NOT EXISTS] col_def [FIRST | AFTER col]."""

    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_not_exists and ed.has_column(self.column.name):
            return
        rc = _resolve_at(ed, self.column, st, self.first, self.after, None)
        ed.add_column(rc.column, first=self.first, after=self.after)
        st.defined(ed, rc, self.column)


@_op
class DropColumn(AlterOperation):
    """DROP [COLUMN] [IF EXISTS] col."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st, keep_keys: bool = False):
        if self.if_exists and not ed.has_column(self.name):
            return
        if column_key(self.name) not in st.original:
            raise DdlSemanticError(f"Can't DROP COLUMN `{self.name}`; check that it exists")
        st.dropped.append(self.name)
        ed.drop_column(self.name, keep_keys=keep_keys)


@_op
class ChangeColumn(AlterOperation):
    """CHANGE [COLUMN] [IF EXISTS] old new_col_def [FIRST | AFTER col]: replaces the whole
    definition (attributes not repeated are lost) and may rename."""

    old_name: str
    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_exists: bool = False

    def apply_to(self, ed, st, in_place: bool = False):
        """``in_place``: leave FIRST/AFTER to a later move (AlterTable.apply), but still resolve
        the column for its final position (the first-TIMESTAMP rule depends on it)."""
        if self.if_exists and not ed.has_column(self.old_name):
            return
        ed.column(self.old_name)
        st.claim(self.old_name, ed, in_place=not (self.first or self.after is not None))
        try:
            rc = _resolve_at(ed, self.column, st, self.first, self.after, self.old_name)
        except DdlSemanticError:
            if not in_place:
                raise
            rc = _resolve_at(ed, self.column, st, False, None, self.old_name)  # AFTER a column added later
        if in_place:
            ed.replace_column(self.old_name, rc.column)
        else:
            ed.replace_column(self.old_name, rc.column, first=self.first, after=self.after)
        st.defined(ed, rc, self.column)


@_op
class ModifyColumn(AlterOperation):
    """MODIFY [COLUMN] [IF EXISTS] col_def [FIRST | AFTER col]: CHANGE without a rename."""

    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_exists: bool = False

    def apply_to(self, ed, st, in_place: bool = False):
        ChangeColumn(self.column.name, self.column, self.first, self.after,
                     self.if_exists).apply_to(ed, st, in_place)


@_op
class RenameColumn(AlterOperation):
    """RENAME COLUMN old TO new (definition kept)."""

    old_name: str
    new_name: str

    def apply_to(self, ed, st):
        st.claim(self.old_name, ed)
        ed.rename_column(self.old_name, self.new_name)


@_op
class AlterColumnDefault(AlterOperation):
    """ALTER [COLUMN] col SET DEFAULT value (``default``: its SQL text) or DROP DEFAULT
    (``default=None``)."""

    name: str
    default: str | None = None

    def apply_to(self, ed, st):
        c = ed.column(self.name)
        if c.on_update is not None and st.ctx.rules.set_default_drops_on_update:
            ed.set_column(self.name, on_update=None)
        if self.default is None and c.family is TypeFamily.TIMESTAMP and not c.nullable \
                and not st.ctx.explicit_defaults_for_timestamp:
            # explicit_defaults_for_timestamp=OFF: a NOT NULL TIMESTAMP without default gets the
            # implicit one again (auto-init when it is the first TIMESTAMP; MariaDB 10.11 checked)
            i = next(j for j, x in enumerate(ed.columns) if column_key(x.name) == column_key(c.name))
            fsp = c.fsp or 0
            if first_timestamp_before(ed.columns, i):
                ed.set_column(self.name, default=Default.current_timestamp(fsp),
                              on_update=Default.current_timestamp(fsp))
            else:
                ed.set_column(self.name, default=Default.literal(
                    "0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else "")))
            return
        if self.default is None:
            # DROP DEFAULT leaves a nullable column with DEFAULT NULL (MariaDB 10.11 checked).
            ed.set_column(self.name, default=Default.null() if c.nullable and not c.auto_increment
                          and c.family not in st.ctx.rules.no_implicit_null_default else None)
            return
        d = literals.normalise_default(literals.classify(self.default, st.ctx.no_backslash_escapes),
                                       c.family, scale=c.scale, fsp=c.fsp or 0, values=c.values,
                                       length=c.length, zerofill=c.zerofill)
        if d.kind is DefaultKind.NULL and not c.nullable:
            raise DdlSemanticError(f"Invalid default value for '{c.name}'")
        ed.set_column(self.name, default=d)


@_op
class AlterColumnVisibility(AlterOperation):
    """ALTER [COLUMN] col SET VISIBLE | INVISIBLE (MySQL 8.0.23)."""

    name: str
    visible: bool

    def apply_to(self, ed, st):
        ed.column(self.name)
        ed.set_column(self.name, visible=self.visible)


@_op
class AddIndex(AlterOperation):
    """ADD {INDEX|KEY|UNIQUE|PRIMARY KEY|FULLTEXT|SPATIAL} [IF NOT EXISTS] ... (``key.kind``)."""

    key: KeySpec
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_not_exists and self.key.kind is not IndexKind.PRIMARY and \
                (self.key.name or self.key.constraint_name) and \
                ed.has_index(self.key.name or self.key.constraint_name):
            return
        add_key_spec(ed, self.key, st.ctx)


@_op
class AddForeignKey(AlterOperation):
    """ADD [CONSTRAINT [name]] FOREIGN KEY [IF NOT EXISTS] ..."""

    foreign_key: ForeignKeySpec
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        n = self.foreign_key.name
        if self.if_not_exists and n and any(column_key(f.name) == column_key(n) for f in ed.foreign_keys):
            return
        add_foreign_key_spec(ed, self.foreign_key, st.ctx)


@_op
class AddCheck(AlterOperation):
    """ADD [CONSTRAINT [name]] CHECK (expr)."""

    check: CheckSpec

    def apply_to(self, ed, st):
        add_check_spec(ed, self.check, st.ctx)


@_op
class DropKey(AlterOperation):
    """DROP {INDEX|KEY} [IF EXISTS] name."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_exists and not ed.has_index(self.name):
            return
        ed.drop_index(self.name)


@_op
class DropPrimaryKey(AlterOperation):
    """DROP PRIMARY KEY (its columns stay NOT NULL)."""

    def apply_to(self, ed, st):
        ed.drop_primary_key()


@_op
class DropForeignKey(AlterOperation):
    """DROP FOREIGN KEY [IF EXISTS] name (the index it created stays)."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_exists and not any(column_key(f.name) == column_key(self.name) for f in ed.foreign_keys):
            return
        ed.drop_foreign_key(self.name)


@_op
class DropCheck(AlterOperation):
    """DROP CHECK [IF EXISTS] name."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        table_checks = [c for c in ed.checks if c.column is None]
        if not any(column_key(c.name) == column_key(self.name) for c in table_checks):
            if self.if_exists:
                return
            raise DdlSemanticError(f"Can't DROP CONSTRAINT `{self.name}`; check that it exists")
        ed.drop_check(self.name)


@_op
class DropConstraint(AlterOperation):
    """DROP CONSTRAINT [IF EXISTS] name: whichever of foreign key, check or unique key has it."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        k = column_key(self.name)
        if any(column_key(f.name) == k for f in ed.foreign_keys):
            ed.drop_foreign_key(self.name)
        elif any(column_key(c.name) == k and c.column is None for c in ed.checks):
            ed.drop_check(self.name)  # (a MariaDB column-level CHECK cannot be dropped by name)
        elif any(column_key(i.name) == k for i in ed.unique_keys) or (k == "primary" and ed.primary_key):
            ed.drop_index(self.name)
        elif not self.if_exists:
            raise DdlSemanticError(f"Can't DROP CONSTRAINT `{self.name}`; check that it exists")


@_op
class RenameIndex(AlterOperation):
    """RENAME {INDEX|KEY} old TO new."""

    old_name: str
    new_name: str

    def apply_to(self, ed, st):
        ed.rename_index(self.old_name, self.new_name)


def _rename_indexes(ed: TableEditor, renames: list[RenameIndex]) -> None:
    """RENAME KEY clauses name keys of the old definition (minus the ones this statement drops),
    each at most once, and the new names must be unique only at the end: MariaDB 10.11 accepts
    "RENAME KEY a TO b, RENAME KEY b TO c" and "RENAME KEY a TO b, DROP KEY b", and refuses
    "RENAME KEY q TO c, RENAME KEY c TO d" (c is not an old key) and "RENAME KEY a TO a2, DROP
    KEY a2" (checked on 10.11.19; mysql_prepare_alter_table() looks renames up in the old keys)."""
    if not renames:
        return
    keys = ed.unique_keys + ed.indexes
    new_names: dict[int, str] = {}
    for op in renames:
        k = column_key(op.old_name)
        hit = next((i for i, ix in enumerate(keys) if column_key(ix.name) == k and i not in new_names), None)
        if hit is None:
            raise DdlSemanticError(f"Key '{op.old_name}' doesn't exist in table '{ed.id.name}'")
        new_names[hit] = op.new_name
    renamed = [dataclasses.replace(ix, name=new_names[i]) if i in new_names else ix for i, ix in enumerate(keys)]
    ed.unique_keys, ed.indexes = renamed[:len(ed.unique_keys)], renamed[len(ed.unique_keys):]
    seen: set[str] = {"primary"} if ed.primary_key is not None else set()
    for ix in renamed:
        if column_key(ix.name) in seen:
            raise DdlSemanticError(f"Duplicate key name '{ix.name}'")
        seen.add(column_key(ix.name))


@_op
class AlterIndexVisibility(AlterOperation):
    """ALTER {INDEX|KEY} name VISIBLE | INVISIBLE (MySQL 8.0, manual 10.3.12 "Invisible Indexes")
    and MariaDB's [NOT] IGNORED (10.6+, KB "Ignored Indexes"): ``visible`` False for INVISIBLE /
    IGNORED. A primary key, explicit or implicit, cannot be hidden (validated at the end)."""

    name: str
    visible: bool

    def apply_to(self, ed, st):
        k = column_key(self.name)
        for lst in (ed.unique_keys, ed.indexes):
            for i, ix in enumerate(lst):
                if column_key(ix.name) == k:
                    lst[i] = dataclasses.replace(ix, visible=self.visible)
                    return
        if k == "primary" and ed.primary_key is not None:
            raise DdlSemanticError("A primary key index cannot be invisible")
        raise DdlSemanticError(f"Key '{self.name}' doesn't exist in table '{ed.id.name}'")


@_op
class AlterCheckEnforcement(AlterOperation):
    """ALTER {CHECK|CONSTRAINT} name [NOT] ENFORCED (MySQL 8.0.16 / 8.0.19, manual 15.1.9 "ALTER
    TABLE"); MariaDB has no such clause (DialectRules.check_enforcement)."""

    name: str
    enforced: bool

    def apply_to(self, ed, st):
        if not st.ctx.rules.check_enforcement:
            raise DdlSemanticError("ALTER CHECK ... ENFORCED is not supported by this server")
        k = column_key(self.name)
        for i, c in enumerate(ed.checks):
            if column_key(c.name) == k:
                ed.checks[i] = dataclasses.replace(c, enforced=self.enforced)
                return
        raise DdlSemanticError(f"Check constraint '{self.name}' is not found in the table.")


@_op
class AddPeriod(AlterOperation):
    """ADD PERIOD FOR name (start, end) [IF NOT EXISTS] (MariaDB 10.4 application-time periods,
    KB "Application-Time Periods"; ``SYSTEM_TIME`` for the system-time period). The columns
    become NOT NULL (10.11 checked); the server reports the period as a CHECK constraint named
    after it in TABLE_CONSTRAINTS (see render)."""

    period: Period
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        periods = ed.get("periods")
        if any(column_key(p.name) == column_key(self.period.name) or (p.system and self.period.system)
               for p in periods):
            if self.if_not_exists:
                return
            raise DdlSemanticError(f"Duplicate period '{self.period.name}'")
        add_period(ed, self.period)


def add_period(ed: TableEditor, period: Period) -> None:
    """Record a period and make its columns NOT NULL (unknown columns fail at validation)."""
    if not period.system:
        for n in (period.start, period.end):
            if ed.has_column(n):
                c = ed.column(n)
                ed.set_column(n, nullable=False,
                              default=None if c.default is not None and c.default.kind is DefaultKind.NULL
                              else c.default)
    ed.set(periods=ed.get("periods") + (period,))


@_op
class DropPeriod(AlterOperation):
    """DROP PERIOD [IF EXISTS] FOR name (the columns stay, NOT NULL)."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        periods = ed.get("periods")
        keep = tuple(p for p in periods if column_key(p.name) != column_key(self.name))
        if len(keep) == len(periods):
            if self.if_exists:
                return
            raise DdlSemanticError(f"Period `{self.name}` is not found in table")
        ed.set(periods=keep)


@_op
class AddSystemVersioning(AlterOperation):
    """ADD SYSTEM VERSIONING (MariaDB KB "System-Versioned Tables"): without ROW START/END
    columns of its own the table gets the hidden ``row_start``/``row_end`` TIMESTAMP(6)
    columns, last in the row image."""

    def apply_to(self, ed, st):
        if ed.get("system_versioning"):
            raise DdlSemanticError(f"Table `{ed.id.name}` is already system-versioned")
        add_system_versioning(ed)


def add_system_versioning(ed: TableEditor) -> None:
    ed.set(system_versioning=True)
    if any(c.row_period is not None for c in ed.columns):
        return
    for n, kind in (("row_start", "start"), ("row_end", "end")):
        # (the server's implicit columns: TIMESTAMP(6) GENERATED ALWAYS AS ROW START/END INVISIBLE,
        # hidden from information_schema; mariadb-binlog shows them as the last two row fields)
        ed.columns.append(Column(n, "timestamp", fsp=6, nullable=False, row_period=kind, hidden=True,
                                 visible=False, declared_type="TIMESTAMP(6)"))


@_op
class DropSystemVersioning(AlterOperation):
    """DROP SYSTEM VERSIONING: the hidden row_start/row_end go; explicit ROW START/END columns
    must be dropped by the same statement (MariaDB 10.11: "Wrong parameters for `t`: missing
    'DROP COLUMN `s`'"), and the SYSTEM_TIME period goes with them."""

    def apply_to(self, ed, st):
        if not ed.get("system_versioning"):
            raise DdlSemanticError(f"Table `{ed.id.name}` is not system-versioned")
        ed.columns = [c for c in ed.columns if not c.hidden]
        left = [c for c in ed.columns if c.row_period is not None]
        if left:
            raise DdlSemanticError(f"Wrong parameters for `{ed.id.name}`: missing 'DROP COLUMN `{left[0].name}`'")
        # (a WITHOUT SYSTEM VERSIONING column keeps the mark: MariaDB 10.11 still prints it)
        ed.set(system_versioning=False, periods=tuple(p for p in ed.get("periods") if not p.system))


@_op
class RenameTo(AlterOperation):
    """RENAME [TO|AS] new_name (may move the table to another database)."""

    new_table: TableId

    def apply_to(self, ed, st):
        st.new_id = self.new_table


@_op
class ConvertCharset(AlterOperation):
    """CONVERT TO CHARACTER SET cs [COLLATE c]: the table default and every character column of
    the resulting table, including columns the same statement adds or redefines (MariaDB 10.11
    checked); only columns carried over unchanged get the TEXT-size promotion."""

    charset: str
    collation: str | None = None

    def apply_to(self, ed, st):
        # st.convert was resolved up front; the columns are converted once every other clause
        # is in (see AlterTable.apply)
        ed.set(charset=st.ctx.charset, collation=st.ctx.collation)


@_op
class DefaultCharset(AlterOperation):
    """[DEFAULT] CHARACTER SET cs [COLLATE c] / [DEFAULT] COLLATE c: the table default only
    (existing columns keep theirs)."""

    charset: str | None = None
    collation: str | None = None

    def apply_to(self, ed, st):
        ed.set(charset=st.ctx.charset, collation=st.ctx.collation)


@_op
class TableOptions(AlterOperation):
    """Table options in ALTER TABLE (ENGINE, COMMENT, ROW_FORMAT...), (name, value) as written.
    CHARSET/COLLATE options act like :class:`DefaultCharset`."""

    options: tuple[tuple[str, str], ...]

    def apply_to(self, ed, st):
        engine, cs, coll, comment, others = _split_options(self.options)
        if engine is not None:
            ed.set(engine=_canonical_engine(engine))
        if comment is not None:
            ed.set(comment=comment)
        if cs is not None or coll is not None:
            ed.set(charset=st.ctx.charset, collation=st.ctx.collation)
        for n, v in others:
            ed.set_option(n, v)


@_op
class PartitionOp(AlterOperation):
    """A partitioning clause, recorded: ``action`` is the clause keyword(s) upper-case
    (``PARTITION BY``, ``REMOVE PARTITIONING``, ``ADD PARTITION``, ``DROP PARTITION``,
    ``TRUNCATE PARTITION``, ``REORGANIZE PARTITION``, ``COALESCE PARTITION``,
    ``EXCHANGE PARTITION``...), ``names`` the partitions it names, ``partitioning`` the new
    summary for PARTITION BY (and, when the listener knows it, for ADD/REORGANIZE), ``text`` the
    clause text. Only PARTITION BY, REMOVE PARTITIONING, ADD and DROP PARTITION change the summary."""

    action: str
    names: tuple[str, ...] = ()
    partitioning: Partitioning | None = None
    text: str = ""
    count: int | None = None

    def apply_to(self, ed, st):
        a = " ".join(self.action.upper().split())
        cur = ed.fields.get("partitioning", ed._t.partitioning)
        if a == "PARTITION BY":
            ed.set(partitioning=self.partitioning)
        elif a == "REMOVE PARTITIONING":
            ed.set(partitioning=None)
        elif self.partitioning is not None:
            ed.set(partitioning=self.partitioning)
        elif cur is not None and a == "ADD PARTITION" and self.count is not None:
            # ADD PARTITION PARTITIONS n (HASH/KEY): n more partitions, named p<i> on when the
            # existing ones are listed (manual 26.3.2 "Management of HASH and KEY Partitions")
            have = cur.count if cur.count is not None else len(cur.names)
            names = cur.names + tuple(f"p{i}" for i in range(have, have + self.count)) if cur.names else ()
            ed.set(partitioning=dataclasses.replace(
                cur, names=names, count=have + self.count if cur.count is not None else None))
        elif cur is not None and a == "COALESCE PARTITION" and self.count is not None:
            # COALESCE PARTITION n: n fewer HASH/KEY partitions, the last ones go (manual 26.3.2)
            have = cur.count if cur.count is not None else len(cur.names)
            if cur.method.split()[-1] not in ("HASH", "KEY"):
                raise DdlSemanticError("COALESCE PARTITION can only be used on HASH/KEY partitions")
            if self.count >= have:
                raise DdlSemanticError("Cannot remove all partitions, use DROP TABLE instead")
            ed.set(partitioning=dataclasses.replace(cur, names=cur.names[:have - self.count],
                                                    count=have - self.count if cur.count is not None else None))
        elif cur is not None and a == "ADD PARTITION":
            ed.set(partitioning=dataclasses.replace(
                cur, names=cur.names + self.names,
                count=(cur.count + len(self.names)) if cur.count is not None else None))
        elif cur is not None and a == "DROP PARTITION":
            drop = {n.lower() for n in self.names}
            names = tuple(n for n in cur.names if n.lower() not in drop)
            ed.set(partitioning=dataclasses.replace(
                cur, names=names, count=(cur.count - len(self.names)) if cur.count is not None else None))


_DROPS = (DropColumn, DropKey, DropPrimaryKey, DropForeignKey, DropCheck, DropConstraint, DropPeriod)
_COLUMN_OPS = (AddColumn, ChangeColumn, ModifyColumn, RenameColumn, AlterColumnDefault, AlterColumnVisibility)
_KEY_OPS = (AddIndex, AddForeignKey, AddCheck)


def _phase(op: AlterOperation) -> int:
    if isinstance(op, _DROPS):
        return 0
    if isinstance(op, _COLUMN_OPS):
        return 1
    if isinstance(op, _KEY_OPS):
        return 2
    if isinstance(op, RenameIndex):
        return -1  # after the key drops, before anything else (see _rename_indexes)
    if isinstance(op, AddPeriod):
        return 1.5  # after the columns, before keys that name the period (WITHOUT OVERLAPS)
    if isinstance(op, AlterIndexVisibility):
        return -1  # on the old keys, with the renames (see AlterTable.apply)
    if isinstance(op, AlterCheckEnforcement):
        return 2.5  # after the new checks
    return 3


@_command
class AlterTable(Command):
    """ALTER TABLE [IF EXISTS] t op, op, ...: ``operations`` applied to one new version in the
    server's phases: DROP clauses, column clauses, new keys and constraints, then table options,
    each phase in statement order.

    Column definitions in ADD/CHANGE/MODIFY inherit the table charset as it is at the *end* of the
    statement (``ADD c VARCHAR(3), DEFAULT CHARSET=latin1`` gives c latin1; MariaDB 10.11 checked).
    """

    table: TableId
    operations: tuple[AlterOperation, ...] = ()
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = catalog.table(self.table)
        if t is None:
            if self.if_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Table '{catalog.qualify(self.table)}' doesn't exist")
        rules = rules_for(options)
        cs, coll = t.charset, t.collation
        if cs is None:
            cs, coll = _database_defaults(catalog, t.id.database, options)
        # The table default at the end of the statement: an explicit [DEFAULT] CHARSET/COLLATE
        # wins over CONVERT TO, in any order (MariaDB 10.11: "CONVERT TO CHARACTER SET utf8,
        # DEFAULT COLLATE latin1_bin" converts the columns and leaves the default latin1_bin).
        # CHARSET and COLLATE clauses accumulate separately and must agree (MariaDB 10.11:
        # "DEFAULT COLLATE latin1_bin, DEFAULT CHARACTER SET utf8mb4" is an error).
        explicit_cs = explicit_coll = convert = None
        for op in self.operations:
            c2 = l2 = None
            if isinstance(op, DefaultCharset):
                c2, l2 = op.charset, op.collation
            elif isinstance(op, TableOptions):
                _, c2, l2, _, _ = _split_options(op.options)
            elif isinstance(op, ConvertCharset):
                new = charsets.resolve_pair(op.charset, op.collation, (cs, coll), rules.collation_column)
                if convert is not None and new[0] != convert[0]:
                    raise DdlSemanticError(f"Conflicting declarations: 'CHARACTER SET {convert[0]}' and "
                                           f"'CHARACTER SET {new[0]}'")
                convert = new
            if l2 is not None and explicit_coll is not None and \
                    charsets.canonical_collation(l2) != charsets.canonical_collation(explicit_coll):
                raise DdlSemanticError(f"Conflicting declarations: 'COLLATE {explicit_coll}' and 'COLLATE {l2}'")
            if c2 is not None and explicit_cs is not None and \
                    charsets.canonical_charset(c2) != charsets.canonical_charset(explicit_cs):
                raise DdlSemanticError(f"Conflicting declarations: 'CHARACTER SET {explicit_cs}' and "
                                       f"'CHARACTER SET {c2}'")
            explicit_cs = c2 if c2 is not None else explicit_cs
            explicit_coll = l2 if l2 is not None else explicit_coll
        explicit = None
        if explicit_cs is not None or explicit_coll is not None:
            explicit = charsets.resolve_pair(explicit_cs, explicit_coll, (cs, coll), rules.collation_column)
        cs, coll = explicit or convert or (cs, coll)
        st = _AlterState(catalog, options, _context(catalog, options, t.name, cs, coll))
        st.convert = convert
        st.original = {column_key(c.name) for c in t.columns}
        ed = t.edit()
        # The server builds the new definition in phases (mysql_prepare_alter_table()): the old
        # one minus what is dropped, then the existing columns changed in place, then new
        # columns and FIRST/AFTER moves (which see the new names), then the new keys and
        # constraints, then the rest. So "ADD CHECK (..), DROP CONSTRAINT CONSTRAINT_1" reuses
        # the name CONSTRAINT_1, "ADD KEY (a), CHANGE a b" fails on the unknown key column a, and
        # "ADD c AFTER a, CHANGE a b" fails on the unknown column a.
        ops = self.operations
        for op in ops:  # key and constraint drops name the old keys...
            if _phase(op) == 0 and not isinstance(op, DropColumn):
                op.apply_to(ed, st)
        renames = [op for op in ops if isinstance(op, RenameIndex)]
        renamed = {column_key(op.old_name) for op in renames}
        for op in ops:  # ...and ALTER INDEX, on an old key this statement neither drops nor renames
            if isinstance(op, AlterIndexVisibility):
                # (MariaDB 10.11: "ADD KEY k .., ALTER INDEX k IGNORED" and "RENAME KEY i TO i2,
                # ALTER INDEX i[2] .." fail with "Key 'k' doesn't exist"; checked on 10.11.19)
                if column_key(op.name) in renamed:
                    raise DdlSemanticError(f"Key '{op.name}' doesn't exist in table '{ed.id.name}'")
                op.apply_to(ed, st)
        _rename_indexes(ed, renames)  # ...so do renames
        readded = {column_key(op.column.name) for op in ops if isinstance(op, AddColumn)}
        for op in ops:  # ...then column drops (which also shrink keys)
            if isinstance(op, DropColumn):
                # a key part naming a column the statement drops and adds again stays (MariaDB
                # 10.11: "DROP COLUMN z, ADD COLUMN z INT" keeps KEY q (z); the new key parts are
                # looked up by name in the new definition)
                op.apply_to(ed, st, keep_keys=column_key(op.name) in readded)
        later = []
        for op in ops:  # existing columns change in place first...
            if isinstance(op, (ChangeColumn, ModifyColumn)):
                op.apply_to(ed, st, in_place=True)
            elif isinstance(op, (AlterColumnDefault, AlterColumnVisibility)):
                later.append(op)  # see _AlterState.claim_alter
            elif _phase(op) == 1 and not isinstance(op, AddColumn):
                op.apply_to(ed, st)
        for op in ops:  # ...then new columns and moves, in statement order
            if isinstance(op, AddColumn):
                op.apply_to(ed, st)
            elif isinstance(op, (ChangeColumn, ModifyColumn)) and (op.first or op.after is not None) \
                    and ed.has_column(op.column.name):
                ed.move_column(op.column.name, first=op.first, after=op.after)
        for op in ops:  # columns (re)defined in the second pass: ADD and positioned CHANGE/MODIFY
            if isinstance(op, AddColumn) or (isinstance(op, (ChangeColumn, ModifyColumn))
                                              and (op.first or op.after is not None)):
                st.new_defs.add(column_key(op.column.name))
        for op in later:
            st.claim_alter(op.name, ed)
            op.apply_to(ed, st)
        for phase in (1.5, 2, 2.5, 3):
            for op in ops:
                if _phase(op) == phase:
                    op.apply_to(ed, st)
        if st.convert is not None:
            cs2, coll2 = st.convert
            ed.columns = [convert_column_charset(
                c, cs2, charsets.binary_collation(cs2) if c.name.lower() in st.binary else coll2,
                promote=c.name.lower() not in st.changed) for c in ed.columns]
            st.changed |= {c.name.lower() for c in ed.columns if c.charset is not None}
        if st.changed:
            refit_keys(ed, st.changed, st.ctx)
        if not ed.columns:
            raise DdlSemanticError("You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
        if rules.drop_column_in_multi_unique_is_error and st.dropped:
            gone = {column_key(c) for c in st.dropped}
            for ix in t.keys():
                cols = [column_key(c) for c in ix.columns]
                hit = [c for c in ix.columns if column_key(c) in gone]
                if ix.unique and len(cols) > 1 and hit and len(hit) < len(cols) and ed.has_index(ix.name):
                    raise DdlSemanticError(f"Key column '{hit[0]}' doesn't exist in table")
        prune_generated_indexes(ed)
        # Sort the keys again where the server does (model/key_order.py: MySQL on every ALTER
        # but a bare RENAME TO; MariaDB when a key is added or the head key loses its standing),
        # by the NULL-ability the statement gives the columns before a new PRIMARY KEY forces
        # them NOT NULL (MariaDB 10.11: "ADD PRIMARY KEY (a)" keeps UNIQUE (a) after a NOT NULL
        # unique key; checked on 10.11.19).
        order = rules.key_order
        if order.resorts(t, ed.all_keys(), ed.columns, key_added=ed.keys_added,
                         rebuilt=any(not isinstance(op, RenameTo) for op in ops)):
            ed.resort_keys(order)
        promote_primary_key_columns(ed, st.ctx)
        check_expression_columns(ed)
        validate_table(ed)
        if t.sequence is not None and (
                [(c.name, c.column_type, c.nullable) for c in ed.columns] != [(c.name, c.column_type, c.nullable)
                                                                                for c in t.columns]
                or ed.all_keys() or ed.checks):
            # MariaDB 10.11: "Sequence 'db.s' table structure is invalid (Wrong number of columns)"
            raise DdlSemanticError(f"Sequence '{t.id}' table structure is invalid")
        new_id = catalog.qualify(st.new_id.qualified(t.id.database)) if st.new_id else t.id
        if st.new_id is not None and catalog.key(new_id) != catalog.key(t.id):
            if catalog.table(new_id) is not None:
                raise DdlSemanticError(f"Table '{new_id.name}' already exists")
            ed.rename(new_id)
            table = ed.build()
            dbs = _ensure_database(catalog, new_id.database, options)
            if table.temporary:
                return catalog.evolve(put_temporary=[table], remove_temporary=[t.id],
                                      changed=(t.id, new_id), databases=dbs)
            return catalog.evolve(put=[table], remove=[t.id], changed=(t.id, new_id), databases=dbs)
        return _put(catalog, ed.build(), changed=(t.id,))
