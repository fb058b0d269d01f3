"""Every event's post-header length comes from the FDE in force (issue #23).

The FDE's ``post_header_len`` table (control_events.h ``Format_description_event``) is the
contract that lets a reader skip fields a newer server added: a decoder reads the fixed fields it
knows from the start of the post-header and continues at the declared end. Old and pre-GA servers
declared other lengths (QUERY 11 in v1/v3, a 6-byte TABLE_MAP/rows post-header with a 4-byte
table_id, GTID 25 in 5.6). For each decoded type with a post-header we build the event twice: once
as servers write it, once with the FDE declaring 3 more bytes and 3 junk bytes laid in after the
known fields, and check both decode the same; a declared length below the fixed fields is a
positioned CorruptEventError.

Post-header layouts (binlog_event.h ``*_HEADER_LEN``, statement_events.h, rows_event.h,
control_events.h, load_data_events.h; MariaDB sql/log_event.h): QUERY 13 = thread_id(4)
exec_time(4) db_len(1) error_code(2) status_vars_len(2); EXECUTE_LOAD_QUERY 26 = QUERY's 13 +
file_id(4) start(4) end(4) dup(1); BEGIN_LOAD_QUERY 4 = file_id; ROTATE 8 = position; TABLE_MAP
and rows v1 8 = table_id(6) flags(2); rows v2 10 = + var_header_len(2); INCIDENT 2 = incident
number; GTID/ANONYMOUS_GTID 42 = flags(1) sid(16) gno(8) lt_type(1) last_committed(8)
sequence_number(8); MariaDB BINLOG_CHECKPOINT 4 = name length, GTID_LIST 4 = count; every other
decoded type has an empty post-header (0).
"""

from __future__ import annotations

import struct
import zlib

import pytest

from mysqlddl.binlog.events import EventType
from mysqlddl.errors import CorruptEventError

T = EventType
JUNK = b"\xa5\x5a\xff"
MARIADB = "10.11.6-MariaDB"
SID = bytes.fromhex("80549eccd2f211eab7900242ac130002")
INT5, INT6 = b"\xfe" + struct.pack("<i", 5), b"\xfe" + struct.pack("<i", 6)
ROWS_ID = (9).to_bytes(6, "little") + b"\x01\x00"                   # table_id 9, STMT_END_F
IMG = INT5 + INT6


def _tm(bl):
    return (T.TABLE_MAP, bl.table_map(9, ncols_types=[3], meta=b""))


def _cases(bl):
    """name -> (dialect, type, post-header bytes, body bytes, events before it, minimum)."""
    qb = bl.query_body(b"\x00" + struct.pack("<I", 0x4000), query=b"INSERT INTO t VALUES (1)")
    lq = bl.query_body(b"", query=b"LOAD DATA INFILE 'x' INTO TABLE t",
                       extra_post=struct.pack("<IIIB", 3, 10, 13, 0))
    comp_text = b"SELECT " + b"1," * 40 + b"2"
    cq = bl.query_body(b"", query=bytes([0x81, len(comp_text)]) + zlib.compress(comp_text))
    tm = bl.table_map(9, ncols_types=[3], meta=b"")
    gtid_post = b"\x01" + SID + struct.pack("<q", 7) + b"\x02" + struct.pack("<qq", 3, 4)
    # immediate_commit_timestamp(7, bit 55 clear), transaction_length (packed), server version(4)
    gtid_body = (1700000000000000).to_bytes(7, "little") + bl.lenenc(300) + struct.pack("<I", 80029)
    anon_post = b"\x00" + bytes(16) + struct.pack("<q", 0) + b"\x02" + struct.pack("<qq", 3, 4)
    v2 = ROWS_ID + b"\x02\x00"
    one, upd = b"\x01\xff", b"\x01\xff\xff"
    return {
        "QUERY": ("mysql", T.QUERY, qb[:13], qb[13:], [], 11),
        "EXECUTE_LOAD_QUERY": ("mysql", T.EXECUTE_LOAD_QUERY, lq[:26], lq[26:], [], 26),
        "BEGIN_LOAD_QUERY": ("mysql", T.BEGIN_LOAD_QUERY, struct.pack("<I", 3), b"1,2\n", [], 4),
        "ROTATE": ("mysql", T.ROTATE, struct.pack("<Q", 4), b"binlog.000002", [], 8),
        "STOP": ("mysql", T.STOP, b"", b"", [], 0),
        "XID": ("mysql", T.XID, b"", struct.pack("<Q", 9), [], 0),
        "INTVAR": ("mysql", T.INTVAR, b"", b"\x02" + struct.pack("<Q", 7), [], 0),
        "RAND": ("mysql", T.RAND, b"", struct.pack("<QQ", 1, 2), [], 0),
        "USER_VAR": ("mysql", T.USER_VAR, b"", struct.pack("<I", 1) + b"n\x01", [], 0),
        "INCIDENT": ("mysql", T.INCIDENT, struct.pack("<H", 1), b"\x05lost!", [], 2),
        "HEARTBEAT": ("mysql", T.HEARTBEAT, b"", b"binlog.000007", [], 0),
        "ROWS_QUERY": ("mysql", T.ROWS_QUERY, b"", b"\x08SELECT 1", [], 0),
        "XA_PREPARE": ("mysql", T.XA_PREPARE, b"", b"\x00" + struct.pack("<III", 1, 3, 2) + b"abcxy", [], 0),
        "TABLE_MAP": ("mysql", T.TABLE_MAP, tm[:8], tm[8:], [], 8),
        "WRITE_ROWS_V1": ("mysql", T.WRITE_ROWS_V1, ROWS_ID, one + IMG, [_tm(bl)], 8),
        "UPDATE_ROWS_V1": ("mysql", T.UPDATE_ROWS_V1, ROWS_ID, upd + IMG, [_tm(bl)], 8),
        "DELETE_ROWS_V1": ("mysql", T.DELETE_ROWS_V1, ROWS_ID, one + IMG, [_tm(bl)], 8),
        "WRITE_ROWS": ("mysql", T.WRITE_ROWS, v2, one + IMG, [_tm(bl)], 10),
        "UPDATE_ROWS": ("mysql", T.UPDATE_ROWS, v2, upd + IMG, [_tm(bl)], 10),
        "DELETE_ROWS": ("mysql", T.DELETE_ROWS, v2, one + IMG, [_tm(bl)], 10),
        # after images of PARTIAL_UPDATE_ROWS start with binlog_row_value_options (0)
        "PARTIAL_UPDATE_ROWS": ("mysql", T.PARTIAL_UPDATE_ROWS, v2, upd + INT5 + b"\x00" + INT6,
                                [_tm(bl)], 10),
        "GTID": ("mysql", T.GTID, gtid_post, gtid_body, [], 25),
        "ANONYMOUS_GTID": ("mysql", T.ANONYMOUS_GTID, anon_post, gtid_body, [], 25),
        "PREVIOUS_GTIDS": ("mysql", T.PREVIOUS_GTIDS, b"",
                           struct.pack("<Q", 1) + SID + struct.pack("<Q", 1) + struct.pack("<qq", 1, 6), [], 0),
        "MARIADB_ANNOTATE_ROWS": ("mariadb", T.MARIADB_ANNOTATE_ROWS, b"", b"INSERT INTO t VALUES (5)", [], 0),
        "MARIADB_BINLOG_CHECKPOINT": ("mariadb", T.MARIADB_BINLOG_CHECKPOINT, struct.pack("<I", 13),
                                      b"binlog.000001", [], 4),
        "MARIADB_GTID_LIST": ("mariadb", T.MARIADB_GTID_LIST, struct.pack("<I", 1),
                              struct.pack("<IIQ", 0, 1, 10), [], 4),
        "MARIADB_QUERY_COMPRESSED": ("mariadb", T.MARIADB_QUERY_COMPRESSED, cq[:13], cq[13:], [], 11),
        # compressed rows (row_log_event_uncompress): ncols and bitmaps plain, images compressed
        "MARIADB_WRITE_ROWS_COMPRESSED_V1": ("mariadb", T.MARIADB_WRITE_ROWS_COMPRESSED_V1, ROWS_ID,
                                             one + bytes([0x81, len(IMG)]) + zlib.compress(IMG),
                                             [_tm(bl)], 8),
        "MARIADB_WRITE_ROWS_COMPRESSED": ("mariadb", T.MARIADB_WRITE_ROWS_COMPRESSED, v2,
                                          one + bytes([0x81, len(IMG)]) + zlib.compress(IMG),
                                          [_tm(bl)], 10),
    }


CASES = ["QUERY", "EXECUTE_LOAD_QUERY", "BEGIN_LOAD_QUERY", "ROTATE", "STOP", "XID", "INTVAR", "RAND",
         "USER_VAR", "INCIDENT", "HEARTBEAT", "ROWS_QUERY", "XA_PREPARE", "TABLE_MAP", "WRITE_ROWS_V1",
         "UPDATE_ROWS_V1", "DELETE_ROWS_V1", "WRITE_ROWS", "UPDATE_ROWS", "DELETE_ROWS",
         "PARTIAL_UPDATE_ROWS", "GTID", "ANONYMOUS_GTID", "PREVIOUS_GTIDS", "MARIADB_ANNOTATE_ROWS",
         "MARIADB_BINLOG_CHECKPOINT", "MARIADB_GTID_LIST", "MARIADB_QUERY_COMPRESSED",
         "MARIADB_WRITE_ROWS_COMPRESSED_V1", "MARIADB_WRITE_ROWS_COMPRESSED"]


def _build(bl, case, declared: int, event: bytes):
    dialect, t, _post, _body, before, _min = case
    b = bl.Builder(MARIADB, bl.MARIADB_PHL) if dialect == "mariadb" else bl.Builder()
    b.post_header[t - 1] = declared
    for bt, body in before:
        b.event(bt, body)
    return b.event(t, event)


def _decoded(ev) -> dict:
    out = ev.fields()
    # where the row images sit inside the body moves with the post-header: compare the rows
    for k in ("rows_start", "rows_end"):
        out.pop(k, None)
    if ev.type_name == "HEARTBEAT":
        out.pop("log_position")     # the header's log_pos (Heartbeat_event), 3 bytes further on
    if hasattr(ev, "rows") and callable(ev.rows):
        out["rows"] = ev.rows()
    return out


def test_every_decoded_type_with_a_post_header_is_covered(bl):
    from mysqlddl.binlog.events import DEFAULT_REGISTRY

    covered = {_cases(bl)[n][1] for n in CASES}
    # read from the common header's end by the server too (see the tests below), or covered
    # separately: MariaDB GTID (continuous read), START_V3/FDE (they define the table), the
    # IGNORABLE base type (opaque), START_ENCRYPTION (refused), pre-GA and the remaining
    # compressed rows types (same decoder and layout as their covered siblings)
    elsewhere = {T.TRANSACTION_PAYLOAD, T.HEARTBEAT_V2, T.GTID_TAGGED, T.MARIADB_GTID, T.START_V3,
                 T.FORMAT_DESCRIPTION, T.IGNORABLE, T.MARIADB_START_ENCRYPTION,
                 T.PRE_GA_WRITE_ROWS, T.PRE_GA_UPDATE_ROWS, T.PRE_GA_DELETE_ROWS,
                 T.MARIADB_UPDATE_ROWS_COMPRESSED_V1, T.MARIADB_DELETE_ROWS_COMPRESSED_V1,
                 T.MARIADB_UPDATE_ROWS_COMPRESSED, T.MARIADB_DELETE_ROWS_COMPRESSED}
    assert set(DEFAULT_REGISTRY.types()) == covered | elsewhere


@pytest.mark.parametrize("name", CASES)
def test_longer_declared_post_header_is_skipped(bl, build_binlog, name):
    case = _cases(bl)[name]
    _dialect, _t, post, body, _before, _min = case
    normal = build_binlog(_build(bl, case, len(post), post + body))[-1]
    longer = build_binlog(_build(bl, case, len(post) + 3, post + JUNK + body))[-1]
    assert longer.type_name == normal.type_name == name
    assert longer.size == normal.size + 3
    assert _decoded(longer) == _decoded(normal)


@pytest.mark.parametrize("name", [n for n in CASES if n not in
                                  ("STOP", "XID", "INTVAR", "RAND", "USER_VAR", "HEARTBEAT",
                                   "ROWS_QUERY", "XA_PREPARE", "PREVIOUS_GTIDS",
                                   "MARIADB_ANNOTATE_ROWS")])
def test_too_short_declared_post_header_is_a_positioned_error(bl, build_binlog, name):
    # (types whose post-header is empty cannot be declared too short)
    case = _cases(bl)[name]
    _dialect, _t, post, body, _before, minimum = case
    with pytest.raises(CorruptEventError, match="post-header") as ei:
        build_binlog(_build(bl, case, minimum - 1, post + body))
    e = ei.value
    assert e.event_type == name and e.file is not None
    assert e.offset == e.log_pos + 19           # the post-header starts after the common header


def test_old_short_layouts_still_read(bl, build_binlog):
    # 5.6 GTID: post-header 25 (flags, sid, gno), no logical clock, no body
    b = bl.Builder("5.6.35-log", bl.MYSQL80_PHL[:35])
    b.post_header[T.GTID - 1] = 25
    (g,) = build_binlog(b.event(T.GTID, b"\x01" + SID + struct.pack("<q", 7)))
    assert g.gno == 7 and g.last_committed is None and g.immediate_commit_timestamp is None
    # QUERY in v4 with an 11-byte post-header (no status_vars_len, as v1/v3 declared it)
    b = bl.Builder()
    b.post_header[T.QUERY - 1] = 11
    (q,) = build_binlog(b.event(T.QUERY, struct.pack("<IIBH", 7, 1, 2, 0) + b"db\0SELECT 1"))
    assert q.query == "SELECT 1" and q.database == "db"


def test_mariadb_gtid_reads_on_past_its_declared_post_header(bl, build_binlog):
    # MariaDB's Gtid_log_event constructor (sql/log_event.cc) only requires post_header_len >=
    # GTID_HEADER_LEN (19) and reads seq_no(8) domain_id(4) flags2(1) [commit_id(8) ...] on from the
    # post-header's start (a commit id already ends at byte 21): no field boundary to skip to.
    # A longer declaration therefore changes nothing but the minimum the event must fill (zero
    # padded, as the server pads to 19).
    ev = struct.pack("<QIB", 10, 1, 0x02) + struct.pack("<Q", 77)
    def build(declared, body):
        b = bl.Builder(MARIADB, bl.MARIADB_PHL)
        b.post_header[T.MARIADB_GTID - 1] = declared
        return b.event(T.MARIADB_GTID, body)
    (normal,) = build_binlog(build(19, ev))
    (longer,) = build_binlog(build(24, ev + bytes(3)))
    assert longer.fields() == normal.fields() and normal.commit_id == 77
    with pytest.raises(CorruptEventError, match="post-header") as ei:
        build_binlog(build(18, ev))
    assert ei.value.event_type == "MARIADB_GTID" and ei.value.offset == ei.value.log_pos + 19


@pytest.mark.parametrize("t", [T.HEARTBEAT_V2, T.GTID_TAGGED, T.TRANSACTION_PAYLOAD])
def test_types_the_server_reads_from_the_common_header_end(bl, build_binlog, t):
    # Heartbeat_event_v2 and Transaction_payload_event hand their codec the bytes right after the
    # common header, Gtid_event::read_gtid_tagged_log_event likewise (control_events.cpp): the
    # declared post-header length is not used (8.0's FDE even declares 40, the type code, for
    # TRANSACTION_PAYLOAD). A declared length must not make us skip their first bytes.
    L = bl.lenenc
    if t == T.HEARTBEAT_V2:
        body = b"\x01" + L(13) + b"binlog.000007" + b"\x02" + L(1) + L(9) + b"\x00"
    elif t == T.GTID_TAGGED:
        # version 1, size 5, last non-ignorable 1, field 0 (gtid_flags) = 1
        body = bytes.fromhex("02 0a 02 00 02")
    else:
        inner = struct.pack("<IBIIIH", 1, T.XID, 1, 27, 0, 0) + struct.pack("<Q", 9)
        # payload_codec fields: PAYLOAD_SIZE, COMPRESSION_TYPE (255 NONE), end mark, payload
        body = L(1) + L(1) + L(len(inner)) + L(2) + L(len(L(255))) + L(255) + b"\x00" + inner
    normal = build_binlog(bl.Builder().event(t, body))[0]
    b = bl.Builder()
    if t - 1 >= len(b.post_header):
        b.post_header.extend(bytes(t - len(b.post_header)))
    b.post_header[t - 1] = 3
    assert build_binlog(b.event(t, body))[0].fields() == normal.fields()
