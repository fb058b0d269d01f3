"""PARTIAL_UPDATE_ROWS_EVENT (type 39) end to end through the reader, on both twins.

Provenance. No file in ../shared/binlogs holds a type-39 event (every file was scanned with the
reader: types seen are 2-35, 40, 100, 161-163), and no MySQL 8 server is available here. So the
event bytes below are built from the MySQL source layout, not captured from a server:

- rows event v2 framing: libs/mysql/binlog/event/rows_event.h ``Rows_event`` (post-header
  table_id(6) flags(2) var_header_len(2); body ncols, columns-present bitmaps before/after);
- each after image: sql/rpl_record.cc ``pack_row`` with ``enum_row_image_type::UPDATE_AI``:
  binlog_row_value_options as a packed integer (``net_store_length``), then, when its
  PARTIAL_JSON_UPDATES bit (1) is set, one bit per JSON column *of the table* (LSB first), then the
  null bitmap and values; a JSON column whose partial bit is set holds ``Field_json::pack_diff``
  output, i.e. sql/json_diff.cc ``Json_diff_vector::write_binary``: a 4-byte length, then per diff
  operation(1: 0 REPLACE, 1 INSERT, 2 REMOVE), packed path length, path text
  (``Json_path::to_string``), and for REPLACE/INSERT a packed length and a binary JSON value;
- read back as sql/log_event.cc ``Rows_log_event::print_verbose_one_row`` does.

The statement the fixture stands for (MySQL 8.0.x with binlog_format=ROW, binlog_row_image=FULL,
binlog_row_value_options=PARTIAL_JSON)::

    CREATE TABLE db.t (id INT PRIMARY KEY, j JSON, note VARCHAR(10), k JSON);
    INSERT INTO db.t VALUES (1, '{"a": 1, "b": true, "c": [1]}', 'x', '[5, 6]'),
                            (2, '{"a": 1}', 'y', '[]');
    UPDATE db.t SET j = JSON_REMOVE(JSON_SET(j, '$.a', 2, '$.c[1]', 'x', '$."new key"', NULL), '$.b'),
                    k = JSON_REPLACE(k, '$[0]', 10)
        WHERE id = 1;                    -- row 1: four diffs on j, one on k
    -- and, in the same event, row 2 updated with j = NULL (no diff: value_options 0)
"""

from __future__ import annotations

import struct

import pytest

from mysqlddl.binlog.values import jsonb
from mysqlddl.binlog.values.jsonb import JsonDiff, JsonPartialUpdate
from mysqlddl.errors import CorruptEventError, RowImageOverrunError

PARTIAL_UPDATE_ROWS = 39
TABLE_MAP = 19
LONG, VARCHAR, JSON = 3, 15, 245


# ---------------------------------------------------------------- binary JSON (sql/json_binary.cc)
def _inline(v):
    """Value-entry inlined forms in a small container: literals and int16 (2 bytes)."""
    if v is None or isinstance(v, bool):
        return 0x04, (b"\x00" if v is None else b"\x01" if v else b"\x02") + b"\x00"
    if isinstance(v, int) and -(1 << 15) <= v < 1 << 15:
        return 0x05, struct.pack("<h", v)
    return None


def _value(v) -> tuple[int, bytes]:
    if isinstance(v, str):
        b = v.encode()
        assert len(b) < 128
        return 0x0C, bytes([len(b)]) + b
    if isinstance(v, (dict, list)):
        items = list(v.items()) if isinstance(v, dict) else [(None, x) for x in v]
        n = len(items)
        keys = [k.encode() for k, _ in items] if isinstance(v, dict) else []
        header = 4 + 4 * len(keys) + 3 * n
        key_entries, off = b"", header
        for k in keys:
            key_entries += struct.pack("<HH", off, len(k))
            off += len(k)
        value_entries, values = b"", b""
        for _, x in items:
            inl = _inline(x)
            if inl is not None:
                value_entries += bytes([inl[0]]) + inl[1]
            else:
                t, payload = _value(x)
                value_entries += bytes([t]) + struct.pack("<H", off + len(values))
                values += payload
        size = header + sum(map(len, keys)) + len(values)
        return (0x00 if isinstance(v, dict) else 0x02), (struct.pack("<HH", n, size) + key_entries
                                                         + value_entries + b"".join(keys) + values)
    if v is None or isinstance(v, bool):
        return 0x04, (b"\x00" if v is None else b"\x01" if v else b"\x02")
    return 0x05, struct.pack("<h", v)


def jb(v) -> bytes:
    """A document in MySQL's binary JSON (small containers only, as the server writes them)."""
    t, payload = _value(v)
    return bytes([t]) + payload


def json_col(doc: bytes) -> bytes:
    return len(doc).to_bytes(4, "little") + doc            # JSON metadata: 4 length bytes


def diff(bl, op: int, path: str, value=...) -> bytes:
    """sql/json_diff.cc Json_diff::write_binary."""
    p = path.encode()
    out = bytes([op]) + bl.lenenc(len(p)) + p
    if op != 2:
        v = jb(value)
        out += bl.lenenc(len(v)) + v
    return out


def diff_vector(*diffs: bytes) -> bytes:
    """Json_diff_vector::write_binary: 4-byte length, then the diffs."""
    body = b"".join(diffs)
    return len(body).to_bytes(4, "little") + body


# --------------------------------------------------------------------------------- the event
BEFORE1 = {"a": 1, "b": True, "c": [1]}
K1 = [5, 6]
BEFORE2 = {"a": 1}


def _varchar(s: bytes) -> bytes:
    return bytes([len(s)]) + s


def table_map(bl) -> bytes:
    types = bytes([LONG, JSON, VARCHAR, JSON])
    meta = b"\x04" + struct.pack("<H", 40) + b"\x04"          # JSON 4, VARCHAR(10) utf8mb4 40, JSON 4
    return ((7).to_bytes(6, "little") + b"\x01\x00" + b"\x02db\x00" + b"\x01t\x00" + bl.lenenc(4) + types
            + bl.lenenc(len(meta)) + meta + b"\x0e"              # nullable: j, note, k
            + b"\x01\x01\x00" + b"\x03\x01\x2d")               # SIGNEDNESS (signed), COLUMN_CHARSET 45 (utf8mb4)


def image(id_, j, note, k, *, nulls=0) -> bytes:
    """Null bitmap (4 present columns) then the values of the non-NULL ones."""
    out = bytes([nulls]) + struct.pack("<i", id_)
    if not nulls & 2:
        out += j
    if not nulls & 4:
        out += _varchar(note)
    if not nulls & 8:
        out += k
    return out


J_DIFFS = (
    (0, "$.a", 2),             # JSON_SET on an existing member: REPLACE
    (1, "$.c[1]", "x"),        # JSON_SET past the array's end: INSERT
    (1, '$."new key"', None),  # JSON_SET on a new member (quoted: not an identifier): INSERT
    (2, "$.b", ...),           # JSON_REMOVE
)


def partial_event(bl, *, j_diffs=J_DIFFS) -> bytes:
    j = json_col(jb(BEFORE1))
    k = json_col(jb(K1))
    after1 = (b"\x01"             # value_options: PARTIAL_JSON_UPDATES
              + b"\x03"           # partial bits: JSON column 0 (j) and 1 (k)
              + image(1, diff_vector(*(diff(bl, *d) for d in j_diffs)), b"x",
                      diff_vector(diff(bl, 0, "$[0]", 10))))
    after2 = b"\x00" + image(2, b"", b"y", json_col(jb([])), nulls=2)    # value_options 0, j NULL
    rows = (image(1, j, b"x", k) + after1
            + image(2, json_col(jb(BEFORE2)), b"y", json_col(jb([]))) + after2)
    post = (7).to_bytes(6, "little") + b"\x01\x00" + b"\x02\x00"   # STMT_END_F, no extra data
    return post + bl.lenenc(4) + b"\x0f" + b"\x0f" + rows


def read(bl, build_binlog, body, **kw):
    b = bl.Builder().event(TABLE_MAP, table_map(bl)).event(PARTIAL_UPDATE_ROWS, body)
    tm, ev = build_binlog(b, **kw)
    return ev


# ------------------------------------------------------------------------------------ tests
def test_binary_json_fixture_encoder_round_trips():
    for doc in (BEFORE1, K1, BEFORE2, [], {"a": {"b": [None, False, "s"]}}, 2, "x"):
        assert jsonb.parse(jb(doc)) == doc
    assert jsonb.parse(jb(None)) is jsonb.JSON_NULL         # the document null, not SQL NULL


def test_partial_update_rows_through_the_reader(twin, bl, build_binlog):
    ev = read(bl, build_binlog, partial_event(bl))
    assert ev.type_name == "PARTIAL_UPDATE_ROWS" and ev.kind == "partial_update" and ev.table == "db.t"
    (b1, a1), (b2, a2) = ev.rows()
    assert b1 == (1, BEFORE1, "x", K1)
    j, k = a1[1], a1[3]
    assert isinstance(j, JsonPartialUpdate) and isinstance(k, JsonPartialUpdate)
    # every diff of the column, in order, not only the first
    assert j.diffs == (JsonDiff("replace", "$.a", 2), JsonDiff("insert", "$.c[1]", "x"),
                       JsonDiff("insert", '$."new key"', jsonb.JSON_NULL), JsonDiff("remove", "$.b", None))
    assert k.diffs == (JsonDiff("replace", "$[0]", 10),)
    assert a1[0] == 1 and a1[2] == "x"
    assert j.apply(b1[1]) == {"a": 2, "c": [1, "x"], "new key": None}
    assert k.apply(b1[3]) == [10, 6]
    assert b1[1] == BEFORE1                                   # apply works on a copy
    # a row of the same event with no diff is an ordinary after image
    assert (b2, a2) == ((2, BEFORE2, "y", []), (2, None, "y", []))


def test_partial_update_rows_json_as_text(twin, bl, build_binlog):
    from mysqlddl.options import Options

    ev = read(bl, build_binlog, partial_event(bl), options=Options(json_as="text"))
    (b1, a1), _ = ev.rows()
    assert b1[1] == '{"a": 1, "b": true, "c": [1]}'
    assert a1[1].diffs[1] == JsonDiff("insert", "$.c[1]", '"x"')
    assert a1[1].apply(b1[1]) == '{"a": 2, "c": [1, "x"], "new key": null}'


def test_partial_update_rows_same_on_both_twins(bl, build_binlog):
    from mysqlddl.binlog import _twin, speedups

    try:
        compiled = speedups.load_compiled()
    except ImportError as e:
        pytest.skip(f"compiled core not built: {e}")
    ev = read(bl, build_binlog, partial_event(bl))
    got = {}
    for impl in (_twin, compiled):
        saved, speedups.impl = speedups.impl, impl
        try:
            got[impl.IMPLEMENTATION] = ev.rows()
        finally:
            speedups.impl = saved
    assert got["compiled"] == got["pure-python"]


def test_truncated_partial_after_image_is_positioned(twin, bl, build_binlog):
    body = partial_event(bl)
    # cut inside the first after image's diff vector: the event is framed by its (shorter) size
    before_len = len(image(1, json_col(jb(BEFORE1)), b"x", json_col(jb(K1))))
    head = len(body) - len(body[body.index(b"\x0f\x0f") + 2:])
    ev = read(bl, build_binlog, body[:head + before_len + 12])
    with pytest.raises(RowImageOverrunError) as e:
        ev.rows()
    err = e.value
    assert err.column == 1 and err.log_pos == ev.pos and err.table == "db.t"
    assert ev.pos < err.offset < ev.next_pos
    # value_options missing entirely: positioned at the end of the before image, no column
    ev = read(bl, build_binlog, body[:head + before_len])
    with pytest.raises(RowImageOverrunError) as e:
        ev.rows()
    assert e.value.column is None and e.value.offset == ev.pos + 19 + head + before_len


def test_diffs_that_do_not_apply_are_corrupt():
    upd = JsonPartialUpdate((JsonDiff("replace", "$.zz", 1),))
    with pytest.raises(CorruptEventError, match="does not apply"):
        upd.apply({"a": 1})
    with pytest.raises(CorruptEventError, match="exists already"):
        JsonPartialUpdate((JsonDiff("insert", "$.a", 1),)).apply({"a": 1})
    with pytest.raises(CorruptEventError, match="root"):
        JsonPartialUpdate((JsonDiff("replace", "$", 1),)).apply({"a": 1})
    # [last-N] and an index past the end (Json_array_index clamps: INSERT appends)
    doc = [1, 2, 3]
    assert JsonPartialUpdate((JsonDiff("remove", "$[last-1]", None),
                              JsonDiff("insert", "$[9]", 4))).apply(doc) == [1, 3, 4]
    with pytest.raises(CorruptEventError):
        jsonb.parse_path("$.a[")
