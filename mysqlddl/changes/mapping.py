"""The TABLE_MAP half of the join: a TABLE_MAP is looked up by (db, table) -- never by table_id,
which the server changes after every DDL -- in the history at its position, cross-checked against
the table version in force (:func:`~mysqlddl.changes.crosscheck.cross_check`), and resolved into a
:class:`~mysqlddl.changes.records.TableMapping`: the decode plan built from the two, the column
names and where they come from (the schema; the TABLE_MAP's COLUMN_NAME metadata with
binlog_row_metadata=FULL; else ``col_1..n``: never guessed).
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter

from ..binlog import rows as rows_mod
from ..binlog.events import Event, TableMapEvent
from ..errors import SchemaMismatchError
from ..history import SchemaHistory
from ..model.ids import TableId
from ..model.table import IndexKind
from ..model.types import TypeFamily
from ..options import Dialect, Options
from ..positions import BinlogPosition
from .crosscheck import cross_check, plan_columns
from .options import ChangeOptions, OnMismatch
from .records import ChangeStats, Naming, TableMapping
from .values import uuid_swap_all, value_family

F = TypeFamily

#: the decode plans kept (per table version, TABLE_MAP layout and options) before the cache restarts
PLAN_CACHE = 4096

#: A TABLE_MAP's content: every field but the event's place (header, file, positions) and the
#: metadata parsed from ``column_metadata_raw``. Equal content against the same table version
#: resolves the same way (cross-check, plan, names), so a stream of small transactions, each with
#: its TABLE_MAP of the same table, resolves it once.
_CONTENT = attrgetter(*(f.name for f in dataclasses.fields(TableMapEvent)
                        if f.name not in {g.name for g in dataclasses.fields(Event)} and f.name != "column_metadata"))


class TableMaps:
    """The TABLE_MAPs in force (``maps``: table_id -> TableMapping, until the next binlog or DDL
    forgets them: :meth:`clear`) and the caches behind their resolution (decode plans per table
    version and layout; whole resolutions per TABLE_MAP content). ``file(path)``: (base name,
    file_seq) of a binlog path (:meth:`~mysqlddl.changes.places.Places.file`); ``db_known(name)``:
    whether a database's default charset is a fact
    (:meth:`~mysqlddl.changes.schema.SchemaTracker.db_known`)."""

    __slots__ = ("_plans", "_resolved", "_tables", "config", "db_known", "file", "history", "maps", "stats")

    def __init__(self, history: SchemaHistory, config: ChangeOptions, stats: ChangeStats, *, file, db_known):
        self.history = history
        self.config = config
        self.stats = stats
        self.file = file
        self.db_known = db_known
        self.maps: dict[int, TableMapping] = {}
        self._plans: dict = {}
        self._resolved: dict = {}
        self._tables: dict[tuple, tuple[bool, TableId]] = {}     # (db, table) -> (filters' verdict, TableId)

    def clear(self) -> None:
        """Forget the TABLE_MAPs read so far (a new binlog, or a DDL: the server maps again)."""
        self.maps.clear()

    def table_map(self, tm: TableMapEvent, opts: Options) -> None:
        named = (tm.database, tm.table)
        table = self._tables.get(named)
        if table is None:
            # (once per table, not per TABLE_MAP: a stream of small transactions maps its tables again
            # in each; the filters are fixed for the reading)
            if len(self._tables) >= PLAN_CACHE:
                self._tables.clear()
            table = self._tables[named] = (self.config.filters.table_ok(*named), TableId(*named))
        if not table[0]:
            self.maps[tm.table_id] = TableMapping(tm, None, (), Naming.POSITIONAL, (), None, False)
            return
        name, seq = self.file(tm.file or "")
        version = found = self.history.table_at(table[1], BinlogPosition(seq, tm.pos, name))
        charset_known = self.db_known(tm.database)
        content = (id(found), charset_known, opts, _CONTENT(tm))
        hit = self._resolved.get(content)
        if hit is not None and hit[0] is found:
            m = hit[1]
            if m.mismatch:
                self.stats.mismatches += 1
            self.maps[tm.table_id] = TableMapping(tm, m.plan, m.names, m.naming, m.families, m.version, True,
                                                   m.mismatch, m.pk, m.uuid_swap_all)
            return
        mismatch: tuple[str, ...] = ()
        if version is not None:
            problems = cross_check(tm, version, charset_known=charset_known,
                                   mariadb=opts.dialect is Dialect.MARIADB)
            if problems:
                if self.config.on_mismatch is OnMismatch.RAISE:
                    raise SchemaMismatchError(
                        f"TABLE_MAP of {tm.database}.{tm.table} does not match the table version in "
                        f"force: {'; '.join(problems)}", file=tm.file, log_pos=tm.pos,
                        event_type="TABLE_MAP", table=f"{tm.database}.{tm.table}", offset=tm.pos)
                self.stats.mismatches += 1
                mismatch = tuple(problems)
                version = None
        if version is not None:
            key = (id(version), tm.column_types, tm.column_metadata, tm.signedness, tm.column_charsets,
                   tm.default_charset, opts, charset_known)
            hit = self._plans.get(key)
            if hit is None:
                plan = rows_mod.build_plan(tm, opts, columns=plan_columns(tm, version, charset_known=charset_known))
                hit = self._plans[key] = (version, plan)
                if len(self._plans) > PLAN_CACHE:
                    self._plans.clear()
            plan = hit[1]
            names = tuple(c.name for c in version.columns)
            families = tuple(value_family(c, version) for c in version.columns)
            # only these retype a decoded value (see typed_value); MariaDB JSON is LONGTEXT, kept as
            # the document's text as the server stored it when json_as="text"
            retyped = (F.INET4, F.INET6, F.UUID) if opts.json_as == "text" else (F.JSON, F.INET4, F.INET6, F.UUID)
            families = tuple(f if f in retyped else None for f in families)
            naming = Naming.SCHEMA
        else:
            plan = rows_mod.build_plan(tm, opts)
            if tm.column_names is not None and len(tm.column_names) == tm.column_count:
                names, naming = tuple(tm.column_names), Naming.TABLE_MAP
            else:
                names = tuple(f"col_{i + 1}" for i in range(tm.column_count))
                naming = Naming.POSITIONAL
            families = (None,) * tm.column_count
        pk = ()
        if version is not None and version.primary_key is not None \
                and version.primary_key.kind is IndexKind.PRIMARY:
            pk = version.primary_key.columns
        m = self.maps[tm.table_id] = TableMapping(tm, plan, names, naming, families, version, True, mismatch, pk,
                                                   uuid_swap_all(opts))
        if len(self._resolved) >= PLAN_CACHE:
            self._resolved.clear()
        self._resolved[content] = (found, m)      # (found kept alive: its id stays its own)


__all__ = ["PLAN_CACHE", "TableMaps"]
