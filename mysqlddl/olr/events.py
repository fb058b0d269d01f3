"""Oracle change events from OLR, and their Debezium envelope.

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

import dataclasses
from collections.abc import Mapping

from .. import __version__
from ..history import HistoryRecord
from ..model.table import Table
from ..sinks.jsonl import json_image, table_changes, transaction_dict
from .documents import file_number


@dataclasses.dataclass(frozen=True, slots=True)
class OracleSource:
    """Where a change came from. ``scn``: the transaction's SCN (carried from its first message
    when later ones leave it out); ``ts_ms``: its commit time in ms (None when OLR gave none);
    ``file``/``line``/``offset``: the message in the OLR output; ``payload``: index in its
    ``payload`` array; ``end``: the byte offset just past the message."""

    file: str
    line: int
    offset: int
    payload: int = 0
    scn: int | None = None
    c_scn: int | None = None
    c_idx: int | None = None
    xid: str | None = None
    ts_ms: int | None = None
    db: str | None = None
    owner: str | None = None
    table: str | None = None
    rid: str | None = None
    end: int = 0

    # a binlog Source's place names, for what orders records by them (a pipeline's segment names)
    @property
    def pos(self) -> int:
        """The message's byte offset in its file."""
        return self.offset

    @property
    def file_seq(self) -> int:
        """The number in the file's name (:func:`~mysqlddl.olr.documents.file_number`)."""
        return file_number(self.file)


@dataclasses.dataclass(frozen=True, slots=True)
class OracleRowChange:
    """One row: ``before``/``after`` column -> typed value (absent columns are left out, see the
    module docstring); ``typing`` columns | history | none; ``flags`` kind -> ("after.COL", ...);
    ``table_version``: the history's table when it typed the row."""

    op: str
    source: OracleSource
    before: dict | None
    after: dict | None
    typing: str = "none"
    flags: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    table_version: Table | None = None
    transaction: str | None = None
    total_order: int = 0
    table_order: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class OracleSchemaChange:
    """A DDL message applied to the history: ``record`` holds the resulting table versions (None for
    a dropped table), ``kinds`` CREATE/ALTER/DROP per ``record.tables`` entry."""

    source: OracleSource
    ddl: str
    record: HistoryRecord
    kinds: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class OracleTransactionMark:
    """BEGIN or END of a transaction; ``counts`` (END): ((``OWNER.TABLE``, rows), ...)."""

    status: str
    id: str
    source: OracleSource
    counts: tuple[tuple[str, int], ...] = ()

    @property
    def event_count(self) -> int:
        return sum(n for _, n in self.counts)


OracleChange = OracleRowChange | OracleSchemaChange | OracleTransactionMark


def source_dict(src: OracleSource, *, name: str = "mysqlddl") -> dict:
    return {"version": __version__, "connector": "oracle", "name": name, "ts_ms": src.ts_ms,
            "snapshot": "false", "db": src.db, "owner": src.owner, "table": src.table, "scn": src.scn,
            "c_scn": src.c_scn, "c_idx": src.c_idx, "xid": src.xid, "rid": src.rid, "file": src.file,
            "line": src.line}


def row_envelope(ch: OracleRowChange, *, name: str = "mysqlddl") -> dict:
    out = {"before": json_image(ch.before), "after": json_image(ch.after), "source": source_dict(ch.source, name=name),
           "op": ch.op, "ts_ms": ch.source.ts_ms, "transaction": None}
    if ch.transaction is not None:
        out["transaction"] = {"id": ch.transaction, "total_order": ch.total_order,
                              "data_collection_order": ch.table_order}
    extra: dict = {"present": {"before": None if ch.before is None else list(ch.before),
                               "after": None if ch.after is None else list(ch.after)},
                   "typing": ch.typing}
    for kind, cols in ch.flags.items():
        if cols:
            extra[kind] = list(cols)
    out["mysqlddl"] = extra
    return out


def transaction_envelope(mark: OracleTransactionMark) -> dict:
    return transaction_dict(mark.status, mark.id, mark.source.ts_ms, mark.counts)


def schema_envelope(sc: OracleSchemaChange, *, name: str = "mysqlddl") -> dict:
    changes = table_changes(sc.record, sc.kinds)
    src = source_dict(sc.source, name=name)
    return {"source": src, "ts_ms": src["ts_ms"], "databaseName": sc.source.db,
            "schemaName": sc.source.owner, "ddl": sc.ddl, "tableChanges": changes,
            "position": {"c_scn": sc.record.position.c_scn, "c_idx": sc.record.position.c_idx}}


def envelope(change: OracleChange, *, name: str = "mysqlddl") -> dict:
    """The Debezium-shaped dict of any Oracle change."""
    if isinstance(change, OracleRowChange):
        return row_envelope(change, name=name)
    if isinstance(change, OracleTransactionMark):
        return transaction_envelope(change)
    if isinstance(change, OracleSchemaChange):
        return schema_envelope(change, name=name)
    raise TypeError(f"not an Oracle change: {type(change).__name__}")


__all__ = ["OracleChange", "OracleRowChange", "OracleSchemaChange", "OracleSource", "OracleTransactionMark",
           "envelope", "row_envelope", "schema_envelope", "source_dict", "transaction_envelope"]
