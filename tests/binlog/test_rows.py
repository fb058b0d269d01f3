"""TABLE_MAP column metadata, decode plans and row images (rows.parse_column_metadata, build_plan,
decode_rows) on both twins.

Row-image layout under test (sql/log_event.cc Rows_log_event): per image a null bitmap over the
*present* columns, then one value per present non-NULL column; UPDATE rows are before/after pairs.
"""

from __future__ import annotations

import pickle
import types
from decimal import Decimal

import pytest

from mysqlddl.binlog import rows
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.errors import CorruptEventError, RowImageOverrunError, TruncatedError
from mysqlddl.options import Dialect, Options

# MariaDB 10.11.19 (lab server), TABLE_MAP of lab.all_types (../shared/lab/workload.py phase a):
# its column types and the metadata block exactly as logged.
ALL_TYPES_TYPES = (3, 1, 1, 1, 2, 2, 9, 9, 3, 3, 8, 8, 3, 246, 246, 246, 246, 246, 246, 246, 246, 246, 246, 246,
                   4, 5, 16, 16, 16, 10, 19, 19, 19, 19, 19, 19, 19, 18, 18, 18, 18, 18, 18, 18, 17, 17, 17, 17,
                   17, 17, 17, 13, 254, 254, 254, 254, 254, 254, 15, 15, 15, 15, 15, 15, 15, 141, 252, 252, 252,
                   252, 252, 140, 252, 252, 252, 252, 140, 254, 254, 254, 254, 254, 252, 255, 255, 255, 255, 255,
                   255, 255, 255, 254, 254, 254, 8, 15, 3, 3, 15, 17)
ALL_TYPES_META = bytes.fromhex(
    "0100050209090a04120914001e0a26264100411e0a020408010005000008000102030405060001020304050600010203040506"
    "fe00fe28cefcfe0afefffe10fc00fc032c01ff002c01ff00e803a10f0102030402020102030402f701f702f801f802f808"
    "040404040404040404fe10fe04fe100001500003")


def test_parse_column_metadata_of_a_real_table_map():
    meta = rows.parse_column_metadata(ALL_TYPES_TYPES, ALL_TYPES_META)
    assert len(meta) == 100
    # DECIMAL(1,0), DECIMAL(65,30), DECIMAL(10,2) UNSIGNED: precision << 8 | scale
    assert (meta[13], meta[22], meta[23]) == (1 << 8, 65 << 8 | 30, 10 << 8 | 2)
    assert (meta[24], meta[25]) == (4, 8)                       # FLOAT, DOUBLE pack lengths
    assert (meta[26], meta[27], meta[28]) == (1, 5, 8 << 8)    # BIT(1), BIT(5), BIT(64)
    assert meta[30:37] == (0, 1, 2, 3, 4, 5, 6)                # TIME(0..6) fsp
    assert rows.string_real_type(meta[54]) == (T.STRING, 1020)  # CHAR(255) utf8mb4: length bits in byte 0
    assert rows.string_real_type(meta[57]) == (T.STRING, 16)    # BINARY(16)
    assert (meta[59], meta[62], meta[65]) == (1020, 300, 4001)  # VARCHAR(255) utf8mb4, (300) latin1, COMPRESSED
    assert meta[66:70] == (1, 2, 3, 4)                         # TINY/TEXT/MEDIUM/LONGTEXT length widths
    assert [rows.string_real_type(m) for m in meta[77:82]] == [(T.ENUM, 1), (T.ENUM, 2), (T.SET, 1), (T.SET, 2),
                                                                (T.SET, 8)]
    assert meta[83:91] == (4,) * 8                              # geometry columns
    assert meta[99] == 3                                       # TIMESTAMP(3)


@pytest.mark.parametrize("block", [ALL_TYPES_META[:-1], ALL_TYPES_META + b"\x00"])
def test_parse_column_metadata_needs_exact_consumption(block):
    with pytest.raises(CorruptEventError):
        rows.parse_column_metadata(ALL_TYPES_TYPES, block)


def test_parse_column_metadata_vector_and_unknown_types():
    # VECTOR (MySQL 9, type 242): 1 byte (length width); TYPED_ARRAY and other unknowns: none
    assert rows.parse_column_metadata((3, 242, 20, 15), b"\x04\x10\x00") == (0, 4, 0, 16)


# ----------------------------------------------------------------------------------- build_plan

def tm(column_types, metadata, **optional):
    return types.SimpleNamespace(column_types=tuple(column_types), column_metadata=tuple(metadata),
                                 null_bitmap=b"\xff" * ((len(column_types) + 7) // 8), database="db",
                                 table="t", **optional)


def test_build_plan_uses_optional_metadata():
    # TINY, VARCHAR, ENUM, LONG, BLOB, BINARY(3): signedness per numeric column (MSB-first bitmap in
    # the event, one bool each here), DEFAULT_CHARSET with an exception for character column 2.
    t = tm((T.TINY, T.VARCHAR, T.STRING, T.LONG, T.BLOB, T.STRING), (0, 80, 0xF701, 0, 2, 0xFE03),
           signedness=(True, False), default_charset=(33, ((2, 63),)),
           enum_values=((b"sm\xc3\xa4ll", b"large"),))
    plan = rows.build_plan(t, Options())
    c = plan.columns
    assert (c[0].unsigned, c[3].unsigned) == (True, False)
    assert (c[1].encoding, c[4].encoding, c[5].encoding) == ("utf-8", "utf-8", None)
    assert c[5].pad_bytes == 3
    assert c[2].type == T.ENUM and c[2].names == ("smäll", "large")
    assert rows.build_plan(t, Options()) is plan      # a repeated TABLE_MAP reuses its plan


def test_mariadb_counts_geometry_among_charset_columns():
    t = tm((T.VARCHAR, T.GEOMETRY, T.VARCHAR), (80, 4, 80), column_charsets=(8, 63, 45))
    c = rows.build_plan(t, Options()).columns
    assert (c[0].encoding, c[2].encoding) == ("mysql-latin1", "utf-8")
    t2 = tm((T.VARCHAR, T.GEOMETRY, T.VARCHAR), (80, 4, 80), column_charsets=(8, 45))   # MySQL's count
    c2 = rows.build_plan(t2, Options()).columns
    assert (c2[0].encoding, c2[2].encoding) == ("mysql-latin1", "utf-8")
    t3 = tm((T.VARCHAR, T.GEOMETRY, T.VARCHAR), (80, 4, 80), default_charset=(45, ((2, 8),)))
    c3 = rows.build_plan(t3, Options(dialect=Dialect.MARIADB)).columns
    assert (c3[0].encoding, c3[2].encoding) == ("utf-8", "mysql-latin1")


def test_schema_columns_win_over_the_table_map():
    t = tm((T.LONG, T.VARCHAR, T.TIME), (0, 80, 0), signedness=(False,))
    plan = rows.build_plan(t, Options(), columns=[{"unsigned": True}, {"charset": "latin1"}, {"fsp": 3}])
    c = plan.columns
    assert (c[0].unsigned, c[1].encoding, c[2].fsp) == (True, "mysql-latin1", 3)


@pytest.mark.parametrize("ctype,meta", [(T.NEWDECIMAL, 70 << 8), (T.NEWDECIMAL, 5 << 8 | 6), (T.BLOB, 5),
                                        (T.BIT, 9 << 8), (T.TIME2, 7), (T.STRING, 0xF703)])
def test_impossible_metadata_is_corrupt(ctype, meta):
    with pytest.raises(CorruptEventError) as e:
        rows.build_plan(tm((T.LONG, ctype), (0, meta)), Options())
    assert e.value.column == 1


# ------------------------------------------------------------------------------------- decode_rows

# Four columns: INT, VARCHAR(20) utf8mb4 (meta 80), DECIMAL(5,2), DATETIME2(0)
FOUR = tm((T.LONG, T.VARCHAR, T.NEWDECIMAL, T.DATETIME2), (0, 80, 5 << 8 | 2, 0), column_charsets=(45,))
V_INT = bytes.fromhex("2a000000")             # 42
V_STR = bytes.fromhex("02686921")[:3]         # 'hi'
V_DEC = bytes.fromhex("7ffffe")               # -0.01 (MariaDB c_d5_2, row_unicode)
V_DT = bytes.fromhex("99b2bb7efb")            # 2024-02-29 23:59:59


def test_insert_images_with_nulls_and_padding_bits(twin):
    import datetime as dt

    plan = rows.build_plan(FOUR, Options())
    row1 = b"\xf0" + V_INT + V_STR + V_DEC + V_DT     # null bitmap: padding bits 4-7 set, no NULLs
    row2 = b"\xf5" + V_STR + V_DT                      # columns 0 and 2 NULL
    body = row1 + row2
    got = rows.decode_rows(plan, body, 0, len(body), b"\xff", None)   # present bitmap padding set too
    assert got == [(42, "hi", Decimal("-0.01"), dt.datetime(2024, 2, 29, 23, 59, 59)),
                   (None, "hi", None, dt.datetime(2024, 2, 29, 23, 59, 59))]


def test_update_pairs_and_minimal_images(twin):
    plan = rows.build_plan(FOUR, Options())
    # before image: columns 0 and 2 present (MINIMAL: the key + what changed); after: columns 2 only
    before = b"\x00" + V_INT + V_DEC
    after = b"\x01"                                    # the one present column is NULL
    body = (before + after) * 2
    got = rows.decode_rows(plan, body, 0, len(body), b"\x05", b"\x04")
    A = rows.ABSENT
    assert got == [((42, A, Decimal("-0.01"), A), (A, A, None, A))] * 2
    assert got[0][1][0] is A and got[0][1][2] is None


def test_update_after_image_shares_unchanged_values(twin):
    """The compiled decoder gives an after-image value whose bytes equal the before image's as the
    before image's (immutable) object instead of building an equal one; the values are the twin's."""
    import datetime as dt

    plan = rows.build_plan(FOUR, Options())
    V_STR2 = bytes.fromhex("02686f")                   # 'ho': same length as 'hi', other bytes
    V_STR3 = bytes.fromhex("03686921")                 # 'hi!': a longer value
    V_DT2 = bytes.fromhex("99b2bb7efa")                # 2024-02-29 23:59:58
    pairs = [(b"\x00" + V_INT + V_STR + V_DEC + V_DT, b"\x00" + V_INT + V_STR2 + V_DEC + V_DT2),
             (b"\x02" + V_INT + V_DEC + V_DT, b"\x00" + V_INT + V_STR + V_DEC + V_DT),   # 1 was NULL
             (b"\x00" + V_INT + V_STR + V_DEC + V_DT, b"\x00" + V_INT + V_STR3 + V_DEC + V_DT)]
    body = b"".join(b + a for b, a in pairs)
    got = rows.decode_rows(plan, body, 0, len(body), b"\x0f", b"\x0f")
    t1, t2 = dt.datetime(2024, 2, 29, 23, 59, 59), dt.datetime(2024, 2, 29, 23, 59, 58)
    d = Decimal("-0.01")
    assert got == [((42, "hi", d, t1), (42, "ho", d, t2)), ((42, None, d, t1), (42, "hi", d, t1)),
                   ((42, "hi", d, t1), (42, "hi!", d, t1))]
    if twin.IMPLEMENTATION == "compiled":
        shared = [[a is b for a, b in zip(*pair, strict=True)] for pair in got]
        assert shared == [[True, False, True, False], [True, False, True, True], [True, False, True, True]]


def test_update_sharing_spans_minimal_images_and_stops_at_the_image_end(twin):
    import datetime as dt

    plan = rows.build_plan(FOUR, Options())
    before = b"\x00" + V_INT + V_DEC                    # MINIMAL before image: columns 0 and 2
    after = b"\x00" + V_INT + V_STR + V_DEC + V_DT       # all four
    got = rows.decode_rows(plan, before + after, 0, len(before + after), b"\x05", b"\x0f")
    A = rows.ABSENT
    d = Decimal("-0.01")
    assert got == [((42, A, d, A), (42, "hi", d, dt.datetime(2024, 2, 29, 23, 59, 59)))]
    full = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    for cut in range(1, len(full)):   # an after image cut anywhere, the unchanged values included
        body = full + full[:cut]
        with pytest.raises(RowImageOverrunError):
            rows.decode_rows(plan, body, 0, len(body), b"\x0f", b"\x0f")


def test_update_json_values_are_never_shared(twin):
    """A JSON value is a dict or list, which a consumer may change: equal bytes still give the after
    image an object of its own."""
    plan = rows.build_plan(tm((T.LONG, T.JSON), (0, 4)), Options())
    doc = bytes.fromhex("00" "0100" "0c00" "0b00" "0100" "050100" "61")          # {"a": 1}
    image = b"\x00" + V_INT + len(doc).to_bytes(4, "little") + doc
    (before, after), = rows.decode_rows(plan, image * 2, 0, 2 * len(image), b"\x03", b"\x03")
    assert before == after == (42, {"a": 1}) and after[1] is not before[1]
    after[1]["a"] = 2
    assert before[1] == {"a": 1}


def test_rows_inside_a_larger_buffer_use_absolute_offsets(twin):
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    buf = b"HEADER" + row + b"CRC!"
    assert rows.decode_rows(plan, buf, 6, 6 + len(row), b"\x0f") == rows.decode_rows(plan, row, 0, len(row), b"\x0f")


def test_a_row_running_past_the_body_is_an_overrun(twin):
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    body = row + row[:6]                 # a second row cut inside its VARCHAR
    with pytest.raises(RowImageOverrunError) as e:
        rows.decode_rows(plan, body, 0, len(body), b"\x0f", None, base=1000)
    err = e.value
    assert isinstance(err, CorruptEventError) and isinstance(err, TruncatedError)
    assert err.column == 1 and err.offset == 1000 + len(row) + 5 + 1   # the string's bytes after its length


def test_leftover_byte_is_corrupt(twin):
    plan = rows.build_plan(FOUR, Options())
    row = b"\x00" + V_INT + V_STR + V_DEC + V_DT
    with pytest.raises(CorruptEventError):
        rows.decode_rows(plan, row + b"\x00", 0, len(row) + 1, b"\x0f")


def test_bad_value_error_carries_column_and_offset(twin):
    plan = rows.build_plan(FOUR, Options())
    bad_dec = bytes.fromhex("8000ff")     # fraction byte 0xff = 255 > 99: not a DECIMAL(5,2)
    row = b"\x00" + V_INT + V_STR + bad_dec + V_DT
    with pytest.raises(CorruptEventError) as e:
        rows.decode_rows(plan, b"xx" + row, 2, 2 + len(row), b"\x0f", base=500)
    assert (e.value.column, e.value.offset) == (2, 500 + 2 + 1 + 4 + 3)


def test_string_longer_than_its_column_is_corrupt(twin):
    plan = rows.build_plan(tm((T.VARCHAR,), (3,), column_charsets=(45,)), Options())
    with pytest.raises(CorruptEventError) as e:
        rows.decode_rows(plan, b"\x00\x04abcd", 0, 6, b"\x01")
    assert e.value.column == 0 and e.value.offset == 1


def test_bytes_without_present_columns_are_corrupt(twin):
    plan = rows.build_plan(FOUR, Options())
    with pytest.raises(CorruptEventError):
        rows.decode_rows(plan, b"\x00\x00", 0, 2, b"\x00", None)
    assert rows.decode_rows(plan, b"", 0, 0, b"\x00") == []


def test_absent_sentinel():
    assert repr(rows.ABSENT) == "ABSENT" and not rows.ABSENT and rows.ABSENT is not None
    assert pickle.loads(pickle.dumps(rows.ABSENT)) is rows.ABSENT


def test_vector_column(twin):
    """VECTOR (MySQL 9.0+): no MySQL 9 server here, so the bytes follow the documented layout
    (4-byte length, float32 little-endian components); a length that is not whole floats is corrupt."""
    import struct

    plan = rows.build_plan(tm((T.VECTOR,), (4,)), Options())
    value = struct.pack("<I3f", 12, 1.5, -2.0, 0.25)
    assert rows.decode_rows(plan, b"\x00" + value, 0, 1 + len(value), b"\x01") == [((1.5, -2.0, 0.25),)]
    bad = struct.pack("<I", 3) + b"abc"
    with pytest.raises(CorruptEventError):
        rows.decode_rows(plan, b"\x00" + bad, 0, 1 + len(bad), b"\x01")


def test_partial_json_update_rows(twin):
    """PARTIAL_UPDATE_ROWS (MySQL 8, binlog_row_value_options=PARTIAL_JSON). No such event exists in
    the shared binlogs and no MySQL 8 server is available here: the bytes follow the layout of
    sql/rpl_record.cc pack_row and sql/json_diff.cc Json_diff_vector::write_binary."""
    from mysqlddl.binlog.values.jsonb import JsonDiff, JsonPartialUpdate

    plan = rows.build_plan(tm((T.LONG, T.JSON, T.JSON), (0, 4, 4)), Options())
    doc_a = bytes.fromhex("00" "0100" "0c00" "0b00" "0100" "050100" "61")          # {"a": 1}
    doc_t = bytes.fromhex("0401")                                               # true
    before = b"\x00" + V_INT + len(doc_a).to_bytes(4, "little") + doc_a + len(doc_t).to_bytes(4, "little") + doc_t
    diffs = (b"\x00\x03$.a\x03" + bytes.fromhex("050200")     # REPLACE $.a with int16 2
             + b"\x02\x03$.b")                                 # REMOVE $.b
    after = (b"\x01" + b"\x01"                                 # value_options PARTIAL_JSON_UPDATES; column 1 partial
             + b"\x00" + V_INT + len(diffs).to_bytes(4, "little") + diffs + len(doc_t).to_bytes(4, "little") + doc_t)
    plain_after = b"\x00" + before                             # value_options 0: an ordinary after image
    body = before + after + before + plain_after
    got = rows.decode_partial_update_rows(plan, body, 0, len(body), b"\x07", b"\x07")
    assert got[0] == ((42, {"a": 1}, True),
                      (42, JsonPartialUpdate((JsonDiff("replace", "$.a", 2), JsonDiff("remove", "$.b", None))), True))
    assert got[1] == ((42, {"a": 1}, True), (42, {"a": 1}, True))
    with pytest.raises(CorruptEventError) as e:
        rows.decode_partial_update_rows(plan, body[:len(before) + 5], 0, len(before) + 5, b"\x07", b"\x07")
    assert e.value.offset is not None


def test_short_present_bitmap_and_bad_range_are_typed(twin):
    plan = rows.build_plan(tm((T.LONG,) * 9, (0,) * 9), Options())   # 9 columns: 2-byte bitmaps
    with pytest.raises(TruncatedError):
        rows.decode_rows(plan, b"\x00" * 8, 0, 8, b"\xff", None)
    with pytest.raises(TruncatedError):
        rows.decode_rows(plan, b"\x00" * 8, 0, 8, b"\xff\x01", b"\xff")
    with pytest.raises(CorruptEventError):
        rows.decode_rows(plan, b"\x00" * 8, 4, 9, b"\xff\x01", None)
