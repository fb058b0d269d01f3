"""Schema-change commands: one small frozen dataclass per statement family.

Listeners build commands from parse trees; ``command.apply(catalog, options)`` is the only thing
that changes schema state and returns a new :class:`~mysqlddl.model.Catalog` version. Commands hold
what the statement *said* (:class:`ColumnSpec`, :class:`KeySpec`...); ``apply`` resolves what the
server makes of it (implicit NULL-ability, TIMESTAMP defaults, charset inheritance, synonyms...).

``apply`` raises :class:`~mysqlddl.errors.DdlSemanticError` when the server would refuse the
statement (unknown table, duplicate column...); :func:`apply_all` applies a list of commands under
``options.error_policy``. Every command round-trips through ``to_json()`` / ``Command.from_json()``.

Identifiers in commands are unquoted names; a TableId with ``database=None`` means "the session's
default database" (set by :class:`UseDatabase` or by the history from the binlog event).

Building commands (what a listener does)::

    CreateTable(TableId(None, "t"),
                columns=(ColumnSpec("id", DataTypeSpec("INT", unsigned=True), nullable=False,
                                    auto_increment=True),
                         ColumnSpec("s", DataTypeSpec("VARCHAR", 20, charset="latin1"),
                                    default="'x'", comment="'note'")),
                keys=(KeySpec(IndexKind.PRIMARY, (IndexPart("id"),)),),
                options=(("ENGINE", "InnoDB"), ("DEFAULT CHARSET", "utf8mb4")))
    AlterTable(TableId("db", "t"), (AddColumn(ColumnSpec(...), after="id"), DropColumn("s")))
    SetVariable((Assignment("sql_mode", "'ANSI_QUOTES'"),))

Text fields keep SQL as written (literals with their quotes, expressions verbatim); names are
unquoted. ``col(name, type, length, scale, **kw)`` is a shorthand for tests.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from typing import Any, ClassVar

from .errors import DdlError, DdlSemanticError, PartialApplyError
from .model import charsets, codec, literals
from .model.catalog import Catalog, Database, View
from .model.column import Column, Default, DefaultKind
from .model.dialects import rules_for
from .model.ids import TableId, column_key, lookup_name, stored_name
from .model.resolve import (
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
from .model.spec import CheckSpec, ColumnSpec, DataTypeSpec, ForeignKeySpec, KeySpec, col
from .model.table import IndexKind, IndexPart, Partitioning, Table, TableEditor
from .model.types import TypeFamily
from .options import DEFAULT, ErrorPolicy, Options

__all__ = [
    "AddCheck", "AddColumn", "AddForeignKey", "AddIndex", "AlterColumnDefault",
    "AlterColumnVisibility", "AlterDatabase", "AlterOperation", "AlterTable", "AlterView",
    "ApplyResult", "AsSelect", "Assignment", "ChangeColumn", "CheckSpec", "ColumnSpec", "Command",
    "ConvertCharset", "CreateDatabase", "CreateIndex", "CreateTable", "CreateView", "DataTypeSpec",
    "DefaultCharset", "DropCheck", "DropColumn", "DropConstraint", "DropDatabase", "DropForeignKey",
    "DropIndex", "DropKey", "DropPrimaryKey", "DropTable", "DropView", "ForeignKeySpec",
    "IndexKind", "IndexPart", "KeySpec", "ModifyColumn", "PartitionOp", "Partitioning",
    "RenameColumn", "RenameIndex", "RenameTable", "RenameTo", "SelectItem", "SetVariable",
    "TableId", "TableOptions", "TruncateTable", "UseDatabase", "apply_all", "col",
]


# ============================================================================== base


class Command:
    """Base of every command. Subclasses are frozen dataclasses with slots."""

    __slots__ = ()
    family: ClassVar[str] = ""

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        raise NotImplementedError

    def to_data(self) -> dict[str, Any]:
        return codec.to_data(self)

    def to_json(self) -> str:
        return json.dumps(self.to_data(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_data(data: dict[str, Any]) -> Command:
        return codec.from_data(data, Command)

    @staticmethod
    def from_json(text: str) -> Command:
        return Command.from_data(json.loads(text))


def _command(cls):
    return codec.polymorphic(dataclasses.dataclass(frozen=True, slots=True)(cls))


@dataclasses.dataclass(frozen=True, slots=True)
class ApplyResult:
    """What :func:`apply_all` did: the resulting ``catalog``, the ``errors`` that were collected,
    warned about or skipped (empty under RAISE, which raises instead) and how many commands were
    ``skipped``."""

    catalog: Catalog
    errors: tuple[DdlError, ...] = ()

    @property
    def skipped(self) -> int:
        return len(self.errors)


def apply_all(catalog: Catalog, commands, options: Options = DEFAULT) -> ApplyResult:
    """Apply ``commands`` in order under ``options.error_policy``: RAISE stops at the first error;
    COLLECT, WARN (one warning each) and SKIP leave the catalog as it was for a failing command
    and go on, returning the errors."""
    errors: list[DdlError] = []
    for cmd in commands:
        try:
            catalog = cmd.apply(catalog, options)
        except DdlError as e:
            if options.error_policy is ErrorPolicy.RAISE:
                raise
            errors.append(e)
            if isinstance(e, PartialApplyError) and e.catalog is not None:
                catalog = e.catalog  # what the server did before failing
            if options.error_policy is ErrorPolicy.WARN:
                warnings.warn(f"skipped {type(cmd).__name__}: {e}", stacklevel=2)
    return ApplyResult(catalog, tuple(errors))


# ============================================================================== helpers


def _database_defaults(catalog: Catalog, db: str | None, options: Options) -> tuple[str, str]:
    d = catalog.database(db) if db is not None else None
    if d is not None:
        return d.charset, d.collation
    return catalog.server_charset(options)


def _context(catalog: Catalog, options: Options, table: str, charset: str, collation: str) -> Context:
    return Context.make(options, table, charset, collation,
                        explicit_defaults_for_timestamp=catalog.explicit_defaults_for_timestamp(options),
                        sql_mode=catalog.sql_mode(options))


def _require_table(catalog: Catalog, tid: TableId) -> Table:
    t = catalog.table(tid)
    if t is None:
        raise DdlSemanticError(f"Table '{catalog.qualify(tid)}' doesn't exist")
    return t


def _ensure_database(catalog: Catalog, name: str | None, options: Options) -> dict[str, Database] | None:
    """A database mapping including ``name`` (created with the server defaults when the catalog has
    never seen it: binlogs often start after CREATE DATABASE), or None when nothing changes."""
    if name is None:
        raise DdlSemanticError("No database selected")
    if catalog.database(name) is not None:
        return None
    cs, coll = catalog.server_charset(options)
    return catalog.with_database(Database(name, cs, coll))


def _put(catalog: Catalog, table: Table, *, remove: tuple[TableId, ...] = (),
         changed: tuple[TableId, ...], databases=None) -> Catalog:
    if table.temporary:
        return catalog.evolve(put_temporary=[table], remove_temporary=remove, changed=changed,
                              databases=databases)
    return catalog.evolve(put=[table], remove=remove, changed=changed, databases=databases)


def _option_value(text: str) -> str:
    v = literals.string_value(text)
    return v if v is not None else text


_CHARSET_OPTIONS = {"CHARSET", "CHARACTER SET", "DEFAULT CHARSET", "DEFAULT CHARACTER SET"}
_COLLATE_OPTIONS = {"COLLATE", "DEFAULT COLLATE"}
_IGNORED_OPTIONS = {"AUTO_INCREMENT"}  # changes with every insert; not part of the definition


def _split_options(options: tuple[tuple[str, str], ...]):
    """(engine, charset, collation, comment, others) from table option pairs."""
    engine = charset = collation = comment = None
    others = []
    for name, value in options:
        n = " ".join(name.upper().split())
        if n == "ENGINE" or n == "TYPE":
            engine = _option_value(value)
        elif n in _CHARSET_OPTIONS:
            charset = _option_value(value)
        elif n in _COLLATE_OPTIONS:
            collation = _option_value(value)
        elif n == "COMMENT":
            comment = _option_value(value)
        elif n not in _IGNORED_OPTIONS:
            others.append((n, _option_value(value)))
    return engine, charset, collation, comment, others


def _canonical_engine(name: str) -> str:
    known = {"innodb": "InnoDB", "myisam": "MyISAM", "memory": "MEMORY", "heap": "MEMORY",
             "aria": "Aria", "csv": "CSV", "archive": "ARCHIVE", "blackhole": "BLACKHOLE",
             "merge": "MRG_MyISAM", "mrg_myisam": "MRG_MyISAM", "ndb": "ndbcluster",
             "ndbcluster": "ndbcluster", "federated": "FEDERATED", "rocksdb": "ROCKSDB",
             "sequence": "SEQUENCE", "spider": "SPIDER", "connect": "CONNECT", "s3": "S3"}
    return known.get(name.lower(), name)


# ============================================================================== CREATE TABLE


@dataclasses.dataclass(frozen=True, slots=True)
class SelectItem:
    """One column of CREATE TABLE ... AS SELECT: its resulting ``name`` and, when it is a plain
    column reference, the ``source`` table and ``column`` (None for expressions, whose type the
    model cannot know: they get type ``unknown``)."""

    name: str
    source: TableId | None = None
    column: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class AsSelect:
    """The AS SELECT part of CREATE TABLE: the SELECT ``text`` and its ``items`` in order."""

    text: str
    items: tuple[SelectItem, ...] = ()


@_command
class CreateTable(Command):
    """CREATE [TEMPORARY] TABLE [IF NOT EXISTS] (MariaDB: OR REPLACE).

    ``options``: table options as (name, value) pairs, names as written (``ENGINE``,
    ``DEFAULT CHARSET``, ``COLLATE``, ``COMMENT``, ``ROW_FORMAT``...), values as written (COMMENT
    keeps its quotes). ``like``: CREATE TABLE ... LIKE source (then columns/keys are empty).
    ``as_select``: the AS SELECT part; its items follow the explicit ``columns``.
    """

    table: TableId
    columns: tuple[ColumnSpec, ...] = ()
    keys: tuple[KeySpec, ...] = ()
    foreign_keys: tuple[ForeignKeySpec, ...] = ()
    checks: tuple[CheckSpec, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    partitioning: Partitioning | None = None
    if_not_exists: bool = False
    or_replace: bool = False
    temporary: bool = False
    like: TableId | None = None
    as_select: AsSelect | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        if self.or_replace and self.if_not_exists:
            raise DdlSemanticError("Incorrect usage of OR REPLACE and IF NOT EXISTS")
        tid = catalog.qualify(self.table)
        dbs = _ensure_database(catalog, tid.database, options)
        engine, cs, coll, comment, others = _split_options(self.options)
        if cs is not None and coll is not None:  # the parser already rejects a mismatch
            charsets.resolve_pair(cs, coll, ("binary", "binary"), rules_for(options).collation_column)
        existing = (catalog.temporary_tables if self.temporary else catalog.tables).get(catalog.key(tid))
        if existing is not None:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            if not self.or_replace:
                raise DdlSemanticError(f"Table '{tid.name}' already exists")
        try:
            table = self._build(catalog, options, tid, engine, cs, coll, comment, others)
        except DdlSemanticError as e:
            if existing is None or isinstance(e, PartialApplyError):
                raise
            # MariaDB's CREATE OR REPLACE drops the old table first: a failed replacement leaves
            # no table at all (checked on 10.11.19).
            gone = catalog.evolve(remove_temporary=[tid], changed=(tid,)) if self.temporary else \
                catalog.evolve(remove=[tid], changed=(tid,))
            raise PartialApplyError(e.message, catalog=gone) from e
        return _put(catalog, table, changed=(tid,), databases=dbs)

    def _build(self, catalog, options, tid, engine, cs, coll, comment, others) -> Table:
        if self.like is not None:
            src = _require_table(catalog, self.like)
            ed = src.replace(foreign_keys=()).edit().rename(tid).resort_keys()  # a new table: keys sorted
            ed.set(temporary=self.temporary)
            return ed.build()
        db_cs = _database_defaults(catalog, tid.database, options)
        cs, coll = charsets.resolve_pair(cs, coll, db_cs, rules_for(options).collation_column)
        ctx = _context(catalog, options, tid.name, cs, coll)
        ed = Table(tid).edit()
        ed.set(charset=cs, collation=coll, engine=_canonical_engine(engine or catalog.default_engine(options)),
               comment=comment, options=tuple(others), partitioning=self.partitioning,
               temporary=self.temporary)
        resolved: list[ResolvedColumn] = []
        for spec in self.columns:
            rc = resolve_column(spec, ctx, first_timestamp=first_timestamp_before(ed.columns, len(ed.columns)))
            ed.add_column(rc.column)
            resolved.append(rc)
        if self.as_select is not None:
            for item in self.as_select.items:
                if ed.has_column(item.name):
                    continue  # an explicit column definition wins (manual 13.1.20.4)
                ed.add_column(_select_column(catalog, item))
        for rc in resolved:
            add_column_extras(ed, rc, ctx)
        for k in self.keys:
            add_key_spec(ed, k, ctx)
        for fk in self.foreign_keys:
            add_foreign_key_spec(ed, fk, ctx)
        prune_generated_indexes(ed)
        for chk in self.checks:
            add_check_spec(ed, chk, ctx)
        promote_primary_key_columns(ed, ctx)
        check_expression_columns(ed)
        validate_table(ed)
        return ed.build()


def _select_column(catalog: Catalog, item: SelectItem) -> Column:
    """A CTAS column copied from its source column: type, charset, NULL-ability and default are
    kept, AUTO_INCREMENT is not (an AUTO_INCREMENT NOT NULL column gets DEFAULT 0, as MariaDB
    10.11 shows)."""
    if item.source is not None and item.column is not None:
        src = catalog.table(item.source)
        c = src.column(item.column) if src is not None else None
        if c is not None:
            d = c.default
            if c.auto_increment and d is None and not c.nullable:
                d = Default.literal("0")
            return c.replace(name=item.name, auto_increment=False, default=d)
    return Column(item.name, "unknown", declared_type="")


# ============================================================================== ALTER TABLE


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
        st.changed.add(rc.column.name.lower())
        if self.column.type.binary:
            st.binary.add(rc.column.name.lower())
        if self.column.type.binary:
            st.binary.add(rc.column.name.lower())
        add_column_extras(ed, rc, st.ctx)


@_op
class DropColumn(AlterOperation):
    """DROP [COLUMN] [IF EXISTS] col."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_exists and not ed.has_column(self.name):
            return
        if column_key(self.name) not in st.original:
            raise DdlSemanticError(f"Can't DROP COLUMN `{self.name}`; check that it exists")
        st.dropped.append(self.name)
        ed.drop_column(self.name)


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
        st.changed.add(rc.column.name.lower())
        if self.column.type.binary:
            st.binary.add(rc.column.name.lower())
        add_column_extras(ed, rc, st.ctx)


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

    def apply_to(self, ed, st):
        a = " ".join(self.action.upper().split())
        cur = ed.fields.get("partitioning", ed._t.partitioning)
        if a == "PARTITION BY":
            ed.set(partitioning=self.partitioning)
        elif a == "REMOVE PARTITIONING":
            ed.set(partitioning=None)
        elif self.partitioning is not None:
            ed.set(partitioning=self.partitioning)
        elif cur is not None and a == "ADD PARTITION":
            ed.set(partitioning=dataclasses.replace(
                cur, names=cur.names + self.names,
                count=(cur.count + len(self.names)) if cur.count is not None else None))
        elif cur is not None and a == "DROP PARTITION":
            drop = {n.lower() for n in self.names}
            names = tuple(n for n in cur.names if n.lower() not in drop)
            ed.set(partitioning=dataclasses.replace(
                cur, names=names, count=(cur.count - len(self.names)) if cur.count is not None else None))


_DROPS = (DropColumn, DropKey, DropPrimaryKey, DropForeignKey, DropCheck, DropConstraint)
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
        return -1  # with the key drops, before anything else
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
        for op in ops:  # key and constraint drops and key renames name the old keys...
            if (_phase(op) == 0 and not isinstance(op, DropColumn)) or isinstance(op, RenameIndex):
                op.apply_to(ed, st)
        for op in ops:  # ...then column drops (which also shrink keys)
            if isinstance(op, DropColumn):
                op.apply_to(ed, st)
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
        for phase in (2, 3):
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
        promote_primary_key_columns(ed, st.ctx)
        check_expression_columns(ed)
        validate_table(ed)
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


# ============================================================================== other table DDL


@_command
class DropTable(Command):
    """DROP [TEMPORARY] TABLE [IF EXISTS] t1, t2, ...: a temporary table of that name is dropped
    first. An unknown table without IF EXISTS fails the statement: MySQL 8.0 drops nothing;
    MariaDB drops the others first (:class:`~mysqlddl.errors.PartialApplyError` carries that
    catalog, which the lenient error policies continue from)."""

    tables: tuple[TableId, ...]
    if_exists: bool = False
    temporary: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        rm, rm_tmp, changed, missing = [], [], [], []
        seen = set()
        for tid in self.tables:
            q = catalog.qualify(tid)
            if catalog.key(q) in seen:
                raise DdlSemanticError(f"Not unique table/alias: '{q.name}'")
            seen.add(catalog.key(q))
            k = catalog.key(q)
            if k in catalog.temporary_tables:
                rm_tmp.append(q)
            elif not self.temporary and k in catalog.tables:
                rm.append(q)
            elif not self.if_exists:
                missing.append(str(q))
                continue
            else:
                continue
            changed.append(q)
        if missing:
            msg = f"Unknown table '{','.join(missing)}'"
            if rules_for(options).drop_table_partial and changed:
                raise PartialApplyError(msg, catalog=catalog.evolve(remove=rm, remove_temporary=rm_tmp,
                                                                    changed=changed))
            raise DdlSemanticError(msg)
        return catalog.evolve(remove=rm, remove_temporary=rm_tmp, changed=changed)


@_command
class RenameTable(Command):
    """RENAME TABLE a TO b, c TO d, ...: pairs applied in sequence, so swaps through a temporary
    name work."""

    pairs: tuple[tuple[TableId, TableId], ...]

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        changed = []
        cat = catalog
        for old, new in self.pairs:
            t = _require_table(cat, old)
            nid = cat.qualify(new)
            if cat.table(nid) is not None:
                raise DdlSemanticError(f"Table '{nid.name}' already exists")
            dbs = _ensure_database(cat, nid.database, options)
            moved = t.replace(id=nid)
            if t.temporary:
                cat = cat.evolve(put_temporary=[moved], remove_temporary=[t.id], databases=dbs)
            else:
                cat = cat.evolve(put=[moved], remove=[t.id], databases=dbs)
            changed += [t.id, nid]
        return dataclasses.replace(cat, version=catalog.version + 1, changed=tuple(changed))


@_command
class TruncateTable(Command):
    """TRUNCATE [TABLE] t: no schema change; recorded so consumers see it (``changed``)."""

    table: TableId

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = _require_table(catalog, self.table)
        return catalog.evolve(changed=(t.id,))


@_command
class CreateIndex(Command):
    """CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name ON t (...)."""

    table: TableId
    key: KeySpec
    if_not_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return AlterTable(self.table, (AddIndex(self.key, self.if_not_exists),)).apply(catalog, options)


@_command
class DropIndex(Command):
    """DROP INDEX [IF EXISTS] name ON t."""

    table: TableId
    name: str
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return AlterTable(self.table, (DropKey(self.name, self.if_exists),)).apply(catalog, options)


# ============================================================================== databases


@_command
class CreateDatabase(Command):
    """CREATE {DATABASE|SCHEMA} [IF NOT EXISTS] (MariaDB: OR REPLACE) name [CHARACTER SET cs]
    [COLLATE c] [COMMENT 'x']. ``comment`` as written (quoted) or None."""

    name: str
    charset: str | None = None
    collation: str | None = None
    if_not_exists: bool = False
    or_replace: bool = False
    comment: str | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        if catalog.database(self.name) is not None:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            if not self.or_replace:
                raise DdlSemanticError(f"Can't create database '{self.name}'; database exists")
            catalog = DropDatabase(self.name).apply(catalog, options)
        cs, coll = charsets.resolve_pair(self.charset, self.collation, catalog.server_charset(options),
                                         rules_for(options).collation_column)
        db = Database(stored_name(self.name, catalog.lower_case_table_names), cs, coll,
                      _option_value(self.comment) if self.comment is not None else None)
        return catalog.evolve(databases=catalog.with_database(db), changed=catalog.changed
                              if self.or_replace else ())


@_command
class AlterDatabase(Command):
    """ALTER {DATABASE|SCHEMA} [name] [CHARACTER SET cs] [COLLATE c] [COMMENT 'x']; ``name``
    None means the default database. Existing tables keep their charsets."""

    name: str | None = None
    charset: str | None = None
    collation: str | None = None
    comment: str | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        name = self.name or catalog.session.database
        db = catalog.database(name) if name else None
        if db is None:
            raise DdlSemanticError(f"Unknown database '{name}'")
        cs, coll = db.charset, db.collation
        if self.charset is not None or self.collation is not None:
            cs, coll = charsets.resolve_pair(self.charset, self.collation, (cs, coll),
                                             rules_for(options).collation_column)
        comment = _option_value(self.comment) if self.comment is not None else db.comment
        return catalog.evolve(databases=catalog.with_database(Database(db.name, cs, coll, comment)))


@_command
class DropDatabase(Command):
    """DROP {DATABASE|SCHEMA} [IF EXISTS] name: its tables and views go with it."""

    name: str
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        db = catalog.database(self.name)
        gone = catalog.tables_in(self.name)
        if db is None and not gone:
            if self.if_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Can't drop database '{self.name}'; database doesn't exist")
        key = db.name if db else self.name
        k = lookup_name(key, catalog.lower_case_table_names)
        views = {vk: v for vk, v in catalog.views.items() if vk.database != k}
        return catalog.evolve(remove=[t.id for t in gone], databases=catalog.with_database(None, key),
                              views=views, changed=[t.id for t in gone])


@_command
class UseDatabase(Command):
    """USE name: the default database for unqualified names."""

    name: str

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return catalog.evolve(session=catalog.session.replace(database=self.name))


# ============================================================================== SET


@dataclasses.dataclass(frozen=True, slots=True)
class Assignment:
    """One ``name = value`` of a SET statement. ``name`` lower-case without ``@@``/scope
    (``names`` for SET NAMES, ``character set`` for SET CHARACTER SET); ``value`` the value text
    as written (quotes kept or not); ``scope`` session/global/persist; ``collation`` for
    SET NAMES cs COLLATE c."""

    name: str
    value: str
    scope: str = "session"
    collation: str | None = None


def _bool_value(v: str) -> bool:
    s = v.strip().strip("'\"").upper()
    if s in ("1", "ON", "TRUE"):
        return True
    if s in ("0", "OFF", "FALSE"):
        return False
    raise DdlSemanticError(f"Variable can't be set to the value of '{v}'")


def _default_or(v: str) -> str | None:
    s = _option_value(v).strip()
    return None if s.upper() == "DEFAULT" else s


@_command
class SetVariable(Command):
    """SET ...: the variables that change how later DDL resolves are applied to the session
    (character_set_server, collation_server, character_set_database/collation_database (applied
    to the server defaults, which is how CREATE DATABASE sees them in a replayed binlog),
    sql_mode, explicit_defaults_for_timestamp, foreign_key_checks, default_storage_engine,
    NAMES / CHARACTER SET); others are recorded in ``session.variables``."""

    assignments: tuple[Assignment, ...]

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        s = catalog.session
        for a in self.assignments:
            n = a.name.lower().lstrip("@")
            for p in ("session.", "global.", "local.", "persist.", "persist_only."):
                if n.startswith(p):
                    n = n[len(p):]
            v = a.value
            if n in ("character_set_server", "character_set_database"):
                s = s.replace(character_set_server=_default_or(v) and charsets.canonical_charset(_default_or(v)),
                              collation_server=None)
            elif n in ("collation_server", "collation_database"):
                cv = _default_or(v)
                s = s.replace(collation_server=cv and charsets.canonical_collation(cv),
                              character_set_server=cv and charsets.charset_of_collation(cv))
            elif n == "sql_mode":
                mv = _default_or(v)
                s = s.replace(sql_mode=None if mv is None else frozenset(
                    m.strip().upper() for m in mv.split(",") if m.strip()))
            elif n == "explicit_defaults_for_timestamp":
                s = s.replace(explicit_defaults_for_timestamp=None if _default_or(v) is None else _bool_value(v))
            elif n == "foreign_key_checks":
                s = s.replace(foreign_key_checks=True if _default_or(v) is None else _bool_value(v))
            elif n in ("default_storage_engine", "storage_engine"):
                s = s.replace(default_storage_engine=_default_or(v))
            elif n in ("names", "character set", "charset"):
                cs = _default_or(v)
                s = s.replace(character_set_client=cs and charsets.canonical_charset(cs),
                              collation_connection=a.collation)
            else:
                s = s.replace(variables=tuple((k, x) for k, x in s.variables if k != n) + ((n, v),))
        return catalog.evolve(session=s)


# ============================================================================== views


@_command
class CreateView(Command):
    """CREATE [OR REPLACE] [ALGORITHM=..] [DEFINER=..] [SQL SECURITY ..] VIEW [IF NOT EXISTS] v
    [(cols)] AS select [WITH CHECK OPTION]: recorded, not analysed. ``options``: the other clauses
    as (name, value)."""

    view: TableId
    definition: str
    columns: tuple[str, ...] = ()
    or_replace: bool = False
    if_not_exists: bool = False
    options: tuple[tuple[str, str], ...] = ()

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        vid = catalog.qualify(self.view)
        if catalog.base_table(vid) is not None:
            raise DdlSemanticError(f"Table '{vid.name}' already exists")
        if catalog.view(vid) is not None and not self.or_replace:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Table '{vid.name}' already exists")
        views = dict(catalog.views)
        views[catalog.key(vid)] = View(vid, self.definition, self.columns, self.options)
        return catalog.evolve(views=views, changed=(vid,))


@_command
class AlterView(Command):
    """ALTER VIEW v [(cols)] AS select: replaces the recorded definition."""

    view: TableId
    definition: str
    columns: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        vid = catalog.qualify(self.view)
        if catalog.view(vid) is None:
            raise DdlSemanticError(f"Table '{vid}' doesn't exist")
        return CreateView(self.view, self.definition, self.columns, True, False,
                          self.options).apply(catalog, options)


@_command
class DropView(Command):
    """DROP VIEW [IF EXISTS] v1, v2, ..."""

    views: tuple[TableId, ...]
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        views = dict(catalog.views)
        changed = []
        for v in self.views:
            k = catalog.key(v)
            if k not in views:
                if self.if_exists:
                    continue
                raise DdlSemanticError(f"Unknown VIEW: '{catalog.qualify(v)}'")
            del views[k]
            changed.append(catalog.qualify(v))
        return catalog.evolve(views=views, changed=changed)

