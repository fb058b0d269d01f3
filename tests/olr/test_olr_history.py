"""DDL from OLR through the Oracle grammar into the schema history keyed by (c_scn, c_idx), and
rows typed by the table version in force."""

from __future__ import annotations

import datetime
import json
import re
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from mysqlddl.changes.records import RowChange, SchemaChange
from mysqlddl.errors import DdlError
from mysqlddl.history import SchemaHistory
from mysqlddl.model.ids import TableId
from mysqlddl.olr import UNKNOWN, OlrPosition, OlrReader
from mysqlddl.options import Options
from mysqlddl.sinks.oracle import envelope

sys.path.insert(0, str(Path(__file__).parent))
import logminer  # noqa: E402

SYNCHDB = "corpora/olr-json/synchdb-docs"
PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"


def _dml(c_scn, c_idx, after, xid="0x0008.012.000004c8", op="c", before=None):
    # SynchDB's format (scn 0, timestamp 0, xid 0, db 3), no schema.columns (format.schema 0)
    p = {"op": op, "schema": {"owner": "DBZUSER", "table": "TEST_TABLE"}}
    if after is not None:
        p["after"] = after
    if before is not None:
        p["before"] = before
    return {"scn": c_scn, "tm": 1753384800000000000, "c_scn": c_scn, "c_idx": c_idx, "xid": xid, "db": "FREE",
            "payload": [p]}


def test_synchdb_ddl_types_later_dml(shared_path, oracle_ddl, tmp_path):
    ddl = json.loads((shared_path / SYNCHDB / "ddl_payload.json").read_text())
    row = {"ID": 1, "BINARY_DOUBLE_COL": 2.71828, "BINARY_FLOAT_COL": 3.14, "FLOAT_COL": 3.5,
           "NUMBER_COL": 12345678.91, "LONG_COL": "long text", "DATE_COL": 1704067200000000000,
           "INTERVAL_DS_COL": "01,06:00:00.123456789", "TIMESTAMP_COL": 1749983400123456000,
           "TIMESTAMP_TZ_COL": "1651384800000000000,Europe/Warsaw", "TIMESTAMP_LTZ_COL": 1651384800000000000,
           "CHAR_COL": "a         ", "RAW_COL": "deadbeef", "BFILE_COL": "?", "BLOB_COL": "cafe",
           "CLOB_COL": "clob", "ROWID_COL": "AAAR6+AAFAAAACGAAA"}
    f = tmp_path / "olr.json"
    # a row of the table before its CREATE is in the output (untyped), the DDL message as SynchDB
    # documents it, then rows after it
    f.write_text("\n".join(json.dumps(d) for d in (
        _dml(2930810, 1, {"ID": 0, "DATE_COL": 1704067200000000000}, xid="0x0001.001.00000001"),
        ddl,
        _dml(2930830, 1, row),
        _dml(2930830, 2, {"ID": 1, "RAW_COL": "00ff"}, op="u", before={"ID": 1, "RAW_COL": "deadbeef"}),
    )) + "\n")
    r = OlrReader([f], Options())
    changes = list(r)
    rows = [c for c in changes if isinstance(c, RowChange)]
    (sc,) = [c for c in changes if isinstance(c, SchemaChange)]

    # the history: keyed by the DDL message's (c_scn, c_idx), owner as the default schema
    (rec,) = r.history.records
    assert isinstance(rec.position, OlrPosition) and rec.position.key == (2930820, 3)
    tid = TableId("DBZUSER", "TEST_TABLE")
    assert len(r.history.table_at(tid, OlrPosition(2930820, 3)).columns) == 24
    assert r.history.table_at(tid, OlrPosition(2930820, 2)) is None
    env = envelope(sc)
    assert sc.kinds == ("CREATE",) and env["position"] == {"c_scn": 2930820, "c_idx": 3}
    assert env["schemaName"] == "DBZUSER" and env["databaseName"] == "FREE"
    assert len(env["tableChanges"][0]["table"]["columns"]) == 24 and env["ddl"].startswith("CREATE TABLE")

    before_ddl, ins, upd = rows
    assert before_ddl.typing == "none" and before_ddl.after["DATE_COL"] == 1704067200000000000
    assert ins.typing == "history" and upd.typing == "history"
    a = ins.after
    assert a["ID"] == Decimal(1) and a["NUMBER_COL"] == Decimal("12345678.91") and a["FLOAT_COL"] == Decimal("3.5")
    assert a["BINARY_DOUBLE_COL"] == 2.71828 and a["BINARY_FLOAT_COL"] == 3.14
    assert a["DATE_COL"] == datetime.datetime(2024, 1, 1)
    assert a["TIMESTAMP_COL"] == datetime.datetime(2025, 6, 15, 10, 30, 0, 123456)
    assert a["TIMESTAMP_TZ_COL"].isoformat() == "2022-05-01T08:00:00+02:00"
    assert a["TIMESTAMP_LTZ_COL"] == datetime.datetime(2022, 5, 1, 6)
    assert a["RAW_COL"] == b"\xde\xad\xbe\xef" and a["BLOB_COL"] == b"\xca\xfe"
    assert a["CHAR_COL"] == "a         " and a["CLOB_COL"] == "clob" and a["LONG_COL"] == "long text"
    assert a["INTERVAL_DS_COL"] == "01,06:00:00.123456789" and a["ROWID_COL"] == "AAAR6+AAFAAAACGAAA"
    assert a["BFILE_COL"] is UNKNOWN
    assert ins.flags == {"unknown": ("after.BFILE_COL",),
                         "lossy": ("after.BINARY_DOUBLE_COL", "after.BINARY_FLOAT_COL")}
    assert upd.before == {"ID": Decimal(1), "RAW_COL": b"\xde\xad\xbe\xef"} and upd.after["RAW_COL"] == b"\x00\xff"
    out = envelope(ins)
    assert out["after"]["RAW_COL"] == "3q2+7w==" and out["after"]["BFILE_COL"] == "?"
    assert out["mysqlddl"]["unknown"] == ["after.BFILE_COL"]

    # the history saves and reloads with its (c_scn, c_idx) keys
    r.history.save(tmp_path / "h.jsonl")
    h = SchemaHistory.load(tmp_path / "h.jsonl", Options(dialect="oracle"))
    assert h.records[0].position.key == (2930820, 3)
    assert len(h.table_at(tid, OlrPosition(2930821, 0)).columns) == 24


def _baseline(shared_path, scenario: str) -> str:
    """The CREATE TABLE statements of a scenario's input.sql (the rest is PL/SQL and DML)."""
    sql = (shared_path / PREBUILT / scenario / "input.sql").read_text()
    return "\n".join(re.findall(r"^CREATE TABLE\b.*?^\)[^;\n]*;", sql, re.S | re.M | re.I))


def test_typed_values_equal_logminer(shared_path, oracle_ddl):
    """With each scenario's CREATE TABLE as the baseline (through the Oracle grammar), rows are typed
    by the history (DATE/TIMESTAMP -> datetime, RAW/BLOB -> bytes, NUMBER -> Decimal,
    BINARY_* -> float flagged lossy) and still equal LogMiner's values, within the same documented
    tolerances as the untyped comparison."""
    verdicts: Counter = Counter()
    typing: Counter = Counter()
    for d in sorted((shared_path / PREBUILT).glob("*/logminer-reference.json")):
        r = OlrReader([d.parent / "output.json"], Options(olr_time_unit="s"),
                      baseline=_baseline(shared_path, d.parent.name), baseline_owner="OLR_TEST")
        rows = [c for c in r if isinstance(c, RowChange)]
        typing.update(c.typing for c in rows)
        untyped = {col.split(".")[1] for c in rows for col in c.flags.get("untyped", ())}
        # ddl-add-column's EMAIL comes from an ALTER the output does not carry (no DDL events):
        # untyped, and flagged so
        assert untyped == ({"EMAIL"} if d.parent.name == "ddl-add-column" else set())
        recs, _ = logminer.fold_lob_writes(logminer.load(d))
        if not recs:    # boolean-type: "LogMiner does not support BOOLEAN type in SQL_REDO"
            assert d.parent.name == "boolean-type"
            assert all(isinstance(v, bool) for c in rows for k, v in (c.after or {}).items() if k.startswith("IS_"))
            continue
        pairs, ours, theirs = logminer.pair(rows, recs)
        assert not ours and not theirs
        for row, rec in pairs:
            for side in ("before", "after"):
                a, b = getattr(row, side) or {}, rec.get(side) or {}
                for col in set(a) & set(b):
                    v = logminer.compare(a[col], b[col])
                    assert v != "different", (d.parent.name, side, col, a[col], b[col])
                    verdicts[v] += 1
    assert dict(typing) == {"history": 659}            # every DML row of the 21 scenarios
    assert dict(verdicts) == {"equal": 2227, "second": 18, "float6": 9, "lm_newline": 2, "lm_lob_unlogged": 1}


def test_ddl_message_alters_the_table(shared_path, oracle_ddl, tmp_path):
    """ddl-add-column with the ALTER its input.sql ran between the two transactions put back as an
    OLR DDL message (the fork's output has none: source flag 0x20 unset)."""
    lines = (shared_path / PREBUILT / "ddl-add-column" / "output.json").read_text().splitlines()
    ddl = {"scn": 3764470, "tm": 1772311497, "c_scn": 3764470, "c_idx": 1, "xid": "10.9.984",
           "payload": [{"op": "ddl", "schema": {"owner": "OLR_TEST", "table": "TEST_DDL"},
                        "sql": "ALTER TABLE TEST_DDL ADD (email VARCHAR2(200))"}]}
    f = tmp_path / "out.json"
    f.write_text("\n".join(lines[:5] + [json.dumps(ddl)] + lines[5:]) + "\n")
    r = OlrReader([f], Options(olr_time_unit="s"), baseline=_baseline(shared_path, "ddl-add-column"),
                  baseline_owner="OLR_TEST")
    changes = list(r)
    (sc,) = [c for c in changes if isinstance(c, SchemaChange)]
    assert sc.kinds == ("ALTER",)
    assert [c.name for c in sc.record.tables[0][1].columns] == ["ID", "NAME", "VAL", "EMAIL"]
    rows = [c for c in changes if isinstance(c, RowChange)]
    assert all(c.typing == "history" and not c.flags for c in rows)
    assert rows[3].after == {"ID": Decimal(4), "NAME": "Dave", "VAL": Decimal(400), "EMAIL": "dave@test.com"}


def test_history_plumbing_with_a_stand_in_parser(tmp_path):
    """The history mechanics whatever the grammar's state: the MySQL grammar stands in for the Oracle
    parser (``ddl_parser``), on types both dialects know (the model applies Oracle's rules)."""
    from mysqlddl.ddl import parse_ddl

    def mysql(sql, options, source):
        return parse_ddl(sql, dialect="mysql", source=source)

    def ddl(c_scn, c_idx, sql):
        return {"scn": c_scn, "tm": 0, "c_scn": c_scn, "c_idx": c_idx, "xid": "1.1.1",
                "payload": [{"op": "ddl", "schema": {"owner": "OWN", "table": "T"}, "sql": sql}]}

    def row(c_scn, c_idx, after):
        return {"c_scn": c_scn, "c_idx": c_idx, "xid": "2.2.2",
                "payload": [{"op": "c", "schema": {"owner": "OWN", "table": "T"}, "after": after}]}

    docs = [ddl(100, 1, "CREATE TABLE T (ID DECIMAL(10,0), D TIMESTAMP(6), R BLOB)"),
            row(100, 5, {"ID": 1, "D": 0, "R": "00"}),
            ddl(300, 1, "ALTER TABLE T ADD COLUMN F DOUBLE PRECISION"),
            ddl(200, 1, "ALTER TABLE T ADD COLUMN G VARCHAR(5)"),        # behind: recorded at (300, 1)
            row(150, 2, {"ID": 2, "F": 1.5, "G": "x"}),                  # an older c_scn, later in the output
            ddl(400, 1, "ALTER TABLE NOPE ADD COLUMN X INT")]            # fails to apply
    f = tmp_path / "o.json"
    f.write_text("".join(json.dumps(d, indent=1) for d in docs))        # pretty-printed, concatenated
    with pytest.raises(DdlError) as ei:
        list(OlrReader([f], Options(), ddl_parser=mysql))
    line = 1 + sum(json.dumps(d, indent=1).count("\n") for d in docs[:5])
    assert ei.value.source == f"{f}:{line}, c_scn 400 c_idx 1"
    r = OlrReader([f], Options(error_policy="skip"), ddl_parser=mysql)
    rows = [c for c in r if isinstance(c, RowChange)]
    # the failing ALTER is recorded with its error and no table change (SchemaHistory's lenient policy)
    assert [rec.position.key for rec in r.history.records] == [(100, 1), (300, 1), (300, 1), (400, 1)]
    assert r.history.records[-1].tables == () and len(r.history.records[-1].errors) == 1
    assert r.stats.ddl == 4 and r.stats.ddl_reordered == 1 and r.stats.ddl_errors == 1 and r.stats.skipped == 1
    assert rows[0].after == {"ID": Decimal(1), "D": datetime.datetime(1970, 1, 1), "R": b"\x00"}
    # typed by the version in force at its place in the output, though its c_scn is older
    assert rows[1].typing == "history" and rows[1].after == {"ID": Decimal(2), "F": Decimal("1.5"), "G": "x"}
    assert type(rows[1].after["F"]) is Decimal and not rows[1].flags      # Oracle's DOUBLE PRECISION is a NUMBER
