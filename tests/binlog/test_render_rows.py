"""rows.render_rows: row images straight to JSON text, compiled (_speedups/jsonl.pxi) and pure
(_twin.render_rows), against the reference: decode_rows, then each image as the envelope's dict
encoded by json (ensure_ascii, compact), which is what the `changes` CLI writes per row.

Every case asserts compiled == pure == reference, byte for byte; error cases assert the same error
type, column and offset as decode_rows on both twins.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import struct
import types

import pytest

from mysqlddl.binlog import _twin, rows, speedups
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.errors import CorruptEventError, MysqlddlError
from mysqlddl.options import Options
from mysqlddl.sinks.jsonl import json_image as envelope_image
from mysqlddl.sinks.jsonl import value_text

from .test_rows import FOUR, V_DEC, V_DT, V_INT, V_STR, tm
from .test_twin_parity import ALL_TYPES_PRESENT, ALL_TYPES_ROW, ILL_FORMED, _decimal_bin, all_types_plan

PARTS = ('{"before":', ',"after":', ',"row":', ',"total":', ',"table":', "}\n")
ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _fmt(plan, names=None, column_json=None):
    names = names or [f"c{i}" for i in range(plan.ncols)]
    return rows.JsonRowsFormat([ENCODE(n) for n in names], value_text, column_json)


def _run(impl, fn):
    saved = speedups.impl
    speedups.impl = impl
    try:
        return ("ok", fn())
    except MysqlddlError as e:
        return ("error", type(e), e.column, e.offset)
    finally:
        speedups.impl = saved


def reference_images(plan, fmt, body, start, end, present1, present2, base, op):
    """decode_rows (pure twin) + the envelope's image dict through json: each row's (before, after)
    JSON text as the per-row CLI path writes it."""
    def image(values):
        d = {}
        for i, (k, v) in enumerate(zip(fmt.keys, values, strict=True)):
            if v is rows.ABSENT:
                continue
            fn = fmt.column_json[i] if fmt.column_json is not None and fmt.column_json[i] else None
            d[json.loads(k)] = json.loads(fn(v)) if fn is not None and v is not None else v
        return ENCODE(envelope_image(d))

    decoded = rows.decode_rows(plan, body, start, end, present1, present2, base)
    if op == "c":
        return [("null", image(row)) for row in decoded]
    if op == "d":
        return [(image(row), "null") for row in decoded]
    return [(image(b), image(a)) for b, a in decoded]


def reference(plan, fmt, body, start, end, present1, present2, base, op, total0, table0):
    images = reference_images(plan, fmt, body, start, end, present1, present2, base, op)
    out = [f"{PARTS[0]}{before}{PARTS[1]}{after}{PARTS[2]}{n}{PARTS[3]}{total0 + n + 1}{PARTS[4]}"
           f"{table0 + n + 1}{PARTS[5]}" for n, (before, after) in enumerate(images)]
    return "".join(out).encode("ascii"), len(images)


def split_images(got: rows.RenderedImages) -> list[tuple[str, str]]:
    """render_images' two columns back to each row's (before, after), checking the offsets."""
    sides = []
    for text, raw in ((got.before, got.before_offsets), (got.after, got.after_offsets)):
        offsets = struct.unpack(f"={got.rows + 1}i", raw)
        assert offsets[0] == 0 and offsets[-1] == len(text) and list(offsets) == sorted(offsets)
        sides.append([text[a:b].decode("ascii") for a, b in itertools.pairwise(offsets)])
    return list(zip(*sides, strict=True))


def render_all(plan, body, present1=b"\xff" * 13, present2=None, *, op="c", fmt=None, start=0, end=None,
               base=0, total0=0, table0=0):
    """(compiled, pure, reference) results of one render_rows call; each twin's render_images must
    give the same images (or the same error) as the reference."""
    fmt = fmt or _fmt(plan)
    end = len(body) if end is None else end

    def call():
        return rows.render_rows(plan, fmt, body, start, end, present1, present2, base, op=op, parts=PARTS,
                                total0=total0, table0=table0)

    def images():
        return split_images(rows.render_images(plan, fmt, body, start, end, present1, present2, base, op=op))

    ref_images = _run(_twin, lambda: reference_images(plan, fmt, body, start, end, present1, present2, base, op))
    assert _run(speedups.load_compiled(), images) == _run(_twin, images) == ref_images
    ref = _run(_twin, lambda: reference(plan, fmt, body, start, end, present1, present2, base, op, total0,
                                        table0))
    return _run(speedups.load_compiled(), call), _run(_twin, call), ref


def assert_same(plan, body, *args, **kw):
    compiled, pure, ref = render_all(plan, body, *args, **kw)
    assert compiled == pure == ref
    return compiled


# ------------------------------------------------------------------------------- whole row images

@pytest.mark.parametrize("options", [Options(), Options(json_as="text"),
                                     Options(decimal_as="str", json_as="text", pad_char=True,
                                             invalid_temporal_as="none", strings_as_bytes=True),
                                     Options(charset_errors="backslashreplace")])
def test_every_mariadb_column_type(options):
    """lab.all_types row_unicode (100 columns: every type MariaDB 10.11 writes, NULLs, invalid
    dates, JSON, geometry, ENUM/SET, COMPRESSED, cp1252 latin1, BINARY padding)."""
    plan = all_types_plan(options)
    got = assert_same(plan, ALL_TYPES_ROW, ALL_TYPES_PRESENT)
    assert got[0] == "ok" and got[1][1] == 1
    line = json.loads(got[1][0])
    assert line["after"]["c0"] == 5 and line["before"] is None and line["row"] == 0


def test_insert_update_delete_minimal_images_and_offsets():
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    nulls = b"\xf5" + V_STR + V_DT
    for op in ("c", "d"):
        got = assert_same(plan, b"HEAD" + row + nulls + b"CRC!", b"\x0f", start=4, end=4 + len(row) + len(nulls),
                          op=op, total0=10, table0=3)
        assert got[1][1] == 2
    # MINIMAL update: before = key + changed column, after = the changed column only (NULL)
    body = (b"\x00" + V_INT + V_DEC + b"\x01") * 3
    got = assert_same(plan, body, b"\x05", b"\x04", op="u")
    first = json.loads(got[1][0].splitlines()[0])
    assert first == {"before": {"c0": 42, "c2": "-0.01"}, "after": {"c2": None}, "row": 0, "total": 1, "table": 1}
    assert assert_same(plan, b"", b"\x0f")[1] == (b"", 0)


@pytest.mark.parametrize("case", ["overrun", "leftover", "bad decimal", "too long", "no columns", "short bitmap",
                                  "bad range"])
def test_errors_are_those_of_decode_rows(case):
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    present, start, end = b"\x0f", 0, None
    body = {"overrun": row + row[:6], "leftover": row + b"\x00", "too long": b"\x00" + V_INT + b"\x51" + b"x" * 81,
            "bad decimal": b"xx" + b"\x00" + V_INT + V_STR + bytes.fromhex("8000ff") + V_DT,
            "no columns": b"\x00\x00", "short bitmap": row, "bad range": row}[case]
    if case == "bad decimal":
        start = 2
    if case == "no columns":
        present = b"\x00"
    if case == "short bitmap":
        present = b""
    if case == "bad range":
        end = len(row) + 1
    compiled, pure, ref = render_all(plan, body, present, start=start, end=end, base=500)
    assert compiled[0] == "error" and compiled == pure == ref


def test_mutated_rows_fail_like_decode_rows():
    """Truncations and byte flips of the 100-column row: the renderer reads through the same bounded
    cursor, so every mutation gives decode_rows' result (an error of the same type at the same
    column and offset, or the same values) on both twins."""
    plan = all_types_plan(Options(json_as="text"))
    rr = random.Random(11)
    for _ in range(400):
        body = bytearray(ALL_TYPES_ROW)
        if rr.random() < 0.3:
            body = body[:rr.randrange(len(body))]
        for _ in range(rr.randint(1, 4)):
            body[rr.randrange(len(body))] = rr.randrange(256)
        compiled, pure, ref = render_all(plan, bytes(body), ALL_TYPES_PRESENT, base=1000)
        assert compiled == pure == ref, bytes(body).hex()


# The corruption each value reader (_speedups/values/*.pxi) finds: one reader serves decode_rows and
# render_rows, so both report it alike -- the same message from the compiled core, the same error
# type, column and offset as the twin.
READER_ERRORS = [
    (T.VARCHAR, 20, b"\x15" + b"x" * 21, "string of 21 bytes exceeds the column maximum of 20"),
    (T.DATETIME2, 0, bytes(5), "DATETIME2 with the sign bit cleared (negative datetime)"),
    (T.TIMESTAMP2, 6, b"\x00\x00\x00\x01\xff\xff\xff", "TIMESTAMP fraction 16777215 is not below one second"),
    (T.NEWDECIMAL, 10 << 8, bytes.fromhex("803b9aca00"), "DECIMAL(10,0) digit group 1000000000 has more than 9 digits"),
]


@pytest.mark.parametrize("ctype,meta,raw,message", READER_ERRORS + [
    (T.STRING, 0xF701, b"\x03", "ENUM index 3 beyond its 2 members")])
def test_reader_errors_are_the_same_in_both_consumers(ctype, meta, raw, message):
    extra = {"enum_values": (("a", "b"),)} if ctype == T.STRING else {}
    plan = rows.build_plan(tm((T.LONG, ctype), (0, meta), **extra), Options())
    body = b"\x00" + V_INT + raw
    compiled, pure, ref = render_all(plan, body, b"\x03", base=100)
    assert compiled == pure == ref == ("error", CorruptEventError, 1, 105)
    messages = []
    for fn in (lambda: rows.decode_rows(plan, body, 0, len(body), b"\x03", None, 100),
               lambda: rows.render_rows(plan, _fmt(plan), body, 0, len(body), b"\x03", None, 100, op="c",
                                        parts=PARTS)):
        with pytest.raises(CorruptEventError) as e:
            _run_raw(speedups.load_compiled(), fn)
        messages.append(e.value.message)
    assert messages == [message, message]


def _run_raw(impl, fn):
    saved = speedups.impl
    speedups.impl = impl
    try:
        return fn()
    finally:
        speedups.impl = saved


# ------------------------------------------------------------------------------- tricky values

def one(ctype, meta, raw, options=None, **extra):
    """The JSON text of one value (compiled == pure == reference asserted)."""
    plan = rows.build_plan(tm((ctype,), (meta,), **extra), options or Options())
    got = assert_same(plan, b"\x00" + raw, b"\x01")
    assert got[0] == "ok", got
    line = got[1][0].decode("ascii")
    return line[len('{"before":null,"after":{"c0":'):line.index('},"row":')]


def _vs(text: bytes) -> bytes:
    return bytes([len(text)]) + text


@pytest.mark.parametrize("text", [
    "", "plain", 'q"uote', "back\\slash", "/slash", "\b\f\n\r\t", "\x00\x01\x1f", "\x7f del", "é ü ß",
    "日本語", "\u2028\u2029", "😀 🧑‍🤝‍🧑", "\U0010ffff", "\ufeff bom", "12345678\n12345678", "a" * 200,
    # each character json escapes inside and at the ends of 8-byte ASCII runs (the word-at-a-time path)
    *(f"abcdefgh{c}ijklmnop" for c in '"\\\x00\x1f\x7f\x20~'), *(f"{c}1234567" for c in '"\\\x01\x7f'),
    *(f"1234567{c}" for c in '"\\\x01\x7f'), "ü1234567890abcdef",
])
def test_utf8_text(text):
    assert one(T.VARCHAR, 255, _vs(text.encode()), column_charsets=(45,)) == ENCODE(text)


@pytest.mark.parametrize("errors", ["surrogateescape", "replace", "backslashreplace", "strict"])
def test_ill_formed_utf8_under_each_handler(errors):
    rr = random.Random(3)
    for raw in ILL_FORMED + [rr.randbytes(rr.randint(1, 40)) for _ in range(200)]:
        plan = rows.build_plan(tm((T.VARCHAR,), (255,), column_charsets=(45,)), Options(charset_errors=errors))
        compiled, pure, ref = render_all(plan, b"\x00" + _vs(raw), b"\x01")
        assert compiled == pure == ref, raw
        try:
            want = ENCODE(raw.decode("utf-8", errors))
        except UnicodeDecodeError:
            assert compiled[0] == "error"
            continue
        assert f'"c0":{want}' in compiled[1][0].decode("ascii")


def test_latin1_is_cp1252_and_other_charsets():
    # MySQL's latin1 (collation 8) is cp1252: 0x80 is the euro sign
    assert one(T.VARCHAR, 100, _vs(b"caf\xe9 \x80"), column_charsets=(8,)) == ENCODE("café €")
    assert one(T.VARCHAR, 255, _vs(bytes(range(0x80, 0x100))), column_charsets=(8,)).startswith('"\\u20ac')
    assert one(T.VARCHAR, 100, _vs("żółw".encode("iso8859_2")), column_charsets=(9,)) == ENCODE("żółw")


def test_binary_is_base64_with_restored_padding():
    assert one(T.STRING, 0xFE10, _vs(b"ab"), column_charsets=(63,)) == ENCODE("YWIAAAAAAAAAAAAAAAAAAA==")
    for n in range(0, 10):
        raw = bytes(range(n))
        assert one(T.VARCHAR, 20, _vs(raw), column_charsets=(63,)) == ENCODE(__import__("base64").b64encode(raw)
                                                                             .decode())
        assert one(T.BLOB, 2, n.to_bytes(2, "little") + raw, column_charsets=(63,)).startswith('"')


@pytest.mark.parametrize("text,precision,scale", [
    ("0.00", 5, 2), ("-0.00", 5, 2), ("0.00000000", 10, 8), ("-0.00000000", 10, 8), ("0.0000001", 10, 7),
    ("0.00000012", 10, 8), ("0.000001", 10, 6), ("0.0000010", 10, 7), ("-0.00000100", 12, 8),
    ("1.00000000", 12, 8), ("12345678901234567890123456789012345.123456789012345678901234567890", 65, 30),
    ("-" + "9" * 35 + "." + "9" * 30, 65, 30), ("0." + "0" * 29 + "1", 65, 30), ("0." + "0" * 30, 65, 30),
    ("999999999", 9, 0), ("-1", 1, 0), ("0", 10, 0), ("123.4", 4, 1), ("0.5", 1, 1), ("-0.000000001", 10, 9),
])
def test_decimal_text_is_plain_with_the_scale(text, precision, scale):
    """Plain notation with exactly the column's scale (DECIMAL(10,8) zero is "0.00000000", -1e-9 in
    DECIMAL(10,9) "-0.000000001"), never str(Decimal)'s exponent form ("0E-8", "-1E-9"), which the
    CLI wrote before (issue #30, "DECIMAL notation")."""
    from decimal import Decimal

    raw = _decimal_bin(text, precision, scale)
    got = one(T.NEWDECIMAL, precision << 8 | scale, raw)
    assert got == ENCODE(format(Decimal(text), "f")) and "E" not in got
    assert len(got.strip('"').partition(".")[2]) == scale
    assert one(T.NEWDECIMAL, precision << 8 | scale, raw, Options(decimal_as="str")).strip('"').lstrip("-") \
        .replace(".", "").lstrip("0") == text.lstrip("-").replace(".", "").lstrip("0")


def _dt2(y, mo, d, h, mi, s, fsp, us=0):
    packed = ((y * 13 + mo) << 22 | d << 17 | h << 12 | mi << 6 | s) | (1 << 39)
    nfrac = (fsp + 1) // 2
    return packed.to_bytes(5, "big") + (us // 10 ** (6 - 2 * nfrac) if nfrac else 0).to_bytes(nfrac, "big")


@pytest.mark.parametrize("fsp", range(7))
def test_temporal_fsp(fsp):
    us = [0, 100000, 120000, 123000, 123400, 123450, 123456][fsp]
    assert one(T.DATETIME2, fsp, _dt2(2024, 2, 29, 23, 59, 59, fsp, us)) == \
        ENCODE("2024-02-29T23:59:59" + (f".{us:06d}" if us else ""))
    assert one(T.DATETIME2, fsp, _dt2(1, 1, 1, 0, 0, 0, fsp)) == ENCODE("0001-01-01T00:00:00")
    # TIMESTAMP2: UTC epoch seconds (big-endian) + fraction
    nfrac = (fsp + 1) // 2
    frac = (us // 10 ** (6 - 2 * nfrac) if nfrac else 0).to_bytes(nfrac, "big")
    assert one(T.TIMESTAMP2, fsp, (1709251199).to_bytes(4, "big") + frac) == \
        ENCODE("2024-02-29T23:59:59" + (f".{us:06d}" if us else "") + "Z")
    assert one(T.TIMESTAMP2, fsp, (2 ** 32 - 1).to_bytes(4, "big") + frac).startswith('"2106-02-07T06:28:15')
    # TIME2 (sql-common/my_time.cc my_time_packed_to_binary): 3 bytes of 0x800000 + the signed
    # h<<12|m<<6|s, then the fraction; fsp 5-6 store (hms << 24 | us) in 6 bytes
    if fsp in (0, 6):
        for h, m, sec, neg in [(0, 0, 0, False), (0, 0, 1, True), (838, 59, 59, False), (838, 59, 59, True),
                               (12, 34, 56, False), (1, 0, 0, True)]:
            hms = h << 12 | m << 6 | sec
            if fsp == 0:
                raw = (0x800000 + (-hms if neg else hms)).to_bytes(3, "big")
                want = ("-" if neg else "") + f"{h:02d}:{m:02d}:{sec:02d}"
            else:
                packed = hms << 24 | us
                raw = (0x800000000000 + (-packed if neg else packed)).to_bytes(6, "big")
                want = ("-" if neg else "") + f"{h:02d}:{m:02d}:{sec:02d}.{us:06d}"
            assert one(T.TIME2, fsp, raw) == ENCODE(want)


def test_zero_and_invalid_dates():
    assert one(T.DATE, 0, b"\x00\x00\x00") == ENCODE("0000-00-00")
    assert one(T.DATE, 0, (2020 << 9 | 0 << 5 | 15).to_bytes(3, "little")) == ENCODE("2020-00-15")
    assert one(T.DATE, 0, b"\x00\x00\x00", Options(invalid_temporal_as="none")) == "null"
    assert one(T.DATETIME2, 0, _dt2(0, 0, 0, 0, 0, 0, 0)) == ENCODE("0000-00-00 00:00:00")
    assert one(T.TIMESTAMP2, 3, b"\x00" * 6) == ENCODE("0000-00-00 00:00:00.000")
    assert one(T.TIMESTAMP, 0, b"\x00" * 4) == ENCODE("0000-00-00 00:00:00")
    assert one(T.DATE, 0, (9999 << 9 | 12 << 5 | 31).to_bytes(3, "little")) == ENCODE("9999-12-31")
    assert one(T.YEAR, 0, b"\x00") == "0" and one(T.YEAR, 0, b"\xff") == "2155"


@pytest.mark.parametrize("ctype,size", [(T.TINY, 1), (T.SHORT, 2), (T.INT24, 3), (T.LONG, 4), (T.LONGLONG, 8)])
def test_integer_extremes(ctype, size):
    bits = 8 * size
    for unsigned, values in ((True, [0, 1, 2 ** bits - 1]), (False, [0, -1, -(2 ** (bits - 1)), 2 ** (bits - 1) - 1])):
        for v in values:
            raw = (v % 2 ** bits).to_bytes(size, "little")
            assert one(ctype, 0, raw, signedness=(unsigned,)) == str(v)


def test_floats():
    doubles = [0.0, -0.0, 1.0, 0.1, -1.5, 1e16, 1e15, 1e-4, 1e-5, 5e-324, 1.7976931348623157e308,
               161582.34966680896, 123456789.0, float("inf"), float("-inf"), float("nan")]
    for x in doubles:
        got = one(T.DOUBLE, 8, struct.pack("<d", x))
        assert got == (ENCODE(repr(x) if not math.isfinite(x) else x) if not math.isfinite(x) else repr(x))
    for x in [0.1, 3.4028234663852886e38, 1.401298464324817e-45, -2.5, 16777217.0]:
        f = struct.unpack("<f", struct.pack("<f", x))[0]
        assert one(T.FLOAT, 4, struct.pack("<f", x)) == repr(f)


def test_float_repr_matches_python():
    """floatrepr.pxi (Ryu) against repr() on random bit patterns, random FLOATs and short decimals."""
    compiled = speedups.load_compiled()
    assert compiled._ryu_enabled()
    rr = random.Random(5)
    values = [struct.unpack("<d", struct.pack("<Q", rr.getrandbits(64)))[0] for _ in range(100_000)]
    values += [struct.unpack("<f", struct.pack("<I", rr.getrandbits(32)))[0] for _ in range(50_000)]
    values += [rr.randint(-10 ** 12, 10 ** 12) / 10 ** rr.randint(0, 20) for _ in range(50_000)]
    values += [2.0 ** e for e in range(-1074, 1024)] + [10.0 ** e for e in range(-323, 309)]
    for x in values:
        if math.isfinite(x):
            assert compiled._repr_float(x) == repr(x)


def test_enum_set_bit():
    names = (("a", "ünï", 'q"', "😀"),)
    plan_meta = 0xF701   # ENUM, 1 byte
    for idx, want in [(0, '""'), (1, '"a"'), (2, ENCODE("ünï")), (3, ENCODE('q"')), (4, ENCODE("😀"))]:
        assert one(T.STRING, plan_meta, bytes([idx]), enum_values=names) == want
    assert one(T.STRING, plan_meta, b"\x07") == "7"                                      # no names: the index
    plan = rows.build_plan(tm((T.STRING,), (plan_meta,), enum_values=names), Options())
    compiled, pure, ref = render_all(plan, b"\x00\x05", b"\x01")
    assert compiled[0] == "error" and compiled == pure == ref                           # index past the names
    assert one(T.STRING, 0xF802, b"\x05\x01", set_values=(tuple("abcdefghij"),)) == ENCODE("a,c,i")
    assert one(T.STRING, 0xF808, b"\xff" * 8) == str(2 ** 64 - 1)
    assert one(T.BIT, 8 << 8, b"\xff" * 8) == str(2 ** 64 - 1) and one(T.BIT, 1, b"\x01") == "1"


def test_column_json_replaces_value_json():
    plan = rows.build_plan(tm((T.LONG, T.VARCHAR), (0, 80), column_charsets=(45,)), Options())
    fmt = _fmt(plan, ["id", "doc"], [None, lambda v: ENCODE({"parsed": v})])
    body = b"\x00" + V_INT + V_STR + b"\x02" + V_INT
    got = assert_same(plan, body, b"\x03", fmt=fmt)
    assert [json.loads(x)["after"] for x in got[1][0].splitlines()] == [{"id": 42, "doc": {"parsed": "hi"}},
                                                                         {"id": 42, "doc": None}]


def test_format_and_arguments_are_checked():
    plan = rows.build_plan(FOUR, Options())
    with pytest.raises(ValueError):
        rows.render_rows(plan, _fmt(rows.build_plan(tm((T.LONG,), (0,)), Options())), b"", 0, 0, b"\x0f",
                         op="c", parts=PARTS)
    with pytest.raises(ValueError):
        rows.render_rows(plan, _fmt(plan), b"", 0, 0, b"\x0f", op="u", parts=PARTS)   # u needs present2
    with pytest.raises(MysqlddlError):
        rows.render_rows(plan, _fmt(plan), b"", 0, 0, b"\x0f", op="x", parts=PARTS)


def test_names_need_json_keys():
    plan = rows.build_plan(tm((T.LONG,), (0,)), Options())
    got = assert_same(plan, b"\x00" + V_INT, b"\x01", fmt=_fmt(plan, ['we"ird\nnäme']))
    assert json.loads(got[1][0])["after"] == {'we"ird\nnäme': 42}


def test_twin_format_is_its_input():
    fmt = types.SimpleNamespace(keys=("a",))
    assert _twin.compile_json_format((1,), fmt) is fmt


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure"])
def test_render_images_limit_is_an_overflow(compiled):
    """A caller appending to an Arrow column passes the room left in its int32 offsets: a side whose
    text would pass it is an OverflowError, not wrapped offsets (both twins)."""
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    fmt = _fmt(plan)

    def call(limit, op="c"):
        return _run(speedups.load_compiled() if compiled else _twin, lambda: rows.render_images(
            plan, fmt, row * 3, 0, len(row) * 3, b"\x0f", op=op, limit=limit))[1]

    whole = call(rows.INT32_MAX)
    assert whole.rows == 3 and whole.before == b"null" * 3 and call(len(whole.after)) == whole
    with pytest.raises(OverflowError):
        call(len(whole.after) - 1)
    assert call(len(whole.after), op="d").before == whole.after
    with pytest.raises(ValueError):
        call(rows.INT32_MAX + 1)


def test_a_value_callable_rendering_with_the_same_format_is_refused():
    """A column callable that calls the renderer again with the format being rendered: the inner
    call is refused (RuntimeError) before it touches the format's buffers, so the outer call, here
    over 4 MiB of text (the size at which its buffer is given back), still gives the right bytes."""
    plan = rows.build_plan(tm((T.LONG, T.VARCHAR), (0, 80), column_charsets=(45,)), Options())
    one_row = b"\x00" + V_INT + V_STR
    refused, active = [], []

    def inner(v):
        if active:                  # the pure twin has no buffers to guard: it renders the inner call
            return "1"
        active.append(1)
        for fn in (lambda: rows.render_rows(plan, fmt, one_row, 0, len(one_row), b"\x03", op="c", parts=PARTS),
                   lambda: rows.render_images(plan, fmt, one_row, 0, len(one_row), b"\x03", op="c")):
            try:
                fn()
            except RuntimeError:
                refused.append(speedups.impl.IMPLEMENTATION)
        active.clear()
        return "1"

    fmt = _fmt(plan, ["id", "doc"], [None, inner])
    compiled, pure, ref = render_all(plan, one_row * 3, b"\x03", fmt=fmt)
    assert compiled == pure == ref and compiled[0] == "ok"
    assert refused == [speedups.load_compiled().IMPLEMENTATION] * 12     # 3 rows x 2 calls, render_all's 2
    body = one_row * 300_000
    got = _run(speedups.load_compiled(), lambda: rows.render_images(plan, fmt, body, 0, len(body), b"\x03", op="c"))
    assert got[0] == "ok" and got[1].rows == 300_000 and len(got[1].after) > 4 << 20
    assert set(split_images(got[1])) == {("null", '{"id":42,"doc":1}')}
