"""Object mapping rules: which source objects reach a target, under which names and types.

The rules of the reference event processor's object mapping engine, for our sinks (the PostgreSQL
sink applies them to DDL and DML alike, so a renamed column stays renamed after every ALTER):

    [[mapping.include]] / [[mapping.exclude]]   database, table, column globs (fnmatch: * ? [..])
    [[mapping.tables]]    database, table -> schema and/or name (a database alone: its schema)
    [[mapping.columns]]   database, table, column -> name, type (a target type, verbatim),
                          transform (a target expression, ``%d`` standing for the converted value,
                          evaluated in the target), or a Python callable (API only: applied to the
                          converted value before it is sent)

Matching: databases and tables case-sensitively (``lower_case_table_names=0``, the Linux default),
columns case-insensitively (MySQL manual 11.2.3: column names are not case-sensitive). Globs match
in include/exclude; the rename, type and transform rules name one object each (``*`` in a rule's
database or table applies it to every table; a rule's column is exact). The first matching
rule wins. A table is included when some include rule matches it (or there is none) and no exclude
rule does; a column likewise.

Rules are frozen; :meth:`Mapping.validate` checks them against the schema in force and raises a
:class:`~mysqlddl.errors.MappingError` that names the rule (``mapping.columns[2]``) and the key.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from collections.abc import Mapping as MappingABC
from fnmatch import fnmatchcase

from ..errors import MappingError
from ..model.catalog import Catalog
from ..model.ids import column_key

_HEADER = re.compile(r"^\s*\[\[\s*mapping\.(include|exclude|tables|columns)\s*\]\]\s*(#.*)?$")
VALUE_MARK = "%d"     # the converted value inside a transform expression (the reference design's mark)


@dataclasses.dataclass(frozen=True, slots=True)
class Pattern:
    """An include/exclude entry: globs for database, table (None: any) and column (None: the
    whole table)."""

    database: str = "*"
    table: str | None = None
    column: str | None = None
    where: str = ""

    def matches_table(self, db: str, table: str) -> bool:
        return fnmatchcase(db, self.database) and (self.table is None or fnmatchcase(table, self.table))

    def matches_column(self, db: str, table: str, column: str) -> bool:
        return (self.column is not None and self.matches_table(db, table)
                and fnmatchcase(column.lower(), self.column.lower()))


@dataclasses.dataclass(frozen=True, slots=True)
class TableRule:
    """``database``.``table`` (``table`` None: the whole database) goes to ``schema``.``name``
    (each None: unchanged)."""

    database: str
    table: str | None = None
    schema: str | None = None
    name: str | None = None
    where: str = ""

    def matches(self, db: str, table: str | None) -> bool:
        return fnmatchcase(db, self.database) and (self.table is None or (table is not None
                                                                          and fnmatchcase(table, self.table)))


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnRule:
    """A column's target ``name``, ``type`` (target type text) and ``transform`` (target
    expression with ``%d``, or a Python callable taking the converted value)."""

    database: str
    table: str
    column: str
    name: str | None = None
    type: str | None = None
    transform: str | Callable | None = None
    where: str = ""

    def matches(self, db: str, table: str, column: str) -> bool:
        return (fnmatchcase(db, self.database) and fnmatchcase(table, self.table)
                and column_key(column) == column_key(self.column))


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnTarget:
    """What a source column becomes: ``name``, ``type`` (None: the type map's), ``transform``
    (target expression text with ``%d``, or None), ``function`` (a Python callable, or None)."""

    name: str
    type: str | None = None
    transform: str | None = None
    function: Callable | None = None

    def expression(self, ref: str) -> str:
        """The target-side expression of the value at ``ref`` (a column of a staging table, a
        parameter placeholder), with the transform applied."""
        return self.transform.replace(VALUE_MARK, ref) if self.transform else ref


@dataclasses.dataclass(frozen=True, slots=True)
class Mapping:
    """The rules of one pipeline (empty: everything, unchanged)."""

    include: tuple[Pattern, ...] = ()
    exclude: tuple[Pattern, ...] = ()
    tables: tuple[TableRule, ...] = ()
    columns: tuple[ColumnRule, ...] = ()

    # -- lookups ------------------------------------------------------------------------------------
    def table_included(self, db: str, table: str) -> bool:
        inc = [p for p in self.include if p.column is None]
        if inc and not any(p.matches_table(db, table) for p in inc):
            return False
        return not any(p.column is None and p.matches_table(db, table) for p in self.exclude)

    def column_included(self, db: str, table: str, column: str) -> bool:
        inc = [p for p in self.include if p.column is not None and p.matches_table(db, table)]
        if inc and not any(p.matches_column(db, table, column) for p in inc):
            return False
        return not any(p.matches_column(db, table, column) for p in self.exclude)

    def schema_for(self, db: str) -> str:
        """The target schema of a source database (a database-level rule, else its own name)."""
        for r in self.tables:
            if r.table is None and r.schema and fnmatchcase(db, r.database):
                return r.schema
        return db

    def table_for(self, db: str, table: str) -> tuple[str, str]:
        """(schema, name) of a source table in the target."""
        for r in self.tables:
            if r.table is not None and r.matches(db, table):
                return (r.schema or self.schema_for(db), r.name or table)
        return (self.schema_for(db), table)

    def column_for(self, db: str, table: str, column: str) -> ColumnTarget | None:
        """The target of a source column, None when it is excluded."""
        if not self.column_included(db, table, column):
            return None
        for r in self.columns:
            if r.matches(db, table, column):
                fn = r.transform if callable(r.transform) else None
                text = r.transform if isinstance(r.transform, str) else None
                return ColumnTarget(r.name or column, r.type, text, fn)
        return ColumnTarget(column)

    @property
    def empty(self) -> bool:
        return not (self.include or self.exclude or self.tables or self.columns)

    # -- validation ---------------------------------------------------------------------------------
    def validate(self, catalog: Catalog | None = None, gone=()) -> Mapping:
        """Checks every rule on its own, then against ``catalog`` (the schema in force): a column
        rule on a table that exists must name one of its columns; two source tables (or columns)
        must not land on one target name. Tables not in the catalog yet are allowed (a later
        CREATE brings them), except those in ``gone``: (database, table) names the history saw
        dropped or renamed away (a restart: the rule names a table that no longer exists).
        Returns self."""
        for r in self.columns:
            if not r.column or any(ch in r.column for ch in "*?["):
                raise MappingError("a column rule names one column (no glob)", rule=r.where, setting="column")
            if r.name is None and r.type is None and r.transform is None:
                raise MappingError("the rule changes nothing: give name, type or transform", rule=r.where)
            if isinstance(r.transform, str) and VALUE_MARK not in r.transform:
                raise MappingError(f"a transform expression must contain {VALUE_MARK} (the converted value)",
                                   rule=r.where, setting="transform")
            if r.transform is not None and not isinstance(r.transform, str) and not callable(r.transform):
                raise MappingError("transform must be an expression text or a callable", rule=r.where,
                                   setting="transform")
            for key in ("name", "type"):
                v = getattr(r, key)
                if v is not None and (not isinstance(v, str) or not v.strip()):
                    raise MappingError(f"{key} must be non-empty text", rule=r.where, setting=key)
        for r in self.tables:
            if r.schema is None and r.name is None:
                raise MappingError("the rule changes nothing: give schema or name", rule=r.where)
            if r.table is None and r.name is not None:
                raise MappingError("a database rule gives a schema, not a table name", rule=r.where, setting="name")
        if catalog is None:
            return self
        seen: dict[tuple[str, str], str] = {}
        for t in catalog.tables.values():
            if t.temporary or not self.table_included(t.database, t.name):
                continue
            target = self.table_for(t.database, t.name)
            if target in seen:
                rule = next((r.where for r in self.tables if r.matches(t.database, t.name)), "mapping.tables")
                raise MappingError(f"{t.database}.{t.name} and {seen[target]} both map to "
                                   f"{target[0]}.{target[1]}", rule=rule)
            seen[target] = f"{t.database}.{t.name}"
            names: dict[str, str] = {}
            for c in t.columns:
                ct = self.column_for(t.database, t.name, c.name)
                if ct is None:
                    continue
                k = column_key(ct.name)
                if k in names:
                    rule = next((r.where for r in self.columns if r.matches(t.database, t.name, c.name)), "")
                    raise MappingError(f"{t.database}.{t.name}: columns {names[k]} and {c.name} both map to "
                                       f"{ct.name}", rule=rule, setting="name")
                names[k] = c.name
        present = {(t.database, t.name) for t in catalog.tables.values()}
        for r in (*self.columns, *self.tables):
            if r.table is not None and not any(ch in r.table + r.database for ch in "*?[") \
                    and (r.database, r.table) in set(gone) - present:
                raise MappingError(f"{r.database}.{r.table} no longer exists (dropped or renamed in the schema "
                                   "history)", rule=r.where, setting="table")
        for r in self.columns:
            for t in catalog.tables.values():
                if not (fnmatchcase(t.database, r.database) and fnmatchcase(t.name, r.table)):
                    continue
                if t.column(r.column) is None and not any(ch in r.table + r.database for ch in "*?["):
                    raise MappingError(f"{t.database}.{t.name} has no column {r.column!r} (columns: "
                                       f"{', '.join(t.column_names)})", rule=r.where, setting="column")
        return self

    def with_lines(self, text: str, source: str) -> Mapping:
        """The rules with their place in the pipeline file ``source`` (its ``text``) added to
        ``where`` (``mapping.columns[2] (p.toml line 14)``): the line of each ``[[mapping.KEY]]``
        header, in order. Rules written as inline tables (no headers to count) are left as they are."""
        heads: dict[str, list[int]] = {}
        for n, line in enumerate(text.splitlines(), 1):
            m = _HEADER.match(line)
            if m:
                heads.setdefault(m.group(1), []).append(n)

        def placed(key: str, rules: tuple) -> tuple:
            lines = heads.get(key, [])
            if len(lines) != len(rules):
                return rules
            return tuple(dataclasses.replace(r, where=f"{r.where} ({source} line {n})")
                         for r, n in zip(rules, lines, strict=True))

        return Mapping(placed("include", self.include), placed("exclude", self.exclude),
                       placed("tables", self.tables), placed("columns", self.columns))

    # -- configuration --------------------------------------------------------------------------------
    @classmethod
    def from_config(cls, section: MappingABC | None) -> Mapping:
        """The ``[mapping]`` section of a pipeline file (a dict as tomllib gives it): lists
        ``include``, ``exclude``, ``tables``, ``columns`` of tables (see the module docstring).
        Unknown keys are errors, positioned by list and index."""
        if not section:
            return cls()
        known = {"include", "exclude", "tables", "columns"}
        for k in section:
            if k not in known:
                raise MappingError(f"unknown key (known: {', '.join(sorted(known))})", rule="mapping", setting=k)

        def entries(key: str, fields: set[str]):
            items = section.get(key) or []
            if not isinstance(items, list):
                raise MappingError("must be a list of tables ([[mapping." + key + "]])", rule="mapping", setting=key)
            for i, e in enumerate(items):
                where = f"mapping.{key}[{i}]"
                if not isinstance(e, MappingABC):
                    raise MappingError("must be a table of keys", rule=where)
                for k in e:
                    if k not in fields:
                        raise MappingError(f"unknown key (known: {', '.join(sorted(fields))})", rule=where, setting=k)
                yield where, e

        def pat(where, e):
            if "database" not in e:
                raise MappingError("database is required (\"*\" for any)", rule=where, setting="database")
            return Pattern(e["database"], e.get("table"), e.get("column"), where)

        inc = tuple(pat(w, e) for w, e in entries("include", {"database", "table", "column"}))
        exc = tuple(pat(w, e) for w, e in entries("exclude", {"database", "table", "column"}))
        tables = []
        for w, e in entries("tables", {"database", "table", "schema", "name"}):
            if "database" not in e:
                raise MappingError("database is required", rule=w, setting="database")
            tables.append(TableRule(e["database"], e.get("table"), e.get("schema"), e.get("name"), w))
        cols = []
        for w, e in entries("columns", {"database", "table", "column", "name", "type", "transform"}):
            for req in ("database", "table", "column"):
                if req not in e:
                    raise MappingError(f"{req} is required", rule=w, setting=req)
            cols.append(ColumnRule(e["database"], e["table"], e["column"], e.get("name"), e.get("type"),
                                   e.get("transform"), w))
        return cls(inc, exc, tuple(tables), tuple(cols)).validate()


__all__ = ["VALUE_MARK", "ColumnRule", "ColumnTarget", "Mapping", "Pattern", "TableRule"]
