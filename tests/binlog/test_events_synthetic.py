"""Event layouts that no shared fixture contains, built byte by byte from the server's layout
(each test names the source symbol). These are constructed bytes, not server output: they pin
our reading of the layout, and the shared real files pin it against servers."""

from __future__ import annotations

import struct
import zlib

import pytest
import zstandard

from mysqlddl.binlog.events import DEFAULT_REGISTRY, EventType, IgnoredEvent, OpaqueEvent, XidEvent
from mysqlddl.binlog.events._cursor import Cursor
from mysqlddl.errors import CorruptEventError, EncryptedBinlogError, TruncatedError, UnsupportedError
from mysqlddl.options import Options

T = EventType


def test_query_every_status_variable(bl, build_binlog):
    # Q_* codes of statement_events.h plus MariaDB's 128-131, in increasing order as servers write
    status = (b"\x00" + struct.pack("<I", 0x4000)                       # Q_FLAGS2_CODE
              + b"\x01" + struct.pack("<Q", 0x20000000)                 # Q_SQL_MODE_CODE
              + b"\x03" + struct.pack("<HH", 2, 5)                      # Q_AUTO_INCREMENT
              + b"\x04" + struct.pack("<HHH", 33, 33, 8)                # Q_CHARSET_CODE
              + b"\x05\x06+02:00"                                       # Q_TIME_ZONE_CODE
              + b"\x06\x03std"                                          # Q_CATALOG_NZ_CODE
              + b"\x07" + struct.pack("<H", 3)                          # Q_LC_TIME_NAMES_CODE
              + b"\x08" + struct.pack("<H", 45)                         # Q_CHARSET_DATABASE_CODE
              + b"\x09" + struct.pack("<Q", 5)                          # Q_TABLE_MAP_FOR_UPDATE_CODE
              + b"\x0a" + struct.pack("<I", 99)                         # Q_MASTER_DATA_WRITTEN_CODE
              + b"\x0b\x04root\x09localhost"                            # Q_INVOKER
              + b"\x0c\x02db1\x00db2\x00"                               # Q_UPDATED_DB_NAMES
              + b"\x0d" + (123456).to_bytes(3, "little")                # Q_MICROSECONDS
              + b"\x10\x01"                                             # Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP
              + b"\x11" + struct.pack("<Q", 77)                         # Q_DDL_LOGGED_WITH_XID
              + b"\x12" + struct.pack("<H", 255)                        # Q_DEFAULT_COLLATION_FOR_UTF8MB4
              + b"\x13\x02"                                             # Q_SQL_REQUIRE_PRIMARY_KEY
              + b"\x14\x01"                                             # Q_DEFAULT_TABLE_ENCRYPTION
              + b"\x15\x01"                                             # Q_ENABLE_CASCADE_TRIGGERS
              + b"\x80" + (654321).to_bytes(3, "little")                # Q_HRNOW (MariaDB)
              + b"\x81" + struct.pack("<Q", 42)                         # Q_XID (MariaDB)
              + b"\x82\x05"                                             # Q_GTID_FLAGS3 (MariaDB)
              + b"\x83\x01" + struct.pack("<HH", 33, 192)               # Q_CHARACTER_SET_COLLATIONS
              + b"\xc8\xde\xad")                                        # unknown code: parse stops
    (q,) = build_binlog(bl.Builder().event(T.QUERY, bl.query_body(status, query=b"CREATE TABLE t (a INT)")))
    s = q.status
    assert (s.flags2, s.sql_mode) == (0x4000, 0x20000000)
    assert (s.auto_increment_increment, s.auto_increment_offset) == (2, 5)
    assert (s.charset_client, s.collation_connection, s.collation_server) == (33, 33, 8)
    assert (s.time_zone, s.catalog, s.lc_time_names, s.charset_database) == ("+02:00", "std", 3, 45)
    assert (s.table_map_for_update, s.master_data_written) == (5, 99)
    assert (s.invoker_user, s.invoker_host) == ("root", "localhost")
    assert s.updated_db_names == ("db1", "db2")
    assert (s.microseconds, s.explicit_defaults_ts, s.ddl_xid) == (123456, True, 77)
    assert (s.default_collation_for_utf8mb4, s.sql_require_primary_key, s.default_table_encryption) == (255, 2, 1)
    assert s.enable_cascade_triggers == 1
    assert (s.hrnow, s.xid, s.gtid_flags3, s.character_set_collations) == (654321, 42, 5, ((33, 192),))
    assert (s.unparsed_code, s.unparsed) == (0xC8, b"\xde\xad")
    assert (q.database, q.query, q.thread_id, q.exec_time) == ("db", "CREATE TABLE t (a INT)", 7, 1)


def test_query_old_catalog_and_over_max_db_names(bl, build_binlog):
    # Q_CATALOG_CODE (5.0.0-5.0.3) is NUL-terminated; Q_UPDATED_DB_NAMES > 16 is OVER_MAX (254)
    status = b"\x02\x03std\x00" + b"\x0c\xfe"
    (q,) = build_binlog(bl.Builder().event(T.QUERY, bl.query_body(status)))
    assert q.status.catalog == "std" and q.status.updated_db_names == "OVER_MAX"


def test_query_latin1_is_cp1252(bl, build_binlog):
    status = b"\x04" + struct.pack("<HHH", 8, 8, 8)       # client charset latin1_swedish_ci
    (q,) = build_binlog(bl.Builder().event(T.QUERY, bl.query_body(status, query=b"SELECT '\x80'")))
    assert q.query == "SELECT '\u20ac'"


@pytest.mark.parametrize("status,where", [
    (b"\x00\x01\x02", "Q_FLAGS2_CODE"),                   # needs 4 bytes
    (b"\x05\x09+02", "Q_TIME_ZONE_CODE"),                 # length runs past the block
    (b"\x0c\x02db1\x00db2", "Q_UPDATED_DB_NAMES"),        # missing NUL
])
def test_query_status_block_damage_is_positioned(bl, build_binlog, status, where):
    with pytest.raises(TruncatedError) as ei:
        build_binlog(bl.Builder().event(T.QUERY, bl.query_body(status)))
    assert where in str(ei.value) and ei.value.event_type == "QUERY" and ei.value.offset > 100


def test_mariadb_compressed_query(bl, build_binlog):
    # QUERY_COMPRESSED_EVENT: header byte 0x80|lenlen, big-endian length, zlib (binlog_buf_compress)
    text = b"INSERT INTO t VALUES " + b"(1)," * 50 + b"(2)"
    comp = bytes([0x82]) + len(text).to_bytes(2, "big") + zlib.compress(text)
    (q,) = build_binlog(bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL).event(
        T.MARIADB_QUERY_COMPRESSED, bl.query_body(b"", query=comp)))
    assert q.compressed and q.query == text.decode()
    bad = bytes([0x82]) + (len(text) + 1).to_bytes(2, "big") + zlib.compress(text)
    with pytest.raises(CorruptEventError, match="announced"):
        build_binlog(bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL).event(
            T.MARIADB_QUERY_COMPRESSED, bl.query_body(b"", query=bad)))
    huge = bytes([0x84]) + (1 << 31).to_bytes(4, "big") + zlib.compress(text)
    with pytest.raises(CorruptEventError, match="limit"):
        build_binlog(bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL).event(
            T.MARIADB_QUERY_COMPRESSED, bl.query_body(b"", query=huge)))


def test_user_var_kinds(bl, build_binlog):
    # User_var_event: name_len(4) name is_null(1) [type(1) charset(4) len(4) value flags(1)]
    def uv(name, rest):
        return struct.pack("<I", len(name)) + name + rest
    b = bl.Builder()
    b.event(T.USER_VAR, uv(b"n", b"\x01"))
    b.event(T.USER_VAR, uv(b"r", b"\x00\x01" + struct.pack("<II", 33, 8) + struct.pack("<d", 2.5)))
    b.event(T.USER_VAR, uv(b"u", b"\x00\x02" + struct.pack("<II", 33, 8) + b"\xff" * 8 + b"\x01"))
    b.event(T.USER_VAR, uv(b"s", b"\x00\x02" + struct.pack("<II", 33, 8) + b"\xff" * 8 + b"\x00"))
    b.event(T.USER_VAR, uv(b"b", b"\x00\x00" + struct.pack("<II", 63, 2) + b"\x00\xff"))
    n, r, u, s, bb = build_binlog(b)
    assert n.is_null and n.value is None
    assert r.value == 2.5
    assert u.value == 2**64 - 1 and s.value == -1
    assert bb.value == b"\x00\xff"


def test_small_control_events(bl, build_binlog):
    b = bl.Builder()
    b.event(T.INCIDENT, struct.pack("<H", 1) + b"\x05lost!")                  # Incident_event
    b.event(T.HEARTBEAT, b"binlog.000007")                                     # Heartbeat_event
    # Heartbeat_event_v2 (codecs/binary.cpp): TLVs 1 filename, 2 position, 0 end
    pos = bl.lenenc(70000)
    b.event(T.HEARTBEAT_V2, b"\x01" + bl.lenenc(13) + b"binlog.000007" + b"\x02" + bl.lenenc(len(pos)) + pos + b"\x00")
    b.event(T.XA_PREPARE, b"\x00" + struct.pack("<III", 1, 3, 2) + b"abcxy")  # XA_prepare_event
    b.event(T.ROTATE, struct.pack("<Q", 4) + b"binlog.000008")
    b.event(T.STOP, b"")
    inc, hb, hb2, xa, rot, stop = build_binlog(b)
    assert (inc.incident, inc.message) == (1, "lost!")
    assert hb.log_file == "binlog.000007"
    assert (hb2.log_file, hb2.log_position) == ("binlog.000007", 70000)
    assert (xa.one_phase, xa.format_id, xa.gtrid, xa.bqual) == (False, 1, b"abc", b"xy")
    assert (rot.position, rot.next_file) == (4, "binlog.000008")
    assert stop.type_name == "STOP"


def tlv(bl, t, value: bytes) -> bytes:
    return bytes([t]) + bl.lenenc(len(value)) + value


def test_table_map_every_optional_metadata_kind(bl, build_binlog):
    # Columns: INT, ENUM (as STRING f7 01), SET (as STRING f8 01), VARCHAR(10) utf8mb4 (meta 40),
    # GEOMETRY (meta 4), VECTOR (242, meta 4), TEXT (BLOB meta 2). Metadata per column type
    # (rows.parse_column_metadata): STRING/ENUM/SET 2 bytes big-endian, VARCHAR 2 little-endian,
    # GEOMETRY/VECTOR/BLOB 1.
    types = [3, 254, 254, 15, 255, 242, 252]
    meta = b"\xf7\x01" + b"\xf8\x01" + b"\x28\x00" + b"\x04" + b"\x04" + b"\x02"
    L = bl.lenenc
    opt = (tlv(bl, 1, b"\x80")                                             # SIGNEDNESS: INT unsigned
           + tlv(bl, 2, L(255) + L(1) + L(63))                             # DEFAULT_CHARSET + exception
           + tlv(bl, 3, L(255) + L(63))                                    # COLUMN_CHARSET
           + tlv(bl, 4, b"".join(L(len(x)) + x for x in (b"id", b"e", b"s", b"v", b"g", b"vec", b"txt")))
           + tlv(bl, 5, L(2) + L(1) + b"a" + L(1) + b"b")                  # SET_STR_VALUE
           + tlv(bl, 6, L(3) + L(1) + b"x" + L(1) + b"y" + L(1) + b"z")    # ENUM_STR_VALUE
           + tlv(bl, 7, L(1))                                              # GEOMETRY_TYPE: POINT
           + tlv(bl, 8, L(0))                                              # SIMPLE_PRIMARY_KEY
           + tlv(bl, 10, L(8))                                             # ENUM_AND_SET_DEFAULT_CHARSET
           + tlv(bl, 11, L(8) + L(33))                                     # ENUM_AND_SET_COLUMN_CHARSET
           + tlv(bl, 12, b"\xfc")                                          # COLUMN_VISIBILITY: 7th hidden
           + tlv(bl, 13, L(4))                                             # VECTOR_DIMENSIONALITY
           + tlv(bl, 99, b"future"))                                       # a type newer than us
    (tm,) = build_binlog(bl.Builder().event(T.TABLE_MAP, bl.table_map(ncols_types=types, meta=meta,
                                                                     null=b"\x7e", optional=opt)))
    assert tm.column_types == tuple(types) and tm.column_metadata_raw == meta
    assert tm.column_metadata is not None and len(tm.column_metadata) == 7
    assert tm.signedness == (True,)
    assert tm.default_charset == (255, ((1, 63),))
    assert tm.column_charsets == (255, 63) and tm.charsets == (255, 63)
    assert tm.column_names == ("id", "e", "s", "v", "g", "vec", "txt")
    assert tm.set_values == ((b"a", b"b"),) and tm.enum_values == ((b"x", b"y", b"z"),)
    assert tm.geometry_types == (1,) and tm.primary_key == ((0, 0),)
    assert tm.enum_set_default_charset == (8, ()) and tm.enum_set_column_charsets == (8, 33)
    assert tm.visibility == (True,) * 6 + (False,)
    assert tm.vector_dims == (4,)
    assert tm.unknown_metadata == ((99, b"future"),)
    assert [tm.nullable(i) for i in range(7)] == [False] + [True] * 6 + []


def test_table_map_primary_key_with_prefix_and_default_charset_expansion(bl, build_binlog):
    types = [15, 15, 3]
    meta = b"\x28\x00\x28\x00"
    L = bl.lenenc
    opt = tlv(bl, 2, L(45) + L(1) + L(63)) + tlv(bl, 9, L(0) + L(0) + L(1) + L(10))
    (tm,) = build_binlog(bl.Builder().event(T.TABLE_MAP, bl.table_map(ncols_types=types, meta=meta,
                                                                     optional=opt)))
    assert tm.primary_key == ((0, 0), (1, 10))
    assert tm.column_charsets is None and tm.charsets == (45, 63)


def test_table_map_damaged_optional_metadata(bl, build_binlog):
    opt = tlv(bl, 1, b"\x80\x00")      # 2 signedness bytes for one numeric column
    with pytest.raises(CorruptEventError, match="SIGNEDNESS") as ei:
        build_binlog(bl.Builder().event(T.TABLE_MAP, bl.table_map(ncols_types=[3], meta=b"", optional=opt)))
    assert ei.value.event_type == "TABLE_MAP"
    opt = b"\x04" + bl.lenenc(10) + b"\x02id"   # TLV longer than the event
    with pytest.raises(TruncatedError):
        build_binlog(bl.Builder().event(T.TABLE_MAP, bl.table_map(ncols_types=[3], meta=b"", optional=opt)))


def test_repeated_table_map_decoded_once_each_at_its_place(bl, build_binlog):
    """A server repeats the same TABLE_MAP before each transaction: decoded once (by its bytes),
    each event still its own, at its own position; damaged bytes are never taken for a cached map."""
    body = bl.table_map(ncols_types=[3, 15], meta=b"\x28\x00", null=b"\x02")
    b = bl.Builder()
    for _ in range(3):
        b.event(T.TABLE_MAP, body)
    first, second, third = build_binlog(b)
    assert first.pos < second.pos < third.pos and second.next_pos == third.pos
    for tm in (second, third):
        assert tm.column_types == first.column_types == (3, 15) and tm.column_metadata == first.column_metadata
        assert (tm.table_id, tm.database, tm.table, tm.null_bitmap) == \
            (first.table_id, first.database, first.table, first.null_bitmap)
    # the same map with one byte more: an optional-metadata TLV cut short, after the intact one
    with pytest.raises(TruncatedError, match="optional metadata length"):
        build_binlog(bl.Builder().event(T.TABLE_MAP, body).event(T.TABLE_MAP, body + b"\x01"))


def test_four_byte_table_id_of_early_5_1(bl, build_binlog):
    # post_header_len 6 for TABLE_MAP and rows events => 4-byte table_id (Table_map_event ctor)
    b = bl.Builder("5.1.2-alpha-log", bl.MYSQL80_PHL[:26])
    b.post_header[18] = 6
    b.post_header[22] = 6
    b.event(T.TABLE_MAP, bl.table_map(0x01020304, ncols_types=[3], meta=b"", id_width=4))
    b.event(T.WRITE_ROWS_V1, (0x01020304).to_bytes(4, "little") + b"\x01\x00" + b"\x01\xff"
            + b"\xfe" + struct.pack("<i", 5))
    tm, w = build_binlog(b)
    assert tm.table_id == w.table_id == 0x01020304
    assert w.present1 == b"\x01" and w.table_map is tm


def test_rows_v2_extra_data_masks_and_update_bitmaps(bl, build_binlog):
    tmb = bl.table_map(9, ncols_types=[3, 3, 3], meta=b"")
    # ROWS_V_EXTRAINFO_TAG: len 4 (counts len+format), format 0, 2 data bytes; then PART partition_id
    extra = b"\x00\x04\x00\xab\xcd" + b"\x01" + struct.pack("<HH", 3, 2)
    post = (9).to_bytes(6, "little") + b"\x01\x00" + struct.pack("<H", 2 + len(extra))
    row = b"\xf8" + struct.pack("<iii", 1, 2, 3)
    # after image: columns 0 and 2 present, its null bitmap counts present columns only
    upd = post + extra + b"\x03" + b"\xff" + b"\xfd" + row + b"\xfc" + struct.pack("<ii", 1, 3)
    # PARTIAL_UPDATE_ROWS after images start with binlog_row_value_options (0: no JSON diff)
    partial = post + extra + b"\x03" + b"\xff" + b"\xff" + row + b"\x00" + row
    b = bl.Builder().event(T.TABLE_MAP, tmb).event(T.UPDATE_ROWS, upd).event(T.PARTIAL_UPDATE_ROWS, partial)
    tm, u, p = build_binlog(b)
    assert u.kind == "update" and u.version == 2
    assert u.present1 == b"\x07" and u.present2 == b"\x05"      # padding bits masked off
    assert u.extra_info == (("ndb_info", 0, b"\xab\xcd"), ("partition", 3, 2))
    assert u.extra_data == extra and u.column_count == 3
    assert u.body[u.rows_start:u.rows_end] == row + b"\xfc" + struct.pack("<ii", 1, 3)
    assert u.body_offset == u.pos
    assert p.kind == "partial_update" and p.present2 == b"\x07"
    assert p.rows() == [((1, 2, 3), (1, 2, 3))]   # the value_options byte is read, not taken as a null bitmap
    rows = u.rows()
    assert len(rows) == 1 and rows[0][0] == (1, 2, 3)
    assert rows[0][1][0] == 1 and rows[0][1][2] == 3


def test_rows_without_table_map_fails_positioned(bl, build_binlog):
    w = (4).to_bytes(6, "little") + b"\x01\x00" + b"\x02\x00" + b"\x01\xff" + b"\xfe" + struct.pack("<i", 1)
    (ev,) = build_binlog(bl.Builder().event(T.WRITE_ROWS, w))
    assert ev.table_map is None
    with pytest.raises(CorruptEventError, match="no TABLE_MAP") as ei:
        ev.rows()
    assert ei.value.log_pos == ev.pos


def test_rows_extra_data_length_below_two(bl, build_binlog):
    w = (4).to_bytes(6, "little") + b"\x01\x00" + b"\x01\x00" + b"\x01\xff"
    with pytest.raises(CorruptEventError, match="extra data length 1"):
        build_binlog(bl.Builder().event(T.WRITE_ROWS, w))


def test_mariadb_compressed_rows(bl, build_binlog):
    # WRITE_ROWS_COMPRESSED_EVENT_V1: ncols and bitmap plain, the row images compressed
    # (row_log_event_uncompress)
    img = b"\xfe" + struct.pack("<i", 41) + b"\xfe" + struct.pack("<i", 42)
    b = bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL)
    b.event(T.TABLE_MAP, bl.table_map(3, ncols_types=[3], meta=b""))
    b.event(T.MARIADB_WRITE_ROWS_COMPRESSED_V1, (3).to_bytes(6, "little") + b"\x01\x00" + b"\x01\xff"
            + bytes([0x81, len(img)]) + zlib.compress(img))
    tm, w = build_binlog(b)
    assert w.compressed and w.body == img and w.body_offset is None
    assert w.rows() == [(41,), (42,)]


def _payload(bl, inner: bytes, ctype: int = 0, usize=None) -> bytes:
    data = zstandard.ZstdCompressor().compress(inner) if ctype == 0 else inner
    L = bl.lenenc
    fields = (L(1) + L(len(L(len(data)))) + L(len(data)) + L(2) + L(len(L(ctype))) + L(ctype))
    if usize is not None:
        fields += L(3) + L(len(L(usize))) + L(usize)
    return fields + b"\x00" + data


def _inner(type_code, body):
    size = 19 + len(body)
    return struct.pack("<IBIIIH", 1700000000, type_code, 1, size, 0, 0) + body


@pytest.mark.parametrize("ctype", [0, 255])
def test_transaction_payload_inner_events(bl, build_binlog, ctype):
    inner = (_inner(T.QUERY, bl.query_body(b"", query=b"BEGIN")) + _inner(T.XID, struct.pack("<Q", 9)))
    evs = build_binlog(bl.Builder().event(T.TRANSACTION_PAYLOAD, _payload(bl, inner, ctype, len(inner))))
    assert [e.type_name for e in evs] == ["TRANSACTION_PAYLOAD", "QUERY", "XID"]
    assert evs[2].xid == 9 and evs[2].payload_offset == len(inner) - 27
    assert evs[1].pos == evs[0].pos and evs[1].next_pos == evs[0].next_pos


def test_transaction_payload_limits_and_damage(bl, build_binlog):
    inner = _inner(T.XID, struct.pack("<Q", 9)) * 100
    with pytest.raises(CorruptEventError, match="limit"):
        build_binlog(bl.Builder().event(T.TRANSACTION_PAYLOAD, _payload(bl, inner, 0)),
                     options=Options(max_decompressed_size=1000))
    with pytest.raises(CorruptEventError, match="announced"):
        build_binlog(bl.Builder().event(T.TRANSACTION_PAYLOAD, _payload(bl, inner, 0, len(inner) + 1)))
    # an inner event that claims more bytes than the payload holds
    broken = inner[:-1]
    with pytest.raises(CorruptEventError, match="payload offset") as ei:
        build_binlog(bl.Builder().event(T.TRANSACTION_PAYLOAD, _payload(bl, broken, 255)))
    assert ei.value.event_type == "TRANSACTION_PAYLOAD"
    with pytest.raises(UnsupportedError, match="compression type 7"):
        build_binlog(bl.Builder().event(T.TRANSACTION_PAYLOAD, _payload(bl, inner, 7)))


# mysql::serialization varlen examples from libs/mysql/serialization/readme.md (bytes shown
# there big-endian; on the wire little-endian).
VARLEN = [
    ("fb ff 07", False, 65535),
    ("f3 ff 0f", True, 65535),
    ("eb ff 0f", True, -65535),
    ("fb ff 0f", True, -65536),
    ("00", False, 0),
    ("02", False, 1),
    ("ff ff ff ff ff ff ff ff ff", False, 2**64 - 1),
]


@pytest.mark.parametrize("hexs,signed,value", VARLEN)
def test_serialization_varlen(hexs, signed, value):
    raw = bytes.fromhex(hexs)
    c = Cursor(raw)
    assert (c.varlen_signed() if signed else c.varlen()) == value
    assert c.pos == len(raw)


def test_previous_gtids_untagged_and_tagged(bl, build_binlog):
    sid = bytes.fromhex("80549eccd2f211eab7900242ac130002")
    untagged = (struct.pack("<Q", 1) + sid + struct.pack("<Q", 2) + struct.pack("<qq", 1, 6)
                + struct.pack("<qq", 8, 9))
    tagged = (struct.pack("<Q", (1 << 56) | (1 << 8) | 1) + sid + bl.varlen(3) + b"tag"
              + struct.pack("<Q", 1) + struct.pack("<qq", 1, 2))
    a, b = build_binlog(bl.Builder().event(T.PREVIOUS_GTIDS, untagged).event(T.PREVIOUS_GTIDS, tagged))
    assert a.gtid_set == "80549ecc-d2f2-11ea-b790-0242ac130002:1-5:8"
    assert b.gtid_set == "80549ecc-d2f2-11ea-b790-0242ac130002:tag:1"
    with pytest.raises(CorruptEventError, match="announces 5 sids"):
        build_binlog(bl.Builder().event(T.PREVIOUS_GTIDS, struct.pack("<Q", 5) + sid))


def test_mariadb_gtid_variants_and_gtid_list(bl, build_binlog):
    b = bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL)
    b.event(T.MARIADB_GTID, struct.pack("<QIB", 10, 1, 0x02) + struct.pack("<Q", 77))       # commit id
    b.event(T.MARIADB_GTID, struct.pack("<QIB", 11, 1, 0x40) + struct.pack("<IBB", 1, 2, 1) + b"abc")  # XA
    b.event(T.MARIADB_GTID, struct.pack("<QIB", 12, 1, 0x01) + b"\x05" + b"\x02" + struct.pack("<Q", 9)
            + b"\x00")     # flags_extra MULTI_ENGINE|COMMIT_ALTER: engines, sa_seq_no
    b.event(T.MARIADB_GTID_LIST, struct.pack("<I", 2 | (1 << 28)) + struct.pack("<IIQ", 0, 1, 10)
            + struct.pack("<IIQ", 1, 2, 20))
    g1, g2, g3, gl = build_binlog(b)
    assert g1.commit_id == 77 and g1.gtid == "1-1-10"
    assert (g2.xa_format_id, g2.xa_gtrid, g2.xa_bqual) == (1, b"ab", b"c")
    assert (g3.flags_extra, g3.extra_engines, g3.sa_seq_no, g3.standalone) == (5, 2, 9, True)
    assert gl.gtids == ((0, 1, 10), (1, 2, 20)) and gl.flags == 1
    with pytest.raises(CorruptEventError, match="padding"):
        build_binlog(bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL).event(
            T.MARIADB_GTID, struct.pack("<QIB", 1, 1, 0) + b"\x00\x00\x00\x00\x00\x07"))


def test_start_encryption_says_keys_are_needed(bl, build_binlog):
    b = bl.Builder("10.11.6-MariaDB", bl.MARIADB_PHL).event(T.MARIADB_START_ENCRYPTION,
                                                             b"\x01" + struct.pack("<I", 1) + bytes(12))
    with pytest.raises(EncryptedBinlogError, match="encryption keys") as ei:
        build_binlog(b)
    assert ei.value.event_type == "MARIADB_START_ENCRYPTION" and ei.value.log_pos is not None


def test_unknown_events_opaque_or_skipped(bl, build_binlog):
    b = bl.Builder().event(150, b"\x01\x02\x03").event(151, b"\x09" * 5, flags=0x80)
    op, ig = build_binlog(b)
    assert isinstance(op, OpaqueEvent) and op.body == b"\x01\x02\x03" and op.type_name == "TYPE_150"
    assert isinstance(ig, IgnoredEvent) and ig.size == 19 + 5 + 4


def test_registry_override_and_opaque_default(bl, build_binlog):
    reg = DEFAULT_REGISTRY.copy()

    def my_xid(header, cur, ctx):
        return XidEvent(**ctx.base(header), xid=-cur.u64())

    reg.register(T.XID, my_xid)
    reg.unregister(T.QUERY)
    b = bl.Builder().event(T.XID, struct.pack("<Q", 3)).event(T.QUERY, bl.query_body(b""))
    x, q = build_binlog(b, registry=reg)
    assert x.xid == -3
    assert isinstance(q, OpaqueEvent) and q.body.endswith(b"SELECT 1")
    assert T.QUERY in DEFAULT_REGISTRY     # the shared default is untouched


def test_leftover_bytes_are_an_error(bl, build_binlog):
    with pytest.raises(CorruptEventError, match="1 unexpected bytes") as ei:
        build_binlog(bl.Builder().event(T.XID, struct.pack("<Q", 3) + b"\x00"))
    assert ei.value.event_type == "XID"

    def lazy(header, cur, ctx):
        return XidEvent(**ctx.base(header), xid=cur.u32())
    reg = DEFAULT_REGISTRY.copy()
    reg.register(T.XID, lazy)
    with pytest.raises(CorruptEventError, match="not consumed"):
        build_binlog(bl.Builder().event(T.XID, struct.pack("<Q", 3)), registry=reg)


def test_decoder_bugs_surface_as_typed_errors(bl, build_binlog):
    def boom(header, cur, ctx):
        return {}["missing"]
    reg = DEFAULT_REGISTRY.copy()
    reg.register(T.XID, boom)
    with pytest.raises(CorruptEventError, match="KeyError") as ei:
        build_binlog(bl.Builder().event(T.XID, struct.pack("<Q", 3)), registry=reg)
    assert ei.value.__cause__ is not None and ei.value.log_pos is not None


def test_impossible_event_size(bl, tmp_path):
    from mysqlddl.binlog.reader import BinlogReader
    raw = bytearray(bl.Builder().event(T.XID, struct.pack("<Q", 3)).build())
    fde_end = 4 + int.from_bytes(raw[4 + 9:4 + 13], "little")
    raw[fde_end + 9:fde_end + 13] = (5).to_bytes(4, "little")
    p = tmp_path / "s.bin"
    p.write_bytes(bytes(raw))
    with pytest.raises(CorruptEventError, match="event size 5 is impossible") as ei:
        list(BinlogReader(p))
    assert ei.value.log_pos == fde_end and ei.value.offset == fde_end + 9


def test_binlog_v1_and_v3_start_events(tmp_path):
    from mysqlddl.binlog.reader import BinlogReader
    # START_EVENT_V3: binlog_version(2) server_version(50) created(4); v1 header is 13 bytes
    # (OLD_HEADER_LEN: no log_pos, no flags); v3 has the 19-byte header and QUERY post-header 11.
    for version, hlen in ((1, 13), (3, 19)):
        body = struct.pack("<H", version) + b"3.23.58-log".ljust(50, b"\0") + struct.pack("<I", 1000)
        q = struct.pack("<IIBH", 1, 0, 2, 0) + b"db\0" + b"DROP TABLE x"
        def ev(t, b, pos, hlen=hlen):
            size = hlen + len(b)
            if hlen == 13:
                return struct.pack("<IBII", 1000, t, 1, size) + b
            return struct.pack("<IBIIIH", 1000, t, 1, size, pos + size, 0) + b
        data = b"\xfebin" + ev(1, body, 4)
        data += ev(2, q, len(data))
        p = tmp_path / f"v{version}.001"
        p.write_bytes(data)
        r = BinlogReader(p)
        start, query = list(r)
        assert start.binlog_version == version and start.common_header_len == hlen
        assert start.created_at == 1000
        assert query.query == "DROP TABLE x" and query.database == "db" and query.status.flags2 is None
        assert r.position.pos == len(data)


def test_fde_with_unknown_checksum_algorithm(bl, tmp_path):
    from mysqlddl.binlog.reader import BinlogReader
    b = bl.Builder(crc=False)
    raw = bytearray(b.build())
    fde_size = int.from_bytes(raw[4 + 9:4 + 13], "little")
    raw[4 + fde_size - 5] = 7                   # the algorithm byte
    p = tmp_path / "a.bin"
    p.write_bytes(bytes(raw))
    with pytest.raises(CorruptEventError, match="checksum algorithm 7"):
        list(BinlogReader(p))
