"""Where a stream starts when no checkpoint says: the snapshot start, one for ``mysqlddl changes
--snapshot`` and a pipeline file's ``[source] snapshot`` (issue #31: every start option works the
same in both).

The other start options (``start``/``--start-position``, ``from_now``/``--from-now``,
``start_gtid``/``--start-gtid``) are the source's own (:class:`~mysqlddl.sources.SourceOptions`,
validated there once for both). A snapshot needs more than the source: a session of its own on the
server, the schema captured there as the baseline, and (``initial``) the tables' rows before the
stream's first record. :class:`SnapshotStart` is that, handed to the server source as its
``start_hook`` (:class:`~mysqlddl.changes.stream.Stream` wires it so for both commands)::

    start = SnapshotStart("initial", filters, decode)
    source = open_source(uri, source_options, start_hook=start.hook)   # the hook captures, and
                                                                       # moves the stream's start
    schema, options = start.baseline(schema, options)                  # the capture is the baseline
    reader = ChangeReader(source, options, schema=schema)
    for rec in start.records(reader, reader.stats): ...                # snapshot rows, a Boundary, the stream

Modes (``SourceOptions.snapshot``): ``never`` (nothing: the hook does nothing), ``schema-only``
(SHOW CREATE TABLE of the included tables and the binlog position under one brief lock:
:func:`~mysqlddl.sources.server.snapshot.capture_schema`), ``initial`` (also their rows, op ``r``,
read in the same consistent snapshot: :func:`~mysqlddl.changes.snapshot.snapshot_rows`).

The snapshot's rows end with a :class:`~mysqlddl.changes.records.Boundary` at the captured
position: a pipeline commits there (its first checkpoint: a restart streams from the position and
does not take the snapshot again), and a writer of records skips it. A pipeline killed before that
commit has no checkpoint, and takes the snapshot again; its sink keeps nothing uncommitted
(:meth:`~mysqlddl.sinks.base.Sink.recover`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from ..errors import ConfigError
from ..options import Options
from .filters import Filters
from .options import ChangeOptions
from .records import Boundary, ChangeStats

#: what ``SourceOptions.snapshot`` may say
SNAPSHOT_MODES = ("never", "schema-only", "initial")
#: what a user may say (``--snapshot``, ``[source] snapshot``): a mode, or ``auto`` (:func:`snapshot_mode`)
SNAPSHOT_CHOICES = ("auto", *SNAPSHOT_MODES)


def snapshot_mode(mode: str, *, from_now: bool, schema_given: bool) -> str:
    """The snapshot a start takes, ``auto`` decided: schema-only when the stream starts at the
    server's current end with no baseline given (nothing else could name its tables' columns), else
    never. The one rule of ``mysqlddl changes --snapshot`` and ``[source] snapshot``."""
    if mode == "auto":
        return "schema-only" if from_now and not schema_given else "never"
    return mode


class SnapshotStart:
    """A snapshot start (module docstring). ``mode``: never, schema-only or initial; ``filters``:
    which tables are captured (the stream's own); ``decode``: the options the rows are typed with
    (the capture adds the server's dialect and version). After :meth:`hook` ran, ``capture`` is the
    :class:`~mysqlddl.sources.server.snapshot.SchemaCapture` (None before, and with ``never``)."""

    def __init__(self, mode: str, filters: Filters | None = None, decode: Options | None = None):
        if mode not in SNAPSHOT_MODES:
            raise ConfigError(f"snapshot is {', '.join(SNAPSHOT_MODES)}, not {mode!r}")
        self.mode = mode
        self.filters = filters if filters is not None else Filters()
        self.decode = decode if decode is not None else Options()
        self.capture = None
        self._conn = None

    def hook(self, source):
        """The server source's start hook: capture on a session of the source's own (its login),
        and return the captured position (the stream starts there); None with ``never``."""
        if self.mode == "never":
            return None
        # lazy: PyMySQL, the capture and the row readers load only when a snapshot is taken
        from ..sources.server.snapshot import capture_schema

        self._conn = source.new_connection()
        self.capture = capture_schema(self._conn, filters=self.filters, with_rows=self.mode == "initial")
        return self.capture.position

    def baseline(self, schema: str | None, options: ChangeOptions) -> tuple[str | None, ChangeOptions]:
        """(the baseline DDL, the options with its position) for the change reader: the capture's,
        once one was taken; else ``schema`` and ``options`` as given."""
        if self.capture is None:
            return schema, options
        return self.capture.ddl, options.replace(schema_position=str(self.capture.position))

    def records(self, records: Iterable, stats: ChangeStats | None = None) -> Iterator:
        """The snapshot's rows (``initial``; counted in ``stats.snapshot``) and a Boundary at the
        captured position, then ``records``."""
        if self.capture is not None:
            try:
                if self.mode == "initial":
                    # lazy: as in hook()
                    from .snapshot import snapshot_rows

                    # the rows typed as the stream's (the server's dialect and version on the reader's options)
                    yield from snapshot_rows(self._conn, self.capture, options=self.capture.options(self.decode),
                                             stats=stats)
            finally:
                self.close()
            at = self.capture.position
            yield Boundary(at, gtid_set=at.gtid or "", history_version=0, ts=self.capture.ts or int(time.time()))
        yield from records

    def close(self) -> None:
        """Release the snapshot's session (idempotent)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


__all__ = ["SNAPSHOT_CHOICES", "SNAPSHOT_MODES", "SnapshotStart", "snapshot_mode"]
