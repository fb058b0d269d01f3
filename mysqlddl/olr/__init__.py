"""OpenLogReplicator (OLR) JSON output -> Oracle change events in the Debezium envelope.

    documents   a file as JSON documents with their line and byte offset (JSON Lines, pretty-printed
                or concatenated)
    messages    one document's OLR fields, checked (scn/scns, tm/tms, c_scn, c_idx, xid, db, payload)
    values      column values converted by Oracle type (NUMBER -> Decimal, DATE/TIMESTAMP -> datetime,
                RAW/BLOB -> bytes, ``?`` -> UNKNOWN, ...)
    reader      the join with the schema history (DDL parsed by the Oracle grammar), keyed by
                :class:`~mysqlddl.positions.OlrPosition` ``(c_scn, c_idx)``
    events      the change events and their envelope
    cli         ``mysqlddl olr FILE...``
"""

from importlib import import_module

# OLR's key type lives with the binlog one, at the bottom of the package (the history imports it)
from ..positions import OlrPosition as OlrPosition

# The public names load their submodule on first use (PEP 562): `mysqlddl --help` and every other
# subcommand import mysqlddl.olr.cli to define `olr`'s arguments, and must not pay for the reader,
# the envelope and the change-event machinery behind it.
_SUBMODULE = {
    "OracleChange": "events", "OracleRowChange": "events", "OracleSchemaChange": "events",
    "OracleSource": "events", "OracleTransactionMark": "events", "envelope": "events",
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


__all__ = sorted([*_SUBMODULE, "OlrPosition"])
