"""The pipeline's source interface, and its file source (a binlog file, list, or directory).

What the runner needs from a source (files and directories: :class:`FileSource`; a server,
``mysql://``: the :class:`~mysqlddl.sources.server.stream.ServerSource` of
``mysqlddl.sources.open_source``, itself what ChangeReader takes, whose events are BinlogReader's)::

    identity(start) -> (source_id, fingerprint)    checked against the checkpoint before anything
                                                   is written: source_id names the source (a
                                                   server's server_uuid; for files the first FDE's
                                                   server id and version with the base name),
                                                   fingerprint (or None) the place start is in (for
                                                   files: the FDE timestamp of its file)
    reader_source(start)                           what ChangeReader takes as ``source`` (a path;
                                                   a server source is itself an EventSource)
    events(start) -> Iterator[Event]               events from start (a checkpoint position, at a
                                                   transaction end; None: from the beginning), an
                                                   FDE first; following when built so, until stop()

:data:`SOURCES` maps a URI scheme to ``factory(uri, options, follow=, poll=, stop=, idle=,
registry=)``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import CheckpointError, MysqlddlError, PipelineError
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


def _server_source(uri: str, options, *, follow: bool = False, stop=None, idle=None, registry=None,
                   defaults_file=None, **_kw):
    """A running MySQL/MariaDB server streamed as a replica (``mysql://``, ``mariadb://``): the
    :class:`~mysqlddl.sources.server.stream.ServerSource` of :func:`mysqlddl.sources.open_source`,
    logging in at its first use (the checkpoint is looked at before the server is asked anything).
    ``follow``: never stop (else stop at the end the server reported at start, as ``--once``
    wants); ``idle()`` when it waits for the server, ``stop()`` a stop request."""
    src = open_source(uri, SourceOptions(decode=options, follow=follow, defaults_file=defaults_file),
                      registry=registry, lazy=True)
    src.on_wait = idle
    src.stop_requested = stop
    return src


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


__all__ = ["SOURCES", "FileSource", "make_source", "source_identity"]
