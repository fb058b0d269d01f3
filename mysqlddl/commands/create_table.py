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
from ..model.spec import CheckSpec, ColumnSpec, ForeignKeySpec, KeySpec
from ..model.table import Partitioning, Table
from ..options import DEFAULT, Options
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
