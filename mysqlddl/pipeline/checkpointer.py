"""When and how a pipeline run commits (:class:`Checkpointer`): the batching rule, the commit order,
and what the run says while it goes (the stats file, the progress line).

The change reader says where transactions end (a :class:`~mysqlddl.changes.records.Boundary` after
every one, silent ones included, with what a checkpoint needs there); the runner hands each to
:meth:`Checkpointer.boundary` and asks :meth:`Checkpointer.due`:

- the batch is committed once it holds ``[checkpoint] every_transactions`` transaction ends or is
  ``every_ms`` old (or a stop was asked, or the source waits: the runner's decisions);
- a commit makes the sink's data durable first (:meth:`~mysqlddl.sinks.base.Sink.commit`), then
  saves the checkpoint, with the schema history's new records, in one store transaction; a sink
  that keeps the checkpoint itself gets it staged before its commit instead, so both are one
  transaction of its target;
- a Boundary that is not ``checkpointable`` (an XA transaction prepared in a relay log, whose
  start cannot be read again) is not committed at: the batch waits for the next one;
- the final commit (the run ends) with nothing pending writes the stored checkpoint again, so the
  sink's rotation is recorded, unless a failover was followed with nothing read since (the old
  server's checkpoint stands).
"""

from __future__ import annotations

import time
from pathlib import Path

from ..faults import fault
from ..positions import BinlogPosition
from .checkpoint import Checkpoint
from .stats import write_stats_file


class Checkpointer:
    """The commits of one run. ``config``: the PipelineConfig; ``store``: the checkpoint store (the
    sink's own when ``sink_keeps`` it); ``stats``: the run's Stats; ``dead``: its DeadLetters;
    ``history``: the reader's schema history (saved with each checkpoint; its DDL errors go to the
    dead letters under the skip strategy); ``identity``: the source's; ``checkpoint``: the one the
    run started from (None: the first run); ``failover``: the last failover followed (carried from
    checkpoint to checkpoint), ``fresh`` when this run followed it; ``file_created(name)``: a
    binlog's FORMAT_DESCRIPTION timestamp; ``on_commit()``:
    called after each commit; ``progress``: a stream for the progress line, or None."""

    def __init__(self, config, store, sink, stats, dead, history, *, identity: str, checkpoint: Checkpoint | None,
                 sink_keeps: bool, failover=None, fresh: bool = False, file_created=None,
                 on_commit=None, progress=None):
        self.config = config
        self.store = store
        self.sink = sink
        self.stats = stats
        self.dead = dead
        self.history = history
        self.identity = identity
        self.checkpoint = checkpoint
        self.sink_keeps = sink_keeps
        self.failover = failover
        self.fresh = fresh
        self._file_created = file_created
        self._on_commit = on_commit
        self.progress = progress
        self.pending = 0                    # transaction ends since the last commit
        self._last = None                   # the last Boundary
        self._ddl_errors = len(history.errors)
        self._batch_t0 = time.monotonic()
        self._last_stats = 0.0
        self._last_progress = 0.0

    def boundary(self, b) -> None:
        """A transaction ended (a Boundary): the batch holds one more."""
        self._last = b
        self.pending += 1

    def due(self) -> bool:
        """The batching rule: every N transactions or T milliseconds, whichever first."""
        cfg = self.config.checkpoint
        return self.pending >= cfg.every_transactions or time.monotonic() - self._batch_t0 >= cfg.every_ms / 1000

    def commit(self, final: bool = False) -> None:
        """Commit the batch at the last transaction end; ``final`` (the run ends): also when
        nothing is pending, at the stored checkpoint, so the sink's rotation is recorded."""
        idle_end = final and not self.pending
        if idle_end:
            ck = self.checkpoint
            if ck is None or self.sink_keeps or self.fresh:
                return          # (a failover with nothing read since: the old server's checkpoint stands)
            position, gtid_text, version, reader_state = ck.position, ck.gtid_set, ck.history_version, ck.reader_state
        else:
            # (what a restart needs besides the position is the Boundary's state: XA transactions
            # to read again, or an OLR reader's column types)
            b = self._last
            if b is None or not self.pending or not b.checkpointable:
                return          # (an XA transaction prepared in a relay log holds the checkpoint back)
            position, gtid_text, version, reader_state = b.position, b.gtid_set, b.history_version, b.state
        name = Path(position.file).name if position.file else ""
        pos = BinlogPosition(position.file_seq, position.pos, name, position.gtid) \
            if isinstance(position, BinlogPosition) else position
        errors = self.history.errors
        if len(errors) != self._ddl_errors:
            if self.config.errors.strategy == "skip":
                self.dead.ddl(errors[self._ddl_errors:])
            self._ddl_errors = len(errors)
        self.dead.sync()
        totals = self.stats.committed()
        created = self._file_created(name) if self._file_created is not None else None

        def checkpoint(state):
            return Checkpoint(self.config.name, self.identity, pos, gtid_text, version, time.time(),
                              int((state or {}).get("seq", 0)), state, totals, file_created=created,
                              reader_state=reader_state, failover=self.failover)

        if self.sink_keeps:
            ckpt = checkpoint(None)
            self.store.save(ckpt, self.history)     # staged in the sink's transaction
            self.sink.commit(pos)
            fault("after-sink-commit")          # (data and checkpoint committed together)
        else:
            state = self.sink.commit(pos)
            if idle_end and state == self.checkpoint.sink_state:
                return                          # (nothing was open: the checkpoint stands)
            fault("after-sink-commit")
            ckpt = checkpoint(state)
            self.store.save(ckpt, self.history)
        self.checkpoint = ckpt
        self.fresh = False
        if self._on_commit is not None:
            self._on_commit()
        self.pending = 0
        self._batch_t0 = now = time.monotonic()
        if now - self._last_stats >= self.config.stats.interval_s:
            self.write_stats()
        if self.progress is not None and now - self._last_progress >= 0.5:
            self.progress_line()

    def waiting(self) -> None:
        """The source waits for data and nothing is committed: the stats file says the run is alive."""
        if time.monotonic() - self._last_stats >= self.config.stats.interval_s:
            self.write_stats()

    def progress_line(self) -> None:
        """The progress line (on a terminal: rewritten in place)."""
        self._last_progress = time.monotonic()
        ck = self.checkpoint
        rep = self.stats.report()
        self.progress.write(f"\r{self.config.name}: {ck.position if ck else '-'} transactions {rep['transactions']} "
                            f"rows {rep['dml_rows']} DDL {rep['ddl']} skipped {rep['skipped']} lag "
                            f"{rep.get('lag_s', 0):.1f} s ")
        self.progress.flush()

    def write_stats(self, final: bool = False) -> None:
        self._last_stats = time.monotonic()
        ck = self.checkpoint
        data = {"pipeline": self.config.name, "updated": round(time.time(), 3), "running": not final,
                "checkpoint": ck.as_dict() if ck is not None else None, "stats": self.stats.report()}
        try:
            write_stats_file(self.config.stats_path, data)
        except OSError:
            pass        # (the stats file is informative; the checkpoint is what counts)
        if final and self.progress is not None:
            self.progress_line()
            self.progress.write("\n")
            self.progress.flush()


__all__ = ["Checkpointer"]
