"""Value decoders, byte by byte, on bytes real servers wrote.

Each table row: (hex of one value as it sits in a row image, column type, TABLE_MAP metadata, what the
schema adds (or {}), expected value, bytes consumed). Every row runs through the pure decoder
(value and exact consumption, with trailing bytes after it that must not be read) and, as a
one-column row image, through rows.decode_rows on both twins (the `twin` fixture).

Provenance
- "MDB" rows: MariaDB `mariadbd Ver 10.11.19-MariaDB-0+deb12u1` (the lab server of
  ../shared/lab/mariadb.sh, ROW/FULL images), table `lab.all_types` of ../shared/lab/workload.py
  phase (a); `row N` names the workload function that built the INSERT (row_min = id 1, row_max =
  id 2, row_zero = id 4, row_unicode = id 5) and the expected values are the SQL literals there.
  Harvested from the binlog with --binlog-row-metadata=MINIMAL (signedness and charsets logged).
- "MDB legacy": same server, table `lab.legacy_temporal` created with
  mysql56_temporal_format=OFF (pre-10.1 formats; fsp from the schema).
- "MySQL 8.0.31": ../shared/binlogs/mysql-binlog-connector-rust/mysql-bin.000057, statement from its
  ROWS_QUERY event.
- "MDB 10.0.17": ../shared/binlogs/tiflow/mysql-bin.000001, `create table t(id int primary key,
  d timestamp(3))`, row written at 2022-05-16 14:53:10 UTC (the event's timestamp).
"""

from __future__ import annotations

import datetime as dt
import types
from decimal import Decimal

import pytest

from mysqlddl.binlog import rows
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.binlog.values import Geometry, decoder_for
from mysqlddl.options import Options

UTC = dt.timezone.utc
TD = dt.timedelta
U = {"unsigned": True}
UTF8MB4, LATIN1, BINARY = 45, 8, 63


def _td(sign, h, m, s, us=0):
    return sign * TD(hours=h, minutes=m, seconds=s, microseconds=us)


NUMERIC = [
    # MDB row_min / row_max: TINYINT .. BIGINT [UNSIGNED] extremes
    ("80", T.TINY, 0, {}, -128, 1),
    ("7f", T.TINY, 0, {}, 127, 1),
    ("ff", T.TINY, 0, U, 255, 1),
    ("0080", T.SHORT, 0, {}, -32768, 2),
    ("ffff", T.SHORT, 0, U, 65535, 2),
    ("000080", T.INT24, 0, {}, -8388608, 3),
    ("ffffff", T.INT24, 0, U, 16777215, 3),
    ("00000080", T.LONG, 0, {}, -2147483648, 4),
    ("ffffffff", T.LONG, 0, U, 4294967295, 4),
    ("0000000000000080", T.LONGLONG, 0, {}, -9223372036854775808, 8),
    ("ffffffffffffffff", T.LONGLONG, 0, U, 18446744073709551615, 8),
    # MDB c_vgen BIGINT AS (c_i * 2) VIRTUAL, row_min: c_i = -2^31
    ("00000000ffffffff", T.LONGLONG, 0, {}, -4294967296, 8),
    # MDB c_f FLOAT / c_dbl DOUBLE: -3.402823466e38, 3.402823466e38, 1.1 (float32), 0.1, +-1.7976931348623157e308
    ("ffff7fff", T.FLOAT, 4, {}, -3.4028234663852886e38, 4),
    ("ffff7f7f", T.FLOAT, 4, {}, 3.4028234663852886e38, 4),
    ("cdcc8c3f", T.FLOAT, 4, {}, 1.100000023841858, 4),
    ("9a9999999999b93f", T.DOUBLE, 8, {}, 0.1, 8),
    ("ffffffffffffefff", T.DOUBLE, 8, {}, -1.7976931348623157e308, 8),
    ("ffffffffffffef7f", T.DOUBLE, 8, {}, 1.7976931348623157e308, 8),
    # MDB DECIMAL(p,s) columns, row_min (negative maxima), row_zero, row_unicode
    ("76", T.NEWDECIMAL, 1 << 8 | 0, {}, Decimal("-9"), 1),
    ("7c189c", T.NEWDECIMAL, 5 << 8 | 2, {}, Decimal("-999.99"), 3),
    ("44653600", T.NEWDECIMAL, 9 << 8 | 9, {}, Decimal("-0.999999999"), 4),
    ("70bdc0d8f0", T.NEWDECIMAL, 10 << 8 | 4, {}, Decimal("-999999.9999"), 5),
    ("44653600c4653600", T.NEWDECIMAL, 18 << 8 | 9, {}, Decimal("-999999999.999999999"), 8),
    ("1cc4653600c4653600", T.NEWDECIMAL, 20 << 8 | 0, {}, Decimal("-99999999999999999999"), 9),
    ("1cc4653600c4653600c4653600f6", T.NEWDECIMAL, 30 << 8 | 10, {},
     Decimal("-99999999999999999999.9999999999"), 14),
    ("44653600c4653600c4653600c46536009c", T.NEWDECIMAL, 38 << 8 | 38, {},
     Decimal("-0.99999999999999999999999999999999999999"), 17),
    ("1cc4653600c4653600c4653600c4653600c4653600c4653600c4653600", T.NEWDECIMAL, 65 << 8 | 0, {},
     Decimal("-" + "9" * 65), 29),
    ("7a0a1f00c4653600c4653600c4653600c4653600c4653600c4653600fc18", T.NEWDECIMAL, 65 << 8 | 30, {},
     Decimal("-" + "9" * 35 + "." + "9" * 30), 30),
    ("800000", T.NEWDECIMAL, 5 << 8 | 2, {}, Decimal("0.00"), 3),
    ("7ffffe", T.NEWDECIMAL, 5 << 8 | 2, {}, Decimal("-0.01"), 3),
    ("80000001", T.NEWDECIMAL, 9 << 8 | 9, {}, Decimal("0.000000001"), 4),
    ("78a432eafffffffe", T.NEWDECIMAL, 18 << 8 | 9, {}, Decimal("-123456789.000000001"), 8),
    ("73eb655bcaf204c72d", T.NEWDECIMAL, 20 << 8 | 0, {}, Decimal("-12345678901234567890"), 9),
    ("8000000000000000001dcd650000", T.NEWDECIMAL, 30 << 8 | 10, {}, Decimal("0.5000000000"), 14),
    ("7ffffffffffffffffffffffffffffffffe", T.NEWDECIMAL, 38 << 8 | 38, {}, Decimal("-1E-38"), 17),
    ("8000000c22", T.NEWDECIMAL, 10 << 8 | 2, U, Decimal("12.34"), 5),          # c_du UNSIGNED
    ("85f5e0ff63", T.NEWDECIMAL, 10 << 8 | 2, U, Decimal("99999999.99"), 5),
]

BIT = [
    # MDB c_bit1 BIT(1), c_bit5 BIT(5) b'10101', c_bit64 BIT(64) 0x8000000000000000 / all ones
    ("01", T.BIT, 1, {}, 1, 1),
    ("15", T.BIT, 5, {}, 0b10101, 1),
    ("1f", T.BIT, 5, {}, 31, 1),
    ("8000000000000000", T.BIT, 8 << 8, {}, 1 << 63, 8),
    ("ffffffffffffffff", T.BIT, 8 << 8, {}, (1 << 64) - 1, 8),
]

TEMPORAL = [
    # MDB c_date: 0001-01-01, 9999-12-31, 2024-02-29, '0000-00-00' (zero date)
    ("210200", T.DATE, 0, {}, dt.date(1, 1, 1), 3),
    ("9f1f4e", T.DATE, 0, {}, dt.date(9999, 12, 31), 3),
    ("5dd00f", T.DATE, 0, {}, dt.date(2024, 2, 29), 3),
    ("000000", T.DATE, 0, {}, "0000-00-00", 3),
    # MDB c_time0..6 TIME(n): '-838:59:59[.9..]' (row_min), '838:59:59' (row_max), small negatives (row_unicode)
    ("4b9105", T.TIME2, 0, {}, _td(-1, 838, 59, 59), 3),
    ("4b9104a6", T.TIME2, 1, {}, _td(-1, 838, 59, 59, 900000), 4),
    ("4b91049d", T.TIME2, 2, {}, _td(-1, 838, 59, 59, 990000), 4),
    ("4b9104d8fa", T.TIME2, 3, {}, _td(-1, 838, 59, 59, 999000), 5),
    ("4b9104d8f1", T.TIME2, 4, {}, _td(-1, 838, 59, 59, 999900), 5),
    ("4b9104f0bdca", T.TIME2, 5, {}, _td(-1, 838, 59, 59, 999990), 6),
    ("4b9104f0bdc1", T.TIME2, 6, {}, _td(-1, 838, 59, 59, 999999), 6),
    ("b46efb", T.TIME2, 0, {}, _td(1, 838, 59, 59), 3),
    ("b46efb0f423f", T.TIME2, 6, {}, _td(1, 838, 59, 59, 999999), 6),
    ("7fffff", T.TIME2, 0, {}, _td(-1, 0, 0, 1), 3),
    ("7fffffce", T.TIME2, 1, {}, _td(-1, 0, 0, 0, 500000), 4),
    ("7fffffff", T.TIME2, 2, {}, _td(-1, 0, 0, 0, 10000), 4),
    ("7ffffffff6", T.TIME2, 3, {}, _td(-1, 0, 0, 0, 1000), 5),
    ("7fffffffff", T.TIME2, 4, {}, _td(-1, 0, 0, 0, 100), 5),
    ("7ffffffffff6", T.TIME2, 5, {}, _td(-1, 0, 0, 0, 10), 6),
    ("7fffffffffff", T.TIME2, 6, {}, _td(-1, 0, 0, 0, 1), 6),
    ("800000", T.TIME2, 0, {}, TD(0), 3),
    # MDB c_dt0..6 DATETIME(n): 0001-01-01, 9999-12-31 23:59:59.999999, 2024-02-29 23:59:59.0..01,
    # zero datetime and '2020-00-15 12:34:56' (invalid, ALLOW_INVALID_DATES-style zero month)
    ("8003820000", T.DATETIME2, 0, {}, dt.datetime(1, 1, 1), 5),
    ("fef3ff7efb", T.DATETIME2, 0, {}, dt.datetime(9999, 12, 31, 23, 59, 59), 5),
    ("fef3ff7efb0f423f", T.DATETIME2, 6, {}, dt.datetime(9999, 12, 31, 23, 59, 59, 999999), 8),
    ("99b2bb7efb0a", T.DATETIME2, 1, {}, dt.datetime(2024, 2, 29, 23, 59, 59, 100000), 6),
    ("99b2bb7efb000a", T.DATETIME2, 3, {}, dt.datetime(2024, 2, 29, 23, 59, 59, 1000), 7),
    ("99b2bb7efb000001", T.DATETIME2, 6, {}, dt.datetime(2024, 2, 29, 23, 59, 59, 1), 8),
    ("8000000000", T.DATETIME2, 0, {}, "0000-00-00 00:00:00", 5),
    ("80000000000000", T.DATETIME2, 3, {}, "0000-00-00 00:00:00.000", 7),
    ("99a51ec8b8", T.DATETIME2, 0, {}, "2020-00-15 12:34:56", 5),
    # MDB c_ts0..6 TIMESTAMP(n): 1970-01-01 00:00:01, 2038-01-19 03:14:07.999999, 2000-01-01 ..01, zero
    ("00000001", T.TIMESTAMP2, 0, {}, dt.datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), 4),
    ("7fffffff", T.TIMESTAMP2, 0, {}, dt.datetime(2038, 1, 19, 3, 14, 7, tzinfo=UTC), 4),
    ("7fffffff0f423f", T.TIMESTAMP2, 6, {}, dt.datetime(2038, 1, 19, 3, 14, 7, 999999, tzinfo=UTC), 7),
    ("386d43800a", T.TIMESTAMP2, 1, {}, dt.datetime(2000, 1, 1, 0, 0, 0, 100000, tzinfo=UTC), 5),
    ("386d43800001", T.TIMESTAMP2, 4, {}, dt.datetime(2000, 1, 1, 0, 0, 0, 100, tzinfo=UTC), 6),
    ("386d438000000a", T.TIMESTAMP2, 5, {}, dt.datetime(2000, 1, 1, 0, 0, 0, 10, tzinfo=UTC), 7),
    ("00000000", T.TIMESTAMP2, 0, {}, "0000-00-00 00:00:00", 4),
    ("000000000000", T.TIMESTAMP2, 3, {}, "0000-00-00 00:00:00.000", 6),
    # MDB c_ts_auto TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP(3) under SET timestamp = 1700000000.123456
    ("6553f10004ce", T.TIMESTAMP2, 3, {}, dt.datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC), 6),
    # MDB c_year: 1901, 2155, 2000, 0000 (stays 0)
    ("01", T.YEAR, 0, {}, 1901, 1),
    ("ff", T.YEAR, 0, {}, 2155, 1),
    ("64", T.YEAR, 0, {}, 2000, 1),
    ("00", T.YEAR, 0, {}, 0, 1),
    # MDB legacy: TIME / TIME(3) / TIME(6), DATETIME / DATETIME(2) / DATETIME(6), TIMESTAMP / (4) / (6)
    ("590a80", T.TIME, 0, {}, _td(-1, 838, 59, 59), 3),
    ("0000000001", T.TIME, 0, {"fsp": 3}, _td(-1, 838, 59, 59, 999000), 5),
    ("000000000001", T.TIME, 0, {"fsp": 6}, _td(-1, 838, 59, 59, 999999), 6),
    ("a7f57f", T.TIME, 0, {}, _td(1, 838, 59, 59), 3),
    ("01680f4aff", T.TIME, 0, {"fsp": 3}, _td(1, 838, 59, 59, 999000), 5),
    ("057e7bbcf7ff", T.TIME, 0, {"fsp": 6}, _td(1, 838, 59, 59, 999999), 6),
    ("40c3775418090000", T.DATETIME, 0, {}, dt.datetime(1000, 1, 1), 8),
    ("0344ea649601", T.DATETIME, 0, {"fsp": 2}, dt.datetime(1000, 1, 1, 0, 0, 0, 10000), 6),
    ("007fb403f9236001", T.DATETIME, 0, {"fsp": 6}, dt.datetime(1000, 1, 1, 0, 0, 0, 1), 8),
    ("7787d105f15a0000", T.DATETIME, 0, {}, dt.datetime(9999, 12, 31, 23, 59, 59), 8),
    ("20b07dfbffff", T.DATETIME, 0, {"fsp": 2}, dt.datetime(9999, 12, 31, 23, 59, 59, 990000), 6),
    ("04fcee3943bfffff", T.DATETIME, 0, {"fsp": 6}, dt.datetime(9999, 12, 31, 23, 59, 59, 999999), 8),
    ("01000000", T.TIMESTAMP, 0, {}, dt.datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), 4),
    ("ffffff7f", T.TIMESTAMP, 0, {}, dt.datetime(2038, 1, 19, 3, 14, 7, tzinfo=UTC), 4),
    ("000000010001", T.TIMESTAMP, 0, {"fsp": 4}, dt.datetime(1970, 1, 1, 0, 0, 1, 100, tzinfo=UTC), 6),
    ("00000001000001", T.TIMESTAMP, 0, {"fsp": 6}, dt.datetime(1970, 1, 1, 0, 0, 1, 1, tzinfo=UTC), 7),
    # MDB 10.0.17 (tiflow): d timestamp(3) = now()
    ("628265560000", T.TIMESTAMP, 0, {"fsp": 3}, dt.datetime(2022, 5, 16, 14, 53, 10, tzinfo=UTC), 6),
]

STRINGS = [
    # MDB CHAR(10) utf8mb4 / CHAR(255) utf8mb4 (2-byte length, trailing spaces dropped by the server)
    ("0d6e61c3af766520e697a5e69cac", T.STRING, 0xFE28, {"charset": UTF8MB4}, "naïve 日本", 14),
    ("0f00747261696c696e6720737061636573", T.STRING, 0xCEFC, {"charset": UTF8MB4}, "trailing spaces", 17),
    # MDB CHAR(10) latin1 'café €' / CHAR(255) latin1: MySQL latin1 is cp1252 (0x80 = euro)
    ("06636166e92080", T.STRING, 0xFE0A, {"charset": LATIN1}, "café €", 7),
    ("138a8089209c209620637031323532206f6e6c79", T.STRING, 0xFEFF, {"charset": LATIN1},
     "Š€‰ œ – cp1252 only", 20),
    # MDB BINARY(16) b'ab' and INET6 '::ffff:192.0.2.1': trailing 0x00 dropped, restored to 16 bytes
    ("026162", T.STRING, 0xFE10, {"charset": BINARY}, b"ab" + b"\x00" * 14, 3),
    ("1000000000000000000000ffffc0000201", T.STRING, 0xFE10, {"charset": BINARY},
     bytes.fromhex("00000000000000000000ffffc0000201"), 17),
    ("00", T.STRING, 0xFE10, {"charset": BINARY}, b"\x00" * 16, 1),   # INET6 '::'
    ("04c0a80001", T.STRING, 0xFE04, {"charset": BINARY}, bytes([192, 168, 0, 1]), 5),   # INET4
    # MDB VARCHAR(63) utf8mb4 (meta 252: 1-byte length) / VARCHAR(255) utf8mb4 (meta 1020: 2 bytes)
    ("2665cc8120636f6d62696e696e67202b205a574a20f09f91a8e2808df09f91a9e2808df09f91a7", T.VARCHAR, 252,
     {"charset": UTF8MB4}, "e\u0301 combining + ZWJ 👨\u200d👩\u200d👧", 39),
    ("2d0074616209686572650a6e65776c696e650d5c6261636b736c617368202771756f746527202264712220006e756c",
     T.VARCHAR, 1020, {"charset": UTF8MB4}, "tab\there\nnewline\r\\backslash 'quote' \"dq\" \x00nul", 47),
    ("1300424d50206f6e6c7920e2988320c3bc20e4b8ad", T.VARCHAR, 300, {"charset": 33}, "BMP only ☃ ü 中", 21),
    ("176370313235323a20802082208320842085208620872088", T.VARCHAR, 255, {"charset": LATIN1},
     "cp1252: € ‚ ƒ „ … † ‡ ˆ", 24),
    ("0c00c0c1c2c3c4c5c6c7c8c9cacb", T.VARCHAR, 300, {"charset": LATIN1}, "ÀÁÂÃÄÅÆÇÈÉÊË", 14),
    ("1200010220747261696c696e67207a65726f00", T.VARCHAR, 255, {"charset": BINARY},
     b"\x00\x01\x02 trailing zero\x00", 19),
    # MDB TINYTEXT / TEXT / MEDIUMTEXT / LONGTEXT utf8mb4, TEXT latin1, TINYBLOB, LONGBLOB
    ("04f09f9982", T.BLOB, 1, {"charset": UTF8MB4}, "🙂", 5),
    ("0d00cea9e28988c3a7e2889ae288ab", T.BLOB, 2, {"charset": UTF8MB4}, "Ω≈ç√∫", 15),
    ("120000e2939ce29394e29393e29398e293a4e2939c", T.BLOB, 3, {"charset": UTF8MB4}, "ⓜⓔⓓⓘⓤⓜ", 21),
    ("090000006c6f6e6720f09f9098", T.BLOB, 4, {"charset": UTF8MB4}, "long 🐘", 13),
    ("07004772fcdf652080", T.BLOB, 2, {"charset": LATIN1}, "Grüße €", 9),
    ("02ff00", T.BLOB, 1, {"charset": BINARY}, b"\xff\x00", 3),
    ("020000008081", T.BLOB, 4, {"charset": BINARY}, b"\x80\x81", 6),
    # MDB JSON is LONGTEXT utf8mb4_bin (collation 46)
    ("020000005b5d", T.BLOB, 4, {"charset": 46}, "[]", 6),
    # MDB COMPRESSED: VARCHAR(1000) COMPRESSED 'short compressed 😀' (stored, header 0x00) and
    # '😀' * 1000 (raw deflate, header 0x8a: 2-byte length 4000); TEXT/BLOB COMPRESSED
    ("16000073686f727420636f6d7072657373656420f09f9880", T.VARCHAR_COMPRESSED, 4001, {"charset": UTF8MB4},
     "short compressed 😀", 24),
    ("1f008a0fa0edc3310d0000080330ebc8e0c3e2244c064f9b34b713555555f57501", T.VARCHAR_COMPRESSED, 4001,
     {"charset": UTF8MB4}, "😀" * 1000, 33),
    ("18008a02584bcecf2d284a2d2e56c84d55481e658fb2a9c40600", T.BLOB_COMPRESSED, 2, {"charset": UTF8MB4},
     "compress me " * 50, 26),
    ("1d008a05144bcecf2d284a2d2ece4cca4955481ee58c724639a39c91cd0100", T.BLOB_COMPRESSED, 2,
     {"charset": BINARY}, b"compressible " * 100, 31),
    ("02000030", T.VARCHAR_COMPRESSED, 4001, {"charset": UTF8MB4}, "0", 4),
    ("0000", T.BLOB_COMPRESSED, 2, {"charset": BINARY}, b"", 2),
]

ENUM_SET = [
    # MDB c_enum ENUM('small','medium','large','x-large','ünïcødé'), c_enum_big (300 members),
    # c_set SET('a','b','c','d') = 'a,c', c_set64 (64 members) = 's00,s31,s32,s63'
    ("05", T.STRING, 0xF701, {}, 5, 1),
    ("05", T.STRING, 0xF701, {"enum_values": ("small", "medium", "large", "x-large", "ünïcødé")}, "ünïcødé", 1),
    ("2c01", T.STRING, 0xF702, {}, 300, 2),
    ("05", T.STRING, 0xF801, {}, 5, 1),
    ("05", T.STRING, 0xF801, {"set_values": ("a", "b", "c", "d")}, "a,c", 1),
    ("0100008001000080", T.STRING, 0xF808, {}, (1 << 63) | (1 << 32) | (1 << 31) | 1, 8),
    ("0100008001000080", T.STRING, 0xF808, {"set_values": tuple(f"s{i:02d}" for i in range(64))},
     "s00,s31,s32,s63", 8),
    ("00", T.STRING, 0xF801, {"set_values": ("a", "b", "c", "d")}, "", 1),
]

OTHER = [
    # MDB c_point POINT(1.5 -2.25) SRID 4326; c_gcoll GEOMETRYCOLLECTION EMPTY (row_min)
    ("19000000e61000000101000000000000000000f83f00000000000002c0", T.GEOMETRY, 4, {},
     Geometry(4326, bytes.fromhex("0101000000000000000000f83f00000000000002c0")), 29),
    ("0d00000000000000010700000000000000", T.GEOMETRY, 4, {},
     Geometry(0, bytes.fromhex("010700000000000000")), 17),
    # MySQL 8.0.31: JSON '{"c": 1}' (small object, one key, int16 inlined)
    ("0d0000000001000c000b00010005010063", T.JSON, 4, {}, {"c": 1}, 17),
]

ALL = [pytest.param(*case, id=f"{T(case[1]).name}-{case[0][:24]}") for case in
       NUMERIC + BIT + TEMPORAL + STRINGS + ENUM_SET + OTHER]


def plan_for(ctype, meta, col=None, options=None):
    tm = types.SimpleNamespace(column_types=(int(ctype),), column_metadata=(meta,), null_bitmap=b"\x01")
    return rows.build_plan(tm, options or Options(), [col] if col else None)


@pytest.mark.parametrize("hexs,ctype,meta,col,expected,consumed", ALL)
def test_pure_decoder(hexs, ctype, meta, col, expected, consumed):
    m = plan_for(ctype, meta, col).columns[0]
    raw = bytes.fromhex(hexs)
    value, end = decoder_for(m.type)(raw + b"\xee\xee", 0, m)  # trailing bytes must stay unread
    assert end == consumed == len(raw)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("hexs,ctype,meta,col,expected,consumed", ALL)
def test_row_decoder(twin, hexs, ctype, meta, col, expected, consumed):
    """The same bytes as a one-column row image (null bitmap 0x00, then the value), twice in a row."""
    plan = plan_for(ctype, meta, col)
    image = b"\x00" + bytes.fromhex(hexs)
    got = rows.decode_rows(plan, image * 2, 0, 2 * len(image), b"\x01", None)
    assert got == [(expected,), (expected,)]
    assert type(got[1][0]) is type(expected)


def test_options_change_representations(twin):
    dec = plan_for(T.NEWDECIMAL, 18 << 8 | 9, None, Options(decimal_as="str"))
    assert rows.decode_rows(dec, bytes.fromhex("0078a432eafffffffe"), 0, 9, b"\x01") == [("-123456789.000000001",)]
    zero = plan_for(T.DATETIME2, 3, None, Options(invalid_temporal_as="none"))
    assert rows.decode_rows(zero, bytes.fromhex("0080000000000000"), 0, 8, b"\x01") == [(None,)]
    js = plan_for(T.JSON, 4, None, Options(json_as="text"))
    assert rows.decode_rows(js, bytes.fromhex("000d0000000001000c000b00010005010063"), 0, 18, b"\x01") == \
        [('{"c": 1}',)]
    raw = plan_for(T.VARCHAR, 255, {"charset": LATIN1}, Options(strings_as_bytes=True))
    assert rows.decode_rows(raw, bytes.fromhex("0003e92080"), 0, 5, b"\x01") == [(b"\xe9 \x80",)]
    fallback = plan_for(T.VARCHAR, 255, None, Options(charset_fallback="binary"))
    assert rows.decode_rows(fallback, bytes.fromhex("0003e92080"), 0, 5, b"\x01") == [(b"\xe9 \x80",)]
    padded = plan_for(T.STRING, 0xFE28, {"charset": UTF8MB4}, Options(pad_char=True))   # CHAR(10) utf8mb4
    assert rows.decode_rows(padded, bytes.fromhex("00026f6b"), 0, 4, b"\x01") == [("ok" + " " * 8,)]


def test_unknown_charset_falls_back_and_strict_errors_are_typed(twin):
    from mysqlddl.errors import ConfigError, CorruptEventError

    strict = plan_for(T.VARCHAR, 255, None, Options(charset_errors="strict"))
    with pytest.raises(CorruptEventError) as e:
        rows.decode_rows(strict, bytes.fromhex("0002ff41"), 0, 4, b"\x01")
    assert e.value.column == 0 and e.value.offset == 1
    lossless = plan_for(T.VARCHAR, 255, None)   # surrogateescape keeps the bytes recoverable
    (value,), = rows.decode_rows(lossless, bytes.fromhex("0002ff41"), 0, 4, b"\x01")
    assert value.encode("utf-8", "surrogateescape") == b"\xffA"
    with pytest.raises(ConfigError):
        plan_for(T.VARCHAR, 255, None, Options(charset_fallback="klingon"))


def test_other_charsets_and_strict_errors(twin):
    """cp1251 (collation 51) decodes through the codec path; its undefined byte 0x98 is a typed
    error under charset_errors=strict, with the same message on both twins."""
    from mysqlddl.errors import CorruptEventError

    plan = plan_for(T.VARCHAR, 255, {"charset": 51}, Options(charset_errors="strict"))
    assert rows.decode_rows(plan, b"\x00\x03\xcf\xf0\xe8", 0, 5, b"\x01") == [("При",)]
    with pytest.raises(CorruptEventError, match="cp1251"):
        rows.decode_rows(plan, b"\x00\x02\x98A", 0, 4, b"\x01")
