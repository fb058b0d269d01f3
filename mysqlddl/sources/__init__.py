"""Sources: where binlog events come from, named by URI (issue #20).

    open_source("mysql://repl@db1:3306/?server-id=4242", SourceOptions(follow=True))
    open_source("file:///var/lib/mysql/binlog.000042")
    open_source("/var/lib/mysql/")                       # a plain path: files, as the file reader

Each returns an :class:`~.base.EventSource`: an iterable of the same
:class:`~mysqlddl.binlog.events.Event` objects a :class:`~mysqlddl.binlog.reader.BinlogReader`
gives for the same bytes, with ``position``, ``fde``, ``files``, ``start``/``stop``. A
:class:`~mysqlddl.changes.ChangeReader` takes one in place of file paths.

The scheme -> opener registry (:data:`OPENERS`, :func:`register`) lets other sources plug in (the
pipeline follows a growing directory with :mod:`.directory`). An opener is
``opener(target, options, **kw) -> EventSource`` where ``target`` is the parsed URI
(:class:`~.uri.ServerUri`) or, for ``file`` and plain paths, the path. The server opener is
loaded on first use (PyMySQL and the protocol code are not needed for files).
"""

from __future__ import annotations

import importlib

from ..errors import ConfigError
from .base import EventSource
from .file import FileSource
from .options import SourceOptions
from .uri import FileUri, ServerUri, parse_uri


def _open_file(target, options, **kw) -> EventSource:
    return FileSource(target, options, **kw)


def _open_server(target, options, **kw) -> EventSource:
    # the server source (and PyMySQL) load only for a server URI: a file user never pays for them
    server = importlib.import_module(".server", __name__)
    return server.open_server(target, options, **kw)


#: scheme -> opener. "file" also serves plain paths.
OPENERS = {"file": _open_file, "mysql": _open_server, "mariadb": _open_server}


def register(scheme: str, opener) -> None:
    """Add or replace the opener of a URI scheme (``opener(target, options, **kw)``)."""
    OPENERS[scheme.lower()] = opener


def open_source(uri, options: SourceOptions | None = None, **kw) -> EventSource:
    """The source a URI names (see the module docstring). ``kw`` goes to the opener: ``registry``,
    ``only_types``; for servers also ``password`` and ``start_hook``."""
    if isinstance(uri, EventSource):
        return uri
    if isinstance(uri, (list, tuple)):
        return _open_file(list(uri), options, **kw)
    scheme = str(uri).partition("://")[0].lower() if "://" in str(uri) else "file"
    opener = OPENERS.get(scheme)
    if opener is None:
        raise ConfigError(f"no source for scheme {scheme!r} (known: {', '.join(sorted(OPENERS))})")
    if scheme in ("file", "mysql", "mariadb"):
        target = parse_uri(str(uri))
        if isinstance(target, FileUri):
            target = target.path
    else:
        target = str(uri)       # a registered scheme parses its own URI
    return opener(target, options, **kw)


def is_server_uri(text) -> bool:
    """Whether ``text`` names a server (``mysql://``, ``mariadb://``)."""
    return isinstance(text, str) and text.lower().startswith(("mysql://", "mariadb://"))


__all__ = ["OPENERS", "EventSource", "FileSource", "FileUri", "ServerUri", "SourceOptions", "is_server_uri",
           "open_source", "parse_uri", "register"]
