"""Sources: where change data comes from, named by URI; one contract (:mod:`.base`), one registry.

    open_source("mysql://repl@db1:3306/?server-id=4242", SourceOptions(follow=True))
    open_source("file:///var/lib/mysql/binlog.000042")
    open_source("/var/lib/mysql/")                       # a plain path (or a list): binlog files
    open_source("olr:///var/olr/output/")                # OpenLogReplicator output

Each returns an :class:`~.base.EventSource` (identity, events from a start, position, hooks,
close): a :class:`~mysqlddl.changes.ChangeReader` reads one, so does the pipeline.

The scheme -> opener registry (:data:`OPENERS`, :func:`register`) lets other sources plug in. An
opener is ``opener(target, options, **hooks) -> EventSource``: ``target`` is the path (``file``
and plain paths, or a list of paths), the parsed :class:`~.uri.ServerUri` (``mysql``,
``mariadb``), or the URI text (any other scheme: it parses its own); ``options`` a
:class:`SourceOptions` (never None); ``hooks`` the keyword arguments of :func:`open_source`
(``on_wait`` and ``stop_requested`` for every source; a server's also ``password``,
``start_hook`` and ``lazy``: log in at the first use, not at the opening).

An entry may name its opener as ``"module:function"``, imported on first use: the server source
(PyMySQL and the protocol code are not needed for files), and OLR output, whose package sits above
this one in the layer order (``mysqlddl.olr`` reads documents, not events), so this package never
imports it.
"""

from __future__ import annotations

import importlib

from ..errors import ConfigError
from .base import EventSource
from .file import FileSource, open_files
from .options import SourceOptions
from .replay import ReplaySource
from .uri import FileUri, ServerUri, parse_uri

#: scheme -> opener, or "module:function" loaded on first use. "file" also serves plain paths.
OPENERS: dict = {
    "file": open_files,
    "mysql": "mysqlddl.sources.server:open_server",
    "mariadb": "mysqlddl.sources.server:open_server",
    "olr": "mysqlddl.olr.source:olr_source",
}


def register(scheme: str, opener) -> None:
    """Add or replace the opener of a URI scheme (``opener(target, options, **hooks)``, or
    ``"module:function"``)."""
    OPENERS[scheme.lower()] = opener


def _opener(scheme: str):
    opener = OPENERS.get(scheme)
    if opener is None:
        raise ConfigError(f"no source for scheme {scheme!r} (known: {', '.join(sorted(OPENERS))})")
    if isinstance(opener, str):
        module, _, name = opener.partition(":")
        opener = OPENERS[scheme] = getattr(importlib.import_module(module), name)
    return opener


def scheme_of(uri) -> str:
    """The scheme of a source URI ("file" for a plain path or a list of them)."""
    if isinstance(uri, (list, tuple)):
        return "file"
    text = str(uri)
    return text.partition("://")[0].lower() if "://" in text else "file"


def open_source(uri, options: SourceOptions | None = None, **hooks) -> EventSource:
    """The source a URI names (see the module docstring): a URI, a path, or a list of paths; an
    EventSource is returned as it is."""
    if isinstance(uri, EventSource):
        return uri
    options = options if options is not None else SourceOptions()
    scheme = scheme_of(uri)
    opener = _opener(scheme)
    if isinstance(uri, (list, tuple)):
        return opener(list(uri), options, **hooks)
    if scheme in ("file", "mysql", "mariadb"):
        target = parse_uri(uri)
        if isinstance(target, FileUri):
            target = target.path
    else:
        target = str(uri)       # a registered scheme parses its own URI
    return opener(target, options, **hooks)


def is_server_uri(text) -> bool:
    """Whether ``text`` names a server (``mysql://``, ``mariadb://``)."""
    return isinstance(text, str) and text.lower().startswith(("mysql://", "mariadb://"))


__all__ = ["OPENERS", "EventSource", "FileSource", "FileUri", "ReplaySource", "ServerUri", "SourceOptions",
           "is_server_uri", "open_source", "parse_uri", "register", "scheme_of"]
