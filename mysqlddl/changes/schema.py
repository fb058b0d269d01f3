"""The schema half of the join: QUERY events classified, DDL parsed under the event's own sql_mode
and default database and recorded in the history at the event's *end* position (ARCHITECTURE.md
"Key decisions": Schema history is keyed by position), and the SchemaChange (plus Debezium's
truncate events) emitted.

DDL on a table the history never saw (created before the first file and absent from the baseline)
cannot be applied: it is left out and counted (``ChangeStats.ddl_unknown_tables``), and that
table's rows are named by the TABLE_MAP or positionally.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

from ..binlog.events import QueryEvent
from ..binlog.values.charsets import charset_of_collation, collation_name
from ..commands import (
    AlterDatabase,
    AlterTable,
    CreateDatabase,
    CreateIndex,
    DropIndex,
    DropTable,
    RenameTable,
    TruncateTable,
)
from ..errors import DdlError
from ..history import HistoryRecord, SchemaHistory
from ..model.ids import TableId
from ..options import Dialect, ErrorPolicy, Options
from ..positions import BinlogPosition, file_seq
from .classify import sql_mode_names
from .options import ChangeOptions
from .records import Change, ChangeStats, Naming, RowChange, SchemaChange

#: MariaDB's flags2 bit for the session's explicit_defaults_for_timestamp (``OPTION_EXPLICIT_DEF_TIMESTAMP``,
#: sql/sql_priv.h, in ``OPTIONS_WRITTEN_TO_BIN_LOG``; seen set by 10.11.19 when the session had it ON
#: and clear when OFF, where mariadb-binlog prints ``@@session.explicit_defaults_for_timestamp``).
MARIADB_EXPLICIT_DEF_TIMESTAMP = 1 << 24
#: From this version a clear bit is read as OFF: 10.10 made ON the default, so its replicas must be
#: told OFF (10.11.19 checked). Before it, a clear bit may be a server that never wrote the bit:
#: the inputs (``Options``, ``--set``, the version default OFF) decide.
MARIADB_EXPLICIT_DEF_TIMESTAMP_SINCE = (10, 10, 0)


def statement_options(ev: QueryEvent, opts: Options) -> Options:
    """The options a DDL of the binlog is applied under: ``opts`` (the FDE's dialect and server
    version, so the per-version defaults of :mod:`mysqlddl.model.dialects`) overridden by the
    settings the QUERY event carries for the session that ran it (statement_events.h
    ``Query_event`` status variables; sql/log_event.cc for MariaDB):

    - Q_SQL_MODE_CODE: sql_mode;
    - explicit_defaults_for_timestamp: MySQL's Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP (8.0.x writes it
      for CREATE/ALTER of a table with a TIMESTAMP column), MariaDB's flags2 bit
      :data:`MARIADB_EXPLICIT_DEF_TIMESTAMP` (set: ON; clear: OFF from 10.10, see
      :data:`MARIADB_EXPLICIT_DEF_TIMESTAMP_SINCE`);
    - Q_CHARSET_CODE's collation_server: what CREATE DATABASE without a charset inherits (the
      name when the id is one :func:`~mysqlddl.binlog.values.charsets.collation_name` knows, else
      only its character set, whose default collation then applies).

    Not in the binlog, so left to the inputs (``Options``, ``--set``): default_storage_engine
    (MariaDB 10.11 logs ``CREATE TABLE t (a INT)`` as written, whatever the session's engine),
    lower_case_table_names (a server setting). Q_CHARSET_DATABASE_CODE (the session's
    collation_database) does not decide a new table's charset (the database's own default does,
    checked against MariaDB 10.11), and Q_DEFAULT_COLLATION_FOR_UTF8MB4 (MySQL 8.0 replicating a
    5.7 source) has no model input yet. What the event says wins over ``Options`` (and ``--set``):
    it is what the session had."""
    st = ev.status
    changes: dict = {}
    if st.sql_mode is not None:
        changes["sql_mode"] = sql_mode_names(st.sql_mode)
    if st.explicit_defaults_ts is not None:
        changes["explicit_defaults_for_timestamp"] = st.explicit_defaults_ts
    elif opts.dialect is Dialect.MARIADB and st.flags2 is not None:
        if st.flags2 & MARIADB_EXPLICIT_DEF_TIMESTAMP:
            changes["explicit_defaults_for_timestamp"] = True
        elif opts.server_version >= MARIADB_EXPLICIT_DEF_TIMESTAMP_SINCE:
            changes["explicit_defaults_for_timestamp"] = False
    if st.collation_server is not None:
        name = collation_name(st.collation_server)
        if name is not None:
            changes["collation_server"] = name
            changes["character_set_server"] = None
        else:
            cs = charset_of_collation(st.collation_server)
            if cs is not None and cs != "binary":
                changes["character_set_server"] = cs
                changes["collation_server"] = None
    return opts.replace(**changes) if changes else opts


def charset_stating_databases(rec: HistoryRecord) -> Iterator[str]:
    """The databases whose default charset a recorded DDL states: CREATE DATABASE, and ALTER
    DATABASE with a charset or collation (what makes a column's inherited charset a fact; see
    SchemaTracker.db_known)."""
    for cmd in rec.commands:
        if isinstance(cmd, CreateDatabase) or (isinstance(cmd, AlterDatabase) and (cmd.charset or cmd.collation)):
            name = cmd.name or rec.default_db
            if name:
                yield name


class SchemaTracker:
    """The schema half of the join: the ``history`` (extended by the DDL read, or, with
    ``record_ddl=False``, read: ``recorded`` maps its records' position keys to them), the
    databases whose default charset is known, and the DDL of the log turned into SchemaChanges.
    ``baseline_position``: the ``(file_seq, pos)`` the baseline stands for (DDL at or before it is
    in the baseline already), or None."""

    def __init__(self, history: SchemaHistory, config: ChangeOptions, stats: ChangeStats,
                 baseline_position: tuple[int, int] | None = None, *, first: tuple[int, int]):
        self.history = history
        self.config = config
        self.stats = stats
        self.baseline_position = baseline_position
        # databases whose default charset is known (see db_known)
        self._known_dbs = set(history.catalog_at(BinlogPosition(-1, 0)).databases)
        self._recorded = {r.position.key: r for r in history.records} if not config.record_ddl else None
        for rec in history.records:
            # a read-only history also holds the DDL after the reading's start (``first``): those
            # come as read
            if config.record_ddl or rec.position.key <= first:
                self._note_databases(rec)

    def ddl(self, ev: QueryEvent, opts: Options, gtid: str | None, *, source, emit: bool):
        """A DDL QUERY event (that did not fail on the master) in the transaction with that GTID:
        recorded in the history (or, with ``record_ddl=False``, found there), its SchemaChange and
        a TRUNCATE's ``op="t"`` changes yielded when ``emit`` (the reading window lets the event
        through) and the filters do. ``source(ev, db=, table=)``: the Source of a record of ``ev``.
        Returns (whether the history holds it now, the SchemaChange's position when one was
        yielded): a DDL recorded makes the TABLE_MAPs read before it stale, and closes its
        transaction's GTID."""
        origin = ev.origin
        if origin is not None and origin.next_pos is not None:
            # a relay log: the history is keyed by the source's positions, as from its binlog
            end = BinlogPosition(file_seq(origin.file or ""), origin.next_pos, origin.file or "", gtid)
        else:
            end = BinlogPosition(file_seq(ev.file or ""), ev.next_pos, Path(ev.file or "").name, gtid)
        if self.baseline_position is not None and end.key <= self.baseline_position:
            self.stats.ddl_before_baseline += 1
            return False, None
        opts = statement_options(ev, opts)
        db = ev.database or None
        if not self.config.record_ddl:
            rec = self._recorded.get(end.key)
            if rec is None:
                return False, None
            # record_ddl=False: the history already holds what this DDL did (no record: it changed
            # no schema, or was skipped, when the history was built); emit what recording it emitted
            before = BinlogPosition(end.file_seq, end.pos - 1)    # the catalog before this record
            return True, (yield from self._applied(ev, db, rec, lambda tid: self.history.table_at(tid, before),
                                                   gtid, source, emit))
        # (imported here, not above: a reader on a pre-built history, such as a Spark decode
        # task, never parses DDL, and the parser's import and ATN load cost ~0.3 s a process)
        from ..ddl import statement_commands

        where = f"{Path(ev.file or '').name}:{ev.pos}"
        try:
            commands = statement_commands(ev.query, opts, source=where)
            if not commands:
                self.stats.queries["no_schema_change"] += 1
                return False, None
            commands, unknown = self._without_unknown(commands, db)
            if unknown:
                self.stats.ddl_unknown_tables += 1
                if not commands:
                    return False, None
            before = self.history.catalog
            rec = self.history.record(end, db, ev.query, commands, options=opts)
        except DdlError as e:
            if e.source is None:
                e.source = where
            if opts.error_policy is ErrorPolicy.RAISE:
                raise
            self.stats.ddl_errors += 1
            return False, None
        return True, (yield from self._applied(ev, db, rec, before.table, gtid, source, emit))

    def _applied(self, ev: QueryEvent, db: str | None, rec, table_before, gtid, source, emit: bool):
        """What a DDL in the history means for the stream, however it got there (recorded now, or
        already in a pre-built history): counts, and the schema-change records. ``table_before(tid)``:
        the table's version before this DDL, None if it had none. Returns the SchemaChange's
        position when one was yielded."""
        self.stats.ddl += 1
        self.stats.ddl_errors += len(rec.errors)
        self._note_databases(rec)
        if not (self.config.schema_changes and emit and self.config.filters.gtid_ok(gtid)
                and self._schema_change_ok(db, rec)):
            return None
        kinds = tuple("DROP" if t is None else "CREATE" if table_before(tid) is None else "ALTER"
                      for tid, t in rec.tables)
        # a DDL is its own transaction: its QUERY event's thread_id is the session's
        yield SchemaChange(dataclasses.replace(source(ev, db=db), gtid=gtid, thread=ev.thread_id),
                           ev.query, db, rec, kinds)
        yield from self._truncates(ev, db, rec, gtid, source)
        return rec.position

    def _truncates(self, ev: QueryEvent, db: str | None, rec: HistoryRecord, gtid, source) -> Iterator[Change]:
        """Debezium's truncate events (op "t", no before/after) for the tables a TRUNCATE emptied."""
        if not self.config.truncate_events:
            return
        for cmd in rec.commands:
            if not isinstance(cmd, TruncateTable):
                continue
            tid = cmd.table.qualified(rec.default_db)
            if not self.config.filters.table_ok(tid.database, tid.name):
                continue
            table = self.history.table_at(tid, rec.position)
            src = dataclasses.replace(source(ev, db=tid.database, table=tid.name), gtid=gtid, thread=ev.thread_id)
            self.stats.truncates[f"{tid.database}.{tid.name}"] += 1
            yield RowChange("t", src, None, None, tuple(c.name for c in table.columns) if table else (),
                            Naming.SCHEMA if table else Naming.POSITIONAL, table)

    def db_known(self, name: str) -> bool:
        """Whether a database's default charset is a fact (from the baseline or a CREATE /
        ALTER DATABASE in the log), not the default the model assumed when a CREATE TABLE named
        a database it had never seen (the cross-check trusts a column's inherited charset then)."""
        key = name.lower() if self.history.catalog.lower_case_table_names else name
        return key in self._known_dbs

    def _note_databases(self, rec: HistoryRecord) -> None:
        lower = self.history.catalog.lower_case_table_names
        self._known_dbs.update(name.lower() if lower else name for name in charset_stating_databases(rec))

    def _never_seen(self, tid: TableId | None, db: str | None) -> bool:
        """The history knows nothing of this table: not in the baseline, never created, and not
        in the catalog now."""
        if tid is None:
            return False
        tid = tid.qualified(db)
        if tid.database is None:
            return False
        h = self.history
        return (h.catalog.table(tid) is None and not h.versions(tid)
                and h.table_at(tid, BinlogPosition(-1, 0)) is None)

    def _without_unknown(self, commands, db):
        """The commands minus what acts on tables the history never saw (DDL on a table created
        before the first file and absent from the baseline cannot be applied; such a table stays
        unknown and its rows are named by the TABLE_MAP or positionally, as they say). Returns
        (commands, whether something was left out)."""
        out, dropped = [], False
        for cmd in commands:
            if isinstance(cmd, DropTable) and not getattr(cmd, "if_exists", False):
                # (DROP TABLE IF EXISTS applies as it is: a no-op for an unknown table)
                keep = tuple(t for t in cmd.tables if not self._never_seen(t, db))
                if len(keep) != len(cmd.tables):
                    dropped = True
                    if keep:
                        out.append(dataclasses.replace(cmd, tables=keep))
                    continue
            elif isinstance(cmd, RenameTable):
                # pairs apply in order: a name an earlier pair created is known (a swap through
                # a temporary name)
                made: set[TableId] = set()
                unknown = False
                for a, b in cmd.pairs:
                    if a.qualified(db) not in made and self._never_seen(a, db):
                        unknown = True
                    made.add(b.qualified(db))
                if unknown:
                    dropped = True
                    continue
            elif isinstance(cmd, (AlterTable, TruncateTable, CreateIndex, DropIndex)):
                if self._never_seen(cmd.table, db):
                    dropped = True
                    continue
            out.append(cmd)
        return out, dropped

    def _schema_change_ok(self, db: str | None, rec: HistoryRecord) -> bool:
        f = self.config.filters
        if not rec.tables:
            return f.table_ok(db, None) and not f.tables
        return any(f.table_ok(tid.database, tid.name) for tid, _ in rec.tables)


__all__ = ["MARIADB_EXPLICIT_DEF_TIMESTAMP", "SchemaTracker", "charset_stating_databases", "statement_options"]
