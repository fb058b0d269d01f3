"""What every source is: an iterable of binlog events with positions.

A source yields the :class:`~mysqlddl.binlog.events.Event` objects a
:class:`~mysqlddl.binlog.reader.BinlogReader` yields for the same bytes, and tells where it is:

- ``files``: the binlog names (or paths) it reads or has read, in order (a server's grow as it rotates);
- ``start``: the :class:`~mysqlddl.positions.BinlogPosition` it starts at (None: the first file's start);
- ``stop``: where it stops (None: at the end of the files, or never for a followed server);
- ``position``: where the next event starts; ``fde``: the FORMAT_DESCRIPTION in force;
- ``server_version``: the version the source states ("" when not known before the first FDE).

A source is a context manager; ``close()`` releases its files or connections.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..binlog.events import Event
from ..positions import BinlogPosition


class EventSource:
    files: list
    start: BinlogPosition | None = None
    stop: BinlogPosition | None = None
    server_version: str = ""

    @property
    def position(self) -> BinlogPosition | None:
        raise NotImplementedError

    @property
    def fde(self):
        raise NotImplementedError

    def __iter__(self) -> Iterator[Event]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the source holds (idempotent)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["EventSource"]
