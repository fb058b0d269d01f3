"""The OLR reader's records are the change records (mysqlddl.changes.records): a transaction's END
carries the resume position past its message, a DDL's SchemaChange too, and a Boundary follows the
last record of every message that ended a transaction, with the column types a restart needs."""

from __future__ import annotations

import json

from mysqlddl.changes.records import Boundary, Naming, RowChange, SchemaChange, TransactionMark
from mysqlddl.olr import OlrReader
from mysqlddl.olr.records import OracleSource
from mysqlddl.olr.source import OlrSource
from mysqlddl.options import Options
from mysqlddl.positions import OlrResumePosition

SYNCHDB = "corpora/olr-json/synchdb-docs"


def _doc(c_idx: int, payload: list, xid: str = "0x1", tm: int = 1_700_000_000_000_000_000) -> dict:
    return {"scn": 100, "tm": tm, "c_scn": 100, "c_idx": c_idx, "xid": xid, "db": "FREE", "payload": payload}


def _row(op="c", columns=True, after=None):
    p = {"op": op, "schema": {"owner": "APP", "table": "T"}, "after": after or {"ID": 1}}
    if columns:
        p["schema"]["columns"] = [{"name": "ID", "type": "number", "precision": 10, "scale": 0}]
    return p


def _file(tmp_path, docs, name="olr-1.json"):
    f = tmp_path / name
    f.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return f


def test_a_boundary_follows_every_record_of_the_commit_message(tmp_path):
    f = _file(tmp_path, [_doc(1, [{"op": "begin"}]), _doc(2, [_row()]),
                         _doc(3, [_row(after={"ID": 2}), {"op": "commit"}]),
                         _doc(4, [{"op": "begin"}], xid="0x2"), _doc(5, [_row(columns=False)], xid="0x2"),
                         _doc(6, [{"op": "commit"}], xid="0x2")])
    r = OlrReader([f], Options())
    recs = list(r)
    kinds = [type(x).__name__ + (f":{x.status}" if type(x) is TransactionMark else "") for x in recs]
    assert kinds == ["TransactionMark:BEGIN", "RowChange", "RowChange", "TransactionMark:END", "Boundary",
                     "TransactionMark:BEGIN", "RowChange", "TransactionMark:END", "Boundary"]
    end, b = recs[3], recs[4]
    assert isinstance(end.end, OlrResumePosition) and b.position == end.end
    lines = f.read_bytes().splitlines(keepends=True)
    assert (end.end.file, end.end.file_seq, end.end.message, end.end.pos) == (
        "olr-1.json", 1, len(b"".join(lines[:2])), len(b"".join(lines[:3])) - 1)
    assert (end.end.c_scn, end.end.c_idx, end.end.xid) == (100, 3, "0x1")
    assert b.ts == 1_700_000_000 and not b.ddl and b.delivered and b.gtid_set == "" and b.history_version == 0
    assert b.state == {"olr_columns": r.columns_state()} == {"olr_columns": [["APP", "T", {"ID": "number"}]]}
    # the same columns: the same state object (not built again per transaction)
    assert recs[8].state is b.state
    row = recs[1]
    assert type(row) is RowChange and type(row.source) is OracleSource and row.source.kind == "olr"
    assert (row.typing, row.flags, row.naming, row.source.qualified_name) == ("columns", {}, Naming.SCHEMA, "APP.T")


def test_boundaries_come_without_transaction_marks_too(tmp_path):
    f = _file(tmp_path, [_doc(1, [{"op": "begin"}]), _doc(2, [_row()]), _doc(3, [{"op": "commit"}])])
    recs = list(OlrReader([f], Options(), transactions=False))
    assert [type(x) for x in recs] == [RowChange, Boundary]
    assert recs[1].position.c_idx == 3


def test_a_ddl_message_ends_a_transaction_and_its_schema_change_resumes_past_it(shared_path, tmp_path):
    r = OlrReader(OlrSource(shared_path / SYNCHDB / "ddl_payload.json"), Options())
    recs = list(r)
    assert [type(x) for x in recs] == [SchemaChange, Boundary]
    sc, b = recs
    assert sc.database == "DBZUSER" and sc.record.position.key == (2930820, 3)
    assert isinstance(sc.position, OlrResumePosition) and sc.position == b.position
    assert b.ddl and b.history_version == 1 and b.position.pos == (shared_path / SYNCHDB / "ddl_payload.json").stat(
    ).st_size - 1


def test_no_boundary_inside_an_open_transaction(tmp_path):
    # (a cut output: the second transaction's begin with no commit yet)
    f = _file(tmp_path, [_doc(1, [{"op": "begin"}]), _doc(2, [{"op": "commit"}, {"op": "begin"}], xid="0x1"),
                         _doc(3, [_row()], xid="0x1")])
    recs = list(OlrReader([f], Options()))
    assert not any(type(x) is Boundary for x in recs)


def test_a_reader_over_a_source_resumes_with_the_column_types_of_the_state(tmp_path):
    f = _file(tmp_path, [_doc(1, [{"op": "begin"}]), _doc(2, [_row()]), _doc(3, [{"op": "commit"}]),
                         _doc(4, [{"op": "begin"}], xid="0x2"), _doc(5, [_row(columns=False)], xid="0x2"),
                         _doc(6, [{"op": "commit"}], xid="0x2")])
    first = [x for x in OlrReader([f], Options()) if type(x) is Boundary][0]
    again = list(OlrReader(OlrSource(f), Options(), start=first.position, columns=first.state["olr_columns"]))
    (row,) = [x for x in again if type(x) is RowChange]
    assert row.typing == "columns" and row.source.c_idx == 5
