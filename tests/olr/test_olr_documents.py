"""Splitting OLR output into JSON documents with positions; message field checks."""

from __future__ import annotations

from decimal import Decimal

import pytest

from mysqlddl.errors import MysqlddlError, OlrJsonError, OlrMessageError
from mysqlddl.olr.documents import iter_documents
from mysqlddl.olr.messages import parse_message, xid_parts


def _write(tmp_path, text: str | bytes, name="out.json"):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return p


def test_json_lines_pretty_and_concatenated(tmp_path):
    p = _write(tmp_path, '{"a":1}\n{"b":\n  {"c": 2.50}\n}{"d":3}\n\n  {"e":"é"}\n{"f":4}')
    docs = list(iter_documents(p))
    assert [d.value for d in docs] == [{"a": 1}, {"b": {"c": Decimal("2.50")}}, {"d": 3}, {"e": "é"}, {"f": 4}]
    assert [d.line for d in docs] == [1, 2, 4, 6, 7]
    # byte offsets: "é" is two bytes in UTF-8, so the last document starts one byte later than its
    # character index
    text = p.read_text()
    assert [d.offset for d in docs][:4] == [text.index('{"a"'), text.index('{"b"'), text.index('{"d"'),
                                            text.index('{"e"')]
    assert docs[4].offset == len(text[:text.index('{"f"')].encode())
    assert [d.index for d in docs] == [0, 1, 2, 3, 4]


def test_numbers_are_lossless(tmp_path):
    p = _write(tmp_path, '{"n": 0.1, "big": 123456789012345678901234567890.123456789, "i": 18446744073709551617}')
    (d,) = iter_documents(p)
    assert d.value == {"n": Decimal("0.1"), "big": Decimal("123456789012345678901234567890.123456789"),
                       "i": 18446744073709551617}


def test_bad_json_is_positioned(tmp_path):
    p = _write(tmp_path, '{"a":1}\n{"é":2}\n{"b": [1, 2}\n{"c":3}\n')
    with pytest.raises(OlrJsonError) as ei:
        list(iter_documents(p))
    e = ei.value
    assert (e.line, e.column, e.document) == (3, 12, 2)
    assert e.offset == len('{"a":1}\n{"é":2}\n{"b": [1, 2'.encode())
    assert isinstance(e, MysqlddlError)
    assert str(e).startswith(f"{p}:3:12, byte offset {e.offset}: not JSON")


def test_lenient_skips_to_the_next_document(tmp_path):
    p = _write(tmp_path, '{"a":1}\n{"b": [1, 2}\n{"c":3}\n{oops\n{"d":4}\n')
    errors = []
    docs = list(iter_documents(p, lenient=True, errors=errors))
    assert [d.value for d in docs] == [{"a": 1}, {"c": 3}, {"d": 4}]
    assert [d.line for d in docs] == [1, 3, 5]
    assert [(e.line, e.document) for e in errors] == [(2, 1), (4, 3)]


def test_not_utf8(tmp_path):
    p = _write(tmp_path, b'{"a":1}\n{"b":"\xff"}\n')
    with pytest.raises(OlrJsonError) as ei:
        list(iter_documents(p))
    assert (ei.value.line, ei.value.offset) == (2, 14)


def test_missing_file(tmp_path):
    with pytest.raises(OlrJsonError, match="cannot read"):
        list(iter_documents(tmp_path / "nope.json"))


# ------------------------------------------------------------------------------------- messages


def test_message_fields_hex_scn_and_string_tm():
    # rophy-olr-fork-prebuilt basic-crud line 1 (format scn 1, timestamp 7, xid 1)
    m = parse_message({"scns": "0x00000000003968d8", "tms": "1772311432", "c_scn": 3762392, "c_idx": 1,
                       "xid": "2.12.753", "payload": [{"op": "begin"}]})
    assert (m.scn, m.tm, m.c_scn, m.c_idx, m.xid, m.db) == (3762392, "1772311432", 3762392, 1, "2.12.753", None)
    assert m.payload[0].op == "begin"


def test_message_fields_decimal_scn_columns_rid():
    # synchdb-docs dml_payload.json (scn 0, timestamp 0, xid 0, schema 7, rid 1, message 2)
    m = parse_message({"scn": 3531590, "tm": 1752686342000000000, "c_scn": 3531691, "c_idx": 2,
                       "xid": "0x0007.01a.000004a1", "db": "FREE",
                       "payload": [{"op": "c", "schema": {"owner": "DBZUSER", "table": "ORDERS", "obj": 73406,
                                                          "columns": [{"name": "ORDER_NUMBER", "type": "number",
                                                                       "precision": -1, "scale": -1,
                                                                       "nullable": False}]},
                                    "num": 0, "rid": "AAAR6+AAFAAAACGAAA", "after": {"ORDER_NUMBER": 10013}}]})
    p = m.payload[0]
    assert (m.scn, m.db, p.owner, p.table, p.obj, p.rid, p.num) == (3531590, "FREE", "DBZUSER", "ORDERS", 73406,
                                                                    "AAAR6+AAFAAAACGAAA", 0)
    assert p.columns[0].name == "ORDER_NUMBER" and p.columns[0].precision == -1 and p.columns[0].nullable is False


@pytest.mark.parametrize("doc,field", [
    ([1, 2], None),
    ({"scn": 1}, "payload"),
    ({"payload": [{"op": "x"}]}, "op"),
    ({"payload": [{"op": "c", "schema": {"table": "T"}}]}, "after"),
    ({"payload": [{"op": "u", "schema": {"table": "T"}, "after": {}}]}, "before"),
    ({"payload": [{"op": "c", "after": {}}]}, "schema.table"),
    ({"payload": [{"op": "ddl"}]}, "sql"),
    ({"scns": "12", "payload": []}, "scns"),
    ({"scn": "12", "payload": []}, "scn"),
    ({"tm": 1.5, "payload": []}, "tm"),
    ({"payload": [{"op": "c", "schema": {"table": "T", "after": {}}, "after": {}}]}, "schema"),
    ({"payload": [{"op": "c", "schema": {"table": "T", "columns": [{"name": "A"}]}, "after": {}}]},
     "schema.columns"),
])
def test_bad_messages(doc, field):
    with pytest.raises(OlrMessageError) as ei:
        parse_message(doc)
    assert ei.value.field == field


@pytest.mark.parametrize("xid,parts", [
    ("0x0002.00c.000002f1", (2, 12, 753)),      # format.xid 0
    ("2.12.753", (2, 12, 753)),                 # format.xid 1 (rophy basic-crud)
    ((2 << 48) | (12 << 32) | 753, (2, 12, 753)),   # format.xid 2, xidn
    ("02000C00F1020000", (2, 12, 753)),         # LogMiner XID (rophy basic-crud logminer-reference)
    ("0900050012030000", (9, 5, 786)),          # all decimal digits, still LogMiner hex (number-precision)
])
def test_xid_forms(xid, parts):
    assert xid_parts(xid) == parts
