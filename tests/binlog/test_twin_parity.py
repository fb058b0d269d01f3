"""Both twins on real row bodies: identical values and identical error types.

- Every rows event of every shared binlog (../shared/binlogs, read with mysqlddl.binlog.reader).
- go-mysql's NEWDECIMAL matrix (Percona Server 5.6.16), checked against the SQL that produced it.
- MariaDB's pre-10.1 temporal formats, which need the fsp from the schema (mariadb-binlog itself
  cannot print them), checked against the inserted values.
- One row of every column type MariaDB writes (lab.all_types, row_unicode).
"""

from __future__ import annotations

import datetime as dt
import re
import types
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path

import pytest

from mysqlddl.binlog import _twin, rows, speedups
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.errors import CorruptEventError, MysqlddlError
from mysqlddl.options import Options

UTC = dt.timezone.utc


def _both(fn):
    """fn() under the compiled core and under the twin -> (result or error type) per implementation."""
    out = []
    for impl in (speedups.load_compiled(), _twin):
        saved = speedups.impl
        speedups.impl = impl
        try:
            out.append(("ok", fn()))
        except MysqlddlError as e:
            out.append(("error", type(e), e.column))
        finally:
            speedups.impl = saved
    return out


def shared_binlogs(root: Path):
    for p in sorted((root / "binlogs").rglob("*")):
        if p.is_file() and not p.name.startswith("_") and "_expected" not in p.parts and p.suffix != ".md" \
                and p.name != "non-binlog" and "binlog_tsdb/mysql-bin.000001" not in p.as_posix():
            yield p


def test_shared_binlogs_decode_identically(shared_path):
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import read_events

    nrows = nevents = 0
    errors = {}
    for path in shared_binlogs(shared_path):
        for ev in read_events(str(path)):
            if not isinstance(ev, RowsEvent):
                continue
            compiled, pure = _both(ev.rows)
            assert compiled == pure, f"{path}:{ev.pos}"
            nevents += 1
            if compiled[0] == "ok":
                nrows += len(compiled[1])
            else:
                errors[f"{path.parent.name}/{path.name}"] = compiled[1]
    assert nevents > 2000 and nrows > 5000
    # Only tiflow's MariaDB 10.0 TIMESTAMP(n) columns cannot be decoded without the schema's fsp
    # (the TABLE_MAP gives them no metadata); everything else decodes.
    assert set(errors) <= {"tiflow/mysql-bin.000001"}


# ---------------------------------------------------------------------------- NEWDECIMAL matrix

def test_go_mysql_newdecimal_matrix(shared_path):
    """Every DECIMAL(p,s) column of every row equals the inserted literal rounded half-up to s digits
    and clamped to the column's range, as the (non-strict) server stores it."""
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import read_events

    d = shared_path / "binlogs" / "go-mysql"
    sql = (d / "_expected" / "ddsql.sql").read_text()
    cols = [(int(p), int(s)) for p, s in re.findall(r"decimal\((\d+),(\d+)\)", sql)]
    literals = [re.findall(r'"([^"]*)"', line) for line in sql.splitlines() if line.startswith("(")]
    got = []
    for ev in read_events(str(d / "tcb-eval002c-bin.003320")):
        if isinstance(ev, RowsEvent):
            got += ev.rows()
    assert len(got) == len(literals) == 17 and len(cols) == 11

    def stored(text, p, s):
        with localcontext() as ctx:
            ctx.prec = 100
            q = Decimal(text).quantize(Decimal(1).scaleb(-s), rounding=ROUND_HALF_UP)
            top = Decimal(("9" * (p - s) or "0") + ("." + "9" * s if s else ""))
            return max(-top, min(top, q))

    for row, lits in zip(got, literals, strict=True):
        assert list(row[1:12]) == [stored(t, p, s) for t, (p, s) in zip(lits, cols, strict=True)]


# ------------------------------------------------------------------ MariaDB pre-10.1 temporal types

# mariadbd 10.11.19, SET GLOBAL mysql56_temporal_format=OFF, then
#   CREATE TABLE legacy_temporal (id INT PRIMARY KEY, t0 TIME, t3 TIME(3), t6 TIME(6), dt0 DATETIME,
#     dt2 DATETIME(2), dt6 DATETIME(6), ts0 TIMESTAMP NULL DEFAULT NULL, ts4 TIMESTAMP(4) NULL DEFAULT
#     NULL, ts6 TIMESTAMP(6) NULL DEFAULT NULL)  and one INSERT of 5 rows (workload.py phase a).
# TABLE_MAP: types (3, 11, 11, 11, 12, 12, 12, 7, 7, 7), no metadata. The WRITE_ROWS body:
LEGACY_BODY = bytes.fromhex(
    "00fc01000000590a80000000000100000000000140c37754180900000344ea649601007fb403f92360010100000000000001"
    "00010000000100000100fc02000000a7f57f01680f4aff057e7bbcf7ff7787d105f15a000020b07dfbffff04fcee3943bfff"
    "ffffffff7f7fffffff270f7fffffff0f423f00fe03000000ffffff00b407a57f02bf3dde7bff0000000000000000069a6f77"
    "0000000000000000000000000000000000000000feff0400000000fc0500000040e20100b15478eb0326f818939500b8aa8b"
    "68120000069df88ca93201027abcf68b7240c071e06565e071c004d265e071c009fbf1"
)
LEGACY_FSP = [None, 0, 3, 6, 0, 2, 6, 0, 4, 6]


def _t(text):
    neg = text.startswith("-")
    h, m, s = text.lstrip("-").split(":")
    sec, _, frac = s.partition(".")
    td = dt.timedelta(hours=int(h), minutes=int(m), seconds=int(sec), microseconds=int((frac + "000000")[:6]))
    return -td if neg else td


def _dt(text, tz=None):
    return dt.datetime.fromisoformat(text).replace(tzinfo=tz)


LEGACY_EXPECTED = [
    (1, _t("-838:59:59"), _t("-838:59:59.999"), _t("-838:59:59.999999"), _dt("1000-01-01 00:00:00"),
     _dt("1000-01-01 00:00:00.01"), _dt("1000-01-01 00:00:00.000001"), _dt("1970-01-01 00:00:01", UTC),
     _dt("1970-01-01 00:00:01.0001", UTC), _dt("1970-01-01 00:00:01.000001", UTC)),
    (2, _t("838:59:59"), _t("838:59:59.999"), _t("838:59:59.999999"), _dt("9999-12-31 23:59:59"),
     _dt("9999-12-31 23:59:59.99"), _dt("9999-12-31 23:59:59.999999"), _dt("2038-01-19 03:14:07", UTC),
     _dt("2038-01-19 03:14:07.9999", UTC), _dt("2038-01-19 03:14:07.999999", UTC)),
    (3, _t("-00:00:01"), _t("-00:00:00.001"), _t("-00:00:00.000001"), "0000-00-00 00:00:00",
     "2020-00-00 00:00:00.00", "0000-00-00 00:00:00.000000", "0000-00-00 00:00:00",
     "0000-00-00 00:00:00.0000", None),
    (4,) + (None,) * 9,
    (5, _t("12:34:56"), _t("-12:34:56.789"), _t("123:45:06.000789"), _dt("2024-02-29 12:00:00"),
     _dt("2024-02-29 12:00:00.5"), _dt("2024-02-29 12:00:00.123456"), _dt("2024-02-29 12:00:00", UTC),
     _dt("2024-02-29 12:00:00.1234", UTC), _dt("2024-02-29 12:00:00.654321", UTC)),
]


def _legacy_plan(fsp):
    tm = types.SimpleNamespace(column_types=(3, 11, 11, 11, 12, 12, 12, 7, 7, 7), column_metadata=(0,) * 10,
                               null_bitmap=b"\xfe\x03")
    return rows.build_plan(tm, Options(), columns=[{"fsp": f} for f in fsp])


def test_mariadb_legacy_temporal_with_schema_fsp(twin):
    got = rows.decode_rows(_legacy_plan(LEGACY_FSP), LEGACY_BODY, 0, len(LEGACY_BODY), b"\xff\x03")
    assert got == LEGACY_EXPECTED


def test_mariadb_legacy_temporal_without_fsp_fails_typed_on_both():
    plan = _legacy_plan([None] * 10)
    compiled, pure = _both(lambda: rows.decode_rows(plan, LEGACY_BODY, 0, len(LEGACY_BODY), b"\xff\x03"))
    assert compiled == pure and compiled[0] == "error"


# ------------------------------------------------------------------------- every MariaDB column type

# mariadbd 10.11.19 (--binlog-row-metadata=MINIMAL): lab.all_types row id 5 (workload.py row_unicode).
ALL_TYPES_TM = types.SimpleNamespace(
    column_types=(3, 1, 1, 1, 2, 2, 9, 9, 3, 3, 8, 8, 3, 246, 246, 246, 246, 246, 246, 246, 246, 246, 246, 246,
                  4, 5, 16, 16, 16, 10, 19, 19, 19, 19, 19, 19, 19, 18, 18, 18, 18, 18, 18, 18, 17, 17, 17, 17,
                  17, 17, 17, 13, 254, 254, 254, 254, 254, 254, 15, 15, 15, 15, 15, 15, 15, 141, 252, 252, 252,
                  252, 252, 140, 252, 252, 252, 252, 140, 254, 254, 254, 254, 254, 252, 255, 255, 255, 255, 255,
                  255, 255, 255, 254, 254, 254, 8, 15, 3, 3, 15, 17),
    column_metadata=None, null_bitmap=b"\xff" * 13, database="lab", table="all_types",
    # SIGNEDNESS as MariaDB counts it: 29 numeric columns plus c_year (unsigned), 30 bits
    signedness=(False, False, False, True, False, True, False, True, False, True, False, True, True, False,
                False, False, False, False, False, False, False, False, False, True, False, False, True,
                False, False, False),
    column_charsets=(45, 45, 45, 8, 8, 63, 45, 45, 33, 8, 8, 63, 63, 45, 45, 45, 45, 45, 8, 45, 63, 63, 63,
                     63, 63, 46, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 45, 45))
ALL_TYPES_META = bytes.fromhex(
    "0100050209090a04120914001e0a26264100411e0a020408010005000008000102030405060001020304050600010203040506"
    "fe00fe28cefcfe0afefffe10fc00fc032c01ff002c01ff00e803a10f0102030402020102030402f701f702f801f802f808"
    "040404040404040404fe10fe04fe100001500003")
ALL_TYPES_ROW = bytes.fromhex(
    "000000000000100000000004f10500000001ff80ffff0080ffffff000080ffffffff00000080ffffffffffffffff00000000"
    "000000802a0000007e7ffffe800000017ffffffffe78a432eafffffffe73eb655bcaf204c72d8000000000000000001dcd65"
    "00007ffffffffffffffffffffffffffffffffe7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffe7fff"
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffe8000000c22cdcc8c3f9a9999999999b93f0115800000"
    "00000000005dd00f7fffff7fffffce7fffffff7ffffffff67fffffffff7ffffffffff67fffffffffff99a51ec8b899b2bb7e"
    "fb0a99b2bb7efb0199b2bb7efb000a99b2bb7efb000199b2bb7efb00000a99b2bb7efb000001386d4380386d43800a386d43"
    "8001386d4380000a386d43800001386d438000000a386d4380000001640d6e61c3af766520e697a5e69cac0f00747261696c"
    "696e672073706163657306636166e92080138a8089209c209620637031323532206f6e6c790261622665cc8120636f6d6269"
    "6e696e67202b205a574a20f09f91a8e2808df09f91a9e2808df09f91a72d0074616209686572650a6e65776c696e650d5c62"
    "61636b736c617368202771756f746527202264712220006e756c1300424d50206f6e6c7920e2988320c3bc20e4b8ad176370"
    "313235323a208020822083208420852086208720880c00c0c1c2c3c4c5c6c7c8c9cacb1200010220747261696c696e67207a"
    "65726f000d007574663820627974657320c3bc16000073686f727420636f6d7072657373656420f09f988004f09f99820d00"
    "cea9e28988c3a7e2889ae288ab120000e2939ce29394e29393e29398e293a4e2939c090000006c6f6e6720f09f9098070047"
    "72fcdf65208018008a02584bcecf2d284a2d2e56c84d55481e658fb2a9c4060002ff000400626c6f620a0000000000000000"
    "000000000200000080811d008a05144bcecf2d284a2d2ece4cca4955481ee58c724639a39c91cd0100050101050109010000"
    "80010000804c0000007b226b223a2022c3bc6ec3af20f09f9880222c2022657363223a2022615c22625c5c635c6e222c2022"
    "6e756d223a20312e3065322c2022617272223a205b312c202232222c206e756c6c5d7d3d000000110f000001020000000300"
    "0000000000000000f03f000000000000f03f0000000000000040000000000000004000000000000008400000000000000840"
    "19000000e61000000101000000000000000000f83f00000000000002c02d0000000000000001020000000200000000000000"
    "0000f0bf000000000000f0bf000000000000f03f000000000000f03f51000000000000000103000000010000000400000000"
    "0000000000000000000000000000000000000000001040000000000000000000000000000010400000000000001040000000"
    "0000000000000000000000000037000000000000000104000000020000000101000000000000000000f03f000000000000f0"
    "3f01010000000000000000000040000000000000004036000000000000000105000000010000000102000000020000000000"
    "00000000f03f000000000000f03f000000000000004000000000000000405a00000000000000010600000001000000010300"
    "00000100000004000000000000000000f03f000000000000f03f0000000000000040000000000000f03f0000000000000040"
    "0000000000000040000000000000f03f000000000000f03f1000000000000000000000ffffc000020104c0a80001106ccd78"
    "0cbaba102695645b8c656024dbfeffffffffffffff070069642d352f2d310100000005c3bc6ec3af6553f10004ce"
)
ALL_TYPES_PRESENT = bytes.fromhex("ffffffffffffffffffffffff0f")


def all_types_plan(options=None):
    ALL_TYPES_TM.column_metadata = rows.parse_column_metadata(ALL_TYPES_TM.column_types, ALL_TYPES_META)
    return rows.build_plan(ALL_TYPES_TM, options or Options())


@pytest.mark.parametrize("options", [Options(), Options(decimal_as="str", json_as="text", pad_char=True,
                                                        invalid_temporal_as="none", strings_as_bytes=True)])
def test_all_types_row_identical_on_both_twins(options):
    plan = all_types_plan(options)
    compiled, pure = _both(lambda: rows.decode_rows(plan, ALL_TYPES_ROW, 0, len(ALL_TYPES_ROW), ALL_TYPES_PRESENT))
    assert compiled[0] == "ok" and compiled == pure
    assert [type(v) for v in compiled[1][0]] == [type(v) for v in pure[1][0]]


def test_all_types_row_values(twin):
    (row,) = rows.decode_rows(all_types_plan(), ALL_TYPES_ROW, 0, len(ALL_TYPES_ROW), ALL_TYPES_PRESENT)
    assert len(row) == 100
    assert row[:4] == (5, 1, -1, 128)                      # id, c_bool, c_ti, c_tiu (unsigned per metadata)
    assert row[11] == 9223372036854775808                 # c_biu
    assert row[28] == 0x8000000000000000                  # c_bit64
    assert row[37] == "2020-00-15 12:34:56"               # c_dt0, invalid date kept as the server's text
    assert row[55] == "café €" and row[57] == b"ab" + bytes(14)
    assert row[71] == "compress me " * 50                 # TEXT COMPRESSED
    assert row[77:82] == (5, 257, 5, 2305, (1 << 63) | (1 << 32) | (1 << 31) | 1)   # ENUM/SET without names
    assert row[82] == '{"k": "ünï 😀", "esc": "a\\"b\\\\c\\n", "num": 1.0e2, "arr": [1, "2", null]}'
    assert row[90] is None                                # c_gcoll NULL in this row
    assert row[94] == -2 and row[95] == "id-5/-1"         # generated columns are in the image


def test_mariadb_signedness_counts_year():
    """MariaDB gives YEAR a SIGNEDNESS bit (MySQL does not): read with MySQL's count, every numeric
    column after c_year would take its neighbour's flag (c_vgen BIGINT would turn UNSIGNED)."""
    plan = all_types_plan()
    assert plan.columns[51].type == T.YEAR
    assert [plan.columns[i].unsigned for i in (25, 94, 96, 97)] == [False, False, False, False]
    mysql_count = types.SimpleNamespace(**dict(vars(ALL_TYPES_TM), signedness=ALL_TYPES_TM.signedness[:29]))
    shifted = rows.build_plan(mysql_count, Options())
    assert shifted.columns[94].unsigned is True          # what the 29-bit reading gets wrong


# --------------------------------------------------------------------------- Sakila on MySQL 5.5.27

def test_sakila_first_rows(shared_path, twin):
    """mysql-bin.sakila.gz: the Sakila sample database loaded on MySQL 5.5.27 (pre-5.6 temporal
    formats). First rows of a few tables equal the published Sakila data (sakila-data.sql):
    film 1 ACADEMY DINOSAUR, rental 1, payment 1, language 1. TIMESTAMP columns are UTC epochs; the
    loading server ran at UTC+1, so actor 1's last_update '2006-02-15 04:34:33' is 03:34:33 UTC."""
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import read_events

    first = {}
    path = shared_path / "binlogs" / "mysql-binlog-connector-java" / "mysql-bin.sakila.gz"
    for ev in read_events(str(path)):
        if isinstance(ev, RowsEvent) and ev.table not in first:
            first[ev.table] = ev.rows()[0]
    assert first["sakila.actor"] == (1, "PENELOPE", "GUINESS", dt.datetime(2006, 2, 15, 3, 34, 33, tzinfo=UTC))
    film = first["sakila.film"]
    # film_id, title, ..., release_year YEAR, language_id, original_language_id, rental_duration,
    # rental_rate DECIMAL(4,2), length, replacement_cost DECIMAL(5,2), rating ENUM index (2 = 'PG'),
    # special_features SET bits ('Deleted Scenes' 4 | 'Behind the Scenes' 8)
    assert film[:2] == (1, "ACADEMY DINOSAUR") and film[3:12] == (2006, 1, None, 6, Decimal("0.99"), 86,
                                                                   Decimal("20.99"), 2, 12)
    assert first["sakila.rental"][:6] == (1, dt.datetime(2005, 5, 24, 22, 53, 30), 367, 130,
                                          dt.datetime(2005, 5, 26, 22, 4, 30), 1)
    assert first["sakila.payment"][:6] == (1, 1, 1, 76, Decimal("2.99"), dt.datetime(2005, 5, 25, 11, 30, 37))
    assert first["sakila.language"][:2] == (1, "English")      # CHAR(20): trailing spaces not logged


# Byte strings around every UTF-8 well-formedness rule (Unicode 15 table 3-7): ill-formed start
# bytes, truncated sequences at the end and before ASCII, surrogates (ED A0..BF), overlongs (C0, E0
# 80, F0 80), above U+10FFFF (F4 90, F5..FF), and mixtures with BMP and supplementary characters.
ILL_FORMED = [b"\x80", b"abc\xff", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xe2\x82(x", b"\xed\xa0\x80", b"\xc0\xaf",
              b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xf4\x90\x80\x80", b"\xf5\x80", b"\xf0\x9f\x98",
              "é日😀".encode() + b"\xfe" + "ü".encode(), b"12345678\x9912345678", "😀".encode()[:3] + b"abcdefgh",
              b"\xe6\x97\xa5\xe6\x97" + "本".encode(), bytes(range(0x80, 0x100))]


@pytest.mark.parametrize("errors", ["surrogateescape", "replace", "backslashreplace", "strict"])
def test_ill_formed_utf8_identical_on_both_twins(errors):
    """The compiled decoder escapes ill-formed bytes itself under surrogateescape (the default) and
    leaves other handlers to CPython; both must equal bytes.decode("utf-8", errors)."""
    import random

    rr = random.Random(7)
    pieces = ["abcdefgh", "é", "ü", "日本", "😀", " "]
    samples = ILL_FORMED + [rr.randbytes(rr.randint(1, 60)) for _ in range(300)] + [
        b"".join(rr.choice(pieces).encode() if rr.random() < 0.8 else rr.randbytes(rr.randint(1, 3))
                 for _ in range(rr.randint(1, 12))) for _ in range(300)]   # valid text with ill-formed bytes
    tm = types.SimpleNamespace(column_types=(T.VARCHAR,), column_metadata=(255,), null_bitmap=b"\x01",
                               database="db", table="t", column_charsets=(45,))
    plan = rows.build_plan(tm, Options(charset_errors=errors))
    for raw in samples:
        body = b"\x00" + bytes([len(raw)]) + raw
        got = _both(lambda body=body: rows.decode_rows(plan, body, 0, len(body), b"\x01", None))
        try:
            want = ("ok", [(raw.decode("utf-8", errors),)])
        except UnicodeDecodeError:
            want = ("error", CorruptEventError, 0)
        assert got[0] == got[1] == want, raw


def _decimal_bin(text: str, precision: int, scale: int) -> bytes:
    """strings/decimal.c decimal2bin: integer digits then fraction digits in groups of 9 (4 bytes
    big-endian each; a partial group of k digits takes dig2bytes[k] bytes, the integer part's
    first, the fraction's last); the sign bit of the first byte flipped; negatives inverted."""
    dig2bytes = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
    neg = text.startswith("-")
    ip, _, fp = text.lstrip("-").partition(".")
    intg = precision - scale
    ip, fp = ip.rjust(intg, "0"), fp.ljust(scale, "0")
    out = b""
    lead = intg % 9
    if lead:
        out += int(ip[:lead]).to_bytes(dig2bytes[lead], "big")
    for k in range(lead, intg, 9):
        out += int(ip[k:k + 9]).to_bytes(4, "big")
    for k in range(0, scale - scale % 9, 9):
        out += int(fp[k:k + 9]).to_bytes(4, "big")
    if scale % 9:
        out += int(fp[scale - scale % 9:]).to_bytes(dig2bytes[scale % 9], "big")
    out = bytearray(out)
    if neg:
        out = bytearray(b ^ 0xFF for b in out)
    out[0] ^= 0x80
    return bytes(out)


def test_newdecimal_fast_path_identical_to_the_twin():
    """The compiled core fills Decimal objects from the digit groups (_speedups/decimal.pxi) when
    the CPython layout checks pass; every DECIMAL(p,s) shape must give the twin's exact Decimal
    (digits, exponent, sign of zero) and the same text with decimal_as="str"."""
    import random

    from mysqlddl import _speedups

    assert _speedups._decimal_fast_check()        # CPython 64-bit: the fast path is in use
    rr = random.Random(11)
    for precision in range(1, 66):
        for scale in sorted({0, 1, min(precision, 30), rr.randint(0, min(precision, 30))}):
            intg = precision - scale
            zero = "0" + ("." + "0" * scale if scale else "")
            texts = [zero, "-" + zero]
            for _ in range(6):
                ip = str(rr.randrange(10 ** intg)) if intg else "0"
                fp = "".join(rr.choice("0123456789") for _ in range(scale))
                texts.append(("-" if rr.random() < .5 else "") + ip + ("." + fp if scale else ""))
            texts.append("9" * intg + ("." + "9" * scale if scale else "") if intg else "0." + "9" * scale)
            tm = types.SimpleNamespace(column_types=(T.NEWDECIMAL,), column_metadata=(precision << 8 | scale,),
                                       null_bitmap=b"\x01", database="db", table="t")
            for options in (Options(), Options(decimal_as="str")):
                plan = rows.build_plan(tm, options)
                body = b"".join(b"\x00" + _decimal_bin(t, precision, scale) for t in texts)
                got = _both(lambda plan=plan, body=body: rows.decode_rows(plan, body, 0, len(body), b"\x01", None))
                assert got[0] == got[1], (precision, scale)
                values = [r[0] for r in got[0][1]]
                if options.decimal_as == "decimal":
                    assert [v.as_tuple() for v in values] == [Decimal(str(v)).as_tuple() for v in values]
                    assert [str(v) for v in values] == [str(Decimal(t)) for t in texts]
