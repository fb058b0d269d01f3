"""A binlog file source that can follow a directory a server is writing.

``DirectorySource(path)`` reads a binlog file, a list of them, a ``.index`` file or a directory
(its single ``.index`` file when it has one, else every ``name.NNNNNN`` file; the rule of
:func:`mysqlddl.binlog.files.resolve_sources`), from a position or from the start, and yields the
same :class:`~mysqlddl.binlog.events.Event` objects as :class:`~mysqlddl.binlog.reader.BinlogReader`.

With ``follow=True`` it does not stop at the end of what exists: it reads the last file again as
it grows and moves to the next file the server opens (rotation), until ``stop()`` says so. The
facts it relies on:

- the server writes a complete event at a time but a reader may see a file end inside one (the
  write is not atomic for the reader): the tail is read with ``Options.stop_at_truncated_tail``,
  and the incomplete event is read again when the file has grown;
- a file the server rotated away from ends with a ROTATE event (``MYSQL_BIN_LOG::rotate`` writes
  ``Rotate_log_event`` before closing it; MariaDB's ``MYSQL_BIN_LOG::new_file_impl`` likewise), and
  one closed at shutdown with a STOP event: after either, nothing more comes in that file;
- the index file (``log-bin-index``) lists a new file once the server has created it; without an
  index the directory is listed again.

A FORMAT_DESCRIPTION is yielded once per file, also when reading starts inside the file (the
reader decodes it but does not yield it then), so a consumer learns the dialect and version; a file
read again after it grew does not yield it again (a consumer clears its table maps on an FDE).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..binlog.events import FormatDescriptionEvent
from ..binlog.events.types import EventType
from ..binlog.files import resolve_sources
from ..binlog.reader import BinlogReader
from ..errors import BinlogError
from ..options import DEFAULT, Options
from ..positions import BinlogPosition

#: Event types after which a file receives nothing more.
_LAST = (EventType.ROTATE, EventType.STOP)


class DirectorySource:
    """Events of binlog files, optionally following a growing directory (the module docstring).

    ``source``: a path (file, directory, ``.index``), a glob, or a list of paths. ``options``:
    decoding Options; ``registry``: the event decoders (BinlogReader's). ``follow``: keep reading
    as the files grow. ``poll``: seconds between looks
    at a file that has not grown. ``stop()``: polled while waiting for data; True ends the
    iteration (cleanly: between events). ``idle()``: called each time the source is about to wait
    (a pipeline commits its pending batch there).

    After iterating: :attr:`position` is where the next event starts (file path and offset).
    """

    def __init__(self, source, *, options: Options = DEFAULT, follow: bool = False, poll: float = 0.2,
                 stop: Callable[[], bool] | None = None, idle: Callable[[], None] | None = None,
                 registry=None):
        self.source = source
        self.registry = registry
        self.options = options
        self.follow = follow
        self.poll = poll
        self.stop = stop or (lambda: False)
        self.idle = idle or (lambda: None)
        self.position: BinlogPosition | None = None
        self._path = Path(source) if isinstance(source, (str, os.PathLike)) else None

    # -- files ------------------------------------------------------------------------------------
    def files(self) -> list[Path]:
        """The files as listed now (the index or directory is read again each time)."""
        return resolve_sources(self.source)

    def find(self, name: str) -> Path:
        """The file of this source whose base name (or path) is ``name``."""
        for f in self.files():
            if f.name == Path(name).name or str(f) == name:
                return f
        raise BinlogError("the checkpoint's binlog file is not among the source's files (purged, or another "
                          "source?)", file=name)

    def first_file(self, start: BinlogPosition | None = None) -> Path:
        return self.find(start.file) if start is not None else self.files()[0]

    def _wait_for_a_file(self) -> Path | None:
        """The first file, once the server has created one (None: stopped before)."""
        while True:
            try:
                files = self.files()
            except BinlogError:
                files = []
            if files:
                return files[0]
            self.idle()
            if self.stop():
                return None
            time.sleep(self.poll)

    def _next_file(self, current: Path) -> Path | None:
        files = self.files()
        names = [f.name for f in files]
        if current.name in names:
            i = names.index(current.name)
            return files[i + 1] if i + 1 < len(files) else None
        return None

    # -- events -----------------------------------------------------------------------------------
    def events(self, start: BinlogPosition | None = None) -> Iterator:
        """Events from ``start`` (a position at an event boundary: a transaction's end), else from
        the first file's start."""
        if start is None and self.follow:
            path = self._wait_for_a_file()
            if path is None:
                return
        else:
            path = self.first_file(start)
        pos = start.pos if start is not None and start.pos > 4 else None     # None: the file's start
        fde_due = True
        tail = self.options.replace(stop_at_truncated_tail=True) if self.follow else self.options
        while True:
            got, last_type = False, None
            reader = BinlogReader(path, options=tail, start=pos, registry=self.registry)
            try:
                if pos is not None and fde_due:
                    fde = fde_of(path, self.options)
                    if fde is not None:
                        yield fde
                for ev in reader:
                    if isinstance(ev, FormatDescriptionEvent) and not fde_due:
                        continue      # (a file read again: its FDE was yielded the first time)
                    fde_due = False
                    got, last_type = True, ev.type_code
                    yield ev
            except BinlogError:
                # a file the server has just created may not hold its magic number and FDE yet
                if not (self.follow and not got and _small(path)):
                    raise
            at = reader.position
            if at is not None and at.pos > 4:
                pos = at.pos
                self.position = at
            nxt = self._next_file(path)
            if nxt is not None and (last_type in _LAST or not self.follow
                                    or (not got and reader.truncated is None)):
                # rotated (or, without a ROTATE, a newer file exists and this one no longer grows)
                path, pos, fde_due = nxt, None, True
                continue
            if not self.follow:
                return
            if not got:
                self.idle()
                if self.stop():
                    return
                time.sleep(self.poll)
                if self.stop():
                    return

    __iter__ = events


def _small(path: Path) -> bool:
    try:
        return os.path.getsize(path) < 512
    except OSError:
        return True


def fde_of(path: str | os.PathLike, options: Options = DEFAULT) -> FormatDescriptionEvent | None:
    """The FORMAT_DESCRIPTION event at the start of a binlog file (None when the file starts with
    something else)."""
    ev = next(iter(BinlogReader(path, options=options)), None)
    return ev if isinstance(ev, FormatDescriptionEvent) else None


__all__ = ["DirectorySource", "fde_of"]
