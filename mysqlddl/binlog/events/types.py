"""Event type codes, header flags and the common event header, with the base event class.

Type codes: MySQL ``enum Log_event_type`` (libs/mysql/binlog/event/binlog_event.h) and MariaDB's
additions from 160 up (sql/log_event.h, "MariaDB-specific events"). Header flags: the
``LOG_EVENT_*_F`` defines of sql/log_event.h.

The v4 common header (binlog_event.h ``LOG_EVENT_HEADER_LEN`` = 19; MySQL internals manual,
"Binlog Event Header")::

    0        4     5          9            13        17      19
    +--------+-----+----------+------------+---------+-------+
    |timestamp|type| server_id| event_size | log_pos | flags |
    +--------+-----+----------+------------+---------+-------+

v1 (MySQL 3.23, ``OLD_HEADER_LEN`` = 13) stops after event_size: no log_pos, no flags.
"""

from __future__ import annotations

import dataclasses
import enum


class EventType(enum.IntEnum):
    UNKNOWN = 0
    START_V3 = 1
    QUERY = 2
    STOP = 3
    ROTATE = 4
    INTVAR = 5
    LOAD = 6
    SLAVE = 7
    CREATE_FILE = 8
    APPEND_BLOCK = 9
    EXEC_LOAD = 10
    DELETE_FILE = 11
    NEW_LOAD = 12
    RAND = 13
    USER_VAR = 14
    FORMAT_DESCRIPTION = 15
    XID = 16
    BEGIN_LOAD_QUERY = 17
    EXECUTE_LOAD_QUERY = 18
    TABLE_MAP = 19
    PRE_GA_WRITE_ROWS = 20
    PRE_GA_UPDATE_ROWS = 21
    PRE_GA_DELETE_ROWS = 22
    WRITE_ROWS_V1 = 23
    UPDATE_ROWS_V1 = 24
    DELETE_ROWS_V1 = 25
    INCIDENT = 26
    HEARTBEAT = 27
    IGNORABLE = 28
    ROWS_QUERY = 29
    WRITE_ROWS = 30
    UPDATE_ROWS = 31
    DELETE_ROWS = 32
    GTID = 33
    ANONYMOUS_GTID = 34
    PREVIOUS_GTIDS = 35
    TRANSACTION_CONTEXT = 36
    VIEW_CHANGE = 37
    XA_PREPARE = 38
    PARTIAL_UPDATE_ROWS = 39
    TRANSACTION_PAYLOAD = 40
    HEARTBEAT_V2 = 41
    GTID_TAGGED = 42
    # MariaDB (sql/log_event.h: "New MySQL/Sun events are to be added right above this comment"
    # ... "MariaDB events start at 160").
    MARIADB_ANNOTATE_ROWS = 160
    MARIADB_BINLOG_CHECKPOINT = 161
    MARIADB_GTID = 162
    MARIADB_GTID_LIST = 163
    MARIADB_START_ENCRYPTION = 164
    MARIADB_QUERY_COMPRESSED = 165
    MARIADB_WRITE_ROWS_COMPRESSED_V1 = 166
    MARIADB_UPDATE_ROWS_COMPRESSED_V1 = 167
    MARIADB_DELETE_ROWS_COMPRESSED_V1 = 168
    MARIADB_WRITE_ROWS_COMPRESSED = 169
    MARIADB_UPDATE_ROWS_COMPRESSED = 170
    MARIADB_DELETE_ROWS_COMPRESSED = 171


def type_name(code: int) -> str:
    """The EventType name, or ``TYPE_<n>`` for a code we do not know."""
    try:
        return EventType(code).name
    except ValueError:
        return f"TYPE_{code}"


# sql/log_event.h header flags.
LOG_EVENT_BINLOG_IN_USE_F = 0x1      # file not closed properly (set in the FDE while the server writes)
LOG_EVENT_THREAD_SPECIFIC_F = 0x4
LOG_EVENT_SUPPRESS_USE_F = 0x8
LOG_EVENT_ARTIFICIAL_F = 0x20
LOG_EVENT_RELAY_LOG_F = 0x40
LOG_EVENT_IGNORABLE_F = 0x80          # an unknown event with this flag may be skipped by size
LOG_EVENT_SKIP_REPLICATION_F = 0x8000  # MariaDB

BINLOG_MAGIC = b"\xfebin"              # BINLOG_MAGIC, sql/log_event.h
V4_HEADER_LEN = 19                     # LOG_EVENT_HEADER_LEN / LOG_EVENT_MINIMAL_HEADER_LEN
V1_HEADER_LEN = 13                     # OLD_HEADER_LEN
CHECKSUM_LEN = 4                       # BINLOG_CHECKSUM_LEN

# enum_binlog_checksum_alg (libs/mysql/binlog/event/binlog_event.h)
CHECKSUM_OFF = 0
CHECKSUM_CRC32 = 1
CHECKSUM_UNDEF = 255


@dataclasses.dataclass(frozen=True, slots=True)
class EventHeader:
    """The common header. ``log_pos`` is the server's end position of the event (0 for artificial
    events and in v1 headers); ``header_len`` is 19 (or 13 for v1)."""

    timestamp: int
    type_code: int
    server_id: int
    event_size: int
    log_pos: int
    flags: int
    header_len: int = V4_HEADER_LEN

    @property
    def type_name(self) -> str:
        return type_name(self.type_code)


@dataclasses.dataclass(frozen=True, slots=True)
class RelayOrigin:
    """Where an event read from a *relay log* comes from (``Event.origin``; None in a binlog).

    A replica's relay log (sql/rpl_rli.h, the I/O thread's ``queue_event``) holds two kinds of
    events: the ones the replica writes itself (its own FORMAT_DESCRIPTION at the start of every
    relay file, its ROTATE to the next relay file; ``own`` True, carrying the replica's
    ``server_id`` and relay-log positions) and the source's events, copied as they were, whose
    header ``log_pos`` is the *source's* end position. For those: ``file`` is the source's binlog
    name, from the last ROTATE of the source the reader saw (None before one named it: a relay file
    read alone after a relay-log rotation), ``pos`` the event's start in that binlog (log_pos -
    event size), ``next_pos`` its log_pos; both None for the source's events sent with log_pos 0
    (the artificial ROTATE that names the source's file, LOG_EVENT_ARTIFICIAL_F, and the copy of
    the source's FORMAT_DESCRIPTION the replica writes after each relay-log rotation)."""

    file: str | None
    pos: int | None
    next_pos: int | None
    own: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every decoded event.

    ``file``/``pos`` locate the event (``pos`` = its first header byte, ``next_pos`` = where the
    next event starts). For events found inside a TRANSACTION_PAYLOAD, ``pos``/``next_pos`` are the
    payload event's and ``payload_offset`` is the offset of this event inside the decompressed
    payload (``None`` for ordinary events). ``origin``: for events read from a relay log, where
    the source logged them (:class:`RelayOrigin`); None in a binlog, where ``file``/``pos`` are
    that place.
    """

    header: EventHeader
    file: str | None
    pos: int
    next_pos: int
    payload_offset: int | None = None
    origin: RelayOrigin | None = None

    @property
    def type_code(self) -> int:
        return self.header.type_code

    @property
    def type_name(self) -> str:
        return self.header.type_name

    @property
    def size(self) -> int:
        return self.header.event_size

    @property
    def timestamp(self) -> int:
        return self.header.timestamp

    def fields(self) -> dict:
        """The decoded fields of this event type (everything but the header and location)."""
        skip = {"header", "file", "pos", "next_pos", "payload_offset", "origin"}
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in skip and f.repr}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class StatementTextEvent(Event):
    """An event carrying the text of the statement behind the rows events that follow (MySQL's
    ROWS_QUERY, MariaDB's ANNOTATE_ROWS). ``query`` is decoded from ``query_bytes`` on each access,
    not when the event is read: a multi-row INSERT's text is as large as its rows (a third of a
    bulk load's binlog) and most readers of row changes never look at it."""

    query_bytes: bytes = dataclasses.field(repr=False)

    @property
    def query(self) -> str:
        """The statement (UTF-8; bytes that are not, as surrogate escapes)."""
        return self.query_bytes.decode("utf-8", "surrogateescape")

    def fields(self) -> dict:
        return {"query": self.query}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class OpaqueEvent(Event):
    """An event we do not decode (unknown type, or a decoder a user replaced with the default):
    its raw body bytes (CRC stripped) are kept."""

    body: bytes


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class IgnoredEvent(Event):
    """An unknown event flagged LOG_EVENT_IGNORABLE_F: skipped by size, not decoded (e.g. the type
    100 padding events Aurora writes). Kept in the stream so positions and counts stay visible."""
