"""Exact values (issue #30 item 7 and "DECIMAL notation"): a MariaDB JSON column (LONGTEXT with a
json_valid() check) read back as the document the server stored, and DECIMAL in plain notation.

The binlog is written by the session's private MariaDB (`mariadb_server`, MariaDB 10.11, ROW, FULL
image) from :data:`JSON_SQL`; every format reads the same files:

- the typed values (json_as="object"): the document ``null`` is JSON_NULL, never None (SQL NULL),
  numbers keep their exact value (int, or the Decimal of their digits), ``1e400`` included; the
  same document in MySQL's binary JSON (values/jsonb.py) gives the same values;
- native JSON Lines (the CLI's text form and the object form, on both twins): the document ``null``
  is the string "null", SQL NULL is null; DECIMAL(20,10) -0.0000000001 is "-0.0000000001";
- Debezium JSON Lines (io.debezium.data.Json, a string): "null" vs null, the digits kept;
- the typed (Parquet/Arrow) column of a JSON document decoded as an object.

The PostgreSQL target and `mysqlddl run` over these files: tests/pipeline/test_postgresql_pipeline.py.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest

from mysqlddl.binlog.values import jsonb
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange
from mysqlddl.changes.values import JSON_NULL, typed_value
from mysqlddl.model.types import TypeFamily as F
from mysqlddl.options import Options
from mysqlddl.sinks.debezium.values import _json_text
from mysqlddl.sinks.jsonl import JsonLinesSink
from mysqlddl.sources import open_source

from .test_reader_mariadb import capture

# MariaDB 10.11: `j JSON` is LONGTEXT CHECK (json_valid(`j`)); every document below passes it
# (JSON_VALID('{"big": 1e400}') = 1: MariaDB checks the syntax, it does not read the number)
JSON_SQL = [
    "DROP DATABASE IF EXISTS jvals",
    "CREATE DATABASE jvals CHARACTER SET utf8mb4",
    "CREATE TABLE jvals.t (id INT PRIMARY KEY, j JSON, d DECIMAL(20,10))",
    "INSERT INTO jvals.t VALUES (1, 'null', -0.0000000001), (2, NULL, 0), (3, '12345678901234567890.123', 1.5), "
    "(4, '{\"big\": 1e400}', NULL), (5, '-0', NULL), "
    "(6, '{\"a\": [1.0, 1, -0.0, null, \"x\"], \"n\": {\"m\": 0.0000001, \"e\": 1E+2}}', NULL), (7, '[null]', NULL)",
    "UPDATE jvals.t SET j = 'null' WHERE id = 7",
]

#: id -> the JSON column's text as stored (None: SQL NULL)
STORED = {1: "null", 2: None, 3: "12345678901234567890.123", 4: '{"big": 1e400}', 5: "-0",
          6: '{"a": [1.0, 1, -0.0, null, "x"], "n": {"m": 0.0000001, "e": 1E+2}}', 7: "null"}

#: id -> the document as Python values (json_as="object")
DOCS = {1: JSON_NULL, 2: None, 3: Decimal("12345678901234567890.123"), 4: {"big": Decimal("1E+400")},
        5: Decimal("-0"), 6: {"a": [Decimal("1.0"), 1, Decimal("-0.0"), None, "x"],
                              "n": {"m": Decimal("0.0000001"), "e": Decimal("1E+2")}}, 7: JSON_NULL}

#: id -> DECIMAL(20,10) as the native format writes it
DECIMALS = {1: "-0.0000000001", 2: "0.0000000000", 3: "1.5000000000"}


@pytest.fixture(scope="module")
def json_binlogs(mariadb_server):
    return [str(p) for p in capture(mariadb_server, *JSON_SQL)]


def final_rows(changes) -> dict:
    """id -> the row's last after image."""
    return {c.after["id"]: c.after for c in changes if isinstance(c, RowChange) and c.after is not None}


# ------------------------------------------------------------------------------------ typed values

@pytest.mark.parametrize(("text", "doc"), [
    ("null", JSON_NULL), ("[null]", [None]), ("12345678901234567890.123", Decimal("12345678901234567890.123")),
    ("18446744073709551616", 18446744073709551616), ('{"big": 1e400}', {"big": Decimal("1E+400")}),
    ("-0", Decimal("-0")), ("1.0", Decimal("1.0")), ("1", 1), ("true", True), ('"null"', "null"),
])
def test_mariadb_json_text_parses_exactly(text, doc):
    got = typed_value(F.JSON, text)
    assert got == doc and type(got) is type(doc)
    if isinstance(doc, Decimal):
        assert str(got) == str(doc)          # the digits and the exponent, -0's sign included


@pytest.mark.parametrize(("text", "written"), [
    ("null", "null"), ("12345678901234567890.123", "12345678901234567890.123"), ('{"big": 1e400}', '{"big": 1E+400}'),
    ("-0", "-0"), ("[1.0, 1, -0.0, 0.0000001]", "[1.0, 1, -0.0, 0.0000001]"),
])
def test_documents_are_written_back_exactly(text, written):
    assert jsonb.to_text(typed_value(F.JSON, text)) == written


def test_binary_json_gives_the_values_of_the_text():
    # the same documents in MySQL's binary JSON (sql/json_binary.cc): literal null, a double 1.5,
    # an int16 1, and [null] (a small array holding the null literal inline)
    assert jsonb.parse(bytes.fromhex("0400")) is JSON_NULL is typed_value(F.JSON, "null")
    assert jsonb.parse(b"") is JSON_NULL
    assert jsonb.parse(bytes.fromhex("0b000000000000f83f")) == typed_value(F.JSON, "1.5")
    assert type(jsonb.parse(bytes.fromhex("0b000000000000f83f"))) is Decimal
    assert jsonb.parse(bytes.fromhex("050100")) == typed_value(F.JSON, "1") == 1
    assert jsonb.parse(bytes.fromhex("02" "0100" "0700" "040000")) == typed_value(F.JSON, "[null]") == [None]


def test_object_reader_keeps_documents_exact(json_binlogs):
    rows = final_rows(ChangeReader(open_source(json_binlogs), ChangeOptions()).changes())
    for i, doc in DOCS.items():
        got = rows[i]["j"]
        assert got == doc and type(got) is type(doc), i
    assert rows[1]["j"] is JSON_NULL and rows[2]["j"] is None
    assert str(rows[5]["j"]) == "-0"


def test_text_reader_keeps_the_stored_text(json_binlogs):
    rows = final_rows(ChangeReader(open_source(json_binlogs), ChangeOptions(decode=Options(json_as="text"))).changes())
    assert {i: r["j"] for i, r in rows.items()} == STORED


# ------------------------------------------------------------------------------- native JSON Lines

def _native(paths, opts: Options) -> dict:
    out = io.BytesIO()
    with JsonLinesSink(out) as sink:
        for rec in ChangeReader(open_source(paths), ChangeOptions(decode=opts)):
            sink.write(rec)
    rows = {}
    for line in out.getvalue().decode("ascii").splitlines():
        env = json.loads(line)
        if env.get("after") is not None and "id" in env["after"]:
            rows[env["after"]["id"]] = env["after"]
    return rows


def test_native_json_lines_object_form(json_binlogs, twin):
    rows = _native(json_binlogs, Options())
    assert rows[1]["j"] == "null" and rows[7]["j"] == "null" and rows[2]["j"] is None
    assert rows[3]["j"] == "12345678901234567890.123"           # exact digits, as DECIMAL: a string
    assert rows[4]["j"] == {"big": "1E+400"}
    assert rows[5]["j"] == "-0"
    assert rows[6]["j"] == {"a": ["1.0", 1, "-0.0", None, "x"], "n": {"m": "0.0000001", "e": "1E+2"}}
    assert {i: rows[i]["d"] for i in DECIMALS} == DECIMALS


def test_native_json_lines_cli(json_binlogs, run_cli, tmp_path):
    for env in ({}, {"MYSQLDDL_PUREPYTHON": "1", "MYSQLDDL_REQUIRE_SPEEDUPS": ""}):
        out = tmp_path / "out.jsonl"
        p = run_cli("changes", *json_binlogs, "-o", out, "--summary", "none", env=env)
        assert p.returncode == 0, p.stderr
        text = out.read_text()
        rows = {}
        for line in text.splitlines():
            after = json.loads(line).get("after")
            if after is not None and "id" in after:
                rows[after["id"]] = after
        assert {i: r["j"] for i, r in rows.items()} == STORED, env
        assert {i: rows[i]["d"] for i in DECIMALS} == DECIMALS, env
        assert '"d":"-0.0000000001"' in text and "E-" not in text, env


# ---------------------------------------------------------------------------------------- Debezium

def test_debezium_json_is_a_string_and_null_is_not_the_document_null(json_binlogs, run_cli, tmp_path):
    out = tmp_path / "dbz.jsonl"
    p = run_cli("changes", *json_binlogs, "--format", "debezium", "--name", "srv", "-o", out, "--summary", "none",
                "--decimal-handling-mode", "string")
    assert p.returncode == 0, p.stderr
    rows = {}
    for line in out.read_text().splitlines():
        m = json.loads(line)
        after = (m.get("value") or {}).get("after") if m.get("topic") == "srv.jvals.t" else None
        if after is not None:
            rows[after["id"]] = after
    assert {i: r["j"] for i, r in rows.items()} == STORED
    assert {i: rows[i]["d"] for i in DECIMALS} == DECIMALS


def test_debezium_json_of_an_object_document():
    assert _json_text(JSON_NULL) == "null"
    assert _json_text(typed_value(F.JSON, '{"a": 12345678901234567890.123, "b": [1e400, -0]}')) == \
        '{"a":12345678901234567890.123,"b":[1E+400,-0]}'


# ------------------------------------------------------------------------------------ typed (Arrow)

@pytest.mark.spark          # (pyarrow comes with the spark extra: tox's spark environment runs this)
def test_typed_json_column_of_an_object_document():
    from mysqlddl.model.column import Column
    from mysqlddl.sinks.typed import column_type

    col = Column(name="j", type_name="json", declared_type="JSON")
    _type, kinds, convert = column_type(col)
    for text in ("null", '{"big": 1e400}', "12345678901234567890.123", '{"a": "x"}'):
        doc = typed_value(F.JSON, text)
        assert kinds is None or type(doc) in kinds
        assert json.loads(convert(doc), parse_float=Decimal) == json.loads(text, parse_float=Decimal)
    assert convert("null") == "null"                # the text form passes as it is
