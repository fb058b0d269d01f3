"""Change records as Debezium MySQL connector messages: (topic, key, value, headers).

What one record becomes (Debezium's MySQL connector documentation, "Data change events",
"Transaction metadata", "Schema change topic", "Topic names"; schema names and field order from
debezium-core ``SchemaFactory`` and ``Envelope``):

    row c/u/d     topic <prefix>.<db>.<table>; key: struct <prefix>.<db>.<table>.Key of the primary
                  key columns (null without a primary key); value: Envelope {before, after, source,
                  transaction, op, ts_ms, ts_us, ts_ns} (before/after: <prefix>.<db>.<table>.Value)
    delete        then a tombstone: same key, null value (tombstones.on.delete, default true)
    PK change     an update whose key changed: a delete carrying header __debezium.newkey (+ its
                  tombstone), then a create carrying header __debezium.oldkey ("Primary key updates")
    truncate      op t, null key, no before/after
    BEGIN/END     topic <prefix>.transaction; key TransactionMetadataKey {id}; value
                  TransactionMetadataValue {status, id, event_count, data_collections, ts_ms}; the id
                  is the GTID, or ``file=<binlog>,pos=<position>`` without GTIDs
    DDL           topic <prefix>; key SchemaChangeKey {databaseName}; value SchemaChangeValue (see
                  :mod:`.ddl`), one message per changed table; none for TRUNCATE

``ts_ms``/``ts_us``/``ts_ns`` at the top level are the processing time (the clock given to the
builder; Debezium: the connector's JVM clock); ``source.ts_*`` the event's time from the binlog
header (seconds). With ``schemas`` every key and value is ``{"schema", "payload"}`` as Kafka
Connect's JSON converter writes it with ``schemas.enable=true``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import NamedTuple

from ... import __version__
from ...changes.records import Boundary, RowBatch, RowChange, SchemaChange, TransactionMark
from ...changes.values import value_family
from ...model.table import Table
from .ddl import primary_key, table_changes
from .options import DebeziumOptions
from .values import NO_DEFAULT, Codec, column_codec, default_json

SNAPSHOT_ALLOWED = "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental"


class Message(NamedTuple):
    """One Kafka record: ``key``/``value`` JSON data (None for a null key or a tombstone);
    ``headers``: {name: JSON data} or None."""

    topic: str
    key: object
    value: object
    headers: dict | None = None


def _f(schema: dict, name: str, optional: bool | None = None) -> dict:
    out = dict(schema)
    if optional is not None:
        out["optional"] = optional
    out["field"] = name
    return out


def _s(kind: str, name: str, optional: bool = False) -> dict:
    return {"type": kind, "optional": optional, "field": name}


SOURCE_SCHEMA = {
    "type": "struct", "fields": [
        _s("string", "version"), _s("string", "connector"), _s("string", "name"), _s("int64", "ts_ms"),
        {"type": "string", "optional": True, "name": "io.debezium.data.Enum", "version": 1,
         "parameters": {"allowed": SNAPSHOT_ALLOWED}, "default": "false", "field": "snapshot"},
        _s("string", "db"), _s("string", "sequence", True), _s("int64", "ts_us", True), _s("int64", "ts_ns", True),
        _s("string", "table", True), _s("int64", "server_id"), _s("string", "gtid", True), _s("string", "file"),
        _s("int64", "pos"), _s("int32", "row"), _s("int64", "thread", True), _s("string", "query", True)],
    "optional": False, "name": "io.debezium.connector.mysql.Source", "version": 1}

TRANSACTION_BLOCK = {"type": "struct", "fields": [_s("string", "id"), _s("int64", "total_order"),
                                                  _s("int64", "data_collection_order")],
                     "optional": True, "name": "event.block", "version": 1}

TX_KEY_SCHEMA = {"type": "struct", "fields": [_s("string", "id")], "optional": False,
                 "name": "io.debezium.connector.common.TransactionMetadataKey", "version": 1}
TX_VALUE_SCHEMA = {
    "type": "struct", "fields": [
        _s("string", "status"), _s("string", "id"), _s("int64", "event_count", True),
        {"type": "array", "items": {"type": "struct", "fields": [_s("string", "data_collection"),
                                                                 _s("int64", "event_count")],
                                    "optional": True, "name": "event.collection", "version": 1},
         "optional": True, "field": "data_collections"},
        _s("int64", "ts_ms")],
    "optional": False, "name": "io.debezium.connector.common.TransactionMetadataValue", "version": 1}

SCHEMA_KEY_SCHEMA = {"type": "struct", "fields": [_s("string", "databaseName")], "optional": False,
                     "name": "io.debezium.connector.mysql.SchemaChangeKey", "version": 1}

_COLUMN_SCHEMA = {
    "type": "struct", "fields": [
        _s("string", "name"), _s("int32", "jdbcType"), _s("int32", "nativeType", True), _s("string", "typeName"),
        _s("string", "typeExpression", True), _s("string", "charsetName", True), _s("int32", "length", True),
        _s("int32", "scale", True), _s("int32", "position"), _s("boolean", "optional", True),
        _s("boolean", "autoIncremented", True), _s("boolean", "generated", True), _s("string", "comment", True),
        _s("string", "defaultValueExpression", True),
        {"type": "array", "items": {"type": "string", "optional": False}, "optional": True, "field": "enumValues"}],
    "optional": False, "name": "io.debezium.connector.schema.Column", "version": 1}
_TABLE_SCHEMA = {
    "type": "struct", "fields": [
        _s("string", "defaultCharsetName", True),
        {"type": "array", "items": {"type": "string", "optional": False}, "optional": True,
         "field": "primaryKeyColumnNames"},
        {"type": "array", "items": _COLUMN_SCHEMA, "optional": False, "field": "columns"},
        _s("string", "comment", True),
        {"type": "array", "items": {"type": "struct", "fields": [_s("string", "name"), _s("string", "value")],
                                    "optional": False, "name": "io.debezium.connector.schema.Attribute",
                                    "version": 1},
         "optional": True, "field": "attributes"}],
    "optional": True, "name": "io.debezium.connector.schema.Table", "version": 1}
SCHEMA_VALUE_SCHEMA = {
    "type": "struct", "fields": [
        dict(SOURCE_SCHEMA, field="source"), _s("int64", "ts_ms"), _s("string", "databaseName", True),
        _s("string", "schemaName", True), _s("string", "ddl", True),
        {"type": "array", "items": {"type": "struct", "fields": [_s("string", "type"), _s("string", "id"),
                                                                 dict(_TABLE_SCHEMA, field="table")],
                                    "optional": False, "name": "io.debezium.connector.schema.Change",
                                    "version": 1},
         "optional": False, "field": "tableChanges"}],
    "optional": False, "name": "io.debezium.connector.mysql.SchemaChangeValue", "version": 1}


_INVALID_TOPIC_CHARS = re.compile(r"[^a-zA-Z0-9._-]")


def topic_name(name: str) -> str:
    """A Kafka topic name as Debezium's topic naming strategy makes it: characters Kafka does not
    allow in a topic name (anything but letters, digits, ``.``, ``_`` and ``-``) become ``_``. The
    schema names of keys and values start with the same name."""
    return _INVALID_TOPIC_CHARS.sub("_", name)


class TableCodec:
    """Per table version: the codecs of its columns, its key columns, and its Connect schemas."""

    def __init__(self, table: Table | None, names: tuple[str, ...], db: str, name: str, opts: DebeziumOptions):
        prefix = topic_name(f"{opts.topic_prefix}.{db}.{name}")
        self.topic = prefix
        self.codecs: dict[str, Codec] = {}
        fields = []
        cols = {c.name: c for c in table.columns} if table is not None else {}
        for n in names:
            col = cols.get(n)
            if col is None:
                codec = Codec({"type": "string", "optional": True}, str)
                optional = True
            else:
                family = value_family(col, table)
                codec = column_codec(col, family, opts)
                optional = col.nullable
                default = default_json(col, family, codec)
                if default is not NO_DEFAULT:
                    codec = Codec(dict(codec.schema, default=default), codec.encode)
            self.codecs[n] = codec
            fields.append(_f(codec.schema, n, optional))
        self.key_columns = tuple(primary_key(table)) if table is not None else ()
        value_schema = {"type": "struct", "fields": fields, "optional": True, "name": f"{prefix}.Value"}
        self.key_schema = {"type": "struct", "fields": [_f(self.codecs[c].schema, c, False) for c in self.key_columns],
                           "optional": False, "name": f"{prefix}.Key"} if self.key_columns else None
        self.envelope_schema = {
            "type": "struct", "fields": [
                dict(value_schema, field="before"), dict(value_schema, field="after"),
                dict(SOURCE_SCHEMA, field="source"), dict(TRANSACTION_BLOCK, field="transaction"),
                _s("string", "op"), _s("int64", "ts_ms", True), _s("int64", "ts_us", True),
                _s("int64", "ts_ns", True)],
            "optional": False, "name": f"{prefix}.Envelope", "version": 2}

    def image(self, values: dict | None) -> dict | None:
        if values is None:
            return None
        codecs = self.codecs
        out = {}
        for k, v in values.items():
            codec = codecs.get(k)
            out[k] = None if v is None else (codec.encode(v) if codec is not None else str(v))
        return out

    def key(self, values: dict | None) -> dict | None:
        if not self.key_columns or values is None:
            return None
        codecs = self.codecs
        return {c: None if values.get(c) is None else codecs[c].encode(values[c]) for c in self.key_columns}


def transaction_id(id_: str, gtid: str | None) -> str:
    """Debezium's transaction id: the GTID, else ``file=<binlog>,pos=<position>`` of its BEGIN
    (the reader's id is ``<binlog>:<position>`` there)."""
    if gtid is not None:
        return id_
    f, sep, p = id_.rpartition(":")
    return f"file={f},pos={p}" if sep and p.isdigit() else id_


class MessageBuilder:
    """Records -> :class:`Message` lists. ``clock``: processing time in nanoseconds (default
    ``time.time_ns``; a test gives a fixed one)."""

    def __init__(self, options: DebeziumOptions | None = None, *, clock=None):
        self.options = options or DebeziumOptions()
        self.clock = clock or time.time_ns
        self._tables: dict[int, tuple[object, TableCodec]] = {}
        # per open transaction: (extra data events, {db.table: extra}) from primary-key changes split here
        self._extra: dict[str, tuple[int, dict]] = {}

    # -- helpers ------------------------------------------------------------------------------------
    def _wrap(self, schema, payload):
        if payload is None or not self.options.schemas:
            return payload
        return {"schema": schema, "payload": payload}

    def _now(self) -> tuple[int, int, int]:
        ns = self.clock()
        return ns // 1_000_000, ns // 1_000, ns

    def source(self, src) -> dict:
        ts = src.ts
        return {"version": __version__, "connector": "mysql", "name": self.options.topic_prefix,
                "ts_ms": ts * 1000, "snapshot": src.snapshot or "false", "db": src.db or "", "sequence": None,
                "ts_us": ts * 1_000_000, "ts_ns": ts * 1_000_000_000, "table": src.table,
                "server_id": src.server_id, "gtid": src.gtid, "file": src.file, "pos": src.pos, "row": src.row,
                "thread": src.thread, "query": src.query if self.options.include_query else None}

    def table_codec(self, ch: RowChange) -> TableCodec:
        version = ch.table_version
        key = id(version) if version is not None else hash((ch.source.db, ch.source.table, ch.columns))
        hit = self._tables.get(key)
        if hit is None or hit[0] is not (version if version is not None else ch.columns):
            if len(self._tables) > 4096:
                self._tables.clear()
            codec = TableCodec(version, ch.columns, ch.source.db or "", ch.source.table or "", self.options)
            hit = self._tables[key] = (version if version is not None else ch.columns, codec)
        return hit[1]

    # -- records ------------------------------------------------------------------------------------
    def messages(self, record) -> list[Message]:
        t = type(record)
        if t is RowBatch:
            out = []
            for ch in record.changes():
                out += self.row_messages(ch)
            return out
        if t is RowChange:
            return self.row_messages(record)
        if t is TransactionMark:
            return [self.transaction_message(record)] if self.options.provide_transaction_metadata else []
        if t is SchemaChange:
            return self.schema_messages(record)
        if t is Boundary:
            return []           # (not a change: no message)
        raise TypeError(f"not a change record: {t.__name__}")

    def _envelope(self, tc: TableCodec, ch: RowChange, op: str, before, after, step: int = 0) -> dict:
        """``step``: 1 for the create of a primary-key change we split (it follows its delete)."""
        ms, us, ns = self._now()
        txn = None
        if ch.transaction is not None and self.options.provide_transaction_metadata:
            extra_total, extra_table = self._extra.get(ch.transaction, (0, {}))
            extra = extra_table.get(f"{ch.source.db}.{ch.source.table}", 0)
            txn = {"id": transaction_id(ch.transaction, ch.source.gtid), "total_order": ch.total_order + extra_total
                   + step, "data_collection_order": ch.table_order + extra + step}
        return {"before": tc.image(before), "after": tc.image(after), "source": self.source(ch.source),
                "transaction": txn, "op": op, "ts_ms": ms, "ts_us": us, "ts_ns": ns}

    def row_messages(self, ch: RowChange) -> list[Message]:
        tc = self.table_codec(ch)
        wrap = self._wrap
        if ch.op == "t":
            ms, us, ns = self._now()
            value = {"before": None, "after": None, "source": self.source(ch.source), "transaction": None,
                     "op": "t", "ts_ms": ms, "ts_us": us, "ts_ns": ns}
            return [Message(tc.topic, None, wrap(tc.envelope_schema, value))]
        op = ch.op
        if op == "u":
            old, new = tc.key(ch.before), tc.key(ch.after)
            if old != new:      # "Primary key updates": a delete (+ tombstone) and a create
                out = self._delete(tc, ch, ch.before, {"__debezium.newkey": wrap(tc.key_schema, new)}) + \
                    [Message(tc.topic, wrap(tc.key_schema, new),
                             wrap(tc.envelope_schema, self._envelope(tc, ch, "c", None, ch.after, 1)),
                             {"__debezium.oldkey": wrap(tc.key_schema, old)})]
                self._count_extra(ch)
                return out
        headers = None
        if ch.headers:          # the reader split the primary-key change already (pk_change=split)
            headers = {k: wrap(tc.key_schema, tc.key(v)) for k, v in ch.headers.items()}
        if op == "d":
            return self._delete(tc, ch, ch.before, headers)
        key = tc.key(ch.after)
        return [Message(tc.topic, wrap(tc.key_schema, key),
                        wrap(tc.envelope_schema, self._envelope(tc, ch, op, ch.before, ch.after)), headers)]

    def _delete(self, tc: TableCodec, ch: RowChange, before, headers) -> list[Message]:
        key = self._wrap(tc.key_schema, tc.key(before))
        out = [Message(tc.topic, key, self._wrap(tc.envelope_schema, self._envelope(tc, ch, "d", before, None)),
                       headers)]
        if self.options.tombstones_on_delete:
            out.append(Message(tc.topic, key, None))
        return out

    def _count_extra(self, ch: RowChange) -> None:
        """One more data event in ``ch``'s transaction than the reader counted (a split update)."""
        if ch.transaction is None:
            return
        total, tables = self._extra.get(ch.transaction, (0, {}))
        name = f"{ch.source.db}.{ch.source.table}"
        tables[name] = tables.get(name, 0) + 1
        self._extra[ch.transaction] = (total + 1, tables)

    def transaction_message(self, mark: TransactionMark) -> Message:
        end = mark.status == "END"
        tid = transaction_id(mark.id, mark.source.gtid)
        # the reader counts rows; a primary-key change split here is two data events
        extra = self._extra.pop(mark.id, (0, {}))[1] if end else {}
        counts = [(t, n + extra.get(t, 0)) for t, n in mark.counts]
        value = {"status": mark.status, "id": tid, "event_count": sum(n for _, n in counts) if end else None,
                 "data_collections": [{"data_collection": t, "event_count": n} for t, n in counts]
                 if end else None, "ts_ms": mark.source.ts * 1000}
        return Message(topic_name(f"{self.options.topic_prefix}.transaction"), self._wrap(TX_KEY_SCHEMA, {"id": tid}),
                       self._wrap(TX_VALUE_SCHEMA, value))

    def schema_messages(self, sc: SchemaChange) -> list[Message]:
        changes = table_changes(sc)
        if changes is None:
            return []
        source = self.source(sc.source)
        topic = topic_name(self.options.topic_prefix)
        groups: list[tuple[str, list]] = [(db or sc.database or "", [change]) for db, change in changes] \
            or [(sc.database or "", [])]
        out = []
        for db, tcs in groups:
            value = {"source": source, "ts_ms": self._now()[0], "databaseName": db, "schemaName": None,
                     "ddl": sc.ddl, "tableChanges": tcs}
            out.append(Message(topic, self._wrap(SCHEMA_KEY_SCHEMA, {"databaseName": db}),
                               self._wrap(SCHEMA_VALUE_SCHEMA, value)))
        return out

    def iter_messages(self, records) -> Iterator[Message]:
        for rec in records:
            yield from self.messages(rec)


__all__ = ["SCHEMA_KEY_SCHEMA", "SCHEMA_VALUE_SCHEMA", "SOURCE_SCHEMA", "TRANSACTION_BLOCK", "TX_KEY_SCHEMA",
           "TX_VALUE_SCHEMA", "Message", "MessageBuilder", "TableCodec", "topic_name", "transaction_id"]
