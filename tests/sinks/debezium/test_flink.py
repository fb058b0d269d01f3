"""A real consumer of the Debezium format: Apache Flink's ``debezium-json`` format (PyPI
``apache-flink``, tox env ``flink``, marker ``flink``).

The lab workload (tools/workload.py phases a and b: every column type, updates, deletes, DDL) runs
on the lab MariaDB, then a table of our own gets inserts, updates, deletes and a primary-key change,
and ``all_types`` gets a primary-key change too. ``mysqlddl changes --format debezium --schemas
--topics-dir`` writes one values file per topic; a Flink SQL table with ``'format' =
'debezium-json'`` (``debezium-json.schema-include``) over each table's file, read in streaming mode
(the bounded file ends the job), gives the changelog (+I/-U/+U/-D), applied here by primary key: the
final rows must be exactly the server's final tables, value for value, after Debezium's documented
encodings (a BOOLEAN is true for any non-zero TINYINT, a zero date is null, BIGINT UNSIGNED wraps).

The native format is checked the same way on the table of our own, with the options a user sets
(README "Reading the output with Flink"): ignore-parse-errors (transaction marks and schema
changes share the stream), ISO-8601 timestamps, and a filter on the ``source.table`` metadata.
"""

from __future__ import annotations

import datetime
import decimal
import ipaddress
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.flink, pytest.mark.mariadb]

DB = "dbz"
PREFIX = "lab"
# tables whose whole life is under one name (a renamed table's topic holds only what came after
# the rename, for Debezium as for us)
TABLES = ("all_types", "legacy_temporal", "upsert", "xa_t", "nontx", "tx_only", "cross_db", "pk_moves")

PK_MOVES = [
    "CREATE TABLE pk_moves (id INT NOT NULL PRIMARY KEY, amount DECIMAL(12,2), price DOUBLE, day DATE,"
    " at DATETIME(6), ts TIMESTAMP(3) NULL DEFAULT NULL, name VARCHAR(40) CHARACTER SET utf8mb4,"
    " raw VARBINARY(16), doc JSON, big BIGINT UNSIGNED)",
    "INSERT INTO pk_moves VALUES (1, 10.50, 0.25, '2024-02-29', '2024-02-29 12:34:56.000001',"
    " '2024-02-29 01:02:03.456', 'one', X'00FF', '{\"a\": 1}', 18446744073709551615)",
    "INSERT INTO pk_moves VALUES (2, -0.01, -1e300, '1970-01-01', '1999-12-31 23:59:59', NULL, 'two ü', NULL,"
    " NULL, 0), (3, 3.00, 3, '2000-01-01', '2000-01-01 00:00:00.5', '2038-01-19 03:14:07.999', 'three', X'03',"
    " '[3]', 3)",
    "UPDATE pk_moves SET amount = amount * 2, name = CONCAT(name, '!') WHERE id IN (1, 3)",
    "UPDATE pk_moves SET id = 10 WHERE id = 1",                  # a primary-key change
    "DELETE FROM pk_moves WHERE id = 2",
    "UPDATE pk_moves SET id = 11, doc = '{\"moved\": true}' WHERE id = 3",
    "INSERT INTO pk_moves VALUES (2, 2.22, 2.5, '2022-02-02', '2022-02-02 02:02:02', NULL, 're-born', X'', '{}',"
    " 9223372036854775808)",
    "UPDATE all_types SET id = 1005 WHERE id = 5",              # a primary-key change on every column type
]


def _missing(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: this must not be skipped)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def pyflink():
    try:
        import pyflink.table as table
    except ImportError:
        _missing("apache-flink is not installed (tox -e flink installs it)")
    return table


@pytest.fixture(scope="module")
def lab(mariadb_server, tool, tmp_path_factory):
    workload = tool("workload")
    srv = mariadb_server
    before = {p.name for p in srv.binlog_files()}
    truth = workload.run(srv, database=DB, tmp_database=DB + "_tmp", phases="ab", scale=0.001, log=lambda *a: None)
    srv.execute(*PK_MOVES, database=DB)
    srv.flush_logs()
    files = [p for p in srv.binlog_files()[:-1] if p.name not in before]
    assert [f for f in truth.files if f not in {p.name for p in files}] == []
    conn = workload.text_connection(srv)
    try:
        tables = workload.dump_tables(conn, [DB])
    finally:
        conn.close()
    out = tmp_path_factory.mktemp("dbz")
    return files, tables, out


def _changes(files, out: Path, *args) -> None:
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "changes", *map(str, files), "--name", PREFIX,
                           "--summary", "none", "--progress", "never", *args],
                          capture_output=True, text=True, cwd=out, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


# ------------------------------------------------------------------------- Flink types and values

def _flink_type(schema: dict) -> str:
    t = schema["type"]
    if t == "struct":
        return "ROW<" + ", ".join(f"`{f['field']}` {_flink_type(f)}" for f in schema["fields"]) + ">"
    return {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INT", "int64": "BIGINT", "boolean": "BOOLEAN",
            "float": "FLOAT", "double": "DOUBLE", "string": "STRING", "bytes": "BYTES"}[t]


def _value_fields(values_file: Path) -> list[dict]:
    """The row fields of the last message's value schema (the table's final version)."""
    for line in reversed(values_file.read_text().splitlines()):
        if line.strip():
            env = json.loads(line)["schema"]
            return next(f for f in env["fields"] if f["field"] == "after")["fields"]
    raise AssertionError(f"no messages in {values_file}")


def _zero(text: str) -> bool:
    return text[:4] == "0000" or text[5:7] == "00" or text[8:10] == "00"


def _micros_of_time(text: str) -> int:
    neg = text.startswith("-")
    h, m, s = text.lstrip("-").split(":")
    sec, _, frac = s.partition(".")
    us = ((int(h) * 60 + int(m)) * 60 + int(sec)) * 1_000_000 + int((frac + "000000")[:6])
    return -us if neg else us


def _epoch_us(text: str) -> int:
    dt = datetime.datetime.fromisoformat(text)
    return (dt - datetime.datetime(1970, 1, 1)) // datetime.timedelta(microseconds=1)


def _f32(text: str) -> float:
    return struct.unpack("<f", struct.pack("<f", float(text)))[0]


def expected_debezium(field: dict, col: dict, v):
    """The truth value (tools/workload.py RENDER) as Flink gives the Debezium encoding back."""
    if v is None:
        return None
    name, t = field.get("name"), field["type"]
    if col["data_type"] in ("date", "datetime", "timestamp") and _zero(v):
        if col["nullable"]:
            return None
        v = "1970-01-01 00:00:00"
    if name == "io.debezium.time.Date":
        return (datetime.date.fromisoformat(v[:10]) - datetime.date(1970, 1, 1)).days
    if name == "io.debezium.time.MicroTime":
        return _micros_of_time(v)
    if name == "io.debezium.time.Timestamp":
        return _epoch_us(v) // 1000
    if name == "io.debezium.time.MicroTimestamp":
        return _epoch_us(v)
    if name == "io.debezium.time.ZonedTimestamp":
        fsp = int(col["fsp"] or 0)
        head, _, frac = v.partition(".")
        return head.replace(" ", "T") + ("." + (frac + "000000")[:fsp] if fsp else "") + "Z"
    if name == "io.debezium.time.Year":
        return int(v)
    if name == "org.apache.kafka.connect.data.Decimal":
        # the server's text has exactly `scale` fraction digits: the unscaled value is its digits
        # (exact at 65 digits, where Decimal arithmetic in the default context would round)
        head, _, frac = v.partition(".")
        assert len(frac) == int(field["parameters"]["scale"]), v
        n = int(head + frac)
        return n.to_bytes((n + (n < 0)).bit_length() // 8 + 1, "big", signed=True)
    if name == "io.debezium.data.Bits":
        return int(v).to_bytes((int(field["parameters"]["length"]) + 7) // 8, "little")
    if name == "io.debezium.data.geometry.Geometry":
        raw = bytes.fromhex(v)
        return (raw[4:], int.from_bytes(raw[:4], "little"))
    if name == "io.debezium.data.geometry.Point":
        raw = bytes.fromhex(v)
        x, y = struct.unpack_from("<dd" if raw[4] == 1 else ">dd", raw, 9)
        return (x, y, raw[4:], int.from_bytes(raw[:4], "little"))
    if t == "boolean":
        return int(v) != 0
    if t in ("int16", "int32", "int64"):
        n = int(v)
        return n - (1 << 64) if t == "int64" and n >= 1 << 63 else n
    if t == "float":
        return _f32(v)
    if t == "double":
        return float(v)
    if t == "bytes":
        return bytes.fromhex(v)
    if col["data_type"] == "inet6":
        return str(ipaddress.ip_address(v))
    return v


def _normal(v, col: dict, kind: str = ""):
    """A value Flink gave, as comparable data (Row -> tuple, bytearray -> bytes; a FLOAT, which
    PyFlink hands over as the double nearest to its decimal text, back to its float32)."""
    if kind == "float" and v is not None:
        return _f32(repr(v))
    if isinstance(v, bytearray):
        return bytes(v)
    if hasattr(v, "_values") or type(v).__name__ == "Row":
        return tuple(_normal(x, col) for x in v)
    if col["data_type"] == "inet6" and isinstance(v, str):
        return str(ipaddress.ip_address(v))
    return v


def _final_state(env, table: str, pk_index: list[int], columns: str = "*") -> dict:
    """SELECT over the changelog table, +I/-U/+U/-D applied by primary key."""
    rows: dict = {}
    with env.execute_sql(f"SELECT {columns} FROM `{table}`").collect() as results:
        for r in results:
            kind = str(r.get_row_kind())
            vals = tuple(r)
            key = tuple(vals[i] for i in pk_index)
            if kind in ("+I", "+U"):
                rows[key] = vals
            else:
                assert rows.pop(key, None) is not None, f"{table}: {kind} of a row never inserted: {key}"
    return rows


def _env(pyflink):
    env = pyflink.TableEnvironment.create(pyflink.EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    env.get_config().set("table.local-time-zone", "UTC")
    return env


def test_flink_debezium_json_materializes_the_server_tables(lab, pyflink):
    files, tables, out = lab
    topics = out / "topics"
    _changes(files, out, "--format", "debezium", "--schemas", "--topics-dir", topics)
    env = _env(pyflink)
    checked = 0
    for name in TABLES:
        truth = tables[f"{DB}.{name}"]
        values = topics / f"{PREFIX}.{DB}.{name}.jsonl"
        fields = _value_fields(values)
        assert [f["field"] for f in fields] == truth.column_names
        cols = ", ".join(f"`{f['field']}` {_flink_type(f)}" for f in fields)
        env.execute_sql(f"CREATE TABLE `{name}` ({cols}) WITH ('connector' = 'filesystem', 'path' = "
                        f"'file://{values}', 'format' = 'debezium-json', 'debezium-json.schema-include' = 'true')")
        pk = [truth.column_names.index(c) for c in truth.primary_key]
        state = _final_state(env, name, pk)
        by_name = {c["name"]: c for c in truth.columns}
        got = sorted(([_normal(v, by_name[f["field"]], f["type"]) for v, f in zip(row, fields, strict=True)]
                      for row in state.values()), key=lambda r: [r[i] for i in pk])
        want = sorted(([expected_debezium(f, by_name[f["field"]], v) for v, f in zip(row, fields, strict=True)]
                       for row in truth.rows), key=lambda r: [r[i] for i in pk])
        assert len(got) == len(want), name
        for g, w in zip(got, want, strict=True):
            diff = [(f["field"], a, b) for f, a, b in zip(fields, g, w, strict=True) if a != b]
            assert not diff, f"{name} row {g[pk[0]]}: {diff[:3]}"
        checked += len(want)
    assert checked >= 35     # 39 rows at this seed and scale
    # the primary-key changes went through as delete + create
    assert 1005 in {r[0] for r in _final_state(env, "all_types", [0]).values()}
    assert {r[0] for r in _final_state(env, "pk_moves", [0]).values()} == {2, 10, 11}


def test_flink_reads_the_native_format(lab, pyflink):
    """Our native stream with the options a user sets (README "Reading the output with Flink"): the
    native format is one stream of every table and kind of event, so the table's row events are
    selected on our side (--table, --no-transactions, --no-schema-changes; a file source has no
    per-record metadata to filter on), and Flink parses our ISO-8601 temporals with
    debezium-json.timestamp-format.standard = ISO-8601; DECIMAL text reads as DECIMAL."""
    files, tables, out = lab
    native = out / "native.jsonl"
    _changes(files, out, "-o", native, "--table", f"{DB}.pk_moves", "--no-transactions", "--no-schema-changes")
    env = _env(pyflink)
    env.execute_sql(
        f"CREATE TABLE moves (`id` INT, `amount` DECIMAL(12, 2), `price` DOUBLE, `day` DATE, `at` TIMESTAMP(6),"
        f" `ts` TIMESTAMP_LTZ(3), `name` STRING, `raw` BYTES, `doc` STRING, `big` DECIMAL(20, 0))"
        f" WITH ('connector' = 'filesystem', 'path' = 'file://{native}', 'format' = 'debezium-json',"
        f" 'debezium-json.timestamp-format.standard' = 'ISO-8601')")
    # (timestamps as Flink's text: PyFlink cannot pickle a TIMESTAMP_LTZ's Instant, and its datetime
    # for a TIMESTAMP(6) drops the microseconds; the session zone is UTC)
    state = _final_state(env, "moves", [0], "`id`, `amount`, `price`, `day`, CAST(`at` AS STRING),"
                         " CAST(`ts` AS STRING), `name`,"
                         " `raw`, `doc`, `big`")
    truth = tables[f"{DB}.pk_moves"]
    want = {}
    for r in truth.rows:
        rid, amount, price, day, at, ts, name, raw, doc, big = r
        want[rid] = (rid, decimal.Decimal(amount), float(price), datetime.date.fromisoformat(day),
                     at, ts, name, None if raw is None else bytes.fromhex(raw), doc, decimal.Decimal(big))
    got = {}
    for (rid,), row in state.items():
        row = list(row)
        row[7] = None if row[7] is None else bytes(row[7])
        got[rid] = tuple(row)
    assert got == want
