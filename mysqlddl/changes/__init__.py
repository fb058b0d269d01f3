"""The join: binlog events + the schema history -> change records.

    ChangeReader(source, ChangeOptions(...), schema=..., history=...)   the records, in log order
    records      RowBatch / RowChange / SchemaChange / TransactionMark / Boundary, the protocol, ChangeStats
    options      ChangeOptions (OnMismatch, PkChange)
    filters      Filters, GtidSet, positions
    classify     QueryKind, classify_query, sql_mode_names
    crosscheck   the TABLE_MAP cross-check and what the schema tells the row decoder
    reader's collaborators, each owning its state: places (Places: where events are), transactions
                 (Transactions: BEGIN/END, XA, the GTID set), schema (SchemaTracker: DDL -> history),
                 mapping (TableMaps: TABLE_MAP -> TableMapping)
    gtids        GtidTracker: the GTID set executed so far (what a Boundary carries)
    values       values the schema types better (MariaDB JSON, INET, UUID)
"""

from .classify import QueryKind, classify_query, sql_mode_names
from .crosscheck import check_column, column_spec, cross_check, plan_columns
from .filters import Filters, GtidSet, parse_position
from .options import ChangeOptions, OnMismatch, PkChange
from .reader import ChangeReader, read_changes
from .records import (
    Boundary,
    Change,
    ChangeStats,
    Naming,
    Record,
    RowBatch,
    RowChange,
    SchemaChange,
    Source,
    TableMapping,
    TransactionMark,
    iter_changes,
)
from .schema import charset_stating_databases
from .transactions import parse_xid
from .values import mariadb_uuid_text, typed_value

__all__ = ["Boundary", "Change", "ChangeOptions", "ChangeReader", "ChangeStats", "Filters", "GtidSet", "Naming",
           "OnMismatch", "PkChange", "QueryKind", "Record", "RowBatch", "RowChange", "SchemaChange", "Source",
           "TableMapping",
           "TransactionMark", "charset_stating_databases", "check_column", "classify_query", "column_spec",
           "cross_check", "iter_changes", "mariadb_uuid_text", "parse_position", "parse_xid", "plan_columns",
           "read_changes", "sql_mode_names", "typed_value"]
