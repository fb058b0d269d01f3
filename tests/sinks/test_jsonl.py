"""The Debezium envelope: shapes as Debezium documents its MySQL connector events ("Data change
events", "Transaction metadata", "Schema change topic"), and the JSON rendering of typed values."""

from __future__ import annotations

import datetime
import decimal
import json

import pytest

from mysqlddl.binlog.values.geometry import Geometry
from mysqlddl.changes import ChangeOptions, ChangeReader, Naming, RowChange, SchemaChange, Source, TransactionMark
from mysqlddl.sinks.jsonl import dumps, envelope, json_value, kind_of
from mysqlddl.sources import open_source

# Debezium MySQL connector documentation, "Data change events" -> source fields
DEBEZIUM_SOURCE = {"version", "connector", "name", "ts_ms", "snapshot", "db", "table", "server_id",
                   "gtid", "file", "pos", "row", "thread", "query"}


@pytest.fixture(scope="module")
def maxwell(shared_path):
    return list(ChangeReader(open_source(shared_path / "binlogs/maxwell/binlog.000004")).changes())


def test_row_event_shape(maxwell):
    row = next(c for c in maxwell if isinstance(c, RowChange) and c.op == "u")
    env = envelope(row, name="srv1")
    assert set(env) == {"before", "after", "source", "op", "ts_ms", "transaction"}
    assert set(env["source"]) == DEBEZIUM_SOURCE
    src = env["source"]
    assert src["connector"] == "mysql" and src["name"] == "srv1" and src["snapshot"] == "false"
    assert src["file"] == "binlog.000004" and src["pos"] == row.source.pos and src["row"] == 0
    assert src["ts_ms"] == row.source.ts * 1000 == env["ts_ms"]
    assert env["op"] == "u" and env["before"]["id"] == env["after"]["id"] == 2
    assert env["transaction"] == {"id": row.transaction, "total_order": row.total_order,
                                  "data_collection_order": row.table_order}
    assert "mysqlddl" not in env   # names from the schema: nothing to say
    assert kind_of(row) == "row"
    assert json.loads(dumps(env)) == env


def test_transaction_events_count_per_table(maxwell):
    marks = [c for c in maxwell if isinstance(c, TransactionMark)]
    begin, end = envelope(marks[0]), envelope(marks[1])
    assert set(begin) == {"status", "id", "ts_ms", "event_count", "data_collections"}
    assert begin["status"] == "BEGIN" and begin["event_count"] is None and begin["data_collections"] is None
    assert end["status"] == "END" and end["id"] == begin["id"]
    rows_between = [c for c in maxwell[maxwell.index(marks[0]):maxwell.index(marks[1])]
                    if isinstance(c, RowChange)]
    assert end["event_count"] == len(rows_between) > 0
    assert end["data_collections"] == [{"data_collection": "bac_schema.bac_history",
                                        "event_count": len(rows_between)}]


def test_schema_change_shape(maxwell):
    sc = next(c for c in maxwell if isinstance(c, SchemaChange) and "CREATE" in c.kinds)
    env = envelope(sc)
    assert {"source", "databaseName", "schemaName", "ddl", "tableChanges"} <= set(env)
    assert env["ddl"] == sc.ddl and env["schemaName"] is None
    (tc,) = env["tableChanges"]
    assert tc["type"] == "CREATE" and tc["id"] == f'"{sc.record.tables[0][0].database}".' \
        f'"{sc.record.tables[0][0].name}"'
    table = tc["table"]
    assert {"defaultCharsetName", "primaryKeyColumnNames", "columns"} <= set(table)
    first = table["columns"][0]
    assert {"name", "jdbcType", "typeName", "position", "optional", "autoIncremented", "generated"} <= set(first)
    assert first["position"] == 1 and tc["mysqlddl_table"]["columns"][0]["name"] == first["name"]
    drop = next(c for c in maxwell if isinstance(c, SchemaChange) and "DROP" in c.kinds)
    assert envelope(drop)["tableChanges"][0]["table"] is None


def _src(**kw):
    base = dict(connector="mariadb", server_version="10.11", server_id=1, file="b.000001", file_seq=1,
                pos=4, row=0, ts=1_700_000_000)
    base.update(kw)
    return Source(**base)


def test_positional_and_flagged_rows_say_so():
    ch = RowChange("c", _src(), None, {"col_1": 1}, ("col_1",), Naming.POSITIONAL,
                   mismatch=("column 1: int is logged as LONG",))
    env = envelope(ch)
    assert env["mysqlddl"] == {"naming": "positional", "mismatch": ["column 1: int is logged as LONG"]}
    assert env["transaction"] is None and env["before"] is None


UTC = datetime.timezone.utc


@pytest.mark.parametrize(("value", "rendered"), [
    (None, None), (True, True), (18446744073709551615, 18446744073709551615), ("caf\u00e9", "caf\u00e9"),
    (decimal.Decimal("-0.0010"), "-0.0010"), (1.5, 1.5), (float("nan"), "nan"),
    (datetime.date(2024, 2, 29), "2024-02-29"),
    (datetime.datetime(2024, 2, 29, 10, 11, 12, 345000), "2024-02-29T10:11:12.345000"),
    (datetime.datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), "1970-01-01T00:00:01Z"),
    (datetime.timedelta(hours=-838, minutes=-59, seconds=-59), "-838:59:59"),
    (datetime.timedelta(seconds=1, microseconds=5), "00:00:01.000005"),
    ("0000-00-00 00:00:00", "0000-00-00 00:00:00"),
    (b"\x00\xff", "AP8="), ({"a": [1, decimal.Decimal("2.5")]}, {"a": [1, "2.5"]}),
    (Geometry(4326, b"\x01"), {"srid": 4326, "wkb": "AQ=="}),
])
def test_json_value(value, rendered):
    assert json_value(value) == rendered


def test_truncate_event_shape():
    # Debezium MySQL connector, "truncate events": op "t", no before/after, the table in source
    ch = RowChange("t", _src(db="d", table="t"), None, None, ("id",), Naming.SCHEMA)
    env = envelope(ch)
    assert set(env) == {"before", "after", "source", "op", "ts_ms", "transaction"}
    assert (env["op"], env["before"], env["after"]) == ("t", None, None)
    assert (env["source"]["db"], env["source"]["table"]) == ("d", "t")


def test_primary_key_change_headers():
    # Debezium MySQL connector, "Primary key updates": the delete carries the new key in
    # __debezium.newkey, the create the old key in __debezium.oldkey
    d = RowChange("d", _src(), {"id": 1, "b": b"\x01"}, None, ("id", "b"), Naming.SCHEMA,
                  headers={"__debezium.newkey": {"id": 11}})
    c = RowChange("c", _src(), None, {"id": 11, "b": b"\x01"}, ("id", "b"), Naming.SCHEMA,
                  headers={"__debezium.oldkey": {"id": decimal.Decimal("1.0")}})
    assert envelope(d)["headers"] == {"__debezium.newkey": {"id": 11}}
    assert envelope(c)["headers"] == {"__debezium.oldkey": {"id": "1.0"}}
    assert "headers" not in envelope(RowChange("c", _src(), None, {"id": 1}, ("id",), Naming.SCHEMA))


def test_schema_change_source_carries_the_thread(maxwell):
    sc = next(c for c in maxwell if isinstance(c, SchemaChange))
    env = envelope(sc)
    assert isinstance(env["source"]["thread"], int) and env["source"]["thread"] == sc.source.thread


@pytest.mark.parametrize("include_query", [True, False])
def test_line_renderer_is_dumps_of_envelope(maxwell, shared_path, include_query):
    from pathlib import Path

    from mysqlddl.options import Options
    from mysqlddl.sinks.jsonl import LineRenderer

    sample = Path(__file__).resolve().parent.parent / "data" / "shop-bin.000001"
    baseline = (sample.parent / "shop-baseline.sql").read_text()
    go = shared_path / "binlogs/go-mysql/tcb-eval002c-bin.003320"     # positional names: general path
    streams = [maxwell, list(ChangeReader(open_source(sample),
                                          ChangeOptions(decode=Options(json_as="text"), pk_change="split",
                                                               truncate_events=True), schema=baseline).changes()),
               list(ChangeReader(open_source(go)).changes())]
    for changes in streams:
        render = LineRenderer(name="n1", include_query=include_query)
        for ch in changes:
            assert render(ch) == dumps(envelope(ch, name="n1", include_query=include_query))
    assert sum(isinstance(c, RowChange) for c in streams[1]) == 8


def test_snapshot_reads_say_so_in_source_snapshot():
    # Debezium's source.snapshot: "true" for a row read by the initial snapshot, "last" for its
    # last row, "false" for a change read from the log; the line renderer's source caches keep
    # the three apart (same position, same table).
    from mysqlddl.sinks.jsonl import LineRenderer

    render = LineRenderer(name="n1")
    lines = [json.loads(render(RowChange(op, _src(db="d", table="t", snapshot=snap), None, {"a": 1}, ("a",),
                                         Naming.SCHEMA)))
             for op, snap in (("r", "true"), ("r", "last"), ("c", None))]
    assert [x["source"]["snapshot"] for x in lines] == ["true", "last", "false"]
    assert [x["op"] for x in lines] == ["r", "r", "c"]
