r"""The event decoder: one event's bytes in, one typed :class:`~mysqlddl.binlog.events.Event` out.

The file reader (:class:`~mysqlddl.binlog.reader.BinlogReader`: files, magic number, start/stop,
truncated tails) and a server's binlog stream (:mod:`mysqlddl.sources.server`: one packet per
event) both hand each framed event to an :class:`EventDecoder`, so a streamed event equals the one
read from the file. Everything about an event that is not about where its bytes came from is here.

Event layout (sql/log_event.h, libs/mysql/binlog/event/binlog_event.h; MySQL internals manual
"Binary Log Overview" / "Event Structure")::

    event: [ common header (19, or 13 in v1) ][ post-header ][ body ][ CRC32 (4, if the FDE says) ]
                                               \____ fenced body: what a decoder may read ___/

- The FDE (or START_EVENT_V3 in v1/v3 files) comes first; it gives the common header length, each
  type's post-header length and the checksum algorithm. It is the decoder's state (``fde``), with
  the TABLE_MAP cache (``tables``) the rows events are decoded against.
- CRC32 (zlib polynomial, ``my_checksum``) covers the whole event except the CRC itself. The FDE's
  CRC is computed with LOG_EVENT_BINLOG_IN_USE_F cleared (the server sets that flag in place while
  the file is open, after computing the CRC).
- Events inside a TRANSACTION_PAYLOAD carry no CRC and are expanded after the payload event.
- A type without a decoder: flagged LOG_EVENT_IGNORABLE_F it is skipped by size (an
  :class:`IgnoredEvent` keeps it visible); otherwise it is kept opaque with its bytes (the
  registry's default). Every decoder must consume its fenced body exactly (STYLE 9).

Relay logs (a replica's copy of its source's binlog; ARCHITECTURE.md "Binlog facts") are read like
binlogs and recognised by their content, so no flag is needed::

    relay file: [ FDE (the replica's) ][ ROTATE, artificial, log_pos 0: "source file F, pos 4" ]
                [ FDE (the source's) ][ source events, log_pos = the SOURCE's end positions ] ...
                [ ROTATE (the replica's): next relay file ]
    after a relay-log rotation (even inside a transaction, MariaDB 10.11 seen):
                [ FDE (the replica's) ][ FDE (the source's copy, log_pos 0) ][ source events ] ...
    after a reconnect inside a transaction (MariaDB 10.11 seen; it skips what it already had):
                [ FDE (the replica's) ][ ROTATE, artificial ][ FDE (the source's, log_pos 0) ]
                [ the source binlog's first GTID_LIST, BINLOG_CHECKPOINT again ][ GTID_LIST, artificial ]
                [ ROTATE (source server_id, relay log_pos): "go on at position P" ][ source events ] ...

A file is a relay log once it shows (0) an event flagged LOG_EVENT_RELAY_LOG_F (0x40, "written by
the replica into its relay log", sql/log_event.h; MariaDB 10.11 sets it on the relay log's own FDE
and ROTATE, so a MariaDB relay log is known from its first event), (1) a FORMAT_DESCRIPTION that is
not its first event (a binlog has one FDE, written when the file is opened: ``MYSQL_BIN_LOG::open``;
a relay log adds the source's after its own), (2) an event flagged LOG_EVENT_ARTIFICIAL_F (a source
makes those for its dump thread only, e.g. the ROTATE naming its file; only a replica's I/O thread
writes them to a file), or (3) a ROTATE with another server_id than the file's FDE (the source's
ROTATE copied at the end of one of its binlogs; a server's own ROTATE carries its own id). The file
name (``*relay-bin.NNNNNN`` by default) is not used: a renamed archive must read the same. Once one
file of a reading is a relay log, the files after it are too (a relay-log set is read as a whole):
its table maps then carry across files, because a relay log rotates when it outgrows
``max_relay_log_size`` whatever the transaction (a TABLE_MAP may sit in one relay file and its rows
in the next).

In a relay log, the events that carry the replica's own ``server_id`` (the first FDE's) keep the
"next position = offset + size" check; the source's events do not (their ``log_pos`` is the
source's): each gets ``origin``, a :class:`~mysqlddl.binlog.events.RelayOrigin` with the source's
binlog name (from the last source ROTATE) and the source's positions. Errors still name the relay
file and the byte offset in it. (The first FDE of the first relay file is decoded before the file is
known to be one, when it lacks the LOG_EVENT_RELAY_LOG_F flag: its ``origin`` is then None.) A
server's dump sends its binlog, never a relay log: :meth:`EventDecoder.decode` (the stream's step)
does not look for the signs.
"""

from __future__ import annotations

import dataclasses
import struct
import warnings
import zlib
from collections.abc import Iterator

from ..errors import BinlogError, ChecksumError, CorruptEventError, EncryptedBinlogError, NotABinlogError
from ..options import DEFAULT, ErrorPolicy, Options
from . import speedups
from .events._cursor import Cursor
from .events.context import DecodeContext
from .events.control import RotateEvent
from .events.format_description import FormatDescriptionEvent
from .events.payload import TransactionPayloadEvent
from .events.registry import DEFAULT_REGISTRY, Registry
from .events.table_map import TableMapCache, TableMapEvent
from .events.types import (
    CHECKSUM_LEN,
    LOG_EVENT_ARTIFICIAL_F,
    LOG_EVENT_BINLOG_IN_USE_F,
    LOG_EVENT_IGNORABLE_F,
    LOG_EVENT_RELAY_LOG_F,
    V1_HEADER_LEN,
    V4_HEADER_LEN,
    Event,
    EventHeader,
    EventType,
    IgnoredEvent,
    RelayOrigin,
)


class BinlogDecodeWarning(UserWarning):
    """An event body could not be decoded and ``error_policy`` is WARN."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class UndecodableEvent(Event):
    """An event whose body failed to decode (or whose CRC failed) while ``options.error_policy``
    is COLLECT or WARN: the raw body (CRC included) and the positioned error. Framing errors
    (truncation, impossible sizes) and encryption still stop the reading: nothing after them can
    be trusted."""

    body: bytes
    error: BinlogError = dataclasses.field(compare=False)


#: Larger than any event a server writes (max_allowed_packet tops at 1 GiB); a header announcing
#: more is corrupt, and we refuse before allocating.
MAX_EVENT_SIZE = (1 << 30) + (1 << 20)

_UNEXPECTED = (ValueError, IndexError, KeyError, struct.error, UnicodeError, OverflowError,
               zlib.error, TypeError, AttributeError)

# Type codes as plain ints: they are compared on every event, and on Python 3.11 ``t ==
# EventType.X`` (an enum member's lookup through the class) costs 5 to 9 times ``t == _X`` (timeit).
_FDE = int(EventType.FORMAT_DESCRIPTION)
_ROTATE = int(EventType.ROTATE)
_PAYLOAD = int(EventType.TRANSACTION_PAYLOAD)
# FORMAT_DESCRIPTION and START_V3 are decoded whatever ``only_types`` says: they define the framing.
_ALWAYS = frozenset((_FDE, int(EventType.START_V3)))


def parse_header(raw, header_len: int = V4_HEADER_LEN) -> EventHeader:
    """The common header at the start of ``raw`` (which holds at least ``header_len`` bytes): v4
    (19 bytes: timestamp, type, server_id, size, log_pos, flags) or v1 (13: no log_pos, no flags;
    ``Log_event_header``, libs/mysql/binlog/event/binlog_event.h)."""
    if header_len == V1_HEADER_LEN:
        ts, t, sid, size = struct.unpack_from("<IBII", raw)
        return EventHeader(ts, t, sid, size, 0, 0, V1_HEADER_LEN)
    ts, t, sid, size, log_pos, flags = struct.unpack_from("<IBIIIH", raw)
    return EventHeader(ts, t, sid, size, log_pos, flags, header_len)


def type_codes(only_types) -> frozenset[int] | None:
    """``only_types`` (names or codes) as the set of type codes (None: every type)."""
    return None if only_types is None else frozenset(
        int(EventType[t.upper()]) if isinstance(t, str) else int(t) for t in only_types)


class EventDecoder:
    """Turn framed events into typed Events, keeping the state that spans events.

    ``registry``: the ``{type: decoder}`` map (default :data:`DEFAULT_REGISTRY`). ``only_types``:
    names or codes of the event types to decode; every other event is left undecoded (its CRC still
    checked) once an FDE is in force -- a cheap pre-scan for DDL and transaction boundaries. Rows
    events then have no TABLE_MAP unless TABLE_MAP is listed too. ``check_log_pos``: :meth:`frame`
    checks each v4 header's next position against the file offset (relay logs' source events
    exempt). ``checksum`` (None: unknown) says whether events before the first FDE carry a CRC32
    (a server's fake ROTATE does when it sends checksums).

    State: ``fde`` the FORMAT_DESCRIPTION in force, ``tables`` the TABLE_MAP cache, ``errors`` the
    errors an error policy other than RAISE kept, ``events_read`` the events handed out,
    ``relay_log`` whether a relay log was recognised, ``source_file`` the source binlog its last
    source ROTATE named.

    ``options.error_policy``: RAISE (default) raises at the first bad body or CRC; COLLECT and
    WARN give an :class:`UndecodableEvent` instead (the error also collects in ``errors``; WARN
    warns with :class:`BinlogDecodeWarning`); SKIP drops the event (still collected). A bad frame
    (an impossible size) and encryption always raise.

    Two ways in: a file reader calls :meth:`new_file`, :meth:`frame` on each header, then
    :meth:`first` on the file's first event and :meth:`take` on the others; a stream whose events
    come whole calls :meth:`decode`. Either expands a TRANSACTION_PAYLOAD with :meth:`expand` /
    :meth:`payload_events`.
    """

    def __init__(self, *, options: Options = DEFAULT, registry: Registry | None = None, only_types=None,
                 check_log_pos: bool = False, checksum: bool | None = None):
        self.options = options
        self.registry = registry if registry is not None else DEFAULT_REGISTRY
        self.only_types = type_codes(only_types)
        self.check_log_pos = check_log_pos
        self.checksum = checksum
        self.tables = TableMapCache(options)
        self.fde: FormatDescriptionEvent | None = None
        self.errors: list[BinlogError] = []
        self.events_read = 0
        self.relay_log = False                # a relay log was recognised (sticky: see module doc)
        self.source_file: str | None = None   # in a relay log: the source binlog last named
        self.from_source = False              # the event just framed is the source's (relay log)
        self._relay_file = False              # the current file is a relay log
        self._own_fde: FormatDescriptionEvent | None = None   # the current file's first FDE

    @staticmethod
    def header(data) -> EventHeader:
        """The v4 common header of an event's bytes (CorruptEventError when there are fewer than 19)."""
        if len(data) < V4_HEADER_LEN:
            raise CorruptEventError(f"an event of {len(data)} bytes is shorter than its {V4_HEADER_LEN}-byte header")
        return parse_header(data, V4_HEADER_LEN)

    def skipped(self, type_code: int) -> bool:
        """``only_types`` leaves this event undecoded (FORMAT_DESCRIPTION and START_V3 never are)."""
        return self.only_types is not None and type_code not in self.only_types and type_code not in _ALWAYS

    # -- a file's events: new_file, frame, first, take ---------------------------------------------
    def new_file(self) -> None:
        """A file begins: no FDE in force until its first event. Its table maps are forgotten, unless
        the reading is a relay-log set (a relay file may start inside a transaction)."""
        if not self.relay_log:
            self.tables.clear()
        self.fde = None
        self._own_fde = None
        self._relay_file = self.relay_log

    def frame(self, name: str, offset: int, header: EventHeader) -> int:
        """Check the header of the event at ``offset`` of file ``name`` before its body is read, and
        return its CRC length (0 or 4). Recognises a relay log (module docstring) and sets
        ``from_source``; refuses an impossible size and, with ``check_log_pos``, a next position
        that is not the event's end."""
        fde = self.fde
        self.from_source = from_source = self._relay_check(header, fde is None)
        if header.type_code == _FDE or fde is None:
            crc = 0      # the FDE's own CRC is handled after its body says which algorithm
        elif self._relay_file and not from_source and self._own_fde is not None:
            # the replica's own events follow its relay log's checksum setting
            crc = CHECKSUM_LEN if self._own_fde.uses_crc32 else 0
        else:
            crc = CHECKSUM_LEN if fde.uses_crc32 else 0
        size = header.event_size
        if size < header.header_len + crc or size > MAX_EVENT_SIZE:
            raise CorruptEventError(f"event size {size} is impossible (header {header.header_len} "
                                    f"bytes{', CRC 4' if crc else ''}; at most {MAX_EVENT_SIZE})",
                                    file=name, log_pos=offset, event_type=header.type_name,
                                    offset=offset + 9)
        if self.check_log_pos and header.log_pos and not from_source and header.header_len == V4_HEADER_LEN and (
                fde.binlog_version >= 4 if fde is not None
                else header.type_code == _FDE):
            check_log_pos(name, offset, header)
        return crc

    def unread(self, header: EventHeader) -> bool:
        """Whether a reader may pass this framed event without reading its body: ``only_types``
        leaves it out, and it is not a source ROTATE (that one names the source's next binlog)."""
        return self.skipped(header.type_code) and not (self.from_source and header.type_code == _ROTATE)

    def first(self, name: str, offset: int, header: EventHeader, data: bytes, crc: int, *,
              count: bool = True) -> FormatDescriptionEvent:
        """Decode a file's first event, which must be its FORMAT_DESCRIPTION (or START_V3), and put it
        in force. Errors raise whatever the policy: nothing after it can be framed without it.
        ``count=False``: not handed out (a reading that starts further on)."""
        ev = self._decode(name, offset, header, data, crc)
        if not isinstance(ev, FormatDescriptionEvent):
            raise CorruptEventError(f"the first event is {header.type_name}, not a FORMAT_DESCRIPTION_EVENT",
                                    file=name, log_pos=offset, event_type=header.type_name, offset=offset)
        self.fde = ev
        if self._own_fde is None:
            self._own_fde = ev
        if count:
            self.events_read += 1
        return ev

    def take(self, name: str, offset: int, header: EventHeader, data: bytes, crc: int) -> Event | None:
        """Decode a framed event after a file's first (``data``: header, body and CRC) and keep its
        state: None when ``only_types`` leaves it out or the SKIP policy drops it."""
        t = header.type_code
        only = self.only_types
        if only is not None and t not in only and t not in _ALWAYS:
            if crc and self.options.verify_checksums:
                self.verify_crc(name, offset, header, data, data)
            if self.from_source and t == _ROTATE:
                # not handed out, but it names the source's next binlog
                self._source_rotate(self._decode(name, offset, header, data, crc))
            return None
        ev = self._decode(name, offset, header, data, crc, True, 5)
        if isinstance(ev, FormatDescriptionEvent):
            self.fde = ev
        elif isinstance(ev, TableMapEvent):
            self.tables.add(ev)
        elif isinstance(ev, UndecodableEvent):
            if self.options.error_policy == ErrorPolicy.SKIP:
                return None
        elif self.from_source and isinstance(ev, RotateEvent):
            ev = self._source_rotate(ev)
        self.events_read += 1
        return ev

    # -- a stream's events ------------------------------------------------------------------------
    def decode(self, file: str, pos: int, data: bytes, header: EventHeader | None = None) -> Event | None:
        """Decode one whole v4 event received at ``pos`` of binlog ``file`` (a server's dump):
        the Event, or None when ``only_types`` leaves it out or the SKIP policy drops it. Each FDE
        clears ``tables`` (a new binlog file); an FDE that cannot be decoded raises whatever the
        policy."""
        if header is None:
            header = self.header(data)
        fde = self.fde
        crc = 0 if header.type_code == _FDE or fde is None or not fde.uses_crc32 \
            else CHECKSUM_LEN
        if header.event_size != len(data) or header.event_size < V4_HEADER_LEN + crc \
                or header.event_size > MAX_EVENT_SIZE:
            raise CorruptEventError(f"event size {header.event_size} in the header, {len(data)} bytes received",
                                    file=file, log_pos=pos, event_type=header.type_name, offset=pos + 9)
        if fde is not None and self.skipped(header.type_code):
            if crc and self.options.verify_checksums:
                self.verify_crc(file, pos, header, data, data)
            return None
        ev = self._decode(file, pos, header, data, crc, header.type_code != _FDE, 4)
        if isinstance(ev, FormatDescriptionEvent):
            self.fde = ev
            self.tables.clear()
        elif isinstance(ev, TableMapEvent):
            self.tables.add(ev)
        elif isinstance(ev, UndecodableEvent) and self.options.error_policy == ErrorPolicy.SKIP:
            return None
        self.events_read += 1
        return ev

    def verify_artificial(self, file: str, pos: int, header: EventHeader, data: bytes) -> bytes:
        """The body of an event the sender made up before any FDE (a fake ROTATE), its CRC32
        checked when ``checksum`` (or the FDE in force) says there is one; returns the body without it."""
        crc = CHECKSUM_LEN if (self.fde.uses_crc32 if self.fde is not None else self.checksum) else 0
        if header.event_size != len(data) or len(data) < V4_HEADER_LEN + crc:
            raise CorruptEventError(f"event size {header.event_size} in the header, {len(data)} bytes received",
                                    file=file, log_pos=pos, event_type=header.type_name)
        if crc and self.options.verify_checksums:
            self.verify_crc(file, pos, header, data, data)
        return data[V4_HEADER_LEN:len(data) - crc]

    # -- steps shared by both ways ----------------------------------------------------------------
    def verify_crc(self, name, offset, header, covered: bytes, data: bytes) -> None:
        """The CRC32 stored in the last 4 bytes of ``data`` must be that of ``covered`` without them
        (``covered`` is ``data``, or the FDE with LOG_EVENT_BINLOG_IN_USE_F cleared)."""
        stored = int.from_bytes(data[-4:], "little")
        actual = speedups.impl.crc32(memoryview(covered)[:-4]) & 0xFFFFFFFF
        if stored != actual:
            raise ChecksumError(f"CRC32 mismatch: stored 0x{stored:08x}, computed 0x{actual:08x}",
                                file=name, log_pos=offset, event_type=header.type_name,
                                offset=offset + len(data) - 4)

    def _decode(self, name: str, offset: int, header: EventHeader, data: bytes, crc: int, policy: bool = False,
                stacklevel: int = 0) -> Event:
        """The event, its CRC32 checked. A bad body or CRC raises, or with ``policy`` goes to the error
        policy: an :class:`UndecodableEvent` (which SKIP then drops; ``stacklevel``: the warning names
        the frame that iterates, past the reader's or the stream's generators). Encryption and a
        wrong file always raise."""
        try:
            if crc and self.options.verify_checksums:
                self.verify_crc(name, offset, header, data, data)
            end = len(data) - crc
            ctx = DecodeContext(file=name, pos=offset, next_pos=offset + header.event_size,
                                fde=self.fde if self.fde is not None else _BOOT_FDE, options=self.options,
                                registry=self.registry, tables=self.tables,
                                origin=self._origin(header) if self._relay_file else None)
            ev = self._run_decoder(header, Cursor(data, header.header_len, end, offset), ctx,
                                   name, offset, offset)
            if isinstance(ev, FormatDescriptionEvent) and ev.uses_crc32 and self.options.verify_checksums \
                    and header.type_code == _FDE:
                # LOG_EVENT_BINLOG_IN_USE_F is set after the CRC was computed: clear it to verify.
                fixed = bytearray(data)
                fixed[17] &= ~LOG_EVENT_BINLOG_IN_USE_F & 0xFF
                self.verify_crc(name, offset, header, bytes(fixed), data)
            return ev
        except (EncryptedBinlogError, NotABinlogError):
            raise
        except BinlogError as e:
            if not policy or self.options.error_policy == ErrorPolicy.RAISE:
                raise
            # The frame is intact (its size is known): report the body and go on.
            self.errors.append(e)
            if self.options.error_policy == ErrorPolicy.WARN:
                warnings.warn(str(e), BinlogDecodeWarning, stacklevel=stacklevel)
            return UndecodableEvent(header=header, file=name, pos=offset, next_pos=offset + header.event_size,
                                    body=data[header.header_len:], error=e)

    def _run_decoder(self, header, cur: Cursor, ctx: DecodeContext, name, log_pos, err_offset) -> Event:
        decoder = self.registry.get(header.type_code)
        try:
            if decoder is None:
                if header.flags & LOG_EVENT_IGNORABLE_F:
                    cur.pos = cur.end
                    return IgnoredEvent(**ctx.base(header))
                decoder = self.registry.default
            ev = decoder(header, cur, ctx)
            if cur.pos != cur.end:
                raise CorruptEventError(f"{cur.end - cur.pos} bytes of the event body were not consumed",
                                        offset=cur.abs())
            return ev
        except BinlogError as e:
            e.with_context(file=name, log_pos=log_pos, event_type=header.type_name, offset=err_offset)
            raise
        except _UNEXPECTED as e:
            raise CorruptEventError(f"undecodable {header.type_name} body ({type(e).__name__}: {e})",
                                    file=name, log_pos=log_pos, event_type=header.type_name,
                                    offset=cur.abs()) from e

    # -- TRANSACTION_PAYLOAD ------------------------------------------------------------------------
    def expand(self, name: str, outer: TransactionPayloadEvent) -> Iterator[Event]:
        """The events inside a TRANSACTION_PAYLOAD (v4 headers, no CRC; MySQL 8.0.20+
        ``Transaction_payload_event``), each positioned at the payload event with its
        ``payload_offset``; their TABLE_MAPs enter ``tables``. Errors are the payload event's."""
        data = outer.payload
        off = 0
        while off < len(data):
            try:
                if len(data) - off < V4_HEADER_LEN:
                    raise CorruptEventError(f"payload ends inside an event header ({len(data) - off} of "
                                            f"{V4_HEADER_LEN} bytes)")
                header = parse_header(data[off:off + V4_HEADER_LEN], V4_HEADER_LEN)
                if header.event_size < V4_HEADER_LEN or header.event_size > len(data) - off:
                    raise CorruptEventError(f"inner event size {header.event_size} does not fit the "
                                            f"{len(data) - off} bytes left in the payload")
                if header.type_code in (_PAYLOAD, _FDE):
                    raise CorruptEventError(f"{header.type_name} cannot appear inside a payload")
                raw = data[off:off + header.event_size]
                ctx = DecodeContext(file=name, pos=outer.pos, next_pos=outer.next_pos, fde=self.fde,
                                    options=self.options, registry=self.registry, tables=self.tables,
                                    payload_offset=off, origin=outer.origin)
                ev = self._run_decoder(header, Cursor(raw, V4_HEADER_LEN, len(raw), 0), ctx,
                                       name, outer.pos, None)
            except BinlogError as e:
                inner = e.offset
                e.offset = outer.pos
                e.message += (f" (inside the TRANSACTION_PAYLOAD, event at payload offset {off}"
                              + (f", byte {off + inner} of the payload)" if inner is not None else ")"))
                e.with_context(file=name, log_pos=outer.pos, event_type=outer.type_name)
                raise
            if isinstance(ev, TableMapEvent):
                self.tables.add(ev)
            self.events_read += 1
            yield ev
            off += header.event_size

    def payload_events(self, ev: TransactionPayloadEvent) -> list[Event]:
        """:meth:`expand` as a list (a stream decodes a payload it does not hand out for its state)."""
        return list(self.expand(ev.file, ev))

    # -- relay logs ---------------------------------------------------------------------------------
    def _relay_check(self, header: EventHeader, first: bool) -> bool:
        """Whether this event is a relay log's copy of a source event; recognises the file as a
        relay log on the signs the module docstring lists."""
        if header.flags & LOG_EVENT_RELAY_LOG_F:
            self._relay_file = self.relay_log = True
        if first:
            return False
        own = self._own_fde
        if not self._relay_file and own is not None and (
                header.type_code == _FDE
                or header.flags & LOG_EVENT_ARTIFICIAL_F
                or (header.type_code == _ROTATE and header.server_id != own.header.server_id)):
            self._relay_file = self.relay_log = True
        # the replica's own events carry its server_id (a source never has the replica's id:
        # replication refuses equal ids)
        return self._relay_file and (own is None or header.server_id != own.header.server_id)

    def _origin(self, header: EventHeader) -> RelayOrigin:
        """The ``origin`` of an event of a relay file (module docstring)."""
        if not self.from_source:
            return _OWN
        if not header.log_pos or header.flags & LOG_EVENT_ARTIFICIAL_F:
            # made for the connection, not read from the source's binlog: the artificial ROTATE,
            # and after a reconnect the source's FDE (log_pos 0) and a GTID_LIST (log_pos set)
            return RelayOrigin(self.source_file, None, None)
        return RelayOrigin(self.source_file, header.log_pos - header.event_size, header.log_pos)

    def _source_rotate(self, ev):
        """A source ROTATE names the source binlog the next source events come from (the
        artificial one a source sends first, and the real one ending each source binlog). One that
        names a position other than 4 (the first event after the magic) is not the source's:
        MariaDB's I/O thread writes it, with the source's server_id and the relay log's own
        log_pos, after a reconnect inside a transaction to say where the source's events go on
        (seen with 10.11.19); it has no place in the source's binlog."""
        if not isinstance(ev, RotateEvent):
            return ev
        self.source_file = ev.next_file
        if ev.position != 4 and ev.origin is not None and ev.origin.pos is not None:
            return dataclasses.replace(ev, origin=RelayOrigin(ev.next_file, None, None))
        return ev


def check_log_pos(name: str, offset: int, header: EventHeader) -> None:
    """The v4 header's log_pos is where the next event starts (sql/log_event.cc
    ``Log_event::write_header``: ``log_pos = my_b_tell(file) + data_written``), modulo 2^32
    (the field is 4 bytes; a file may outgrow it with one huge transaction). It disagreeing
    with offset + event_size means the size or the position is damaged: nothing after this
    event can be framed with confidence. log_pos 0 is legitimate (LOG_EVENT_ARTIFICIAL_F
    events, relay-log events the replica wrote itself, events inside a TRANSACTION_PAYLOAD)."""
    end = offset + header.event_size
    if header.log_pos != end & 0xFFFFFFFF:
        raise CorruptEventError(f"header next-position (log_pos) {header.log_pos} does not match the "
                                f"event's end {end} (offset {offset} + size {header.event_size})",
                                file=name, log_pos=offset, event_type=header.type_name,
                                offset=offset + 13)


# The format assumed while decoding the very first event (only an FDE or START_V3 decoder runs
# then, and neither reads post-header lengths).
_BOOT_FDE = FormatDescriptionEvent(header=EventHeader(0, 15, 0, 0, 0, 0), file=None, pos=0, next_pos=0,
                                   binlog_version=4, server_version="", create_timestamp=0,
                                   common_header_len=V4_HEADER_LEN, post_header_lengths=())

#: ``origin`` of the events a replica wrote into its relay log itself
_OWN = RelayOrigin(None, None, None, own=True)


__all__ = ["MAX_EVENT_SIZE", "BinlogDecodeWarning", "EventDecoder", "UndecodableEvent", "check_log_pos",
           "parse_header", "type_codes"]
