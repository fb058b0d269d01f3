"""Binlog files as a source: the file reader behind the source interface."""

from __future__ import annotations

from collections.abc import Iterator

from ..binlog.events import Event
from ..binlog.reader import BinlogReader
from ..errors import ConfigError
from .base import EventSource
from .options import SourceOptions


class FileSource(EventSource):
    """The events of binlog files (``path``: a file, directory, ``.index`` or glob, or a list of
    them). ``options.start``/``options.stop`` are ``FILE:POS`` or a bare offset (in the first/last
    file, as mysqlbinlog). ``registry``/``only_types`` as for BinlogReader."""

    def __init__(self, path, options: SourceOptions | None = None, *, registry=None, only_types=None):
        self.options = options = options if options is not None else SourceOptions()
        if options.from_now or options.start_gtid or options.follow:
            # (a growing directory is followed by the directory source)
            from_what = "from_now" if options.from_now else "start_gtid" if options.start_gtid else "follow"
            raise ConfigError(f"{from_what} needs a server source (mysql://...), not files")
        start = stop = None
        if options.start is not None:
            start = options.start if options.start[0] else options.start[1]
        if options.stop is not None:
            stop = options.stop if options.stop[0] else options.stop[1]
        self.reader = BinlogReader(path, options=options.decode, start=start, stop=stop, registry=registry,
                                   only_types=only_types)
        self.files = self.reader.files
        self.start = self.reader.start
        self.stop = self.reader.stop

    @property
    def position(self):
        return self.reader.position

    @property
    def fde(self):
        return self.reader.fde

    @property
    def server_version(self) -> str:
        return self.reader.fde.server_version if self.reader.fde is not None else ""

    def __iter__(self) -> Iterator[Event]:
        return iter(self.reader)


__all__ = ["FileSource"]
