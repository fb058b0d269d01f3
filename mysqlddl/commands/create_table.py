"""CREATE TABLE, including LIKE and AS SELECT."""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError, PartialApplyError
from ..model import charsets
from ..model.catalog import Catalog
from ..model.column import Column, Default
from ..model.dialects import rules_for
from ..model.ids import TableId
from ..model.resolve import (
    ResolvedColumn,
    add_check_spec,
    add_column_extras,
    add_foreign_key_spec,
    add_key_spec,
    check_expression_columns,
    first_timestamp_before,
    promote_primary_key_columns,
    prune_generated_indexes,
    resolve_column,
    validate_table,
)
from ..model.spec import CheckSpec, ColumnSpec, DataTypeSpec, ForeignKeySpec, KeySpec
from ..model.table import Partitioning, Period, Sequence, Table
from ..options import DEFAULT, Options
from . import ctas_types
from .alter_whole_table import add_period, add_system_versioning
from .base import (
    Command,
    _canonical_engine,
    _command,
    _context,
    _database_defaults,
    _ensure_database,
    _put,
    _require_table,
    _split_options,
)


@dataclasses.dataclass(frozen=True, slots=True)
class SelectItem:
    """One column of CREATE TABLE ... AS SELECT: its resulting ``name`` and what it selects:

    - a plain column reference: the ``source`` table and ``column``;
    - a literal: its SQL text in ``literal`` (``'abc'``, ``-1.5``, ``NULL``, ``x'41'``...);
    - ``CAST(operand AS type)`` / ``CONVERT(operand, type)``: ``cast`` is the target type and the
      operand one of the two above;
    - a current-time function: ``function`` (upper-case: ``NOW``, ``CURDATE``...) and its
      precision text in ``literal`` (None when not given);
    - ``*`` or ``t.*`` (``star``): every shown column of ``source``, or of each of ``tables``
      (the FROM tables in order) for a bare ``*``.

    Anything else is an expression whose type the model does not infer: type ``unknown``."""

    name: str
    source: TableId | None = None
    column: str | None = None
    literal: str | None = None
    cast: DataTypeSpec | None = None
    function: str | None = None
    star: bool = False
    tables: tuple[TableId, ...] = ()


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
    periods: tuple[Period, ...] = ()
    system_versioning: bool = False

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
            # a new table: keys sorted
            ed = src.replace(foreign_keys=()).edit().rename(tid).resort_keys(rules_for(options).key_order)
            ed.set(temporary=self.temporary)
            if src.sequence is not None:
                ed.set(sequence=Sequence())  # LIKE a sequence: a new sequence with the default settings
            return ed.build()
        db_cs = _database_defaults(catalog, tid.database, options)
        cs, coll = charsets.resolve_pair(cs, coll, db_cs, rules_for(options).collation_column)
        ctx = _context(catalog, options, tid.name, cs, coll)
        ed = Table(tid).edit().key_order(rules_for(options).key_order)
        engine = engine or catalog.default_engine(options)
        ed.set(charset=cs, collation=coll, engine=engine and _canonical_engine(engine),
               comment=comment, options=tuple(others), partitioning=self.partitioning,
               temporary=self.temporary)
        resolved: list[ResolvedColumn] = []
        # WITH SYSTEM VERSIONING on a column versions the table, and then only the columns that
        # said so (MariaDB KB "System-Versioned Tables", "Excluding Columns From Versioning")
        by_column = not self.system_versioning and any(c.versioning for c in self.columns)
        for spec in self.columns:
            rc = resolve_column(spec, ctx, first_timestamp=first_timestamp_before(ed.columns, len(ed.columns)))
            if by_column and spec.versioning is None and spec.row_period is None:
                rc = dataclasses.replace(rc, column=rc.column.replace(versioned=False))
            ed.add_column(rc.column)
            resolved.append(rc)
        if self.as_select is not None:
            explicit = {c.name.lower() for c in self.columns}
            for item in self.as_select.items:
                for c in select_columns(catalog, item, options):
                    if c.name.lower() in explicit:
                        continue  # an explicit column definition wins (manual 15.1.20.4)
                    ed.add_column(c)  # (two SELECT items of one name fail, as on the server)
        for p in self.periods:
            add_period(ed, p)
        if self.system_versioning or by_column:
            add_system_versioning(ed)
        else:  # WITHOUT SYSTEM VERSIONING means nothing in a table that is not versioned (10.11)
            ed.columns = [c.replace(versioned=True) if not c.versioned else c for c in ed.columns]
        if ("SEQUENCE", "1") in tuple(others):
            ed.set(sequence=Sequence())  # CREATE TABLE ... SEQUENCE=1, as SHOW CREATE TABLE prints one
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


def _copied(c: Column, name: str) -> Column:
    """A CTAS column copied from its source column: type, charset, NULL-ability and default are
    kept, AUTO_INCREMENT, ON UPDATE aside, is not (an AUTO_INCREMENT NOT NULL column gets
    DEFAULT 0, as MariaDB 10.11 shows); a system-versioning column becomes a plain one."""
    d = c.default
    if c.auto_increment and d is None and not c.nullable:
        d = Default.literal("0")
    return c.replace(name=name, auto_increment=False, default=d, row_period=None, versioned=True)


def select_columns(catalog: Catalog, item: SelectItem, options: Options = DEFAULT) -> list[Column]:
    """The columns one SELECT item gives a CREATE TABLE ... SELECT (see :class:`SelectItem`)."""
    if item.star:
        tables = (item.source,) if item.source is not None else item.tables
        out = []
        for tid in tables:
            src = _require_table(catalog, tid)
            out += [_copied(c, c.name) for c in src.columns if not c.hidden]
        return out
    if item.cast is not None:
        return [_cast_column(catalog, item, options)]
    operand = _operand(catalog, item, options)
    return [operand if operand is not None else Column(item.name, "unknown", declared_type="")]


def _operand(catalog: Catalog, item: SelectItem, options: Options) -> Column | None:
    if item.function is not None:
        return ctas_types.function_column(item.name, item.function, item.literal)
    if item.literal is not None:
        return ctas_types.literal_column(item.name, item.literal, _connection_charset(catalog, options),
                                         rules_for(options).collation_column)
    if item.source is not None and item.column is not None:
        src = catalog.table(item.source)
        c = src.column(item.column) if src is not None else None
        if c is None and src is not None:
            raise DdlSemanticError(f"Unknown column '{item.column}' in 'field list'")
        if c is not None:
            return _copied(c, item.name)
    return None


def _cast_column(catalog: Catalog, item: SelectItem, options: Options) -> Column:
    operand = _operand(catalog, dataclasses.replace(item, cast=None), options)
    if operand is None or operand.type_name == "unknown":
        nullable = True
    else:
        nullable = operand.nullable
    col = ctas_types.cast_column(item.name, item.cast, nullable, _connection_charset(catalog, options),
                                 rules_for(options).collation_column)
    return col if col is not None else Column(item.name, "unknown", declared_type="")


def _connection_charset(catalog: Catalog, options: Options) -> tuple[str | None, str | None]:
    """(character_set_connection, collation_connection) of the session: SET NAMES, else SET
    character_set_connection / collation_connection, else None (the literal's charset is then
    ``options.charset_fallback``)."""
    s = catalog.session
    vars_ = dict(s.variables)
    coll = s.collation_connection or vars_.get("collation_connection")
    cs = s.character_set_client or vars_.get("character_set_connection") or vars_.get("character_set_client")
    unq = lambda v: v.strip("'\"") if v else v  # noqa: E731
    cs, coll = unq(cs), unq(coll)
    if cs is None and coll is None:
        cs = options.charset_fallback
    return cs, coll
