"""`mysqlddl olr`: as a subprocess (run_cli) and in-process (main)."""

from __future__ import annotations

import json

import pytest

from mysqlddl.cli import main

PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"


def test_olr_subprocess(shared_path, run_cli):
    res = run_cli("olr", "--time-unit", "s", shared_path / PREBUILT / "basic-crud" / "output.json")
    assert res.returncode == 0, res.stderr
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(lines) == 11                     # 3 BEGIN + 5 rows + 3 END
    assert [x.get("status") or x["op"] for x in lines] == ["BEGIN", "c", "c", "c", "END", "BEGIN", "u", "END",
                                                          "BEGIN", "d", "END"]
    u = lines[6]
    assert u["before"] == {"ID": 1, "NAME": "Alice", "VAL": 100} and u["after"]["NAME"] == "Alice Updated"
    assert u["source"]["scn"] == 0x3968e6 and u["source"]["xid"] == "3.9.750" and u["ts_ms"] == 1772311432000
    assert "documents 11 (skipped 0), DML rows 5, transactions 3" in res.stderr


def test_olr_subprocess_bad_input(shared_path, run_cli):
    doc = shared_path / "corpora/olr-json/olr-docs/format_examples.jsonl"
    res = run_cli("olr", "--time-unit", "ms", doc)
    assert res.returncode == 1
    assert f"mysqlddl olr: {doc}:3:" in res.stderr and "byte offset 949: not JSON" in res.stderr
    res = run_cli("olr", "--time-unit", "ms", "--lenient", "--summary", "json", doc)
    assert res.returncode == 0
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    assert summary["skipped"] == 1 and summary["dml_rows"] == 3 and summary["typing"] == {"columns": 2, "none": 1}


def test_olr_in_process(shared_path, tmp_path, capsys):
    out, hist = tmp_path / "out.jsonl", tmp_path / "h.jsonl"
    rc = main(["olr", str(shared_path / "corpora/olr-json/synchdb-docs/dml_payload.json"), "-o", str(out),
               "--history", str(hist), "--summary", "none", "--no-transactions", "--name", "ora1"])
    assert rc == 0 and capsys.readouterr().err == ""
    (row,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert row["source"]["name"] == "ora1" and row["after"]["ORDER_DATE"] == "2024-01-01T00:00:00"
    assert row["mysqlddl"] == {"present": {"before": None, "after": ["ORDER_NUMBER", "ORDER_DATE", "PURCHASER",
                                                                      "QUANTITY", "PRODUCT_ID"]},
                               "typing": "columns"}
    assert json.loads(hist.read_text().splitlines()[0])["mysqlddl_history"] == 1


def test_olr_in_process_missing_file(tmp_path, capsys):
    assert main(["olr", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_olr_usage_error():
    with pytest.raises(SystemExit) as ei:
        main(["olr", "--time-unit", "days", "x.json"])
    assert ei.value.code == 2


def test_olr_with_schema_baseline(shared_path, tmp_path, capsys):
    ddl = tmp_path / "t.sql"
    ddl.write_text("CREATE TABLE TEST_TYPES (id NUMBER PRIMARY KEY, col_varchar2 VARCHAR2(200), col_char CHAR(20),"
                   " col_nvarchar2 NVARCHAR2(200), col_number NUMBER(15,2), col_float BINARY_FLOAT,"
                   " col_double BINARY_DOUBLE, col_date DATE, col_timestamp TIMESTAMP(6), col_raw RAW(100),"
                   " col_integer INTEGER);\n")          # rophy data-types input.sql
    rc = main(["olr", "--time-unit", "s", "--schema", str(ddl), "--schema-owner", "OLR_TEST", "--no-transactions",
               str(shared_path / PREBUILT / "data-types" / "output.json")])
    assert rc == 0
    captured = capsys.readouterr()
    first = json.loads(captured.out.splitlines()[0])
    assert first["mysqlddl"]["typing"] == "history"
    assert first["after"]["COL_DATE"] == "2025-06-15T10:30:00" and first["after"]["COL_RAW"] == "3q2+7w=="
    assert first["after"]["COL_NUMBER"] == "12345.67" and first["after"]["COL_DOUBLE"] == 2.71828
    assert first["mysqlddl"]["lossy"] == ["after.COL_FLOAT", "after.COL_DOUBLE"]
    assert "rows typed by: history=4" in captured.err
