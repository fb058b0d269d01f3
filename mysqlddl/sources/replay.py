"""Events read before, as a source: the Spark job's history pass replays the DDL its pre-scans
found (:func:`mysqlddl.spark.ranges.build_history`) through the same reader as a sequential run
(:class:`ReplaySource`); and a source whose events pass a watcher on their way to the reader
(:class:`TapSource`).

The events are decoded already, so what a reader asks of :meth:`ReplaySource.events` is applied as
a filter: ``only_types`` keeps those types (and the FORMAT_DESCRIPTIONs), ``registry`` keeps the
types it has a decoder for (a statement text the registry would leave opaque is dropped, as its
reader would not have it). A replay has its own order and no positions to start or stop at.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..binlog.events import EventType
from ..errors import ConfigError
from ..positions import BinlogPosition
from .base import EventSource


class ReplaySource(EventSource):
    """``events`` (an iterable of decoded binlog Events, read once) as a source. ``files``: the
    binlog files they come from (a reader names positions by them); ``fde``: the FORMAT_DESCRIPTION
    that states their version (None: the first event's, if it is one, once read)."""

    def __init__(self, events: Iterable, *, files=(), fde=None, source_id: str = "replay"):
        self._events = events
        self.files = list(files)
        self._fde = fde
        self._source_id = source_id
        self._position = None

    @property
    def position(self) -> BinlogPosition | None:
        """Where the event replayed last ends."""
        at = self._position
        return BinlogPosition.in_file(at[0] or "", at[1]) if at is not None and at[1] is not None else None

    @property
    def fde(self):
        return self._fde

    @property
    def server_version(self) -> str:
        return self._fde.server_version if self._fde is not None else ""

    def identity(self, start) -> tuple[str, None]:
        return self._source_id, None

    def events(self, start=None, *, stop=None, only_types=None, registry=None) -> Iterator:
        if start is not None or stop is not None:
            raise ConfigError("replayed events have no position to start or stop at: give neither")
        keep = None
        if only_types is not None:
            keep = {int(EventType[t.upper()]) if isinstance(t, str) else int(t) for t in only_types}
        return self._replay(keep, registry)

    def _replay(self, keep, registry) -> Iterator:
        fde_code = int(EventType.FORMAT_DESCRIPTION)
        for ev in self._events:
            t = ev.type_code
            if t == fde_code:
                self._fde = ev
            elif (keep is not None and t not in keep) or (registry is not None and t not in registry):
                continue
            self._position = (ev.file, ev.next_pos)
            yield ev


class TapSource(EventSource):
    """``source`` with its events passed through ``tap(events) -> events`` (a watcher that sees
    every event the reader takes); everything else is the source's."""

    def __init__(self, source: EventSource, tap):
        self.source = source
        self._tap = tap

    kind = property(lambda self: self.source.kind)
    position = property(lambda self: self.source.position)
    fde = property(lambda self: self.source.fde)
    server_version = property(lambda self: self.source.server_version)
    files = property(lambda self: self.source.files)
    start = property(lambda self: self.source.start)
    stop = property(lambda self: self.source.stop)

    def identity(self, start):
        return self.source.identity(start)

    def events(self, start=None, *, stop=None, only_types=None, registry=None) -> Iterator:
        return self._tap(self.source.events(start, stop=stop, only_types=only_types, registry=registry))

    def close(self) -> None:
        self.source.close()


__all__ = ["ReplaySource", "TapSource"]
