r"""The binlog reader: files, framing, start and stop, truncated tails; typed events with positions.

File layout (sql/log_event.h, libs/mysql/binlog/event/binlog_event.h; MySQL internals manual
"Binary Log Overview" / "Event Structure")::

    file:  [ fe 'b' 'i' 'n' ][ FDE ][ event ][ event ] ...
    event: [ common header (19, or 13 in v1) ][ post-header ][ body ][ CRC32 (4, if the FDE says) ]

The reader owns what is about files: which files a source names (:mod:`.files`), the magic number,
the header length of v1/v3 files, reading each event's bytes whole (or seeking past a body nobody
wants), start and stop positions, and a file that ends inside an event. Each framed event goes to
the reader's :class:`~mysqlddl.binlog.decoder.EventDecoder`, which checks the header (size, next
position, relay-log signs), the CRC32, decodes the body and keeps the FORMAT_DESCRIPTION and
TABLE_MAP state; a server's binlog stream feeds the same decoder, so both give the same events.
Relay logs are read like binlogs and recognised by their content (:mod:`.decoder`).

Memory stays flat: files are read sequentially through a buffer, one event at a time (plus one
decompressed payload), never whole.
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import zlib
from collections.abc import Iterator
from operator import attrgetter
from pathlib import Path

from ..errors import BinlogError, CorruptEventError, NotABinlogError, TruncatedError
from ..options import DEFAULT, Options
from ..positions import BinlogPosition
from .decoder import MAX_EVENT_SIZE, BinlogDecodeWarning, EventDecoder, UndecodableEvent, parse_header
from .events.format_description import FormatDescriptionEvent
from .events.payload import TransactionPayloadEvent
from .events.registry import Registry
from .events.types import BINLOG_MAGIC, V1_HEADER_LEN, V4_HEADER_LEN, Event, EventType, type_name
from .files import resolve_sources


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
    TRANSACTION_PAYLOAD). Relay logs are recognised (:mod:`.decoder`) and their source events,
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
        self.decoder = EventDecoder(options=options, registry=registry, only_types=only_types,
                                    check_log_pos=check_log_pos)
        if not self.files:
            raise BinlogError("no binlog files to read")
        self.options = options
        self.verify_skipped = verify_skipped
        self.start = self._norm_pos(start, first=True)
        self.stop = self._norm_pos(stop, first=False)
        self._at: tuple[str, int] | None = None      # (file, offset) of the next event
        self.truncated: TruncatedTail | None = None
        # bound once: _read_event runs for every event
        self._frame = self.decoder.frame
        self._unread = self.decoder.unread

    # The decoder's state, as the reader has always shown it (read-only; attrgetter: no Python frame
    # per access).
    registry = property(attrgetter("decoder.registry"), doc="The ``{type: decoder}`` map.")
    only_types = property(attrgetter("decoder.only_types"), doc="The type codes decoded and yielded (None: all).")
    check_log_pos = property(attrgetter("decoder.check_log_pos"))
    fde = property(attrgetter("decoder.fde"), doc="The FORMAT_DESCRIPTION in force (None before a file's first).")
    tables = property(attrgetter("decoder.tables"), doc="The TABLE_MAP cache.")
    errors = property(attrgetter("decoder.errors"), doc="The errors the error policy kept.")
    events_read = property(attrgetter("decoder.events_read"), doc="The events yielded.")
    relay_log = property(attrgetter("decoder.relay_log"), doc="A relay log was recognised.")
    source_file = property(attrgetter("decoder.source_file"), doc="The source binlog the last source ROTATE named.")

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
        decoder = self.decoder
        decoder.new_file()
        try:
            magic = stream.read(4)
            if magic != BINLOG_MAGIC:
                if len(magic) < 4 and BINLOG_MAGIC.startswith(magic) and magic:
                    raise self._truncated(name, 0, 4, len(magic), "file ends inside the magic number")
                raise NotABinlogError(f"not a binlog: the file starts with {magic.hex(' ') or 'nothing'}, "
                                      f"not the magic number {BINLOG_MAGIC.hex(' ')}",
                                      file=name, offset=0)
            offset = 4
            if stop is not None and offset >= stop:
                return
            self._at = (name, offset)
            # the first event: the FORMAT_DESCRIPTION (START_V3 in v1/v3 files), read even when the
            # reading starts further on (it says how to frame and check the rest)
            got = self._read_event(stream, name, offset, self._detect_header_len(stream, name))
            if got is None:
                return
            header, data, crc = got
            keep = start is None or start <= 4
            fde = decoder.first(name, offset, header, data, crc, count=keep)
            offset += header.event_size
            self._at = (name, offset)
            header_len = fde.common_header_len
            if keep:
                yield fde
            if start is not None and offset < start and (stop is None or offset < stop):
                stream.seek(start)
                offset = start
                self._at = (name, offset)
            seek_past = decoder.only_types is not None and not self.verify_skipped and stream.size is not None
            # The hot loop (one event per turn): locals only, one call to read and one to decode.
            read_event, take, expand = self._read_event, decoder.take, decoder.expand
            while True:
                if stop is not None and offset >= stop:
                    return
                got = read_event(stream, name, offset, header_len, seek_past)
                if got is None:
                    return
                header, data, crc = got
                ev = None if data is None else take(name, offset, header, data, crc)   # data None: passed unread
                offset += header.event_size
                self._at = (name, offset)
                if ev is None:
                    continue
                if isinstance(ev, FormatDescriptionEvent):
                    header_len = ev.common_header_len
                yield ev
                if isinstance(ev, TransactionPayloadEvent):
                    yield from expand(name, ev)
        finally:
            stream.close()

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

    def _read_event(self, stream: _Stream, name: str, offset: int, header_len: int, seek_skipped: bool = False):
        """(header, event bytes, CRC length), or None at the end; with ``seek_skipped``, (header,
        None, CRC length) for an event the decoder lets pass unread (``only_types``), whose body is
        passed by seeking. The decoder checks the header first (:meth:`EventDecoder.frame`)."""
        raw = stream.read(header_len)
        if not raw:
            return None
        if len(raw) < header_len:
            return self._tail(name, offset, header_len, len(raw), "file ends inside an event header")
        header = parse_header(raw, header_len)
        crc = self._frame(name, offset, header)
        want = header.event_size - header_len
        if stream.available(want) < want:
            return self._tail(name, offset, header.event_size, header_len + stream.available(want),
                              "file ends inside an event", header)
        if seek_skipped and self._unread(header):
            stream.seek(offset + header.event_size)
            return header, None, crc
        rest = stream.read(want)
        if len(rest) < want:
            return self._tail(name, offset, header.event_size, header_len + len(rest),
                              "file ends inside an event", header)
        return header, raw + rest, crc

    def _tail(self, name, offset, needed, available, what, header=None):
        err = self._truncated(name, offset, needed, available, what)
        if header is not None:
            err.event_type = header.type_name
        if self.options.stop_at_truncated_tail:
            self.truncated = TruncatedTail(name, offset, needed, available)
            return None
        raise err


def read_events(source, **kw) -> Iterator[Event]:
    """Shorthand: ``for ev in read_events(path): ...``."""
    return iter(BinlogReader(source, **kw))


# (MAX_EVENT_SIZE, BinlogDecodeWarning, UndecodableEvent: the decoder's, importable from here as before)
__all__ = ["MAX_EVENT_SIZE", "BinlogDecodeWarning", "BinlogReader", "TruncatedTail", "UndecodableEvent",
           "read_events", "type_name"]
