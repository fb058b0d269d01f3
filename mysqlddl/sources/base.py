"""The source contract: what every source of change data is to its reader.

A source is opened by URI (:func:`mysqlddl.sources.open_source`) and read by one reader (a
:class:`~mysqlddl.changes.ChangeReader`, the OLR reader, ``mysqlddl events``). It offers:

``kind`` (class attribute)
    ``"binlog"``: it yields :class:`~mysqlddl.binlog.events.Event` objects, the ones a
    :class:`~mysqlddl.binlog.reader.BinlogReader` yields for the same bytes, a FORMAT_DESCRIPTION
    first (also when reading starts inside a file: the reader learns the dialect and version from
    it); ``"olr"``: it yields OpenLogReplicator JSON documents.

``identity(start) -> (source_id, fingerprint)``
    Checked against a checkpoint before anything is written. ``source_id`` names the source: a
    server ``server:uuid=...`` (MariaDB: ``server:mariadb;server_id=N``); binlog files the first
    FORMAT_DESCRIPTION's server id and version with the binlog base name; OLR output its database
    and file stem. ``fingerprint`` (or None) tells the place ``start`` is in: for files the FDE
    timestamp of its file (a file of the same name written anew differs), for OLR the message at
    the checkpoint.

``events(start=None, *, stop=None, only_types=None, registry=None) -> Iterator``
    The events from ``start``, a position at a transaction end (a checkpoint's: the source's own
    position type, :class:`~mysqlddl.positions.BinlogPosition` for binlogs); None: the start the
    source was opened with (``SourceOptions.start`` / ``from_now`` / ``start_gtid``), else its
    beginning. ``stop``: events starting at or after it are not read (None: the options' stop,
    else the end of the files, or never for a followed source). ``only_types`` (event type names
    or codes) and ``registry`` (the decoders, e.g.
    :func:`~mysqlddl.binlog.events.registry.without_statement_texts`) say what the reader wants
    decoded: a reader without rows, or without statement texts; a source never ignores them.
    Called once per reading; it sets :attr:`start` and :attr:`stop` before it returns (the
    iteration itself may begin later), so a reader can look at them, at :attr:`files` and at
    :attr:`server_version` before the first event.

``position`` / ``fde`` / ``server_version`` / ``files`` / ``start`` / ``stop``
    While and after iterating: where the next event starts, the FORMAT_DESCRIPTION in force, the
    version the source states ("" when not known yet), the binlog names (or paths) read or to be
    read in order (a server's grow as it rotates), where the reading started and where it stops.

Hooks of a following source (a growing directory, a server, OLR output being written), set by
the reader's owner or given to :func:`~mysqlddl.sources.open_source`: ``on_wait()`` is called each
time the source has caught up and is about to wait for data (a pipeline commits what ended
there); ``stop_requested()`` is asked after each event and while waiting (a signal handler's
flag). Either answering True ends the iteration there, cleanly, between events.

``close()`` releases files and connections (idempotent); a source is a context manager.
Iterating a source (``for ev in source``) is ``events()``: from its configured start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


class EventSource:
    """The contract every source implements (the module docstring)."""

    #: "binlog" (binlog Events) or "olr" (OLR documents)
    kind = "binlog"
    files: list
    start = None
    stop = None
    server_version: str = ""
    #: called when the source waits for data; True ends the iteration (module docstring)
    on_wait: Callable[[], object] | None = None
    #: asked after each event and while waiting; True ends the iteration (module docstring)
    stop_requested: Callable[[], object] | None = None

    @property
    def position(self):
        raise NotImplementedError

    @property
    def fde(self):
        raise NotImplementedError

    def identity(self, start) -> tuple[str, object]:
        """``(source_id, fingerprint)`` of the place ``start`` is in (the module docstring)."""
        raise NotImplementedError

    def events(self, start=None, *, stop=None, only_types=None, registry=None) -> Iterator:
        """The events from ``start`` to ``stop``, decoding what ``only_types``/``registry`` say (the
        module docstring)."""
        raise NotImplementedError

    def __iter__(self) -> Iterator:
        return self.events()

    def waiting(self) -> bool:
        """The source has caught up and is about to wait: ``on_wait`` is told; True: end the iteration
        (``on_wait`` or ``stop_requested`` says so)."""
        hook, asked = self.on_wait, self.stop_requested
        return bool(hook is not None and hook()) or bool(asked is not None and asked())

    def close(self) -> None:
        """Release what the source holds (idempotent)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["EventSource"]
