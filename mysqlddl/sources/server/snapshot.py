"""The schema of a live server at one exact binlog position (and the snapshot its rows are read in).

A live start "from now" needs the schema in force at the position it starts from, and an initial
data snapshot needs rows that correspond exactly to that position. The capture runs ordinary
SQL over a PyMySQL connection (public API only: ``cursor()``, ``execute``, ``fetch*``).
``information_schema`` is never read: a column list taken from it
while the server keeps changing labels old rows with new columns; ``SHOW CREATE TABLE`` is parsed
with our own grammar, exactly as a baseline DDL file is.

Public functions::

    capture_schema(conn, *, filters=None, lock="auto", with_rows=True, hold_tables=True) -> SchemaCapture
        The binlog position (file, pos, GTID position) and the DDL script of every included table,
        MariaDB sequence and view (views last), consistent with each other. With ``with_rows``
        the connection is left inside a REPEATABLE READ transaction opened WITH CONSISTENT
        SNAPSHOT at exactly that position, for ``changes.snapshot.snapshot_rows``; else it is
        committed. ``filters``: a :class:`TableFilter`, such as the change reader's
        :class:`mysqlddl.changes.filters.Filters` (its databases/tables include and exclude
        patterns); system databases are never included.
        ``lock``: how the position and the schema are made consistent:

        "global"    FLUSH TABLES WITH READ LOCK, then START TRANSACTION WITH CONSISTENT SNAPSHOT,
                    the position (SHOW MASTER STATUS, MySQL 8.2+ SHOW BINARY LOG STATUS) and every
                    SHOW CREATE TABLE, then UNLOCK TABLES (the transaction stays open: UNLOCK
                    TABLES commits nothing after FLUSH TABLES WITH READ LOCK; MySQL manual
                    "FLUSH Statement", the method of mysqldump --single-transaction --master-data).
                    Writes wait while the lock is held: a few milliseconds plus one SHOW CREATE
                    TABLE per table.
        "snapshot"  MariaDB only, no global lock: START TRANSACTION WITH CONSISTENT SNAPSHOT gives
                    the binlog position of the snapshot in the status variables
                    ``binlog_snapshot_file``/``binlog_snapshot_position`` (MariaDB KB
                    "Enhancements for START TRANSACTION WITH CONSISTENT SNAPSHOT"); the schema is
                    then read and checked against the binlog: SHOW BINLOG EVENTS from the snapshot
                    position to the end position read after the last SHOW CREATE TABLE must hold
                    no statement other than transaction control (BEGIN/COMMIT/XA/SAVEPOINT). A
                    DDL in that window makes it retry (``SNAPSHOT_ATTEMPTS``), then fall back to
                    "global".
        "backup"    MySQL 8.0+ LOCK INSTANCE FOR BACKUP (blocks DDL, not DML) for a schema-only
                    capture (``with_rows=False``): under it every position has the same schema.
        "auto"      "snapshot" on MariaDB, "backup" on MySQL 8.0+ without rows, else "global".

        The GTID position at that point: MariaDB ``BINLOG_GTID_POS(file, pos)`` (MariaDB KB
        "BINLOG_GTID_POS"); MySQL ``Executed_Gtid_Set`` of the same SHOW MASTER STATUS row.
        A missing privilege is a SnapshotError naming what the method needs
        (``LOCK_PRIVILEGES``) and, on MariaDB without RELOAD, the lock-free method. The session's
        sql_mode is set to '' (SHOW CREATE TABLE then quotes with backquotes, as the grammar reads
        by default): give the capture a connection of its own.
        ``hold_tables`` (with rows): open each included table once inside the snapshot
        transaction, so its shared metadata lock is held until the rows are read: a DDL on such a
        table then waits for the snapshot to end instead of breaking it (InnoDB answers a read of
        a table rebuilt since the snapshot with ER_TABLE_DEF_CHANGED, 1412). The price: writes
        to a table queue behind a DDL waiting on it. With ``hold_tables=False`` a DDL during the
        snapshot makes snapshot_rows raise SnapshotError; capture again.

    The rows read in the transaction a capture leaves open become change records in
    :mod:`mysqlddl.changes.snapshot` (``snapshot_rows``): records are the change layer's business,
    and changes stands above sources (ARCHITECTURE.md, "Layers").

    SchemaCapture.catalog(options) -> Catalog; SchemaCapture.options(base) -> Options

The DDL script is what ``mysqlddl changes --schema FILE --schema-position FILE:POS`` takes as a
baseline, or ``ChangeReader(open_source(files), ChangeOptions(schema_position=str(capture.position),
span=((path, capture.position.pos), None)), schema=capture.ddl)`` from the API; the stream then
starts at ``capture.position`` (a transaction boundary), right after the snapshot's rows.

Tested against MariaDB 10.11 (tests/sources/server/test_snapshot.py). The MySQL paths (SHOW BINARY LOG
STATUS, Executed_Gtid_Set, LOCK INSTANCE FOR BACKUP, JSON columns of MySQL's binary type) follow
the MySQL 8.0/8.4 manuals but have not run against a MySQL server here.
"""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Protocol

import pymysql.err

from ...errors import ConfigError, SnapshotError
from ...model.catalog import Catalog
from ...options import Dialect, Options
from ...positions import BinlogPosition

#: Databases that hold the server's own state, never captured.
SYSTEM_DATABASES = frozenset({"information_schema", "performance_schema", "mysql", "sys"})
#: Lock-free MariaDB captures tried before falling back to FLUSH TABLES WITH READ LOCK.
SNAPSHOT_ATTEMPTS = 3
#: Events per SHOW BINLOG EVENTS page when a lock-free capture checks its window for DDL.
BINLOG_EVENTS_PAGE = 1000
#: Server errors that mean a missing privilege: ER_SPECIFIC_ACCESS_DENIED_ERROR (1227),
#: ER_DBACCESS_DENIED_ERROR (1044), ER_TABLEACCESS_DENIED_ERROR (1142) (include/mysqld_error.h).
ACCESS_DENIED = frozenset({1227, 1044, 1142})
#: What reading a table in a snapshot meets when a DDL changed it since: ER_TABLE_DEF_CHANGED
#: (1412, a rebuilt table), ER_BAD_FIELD_ERROR (1054, a dropped column), ER_NO_SUCH_TABLE (1146).
CHANGED_UNDER_SNAPSHOT = frozenset({1412, 1054, 1146})


class TableFilter(Protocol):
    """Which databases and tables a capture includes: what the capture needs of the change reader's
    filters (changes/ stands above sources/, so the capture names the method, not the class)."""

    def table_ok(self, db: str | None, table: str | None) -> bool:
        """Whether ``table`` of ``db`` is included (``table`` None: whether any of ``db`` may be)."""
#: What each capture method runs, and the privileges that takes (MariaDB KB "GRANT"; MySQL manual
#: "Privileges Provided by MySQL"): SHOW MASTER STATUS / SHOW BINARY LOGS / SHOW BINLOG EVENTS need
#: BINLOG MONITOR on MariaDB 10.5+ (REPLICATION CLIENT before, and on MySQL).
LOCK_PRIVILEGES = {
    "global": "RELOAD (FLUSH TABLES WITH READ LOCK), BINLOG MONITOR or REPLICATION CLIENT (SHOW MASTER STATUS) "
              "and SELECT on the included tables",
    "snapshot": "BINLOG MONITOR (SHOW MASTER STATUS, SHOW BINARY LOGS, SHOW BINLOG EVENTS) and SELECT on the "
                "included tables",
    "backup": "BACKUP_ADMIN (LOCK INSTANCE FOR BACKUP), REPLICATION CLIENT (SHOW BINARY LOG STATUS) and SELECT "
              "on the included tables",
}
#: QUERY events that never change a schema (what may sit between the snapshot and the end of a
#: lock-free capture): transaction control and XA (sql/log_event.cc writes these as Query events).
_TXN_CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|XA\s|SAVEPOINT|RELEASE\s+SAVEPOINT)\b", re.I)
#: Table types SHOW FULL TABLES gives for tables with rows (MariaDB adds SYSTEM VERSIONED).
_BASE_TYPES = ("BASE TABLE", "SYSTEM VERSIONED")


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


@dataclasses.dataclass(frozen=True, slots=True)
class SchemaCapture:
    """The schema at one binlog position. ``position``: file, pos and GTID position (MariaDB
    ``domain-server-seq`` list, MySQL GTID set; None when the server has none). ``ddl``: the script (per
    database: its CREATE DATABASE, a USE, its tables' CREATE TABLE statements, each ending in ``;``;
    then the views) that rebuilds the included objects. ``tables``: (db, table) of the tables with rows,
    in script order (what :func:`snapshot_rows` reads); ``sequences`` (MariaDB) and ``views``: (db,
    name), in the script but never read. ``databases``: the included databases. ``server_version``:
    ``SELECT VERSION()``; ``mariadb``: the server is MariaDB; ``server_id``: ``@@server_id``. ``lock``:
    the method used ("global", "snapshot", "backup"). ``in_snapshot``: the connection was left inside
    the consistent-snapshot transaction (for :func:`snapshot_rows`). ``ts``: the capture's time, epoch
    seconds."""

    position: BinlogPosition
    ddl: str
    tables: tuple[tuple[str, str], ...]
    sequences: tuple[tuple[str, str], ...]
    views: tuple[tuple[str, str], ...]
    databases: tuple[str, ...]
    server_version: str
    mariadb: bool
    server_id: int
    lock: str
    in_snapshot: bool
    ts: int

    def options(self, base: Options | None = None) -> Options:
        """``base`` (default: Options()) with the server's dialect and version."""
        m = re.match(r"(\d+)\.(\d+)\.(\d+)", self.server_version)
        version = tuple(int(x) for x in m.groups()) if m else None
        opts = base if base is not None else Options()
        changes = {"dialect": Dialect.MARIADB if self.mariadb else Dialect.MYSQL}
        if version is not None:
            changes["server_version"] = version
        return opts.replace(**changes)

    def catalog(self, options: Options | None = None) -> Catalog:
        """The model the DDL script builds (on an empty catalog, with :meth:`options`)."""
        # (imported here: the DDL engine's import and grammar load cost ~0.3 s a process, and only
        # a snapshot without a catalog handed in needs it)
        from ...ddl import run_script

        opts = self.options(options)
        cat = run_script(Catalog.empty(opts), self.ddl, opts, source="snapshot").catalog
        return dataclasses.replace(cat, changed=(), version=0)


# ------------------------------------------------------------------------------------- capture


def _rows(cur, sql: str, args=None) -> list[tuple]:
    cur.execute(sql, args)
    return list(cur.fetchall())


def _text(v) -> str:
    return v.decode("utf-8") if isinstance(v, (bytes, bytearray)) else str(v)


def _server(cur) -> tuple[str, bool, int]:
    version, server_id = _rows(cur, "SELECT VERSION(), @@server_id")[0]
    version = _text(version)
    return version, "mariadb" in version.lower(), int(server_id)


def _version_tuple(version: str) -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def _master_status(cur, mariadb: bool, version: str) -> tuple[str, int, str | None]:
    """(file, pos, MySQL Executed_Gtid_Set or None) of SHOW MASTER STATUS (MySQL 8.2+ renamed it
    SHOW BINARY LOG STATUS, and 8.4 removed the old name)."""
    new = not mariadb and _version_tuple(version) >= (8, 2)
    rows = _rows(cur, "SHOW BINARY LOG STATUS" if new else "SHOW MASTER STATUS")
    if not rows:
        raise SnapshotError("the server has no binary log (SHOW MASTER STATUS is empty): "
                            "start it with log_bin (--log-bin) to capture a position")
    row = rows[0]
    gtid = _text(row[4]).replace("\n", "") if not mariadb and len(row) > 4 and row[4] else None
    return _text(row[0]), int(row[1]), gtid


def _gtid_at(cur, mariadb: bool, file: str, pos: int, mysql_gtid: str | None) -> str | None:
    if not mariadb:
        return mysql_gtid
    # MariaDB KB "BINLOG_GTID_POS": the GTID position that corresponds to a binlog (file, offset)
    v = _rows(cur, "SELECT BINLOG_GTID_POS(%s, %s)", (file, pos))[0][0]
    return _text(v) if v is not None else None


@dataclasses.dataclass(frozen=True, slots=True)
class _Database:
    name: str
    tables: tuple[str, ...]         # with rows: BASE TABLE, SYSTEM VERSIONED
    sequences: tuple[str, ...]      # MariaDB SEQUENCE objects (their state is a one-row table)
    views: tuple[str, ...]


def _included(cur, filters) -> list[_Database]:
    """The included databases and their objects, sorted; names from SHOW statements only."""
    out = []
    for (db,) in _rows(cur, "SHOW DATABASES"):
        db = _text(db)
        if db.lower() in SYSTEM_DATABASES or (filters is not None and not filters.table_ok(db, None)):
            continue
        kinds: dict[str, list[str]] = {}
        for name, kind in _rows(cur, f"SHOW FULL TABLES FROM {_q(db)}"):
            name = _text(name)
            if filters is None or filters.table_ok(db, name):
                kinds.setdefault(_text(kind).upper(), []).append(name)
        out.append(_Database(db, tuple(sorted(n for k in _BASE_TYPES for n in kinds.get(k, ()))),
                             tuple(sorted(kinds.get("SEQUENCE", ()))), tuple(sorted(kinds.get("VIEW", ())))))
    return sorted(out, key=lambda d: d.name)


def _script(cur, included: list[_Database]) -> str:
    """Per database its CREATE DATABASE, a USE, its tables and sequences; then the views, after
    every table of every database (a view may select from another database)."""
    parts = []
    for d in included:
        parts.append(_text(_rows(cur, f"SHOW CREATE DATABASE {_q(d.name)}")[0][1]) + ";")
        parts.append(f"USE {_q(d.name)};")
        for t in d.tables:
            parts.append(_text(_rows(cur, f"SHOW CREATE TABLE {_q(d.name)}.{_q(t)}")[0][1]) + ";")
        for t in d.sequences:
            # MariaDB KB "SHOW CREATE SEQUENCE": the CREATE SEQUENCE form, which keeps the settings
            parts.append(_text(_rows(cur, f"SHOW CREATE SEQUENCE {_q(d.name)}.{_q(t)}")[0][1]) + ";")
    for d in included:
        if d.views:
            parts.append(f"USE {_q(d.name)};")
        for v in d.views:
            parts.append(_text(_rows(cur, f"SHOW CREATE VIEW {_q(d.name)}.{_q(v)}")[0][1]) + ";")
    return "\n".join(parts) + "\n"


def _found(included: list[_Database]) -> tuple:
    """The SchemaCapture fields tables, sequences, views, databases."""
    return (tuple((d.name, t) for d in included for t in d.tables),
            tuple((d.name, t) for d in included for t in d.sequences),
            tuple((d.name, t) for d in included for t in d.views), tuple(d.name for d in included))


def _session(cur) -> None:
    # SHOW CREATE TABLE follows the session's sql_mode (ANSI_QUOTES changes its quoting) and
    # sql_quote_show_create; pin both to what the grammar reads by default
    cur.execute("SET SESSION sql_mode = '', SESSION sql_quote_show_create = 1")


def _ddl_between(cur, start: tuple[str, int], end: tuple[str, int]) -> str | None:
    """The first statement that is not transaction control among the QUERY events from ``start``
    up to ``end`` (SHOW BINLOG EVENTS; MariaDB KB "SHOW BINLOG EVENTS"), or None."""
    files = [_text(r[0]) for r in _rows(cur, "SHOW BINARY LOGS")]
    if start[0] not in files or end[0] not in files:
        return f"binlog {start[0]} or {end[0]} no longer listed by SHOW BINARY LOGS"
    for name in files[files.index(start[0]):files.index(end[0]) + 1]:
        pos = start[1] if name == start[0] else 4
        while True:
            # pages of BINLOG_EVENTS_PAGE events (memory stays bounded on a busy server); a page
            # resumes at the End_log_pos of the last event of the page before
            cur.execute(f"SHOW BINLOG EVENTS IN %s FROM {int(pos)} LIMIT {BINLOG_EVENTS_PAGE}", (name,))
            rows = cur.fetchall()
            for row in rows:
                at, kind, info = int(row[1]), _text(row[2]), _text(row[5] or "")
                if name == end[0] and at >= end[1]:
                    return None
                if kind in ("Query", "Query_compressed") and not _TXN_CONTROL.match(info):
                    return info
            if len(rows) < BINLOG_EVENTS_PAGE:
                break
            pos = int(rows[-1][4])
    return None


def capture_schema(conn, *, filters: TableFilter | None = None, lock: str = "auto",
                   with_rows: bool = True, hold_tables: bool = True) -> SchemaCapture:
    """See the module docstring. A :class:`~mysqlddl.errors.SnapshotError` names what is missing
    (no binary log, an unknown lock method for this server); PyMySQL's own errors (privileges:
    RELOAD for FLUSH TABLES WITH READ LOCK, BACKUP_ADMIN for LOCK INSTANCE FOR BACKUP,
    BINLOG MONITOR / REPLICATION CLIENT for SHOW MASTER STATUS and SHOW BINLOG EVENTS) pass
    through."""
    if lock not in ("auto", "global", "snapshot", "backup"):
        raise ConfigError(f"lock must be auto, global, snapshot or backup, not {lock!r}")
    cur = conn.cursor()
    try:
        version, mariadb, server_id = _server(cur)
        _session(cur)
        if lock == "auto":
            lock = "snapshot" if mariadb else (
                "backup" if not with_rows and _version_tuple(version) >= (8, 0) else "global")
        try:
            return _capture(cur, filters, lock, with_rows, with_rows and hold_tables, version, mariadb, server_id)
        except pymysql.err.OperationalError as e:
            code = e.args[0] if e.args else None
            if code not in ACCESS_DENIED:
                raise
            cur.execute("ROLLBACK")
            raise SnapshotError(f"{e.args[1]} (server error {code}): a capture with lock={lock!r} needs "
                                f"{LOCK_PRIVILEGES[lock]}; grant it to this user"
                                + (", or use lock='snapshot' (no RELOAD needed on MariaDB)"
                                   if lock == "global" and mariadb else "")) from e
    finally:
        cur.close()


def _capture(cur, filters, lock: str, with_rows: bool, hold: bool, version: str, mariadb: bool,
             server_id: int) -> SchemaCapture:
    if lock == "snapshot" and not mariadb:
        raise SnapshotError("lock='snapshot' needs MariaDB (binlog_snapshot_file/position): use 'global'")
    if lock == "backup" and (mariadb or with_rows):
        raise SnapshotError("lock='backup' (LOCK INSTANCE FOR BACKUP) is MySQL 8.0+ and schema-only "
                            "(with_rows=False): use 'global'")
    if lock == "snapshot":
        for _ in range(SNAPSHOT_ATTEMPTS):
            got = _capture_snapshot(cur, filters, version, with_rows, hold)
            if got is not None:
                return SchemaCapture(*got, version, mariadb, server_id,
                                     "snapshot", with_rows, int(time.time()))
        lock = "global"
    if lock == "backup":
        cur.execute("LOCK INSTANCE FOR BACKUP")
        try:
            found = _capture_locked(cur, filters, version, mariadb, False)
        finally:
            cur.execute("UNLOCK INSTANCE")
        return SchemaCapture(*found, version, mariadb, server_id, "backup", False,
                             int(time.time()))
    cur.execute("FLUSH TABLES WITH READ LOCK")
    try:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cur.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
        found = _capture_locked(cur, filters, version, mariadb, hold)
    finally:
        cur.execute("UNLOCK TABLES")
    if not with_rows:
        cur.execute("COMMIT")
    return SchemaCapture(*found, version, mariadb, server_id, "global", with_rows,
                         int(time.time()))


def _hold(cur, included: list[_Database]) -> None:
    """Open every included table once in the snapshot transaction: the shared metadata lock that
    takes is held to the transaction's end (MariaDB KB "Metadata Locking"; MySQL manual "Metadata
    Locking"), so a DDL on the table waits for the snapshot instead of breaking it (a rebuilt table
    is ER_TABLE_DEF_CHANGED 1412 in the snapshot, a dropped column an unknown column)."""
    for d in included:
        for t in d.tables:
            _rows(cur, f"SELECT 1 FROM {_q(d.name)}.{_q(t)} LIMIT 0")


def _capture_locked(cur, filters, version: str, mariadb: bool, hold: bool):
    file, pos, mysql_gtid = _master_status(cur, mariadb, version)
    gtid = _gtid_at(cur, mariadb, file, pos, mysql_gtid)
    included = _included(cur, filters)
    if hold:
        _hold(cur, included)
    return (BinlogPosition.of(file, pos, gtid), _script(cur, included), *_found(included))


def _capture_snapshot(cur, filters, version: str, with_rows: bool, hold: bool):
    """One lock-free MariaDB attempt: (position, ddl, tables, databases), or None when a statement
    that may be DDL was logged between the snapshot and the end of the schema reads.

    Why the window check is enough: a DDL statement is written to the binlog while it still holds
    the exclusive metadata lock on its table (MariaDB sql/sql_table.cc ``mysql_alter_table`` and
    ``mysql_create_table`` call ``write_bin_log`` before the lock is released), and SHOW CREATE TABLE
    needs a shared metadata lock on it; so a definition our SHOW CREATE TABLE saw changed is already
    in the binlog before the end position read after it, and a change after that end is not seen."""
    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    cur.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
    status = {_text(k).lower(): _text(v) for k, v in _rows(cur, "SHOW STATUS LIKE 'binlog_snapshot_%'")}
    file, pos = status.get("binlog_snapshot_file"), status.get("binlog_snapshot_position")
    if not file or pos is None:
        cur.execute("ROLLBACK")
        raise SnapshotError("the server gives no binlog_snapshot_file/position (binary log off?): "
                            "start it with log_bin, or use lock='global'")
    included = _included(cur, filters)
    if hold:
        _hold(cur, included)    # (a DDL before the locks were taken is logged inside the window)
    ddl = _script(cur, included)
    end_file, end_pos, _ = _master_status(cur, True, version)
    if _ddl_between(cur, (file, int(pos)), (end_file, end_pos)) is not None:
        cur.execute("ROLLBACK")
        return None
    gtid = _gtid_at(cur, True, file, int(pos), None)
    if not with_rows:
        cur.execute("COMMIT")
    return (BinlogPosition.of(file, int(pos), gtid), ddl, *_found(included))


__all__ = ["ACCESS_DENIED", "CHANGED_UNDER_SNAPSHOT", "SNAPSHOT_ATTEMPTS", "SYSTEM_DATABASES", "SchemaCapture",
           "TableFilter", "capture_schema"]
