r"""The binlog reader: sources, framing, checksums, typed events with positions.

Framing (sql/log_event.h, libs/mysql/binlog/event/binlog_event.h; MySQL internals manual "Binary
Log Overview" / "Event Structure")::

    file:  [ fe 'b' 'i' 'n' ][ FDE ][ event ][ event ] ...
    event: [ common header (19, or 13 in v1) ][ post-header ][ body ][ CRC32 (4, if the FDE says) ]
                                               \____ fenced body: what a decoder may read ___/

- The FDE (or START_EVENT_V3 in v1/v3 files) is the first event; it gives the common header
  length, each type's post-header length and the checksum algorithm.
- CRC32 (zlib polynomial, ``my_checksum``) covers the whole event except the CRC itself. The FDE's
  CRC is computed with LOG_EVENT_BINLOG_IN_USE_F cleared (the server sets that flag in place while
  the file is open, after computing the CRC).
- Events inside a TRANSACTION_PAYLOAD carry no CRC and are yielded right after the payload event.
- A type without a decoder: flagged LOG_EVENT_IGNORABLE_F it is skipped by size (an
  :class:`IgnoredEvent` keeps it visible); otherwise it is kept opaque with its bytes.

Relay logs (a replica's copy of its source's binlog; DESIGN "Binlog facts") are read like binlogs
and recognised by their content, so no flag is needed::

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
not its first event (a binlog
has one FDE, written when the file is opened: ``MYSQL_BIN_LOG::open``; a relay log adds the source's
after its own), (2) an event flagged LOG_EVENT_ARTIFICIAL_F (a source makes those for its dump
thread only, e.g. the ROTATE naming its file; only a replica's I/O thread writes them to a file), or
(3) a ROTATE with another server_id than the file's FDE (the source's ROTATE copied at the end of
one of its binlogs; a server's own ROTATE carries its own id). The file name (``*relay-bin.NNNNNN``
by default) is not used: a renamed archive must read the same. Once one file of a reading is a relay
log, the files after it are too (a relay-log set is read as a whole): its table maps then carry
across files, because a relay log rotates when it outgrows ``max_relay_log_size`` whatever the
transaction (a TABLE_MAP may sit in one relay file and its rows in the next).

In a relay log, the events that carry the replica's own ``server_id`` (the first FDE's) keep the
"next position = offset + size" check; the source's events do not (their ``log_pos`` is the
source's): each gets ``origin``, a :class:`~mysqlddl.binlog.events.RelayOrigin` with the source's
binlog name (from the last source ROTATE) and the source's positions. Errors still name the relay
file and the byte offset in it. (The first FDE of the first relay file is read before the file is
known to be one, when it lacks the LOG_EVENT_RELAY_LOG_F flag: its ``origin`` is then None.)

Memory stays flat: files are read sequentially through a buffer, one event at a time (plus one
decompressed payload), never whole.

(Over ~600 lines on purpose: framing, checksums, payloads and the relay-log rules all read and set
the one loop's state -- the FDE in force, the offset, the file's kind -- and split apart they would
pass that state around on every event. Which files a source names is :mod:`.files`.)
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import struct
import warnings
import zlib
from collections.abc import Iterator
from pathlib import Path

from ..errors import (
    BinlogError,
    ChecksumError,
    CorruptEventError,
    EncryptedBinlogError,
    NotABinlogError,
    TruncatedError,
)
from ..options import DEFAULT, ErrorPolicy, Options
from ..positions import BinlogPosition
from . import speedups
from .events._cursor import Cursor
from .events.context import DecodeContext
from .events.control import RotateEvent
from .events.format_description import FormatDescriptionEvent
from .events.payload import TransactionPayloadEvent
from .events.registry import DEFAULT_REGISTRY, Registry
from .events.table_map import TableMapCache, TableMapEvent
from .events.types import (
    BINLOG_MAGIC,
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
    type_name,
)
from .files import resolve_sources


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


@dataclasses.dataclass(frozen=True, slots=True)
class TruncatedTail:
    """Where reading stopped in ``stop_at_truncated_tail`` mode: the incomplete event starts at
    ``pos`` (= the end of the last complete event), ``needed`` bytes were announced,
    ``available`` were there."""

    file: str
    pos: int
    needed: int
    available: int


# --------------------------------------------------------------------------------------- the reader


class _Stream:
    """Sequential reads from a file (plain or gzip) with the absolute offset tracked."""

    __slots__ = ("f", "offset", "size")

    def __init__(self, path: Path):
        if path.name.endswith(".gz"):
            self.f = gzip.open(path, "rb")
            self.size = None
        else:
            self.f = open(path, "rb", buffering=1 << 20)  # noqa: SIM115 -- closed by BinlogReader
            self.size = os.fstat(self.f.fileno()).st_size
        self.offset = 0

    def read(self, n: int) -> bytes:
        try:
            b = self.f.read(n)
        except (OSError, EOFError, zlib.error) as e:   # gzip.BadGzipFile is an OSError
            raise CorruptEventError(f"cannot read the file: {e}", offset=self.offset) from None
        self.offset += len(b)
        return b

    def seek(self, pos: int) -> None:
        try:
            self.f.seek(pos)
        except (OSError, EOFError, zlib.error) as e:
            raise CorruptEventError(f"cannot seek to {pos}: {e}", offset=self.offset) from None
        self.offset = pos

    def available(self, n: int) -> int:
        """How many of the next ``n`` bytes exist, when the size is known (else ``n``)."""
        return n if self.size is None else max(0, min(n, self.size - self.offset))

    def close(self) -> None:
        self.f.close()


def _parse_header(raw: bytes, header_len: int) -> EventHeader:
    if header_len == V1_HEADER_LEN:
        ts, t, sid, size = struct.unpack_from("<IBII", raw)
        return EventHeader(ts, t, sid, size, 0, 0, V1_HEADER_LEN)
    ts, t, sid, size, log_pos, flags = struct.unpack_from("<IBIIIH", raw)
    return EventHeader(ts, t, sid, size, log_pos, flags, header_len)


class BinlogReader:
    """Iterate typed events over one or more binlog files.

    ``source``: see :func:`~mysqlddl.binlog.files.resolve_sources`. ``start``: a byte offset in the first file, or a
    :class:`~mysqlddl.positions.BinlogPosition` / ``(file, pos)`` naming the file to start in
    (files before it are skipped).
    ``stop``: a byte offset (in the last file) or a position; events starting at or after it are
    not read. ``registry``: the ``{type: decoder}`` map (default :data:`DEFAULT_REGISTRY`).
    ``only_types``: names or codes of the event types to decode and yield; every other event is
    skipped by its size (its CRC still checked) -- a cheap pre-scan for DDL and transaction
    boundaries. Rows events then have no TABLE_MAP unless TABLE_MAP is listed too.
    ``verify_skipped=False``: those skipped events are not read at all (the reader seeks past their
    bodies, so a log of rows costs little more than its headers) and so neither is their CRC; the
    header is still checked (size, log_pos) and the body must exist in the file. For a pre-scan
    whose caller decodes, and so verifies, every event later (the Spark job's stage 1). A .gz file
    cannot seek: its skipped bodies are read (and verified) as before.

    While iterating: ``position`` is where the next event starts, ``fde`` the format description
    in force (``fde.created_at`` the file's creation time), ``truncated`` the
    :class:`TruncatedTail` when ``options.stop_at_truncated_tail`` ended the reading early.

    ``check_log_pos`` (default True): in v4 files (those starting with a FORMAT_DESCRIPTION)
    each event header's next-position field must equal the event's offset + size, else
    CorruptEventError; 0 is accepted (artificial and relay-log events, events inside a
    TRANSACTION_PAYLOAD). Relay logs are recognised (module docstring) and their source events,
    which keep the source's positions, are exempt; False turns the check off everywhere.
    ``relay_log`` is True once a relay log was recognised; ``source_file`` the source binlog its
    last source ROTATE named.

    ``options.error_policy``: RAISE (default) stops at the first bad event; COLLECT and WARN
    yield an :class:`UndecodableEvent` for a bad body or CRC and go on (the errors also collect
    in ``errors``; WARN warns with :class:`BinlogDecodeWarning`); SKIP drops such events (still
    collected in ``errors``). Bad framing always raises.
    """

    def __init__(self, source, *, options: Options = DEFAULT, start=None, stop=None,
                 registry: Registry | None = None, only_types=None, check_log_pos: bool = True,
                 verify_skipped: bool = True):
        self.files = resolve_sources(source)
        # Types to decode and yield; the rest are skipped by size after framing (and CRC) checks,
        # as a pre-scan that only wants DDL and boundaries does. FORMAT_DESCRIPTION and START_V3
        # are always decoded (they define the framing).
        self.only_types = None if only_types is None else frozenset(
            int(EventType[t.upper()]) if isinstance(t, str) else int(t) for t in only_types)
        if not self.files:
            raise BinlogError("no binlog files to read")
        self.options = options
        self.check_log_pos = check_log_pos
        self.verify_skipped = verify_skipped
        self.registry = registry if registry is not None else DEFAULT_REGISTRY
        self.start = self._norm_pos(start, first=True)
        self.stop = self._norm_pos(stop, first=False)
        self.tables = TableMapCache(options)
        self.fde: FormatDescriptionEvent | None = None
        self._at: tuple[str, int] | None = None      # (file, offset) of the next event
        self.truncated: TruncatedTail | None = None
        self.events_read = 0
        self.errors: list[BinlogError] = []
        self._no_relay_log()

    def _no_relay_log(self) -> None:
        """The relay-log state before any relay log was seen (also a FrameDecoder's: a server's
        dump sends its binlog, never a relay log)."""
        self.relay_log = False                # a relay log was recognised (sticky: see module doc)
        self.source_file: str | None = None   # in a relay log: the source binlog last named
        self._relay_file = False              # the current file is a relay log
        self._own_fde: FormatDescriptionEvent | None = None   # the current file's first FDE
        self._from_source = False             # the event just framed is the source's (relay log)

    def _norm_pos(self, p, *, first: bool):
        if p is None:
            return None
        if isinstance(p, int):
            return BinlogPosition.in_file(str(self.files[0 if first else -1]), p)
        if isinstance(p, BinlogPosition):
            f, pos = p.file, p.pos
        else:
            f, pos = p
        for cand in self.files:
            if str(cand) == str(f) or cand.name == Path(f).name:
                return BinlogPosition.in_file(str(cand), int(pos))
        raise BinlogError(f"position {f}:{pos} names a file that is not among the sources", file=str(f))

    @property
    def position(self) -> BinlogPosition | None:
        """Where the next event starts (None before the first file is opened; ``file`` is the path
        as resolved); built on access, as the loop moves it twice per event."""
        return None if self._at is None else BinlogPosition.in_file(*self._at)

    @property
    def created_at(self) -> int | None:
        return self.fde.created_at if self.fde is not None else None

    def __iter__(self) -> Iterator[Event]:
        started = self.start is None
        for path in self.files:
            name = str(path)
            if not started:
                if name != self.start.file:
                    continue
                started = True
                start = self.start.pos
            else:
                start = None
            stop = self.stop.pos if self.stop is not None and self.stop.file == name else None
            yield from self._read_file(path, start, stop)
            if self.truncated is not None:
                return
            if self.stop is not None and self.stop.file == name:
                return

    # -- one file ---------------------------------------------------------------------------------
    def _read_file(self, path: Path, start: int | None, stop: int | None) -> Iterator[Event]:
        name = str(path)
        try:
            stream = _Stream(path)
        except OSError as e:
            raise BinlogError(f"cannot open: {e.strerror or e}", file=name) from None
        if not self.relay_log:
            # (a relay-log set keeps its table maps: a relay file may start inside a transaction)
            self.tables.clear()
        self.fde = None
        self._own_fde = None
        self._relay_file = self.relay_log
        try:
            magic = stream.read(4)
            if magic != BINLOG_MAGIC:
                if len(magic) < 4 and BINLOG_MAGIC.startswith(magic) and magic:
                    raise self._truncated(name, 0, 4, len(magic), "file ends inside the magic number")
                raise NotABinlogError(f"not a binlog: the file starts with {magic.hex(' ') or 'nothing'}, "
                                      f"not the magic number {BINLOG_MAGIC.hex(' ')}",
                                      file=name, offset=0)
            offset = 4
            header_len = self._detect_header_len(stream, name)
            first = True
            seek_past = self.only_types is not None and not self.verify_skipped and stream.size is not None
            while True:
                if stop is not None and offset >= stop:
                    return
                if not first and start is not None and offset < start:
                    stream.seek(start)
                    offset = start
                    continue
                self._at = (name, offset)
                got = self._read_event(stream, name, offset, header_len, seek_skipped=seek_past and not first,
                                       first=first)
                if got is None:
                    return
                header, data, crc = got
                if data is None:                          # skipped unread (verify_skipped=False)
                    offset += header.event_size
                    self._at = (name, offset)
                    continue
                if not first and self._skipped(header.type_code):
                    if crc and self.options.verify_checksums:
                        self._verify_crc(name, offset, header, data, data)
                    if self._from_source and header.type_code == EventType.ROTATE:
                        # not yielded, but it names the source's next binlog
                        self._source_rotate(self._decode(name, offset, header, data, crc))
                    offset += header.event_size
                    self._at = (name, offset)
                    continue
                try:
                    ev = self._decode(name, offset, header, data, crc)
                except (EncryptedBinlogError, NotABinlogError):
                    raise
                except BinlogError as e:
                    if first or self.options.error_policy == ErrorPolicy.RAISE:
                        raise
                    # The frame is intact (its size is known): report the body and go on.
                    ev = self._undecodable(name, offset, header, data, e)
                if first and not isinstance(ev, FormatDescriptionEvent):
                    raise CorruptEventError(f"the first event is {header.type_name}, not a "
                                            "FORMAT_DESCRIPTION_EVENT", file=name, log_pos=offset,
                                            event_type=header.type_name, offset=offset)
                offset += header.event_size
                self._at = (name, offset)
                skip_yield = first and start is not None and start > 4
                first = False
                if isinstance(ev, FormatDescriptionEvent):
                    self.fde = ev
                    header_len = ev.common_header_len
                    if self._own_fde is None:
                        self._own_fde = ev
                elif isinstance(ev, TableMapEvent):
                    self.tables.add(ev)
                elif self._from_source and isinstance(ev, RotateEvent):
                    ev = self._source_rotate(ev)
                if isinstance(ev, UndecodableEvent) and self.options.error_policy == ErrorPolicy.SKIP:
                    skip_yield = True
                if not skip_yield:
                    self.events_read += 1
                    yield ev
                if isinstance(ev, TransactionPayloadEvent):
                    yield from self._payload_events(name, ev)
        finally:
            stream.close()

    def _undecodable(self, name, offset, header, data, error) -> UndecodableEvent:
        policy = self.options.error_policy
        self.errors.append(error)
        if policy == ErrorPolicy.WARN:
            warnings.warn(str(error), BinlogDecodeWarning, stacklevel=4)
        return UndecodableEvent(header=header, file=name, pos=offset, next_pos=offset + header.event_size,
                                body=data[header.header_len:], error=error)

    def _detect_header_len(self, stream: _Stream, name: str) -> int:
        """v4 files start with an FDE (19-byte header); v1/v3 with START_EVENT_V3, whose body
        starts with the binlog version (1 => 13-byte header)."""
        peek_at = stream.offset
        raw = stream.read(V4_HEADER_LEN + 2)
        stream.seek(peek_at)
        if len(raw) >= 5 and raw[4] == EventType.START_V3:
            if len(raw) >= V4_HEADER_LEN + 2 and int.from_bytes(raw[19:21], "little") == 3:
                return V4_HEADER_LEN
            if len(raw) >= V1_HEADER_LEN + 2 and int.from_bytes(raw[13:15], "little") == 1:
                return V1_HEADER_LEN
        return V4_HEADER_LEN

    def _truncated(self, name, offset, needed, available, what) -> TruncatedError:
        return TruncatedError(f"{what}: needs {needed} bytes, {available} remain", needed=needed,
                              available=available, file=name, log_pos=offset, offset=offset + available)

    def _skipped(self, type_code: int) -> bool:
        """``only_types`` leaves this event undecoded (FORMAT_DESCRIPTION and START_V3 never are:
        they define the framing)."""
        return (self.only_types is not None and type_code not in self.only_types
                and type_code not in (EventType.FORMAT_DESCRIPTION, EventType.START_V3))

    def _read_event(self, stream: _Stream, name: str, offset: int, header_len: int, seek_skipped: bool = False,
                    first: bool = False):
        """(header, event bytes, CRC length), or None at the end; with ``seek_skipped``, (header,
        None, CRC length) for an event :meth:`_skipped`, whose body is passed by seeking, not read.
        Sets ``_from_source`` (the event is a relay log's copy of a source event)."""
        raw = stream.read(header_len)
        if not raw:
            return None
        if len(raw) < header_len:
            return self._tail(name, offset, header_len, len(raw), "file ends inside an event header")
        header = _parse_header(raw, header_len)
        self._from_source = self._relay_check(header, first)
        crc = self._crc_len(header)
        if header.event_size < header_len + crc or header.event_size > MAX_EVENT_SIZE:
            raise CorruptEventError(f"event size {header.event_size} is impossible (header {header_len} "
                                    f"bytes{', CRC 4' if crc else ''}; at most {MAX_EVENT_SIZE})",
                                    file=name, log_pos=offset, event_type=header.type_name,
                                    offset=offset + 9)
        if self.check_log_pos and header.log_pos and not self._from_source and header_len == V4_HEADER_LEN and (
                self.fde.binlog_version >= 4 if self.fde is not None
                else header.type_code == EventType.FORMAT_DESCRIPTION):
            self._check_log_pos(name, offset, header)
        want = header.event_size - header_len
        if stream.available(want) < want:
            return self._tail(name, offset, header.event_size, header_len + stream.available(want),
                              "file ends inside an event", header)
        if seek_skipped and self._skipped(header.type_code) and not (
                self._from_source and header.type_code == EventType.ROTATE):
            stream.seek(offset + header.event_size)
            return header, None, crc
        rest = stream.read(want)
        if len(rest) < want:
            return self._tail(name, offset, header.event_size, header_len + len(rest),
                              "file ends inside an event", header)
        return header, raw + rest, crc

    def _relay_check(self, header: EventHeader, first: bool) -> bool:
        """Whether this event is a relay log's copy of a source event; recognises the file as a
        relay log on the signs the module docstring lists."""
        if header.flags & LOG_EVENT_RELAY_LOG_F:
            self._relay_file = self.relay_log = True
        if first:
            return False
        own = self._own_fde
        if not self._relay_file and own is not None and (
                header.type_code == EventType.FORMAT_DESCRIPTION
                or header.flags & LOG_EVENT_ARTIFICIAL_F
                or (header.type_code == EventType.ROTATE and header.server_id != own.header.server_id)):
            self._relay_file = self.relay_log = True
        # the replica's own events carry its server_id (a source never has the replica's id:
        # replication refuses equal ids)
        return self._relay_file and (own is None or header.server_id != own.header.server_id)

    def _origin(self, header: EventHeader) -> RelayOrigin | None:
        if not self._relay_file:
            return None
        if not self._from_source:
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

    def _check_log_pos(self, name: str, offset: int, header: EventHeader) -> None:
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

    def _tail(self, name, offset, needed, available, what, header=None):
        err = self._truncated(name, offset, needed, available, what)
        if header is not None:
            err.event_type = header.type_name
        if self.options.stop_at_truncated_tail:
            self.truncated = TruncatedTail(name, offset, needed, available)
            return None
        raise err

    def _crc_len(self, header: EventHeader) -> int:
        if header.type_code == EventType.FORMAT_DESCRIPTION or self.fde is None:
            return 0      # the FDE's own CRC is handled after its body says which algorithm
        fde = self.fde
        if self._relay_file and not self._from_source and self._own_fde is not None:
            fde = self._own_fde   # the replica's own events follow its relay log's checksum setting
        return CHECKSUM_LEN if fde.uses_crc32 else 0

    def _decode(self, name: str, offset: int, header: EventHeader, data: bytes, crc: int) -> Event:
        if crc and self.options.verify_checksums:
            self._verify_crc(name, offset, header, data, data)
        end = len(data) - crc
        ctx = DecodeContext(file=name, pos=offset, next_pos=offset + header.event_size,
                            fde=self.fde if self.fde is not None else _BOOT_FDE, options=self.options,
                            registry=self.registry, tables=self.tables, origin=self._origin(header))
        ev = self._run_decoder(header, Cursor(data, header.header_len, end, offset), ctx,
                               name, offset, offset)
        if isinstance(ev, FormatDescriptionEvent) and ev.uses_crc32 and self.options.verify_checksums \
                and header.type_code == EventType.FORMAT_DESCRIPTION:
            # LOG_EVENT_BINLOG_IN_USE_F is set after the CRC was computed: clear it to verify.
            fixed = bytearray(data)
            fixed[17] &= ~LOG_EVENT_BINLOG_IN_USE_F & 0xFF
            self._verify_crc(name, offset, header, bytes(fixed), data)
        return ev

    def _verify_crc(self, name, offset, header, covered: bytes, data: bytes) -> None:
        stored = int.from_bytes(data[-4:], "little")
        actual = speedups.impl.crc32(memoryview(covered)[:-4]) & 0xFFFFFFFF
        if stored != actual:
            raise ChecksumError(f"CRC32 mismatch: stored 0x{stored:08x}, computed 0x{actual:08x}",
                                file=name, log_pos=offset, event_type=header.type_name,
                                offset=offset + len(data) - 4)

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
    def _payload_events(self, name: str, outer: TransactionPayloadEvent) -> Iterator[Event]:
        data = outer.payload
        off = 0
        while off < len(data):
            try:
                if len(data) - off < V4_HEADER_LEN:
                    raise CorruptEventError(f"payload ends inside an event header ({len(data) - off} of "
                                            f"{V4_HEADER_LEN} bytes)")
                header = _parse_header(data[off:off + V4_HEADER_LEN], V4_HEADER_LEN)
                if header.event_size < V4_HEADER_LEN or header.event_size > len(data) - off:
                    raise CorruptEventError(f"inner event size {header.event_size} does not fit the "
                                            f"{len(data) - off} bytes left in the payload")
                if header.type_code in (EventType.TRANSACTION_PAYLOAD, EventType.FORMAT_DESCRIPTION):
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


# The format assumed while decoding the very first event (only an FDE or START_V3 decoder runs
# then, and neither reads post-header lengths).
_BOOT_FDE = FormatDescriptionEvent(header=EventHeader(0, 15, 0, 0, 0, 0), file=None, pos=0, next_pos=0,
                                   binlog_version=4, server_version="", create_timestamp=0,
                                   common_header_len=V4_HEADER_LEN, post_header_lengths=())


#: ``origin`` of the events a replica wrote into its relay log itself
_OWN = RelayOrigin(None, None, None, own=True)


def read_events(source, **kw) -> Iterator[Event]:
    """Shorthand: ``for ev in read_events(path): ...``."""
    return iter(BinlogReader(source, **kw))


__all__ = ["BinlogDecodeWarning", "BinlogReader", "TruncatedTail", "UndecodableEvent", "read_events",
           "type_name"]
