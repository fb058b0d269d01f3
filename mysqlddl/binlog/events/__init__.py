"""Binlog events: one decoder module per event type (or small family), a registry keyed by type
code, frozen event dataclasses."""

from .control import (
                      HeartbeatEvent,
                      IncidentEvent,
                      IntvarEvent,
                      RandEvent,
                      RotateEvent,
                      RowsQueryEvent,
                      StopEvent,
                      UserVarEvent,
                      XaPrepareEvent,
                      XidEvent,
)
from .format_description import FormatDescriptionEvent, StartV3Event
from .gtid import GtidEvent, PreviousGtidsEvent
from .mariadb import AnnotateRowsEvent, BinlogCheckpointEvent, GtidListEvent, MariadbGtidEvent
from .payload import TransactionPayloadEvent
from .query import BeginLoadQueryEvent, ExecuteLoadQueryEvent, QueryEvent, QueryStatus
from .registry import DEFAULT_REGISTRY, Registry, decode_opaque, without_statement_texts
from .rows_event import RowsEvent
from .table_map import TableMapEvent
from .types import (
    Event,
    EventHeader,
    EventType,
    IgnoredEvent,
    OpaqueEvent,
    RelayOrigin,
    StatementTextEvent,
    type_name,
)

__all__ = [
    "AnnotateRowsEvent", "BeginLoadQueryEvent", "BinlogCheckpointEvent", "DEFAULT_REGISTRY", "Event",
    "EventHeader", "EventType", "ExecuteLoadQueryEvent", "FormatDescriptionEvent", "GtidEvent",
    "GtidListEvent", "HeartbeatEvent", "IgnoredEvent", "IncidentEvent", "IntvarEvent",
    "MariadbGtidEvent", "OpaqueEvent", "PreviousGtidsEvent", "QueryEvent", "QueryStatus", "RandEvent",
    "Registry", "RelayOrigin", "RotateEvent", "RowsEvent", "RowsQueryEvent", "StartV3Event", "StatementTextEvent",
    "StopEvent",
    "TableMapEvent", "TransactionPayloadEvent", "UserVarEvent", "XaPrepareEvent", "XidEvent",
    "decode_opaque", "type_name", "without_statement_texts",
]
