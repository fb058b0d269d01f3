"""OpenLogReplicator (OLR) JSON output -> change records (:mod:`mysqlddl.changes.records`).

    documents   a file as JSON documents with their line and byte offset (JSON Lines, pretty-printed
                or concatenated)
    source      the OLR source (``olr:///path``): a file or a directory of output files, followed as
                OLR writes them, as documents; its identity and resume position
                (:class:`~mysqlddl.positions.OlrResumePosition`)
    messages    one document's OLR fields, checked (scn/scns, tm/tms, c_scn, c_idx, xid, db, payload)
    values      column values converted by Oracle type (NUMBER -> Decimal, DATE/TIMESTAMP -> datetime,
                RAW/BLOB -> bytes, ``?`` -> UNKNOWN, ...)
    reader      the join with the schema history (DDL parsed by the Oracle grammar), keyed by
                :class:`~mysqlddl.positions.OlrPosition` ``(c_scn, c_idx)``: RowChange, SchemaChange,
                TransactionMark and Boundary records
    records     :class:`OracleSource`, the ``source`` of those records

The records' rendering (the Debezium-shaped Oracle envelope) is the sinks' (:mod:`mysqlddl.sinks.oracle`);
``mysqlddl olr FILE...`` is :mod:`mysqlddl.cli.olr`.
"""

from importlib import import_module

# OLR's position types live with the binlog one, at the bottom of the package (the history and a
# pipeline's checkpoints import them)
from ..positions import OlrPosition as OlrPosition
from ..positions import OlrResumePosition as OlrResumePosition

# The public names load their submodule on first use (PEP 562): `mysqlddl --help` and every other
# subcommand import mysqlddl.olr.cli to define `olr`'s arguments, and must not pay for the reader
# and the change-record machinery behind it.
_SUBMODULE = {
    "OracleSource": "records", "OlrSource": "source", "olr_source": "source",
    "OlrReader": "reader", "OlrStats": "reader", "read_olr": "reader",
    "UNKNOWN": "values", "Kind": "values",
}


def __getattr__(name: str):
    module = _SUBMODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = sorted([*_SUBMODULE, "OlrPosition", "OlrResumePosition"])
