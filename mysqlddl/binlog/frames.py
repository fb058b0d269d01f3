"""Events handed over one at a time (a server's binlog stream), decoded by the file reader's code.

A server source (:mod:`mysqlddl.sources.server`) receives each event as one packet: the same bytes
as in the file, header, body and CRC32. :class:`FrameDecoder` is a :class:`BinlogReader` without
files: its ``decode`` runs exactly what the reader's loop runs on one event read from a file --
the CRC32 check (``_verify_crc``: the FDE's with LOG_EVENT_BINLOG_IN_USE_F cleared), the decoder
registry, the consumed-bytes check, the error policy, the FORMAT_DESCRIPTION and TABLE_MAP state and
the TRANSACTION_PAYLOAD expansion -- so a streamed event equals the one read from the file. It lives
here, beside the reader, because it uses the reader's private steps.
"""

from __future__ import annotations

from ..errors import BinlogError, CorruptEventError, EncryptedBinlogError, NotABinlogError
from ..options import DEFAULT, ErrorPolicy, Options
from .events.format_description import FormatDescriptionEvent
from .events.registry import DEFAULT_REGISTRY, Registry
from .events.table_map import TableMapCache, TableMapEvent
from .events.types import CHECKSUM_LEN, V4_HEADER_LEN, Event, EventHeader, EventType
from .reader import MAX_EVENT_SIZE, BinlogReader, UndecodableEvent, _parse_header


class FrameDecoder(BinlogReader):
    """Decode v4 events one at a time: ``decode(file, pos, data)`` -> the Event (None when
    ``only_types`` leaves it out or ``error_policy`` SKIP drops it); ``payload_events(ev)`` expands a
    TRANSACTION_PAYLOAD. ``fde`` is the FORMAT_DESCRIPTION in force; ``tables`` the TABLE_MAP cache
    (cleared by each new FDE, as the reader clears it per file). ``checksum`` (None: unknown) says
    whether events before the first FDE carry a CRC32 (a server's fake ROTATE does when it sends
    checksums)."""

    def __init__(self, *, options: Options = DEFAULT, registry: Registry | None = None, only_types=None,
                 checksum: bool | None = None):
        # not BinlogReader.__init__: there are no files to resolve; the state its steps use is set here
        self.files = []
        self.only_types = None if only_types is None else frozenset(
            int(EventType[t.upper()]) if isinstance(t, str) else int(t) for t in only_types)
        self.options = options
        self.check_log_pos = False
        self.verify_skipped = True
        self.registry = registry if registry is not None else DEFAULT_REGISTRY
        self.start = None
        self.stop = None
        self.tables = TableMapCache(options)
        self.fde: FormatDescriptionEvent | None = None
        self._at = None
        self.truncated = None
        self.events_read = 0
        self._no_relay_log()
        self.errors: list[BinlogError] = []
        self.checksum = checksum

    @staticmethod
    def header(data) -> EventHeader:
        """The v4 common header of an event's bytes (CorruptEventError when there are fewer than 19)."""
        if len(data) < V4_HEADER_LEN:
            raise CorruptEventError(f"an event of {len(data)} bytes is shorter than its {V4_HEADER_LEN}-byte header")
        return _parse_header(data, V4_HEADER_LEN)

    def decode(self, file: str, pos: int, data: bytes, header: EventHeader | None = None) -> Event | None:
        if header is None:
            header = self.header(data)
        crc = self._crc_len(header)
        if header.event_size != len(data) or header.event_size < V4_HEADER_LEN + crc \
                or header.event_size > MAX_EVENT_SIZE:
            raise CorruptEventError(f"event size {header.event_size} in the header, {len(data)} bytes received",
                                    file=file, log_pos=pos, event_type=header.type_name, offset=pos + 9)
        self._at = (file, pos + header.event_size)
        first = self.fde is None
        if not first and self._skipped(header.type_code):
            if crc and self.options.verify_checksums:
                self._verify_crc(file, pos, header, data, data)
            return None
        try:
            ev = self._decode(file, pos, header, data, crc)
        except (EncryptedBinlogError, NotABinlogError):
            raise
        except BinlogError as e:
            if header.type_code == EventType.FORMAT_DESCRIPTION or self.options.error_policy == ErrorPolicy.RAISE:
                raise
            ev = self._undecodable(file, pos, header, data, e)
        if isinstance(ev, FormatDescriptionEvent):
            self.fde = ev
            self.tables.clear()
        elif isinstance(ev, TableMapEvent):
            self.tables.add(ev)
        elif isinstance(ev, UndecodableEvent) and self.options.error_policy == ErrorPolicy.SKIP:
            return None
        self.events_read += 1
        return ev

    def payload_events(self, ev) -> list[Event]:
        """The events inside a TRANSACTION_PAYLOAD (their TABLE_MAPs enter ``tables``)."""
        return list(self._payload_events(ev.file, ev))

    def verify_artificial(self, file: str, pos: int, header: EventHeader, data: bytes) -> bytes:
        """The body of an event the sender made up before any FDE (a fake ROTATE), its CRC32
        checked by the reader's code when ``checksum`` says there is one; returns the body without it."""
        crc = CHECKSUM_LEN if (self.fde.uses_crc32 if self.fde is not None else self.checksum) else 0
        if header.event_size != len(data) or len(data) < V4_HEADER_LEN + crc:
            raise CorruptEventError(f"event size {header.event_size} in the header, {len(data)} bytes received",
                                    file=file, log_pos=pos, event_type=header.type_name)
        if crc and self.options.verify_checksums:
            self._verify_crc(file, pos, header, data, data)
        return data[V4_HEADER_LEN:len(data) - crc]


__all__ = ["FrameDecoder"]
