"""The schema history: which table definition is in force at each binlog position.

Append-only and keyed by position, never by "the current schema". A DDL takes effect at the *end*
position of its Query event: a row event at position p sees every DDL recorded at a position
<= p. Positions (:mod:`mysqlddl.positions`) compare through their integer-tuple ``key``, never
as strings: a binlog position's ``(file_seq, pos)`` (``file_seq`` is the numeric suffix of the
binlog file name: ``mysql-bin.000010`` sorts after ``mysql-bin.000009`` and ``mysql-bin.1000000``
after ``mysql-bin.999999``), or an OLR position's ``(c_scn, c_idx)``. One history holds one kind.

Storage is per table: each record keeps the DDL, its commands and the new versions of the tables it
changed (None for a dropped table), so answering ``table_at`` is a binary search in that table's
version list, and the JSON Lines file does not repeat the catalog for every DDL.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .commands import Command
from .errors import DdlError, DdlSemanticError, PartialApplyError, SchemaHistoryError
from .model import codec
from .model.catalog import Catalog, Database, View
from .model.ids import TableId, lookup_name, table_key
from .model.table import Table
from .options import DEFAULT, ErrorPolicy, Options
from .positions import BinlogPosition, HistoryPosition, OlrPosition

# The history stores either position type through the model codec: a binlog position untagged (as
# saved histories always had it), an OLR position with its type tag. Histories saved while
# OlrPosition was a BinlogPosition subclass hold its (c_scn, c_idx) under file_seq/pos.
codec.polymorphic(OlrPosition)
codec.rename_fields(OlrPosition, file_seq="c_scn", pos="c_idx")


@dataclasses.dataclass(frozen=True, slots=True)
class HistoryRecord:
    """One recorded DDL: ``position`` (end of its event), ``default_db`` (None when the event had
    none), ``ddl`` text, ``commands``, the resulting ``tables`` versions as (id, table or None for
    dropped), and ``errors`` (messages of commands skipped under a non-strict policy)."""

    position: HistoryPosition
    default_db: str | None
    ddl: str
    commands: tuple[Command, ...]
    tables: tuple[tuple[TableId, Table | None], ...] = ()
    errors: tuple[str, ...] = ()


class SchemaHistory:
    """Append-only schema history.

    ``record(position, default_db, ddl_text, commands)`` applies the commands to the catalog in
    force and stores the tables they changed; ``table_at`` / ``catalog_at`` answer for any
    position. Under ``ErrorPolicy.RAISE`` (default) a failing command raises a DdlError that names
    the position and the DDL and records nothing; under COLLECT/WARN/SKIP the failing commands are
    skipped, counted in :attr:`skipped` and listed in :attr:`errors` (WARN also warns).
    """

    def __init__(self, options: Options = DEFAULT, baseline: Catalog | None = None):
        self.options = options
        self.records: list[HistoryRecord] = []
        self.errors: list[tuple[HistoryPosition, str, str]] = []  # (position, ddl, message)
        self._catalog = baseline if baseline is not None else Catalog.empty(options)
        self._base = self._catalog
        # table key -> (positions, versions) with versions[i] in force from positions[i]
        self._versions: dict[TableId, tuple[list[tuple[int, int]], list[Table | None]]] = {}
        self._dbs: tuple[list[tuple[int, int]], list[Any]] = ([], [])
        # views are few: the whole (recorded) view mapping is kept whenever a DDL changes it
        self._views: tuple[list[tuple[int, int]], list[Any]] = ([], [])

    def _key(self, tid: TableId) -> TableId:
        return table_key(tid, self._catalog.lower_case_table_names)

    # ------------------------------------------------------------------ recording
    @property
    def catalog(self) -> Catalog:
        """The catalog after the last record."""
        return self._catalog

    @property
    def skipped(self) -> int:
        return len(self.errors)

    @property
    def last_position(self) -> HistoryPosition | None:
        return self.records[-1].position if self.records else None

    def record(self, position: HistoryPosition, default_db: str | None, ddl_text: str,
               commands: Sequence[Command], options: Options | None = None) -> HistoryRecord:
        opts = options or self.options
        last = self.last_position
        if last is not None and position.key < last.key:
            raise SchemaHistoryError(f"history is append-only: {position} is before {last}")
        cat = self._catalog
        if default_db != cat.session.database:
            cat = dataclasses.replace(cat, session=cat.session.replace(database=default_db))
        start = cat
        touched: dict[TableId, TableId] = {}
        errs: list[str] = []
        for cmd in commands:
            try:
                cat = cmd.apply(cat, opts)
            except DdlError as e:
                if opts.error_policy is ErrorPolicy.RAISE:
                    if isinstance(e, DdlSemanticError) and e.statement is None:
                        raise DdlSemanticError(f"at {position}: {e.message}", statement=ddl_text,
                                               source=str(position)) from e
                    raise
                errs.append(f"{type(cmd).__name__}: {e.message}")
                if isinstance(e, PartialApplyError) and e.catalog is not None:
                    cat = e.catalog  # what the server did before failing
                    for tid in cat.changed:
                        touched[cat.key(tid)] = tid
                self.errors.append((position, ddl_text, e.message))
                if opts.error_policy is ErrorPolicy.WARN:
                    warnings.warn(f"{position}: skipped {type(cmd).__name__}: {e.message}", stacklevel=2)
                continue
            for tid in cat.changed:
                touched[cat.key(tid)] = tid
        tables = []
        for key, tid in touched.items():
            t = cat.tables.get(key)
            before = start.tables.get(key)
            if t is before and t is not None:
                continue  # temporary table, TRUNCATE, IF NOT EXISTS no-op...
            if t is None and before is None and key not in self._versions:
                continue
            tables.append((t.id if t is not None else tid, t))
        rec = HistoryRecord(position, default_db, ddl_text, tuple(commands), tuple(tables), tuple(errs))
        self._add(rec, cat.databases if cat.databases is not start.databases else None,
                  cat.views if cat.views is not start.views else None)
        self._catalog = cat
        return rec

    def _add(self, rec: HistoryRecord, databases, views=None) -> None:
        k = rec.position.key
        for tid, t in rec.tables:
            key = self._key(tid)
            poss, vers = self._versions.setdefault(key, ([], []))
            if poss and poss[-1] == k:
                vers[-1] = t
            else:
                poss.append(k)
                vers.append(t)
        for store, value in ((self._dbs, databases), (self._views, views)):
            if value is None:
                continue
            if store[0] and store[0][-1] == k:
                store[1][-1] = value
            else:
                store[0].append(k)
                store[1].append(value)
        self.records.append(rec)

    # ------------------------------------------------------------------ queries
    def table_at(self, table_id: TableId, position: HistoryPosition) -> Table | None:
        """The definition of ``table_id`` (fully qualified) in force at ``position``, or None when
        it did not exist there."""
        key = self._key(table_id)
        entry = self._versions.get(key)
        if entry is not None:
            i = bisect.bisect_right(entry[0], position.key) - 1
            if i >= 0:
                return entry[1][i]
        return self._base.tables.get(key)

    def catalog_at(self, position: HistoryPosition) -> Catalog:
        """The catalog (databases and base tables) in force at ``position``."""
        k = position.key
        tables = dict(self._base.tables)
        for key, (poss, vers) in self._versions.items():
            i = bisect.bisect_right(poss, k) - 1
            if i >= 0:
                if vers[i] is None:
                    tables.pop(key, None)
                else:
                    tables[key] = vers[i]
        dbs = self._base.databases
        i = bisect.bisect_right(self._dbs[0], k) - 1
        if i >= 0:
            dbs = self._dbs[1][i]
        views = self._base.views
        i = bisect.bisect_right(self._views[0], k) - 1
        if i >= 0:
            views = self._views[1][i]
        n = bisect.bisect_right(self.records, k, key=lambda r: r.position.key)
        return dataclasses.replace(self._base, tables=MappingProxyType(tables),
                                   databases=MappingProxyType(dict(dbs)), views=MappingProxyType(dict(views)),
                                   version=n, changed=())

    def versions(self, table_id: TableId) -> list[tuple[tuple[int, int], Table | None]]:
        """Every recorded version of a table as (position key, table or None)."""
        key = self._key(table_id)
        poss, vers = self._versions.get(key, ([], []))
        return list(zip(poss, vers, strict=True))

    # ------------------------------------------------------------------ persistence
    def record_to_data(self, rec: HistoryRecord, databases=None, views=None) -> dict[str, Any]:
        d = {"position": codec.to_data(rec.position), "default_db": rec.default_db, "ddl": rec.ddl,
             "commands": [c.to_data() for c in rec.commands],
             "tables": [{"id": codec.to_data(tid), "table": codec.to_data(t) if t is not None else None}
                        for tid, t in rec.tables]}
        if rec.errors:
            d["errors"] = list(rec.errors)
        if databases is not None:
            d["databases"] = [codec.to_data(db) for db in databases.values()]
        if views is not None:
            d["views"] = [codec.to_data(v) for v in views.values()]
        return d

    def lines(self) -> Iterable[str]:
        """The history as JSON Lines: a header, then one line per record."""
        yield json.dumps({"mysqlddl_history": 1, "lower_case_table_names":
                          self._catalog.lower_case_table_names,
                          "baseline": [codec.to_data(t) for t in self._base.tables.values()],
                          "baseline_databases": [codec.to_data(d) for d in self._base.databases.values()],
                          # (views too: a restart from the stored history, or a failover's re-based
                          # one, must know the views a DROP VIEW or CREATE VIEW later acts on)
                          "baseline_views": [codec.to_data(v) for v in self._base.views.values()]},
                         sort_keys=True, ensure_ascii=False)
        dbs_at = dict(zip(self._dbs[0], self._dbs[1], strict=True))
        views_at = dict(zip(self._views[0], self._views[1], strict=True))
        # only the last record at a position carries the databases/views stored for that position
        last_at = {r.position.key: i for i, r in enumerate(self.records)}
        for i, rec in enumerate(self.records):
            last = last_at[rec.position.key] == i
            dbs = dbs_at.get(rec.position.key) if last else None
            views = views_at.get(rec.position.key) if last else None
            yield json.dumps(self.record_to_data(rec, dbs, views), sort_keys=True, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            for line in self.lines():
                f.write(line + "\n")

    @classmethod
    def load(cls, path: str | Path, options: Options = DEFAULT) -> SchemaHistory:
        """Reload a saved history: the stored table versions are used as they are (commands are
        not re-applied), so the answers are the ones that were recorded."""
        with open(path, encoding="utf-8") as f:
            return cls.from_lines(f, options, source=str(path))

    @classmethod
    def from_lines(cls, lines: Iterable[str], options: Options = DEFAULT, *,
                   source: str = "history") -> SchemaHistory:
        """A history from the lines :meth:`lines` gave (as :meth:`load` reads them from a file;
        the pipeline's checkpoint store keeps them in its database)."""
        path = source
        rows = [json.loads(line) for line in lines if line.strip()]
        if not rows or rows[0].get("mysqlddl_history") != 1:
            raise SchemaHistoryError(f"{path}: not a mysqlddl schema history")
        head = rows[0]
        lc = head.get("lower_case_table_names", options.lower_case_table_names)
        base = Catalog(lower_case_table_names=lc)
        def views_of(data: list) -> MappingProxyType:
            vs = [codec.from_data(v, View) for v in data]
            return MappingProxyType({table_key(v.id, lc): v for v in vs})

        base = base.evolve(put=[codec.from_data(t, Table) for t in head.get("baseline", [])],
                           databases={lookup_name(d["name"], lc): codec.from_data(d, Database)
                                      for d in head.get("baseline_databases", [])},
                           views=views_of(head.get("baseline_views", [])))
        base = dataclasses.replace(base, version=0, changed=())
        h = cls(options.replace(lower_case_table_names=lc), baseline=base)
        cat = base
        for row in rows[1:]:
            pos = codec.from_data(row["position"], HistoryPosition)
            tables = tuple((codec.from_data(x["id"], TableId),
                            codec.from_data(x["table"], Table) if x["table"] is not None else None)
                           for x in row["tables"])
            rec = HistoryRecord(pos, row.get("default_db"), row["ddl"],
                                tuple(Command.from_data(c) for c in row["commands"]), tables,
                                tuple(row.get("errors", ())))
            dbs = views = None
            if "databases" in row:
                dbs = {lookup_name(d["name"], lc): codec.from_data(d, Database) for d in row["databases"]}
            if "views" in row:
                views = views_of(row["views"])
            h._catalog = cat
            h._add(rec, dbs, views)
            for e in rec.errors:
                h.errors.append((pos, rec.ddl, e))
            put = [t for _, t in tables if t is not None]
            rm = [tid for tid, t in tables if t is None]
            cat = cat.evolve(put=put, remove=rm, databases=dbs, views=views,
                             session=cat.session.replace(database=rec.default_db))
        h._catalog = cat
        return h


# BinlogPosition stays importable from here (mysqlddl.positions is its home): callers build the
# positions they record and query with from the module of the history they use.
__all__ = ["BinlogPosition", "HistoryRecord", "SchemaHistory"]
