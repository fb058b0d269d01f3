"""MySQL binary JSON (sql/json_binary.cc), beyond the one real document in test_values.py.

These vectors are built by hand from the format description in sql/json_binary.cc (the layout is
quoted in mysqlddl/binlog/values/jsonb.py), one per construct: inlined and out-of-line scalars,
small and large containers, multi-byte string lengths, opaque DECIMAL/DATE/TIME/DATETIME/BLOB, and
malformed documents (which must fail with CorruptEventError, never another exception).
"""

from __future__ import annotations

import datetime as dt
import struct
from decimal import Decimal

import pytest

from mysqlddl.binlog.values import JsonOpaque, jsonb
from mysqlddl.binlog.values.jsonb import JSON_NULL
from mysqlddl.errors import CorruptEventError


def packed_date(y, m, d):
    # sql-common/my_time.c TIME_to_longlong_date_packed: ((ymd << 17) | hms) << 24
    return ((((y * 13 + m) << 5) | d) << 17) << 24


def packed_time(neg, h, mi, s, us):
    # TIME_to_longlong_time_packed: (hms << 24) + us, negated for negative times
    v = (((h << 12) | (mi << 6) | s) << 24) + us
    return -v if neg else v


def opaque(field_type: int, data: bytes) -> bytes:
    assert len(data) < 128
    return bytes([0x0F, field_type, len(data)]) + data


CASES = [
    ("0401", True, "true"),
    ("0400", JSON_NULL, "null"),                                           # the document null, not SQL NULL
    ("0402", False, "false"),
    ("05feff", -2, "-2"),
    ("06feff", 65534, "65534"),
    ("07" + (-70000).to_bytes(4, "little", signed=True).hex(), -70000, "-70000"),
    ("09" + (-5).to_bytes(8, "little", signed=True).hex(), -5, "-5"),
    ("0a" + "ff" * 8, 18446744073709551615, "18446744073709551615"),
    # a double as the shortest decimal that reads back to it, the value MariaDB's text gives
    ("0b" + struct.pack("<d", 1.5).hex(), Decimal("1.5"), "1.5"),
    ("0b" + struct.pack("<d", 0.1).hex(), Decimal("0.1"), "0.1"),
    ("0b" + struct.pack("<d", 1e20).hex(), Decimal("1E+20"), "1E+20"),
    ("0c03616263", "abc", '"abc"'),
    ("0cc801" + "61" * 200, "a" * 200, '"' + "a" * 200 + '"'),          # 2-byte data-length
    ("0c04" + 'é"\n'.encode().hex(), 'é"\n', '"é\\"\\n"'),
    # small array [1, "x", null]: count 3, size 15, entries (int16 inline)(string @13)(literal inline)
    ("02" "0300" "0f00" "050100" "0c0d00" "040000" "0178", [1, "x", None], '[1, "x", null]'),
    # large object {"a": 1}: count/size 4 bytes, key entry (offset 19, length 1), int16 inlined in 4 bytes
    ("01" "01000000" "14000000" "13000000" "0100" "0501000000" "61", {"a": 1}, '{"a": 1}'),
    # small object {"k": [true]}: nested small array stored out of line at offset 11
    ("00" "0100" "1300" "0b00" "0100" "020c00" "6b" "0100" "0700" "040100", {"k": [True]}, '{"k": [true]}'),
    (opaque(246, bytes([4, 2]) + bytes.fromhex("8c22")).hex(), Decimal("12.34"), "12.34"),
    (opaque(10, packed_date(2015, 1, 15).to_bytes(8, "little", signed=True)).hex(), dt.date(2015, 1, 15),
     '"2015-01-15"'),
    (opaque(11, packed_time(True, 12, 34, 56, 500000).to_bytes(8, "little", signed=True)).hex(),
     -dt.timedelta(hours=12, minutes=34, seconds=56, microseconds=500000), '"-12:34:56.500000"'),
    (opaque(12, (packed_date(2024, 2, 29) | packed_time(False, 23, 59, 58, 7)).to_bytes(8, "little")).hex(),
     dt.datetime(2024, 2, 29, 23, 59, 58, 7), '"2024-02-29 23:59:58.000007"'),
    (opaque(252, b"\x01\x02").hex(), JsonOpaque(252, b"\x01\x02"), '"base64:type252:AQI="'),
    ("", JSON_NULL, "null"),                                                # empty value = JSON null
]


@pytest.mark.parametrize("hexs,value,text", CASES)
def test_binary_json(hexs, value, text):
    data = bytes.fromhex(hexs)
    got = jsonb.parse(data)
    assert got == value and type(got) is type(value)
    assert jsonb.to_text(got) == text


BAD = [
    "0d00",                               # unknown type
    "0c05616263",                         # string longer than the document
    "0c" + "80" * 6,                      # data-length longer than 5 bytes
    "02" "0300" "0f00",                   # entries missing
    "02" "0100" "ff00" "050100",          # size larger than the document
    "02" "0100" "0700" "0c2000",          # value offset outside the container
    "0403",                               # unknown literal
    "00" "0100" "0a00" "0900" "0500" "040100",   # key runs past the container
    "0ff6020402",                         # opaque DECIMAL with too few bytes
    "0f0a03000000",                       # opaque DATE not 8 bytes
    "0c02c328",                           # invalid utf8mb4
]


@pytest.mark.parametrize("hexs", BAD)
def test_malformed_binary_json_is_corrupt(hexs):
    with pytest.raises(CorruptEventError):
        jsonb.parse(bytes.fromhex(hexs))


def test_nesting_depth_is_bounded():
    doc = b""
    inner = bytes.fromhex("0200000400")   # an empty small array
    for _ in range(400):          # [[[...]]] 400 deep: each level an array with one out-of-line entry
        body = inner[1:]
        doc = b"\x02" + (1).to_bytes(2, "little") + (7 + len(body)).to_bytes(2, "little") + \
            bytes([inner[0]]) + (7).to_bytes(2, "little") + body
        inner = doc
    with pytest.raises(CorruptEventError):
        jsonb.parse(doc)
