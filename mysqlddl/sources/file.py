"""Binlog files as a source: a file, a list of them, a directory, an ``.index`` file or a glob,
read to their end or followed while a server writes them.

``FileSource(path)`` reads what :func:`mysqlddl.binlog.files.resolve_sources` names (a directory:
its single ``.index`` file when it has one, else every ``name.NNNNNN`` file), from a position or
from the start, and yields the same :class:`~mysqlddl.binlog.events.Event` objects as
:class:`~mysqlddl.binlog.reader.BinlogReader`.

With ``SourceOptions.follow`` it does not stop at the end of what exists: it reads the last file
again as it grows and moves to the next file the server opens (rotation), until ``on_wait`` or
``stop_requested`` says so (the hooks of :class:`~.base.EventSource`). The facts it relies on:

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

Identity (:meth:`FileSource.identity`): a binlog carries no server_uuid, so the files' identity is
the first FORMAT_DESCRIPTION's server id and version with the binlog base name, and the
fingerprint of a checkpoint's place the FDE timestamp of its file (its creation).
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

from ..binlog.events import FormatDescriptionEvent
from ..binlog.events.types import EventType
from ..binlog.files import event_around, resolve_sources
from ..binlog.reader import BinlogReader
from ..errors import BinlogError, CheckpointError, ConfigError, MysqlddlError
from ..options import DEFAULT, Options
from ..positions import BinlogPosition, split_file_name
from .base import EventSource
from .options import SourceOptions, parse_file_pos

#: Event types after which a file receives nothing more.
_LAST = (EventType.ROTATE, EventType.STOP)


def source_identity(fde, path: Path) -> str:
    """A file source's identity: the FORMAT_DESCRIPTION's server id and version with the binlog
    base name (a binlog carries no server_uuid; a server source gives its own)."""
    parts = split_file_name(path.name)
    base = parts[0] if parts else path.name
    if fde is None:
        return f"file:basename={base}"
    return f"file:server_id={fde.header.server_id};version={fde.server_version};basename={base}"


def fde_of(path: str | os.PathLike, options: Options = DEFAULT) -> FormatDescriptionEvent | None:
    """The FORMAT_DESCRIPTION event at the start of a binlog file (None when the file starts with
    something else)."""
    ev = next(iter(BinlogReader(path, options=options)), None)
    return ev if isinstance(ev, FormatDescriptionEvent) else None


def _small(path: Path) -> bool:
    try:
        return os.path.getsize(path) < 512
    except OSError:
        return True


class FileSource(EventSource):
    """The events of binlog files (the module docstring). ``path``: a file, directory, ``.index``
    or glob, or a list of them. ``options``: :class:`SourceOptions` (``start``/``stop`` are
    ``FILE:POS`` or a bare offset in the first/last file, as mysqlbinlog; ``follow``, ``poll``;
    ``decode``). ``on_wait``, ``stop_requested``: the hooks of :class:`~.base.EventSource`."""

    def __init__(self, path, options: SourceOptions | None = None, *, on_wait=None, stop_requested=None):
        self.options = options = options if options is not None else SourceOptions()
        if options.from_now or options.start_gtid:
            what = "from_now" if options.from_now else "start_gtid"
            raise ConfigError(f"{what} needs a server source (mysql://...), not files")
        self.path = path
        self.on_wait = on_wait
        self.stop_requested = stop_requested
        self._reader: BinlogReader | None = None     # the reader of the file being read
        self._position: BinlogPosition | None = None
        self._fde = None
        self._listed = None if options.follow else resolve_sources(path)

    # -- files ------------------------------------------------------------------------------------
    @property
    def files(self) -> list[Path]:
        """The files: as listed when opened, or, followed, as listed now (the index or directory is
        read again each time)."""
        return self._listed if self._listed is not None else resolve_sources(self.path)

    def find(self, name: str) -> Path:
        """The file of this source whose base name (or path) is ``name``."""
        for f in self.files:
            if f.name == Path(name).name or str(f) == name:
                return f
        raise BinlogError("the checkpoint's binlog file is not among the source's files (purged, or another "
                          "source?)", file=name)

    def _first(self, start: BinlogPosition | None) -> Path:
        try:
            return self.find(start.file) if start is not None else self.files[0]
        except MysqlddlError as e:
            if start is not None:
                raise CheckpointError(f"the checkpoint's file {start.file} is not in the source {self.path}: {e}") \
                    from None
            raise

    def identity(self, start: BinlogPosition | None) -> tuple[str, int | None]:
        first = self._first(start)
        fde = fde_of(first, self.options.decode)
        return source_identity(fde, first), (fde.header.timestamp if fde is not None else None)

    def check_position(self, value, what: str, *, start: bool = True) -> None:
        """A position given for these files (``FILE:POS``, or a bare offset in the first file for a
        start, the last for a stop), checked before any reading (issue #30 item 13: a FILE naming
        another file gave an empty output; item 14: a start inside an event was blamed on the event
        that is not there): FILE names one of the files (its path or base name, as the reader
        matches it), and a start is where an event starts (the headers walked,
        :func:`~mysqlddl.binlog.files.event_around`). ``what`` names the setting in the message
        (``--start-position``, ``[source] start_position``)."""
        name, pos = parse_file_pos(value, what)
        files = self.files
        if name is None:
            path = files[0 if start else -1]
        else:
            path = next((f for f in files if str(f) == name or f.name == os.path.basename(name)), None)
            if path is None:
                raise ConfigError(f"{what} {value}: {name} is not among the inputs "
                                  f"({', '.join(str(f) for f in files)}); give a position in one of them")
        if start:
            around = event_around(path, pos)
            if around is not None:
                raise ConfigError(f"{what} {value}: not at an event boundary: {path} has an event from "
                                  f"{around[0]} to {around[1]}; start at {around[0]} or {around[1]} "
                                  "(`mysqlddl events` lists where events start)")

    # -- the position API -------------------------------------------------------------------------
    @property
    def reader(self) -> BinlogReader | None:
        """The BinlogReader of this reading (followed: of the file being read), with its own facts
        (``relay_log``, ``truncated``, ``errors``, ``only_types``...); None before :meth:`events`."""
        return self._reader

    @property
    def position(self) -> BinlogPosition | None:
        r = self._reader
        at = r.position if r is not None else None
        return at if at is not None else self._position

    @property
    def fde(self):
        r = self._reader
        return r.fde if r is not None and r.fde is not None else self._fde

    @property
    def server_version(self) -> str:
        """The version the first FORMAT_DESCRIPTION to be read states (read from the file before
        the first event when need be; "" while a followed directory holds no file yet)."""
        fde = self.fde
        if fde is None:
            try:
                fde = self._fde = fde_of(self._first(self.start), self.options.decode)
            except (BinlogError, IndexError):
                return ""
        return fde.server_version if fde is not None else ""

    # -- events -----------------------------------------------------------------------------------
    def events(self, start=None, *, stop=None, only_types=None, registry=None) -> Iterator:
        """Events from ``start`` (a BinlogPosition, ``(file, pos)`` or a bare offset in the first
        file: an event boundary, a transaction's end), else from the options' start, else from the
        first file's start; the FDE of the file first."""
        o = self.options
        if start is None and o.start is not None:
            start = o.start if o.start[0] else o.start[1]
        if stop is None and o.stop is not None:
            stop = o.stop if o.stop[0] else o.stop[1]
        self._fde = self._position = None
        if o.follow:
            if stop is not None:
                raise ConfigError("a followed directory never stops: give follow or a stop, not both")
            self.start = None if start is None else self._norm(start)
            self.stop = None
            return self._follow(self.start, only_types, registry)
        reader = self._reader = BinlogReader(self.files, options=o.decode, start=start, stop=stop,
                                             registry=registry, only_types=only_types)
        self.start, self.stop = reader.start, reader.stop
        if reader.start is None or reader.start.pos <= 4:
            return iter(reader)
        # the reader decodes the FDE of a file it starts inside but does not yield it: the source does
        # (a reader learns the dialect and version of the events from it)
        fde = self._fde = fde_of(reader.start.file, o.decode)
        return itertools.chain((fde,), reader) if fde is not None else iter(reader)

    def _norm(self, start) -> BinlogPosition:
        if isinstance(start, BinlogPosition):
            return start
        f, p = (None, start) if isinstance(start, int) else start
        path = self.find(f) if f is not None else self.files[0]
        return BinlogPosition.in_file(str(path), int(p))

    def _waiting(self) -> bool:
        """Waiting for data: True ends the iteration (``on_wait``, a stop request)."""
        if self.waiting():
            return True
        time.sleep(self.options.poll)
        asked = self.stop_requested
        return bool(asked is not None and asked())

    def _wait_for_a_file(self) -> Path | None:
        """The first file, once the server has created one (None: stopped before)."""
        while True:
            try:
                files = resolve_sources(self.path)
            except BinlogError:
                files = []
            if files:
                return files[0]
            if self.waiting():
                return None
            time.sleep(self.options.poll)

    def _next_file(self, current: Path) -> Path | None:
        files = self.files
        names = [f.name for f in files]
        if current.name in names:
            i = names.index(current.name)
            return files[i + 1] if i + 1 < len(files) else None
        return None

    def _follow(self, start: BinlogPosition | None, only_types, registry) -> Iterator:
        """The followed reading (the module docstring): file by file, each read again as it grows."""
        if start is None:
            path = self._wait_for_a_file()
            if path is None:
                return
        else:
            path = self._first(start)
        pos = start.pos if start is not None and start.pos > 4 else None     # None: the file's start
        fde_due = True
        decode = self.options.decode
        tail = decode.replace(stop_at_truncated_tail=True)
        asked = self.stop_requested
        while True:
            got, last_type = False, None
            reader = self._reader = BinlogReader(path, options=tail, start=pos, registry=registry,
                                                 only_types=only_types)
            try:
                if pos is not None and fde_due:
                    fde = fde_of(path, decode)
                    if fde is not None:
                        self._fde = fde
                        yield fde
                for ev in reader:
                    if isinstance(ev, FormatDescriptionEvent):
                        if not fde_due:
                            continue      # (a file read again: its FDE was yielded the first time)
                        self._fde = ev
                    fde_due = False
                    got, last_type = True, ev.type_code
                    yield ev
                    if asked is not None and asked():
                        return
            except BinlogError:
                # a file the server has just created may not hold its magic number and FDE yet
                if got or not _small(path):
                    raise
            at = reader.position
            if at is not None and at.pos > 4:
                pos = at.pos
                self._position = at
            nxt = self._next_file(path)
            if nxt is not None and (last_type in _LAST or (not got and reader.truncated is None)):
                # rotated (or, without a ROTATE, a newer file exists and this one no longer grows)
                path, pos, fde_due = nxt, None, True
                continue
            if not got and self._waiting():
                return


def open_files(target, options: SourceOptions | None = None, **hooks) -> FileSource:
    """The registry's opener of ``file`` URIs, plain paths and lists of them."""
    return FileSource(target, options, **hooks)


__all__ = ["FileSource", "fde_of", "open_files", "source_identity"]
