"""Binlogs written by our own workload (tools/workload.py) on a private MariaDB, decoded by our reader
and checked against two independent truths, on both twins and with binlog_row_metadata MINIMAL and
FULL (the ``lab`` fixture, tests/binlog/conftest.py):

1. ``mariadb-binlog --base64-output=decode-rows -vv``: every row image of every rows event prints the
   same values as ours, column by column (after the normalisation in :func:`render_like_mariadb_binlog`).
2. Replay: the decoded row events (and the DDL of the Query events) applied from an empty start give
   exactly the table contents the server held at the end (the workload's truth).

Every event of every file also decodes completely: contiguous positions up to the file size, no
undecodable event, and each event's CRC32 recomputed here (sql/log_event.cc ``Log_event::write``
appends ``my_checksum(0, header+body)``) equals the 4 bytes the server wrote.
"""

from __future__ import annotations

import datetime
import decimal
import re
import subprocess
import zlib

import pytest

from mysqlddl.binlog import rows as rows_mod
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.binlog.events import QueryEvent, RowsEvent
from mysqlddl.binlog.reader import BinlogReader, UndecodableEvent
from mysqlddl.binlog.values import charsets
from mysqlddl.binlog.values.geometry import Geometry
from mysqlddl.options import Dialect, Options

pytestmark = pytest.mark.mariadb

OPTIONS = Options(dialect=Dialect.MARIADB)
UTC = datetime.timezone.utc


def legacy_file(lab):
    return lab.truth.legacy_temporal_file


# ------------------------------------------------------------------------------------- framing


def test_every_event_decodes_with_exact_consumption_and_crc(lab):
    assert len(lab.paths) >= 5 and lab.truth.bulk_files and legacy_file(lab)
    n_events = n_rows_events = 0
    for path in lab.paths:
        data = path.read_bytes()
        events = list(BinlogReader(path, options=OPTIONS))
        assert events[0].type_name == "FORMAT_DESCRIPTION" and events[0].pos == 4
        pos = 4
        for ev in events:
            assert not isinstance(ev, UndecodableEvent), ev
            assert ev.pos == pos, f"{path.name}: gap or overlap at {pos}"
            body = bytearray(data[ev.pos:ev.next_pos - 4])
            if ev.type_name == "FORMAT_DESCRIPTION":
                body[17] &= 0xFE          # LOG_EVENT_BINLOG_IN_USE_F is cleared before checksumming
            assert zlib.crc32(body) == int.from_bytes(data[ev.next_pos - 4:ev.next_pos], "little")
            pos = ev.next_pos
            n_rows_events += isinstance(ev, RowsEvent)
        assert pos == len(data), f"{path.name}: events end at {pos}, the file has {len(data)} bytes"
        n_events += len(events)
    assert n_rows_events > 100 and n_events > 500


# ---------------------------------------------------------------------- mariadb-binlog -vv oracle

ROW_HEAD = re.compile(rb"^### (INSERT INTO|UPDATE|DELETE FROM) `([^`]+)`\.`([^`]+)`$")
KIND = {b"INSERT INTO": "write", b"UPDATE": "update", b"DELETE FROM": "delete"}
_PRINTED: dict = {}


def mariadb_binlog_changes(path) -> list:
    """[(kind, 'db.table', before {n: text}, after {n: text})] in file order, parsed from
    ``mariadb-binlog --base64-output=decode-rows -vv`` (its ``### `` pseudo-SQL, one line per
    value: ``###   @n=value /* TYPE meta=.. nullable=.. is_null=.. */``). The value text is kept as
    bytes: strings are printed raw except bytes below 0x20, written as ``\\xNN`` (client/mysqlbinlog
    via sql/log_event_client.cc ``my_b_write_quoted``), so a 0x0a never splits a line."""
    key = str(path)
    if key not in _PRINTED:
        out = subprocess.run(["mariadb-binlog", "--no-defaults", "--base64-output=decode-rows", "-vv", str(path)],
                             capture_output=True, check=True).stdout
        changes = []
        image = None
        for line in out.split(b"\n"):
            if not line.startswith(b"###"):
                continue
            m = ROW_HEAD.match(line)
            if m:
                cur = [KIND[m.group(1)], f"{m.group(2).decode()}.{m.group(3).decode()}", None, None]
                changes.append(cur)
                image = None
                if cur[0] == "write":
                    image = cur[3] = {}
            elif line == b"### WHERE":
                image = cur[2] = {}
            elif line == b"### SET":
                image = cur[3] = {}
            elif line.startswith(b"###   @"):
                eq = line.index(b"=")
                image[int(line[7:eq])] = line[eq + 1:line.rindex(b" /* ")]
            else:
                raise AssertionError(f"unexpected mariadb-binlog line {line[:80]!r}")
        _PRINTED[key] = changes
    return _PRINTED[key]


def quoted(raw: bytes) -> bytes:
    """``my_b_write_quoted``: bytes below 0x20 as \\xNN, everything else verbatim, in quotes."""
    return b"'" + b"".join(b"\\x%02x" % c if c < 0x20 else bytes([c]) for c in raw) + b"'"


def unquote(text: bytes) -> bytes:
    assert text[:1] == b"'" and text[-1:] == b"'", text[:40]
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), text[1:-1])


def mariadb_uncompress(stored: bytes) -> bytes:
    """MariaDB's COMPRESSED column storage (sql/field.cc ``uncompress_zlib``), written here from the
    server source independently of mysqlddl.binlog.values.compressed: empty; 0x00 + the bytes; or a
    header 1MMMWLLL, LLL bytes of big-endian original length, deflate data (W set: raw deflate)."""
    if not stored:
        return b""
    head = stored[0]
    if head == 0:
        return stored[1:]
    n = head & 7
    length = int.from_bytes(stored[1:1 + n], "big")
    out = zlib.decompress(stored[1 + n:], -15 if head & 8 else 15)
    assert len(out) == length
    return out


_LATIN1_ENCODE = None


def text_bytes(value, meta) -> bytes:
    """Our decoded text back to the column's bytes (lossless: the decoders use surrogateescape)."""
    global _LATIN1_ENCODE
    if isinstance(value, bytes):
        return value
    if meta.encoding == charsets.MYSQL_LATIN1:
        import codecs

        if _LATIN1_ENCODE is None:
            _LATIN1_ENCODE = codecs.charmap_build(charsets.LATIN1_TABLE)
        return codecs.charmap_encode(value, "surrogateescape", _LATIN1_ENCODE)[0]
    return value.encode(meta.encoding, "surrogateescape")


def _int(v: int, bits: int) -> bytes:
    signed = v - (1 << bits) if v >= 1 << (bits - 1) else v
    return b"%d (%d)" % (signed, signed & ((1 << bits) - 1)) if signed < 0 else b"%d" % signed


def _frac(us: int, fsp: int) -> bytes:
    return b"." + (b"%06d" % us)[:fsp] if fsp else b""


def render_like_mariadb_binlog(value, meta) -> bytes | None:
    """Our decoded value in ``log_event_print_value``'s text (sql/log_event_client.cc), or None
    where that text is a different form of the stored bytes and the caller compares differently
    (BINARY(N) padding, COMPRESSED columns). Normalisations, all exact unless noted:

    - integers: signed ``%d``, and `` (%u)`` after a negative one; our unsigned values are folded
      into that form by bit width;
    - FLOAT ``%-20g``: LOSSY in mariadb-binlog (6 significant digits), so only those digits are
      compared; DOUBLE ``%-.20g`` is exact;
    - YEAR: 1900 + the stored byte (the zero year prints as 1900);
    - DATE ``'YYYY:MM:DD'`` (colons); TIMESTAMP as epoch seconds ``%d.frac``; TIME/DATETIME quoted;
      zero/invalid dates (our server-text strings) in the same layouts;
    - BIT as a ``b'..'`` bit string of M bits; SET as the bit string of its stored little-endian
      mask bytes in storage order (so a 2-byte SET prints bits 7..0 then 15..8); ENUM as its index;
    - strings, BLOBs, JSON, GEOMETRY (SRID + WKB): the raw stored bytes, quoted.
    """
    t = meta.type
    if value is None:
        return b"NULL"
    if t in (T.TINY, T.SHORT, T.INT24, T.LONG, T.LONGLONG):
        return _int(value, {T.TINY: 8, T.SHORT: 16, T.INT24: 24, T.LONG: 32, T.LONGLONG: 64}[t])
    if t == T.FLOAT:
        return b"%-20g" % value
    if t == T.DOUBLE:
        return b"%-.20g" % value
    if t == T.NEWDECIMAL:
        return f"{value:.{meta.scale}f}".encode()
    if t == T.YEAR:
        # log_event_print_value prints 1900 + the stored byte, so the zero year (byte 0, the server's
        # '0000', our 0) shows as 1900, a year the type cannot hold (1901-2155)
        return b"%d" % (value if value else 1900)
    if t == T.DATE:
        text = value if isinstance(value, str) else value.isoformat()
        return b"'" + text.replace("-", ":").encode() + b"'"
    if t == T.DATETIME2:
        if isinstance(value, str):
            return b"'" + value.encode() + b"'"
        text = f"{value.year:04d}-{value.month:02d}-{value.day:02d} {value:%H:%M:%S}"   # %Y is not padded
        return b"'" + text.encode() + _frac(value.microsecond, meta.fsp) + b"'"
    if t == T.TIMESTAMP2:
        if isinstance(value, str):         # the zero TIMESTAMP: 0 seconds
            return b"0" + _frac(0, meta.fsp)
        delta = value - datetime.datetime(1970, 1, 1, tzinfo=UTC)
        return b"%d" % (delta.days * 86400 + delta.seconds) + _frac(delta.microseconds, meta.fsp)
    if t == T.TIME2:
        sign = b"-" if value < datetime.timedelta(0) else b""
        total = abs(value)
        secs = total.days * 86400 + total.seconds
        return (b"'" + sign + b"%02d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)
                + _frac(total.microseconds, meta.fsp) + b"'")
    if t == T.BIT:
        nbits = (meta.metadata >> 8) * 8 + (meta.metadata & 0xFF)
        return b"b'" + format(value, f"0{nbits}b").encode() + b"'"
    if t == T.ENUM:
        index = value if isinstance(value, int) else (meta.names.index(value) + 1 if value else 0)
        return b"%d" % index
    if t == T.SET:
        if isinstance(value, str):
            members = value.split(",") if value else []
            value = sum(1 << meta.names.index(m) for m in members)
        # my_b_write_bit over the stored bytes: the mask is little-endian, each byte printed MSB first
        raw = value.to_bytes(meta.length, "little")
        return b"b'" + "".join(format(c, "08b") for c in raw).encode() + b"'"
    if t == T.GEOMETRY:
        assert isinstance(value, Geometry)
        return quoted(value.srid.to_bytes(4, "little") + value.wkb)
    if t in (T.VARCHAR_COMPRESSED, T.BLOB_COMPRESSED) or meta.pad_bytes:
        return None
    return quoted(text_bytes(value, meta))


def compare_value(value, meta, printed: bytes) -> None:
    want = render_like_mariadb_binlog(value, meta)
    if want is not None:
        if meta.type == T.FLOAT:           # mariadb-binlog's %g keeps 6 significant digits
            assert want.rstrip() == printed.rstrip(), (value, printed)
        else:
            assert want == printed, (value, printed[:200])
    elif meta.type in (T.VARCHAR_COMPRESSED, T.BLOB_COMPRESSED):
        # mariadb-binlog prints the stored (compressed) form; we give the original value
        assert text_bytes(value, meta) == mariadb_uncompress(unquote(printed))
    else:
        # BINARY(N): the row image (and so mariadb-binlog) drops trailing 0x00; we restore them
        raw = unquote(printed)
        assert len(value) == meta.pad_bytes and value == raw + b"\0" * (meta.pad_bytes - len(raw))


def our_changes(path) -> list:
    """[(kind, 'db.table', before, after, plan)] in file order, through RowsEvent.rows()."""
    out = []
    for ev in BinlogReader(path, options=OPTIONS):
        if isinstance(ev, RowsEvent):
            plan = ev.plan()
            for r in ev.rows():
                if ev.kind == "update":
                    out.append(("update", ev.table, r[0], r[1], plan))
                elif ev.kind == "write":
                    out.append(("write", ev.table, None, r, plan))
                else:
                    out.append(("delete", ev.table, r, None, plan))
    return out


def test_rows_equal_mariadb_binlog_vv(lab, twin):
    """Every value of every row image in the workload's binlogs, except the legacy_temporal file
    (pre-10.1 temporal columns have no TABLE_MAP metadata; mariadb-binlog cannot print them and stops,
    ARCHITECTURE.md "Binlog facts"; the replay below covers them)."""
    n_rows = n_values = 0
    per_type: dict = {}
    for path in lab.paths:
        if path.name == legacy_file(lab):
            continue
        theirs = mariadb_binlog_changes(path)
        ours = our_changes(path)
        assert len(ours) == len(theirs), path.name
        for (kind, table, before, after, plan), (tkind, ttable, tbefore, tafter) in zip(ours, theirs, strict=True):
            assert (kind, table) == (tkind, ttable)
            for image, printed in ((before, tbefore), (after, tafter)):
                if image is None:
                    assert printed is None
                    continue
                present = [i for i, v in enumerate(image) if v is not rows_mod.ABSENT]
                assert [i + 1 for i in present] == sorted(printed)
                for i in present:
                    meta = plan.columns[i]
                    try:
                        compare_value(image[i], meta, printed[i + 1])
                    except AssertionError as e:
                        raise AssertionError(f"{path.name} {table} {kind} column @{i + 1} "
                                             f"({T(meta.type).name}): {e}") from None
                    per_type[T(meta.type).name] = per_type.get(T(meta.type).name, 0) + 1
                    n_values += 1
                n_rows += 1
    print(f"\n[{lab.row_metadata}/{twin.IMPLEMENTATION}] mariadb-binlog -vv: {n_rows} row images, "
          f"{n_values} values equal; per type {dict(sorted(per_type.items()))}")
    # every column type the workload writes was compared
    assert {"TINY", "SHORT", "INT24", "LONG", "LONGLONG", "NEWDECIMAL", "FLOAT", "DOUBLE", "DATE", "TIME2",
            "DATETIME2", "TIMESTAMP2", "YEAR", "BIT", "ENUM", "SET", "STRING", "VARCHAR", "BLOB", "GEOMETRY",
            "VARCHAR_COMPRESSED", "BLOB_COMPRESSED"} <= set(per_type)   # MariaDB logs every BLOB/TEXT as BLOB
    assert n_rows > 2000 and n_values > 10000


# --------------------------------------------------------------------------------------- replay


class Replayer:
    """Applies a binlog to a server the way a replica's SQL thread would, but from our decoded
    values: Query events' DDL run as logged (in their default database); row events become
    INSERT / UPDATE / DELETE by primary key (all columns where a table has none), grouped per
    transaction (MariaDB GTID event .. XID / COMMIT), XA branches held from XA_PREPARE until their
    XA COMMIT (applied) or XA ROLLBACK (dropped). Binary logging is off in the replaying session.

    With binlog_row_metadata=MINIMAL, plans are built from the schema in force (this server's
    information_schema, which the replayed DDL keeps in step with the binlog): charsets, signedness,
    fsp. With FULL, from the TABLE_MAP alone, and its column names are checked against the schema;
    pre-10.1 temporal columns take their fsp from the schema either way (the TABLE_MAP has none)."""

    LEGACY_TEMPORAL = (T.TIME, T.DATETIME, T.TIMESTAMP)

    def __init__(self, conn, lab_workload, full: bool):
        self.conn = conn
        self.cur = conn.cursor()
        self.wl = lab_workload
        self.full = full
        self.schemas: dict = {}
        self.pending: list = []
        self.xa: dict = {}
        self.n_rows = self.n_ddl = self.n_maps_checked = 0

    def run(self, paths) -> None:
        self.cur.execute("SET SESSION sql_log_bin = 0")
        self.cur.execute("SET SESSION time_zone = '+00:00'")
        self.cur.execute("SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION'")
        for ev in BinlogReader(paths, options=OPTIONS):
            name = ev.type_name
            if isinstance(ev, RowsEvent):
                self.pending.extend(self.changes(ev))
            elif isinstance(ev, QueryEvent):
                self.query(ev)
            elif name == "XID":
                self.commit()
            elif name == "XA_PREPARE":
                self.xa[bytes(ev.gtrid)] = self.pending
                self.pending = []
        assert not self.pending and not self.xa, "a transaction was left open"

    def query(self, ev) -> None:
        sql = ev.query
        head = sql.split(None, 1)[0].upper()
        if head == "BEGIN":
            assert not self.pending
        elif head == "COMMIT":
            self.commit()
        elif head == "ROLLBACK":
            self.pending = []
        elif head == "XA":
            m = re.match(r"XA (END|COMMIT|ROLLBACK) X'([0-9a-f]*)'", sql)
            assert m, sql
            if m.group(1) == "COMMIT":
                self.pending = self.xa.pop(bytes.fromhex(m.group(2)))
                self.commit()
            elif m.group(1) == "ROLLBACK":
                del self.xa[bytes.fromhex(m.group(2))]
        else:   # DDL (also inside a CTAS transaction, before its rows)
            # CREATE/DROP DATABASE are logged with the database itself as the default one
            if ev.database and not re.match(r"(?i)(CREATE|DROP) (DATABASE|SCHEMA)\b", sql):
                self.cur.execute(f"USE `{ev.database}`")
            self.cur.execute(sql)
            self.schemas.clear()
            self.n_ddl += 1

    def commit(self) -> None:
        self.cur.execute("BEGIN")
        for sql in self.pending:
            self.cur.execute(sql)
        self.cur.execute("COMMIT")
        self.pending = []

    def schema(self, db: str, table: str) -> dict:
        key = (db, table)
        if key not in self.schemas:
            self.cur.execute("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_SET_NAME, COLUMN_TYPE, DATETIME_PRECISION,"
                             " IS_GENERATED, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = %s"
                             " AND TABLE_NAME = %s ORDER BY ORDINAL_POSITION", key)
            cols = [dict(zip(("name", "type", "charset", "ctype", "fsp", "gen", "key"), r, strict=True))
                    for r in self.cur.fetchall()]
            assert cols, f"{db}.{table} does not exist on the replaying server"
            self.schemas[key] = cols
        return self.schemas[key]

    def plan(self, ev, cols):
        tm = ev.table_map
        assert tm.column_count == len(cols), f"{tm.database}.{tm.table}: TABLE_MAP vs schema column count"
        legacy = any(t in self.LEGACY_TEMPORAL for t in tm.column_types)
        if self.full:
            assert tm.column_names == tuple(c["name"] for c in cols)
            self.n_maps_checked += 1
            # FULL metadata: the plan comes from the TABLE_MAP alone (signedness included: MariaDB's
            # bitmap also covers YEAR, see test_full_signedness_counts_year); only the pre-5.6
            # temporal types need the schema, for their fsp.
            if not legacy:
                return ev.plan()
            schema = [{"fsp": c["fsp"]} if t in self.LEGACY_TEMPORAL else {}
                      for c, t in zip(cols, tm.column_types, strict=True)]
        else:
            schema = [{"unsigned": "unsigned" in c["ctype"],
                       "charset": c["charset"] or ("binary" if c["type"] not in ("enum", "set") else None),
                       "fsp": c["fsp"]} for c in cols]
        return rows_mod.build_plan(tm, OPTIONS, columns=schema)

    def changes(self, ev) -> list[str]:
        tm = ev.table_map
        cols = self.schema(tm.database, tm.table)
        plan = self.plan(ev, cols)
        decoded = rows_mod.decode_rows(plan, ev.body, ev.rows_start, ev.rows_end, ev.present1, ev.present2,
                                       base=ev.body_offset or 0)
        q = self.wl.quote_ident
        table = f"{q(tm.database)}.{q(tm.table)}"
        writable = [i for i, c in enumerate(cols) if c["gen"] == "NEVER"]
        key = [i for i, c in enumerate(cols) if c["key"] == "PRI"] or writable

        def lit(i, v):
            assert v is not rows_mod.ABSENT, "the server writes FULL row images"
            return sql_literal(v, cols[i], self.wl)

        def where(image):
            return " AND ".join(f"{q(cols[i]['name'])} <=> {lit(i, image[i])}" for i in key) + " LIMIT 1"

        out = []
        for r in decoded:
            self.n_rows += 1
            if ev.kind == "write":
                out.append(f"INSERT INTO {table} (" + ",".join(q(cols[i]["name"]) for i in writable) + ") VALUES ("
                           + ",".join(lit(i, r[i]) for i in writable) + ")")
            elif ev.kind == "delete":
                out.append(f"DELETE FROM {table} WHERE {where(r)}")
            else:
                before, after = r
                out.append(f"UPDATE {table} SET " + ",".join(f"{q(cols[i]['name'])} = {lit(i, after[i])}"
                                                            for i in writable) + f" WHERE {where(before)}")
        return out


def sql_literal(v, col, wl) -> str:
    """A decoded value as an SQL literal for its column (session time_zone +00:00)."""
    if isinstance(v, Geometry):
        return "X'" + (v.srid.to_bytes(4, "little") + v.wkb).hex() + "'"
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
        return wl.literal(v)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(UTC).replace(tzinfo=None)
        return f"'{v.year:04d}-{v.month:02d}-{v.day:02d} {v:%H:%M:%S}.{v.microsecond:06d}'"
    if isinstance(v, datetime.date):
        return f"'{v.isoformat()}'"
    if isinstance(v, datetime.timedelta):
        sign = "-" if v < datetime.timedelta(0) else ""
        v = abs(v)
        secs = v.days * 86400 + v.seconds
        return f"'{sign}{secs // 3600}:{secs // 60 % 60:02d}:{secs % 60:02d}.{v.microseconds:06d}'"
    raise AssertionError(f"no SQL literal for {type(v).__name__} in column {col['name']}")


def test_replay_equals_server_contents(lab, twin):
    wl = lab.workload
    truth = lab.truth
    conn = lab.server.connect()
    try:
        with conn.cursor() as cur:
            cur.execute("SET SESSION sql_log_bin = 0")
            cur.execute("DROP DATABASE IF EXISTS lab")
            cur.execute("DROP DATABASE IF EXISTS lab_tmp")
        rep = Replayer(conn, wl, full=lab.row_metadata == "FULL")
        rep.run(truth.paths)
    finally:
        conn.close()
    tconn = wl.text_connection(lab.server)
    try:
        replayed = wl.dump_tables(tconn, ["lab", "lab_tmp"])
    finally:
        tconn.close()
    assert sorted(replayed) == sorted(truth.tables)
    n_rows = n_values = 0
    for name, want in truth.tables.items():
        got = replayed[name]
        # the replayed CREATE makes today's temporal format; the original legacy_temporal columns
        # say "time /* mariadb-5.3 */" (created under mysql56_temporal_format=OFF)
        assert got.columns == [dict(c, column_type=c["column_type"].replace(" /* mariadb-5.3 */", ""))
                               for c in want.columns], name
        assert len(got.rows) == len(want.rows), name
        for i, (g, w) in enumerate(zip(got.rows, want.rows, strict=True)):
            if g != w:
                diff = {c: (a, b) for c, a, b in zip(want.column_names, g, w, strict=True) if a != b}
                raise AssertionError(f"{name} row {i}: replayed != server {str(diff)[:500]}")
            n_values += len(w)
        n_rows += len(want.rows)
    print(f"\n[{lab.row_metadata}/{twin.IMPLEMENTATION}] replay: {rep.n_rows} row changes and {rep.n_ddl} DDL"
          f" applied; {len(truth.tables)} tables, {n_rows} rows, {n_values} values equal")
    assert rep.n_rows > 2000 and n_rows > 500
    assert rep.n_maps_checked > 0 or lab.row_metadata == "MINIMAL"


def test_full_signedness_counts_year(lab_full):
    """binlog_row_metadata=FULL: the all_types TABLE_MAP's signedness must mark exactly the UNSIGNED
    columns of the schema (c_bool TINYINT signed, c_izf INT ZEROFILL unsigned follow c_year).

    MariaDB gives YEAR a SIGNEDNESS bit too (sql/log_event_server.cc Table_map_log_event::
    init_signedness_field counts every column whose Binlog_type_info::m_signedness is not
    SIGN_NOT_APPLICABLE; Field_year is a Field_tiny, sql/field.h); reading the bitmap with MySQL's
    column set shifts every flag after a YEAR onto its neighbour."""
    truth = lab_full.truth.tables["lab.all_types"]
    want = {c["name"]: "unsigned" in c["column_type"] for c in truth.columns}
    for path in lab_full.paths:
        for ev in BinlogReader(path, options=OPTIONS):
            if isinstance(ev, RowsEvent) and ev.table == "lab.all_types":
                plan = ev.plan()
                numeric = {n: m.unsigned for n, m in zip(ev.table_map.column_names, plan.columns, strict=True)
                           if m.type in (T.TINY, T.SHORT, T.INT24, T.LONG, T.LONGLONG)}
                assert numeric == {n: want[n] for n in numeric}
                return
    raise AssertionError("no all_types rows event")


# ------------------------------------------------------------------------------- the workload itself


def test_workload_is_deterministic(lab_minimal, lab_full):
    """Two servers, one seed: the same DDL, the same final contents of every table (event positions,
    table ids and GTIDs may differ; values may not)."""
    a, b = lab_minimal.truth, lab_full.truth
    assert [r["sql"] for r in a.ddl_log] == [r["sql"] for r in b.ddl_log]
    assert sorted(a.tables) == sorted(b.tables)
    for name, t in a.tables.items():
        assert t.rows == b.tables[name].rows, name
        assert t.create == b.tables[name].create, name
    assert a.expected_row_changes == b.expected_row_changes
    assert a.variables["binlog_row_metadata"] == "MINIMAL" and b.variables["binlog_row_metadata"] == "FULL"


def test_workload_cli_writes_truth(mariadb_server, tmp_path):
    """``python tools/workload.py --socket ...`` on its own databases: exit 0, the truth on disk, and
    the dumped contents equal what the server holds."""
    import json
    import sys
    from pathlib import Path

    tool = Path(__file__).resolve().parents[2] / "tools" / "workload.py"
    out = tmp_path / "truth"
    proc = subprocess.run([sys.executable, str(tool), "--socket", mariadb_server.socket, "--scale", "0.0001",
                           "--phases", "bd", "--bigtx-rows", "50", "--database", "cli_lab", "--tmp-database",
                           "cli_lab_tmp", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["files"] == summary["files"] and manifest["files"]
    assert all((Path(manifest["binlog_dir"]) / f).is_file() for f in manifest["files"])
    ddl = [json.loads(line) for line in (out / "ddl_log.jsonl").read_text().splitlines()]
    assert ddl[1]["sql"].startswith("CREATE TABLE evo ") and all(r["binlog_pos_after"] > 4 for r in ddl)
    for name, n in summary["tables"].items():
        schema, table = name.split(".")
        assert mariadb_server.query(f"SELECT COUNT(*) FROM `{schema}`.`{table}`")[0][0] == n
        lines = (out / "tables" / f"{name}.jsonl").read_text().splitlines()
        assert len(lines) == n + 1 and json.loads(lines[0])["table"] == name
    assert summary["tables"]["cli_lab.bigtx"] == 40     # 50 rows, every fifth deleted
    mariadb_server.execute("DROP DATABASE cli_lab")
