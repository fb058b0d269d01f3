"""The Oracle envelope: how a sink renders the change records of OLR output (records whose
``source`` is an :class:`~mysqlddl.olr.records.OracleSource`, ``kind`` "olr"), as
``mysqlddl olr`` and an OLR pipeline write them.

The envelope is the MySQL path's (:mod:`mysqlddl.sinks.jsonl`): the same top-level keys and value
rendering (Decimal as its digits, datetimes ISO-8601, bytes base64), the same transaction BEGIN/END
records, the same schema-change record. Only ``source`` differs, as it does between Debezium's
connectors::

    row:     {"before", "after", "source": {version, connector: "oracle", name, ts_ms, snapshot, db,
              owner, table, scn, c_scn, c_idx, xid, rid, file, line}, "op": c|u|d, "ts_ms",
              "transaction": {id, total_order, data_collection_order},
              "mysqlddl": {"present", "typing", ["unknown", "lossy", "untyped", "unconverted"]}}
    tx:      {"status": BEGIN|END, "id", "ts_ms", "event_count", "data_collections"}
    schema:  {"source", "ts_ms", "databaseName", "schemaName", "ddl", "tableChanges",
              "position": {"c_scn", "c_idx"}}

``source`` names follow OLR (``owner``, ``xid``, ``c_scn``) where Debezium's Oracle connector says
``schema``/``txId``; ``file``/``line`` say where in the OLR output the message was.

``mysqlddl`` on rows says what Debezium's envelope cannot:

- ``present``: the columns each image holds. OLR's default compact column mode (``format.column``
  0) leaves NULL columns out of INSERT/DELETE and logs only the changed columns plus the primary key
  in UPDATE: a column missing from ``before``/``after`` is *absent*, not NULL;
- ``typing``: where the column types came from: ``columns`` (the message's ``schema.columns``, or
  the last ones OLR sent for the table), ``history`` (the table version in the schema history at
  the message's position), ``none`` (values left as the JSON gave them);
- ``unknown``: columns OLR printed as ``?`` (it could not decode them); ``lossy``: values with
  digits lost on the way (BINARY_FLOAT/DOUBLE printed with 6 significant digits, nanoseconds past
  microseconds); ``untyped``: columns no type was found for; ``unconverted``: (lenient reading
  only) values that did not fit their type, kept as given. Each is listed as ``"before.COL"`` /
  ``"after.COL"`` and present only when not empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import __version__
from ..changes.records import RowChange, SchemaChange, TransactionMark
from .envelope import json_image, table_changes, transaction_dict

if TYPE_CHECKING:               # (names in annotations only)
    from ..changes.records import Change


def source_dict(src, *, name: str = "mysqlddl") -> dict:
    """The ``source`` of an OLR record (an OracleSource)."""
    return {"version": __version__, "connector": "oracle", "name": name, "ts_ms": src.ts_ms,
            "snapshot": "false", "db": src.db, "owner": src.owner, "table": src.table, "scn": src.scn,
            "c_scn": src.c_scn, "c_idx": src.c_idx, "xid": src.xid, "rid": src.rid, "file": src.file,
            "line": src.line}


def row_envelope(ch: RowChange, *, name: str = "mysqlddl") -> dict:
    out = {"before": json_image(ch.before), "after": json_image(ch.after), "source": source_dict(ch.source, name=name),
           "op": ch.op, "ts_ms": ch.source.ts_ms, "transaction": None}
    if ch.transaction is not None:
        out["transaction"] = {"id": ch.transaction, "total_order": ch.total_order,
                              "data_collection_order": ch.table_order}
    extra: dict = {"present": {"before": None if ch.before is None else list(ch.before),
                               "after": None if ch.after is None else list(ch.after)},
                   "typing": ch.typing}
    for kind, cols in (ch.flags or {}).items():
        if cols:
            extra[kind] = list(cols)
    out["mysqlddl"] = extra
    return out


def transaction_envelope(mark: TransactionMark) -> dict:
    return transaction_dict(mark.status, mark.id, mark.source.ts_ms, mark.counts)


def schema_envelope(sc: SchemaChange, *, name: str = "mysqlddl") -> dict:
    changes = table_changes(sc.record, sc.kinds)
    src = source_dict(sc.source, name=name)
    # (the history's key of the DDL, (c_scn, c_idx), not where the reading resumes: sc.position)
    return {"source": src, "ts_ms": src["ts_ms"], "databaseName": sc.source.db,
            "schemaName": sc.source.owner, "ddl": sc.ddl, "tableChanges": changes,
            "position": {"c_scn": sc.record.position.c_scn, "c_idx": sc.record.position.c_idx}}


def envelope(change: Change, *, name: str = "mysqlddl") -> dict:
    """The Debezium-shaped dict of any change record of OLR output."""
    if isinstance(change, RowChange):
        return row_envelope(change, name=name)
    if isinstance(change, TransactionMark):
        return transaction_envelope(change)
    if isinstance(change, SchemaChange):
        return schema_envelope(change, name=name)
    raise TypeError(f"not a change: {type(change).__name__}")


__all__ = ["envelope", "row_envelope", "schema_envelope", "source_dict", "transaction_envelope"]
