"""The Debezium envelope for changes, and JSON rendering of typed values.

Shapes follow Debezium's MySQL connector documentation ("Data change events", "Transaction
metadata", "Schema change topic"), so existing consumers can read them::

    row:     {"before", "after", "source": {version, connector, name, ts_ms, snapshot, db, table,
              server_id, gtid, file, pos, row, thread, query}, "op": c|u|d|t, "ts_ms",
              "transaction": {id, total_order, data_collection_order}}
             (+ "headers": {"__debezium.newkey"|"__debezium.oldkey": {pk...}} on the delete/create
              pair of a primary-key change, with pk_change="split")
    tx:      {"status": BEGIN|END, "id", "ts_ms", "event_count", "data_collections":
              [{"data_collection": "db.table", "event_count": n}]}         (END only, else null)
    schema:  {"source", "ts_ms", "databaseName", "schemaName": null, "ddl", "tableChanges":
              [{"type": CREATE|ALTER|DROP, "id": "\"db\".\"t\"", "table": {...} | null}]}

Deliberate differences, each for a batch reader of archived logs: the top-level ``ts_ms`` is the
event's own time (Debezium's is the connector's wall clock), so a re-run gives the same bytes;
temporal values are ISO-8601 text rather than Debezium's epoch numbers (exact for every MySQL
range, including zero dates kept as the server's text); DECIMAL is its exact digits as a string,
in plain notation with the column's scale (``"-0.0000000001"``, not ``str(Decimal)``'s ``"-1E-10"``);
binary values are base64 (Debezium's ``binary.handling.mode=bytes`` in JSON). JSON columns are the
document's text when the reader ran with ``Options(json_as="text")`` (as the CLI does), which is
Debezium's ``io.debezium.data.Json`` (a string), and MariaDB's stored text byte for byte; the Python
API's default (documents as objects) renders as nested JSON (a number other than an integer as its
exact digits in a string, as DECIMAL; the document ``null``, JSON_NULL, as its text ``"null"``, so
that it stays apart from SQL NULL, as in the text form). Debezium's Kafka-only parts have no
equivalent in a JSON Lines stream: no key, no tombstone after a delete; the two key headers of a
primary-key change (its "Primary key updates" section) become the ``headers`` member. Row events carry a
``mysqlddl`` object only when the column names are not the schema's (``naming``) or a TABLE_MAP
mismatch was let through (``mismatch``); schema changes carry each table's full model definition
under ``mysqlddl_table``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..binlog import rows as rows_mod
from ..changes.records import Boundary, Naming, RowBatch, RowChange, SchemaChange, TransactionMark
from ..changes.values import mariadb_uuid_text, typed_value
from ..model.types import TypeFamily
from . import oracle
from .base import Sink, close_output, open_output
from .envelope import _BY_TYPE, debezium_table, json_image, json_value, table_changes, transaction_dict

if TYPE_CHECKING:               # (names in annotations only)
    from ..changes.records import Change, Record, Source, TableMapping

F = TypeFamily

# --------------------------------------------------------------------------------------- sources


def source_dict(src: Source, *, name: str = "mysqlddl", include_query: bool = True) -> dict:
    """Debezium's ``source``. ``include_query=False`` leaves ``query`` null, as Debezium does unless
    ``include.query`` is set: the statement of a multi-row INSERT is repeated in every row's event."""
    return {"version": __version__, "connector": src.connector, "name": name, "ts_ms": src.ts * 1000,
            "snapshot": src.snapshot or "false", "db": src.db, "table": src.table, "server_id": src.server_id,
            "gtid": src.gtid, "file": src.file, "pos": src.pos, "row": src.row, "thread": src.thread,
            "query": src.query if include_query else None}


def row_envelope(ch: RowChange, *, name: str = "mysqlddl", include_query: bool = True) -> dict:
    out = {"before": json_image(ch.before), "after": json_image(ch.after),
           "source": source_dict(ch.source, name=name, include_query=include_query), "op": ch.op,
           "ts_ms": ch.source.ts * 1000, "transaction": None}
    if ch.transaction is not None:
        out["transaction"] = {"id": ch.transaction, "total_order": ch.total_order,
                              "data_collection_order": ch.table_order}
    if ch.headers:
        out["headers"] = {k: json_image(v) for k, v in ch.headers.items()}
    if ch.naming is not Naming.SCHEMA or ch.mismatch:
        extra: dict = {"naming": ch.naming.value}
        if ch.mismatch:
            extra["mismatch"] = list(ch.mismatch)
        out["mysqlddl"] = extra
    return out


def transaction_envelope(mark: TransactionMark) -> dict:
    return transaction_dict(mark.status, mark.id, mark.source.ts * 1000, mark.counts)


# Debezium's column jdbcType (java.sql.Types) per MySQL type, as its MySQL connector reports them.
def schema_envelope(sc: SchemaChange, *, name: str = "mysqlddl") -> dict:
    changes = table_changes(sc.record, sc.kinds)
    src = source_dict(sc.source, name=name)
    return {"source": src, "ts_ms": src["ts_ms"], "databaseName": sc.database, "schemaName": None,
            "ddl": sc.ddl, "tableChanges": changes,
            "position": {"file": sc.position.file, "pos": sc.position.pos}}


def envelope(change: Change, *, name: str = "mysqlddl", include_query: bool = True) -> dict:
    """The Debezium-shaped dict of any change (``include_query``: see :func:`source_dict`); a change
    of OLR output (its source's ``kind`` "olr") in the Oracle envelope (:mod:`.oracle`)."""
    if getattr(change, "source", None) is not None and change.source.kind == "olr":
        return oracle.envelope(change, name=name)
    if isinstance(change, RowChange):
        return row_envelope(change, name=name, include_query=include_query)
    if isinstance(change, TransactionMark):
        return transaction_envelope(change)
    if isinstance(change, SchemaChange):
        return schema_envelope(change, name=name)
    raise TypeError(f"not a change: {type(change).__name__}")


def kind_of(change: Change) -> str:
    """"row", "transaction" or "schema": what a JSON Lines consumer routes on."""
    return ("row" if isinstance(change, RowChange) else
            "transaction" if isinstance(change, TransactionMark) else "schema")


_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def dumps(obj: Any) -> str:
    """One JSON line: compact, ASCII-safe (undecodable text kept as \\udcXX escapes)."""
    return _ENCODE(obj)


def _members(d: dict, keys) -> str:
    """The JSON text of ``d``'s members ``keys``, as _ENCODE writes them inside ``d``."""
    return ",".join(f"{_ENCODE(k)}:{_ENCODE(d[k])}" for k in keys)


def _scalar(v) -> str:
    """The JSON text of a source field (int, str or None) as _ENCODE writes it."""
    if v is None:
        return "null"
    return int.__repr__(v) if type(v) is int else _ENCODE(v)


def value_text(v: Any) -> str:
    """One typed row value as its JSON text in a row image (what ``dumps`` writes for it)."""
    f = _BY_TYPE.get(type(v), json_value)
    return _ENCODE(v if f is None else f(v))


def _retyped_json(family, uuid_swap_all: bool):
    """value_text after the schema's retyping of a decoded value (TableMapping.image)."""
    if family is F.UUID:
        return lambda v: value_text(mariadb_uuid_text(v, uuid_swap_all))
    return lambda v: value_text(typed_value(family, v))


class LineRenderer:
    """``dumps(envelope(change, ...))`` for a stream, byte for byte, with less work per row: the
    ``source`` of a row event differs from its neighbours' only in ``row``, so its JSON is encoded
    once per rows event (the parts around ``row`` are cached) and the line is assembled from
    encoded parts. Changes with extras (headers, naming, mismatches) and non-row changes take the
    general path. tests/sinks/test_jsonl.py checks the two agree."""

    def __init__(self, *, name: str = "mysqlddl", include_query: bool = True):
        self.name = name
        self.include_query = include_query
        self._sources: dict = {}
        self._formats: dict = {}
        self._fixed: dict = {}
        self._last: tuple = (None, None)
        self._member_text: dict = {}

    def _member(self, k: str, v) -> str:
        """``"k":v`` as _ENCODE writes a source member: ints (not bools) by repr, the text of other
        values kept (names, files, versions repeat; a value seen once costs one entry)."""
        if type(v) is int:
            return f'"{k}":{int.__repr__(v)}'      # (source_dict's keys are plain ASCII names)
        hit = self._member_text.get((k, type(v), v))
        if hit is None:
            if len(self._member_text) > 4096:
                self._member_text.clear()
            hit = self._member_text[(k, type(v), v)] = f"{_ENCODE(k)}:{_ENCODE(v)}"
        return hit

    def _source_parts(self, ch: RowChange) -> tuple[str, str, str]:
        return self._source_head(ch.source, ch.transaction)

    def _source_head(self, s: Source, transaction: str | None) -> tuple[str, str, str]:
        # every source field but row (the one that changes from row to row)
        key = (s.connector, s.server_id, s.file, s.pos, s.ts, s.gtid, s.db, s.table, s.thread, s.query,
               transaction, s.snapshot)
        hit = self._sources.get(key)
        if hit is None:
            if len(self._sources) > 4096:
                self._sources.clear()
            hit = self._sources[key] = self._source_text(s, transaction)
        return hit

    def _source_text(self, s: Source, transaction: str | None) -> tuple[str, str, str]:
        """_ENCODE(source_dict(s) | {"row": 0}) around the row, plus the transaction's start, built
        from cached parts: a rows event's source differs from the previous one's in pos, and in
        ts/gtid/file/thread per transaction; the rest is encoded once per table
        (tests/sinks/test_jsonl.py and test_jsonl_render.py check the two agree)."""
        key = (s.connector, s.db, s.table, s.server_id, s.ts, s.gtid, s.file, s.thread, s.query, transaction,
               s.snapshot)
        parts = self._fixed.get(key)
        if parts is None:
            d = source_dict(s, name=self.name, include_query=self.include_query)
            keys = list(d)
            pos, row = keys.index("pos"), keys.index("row")
            txn = "null" if transaction is None else '{"id":' + _ENCODE(transaction) + ',"total_order":'
            if len(self._fixed) > 4096:
                self._fixed.clear()
            # the members before pos, and those after row (pos and row vary by event and by row);
            # a miss comes once per transaction (ts, gtid, thread), so members are encoded by
            # _member, which keeps the text of the repeating ones
            member = self._member
            parts = self._fixed[key] = ("{" + ",".join([member(k, d[k]) for k in keys[:pos]]) + ',"pos":',
                                        "," + ",".join([member(k, d[k]) for k in keys[row + 1:]]) + "}", txn)
        return f'{parts[0]}{_scalar(s.pos)},"row":', parts[1], parts[2]

    # -- whole rows events --------------------------------------------------------------------------
    def render_batch(self, batch: RowBatch) -> bytes | None:
        """Every row of a RowBatch as lines (ASCII bytes), rendered from the event's bytes by
        :func:`mysqlddl.binlog.rows.render_rows` (in C on the compiled core) into the lines
        ``__call__`` gives for each of its RowChanges (same bytes; tests/sinks/test_jsonl_render.py);
        notes the batch's row count. None when its rows need the per-change path (a table whose
        column names repeat)."""
        mapped = batch.mapping
        if mapped is self._last[0]:
            fmt = self._last[1]
        else:
            fmt = self.rows_format(mapped)
            self._last = (mapped, fmt)
        if fmt is None:
            return None
        src, op, ev = batch.source, batch.op, batch.event
        head, tail, txn = self._source_text(src, batch.transaction)
        extra = ""
        if mapped.naming is not Naming.SCHEMA or mapped.mismatch:
            more: dict = {"naming": mapped.naming.value}
            if mapped.mismatch:
                more["mismatch"] = list(mapped.mismatch)
            extra = ',"mysqlddl":' + _ENCODE(more)
        parts = ('{"before":', ',"after":', f',"source":{head}',
                 f'{tail},"op":"{op}","ts_ms":{src.ts * 1000},"transaction":{txn}',
                 ',"data_collection_order":', "}" + extra + "}\n")
        with mapped.decoding(ev):
            text, n = rows_mod.render_rows(mapped.plan, fmt, ev.body, ev.rows_start, ev.rows_end, ev.present1,
                                           ev.present2, base=ev.body_offset or 0, op=op, parts=parts,
                                           total0=batch.total0, table0=batch.table0)
        batch.note_count(n)
        return text

    def rows_format(self, m: TableMapping):
        """The JsonRowsFormat of a table mapping (cached: a table keeps its plan across TABLE_MAPs),
        None when its column names repeat (a JSON object cannot hold them)."""
        key = (m.plan, m.names, m.families, m.uuid_swap_all)
        hit = self._formats.get(key, False)
        if hit is False:
            hit = None
            if len(set(m.names)) == len(m.names) and len(m.families) == len(m.names):
                column_json = [None if fam is None else _retyped_json(fam, m.uuid_swap_all)
                               for fam in m.families]
                hit = rows_mod.JsonRowsFormat([_ENCODE(n) for n in m.names], value_text,
                                              column_json if any(column_json) else None)
            if len(self._formats) > 4096:
                self._formats.clear()
            self._formats[key] = hit
        return hit

    def __call__(self, change: Change) -> str:
        if type(change) is not RowChange or change.headers or change.mismatch \
                or change.naming is not Naming.SCHEMA or change.source.kind != "binlog":
            return dumps(envelope(change, name=self.name, include_query=self.include_query))
        head, tail, txn = self._source_parts(change)
        if change.transaction is not None:
            txn = f'{txn}{change.total_order},"data_collection_order":{change.table_order}}}'
        before = "null" if change.before is None else _ENCODE(json_image(change.before))
        after = "null" if change.after is None else _ENCODE(json_image(change.after))
        return (f'{{"before":{before},"after":{after},"source":{head}{change.source.row}{tail},'
                f'"op":"{change.op}","ts_ms":{change.source.ts * 1000},"transaction":{txn}}}')



class JsonLinesSink(Sink):
    """JSON Lines in the native format (this module's docstring): one line per change, a RowBatch's
    lines rendered from the event's bytes (:meth:`LineRenderer.render_batch`), every other record
    by :meth:`LineRenderer.__call__`. ``out``: a path (opened by :meth:`open`, closed by
    :meth:`close`) or an open stream, binary or text (the lines are ASCII; a stream without a
    binary layer, such as a StringIO, gets text). ``commit`` only records the position reached
    (``position``): a stream has nothing to commit, and a flush per transaction would cost a
    system call each; :meth:`close` flushes. :meth:`abort` keeps what was written (a stream
    cannot take it back) and closes as :meth:`close` does. ``render``: the line of a record other
    than a RowBatch (default: :class:`LineRenderer`, which renders a record of OLR output in the
    Oracle envelope by its source's kind)."""

    def __init__(self, out, *, name: str = "mysqlddl", include_query: bool = True, render=None):
        self.out = out
        self.lines = LineRenderer(name=name, include_query=include_query)
        self.render = render if render is not None else self.lines
        self.position = None
        self._stream = None
        self._owned = False
        self._text = False
        self._write = None

    def open(self) -> None:
        self._stream, self._owned, self._text = open_output(self.out)
        self._write = self._stream.write

    def write(self, record: Record) -> None:
        write = self._write
        if write is None:
            self.open()
            write = self._write
        render = self.render
        if type(record) is RowBatch:
            text = self.lines.render_batch(record)
            if text is None:
                text = "".join(render(ch) + "\n" for ch in record.changes()).encode("ascii")
            write(text.decode("ascii") if self._text else text)
        elif type(record) is not Boundary:        # (a Boundary is not a change: nothing to write)
            line = render(record) + "\n"
            write(line if self._text else line.encode("ascii"))

    def commit(self, position) -> None:
        self.position = position

    def abort(self) -> None:
        """(what was written stays: see the class docstring)"""

    def close(self) -> None:
        stream, self._stream, self._write = self._stream, None, None
        close_output(stream, self._owned)


__all__ = ["JsonLinesSink", "LineRenderer", "debezium_table", "dumps", "envelope", "json_image", "json_value",
           "kind_of", "row_envelope", "schema_envelope", "source_dict", "table_changes", "transaction_dict",
           "transaction_envelope", "value_text"]
