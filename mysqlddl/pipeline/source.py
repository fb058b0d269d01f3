"""The pipeline's source interface, and its file source (a binlog file, list, or directory).

What the runner needs from a source (files and directories: :class:`FileSource`; a server,
``mysql://``: :class:`ServerSource`, through ``mysqlddl.sources.open_source``, whose events are
BinlogReader's)::

    identity(start) -> (source_id, fingerprint)    checked against the checkpoint before anything
                                                   is written: source_id names the source (a
                                                   server's server_uuid; for files the first FDE's
                                                   server id and version with the base name),
                                                   fingerprint (or None) the place start is in (for
                                                   files: the FDE timestamp of its file)
    reader_source(start)                           what ChangeReader takes as ``source`` (a path)
    events(start) -> Iterator[Event]               events from start (a checkpoint position, at a
                                                   transaction end; None: from the beginning), an
                                                   FDE first; following when built so, until stop()

:data:`SOURCES` maps a URI scheme to ``factory(uri, options, follow=, poll=, stop=, idle=,
registry=)``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import BinlogPurgedError, CheckpointError, MysqlddlError, PipelineError
from ..olr.source import olr_source
from ..positions import BinlogPosition, split_file_name
from ..sources import SourceOptions, open_source
from ..sources.directory import DirectorySource, fde_of


def source_identity(fde, path: Path) -> str:
    """A file source's identity: the FORMAT_DESCRIPTION's server id and version with the binlog
    base name (a binlog carries no server_uuid; a server source gives its own)."""
    parts = split_file_name(path.name)
    base = parts[0] if parts else path.name
    if fde is None:
        return f"file:basename={base}"
    return f"file:server_id={fde.header.server_id};version={fde.server_version};basename={base}"


class FileSource:
    """Binlog files (a file, a directory, an ``.index``), followed as they grow when ``follow``
    (:class:`~mysqlddl.sources.directory.DirectorySource`)."""

    def __init__(self, path, options, **kw):
        self.path = path
        self.options = options
        self.directory = DirectorySource(path, options=options, **kw)

    def _first(self, start: BinlogPosition | None) -> Path:
        try:
            return self.directory.first_file(start)
        except MysqlddlError as e:
            if start is not None:
                raise CheckpointError(f"the checkpoint's file {start.file} is not in the source {self.path}: {e}") \
                    from None
            raise

    def identity(self, start: BinlogPosition | None) -> tuple[str, int | None]:
        first = self._first(start)
        fde = fde_of(first, self.options)
        return source_identity(fde, first), (fde.header.timestamp if fde is not None else None)

    def reader_source(self, start: BinlogPosition | None):
        return self._first(start)

    def events(self, start: BinlogPosition | None):
        return self.directory.events(start)


class ServerSource:
    """A running MySQL/MariaDB server streamed as a replica (``mysql://``, ``mariadb://``:
    :func:`mysqlddl.sources.open_source`), from the checkpoint's position (a transaction end, so
    the dump starts at a transaction boundary). ``follow``: never stop (else stop at the end the
    server reported at start, as ``--once`` wants). Identity: the server's ``server_uuid`` (MySQL);
    MariaDB has none, so its ``server_id`` and the GTID domain state's origin stand in (another
    server, a failover, is followed from the checkpoint's GTID set: :meth:`restart_at_gtid`,
    pipeline.failover)."""

    def __init__(self, uri: str, options, *, follow: bool = False, stop=None, idle=None, registry=None,
                 defaults_file=None, **_kw):
        self.uri, self.options, self.follow, self.registry = uri, options, follow, registry
        self.defaults_file = defaults_file
        self._stop = stop
        self._idle = idle
        self._source = None
        self._opened_at = None          # ("pos", key) or ("gtid", set) the open stream started at
        #: a GTID set to start after instead of a file position (a failover: pipeline.failover)
        self.start_gtid: str | None = None

    def _open(self, start: BinlogPosition | None):
        # the stream opened for identity() at the checkpoint is the one read, unless the reading
        # starts elsewhere: an XA replay starts before the checkpoint, at the first prepared XA
        # transaction (pipeline.runner), and a stream opened at the checkpoint would never give
        # that transaction's rows again, so its COMMIT would release nothing
        at = ("gtid", self.start_gtid) if self.start_gtid else ("pos", None if start is None else start.key)
        if self._source is not None and at != self._opened_at:
            self._source.close()
            self._source = None
        if self._source is None:
            self._opened_at = at
            if self.start_gtid:
                opts = SourceOptions(decode=self.options, start_gtid=self.start_gtid, follow=self.follow,
                                     defaults_file=self.defaults_file)
            else:
                opts = SourceOptions(decode=self.options, start=None if start is None else f"{start.file}:{start.pos}",
                                     follow=self.follow, defaults_file=self.defaults_file)
            self._source = open_source(self.uri, opts, registry=self.registry)
            self._source.on_wait = self._waiting
        return self._source

    def _waiting(self) -> bool:
        """The stream caught up with the server: what ended is committed (``idle``), a stop request
        ends the stream (a quiet server sends no event that would let it be noticed)."""
        if self._idle is not None:
            self._idle()
        return self._stop is not None and self._stop()

    def restart_at_gtid(self, gtid_set: str) -> None:
        """Stream from after ``gtid_set`` instead (the server checks it holds the set: a
        GtidPositionError when not, raised here); the stream opened for :meth:`identity` is closed."""
        if self._source is not None:
            self._source.close()
            self._source = None
        # MariaDB checks the set only per domain (seq_no up to gtid_binlog_pos) when the source
        # opens; its dump thread refuses a GTID its binlog does not hold (error 1236, a diverged
        # server) only once the stream starts: a probe stream's first event asks it now, before
        # the pipeline writes anything
        probe = open_source(self.uri, SourceOptions(decode=self.options, start_gtid=gtid_set,
                                                    defaults_file=self.defaults_file), registry=self.registry)
        try:
            next(iter(probe), None)
        finally:
            probe.close()
        self.start_gtid = gtid_set
        self._open(None)

    @staticmethod
    def _identity_of(src) -> str:
        if src.server_uuid:
            return f"server:uuid={src.server_uuid}"
        return f"server:{src.flavor};server_id={src.settings.get('server_id')}"

    def identity(self, start: BinlogPosition | None) -> tuple[str, int | None]:
        try:
            src = self._open(start)
        except BinlogPurgedError:
            if start is None:
                raise
            # the checkpoint's file is not on this server: purged here, or this is another server
            # (a failover: its binlogs are numbered its own way). Which server it is decides: the
            # runner follows (or refuses) another identity as such, and the purge stands on the same server.
            probe = open_source(self.uri, SourceOptions(decode=self.options, from_now=True,
                                                        defaults_file=self.defaults_file), registry=self.registry)
            try:
                return self._identity_of(probe), None
            finally:
                probe.close()
        return self._identity_of(src), None

    def reader_source(self, start: BinlogPosition | None):
        return self._open(start)

    def events(self, start: BinlogPosition | None):
        src = self._open(start)
        try:
            for ev in src:
                yield ev
                if self._stop is not None and self._stop():
                    return
        finally:
            src.close()


def _server_source(uri: str, options, **kw) -> ServerSource:
    return ServerSource(uri, options, **kw)




def _file_source(uri: str, options, **kw) -> FileSource:
    path = Path(unquote(urlsplit(uri).path)) if "://" in uri else Path(uri)
    return FileSource(path, options, **kw)


#: URI scheme -> source factory (a bare path is a file source)
SOURCES = {"file": _file_source, "mysql": _server_source, "mariadb": _server_source, "olr": olr_source}


def make_source(uri: str, options, **kw):
    scheme = uri.split("://", 1)[0] if "://" in uri else "file"
    factory = SOURCES.get(scheme)
    if factory is None:
        raise PipelineError(f"no source for {scheme}:// in this build (known: {', '.join(sorted(SOURCES))})",
                            setting="source.uri")
    return factory(uri, options, **kw)


__all__ = ["SOURCES", "FileSource", "ServerSource", "make_source", "source_identity"]
