"""The schema (and optionally the rows) of a live server at one exact binlog position.

A live start "from now" needs the schema in force at the position it starts from, and an initial
data snapshot needs rows that correspond exactly to that position. Both are read here with ordinary
SQL over a PyMySQL connection (public API only: ``cursor()``, ``execute``, ``fetch*`` and
``pymysql.cursors.SSCursor``). ``information_schema`` is never read: a column list taken from it
while the server keeps changing labels old rows with new columns; ``SHOW CREATE TABLE`` is parsed
with our own grammar, exactly as a baseline DDL file is.

Public functions::

    capture_schema(conn, *, filters=None, lock="auto", with_rows=True, hold_tables=True) -> SchemaCapture
        The binlog position (file, pos, GTID position) and the DDL script of every included table,
        MariaDB sequence and view (views last), consistent with each other. With ``with_rows``
        the connection is left inside a REPEATABLE READ transaction opened WITH CONSISTENT
        SNAPSHOT at exactly that position, for snapshot_rows; else it is committed. ``filters``: a
        :class:`mysqlddl.changes.filters.Filters` (its databases/tables include and exclude
        patterns, through ``table_ok``); system databases are never included.
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

    snapshot_rows(conn, capture, *, catalog=None, options=None, chunk_rows=10000) -> iterator
        RowChange records (op "r", before None) of every included table, read in the transaction
        capture_schema left open, so they are the table contents at ``capture.position`` exactly.
        Tables in the capture's order; rows in primary-key order, read in chunks of
        ``chunk_rows`` by keyset pagination on the key (``WHERE k > last ORDER BY k LIMIT n``); a
        table without a primary key uses its first UNIQUE key over NOT NULL columns the same way,
        and without one is read in one scan through a server-side cursor (``SSCursor``: bounded
        memory; InnoDB gives such a table's rows in its hidden row-id order). The values are the
        ones the binlog path gives for the same column (see :func:`column_reader`); the source
        carries the snapshot position, db, table and ``snapshot`` "true" ("last" on the very last
        record), as Debezium marks snapshot reads. ``catalog``: the model to type the rows with
        (the stream's baseline: the history's catalog at ``capture.position``); default: the
        capture's own DDL applied to an empty catalog. The transaction is committed when the
        iterator is exhausted, and rolled back when it is closed early.

    SchemaCapture.catalog(options) -> Catalog; SchemaCapture.options(base) -> Options

The DDL script is what ``mysqlddl changes --schema FILE --schema-position FILE:POS`` takes as a
baseline, or ``ChangeReader(files, ChangeOptions(schema_position=str(capture.position),
span=((path, capture.position.pos), None)), schema=capture.ddl)`` from the API; the stream then
starts at ``capture.position`` (a transaction boundary), right after the snapshot's rows.

(Over 600 lines because the capture and the row reader share one protocol, the consistent-snapshot
transaction a capture leaves open; the per-column value readers, ~150 lines, are the piece to move
out first if it grows.)

Tested against MariaDB 10.11 (tests/sources/test_snapshot.py). The MySQL paths (SHOW BINARY LOG
STATUS, Executed_Gtid_Set, LOCK INSTANCE FOR BACKUP, JSON columns of MySQL's binary type) follow
the MySQL 8.0/8.4 manuals but have not run against a MySQL server here.
"""

from __future__ import annotations

import dataclasses
import re
import struct
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING

import pymysql.cursors
import pymysql.err

from ...binlog.values import enum_set, temporal
from ...binlog.values.charsets import codec_for_charset_name, decode_text
from ...binlog.values.geometry import Geometry
from ...binlog.values.meta import ColumnMeta
from ...changes.records import Naming, RowChange, Source
from ...changes.values import typed_value, value_family
from ...errors import ConfigError, SnapshotError
from ...model import charsets as model_charsets
from ...model.catalog import Catalog
from ...model.column import Column
from ...model.ids import TableId
from ...model.table import Table
from ...model.types import TypeFamily
from ...options import Dialect, Options
from ...positions import BinlogPosition

if TYPE_CHECKING:
    from ...changes.filters import Filters

F = TypeFamily

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
_FLOAT32 = struct.Struct("<f")
_MASK64 = (1 << 64) - 1


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


def capture_schema(conn, *, filters: Filters | None = None, lock: str = "auto",
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


# ----------------------------------------------------------------------------------------- rows


def _meta(opts: Options, fsp: int | None) -> ColumnMeta:
    # the binlog decoders' temporal helpers read only these two fields of a ColumnMeta
    return ColumnMeta(type=0, binlog_type=0, fsp=fsp, invalid_as_none=opts.invalid_temporal_as == "none")


_DATETIME = re.compile(rb"(\d+)-(\d+)-(\d+)(?: (\d+):(\d+):(\d+)(?:\.(\d+))?)?$")
_TIME = re.compile(rb"(-?)(\d+):(\d+):(\d+)(?:\.(\d+))?$")


def _micro(frac: bytes | None) -> int:
    return int((frac or b"0").ljust(6, b"0")[:6])


def column_reader(col: Column, table: Table, opts: Options) -> tuple[str, object]:
    """(select expression, converter) for one column: the expression yields a binary string
    (so the server converts no charset and PyMySQL no type: the converter sees the server's bytes,
    or None for NULL) and the converter gives the value the binlog path gives for the column
    (mysqlddl.binlog.values, then the schema's retyping of mysqlddl.changes.values):

        integers, YEAR        the decimal text -> int (YEAR 0 stays 0)
        BIT                   the value's big-endian bytes -> int
        FLOAT                 ``col + 0E0`` (a DOUBLE, exact for a float32) text -> float32 value
        DOUBLE                the server's shortest round-trip text -> float
        DECIMAL               the exact digits -> Decimal (or str, Options.decimal_as)
        DATE/DATETIME/TIME    the server's text -> date/datetime/timedelta; zero and invalid
                              dates as the binlog path gives them (text or None)
        TIMESTAMP             UNIX_TIMESTAMP() (UTC epoch, as the row image; independent of the
                              session time zone) -> aware UTC datetime; 0 is the zero timestamp
        CHAR/VARCHAR/TEXT     the stored bytes decoded with the column's charset, as the binlog's
                              (MySQL latin1 is cp1252; CHAR padded back with Options.pad_char)
        BINARY/BLOB           bytes (BINARY(N) comes back padded, as the binlog path restores it)
        ENUM/SET              the index / bitmask (``col+0``) -> member names by the model
        JSON                  the document text -> dict/list (MariaDB JSON is LONGTEXT)
        GEOMETRY              the stored SRID + WKB -> Geometry(srid, wkb)
        INET4/INET6           the stored address bytes -> the address text (ipaddress)
        UUID                  the 16 bytes in canonical order -> the text form
    """
    name = _q(col.name)
    fam = col.family
    family = value_family(col, table)
    raw = f"CAST({name} AS BINARY)"
    if family is F.JSON and opts.json_as != "text":
        codec = _codec(col.charset or "utf8mb4", opts)
        return raw, lambda b: typed_value(F.JSON, decode_text(b, codec, opts.charset_errors))
    if fam is F.INTEGER or fam is F.YEAR:
        return raw, int
    if fam is F.BIT:
        return raw, lambda b: int.from_bytes(b, "big")
    if fam is F.FLOAT:
        if col.type_name == "double":
            return raw, float
        # (col + 0E0: a DOUBLE of the float32 value, exact; CAST AS DOUBLE is missing before MySQL
        # 8.0.17 and MariaDB 10.4)
        return f"CAST({name} + 0E0 AS BINARY)", lambda b: _FLOAT32.unpack(_FLOAT32.pack(float(b)))[0]
    if fam is F.DECIMAL:
        if opts.decimal_as == "str":
            return raw, lambda b: b.decode("ascii")
        return raw, lambda b: Decimal(b.decode("ascii"))
    if fam in (F.DATE, F.DATETIME):
        meta = _meta(opts, col.fsp or 0)
        return raw, (lambda b: _date(b, meta)) if fam is F.DATE else (lambda b: _datetime(b, meta))
    if fam is F.TIME:
        return raw, _time
    if fam is F.TIMESTAMP:
        meta = _meta(opts, col.fsp or 0)
        return f"CAST(UNIX_TIMESTAMP({name}) AS BINARY)", lambda b: _timestamp(b, meta)
    if fam in (F.ENUM, F.SET):
        names = col.values or None
        if fam is F.ENUM:
            return f"CAST({name}+0 AS BINARY)", lambda b: int(b) if names is None else enum_set.enum_name(int(b), names)
        # a 64-member SET's bitmask comes back signed (``col+0`` is a signed BIGINT)
        return f"CAST({name}+0 AS BINARY)", lambda b: (int(b) & _MASK64) if names is None else \
            enum_set.set_names(int(b) & _MASK64, names)
    if fam is F.GEOMETRY:
        return raw, lambda b: Geometry(int.from_bytes(b[:4], "little"), bytes(b[4:]))
    if fam in (F.INET4, F.INET6):
        width = 4 if fam is F.INET4 else 16
        return f"CAST({name} AS BINARY({width}))", lambda b: typed_value(fam, b)
    if fam is F.UUID:
        return f"CAST({name} AS BINARY(16))", _uuid_text
    if fam in (F.CHAR, F.VARCHAR, F.TEXT, F.JSON, F.ENUM) and not opts.strings_as_bytes:
        cs = col.charset or opts.charset_fallback
        codec = _codec(cs, opts)
        if codec is None:
            return raw, bytes
        pad = col.length if fam is F.CHAR and opts.pad_char and col.length else 0
        errors = opts.charset_errors
        if pad:
            return raw, lambda b: decode_text(b, codec, errors).ljust(pad)
        return raw, lambda b: decode_text(b, codec, errors)
    return raw, bytes


def _codec(charset: str, opts: Options):
    entry = codec_for_charset_name(model_charsets.canonical_charset(charset))
    if entry is False:
        entry = codec_for_charset_name(opts.charset_fallback)
    return entry[0] if entry else None


def _date(b: bytes, meta: ColumnMeta):
    m = _DATETIME.match(b)
    return temporal.make_date(meta, int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _datetime(b: bytes, meta: ColumnMeta):
    m = _DATETIME.match(b)
    return temporal.make_datetime(meta, *(int(m.group(i)) for i in range(1, 7)), _micro(m.group(7)))


def _time(b: bytes):
    m = _TIME.match(b)
    return temporal.make_time(m.group(1) == b"-", int(m.group(2)), int(m.group(3)), int(m.group(4)),
                              _micro(m.group(5)))


def _timestamp(b: bytes, meta: ColumnMeta):
    secs, _, frac = b.partition(b".")
    return temporal.make_timestamp(meta, int(secs), _micro(frac))


def _uuid_text(b: bytes) -> str:
    h = bytes(b).hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _chunk_key(table: Table) -> tuple[str, ...]:
    """The columns that order the rows: the primary key, else the first UNIQUE key whose columns
    are all NOT NULL (InnoDB's clustered index in that case), else () (an unordered scan)."""
    if table.primary_key is not None and all(p.column for p in table.primary_key.parts):
        return table.primary_key.columns
    cols = {c.name.lower(): c for c in table.columns}
    for key in table.unique_keys:
        if all(p.column and p.length is None and p.column.lower() in cols and not cols[p.column.lower()].nullable
               for p in key.parts):
            return key.columns
    return ()


def _after_clause(key: tuple[str, ...]) -> str:
    """``k1 > %s OR (k1 = %s AND k2 > %s) ...``: the keyset condition expanded (a row-value
    comparison is not used as an index range by every server version)."""
    ors = []
    for i in range(len(key)):
        eqs = [f"{_q(k)} = %s" for k in key[:i]]
        ors.append("(" + " AND ".join([*eqs, f"{_q(key[i])} > %s"]) + ")")
    return " OR ".join(ors)


def _after_args(last: tuple) -> list:
    out: list = []
    for i in range(len(last)):
        out.extend(last[:i])
        out.append(last[i])
    return out


def _table_rows(conn, table: Table, opts: Options, chunk_rows: int) -> Iterator[dict]:
    readers = [column_reader(c, table, opts) for c in table.columns]
    names = [c.name for c in table.columns]
    convs = [r[1] for r in readers]
    key = _chunk_key(table)
    select = ", ".join(r[0] for r in readers)
    source = f"{_q(table.id.database)}.{_q(table.id.name)}"

    def image(row) -> dict:
        return {n: None if v is None else conv(v) for n, conv, v in zip(names, convs, row, strict=False)}

    if not key:
        cur = conn.cursor(pymysql.cursors.SSCursor)
        try:
            cur.execute(f"SELECT {select} FROM {source}")
            while True:
                batch = cur.fetchmany(chunk_rows)
                if not batch:
                    break
                for row in batch:
                    yield image(row)
        finally:
            cur.close()
        return
    # the key columns also come back as PyMySQL types, to be sent back as the next chunk's bound
    order = ", ".join(_q(k) for k in key)
    n = len(readers)
    first = f"SELECT {select}, {order} FROM {source} ORDER BY {order} LIMIT {int(chunk_rows)}"
    nxt = f"SELECT {select}, {order} FROM {source} WHERE {_after_clause(key)} ORDER BY {order} LIMIT {int(chunk_rows)}"
    last = None
    cur = conn.cursor()
    try:
        while True:
            cur.execute(first if last is None else nxt, None if last is None else _after_args(last))
            rows = cur.fetchall()
            for row in rows:
                yield image(row[:n])
            if len(rows) < chunk_rows:
                return
            last = tuple(rows[-1][n:])
    finally:
        cur.close()


def snapshot_rows(conn, capture: SchemaCapture, *, catalog: Catalog | None = None,
                  options: Options | None = None, chunk_rows: int = 10000) -> Iterator[RowChange]:
    """See the module docstring."""
    if not capture.in_snapshot:
        raise SnapshotError("the capture left no consistent-snapshot transaction open: call "
                            "capture_schema(conn, with_rows=True) on this connection")
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise ConfigError(f"chunk_rows must be a positive int, not {chunk_rows!r}")
    opts = capture.options(options)
    cat = catalog if catalog is not None else capture.catalog(opts)
    pos = capture.position
    base = Source(connector="mariadb" if capture.mariadb else "mysql", server_version=capture.server_version,
                  server_id=capture.server_id, file=pos.file, file_seq=pos.file_seq, pos=pos.pos, row=0,
                  ts=capture.ts, snapshot="true")
    held: RowChange | None = None
    done = False
    try:
        for db, name in capture.tables:
            table = cat.table(TableId(db, name))
            if table is None:
                raise SnapshotError(f"table {db}.{name} of the capture is not in the catalog given")
            names = tuple(c.name for c in table.columns)
            src = dataclasses.replace(base, db=db, table=name)
            try:
                for after in _table_rows(conn, table, opts, chunk_rows):
                    if held is not None:
                        yield held
                    held = RowChange("r", src, None, after, names, Naming.SCHEMA, table)
            except pymysql.err.MySQLError as e:
                code = e.args[0] if e.args else None
                if code not in CHANGED_UNDER_SNAPSHOT:
                    raise
                raise SnapshotError(f"{db}.{name} was changed by a DDL during the snapshot ({e.args[1]}, server "
                                    f"error {code}): capture again, with hold_tables=True to make DDL wait") from e
        done = True
    finally:
        if not done:
            # closed early or failed: end the snapshot transaction (it only read) so the
            # connection is usable again
            conn.rollback()
    conn.commit()
    if held is not None:
        yield dataclasses.replace(held, source=dataclasses.replace(held.source, snapshot="last"))


__all__ = ["SNAPSHOT_ATTEMPTS", "SYSTEM_DATABASES", "SchemaCapture", "capture_schema", "column_reader",
           "snapshot_rows"]
