"""The sink interface: where change records go (ARCHITECTURE.md: sources -> changes -> sinks).

A sink is used as a context manager (``open()`` on entry; on exit ``close()``, after ``abort()``
when the block raised)::

    with JsonLinesSink(path) as sink:
        write_records(reader, sink)

``write(record)`` takes every record a :class:`~mysqlddl.changes.reader.ChangeReader` yields (the
protocol of :mod:`mysqlddl.changes.records`); a :class:`~mysqlddl.changes.records.Boundary` is not a
change and a sink writes nothing for it: it says where to commit (a pipeline batches Boundaries
under its checkpoint rule, :func:`write_records` commits at each). ``commit(position)`` is called at
a transaction boundary, after every record of the transaction was written, with the position
reached, a :class:`~mysqlddl.positions.BinlogPosition` where the next transaction starts (an OLR
position for OLR output): the end of its commit event (XID, or the QUERY of a COMMIT / XA COMMIT),
with the transaction's GTID, or the end of a DDL's QUERY event (a DDL is a transaction of its own,
the server commits implicitly around it: MySQL manual 15.3.3 "Statements That Cause an Implicit
Commit"). :func:`boundary` gives that position from the END mark or SchemaChange itself, for a
caller that feeds records without their Boundaries. What ``commit`` guarantees is the sink's to
say (a stream: nothing more than the order; a database: the transaction).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable

from ..changes.records import Boundary, Record, SchemaChange, TransactionMark


class Sink:
    """Base class of the sinks (every method but :meth:`write` does nothing by default)."""

    def open(self) -> None:
        """Acquire what the sink writes to (called once, before the first write)."""

    def write(self, record: Record) -> None:
        """Take one record, in the reader's order (a Boundary: nothing to write)."""
        raise NotImplementedError

    def commit(self, position) -> dict | None:
        """Everything written so far ends a transaction at ``position`` (see the module docstring).

        Under a pipeline (:mod:`mysqlddl.pipeline`) a commit covers a batch of transactions and
        must make them durable before it returns; it may return the sink's own state at this
        point (JSON data: a segment name and length, a sequence number), which the pipeline stores
        in the checkpoint and hands back to :meth:`recover` on a restart."""

    def recover(self, state: dict | None) -> None:
        """Called by a pipeline after :meth:`open`, before the first write, with the state the
        last checkpoint stored (what :meth:`commit` returned; None when there is no checkpoint):
        the sink removes whatever it holds past that point (segments written after it), so the
        records re-read from the checkpoint are delivered once."""

    def rotate(self) -> None:
        """The run is ending: a sink that writes files closes the open one at the next commit (so
        a consumer sees it complete), where it would otherwise wait for its size or age."""

    def failover(self, epoch: int) -> None:
        """Called by a pipeline that follows a failover (pipeline.failover), after :meth:`recover`:
        the positions given from now are the new server's, numbered its own way, and come after
        every earlier one whatever their numbers; ``epoch`` counts the failovers followed. A sink
        that orders or names things by position keeps the epoch with them (it is back in the state
        its commits return); the others have nothing to do."""

    def seed(self, catalog) -> None:
        """Called by a pipeline's first run (no checkpoint yet), after :meth:`recover`, with the
        baseline's :class:`~mysqlddl.model.catalog.Catalog` (the tables that existed before the
        first record; empty without a baseline): a database sink creates their tables in its
        target. Must be idempotent: a crash before the first checkpoint seeds again."""

    def validate_schema(self, history) -> None:
        """Called by a pipeline's later runs (a checkpoint exists), after :meth:`recover`, with the
        :class:`~mysqlddl.history.SchemaHistory` restored from the checkpoint: a sink with rules
        about the source's objects checks them against the schema in force there."""

    def checkpoint_store(self):
        """A :class:`mysqlddl.pipeline.CheckpointStore` when the sink keeps the checkpoint itself
        (a database sink: in the same transaction as the data it covers), else None (the pipeline
        uses its own store). The protocol is in :mod:`mysqlddl.pipeline`'s docstring."""
        return None

    def lock(self, holder: dict):
        """Called by a pipeline once per run, before anything else opens, with what identifies the
        run (``pipeline``, ``pid``, ``host``, ``started``): a sink whose target a second run of the
        same pipeline could reach from another host (a database) takes an exclusive lock there,
        held until the returned object's ``close()`` (None: nothing to lock), and raises
        :class:`~mysqlddl.errors.PipelineLockedError` naming the holder when another run has it.
        The object's ``check()`` is called before each attempt of the run (the retry strategy):
        it takes the lock again if its connection was lost."""
        return None

    def claim(self, owner: dict, state: dict | None) -> None:
        """Called by a pipeline after :meth:`open`, before :meth:`recover` (which removes what is
        past the checkpoint), with the pipeline's identity (``pipeline``, ``store_id``, ``store``,
        ``pipeline_file``) and the state of its checkpoint: a sink whose output belongs to one
        pipeline (a segment directory) checks it is this one's, or records that it is now, and
        raises :class:`~mysqlddl.errors.SinkOwnershipError` otherwise, having written nothing."""

    def abort(self) -> None:
        """The run failed: what the sink can still undo since the last commit, it undoes."""

    def close(self) -> None:
        """Finish: make everything written durable and release what :meth:`open` acquired."""

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort()
        self.close()


def open_output(out) -> tuple[object, bool, bool]:
    """Where a JSON Lines sink writes: ``out`` is a path (opened ``wb``, owned: closed by the sink)
    or an open stream (a text stream with a binary ``buffer`` is written through the buffer).
    Returns (stream, owned, text): ``text`` when only ``str`` can be written to it."""
    if isinstance(out, (str, os.PathLike)):
        return open(out, "wb"), True, False  # noqa: SIM115 - the sink closes it
    buffer = getattr(out, "buffer", None)
    binary = "b" in getattr(out, "mode", "") or isinstance(out, (io.RawIOBase, io.BufferedIOBase))
    text = buffer is None and not binary
    return (out if text or binary else buffer), False, text


def close_output(stream, owned: bool) -> None:
    """The other half of :func:`open_output`: close a stream the sink opened, flush one it was given."""
    if stream is None:
        return
    if owned:
        stream.close()
    else:
        stream.flush()


def boundary(record: Record):
    """The position to commit at after ``record``, or None when it does not end a transaction."""
    if type(record) is TransactionMark:
        return (record.end if record.end is not None else record.source) if record.status == "END" else None
    if type(record) is SchemaChange:
        return record.position
    return None


def write_records(records: Iterable[Record], sink: Sink) -> None:
    """Every record into ``sink``, committed where the reader says a transaction ended: at each
    :class:`~mysqlddl.changes.records.Boundary` that delivered something (after the END mark, the
    SchemaChange and a TRUNCATE's ``op="t"`` changes), at its position; a Boundary is not written
    (it is not a change). The commit points of a pipeline (which batches them and keeps a
    checkpoint), without a store: what ``mysqlddl changes`` writes with."""
    write, commit = sink.write, sink.commit
    for rec in records:
        if type(rec) is Boundary:       # (inline: this loop runs once per record)
            if rec.delivered:
                commit(rec.position)
            continue
        write(rec)


__all__ = ["Sink", "boundary", "close_output", "open_output", "write_records"]
