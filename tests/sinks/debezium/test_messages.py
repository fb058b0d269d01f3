"""Debezium messages (key, value, topic, headers) against Debezium's MySQL connector documentation
(mysql.adoc: "Topic names", "Transaction metadata", "Change event keys", "_create_ events",
"Primary key updates", "Tombstone events", "_truncate_ events", "Schema change topic") and the
schema names and field order of debezium-core (``SchemaFactory``, ``Envelope``,
``AbstractSourceInfoStructMaker``). Input: tests/data/shop-bin.000001 (MariaDB 10.11, GTIDs) with
its baseline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import mysqlddl
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange, SchemaChange, iter_changes
from mysqlddl.model.catalog import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.options import change_event_options
from mysqlddl.sinks.debezium import DebeziumOptions, MessageBuilder, debezium_messages
from mysqlddl.sinks.debezium.ddl import primary_key
from mysqlddl.sinks.debezium.messages import topic_name, transaction_id
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parents[2] / "data"
NOW_NS = 1_700_000_000_123_456_789


def reader(**kw):
    return ChangeReader(open_source([DATA / "shop-bin.000001"]), ChangeOptions(decode=change_event_options(), **kw),
                        schema=(DATA / "shop-baseline.sql").read_text())


def messages(**opts):
    return list(debezium_messages(reader(), DebeziumOptions(topic_prefix="srv", **opts), clock=lambda: NOW_NS))


@pytest.fixture(scope="module")
def msgs():
    return messages()


def test_topics_are_routed_as_debezium_names_them(msgs):
    # "Topic names": <topicPrefix>.<databaseName>.<tableName>; the schema change topic <topicPrefix>;
    # "Transaction metadata": <topic.prefix>.transaction
    assert {m.topic for m in msgs} == {"srv.shop.orders", "srv.shop.customers", "srv", "srv.transaction"}


def test_topic_names_keep_to_kafkas_characters():
    # a table name with characters Kafka does not allow in a topic: they become "_" (Debezium's topic
    # naming strategy), which also keeps --topics-dir file names inside the directory
    assert topic_name("srv.lab.we`ird col/ü") == "srv.lab.we_ird_col__"
    assert topic_name("srv-1.db_2.T3") == "srv-1.db_2.T3"


def test_create_event_value_and_source(msgs):
    m = next(m for m in msgs if m.topic == "srv.shop.orders" and m.value and m.value["op"] == "c")
    v = m.value
    # "_create_ events": before null, after the row, op c; the envelope adds ts_us/ts_ns (Envelope)
    assert list(v) == ["before", "after", "source", "transaction", "op", "ts_ms", "ts_us", "ts_ns"]
    assert v["before"] is None and v["after"]["id"] == 1 and v["op"] == "c"
    # ts_ms/ts_us/ts_ns: the processing time (here the pinned clock)
    assert (v["ts_ms"], v["ts_us"], v["ts_ns"]) == (1_700_000_000_123, 1_700_000_000_123_456, NOW_NS)
    src = v["source"]
    # the source struct: the common fields (AbstractSourceInfoStructMaker: version, connector, name,
    # ts_ms, snapshot, db, sequence, ts_us, ts_ns) then the MySQL ones (MySqlSourceInfoStructMaker)
    assert list(src) == ["version", "connector", "name", "ts_ms", "snapshot", "db", "sequence", "ts_us", "ts_ns",
                         "table", "server_id", "gtid", "file", "pos", "row", "thread", "query"]
    assert (src["connector"], src["name"], src["snapshot"], src["db"], src["table"]) == \
        ("mysql", "srv", "false", "shop", "orders")
    assert src["ts_us"] == src["ts_ms"] * 1000 and src["ts_ns"] == src["ts_ms"] * 1_000_000
    assert src["file"] == "shop-bin.000001" and src["row"] == 0 and src["query"] is None   # include.query off
    # the transaction block (Transaction metadata, "Change data event enrichment")
    assert v["transaction"] == {"id": src["gtid"], "total_order": 1, "data_collection_order": 1}
    # "Change event keys": a field per primary-key column
    assert m.key == {"id": 1}


def test_values_use_debezium_encodings(msgs):
    after = next(m.value["after"] for m in msgs if m.topic == "srv.shop.orders" and m.value)
    assert after["total"] == "B88="                  # DECIMAL(10,2) 19.99: unscaled 1999 = 0x07CF, base64
    assert after["status"] == "new"                  # ENUM: the member
    assert isinstance(after["note"], str)            # JSON (MariaDB LONGTEXT + json_valid): the document's text
    created = next(m.value["after"]["created"] for m in msgs if m.topic == "srv.shop.customers" and m.value)
    assert isinstance(created, int)                  # DATETIME(3): io.debezium.time.Timestamp, epoch ms


def test_delete_is_followed_by_a_tombstone(msgs):
    # "Tombstone events": after a delete, the same key with a null value
    i = next(i for i, m in enumerate(msgs) if m.value and m.value.get("op") == "d")
    d, t = msgs[i], msgs[i + 1]
    assert d.value["after"] is None and d.value["before"]["id"] == d.key["id"]
    assert (t.topic, t.key, t.value) == (d.topic, d.key, None)
    none = messages(tombstones_on_delete=False)
    assert sum(m.value is None for m in none) == 0 and len(none) == len(msgs) - 1


def test_schemas_enable_wraps_keys_and_values():
    m = next(m for m in messages(schemas=True) if m.topic == "srv.shop.orders")
    # "Change event keys": schema name <server>.<db>.<table>.Key, not optional, a field per PK column
    assert m.key == {"schema": {"type": "struct", "fields": [{"type": "int32", "optional": False, "field": "id"}],
                                "optional": False, "name": "srv.shop.orders.Key"}, "payload": {"id": 1}}
    env = m.value["schema"]
    # "Change event values": the Envelope, its before/after <server>.<db>.<table>.Value, the source
    # io.debezium.connector.mysql.Source; op required, ts_ms optional
    assert env["name"] == "srv.shop.orders.Envelope" and env["optional"] is False
    fields = {f["field"]: f for f in env["fields"]}
    assert fields["before"]["name"] == fields["after"]["name"] == "srv.shop.orders.Value"
    assert fields["source"]["name"] == "io.debezium.connector.mysql.Source"
    assert fields["transaction"]["name"] == "event.block"
    assert (fields["op"]["type"], fields["op"]["optional"]) == ("string", False)
    assert (fields["ts_ms"]["type"], fields["ts_ms"]["optional"]) == ("int64", True)
    assert [f["field"] for f in fields["source"]["fields"]] == list(m.value["payload"]["source"])
    value_fields = {f["field"]: f for f in fields["after"]["fields"]}
    assert value_fields["id"] == {"type": "int32", "optional": False, "field": "id"}
    assert value_fields["total"]["parameters"] == {"scale": "2", "connect.decimal.precision": "10"}
    assert value_fields["status"]["parameters"] == {"allowed": "new,paid,shipped"}


def test_primary_key_change_is_delete_tombstone_create():
    # "Primary key updates": a DELETE with header __debezium.newkey (and its tombstone, as the
    # update-events note says: three events), then a CREATE with header __debezium.oldkey
    upd = next(c for c in iter_changes(reader()) if isinstance(c, RowChange) and c.op == "u"
               and c.source.table == "orders")
    moved = dataclasses.replace(upd, after=dict(upd.after, id=99))
    b = MessageBuilder(DebeziumOptions(topic_prefix="srv"), clock=lambda: NOW_NS)
    d, t, c = b.row_messages(moved)
    old = {"id": upd.before["id"]}
    assert (d.value["op"], d.key, d.headers) == ("d", old, {"__debezium.newkey": {"id": 99}})
    assert (t.key, t.value) == (old, None)
    assert (c.value["op"], c.key, c.headers) == ("c", {"id": 99}, {"__debezium.oldkey": old})
    assert c.value["before"] is None and c.value["after"]["id"] == 99
    # an update that keeps its key stays one event
    assert [m.value["op"] for m in b.row_messages(upd)] == ["u"]


def test_primary_key_change_counts_as_two_events_in_its_transaction():
    # "Transaction metadata": event_count and data_collections count the data events emitted; the
    # split update is two (the tombstone is not a data event), and the orders after it move on
    changes = list(iter_changes(reader(transactions=True)))
    upd = next(c for c in changes if isinstance(c, RowChange) and c.op == "u" and c.source.table == "orders")
    end = next(c for c in changes if getattr(c, "status", None) == "END" and c.id == upd.transaction)
    b = MessageBuilder(DebeziumOptions(topic_prefix="srv"))
    d, _, c = b.row_messages(dataclasses.replace(upd, after=dict(upd.after, id=99)))
    assert c.value["transaction"]["total_order"] == d.value["transaction"]["total_order"] + 1
    assert c.value["transaction"]["data_collection_order"] == d.value["transaction"]["data_collection_order"] + 1
    counts = dict(end.counts)
    value = b.transaction_message(end).value
    assert value["event_count"] == sum(counts.values()) + 1
    assert {x["data_collection"]: x["event_count"] for x in value["data_collections"]} == \
        {**counts, "shop.orders": counts["shop.orders"] + 1}
    # the next transaction starts from the reader's counts again
    assert b.transaction_message(end).value["event_count"] == sum(counts.values())


def test_a_table_without_primary_key_is_keyed_by_its_first_unique_key():
    # "Change event keys": the primary key, or the unique key when the table has none
    cat = mysqlddl.apply_script(Catalog(), "CREATE DATABASE d; CREATE TABLE d.t (a INT, b INT NOT NULL, UNIQUE KEY (b))"
                                           "; CREATE TABLE d.n (a INT)")
    assert primary_key(cat.table(TableId("d", "t"))) == ["b"] and primary_key(cat.table(TableId("d", "n"))) == []


def test_reader_split_primary_key_change_keeps_its_headers():
    # pk_change=split in the reader already gives the delete/create pair with raw key headers
    row = next(c for c in iter_changes(reader()) if isinstance(c, RowChange) and c.source.table == "orders")
    d = dataclasses.replace(row, op="d", before=row.after, after=None, headers={"__debezium.newkey": {"id": 5}})
    msgs = MessageBuilder(DebeziumOptions(topic_prefix="srv", schemas=True)).row_messages(d)
    assert msgs[0].headers == {"__debezium.newkey": {"schema": msgs[0].key["schema"], "payload": {"id": 5}}}
    assert msgs[1].value is None                      # its tombstone


def test_truncate_event_has_a_null_key():
    # "_truncate_ events": the key is null, op t, no before/after
    row = next(c for c in iter_changes(reader()) if isinstance(c, RowChange))
    t = dataclasses.replace(row, op="t", before=None, after=None)
    (m,) = MessageBuilder(DebeziumOptions(topic_prefix="srv")).row_messages(t)
    assert m.key is None and m.value["op"] == "t" and m.value["before"] is None and m.value["after"] is None


def test_transaction_metadata(msgs):
    tx = [m for m in msgs if m.topic == "srv.transaction"]
    begin, end = tx[0], next(m for m in tx if m.value["status"] == "END")
    # "Transaction metadata": BEGIN with null event_count and data_collections; END with the counts
    assert list(begin.value) == ["status", "id", "event_count", "data_collections", "ts_ms"]
    assert begin.value["event_count"] is None and begin.value["data_collections"] is None
    assert begin.key == {"id": begin.value["id"]} and end.value["id"] == begin.value["id"]
    assert end.value["event_count"] == sum(d["event_count"] for d in end.value["data_collections"])
    assert all(set(d) == {"data_collection", "event_count"} for d in end.value["data_collections"])
    assert end.value["data_collections"][0]["data_collection"].startswith("shop.")


def test_without_transaction_metadata():
    # provide.transaction.metadata=false: no transaction topic, the `transaction` block null
    msgs = messages(provide_transaction_metadata=False)
    assert "srv.transaction" not in {m.topic for m in msgs}
    assert all(m.value["transaction"] is None for m in msgs if m.value and "op" in m.value)


def test_transaction_id_without_gtid_is_file_and_position():
    # "for systems which don't have GTID enabled ... file=mysql-bin.000002,pos=1913"
    assert transaction_id("mysql-bin.000002:1913", None) == "file=mysql-bin.000002,pos=1913"
    assert transaction_id("0-1-5", "0-1-5") == "0-1-5"


def test_schema_change_message(msgs):
    (m,) = [m for m in msgs if m.topic == "srv"]
    # "Schema change topic": key databaseName, value source/ts_ms/databaseName/schemaName/ddl/tableChanges
    assert m.key == {"databaseName": "shop"}
    assert list(m.value) == ["source", "ts_ms", "databaseName", "schemaName", "ddl", "tableChanges"]
    assert m.value["schemaName"] is None and m.value["ddl"].startswith("ALTER TABLE customers")
    (change,) = m.value["tableChanges"]
    assert (change["type"], change["id"]) == ("ALTER", '"shop"."customers"')
    table = change["table"]
    assert list(table) == ["defaultCharsetName", "primaryKeyColumnNames", "columns", "comment", "attributes"]
    assert table["primaryKeyColumnNames"] == ["id"]
    assert [c["name"] for c in table["columns"]] == ["id", "name", "email", "phone", "created"]
    phone = table["columns"][3]
    assert (phone["jdbcType"], phone["typeName"], phone["length"], phone["charsetName"], phone["optional"]) == \
        (12, "VARCHAR", 20, "utf8mb4", True)


def test_schema_changes_with_schemas_on():
    m = next(m for m in messages(schemas=True) if m.topic == "srv")
    assert m.key["schema"]["name"] == "io.debezium.connector.mysql.SchemaChangeKey"
    assert m.value["schema"]["name"] == "io.debezium.connector.mysql.SchemaChangeValue"
    cols = m.value["schema"]["fields"][5]["items"]["fields"][2]["fields"][2]["items"]["fields"]
    assert [f["field"] for f in cols] == list(m.value["payload"]["tableChanges"][0]["table"]["columns"][0])


def test_every_record_kind_is_rendered():
    kinds = {type(r).__name__ for r in reader()}
    assert {"RowBatch", "TransactionMark", "SchemaChange"} <= kinds
    with pytest.raises(TypeError):
        MessageBuilder().messages(object())
    assert isinstance(next(r for r in reader() if isinstance(r, SchemaChange)), SchemaChange)
