"""OpenLogReplicator (OLR) JSON output -> Oracle change events in the Debezium envelope.

    documents   a file as JSON documents with their line and byte offset (JSON Lines, pretty-printed
                or concatenated)
    messages    one document's OLR fields, checked (scn/scns, tm/tms, c_scn, c_idx, xid, db, payload)
    values      column values converted by Oracle type (NUMBER -> Decimal, DATE/TIMESTAMP -> datetime,
                RAW/BLOB -> bytes, ``?`` -> UNKNOWN, ...)
    position    ``(c_scn, c_idx)``, the schema history's key for Oracle
    reader      the join with the schema history (DDL parsed by the Oracle grammar)
    events      the change events and their envelope
    cli         ``mysqlddl olr FILE...``
"""

from .events import (
    OracleChange,
    OracleRowChange,
    OracleSchemaChange,
    OracleSource,
    OracleTransactionMark,
    envelope,
)
from .position import OlrPosition
from .reader import OlrReader, OlrStats, read_olr
from .values import UNKNOWN, Kind

__all__ = ["UNKNOWN", "Kind", "OlrPosition", "OlrReader", "OlrStats", "OracleChange", "OracleRowChange",
           "OracleSchemaChange", "OracleSource", "OracleTransactionMark", "envelope", "read_olr"]
