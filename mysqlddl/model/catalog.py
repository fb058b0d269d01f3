"""The catalog: databases, tables, temporary tables and views at one schema version."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from ..options import DEFAULT, Options
from . import charsets
from .dialects import rules_for
from .ids import TableId, lookup_name, stored_name, table_key
from .table import Table


def _empty() -> Mapping:
    return MappingProxyType({})


@dataclasses.dataclass(frozen=True, slots=True)
class Database:
    """A database (schema) with its default ``charset`` and ``collation`` (None in a dialect
    without them, Oracle); ``comment`` may be None."""

    name: str
    charset: str | None
    collation: str | None
    comment: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """A recorded view: its ``definition`` (the SELECT text), optional explicit ``columns`` and the
    remaining clauses as written (``options``: ALGORITHM, DEFINER, SQL SECURITY, CHECK OPTION)."""

    id: TableId
    definition: str
    columns: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Unevaluated:
    """A user variable set to an expression the model does not evaluate (``SET @n = (SELECT
    ...)``): harmless until a modelled system variable is set from it."""

    text: str


@dataclasses.dataclass(frozen=True, slots=True)
class Session:
    """Session state that changes how later statements resolve. None = the server default
    (from :class:`~mysqlddl.options.Options` and the dialect). ``variables``: other SET variables
    recorded as (lower-case name, value text). ``user_variables``: ``SET @x = ...`` as (lower-case
    name without ``@``, value): the value text, None for NULL, or an :class:`Unevaluated`
    expression (user variable names are case-insensitive: MySQL 8.4 manual 11.4 "User-Defined
    Variables")."""

    database: str | None = None
    character_set_server: str | None = None
    collation_server: str | None = None
    explicit_defaults_for_timestamp: bool | None = None
    sql_mode: frozenset[str] | None = None
    foreign_key_checks: bool = True
    default_storage_engine: str | None = None
    character_set_client: str | None = None
    collation_connection: str | None = None
    variables: tuple[tuple[str, str], ...] = ()
    user_variables: tuple[tuple[str, str | Unevaluated | None], ...] = ()

    def replace(self, **changes) -> Session:
        return dataclasses.replace(self, **changes)


@dataclasses.dataclass(frozen=True, slots=True)
class Catalog:
    """One version of the whole schema. Only commands make new versions (``apply``).

    ``tables``/``temporary_tables``/``views`` are read-only mappings keyed by the lookup form of
    the TableId (case-folded unless lower_case_table_names=0; use :meth:`table` to look up).
    ``version`` counts applied commands; ``changed`` lists the tables (old and new ids) the last
    command created, altered, renamed or dropped.
    """

    databases: Mapping[str, Database] = dataclasses.field(default_factory=_empty)
    tables: Mapping[TableId, Table] = dataclasses.field(default_factory=_empty)
    temporary_tables: Mapping[TableId, Table] = dataclasses.field(default_factory=_empty)
    views: Mapping[TableId, View] = dataclasses.field(default_factory=_empty)
    session: Session = dataclasses.field(default_factory=lambda: Session())
    version: int = 0
    changed: tuple[TableId, ...] = ()
    lower_case_table_names: int = 0

    @classmethod
    def empty(cls, options: Options = DEFAULT) -> Catalog:
        return cls(lower_case_table_names=options.lower_case_table_names)

    # ---------------------------------------------------------------- lookups
    def key(self, tid: TableId) -> TableId:
        return table_key(self.qualify(tid), self.lower_case_table_names)

    def qualify(self, tid: TableId) -> TableId:
        """Fill in the session's default database and apply the stored-name case rule."""
        tid = tid.qualified(self.session.database)
        lc = self.lower_case_table_names
        return TableId(stored_name(tid.database, lc) if tid.database is not None else None,
                       stored_name(tid.name, lc))

    def table(self, tid: TableId | str, name: str | None = None) -> Table | None:
        """The table (a temporary one shadows a base table), or None.
        ``catalog.table(TableId("db", "t"))`` or ``catalog.table("db", "t")``."""
        if name is not None:
            tid = TableId(tid, name)
        elif isinstance(tid, str):
            tid = TableId.parse(tid)
        k = self.key(tid)
        t = self.temporary_tables.get(k)
        return t if t is not None else self.tables.get(k)

    def base_table(self, tid: TableId) -> Table | None:
        return self.tables.get(self.key(tid))

    def database(self, name: str) -> Database | None:
        return self.databases.get(lookup_name(name, self.lower_case_table_names))

    def view(self, tid: TableId) -> View | None:
        return self.views.get(self.key(tid))

    def tables_in(self, database: str) -> list[Table]:
        k = lookup_name(database, self.lower_case_table_names)
        return [t for key, t in self.tables.items() if key.database == k]

    def all_tables(self) -> list[Table]:
        """Base tables sorted by (database, name)."""
        return sorted(self.tables.values(), key=lambda t: (t.id.database or "", t.id.name))

    # ---------------------------------------------------------------- server / session defaults
    def server_charset(self, options: Options) -> tuple[str | None, str | None]:
        """(charset, collation) a CREATE DATABASE without charset clauses gets; (None, None) in a
        dialect without table charsets (``DialectRules.table_charset``, Oracle)."""
        rules = rules_for(options)
        if not rules.table_charset:
            return None, None
        cs = self.session.character_set_server or options.character_set_server
        coll = self.session.collation_server or options.collation_server
        compiled = rules.server_charset_for(options)
        if cs is None and coll is None:
            return compiled
        return charsets.resolve_pair(cs, coll, compiled, rules.collation_column)

    def explicit_defaults_for_timestamp(self, options: Options) -> bool:
        if self.session.explicit_defaults_for_timestamp is not None:
            return self.session.explicit_defaults_for_timestamp
        return rules_for(options).explicit_defaults_for_timestamp(options)

    def sql_mode(self, options: Options) -> frozenset[str]:
        return self.session.sql_mode if self.session.sql_mode is not None else options.sql_mode

    def default_engine(self, options: Options) -> str | None:
        """The engine of a CREATE TABLE without ENGINE=; None in a dialect without storage
        engines (``DialectRules.table_engine``, Oracle)."""
        if not rules_for(options).table_engine:
            return None
        return self.session.default_storage_engine or options.default_storage_engine

    # ---------------------------------------------------------------- new versions
    def evolve(self, *, put: Iterable[Table] = (), remove: Iterable[TableId] = (),
               put_temporary: Iterable[Table] = (), remove_temporary: Iterable[TableId] = (),
               databases: Mapping[str, Database] | None = None,
               views: Mapping[TableId, View] | None = None, session: Session | None = None,
               changed: Iterable[TableId] = ()) -> Catalog:
        """The next version: ``remove`` ids first, then ``put`` tables (keyed by their own id).
        Only commands call this."""
        def upd(m: Mapping, rm: Iterable[TableId], add: Iterable[Table]) -> Mapping:
            rm, add = list(rm), list(add)
            if not rm and not add:
                return m
            d = dict(m)
            for tid in rm:
                d.pop(self.key(tid), None)
            for t in add:
                d[self.key(t.id)] = t
            return MappingProxyType(d)
        return dataclasses.replace(
            self,
            tables=upd(self.tables, remove, put),
            temporary_tables=upd(self.temporary_tables, remove_temporary, put_temporary),
            databases=MappingProxyType(dict(databases)) if databases is not None else self.databases,
            views=MappingProxyType(dict(views)) if views is not None else self.views,
            session=session if session is not None else self.session,
            version=self.version + 1, changed=tuple(changed))

    def with_database(self, db: Database | None, name: str | None = None) -> dict[str, Database]:
        """A copy of the database mapping with ``db`` added (or, with db=None, ``name`` removed)."""
        d = dict(self.databases)
        if db is None:
            d.pop(lookup_name(name, self.lower_case_table_names), None)
        else:
            d[lookup_name(db.name, self.lower_case_table_names)] = db
        return d
