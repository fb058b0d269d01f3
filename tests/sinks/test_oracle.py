"""The Oracle envelope (mysqlddl/sinks/oracle.py): the records of OLR output, told apart by their
source's kind, rendered by the JSON Lines sink and the segment renderers without a renderer of their
own; a Boundary is not a line."""

from __future__ import annotations

import io
import json

from mysqlddl.changes.records import Boundary, RowChange, SchemaChange, TransactionMark
from mysqlddl.olr import OlrReader
from mysqlddl.options import Options
from mysqlddl.sinks import oracle
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.jsonl import JsonLinesSink, LineRenderer, dumps, envelope
from mysqlddl.sinks.segments import renderer

SYNCHDB = "corpora/olr-json/synchdb-docs"


def _records(shared_path):
    files = [shared_path / SYNCHDB / "ddl_payload.json", shared_path / SYNCHDB / "dml_payload.json"]
    return list(OlrReader(files, Options()))


def test_the_envelope_of_each_record_kind(shared_path):
    recs = _records(shared_path)
    sc = next(r for r in recs if type(r) is SchemaChange)
    row = next(r for r in recs if type(r) is RowChange)
    env = oracle.envelope(row, name="n")
    assert env["source"]["connector"] == "oracle" and env["source"]["name"] == "n"
    assert env["source"]["owner"] == "DBZUSER" and env["source"]["db"] == "FREE" and env["op"] == "c"
    assert env["mysqlddl"] == {"present": {"before": None, "after": list(row.after)}, "typing": "columns"}
    assert env["ts_ms"] == row.source.ts_ms and env["after"]["ORDER_NUMBER"] == "10013"
    env = oracle.envelope(sc)
    # (the history's key of the DDL, not the resume position past its message)
    assert env["position"] == {"c_scn": 2930820, "c_idx": 3} and env["schemaName"] == "DBZUSER"
    assert env["tableChanges"][0]["type"] == "CREATE"
    mark = TransactionMark("END", "x", row.source, (("DBZUSER.ORDERS", 1),))
    assert oracle.envelope(mark) == {"status": "END", "id": "x", "ts_ms": row.source.ts_ms, "event_count": 1,
                                     "data_collections": [{"data_collection": "DBZUSER.ORDERS", "event_count": 1}]}


def test_the_native_renderers_render_olr_records_in_the_oracle_envelope(shared_path):
    recs = [r for r in _records(shared_path) if type(r) is not Boundary]
    want = [dumps(oracle.envelope(r, name="p")) for r in recs]
    assert [dumps(envelope(r, name="p")) for r in recs] == want
    assert [LineRenderer(name="p")(r) for r in recs] == want
    assert [renderer("native", name="p")(r) for r in recs] == want


def test_a_json_lines_sink_writes_olr_records_and_skips_boundaries(shared_path):
    recs = _records(shared_path)
    assert any(type(r) is Boundary for r in recs)
    out = io.StringIO()
    with JsonLinesSink(out, name="p") as sink:
        write_records(recs, sink)
    lines = out.getvalue().splitlines()
    assert lines == [dumps(oracle.envelope(r, name="p")) for r in recs if type(r) is not Boundary]
    assert all("position" not in json.loads(line) or "c_scn" in json.loads(line)["position"] for line in lines)
