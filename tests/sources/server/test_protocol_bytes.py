"""COM_BINLOG_DUMP_GTID's GTID set, byte by byte, for MySQL-only paths (no MySQL server runs here).

Every expected byte string below is written out by hand from the MySQL 8.4 server source's
encoder, not from our code: ``Gtid_set::encode`` and ``encode_nsids_format`` (sql/rpl_gtid_set.cc),
``Tsid::encode_tsid`` (libs/mysql/gtid/tsid.cpp), ``Tag::encode_tag`` (libs/mysql/gtid/tag.cpp:
``Primitive_type_codec<std::string>::write_bytes``, libs/mysql/serialization/
primitive_type_codec.h: a varlen length, then the bytes; tag.h: "If tag is not defined for this
GTID and tagged format is used, 0 will be encoded as length"), ``Tsid::operator<`` (uuid, then
``Tag::operator<``, the text) for the order of ``Tsid_map::get_sorted_sidno``, and the replica's
``request_dump`` (sql/rpl_replica.cc: ``gtid_executed.get_encoded_length()`` then ``encode``, whose
``analyze_encoding_format`` picks the tagged format as soon as one tsid has a tag). Each set is
also read back with our PREVIOUS_GTIDS decoder (a binlog event holds the same ``Gtid_set::encode``
bytes), a reader written apart from the encoder.
"""

from __future__ import annotations

import struct

import pytest

from mysqlddl.binlog.events._cursor import Cursor
from mysqlddl.binlog.events.gtid import decode_previous_gtids
from mysqlddl.errors import SourceUriError
from mysqlddl.sources.server import protocol

# the MySQL Reference Manual's example server UUID ("GTID Format and Storage") and two more
A = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
B = "24bc7850-2c16-11e6-a073-0242ac110002"
C = "ffffffff-ffff-ffff-ffff-fffffffffffe"


def H(text: str) -> bytes:
    return bytes.fromhex(text)


def u64(n: int) -> bytes:
    return struct.pack("<Q", n)


def sid(u: str) -> bytes:
    # Uuid::copy_to: the 16 bytes in the order of the text's hex digits
    return H(u.replace("-", ""))


class _Ctx:
    """The decode context decode_previous_gtids asks for (no FDE: PREVIOUS_GTIDS has no post-header)."""

    def post_header(self, header, cur, minimum, what):
        return cur.sub(0, what)

    def base(self, header):
        return {"header": header, "file": "x", "pos": 4, "next_pos": 4, "payload_offset": 0, "origin": None}


def read_back(data: bytes) -> str:
    return decode_previous_gtids(None, Cursor(data), _Ctx()).gtid_set


def encode(text: str) -> bytes:
    return protocol.encode_gtid_set(protocol.parse_mysql_gtid_set(text))


# ----------------------------------------------------------------------------- untagged (format 0)

def test_untagged_two_uuids_several_intervals():
    data = encode(f"{A}:1-5:7:9-20,{B}:3")
    # sorted by uuid bytes: 24bc.. (B) before 3e11.. (A)
    assert data == (u64(2)                                          # format 0: n_sids as is
                    + sid(B) + u64(1) + u64(3) + u64(4)             # [3, 4)
                    + sid(A) + u64(3) + u64(1) + u64(6) + u64(7) + u64(8) + u64(9) + u64(21))
    assert len(data) == 8 + (16 + 8 + 16) + (16 + 8 + 3 * 16)     # Gtid_set::get_encoded_length
    assert read_back(data) == f"{B}:3,{A}:1-5:7:9-20"


def test_untagged_three_uuids_text_order_does_not_matter():
    one = encode(f"{C}:100-200,{A}:1,{B}:2-3:10")
    two = encode(f"{B}:10:2-3, {A}:1 ,{C}:100-150:151-200")       # same set, other text
    assert one == two == (u64(3) + sid(B) + u64(2) + u64(2) + u64(4) + u64(10) + u64(11)
                          + sid(A) + u64(1) + u64(1) + u64(2)
                          + sid(C) + u64(1) + u64(100) + u64(201))


def test_largest_gno():
    # GNO_END = INT64_MAX (rpl_gtid.h): the last GNO is INT64_MAX - 1, its exclusive end INT64_MAX
    data = encode(f"{A}:{(1 << 63) - 2}")
    assert data[-16:] == struct.pack("<qq", (1 << 63) - 2, (1 << 63) - 1)
    for too_big in ((1 << 63) - 1, 1 << 63):
        with pytest.raises(SourceUriError):
            encode(f"{A}:{too_big}")


def test_whole_command_with_two_uuids():
    data = encode(f"{A}:1-2,{B}:5")
    payload = protocol.binlog_dump_gtid(42, data)
    # sql/rpl_source.cc com_binlog_dump_gtid reads: flags 2 | server_id 4 | name_size 4 | name |
    # pos 8 | data_size 4 (BINLOG_THROUGH_GTID) | data
    assert payload == (H("1e") + H("0400") + struct.pack("<I", 42) + H("00000000") + u64(4)
                       + struct.pack("<I", 8 + 2 * (16 + 8 + 16)) + data)


# ------------------------------------------------------------------------------- tagged (format 1)

def test_tagged_single_tsid():
    data = encode(f"{A}:Domain_1:1-3")
    assert data == (H("0101000000000001")          # encode_nsids_format: 1<<56 | 1<<8 | 1, little-endian
                    + sid(A) + H("10") + b"domain_1"   # varlen 8<<1 = 0x10, the tag lower-cased (Tag::replace)
                    + u64(1) + u64(1) + u64(4))
    assert read_back(data) == f"{A}:domain_1:1-3"


def test_tagged_and_untagged_of_one_uuid_and_another_uuid():
    # the manual's mixed form: untagged intervals, then a tag naming the intervals after it
    data = encode(f"{A}:1-5:tag_b:7:9-10:tag_a:1,{B}:2")
    assert data == (H("0104000000000001")                               # 4 tsids, tagged format
                    + sid(B) + H("00") + u64(1) + u64(2) + u64(3)       # untagged tsid: tag length 0
                    + sid(A) + H("00") + u64(1) + u64(1) + u64(6)       # (uuid, "") first ...
                    + sid(A) + H("0a") + b"tag_a" + u64(1) + u64(1) + u64(2)   # then tags in text order
                    + sid(A) + H("0a") + b"tag_b" + u64(2) + u64(7) + u64(8) + u64(9) + u64(11))
    assert read_back(data) == f"{B}:2,{A}:1-5,{A}:tag_a:1,{A}:tag_b:7:9-10"


def test_longest_tag():
    tag = "t" + "0123456789" * 3 + "x"                      # 32 characters: tag_max_length
    data = encode(f"{C}:{tag}:5")
    assert data[8 + 16:8 + 16 + 33] == bytes([32 << 1]) + tag.encode()
    assert len(data) == 8 + 16 + 33 + 8 + 16
    with pytest.raises(SourceUriError, match="tag"):
        encode(f"{C}:{tag}y:5")


def test_tagged_set_in_the_dump_command():
    data = encode(f"{A}:etl:1-100")
    payload = protocol.binlog_dump_gtid(3, data, flags=protocol.BINLOG_DUMP_NON_BLOCK)
    assert payload[1:3] == H("0500")
    assert payload[19:23] == struct.pack("<I", len(data)) and payload[23:] == data


@pytest.mark.parametrize("bad", [f"{A}:1tag:1",            # a digit may not start a tag
                                 f"{A}:tag",               # a tag without an interval
                                 f"{A}:t1:t2:5",           # two tags in a row
                                 f"{A}:ta-g:1",            # '-' is not a tag character
                                 f"{A}:0", f"{A}:5-1", "0-1-5"])
def test_bad_sets_are_typed_errors(bad):
    with pytest.raises(SourceUriError) as e:
        protocol.parse_mysql_gtid_set(bad)
    assert e.value.setting == "--start-gtid"
