"""One reading of a source, made one way for `mysqlddl changes` and a pipeline run (issue #31: the
command is the pipeline without a store): the source opened by URI with its start options, the
snapshot start they may ask for (:class:`~mysqlddl.changes.start.SnapshotStart`, a server's start
hook), the change reader over the source from a start, and the records, the snapshot's first.

    stream = Stream(uri, source_options, change_options, on_wait=..., stop_requested=...)
    stream.source.identity(start)               # (a pipeline checks it against its checkpoint: the
                                                # server logs in here, and a snapshot is captured)
    reader = stream.read(schema=..., history=..., start=..., gtid_set=..., ...)
    for record in stream.records(): ...         # the snapshot's rows and Boundary, then the reader's
    stream.close()

What is around it differs: a pipeline checks the source's identity, loads its checkpoint's history
and commits in batches into a store (:mod:`mysqlddl.pipeline.runner`); the command writes every
record to its sink,
committed at each Boundary (:func:`~mysqlddl.sinks.base.write_records`). An OLR source is opened
here too; its records come from the OLR reader, which the pipeline builds itself.
"""

from __future__ import annotations

from ..sources import SourceOptions, open_source, scheme_of
from ..sources.uri import SERVER_SCHEMES
from .options import ChangeOptions
from .reader import ChangeReader
from .start import SnapshotStart


class Stream:
    """A source and its change reader (the module docstring). ``uri``: what
    :func:`~mysqlddl.sources.open_source` takes (a URI, a path, a list of paths); ``source_options``:
    the start options with the rest (``snapshot`` among them: a mode, ``auto`` decided already);
    ``changes``: the reader's options (its filters say which tables a snapshot captures, its
    ``decode`` how they are typed). ``on_wait``/``stop_requested``: the source's hooks. ``lazy``: a
    server logs in at its first use (a pipeline looks at its checkpoint first)."""

    def __init__(self, uri, source_options: SourceOptions, changes: ChangeOptions, *, on_wait=None,
                 stop_requested=None, lazy: bool = False):
        self.changes = changes
        self.snapshot = SnapshotStart(source_options.snapshot, changes.filters, changes.decode)
        hooks = {}
        if scheme_of(uri) in SERVER_SCHEMES:
            # (a start hook and a deferred login are a server's: files and OLR output take neither)
            hooks = {"start_hook": self.snapshot.hook, "lazy": lazy}
        self.source = open_source(uri, source_options, on_wait=on_wait, stop_requested=stop_requested, **hooks)
        self.reader: ChangeReader | None = None

    def read(self, *, options: ChangeOptions | None = None, schema: str | None = None, history=None, start=None,
             progress=None, **resume) -> ChangeReader:
        """The change reader of this stream: with ``options`` (default: the stream's), from ``start``
        (a checkpoint's position; None: the source's own start), with a baseline ``schema``, or the
        ``history`` to go on with (the baseline is in it: ``schema`` is not applied again). A
        snapshot's capture, when one was taken, is the baseline in place of ``schema``. ``resume``:
        the reader's restart arguments (``gtid_set``, ``deliver_from``, ``xa_open``)."""
        options = options if options is not None else self.changes
        if history is None:
            schema, options = self.snapshot.baseline(schema, options)
        else:
            schema = None           # (the baseline is in the history)
        if start is not None:
            options = options.replace(span=(start, None))
        self.reader = ChangeReader(self.source, options, schema=schema, history=history, progress=progress, **resume)
        return self.reader

    def records(self):
        """The snapshot's rows and its Boundary, when one was taken, then the reader's records."""
        return self.snapshot.records(self.reader, self.reader.stats)

    def close(self) -> None:
        """Release the snapshot's session and the source (idempotent)."""
        self.snapshot.close()
        self.source.close()


__all__ = ["Stream"]
