"""A server source that resumes: the source contract (:mod:`mysqlddl.sources.base`) over the
replica stream of :mod:`.source`, opened again where a reader asks to start.

(Moved as it was from the pipeline, ``pipeline/source.py``; the resuming stream of
``sources/server/stream.py`` takes it over.)

A running MySQL/MariaDB server streamed as a replica (``mysql://``, ``mariadb://``), from a
checkpoint's position (a transaction end, so the dump starts at a transaction boundary) or from the
start the options give. ``follow``: never stop (else stop at the end the server reported at start,
as ``--once`` wants). Identity: the server's ``server_uuid`` (MySQL); MariaDB has none, so its
``server_id`` and the GTID domain state's origin stand in (another server, a failover, is followed
from the checkpoint's GTID set: :meth:`ServerSource.restart_at_gtid`, pipeline.failover).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import BinlogPurgedError, ConfigError
from ...positions import BinlogPosition
from ..base import EventSource
from ..options import SourceOptions, parse_file_pos
from ..uri import ServerUri, parse_uri
from .source import open_server as open_stream


class ServerSource(EventSource):
    """The resuming server source (the module docstring). ``uri``: a ServerUri (or its text);
    ``options``: the SourceOptions of the first opening (its start is the configured one);
    ``password``/``start_hook`` as for the stream (the hook runs on the first opening only);
    ``on_wait``: the contract's hook."""

    def __init__(self, uri, options: SourceOptions | None = None, *, on_wait=None, stop_requested=None, password=None,
                 start_hook=None):
        self.uri = uri if isinstance(uri, ServerUri) else parse_uri(uri)
        self.options = options if options is not None else SourceOptions()
        self.on_wait = on_wait
        self.stop_requested = stop_requested
        self._password = password
        self._start_hook = start_hook
        self._source = None
        self._read = None               # the stream read last (closed at its end: its position stays)
        self._opened_at = None          # ("pos", key), ("gtid", set), with the stop, the open stream started at
        #: a GTID set to start after instead of a file position (a failover: pipeline.failover)
        self.start_gtid: str | None = None

    # -- opening ----------------------------------------------------------------------------------
    def _stream(self, options: SourceOptions, **kw):
        hook, self._start_hook = self._start_hook, None
        if hook is not None:
            kw["start_hook"] = hook
        if self._password is not None:
            kw["password"] = self._password
        return open_stream(self.uri, options, **kw)

    def _open(self, start: BinlogPosition | None, stop=None):
        # the stream opened for identity() at the checkpoint is the one read, unless the reading
        # starts elsewhere: an XA replay starts before the checkpoint, at the first prepared XA
        # transaction (pipeline.runner), and a stream opened at the checkpoint would never give
        # that transaction's rows again, so its COMMIT would release nothing
        stop = parse_file_pos(stop, "stop") if stop is not None else self.options.stop
        at = (("gtid", self.start_gtid) if self.start_gtid else ("pos", None if start is None else start.key), stop)
        if self._source is not None and at != self._opened_at:
            self._source.close()
            self._source = None
        if self._source is None:
            opts = self.options if stop == self.options.stop else self.options.replace(stop=stop)
            if self.start_gtid:
                opts = opts.replace(start=None, from_now=False, start_gtid=self.start_gtid)
            elif start is not None:
                opts = opts.replace(start=f"{start.file}:{start.pos}", from_now=False, start_gtid=None)
            self._opened_at = at
            self._source = self._stream(opts)
            self._source.on_wait = self.waiting
        return self._source

    def open(self) -> ServerSource:
        """Open the stream at the configured start now (its checks and errors come here)."""
        self._open(None)
        return self

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
        probe = self._stream(self.options.replace(start=None, stop=None, from_now=False, follow=False,
                                                  start_gtid=gtid_set))
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
            probe = self._stream(self.options.replace(start=None, stop=None, start_gtid=None, from_now=True,
                                                      follow=False))
            try:
                return self._identity_of(probe), None
            finally:
                probe.close()
        return self._identity_of(src), None

    # -- events -----------------------------------------------------------------------------------
    def events(self, start=None, *, stop=None, only_types=None, registry=None) -> Iterator:
        if start is not None and not isinstance(start, BinlogPosition):
            raise ConfigError(f"a server source starts at a BinlogPosition, not {start!r}")
        if isinstance(stop, int):
            stop = (None, stop)
        src = self._open(start, stop)
        # what the reader wants decoded: the stream builds its decoder from these when its dump
        # starts (ServerSource._dump), so they apply to the stream opened for identity() too
        src._registry, src._only_types = registry, only_types
        return self._events(src)

    def _events(self, src) -> Iterator:
        asked = self.stop_requested
        try:
            for ev in src:
                yield ev
                if asked is not None and asked():
                    return
        finally:
            src.close()
            self._read = src
            if self._source is src:
                self._source = None

    # -- the position API: the open stream's --------------------------------------------------------
    def _current(self):
        if self._source is not None:
            return self._source
        return self._read if self._read is not None else self._open(None)

    @property
    def position(self):
        return self._current().position

    @property
    def fde(self):
        return self._current().fde

    @property
    def server_version(self) -> str:
        return self._current().server_version

    @property
    def files(self) -> list:
        return self._current().files

    @property
    def start(self):
        return self._current().start

    @property
    def stop(self):
        return self._current().stop

    def __getattr__(self, name: str):
        # the stream's own facts (server_uuid, flavor, settings, reconnects, resumes, control...)
        if name.startswith("_") or self.__dict__.get("uri") is None:
            raise AttributeError(name)
        return getattr(self._current(), name)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None


def open_server(uri, options: SourceOptions | None = None, **hooks) -> ServerSource:
    """The registry's opener of ``mysql://`` and ``mariadb://``: the stream opened at the
    configured start (its start-up checks and their errors come here)."""
    if not isinstance(uri, ServerUri):
        raise ConfigError(f"not a server URI: {uri!r}")
    return ServerSource(uri, options, **hooks).open()


__all__ = ["ServerSource", "open_server"]
