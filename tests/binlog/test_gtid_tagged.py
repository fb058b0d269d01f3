"""MySQL 8.4+ GTID_TAGGED_LOG_EVENT (42) and tagged PREVIOUS_GTIDS, from byte tables derived by
hand from the server source's encoding rules (no MySQL 8.4 binlog is among the shared fixtures:
shared/binlogs/PROVENANCE.md stops at 8.2.0).

Rules used (mysql/mysql-server, libs/mysql/serialization/):
- varlen unsigned (variable_length_integers.h ``write_varlen_bytes_unsigned``): width
  ``((bit_width(v) * 575) >> 12) + 1``; first byte = (width-1) low one-bits, then a zero, then the
  low value bits; the remaining width-1 bytes hold ``v >> (8 - width)`` little-endian. So v < 128
  is one byte ``v << 1``; v < 2**14 is ``(v << 2 | 1) & 0xff, v >> 6``; v < 2**21 is
  ``(v << 3 | 3) & 0xff`` then ``v >> 5`` in two bytes.
- varlen signed (``write_varlen_bytes_signed``): x >= 0 -> 2x, x < 0 -> 2(-x-1) + 1, then unsigned.
- message (serializer_impl.hpp ``operator<<``, serializer_default_impl.hpp
  ``encode_serializable_metadata``): varlen format version 1, varlen size of the whole message
  (``get_size_serializable``), varlen last non-ignorable field id + 1, then ``varlen id, value``
  per present field. Field ids: ``Gtid_event::define_fields()`` (libs/mysql/binlog/event/
  control_events.h), see mysqlddl/binlog/events/gtid.py.
"""

from __future__ import annotations

import struct

import pytest

from mysqlddl.binlog.events import EventType
from mysqlddl.errors import CorruptEventError, TruncatedError, UnsupportedError
from mysqlddl.sources import open_source

T = EventType
H = bytes.fromhex

# uuid 11223344-5566-7700-0000-0000000000c8 as field 1: 16 varlens, one per byte (std::array ->
# Serializer_array_tag, each element at default size): 0x11 -> 22, 0x22 -> 44, 0x33 -> 66,
# 0x44 -> 88, 0x55 -> aa, 0x66 -> cc, 0x77 -> ee, eight 0x00 -> 00, 0xc8 (200, 8 bits: two bytes)
# -> (200 << 2 | 1) & 0xff = 21, 200 >> 6 = 03.
SID = "11223344-5566-7700-0000-0000000000c8"
UUID_FIELD = H("02" "22 44 66 88 aa cc ee 00 00 00 00 00 00 00 00 21 03")

FIELDS_A = (
    H("00 02")                        # id 0 gtid_flags = 1
    + UUID_FIELD                      # id 1 uuid (18 bytes)
    + H("04 14")                      # id 2 gno = 5: signed 5 -> 10 -> 14
    + H("06 06 61 62 63")             # id 3 tag "abc": length 3 -> 06, then the bytes
    + H("08 10")                      # id 4 last_committed = 4: signed -> 8 -> 10
    + H("0a 14")                      # id 5 sequence_number = 5 -> 10 -> 14
    # id 6 immediate_commit_timestamp = 1700000000000000 = 0x060a24181e4000: 51 bits -> width
    # (51*575)>>12 + 1 = 8: first byte 7f (seven ones, no value bits), then v >> 0 in 7 bytes LE
    + H("0c 7f 00 40 1e 18 24 0a 06")
    # (id 7 original_commit_timestamp absent: equals the immediate one)
    + H("10 b1 04")                   # id 8 transaction_length = 300: (300<<2|1)&ff = b1, 300>>6 = 04
    # id 9 immediate_server_version = 80400 = 0x13a10: 17 bits -> width 3: (80400<<3|3)&ff = 83,
    # 80400 >> 5 = 2512 = 0x09d0 -> d0 09
    + H("12 83 d0 09")
)
assert len(FIELDS_A) == 47
# version 1 -> 02; size = 1 + 1 + 1 + 47 = 50 -> 64; last non-ignorable = id 9 + 1 = 10 -> 14
MESSAGE_A = H("02 64 14") + FIELDS_A

FIELDS_B = (
    H("00 02")                        # flags 1
    + UUID_FIELD
    + H("04 04")                      # gno 1 -> 2 -> 04
    # (id 3 tag absent: an untagged GTID)
    + H("08 02")                      # last_committed = -1: signed -> 2*(1-1)+1 = 1 -> 02
    + H("0a 41 06")                   # sequence_number = 200 -> 400: (400<<2|1)&ff = 41, 400>>6 = 06
    + H("0c a1 0f")                   # immediate ts 1000: (1000<<2|1)&ff = a1, 1000>>6 = 0f
    + H("0e 9d 0f")                   # original ts 999: (999<<2|1)&ff = 9d, 999>>6 = 0f
    + H("16 0e")                      # id 11 commit_group_ticket = 7 -> 0e
)
assert len(FIELDS_B) == 35
# size = 3 + 35 = 38 -> 4c; last non-ignorable = id 11 + 1 = 12 -> 18
MESSAGE_B = H("02 4c 18") + FIELDS_B


def test_tagged_gtid_fields_and_text(bl, build_binlog):
    (g,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, MESSAGE_A))
    assert (g.flags, g.sid, g.gno, g.tag) == (1, SID, 5, "abc")
    assert g.gtid == f"{SID}:abc:5"
    assert (g.last_committed, g.sequence_number) == (4, 5)
    assert g.immediate_commit_timestamp == g.original_commit_timestamp == 1700000000000000
    assert g.transaction_length == 300
    assert g.immediate_server_version == g.original_server_version == 80400
    assert g.commit_group_ticket is None and not g.anonymous


def test_tag_absent_negative_signed_and_optional_fields(bl, build_binlog):
    (g,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, MESSAGE_B))
    assert g.tag is None and g.gtid == f"{SID}:1"
    assert (g.last_committed, g.sequence_number) == (-1, 200)
    assert (g.immediate_commit_timestamp, g.original_commit_timestamp) == (1000, 999)
    assert g.commit_group_ticket == 7
    assert g.transaction_length is None and g.immediate_server_version is None


def test_newer_ignorable_field_is_skipped_by_the_size(bl, build_binlog):
    # id 12 (unknown to us) = 7: 18 0e; last non-ignorable stays 10; size 52 -> 68
    (g,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, H("02 68 14") + FIELDS_A + H("18 0e")))
    (a,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, MESSAGE_A))
    assert g.fields() == a.fields()


def test_multibyte_size_as_the_server_computes_it(bl, build_binlog):
    # 80 bytes of an unknown ignorable field (id 12 -> 18, then 79 bytes) make F = 127 field bytes.
    # get_size_serializable: 1 (version) + width(varlen(127)) = 1 + 1 (last id) + 127 = 130, written
    # as a 2-byte varlen: (130<<2|1)&ff = 09, 130>>6 = 02; the message is 1+2+1+127 = 131 bytes.
    extra = H("18") + bytes(range(79))
    server = H("02 09 02 14") + FIELDS_A + extra
    # A self-consistent writer would say 131: (131<<2|1)&ff = 0d, 131>>6 = 02.
    exact = H("02 0d 02 14") + FIELDS_A + extra
    (a,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, MESSAGE_A))
    for msg in (server, exact):
        (g,) = build_binlog(bl.Builder().event(T.GTID_TAGGED, msg))
        assert g.fields() == a.fields()


def test_unknown_non_ignorable_field_is_refused(bl, build_binlog):
    # last non-ignorable = 13 (id 12 + 1) -> 1a: Event_decoding_error::unknown_non_ignorable_fields
    with pytest.raises(UnsupportedError, match="non-ignorable") as ei:
        build_binlog(bl.Builder().event(T.GTID_TAGGED, H("02 68 1a") + FIELDS_A + H("18 0e")))
    assert ei.value.event_type == "GTID_TAGGED"


def test_other_format_version_is_refused(bl, build_binlog):
    with pytest.raises(UnsupportedError, match="format version 2"):
        build_binlog(bl.Builder().event(T.GTID_TAGGED, H("04") + MESSAGE_A[1:]))


def test_truncated_message_is_a_positioned_error(bl, build_binlog):
    # size 50 but only 49 bytes: the size check
    with pytest.raises(TruncatedError) as ei:
        build_binlog(bl.Builder().event(T.GTID_TAGGED, MESSAGE_A[:-1]))
    e = ei.value
    assert e.event_type == "GTID_TAGGED" and e.file is not None
    assert e.offset == e.log_pos + 19          # the message starts right after the common header
    # size 49 (62) agreeing with the body, but the last varlen (83 = 3 bytes) is cut short
    with pytest.raises(TruncatedError) as ei:
        build_binlog(bl.Builder().event(T.GTID_TAGGED, H("02 62 14") + FIELDS_A[:-1]))
    # the offset names the first missing byte: after the varlen's first byte (83, field byte 44)
    assert ei.value.offset == ei.value.log_pos + 19 + 3 + 45


def test_value_wider_than_its_type_is_corrupt(bl, build_binlog):
    # gtid_flags = 256 (unsigned char): 9 bits -> 2 bytes (256<<2|1)&ff = 01, 256>>6 = 04; size 51 -> 66
    msg = H("02 66 14") + H("00 01 04") + FIELDS_A[2:]
    with pytest.raises(CorruptEventError, match="gtid_flags 256"):
        build_binlog(bl.Builder().event(T.GTID_TAGGED, msg))


def test_previous_gtids_tagged_format(bl, build_binlog):
    # Gtid_set::encode (sql/rpl_gtid_set.cc): n_sids word = format << 56 | n_sids << 8 | format for
    # the tagged format (encode_nsids_format); per TSID uuid(16), tag as varlen length + bytes
    # (Tag::encode_tag -> Primitive_type_codec<std::string>), n_intervals(8), (start, end) int64 each.
    sid = bytes.fromhex("11223344556677000000000000000000")
    body = (struct.pack("<Q", (1 << 56) | (2 << 8) | 1)
            + sid + H("00") + struct.pack("<Q", 1) + struct.pack("<qq", 1, 4)     # untagged: tag length 0
            + sid + H("06") + b"abc" + struct.pack("<Q", 1) + struct.pack("<qq", 5, 6))
    (p,) = build_binlog(bl.Builder().event(T.PREVIOUS_GTIDS, body))
    s = "11223344-5566-7700-0000-000000000000"
    assert p.gtid_set == f"{s}:1-3,{s}:abc:5"
    too_long = (struct.pack("<Q", (1 << 56) | (1 << 8) | 1) + sid + H("42") + b"x" * 33
                + struct.pack("<Q", 0))
    with pytest.raises(CorruptEventError, match="tag length 33"):
        build_binlog(bl.Builder().event(T.PREVIOUS_GTIDS, too_long))


def _tagged_transaction_log(bl, message: bytes, value: int):
    """GTID_TAGGED, BEGIN, TABLE_MAP db.t (a INT), WRITE_ROWS a=value, XID: one transaction."""
    b = bl.Builder("8.4.0")
    b.event(T.GTID_TAGGED, message)
    b.event(T.QUERY, bl.query_body(b"", b"db", b"BEGIN"))
    b.event(T.TABLE_MAP, bl.table_map(5, ncols_types=[3], meta=b""))
    # WRITE_ROWS v2 (rows_event.h Rows_event): table_id(6) flags(2) extra_len(2) = 2, ncols 1,
    # columns-present bitmap, then the row: null bitmap, INT little-endian
    b.event(T.WRITE_ROWS, (5).to_bytes(6, "little") + b"\x01\x00" + b"\x02\x00" + b"\x01\xff"
            + b"\xfe" + struct.pack("<i", value))
    b.event(T.XID, struct.pack("<Q", 77))
    return b


def test_the_tag_reaches_source_gtid_and_the_gtid_filters(bl, tmp_path):
    # End to end, from the tagged event's bytes to the change records: source.gtid is the
    # uuid:tag:gno text, and --include-gtids / --exclude-gtids in MySQL 8.4's tagged GTID-set
    # syntax select the transaction by its tag (an untagged interval with the same number doesn't).
    from mysqlddl.changes.filters import Filters, GtidSet
    from mysqlddl.changes.options import ChangeOptions
    from mysqlddl.changes.reader import ChangeReader
    from mysqlddl.changes.records import RowChange, TransactionMark, iter_changes

    log = _tagged_transaction_log(bl, MESSAGE_A, 41).write(tmp_path / "binlog.000001")

    def changes(**filters):
        opts = ChangeOptions(filters=Filters(**filters))
        return list(iter_changes(ChangeReader(open_source([log]), opts, schema="CREATE TABLE db.t (a INT);")))

    begin, row, end = changes()
    assert type(begin) is type(end) is TransactionMark and type(row) is RowChange
    assert begin.id == end.id == f"{SID}:abc:5"       # the transaction id is the GTID text
    assert row.op == "c" and row.after == {"a": 41}
    assert row.source.gtid == f"{SID}:abc:5"
    assert len(changes(include_gtids=GtidSet(f"{SID}:abc:1-9"))) == 3
    assert changes(include_gtids=GtidSet(f"{SID}:1-9")) == []            # same number, no tag
    assert changes(include_gtids=GtidSet(f"{SID}:other:5")) == []
    assert changes(exclude_gtids=GtidSet(f"{SID}:abc:5")) == []
    assert len(changes(exclude_gtids=GtidSet(f"{SID}:5"))) == 3
