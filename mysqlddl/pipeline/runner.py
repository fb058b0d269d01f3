"""The pipeline run: source -> ChangeReader -> sink, with checkpoints, stats and an error strategy.
The run is read -> write -> commit: the reader says where transactions end (a Boundary after each,
with what a checkpoint needs there), the :class:`~.checkpointer.Checkpointer` decides and makes the
commits.

One run (:meth:`Pipeline.run`):

0. take the pipeline's lock (:mod:`.lock`: a second run of the pipeline is refused with the
   holder's PID, host and start time), and the sink's own in its target (a PostgreSQL advisory
   lock: :meth:`~mysqlddl.sinks.base.Sink.lock`), held until the run ends, across retries;
1. load the checkpoint (the sink's own store when it keeps one, else the SQLite store); check the
   source is the one it was taken from (identity of the first FORMAT_DESCRIPTION read there); a
   server source that is another server (a failover) goes on from the checkpoint's GTID set when
   the new server holds it (:mod:`.failover`: the schema history re-based, the sink told the epoch);
2. open the sink, check its output is this pipeline's (:meth:`~mysqlddl.sinks.base.Sink.claim`: a
   segment directory belongs to one pipeline) and let it :meth:`~mysqlddl.sinks.base.Sink.recover`
   to the checkpoint;
3. read from the checkpoint's position with the stored schema history and GTID set (or, the first
   time, from the start with the baseline), writing every record; at a transaction end (a
   Boundary) the batch is committed once it holds ``every_transactions`` transactions or is
   ``every_ms`` old, or a stop was asked, or the source has nothing more for now: the sink's commit
   first (durable), then the checkpoint, with the history's new records, in one store transaction
   (a sink that keeps the checkpoint itself gets it staged before its commit instead: .checkpointer);
4. at the end (``once``: the end of what exists; following: a stop) the last transaction end is
   committed, the sink asked to close its open segment there (``rotate``); what was read past it
   is dropped (the sink cuts it, a restart reads it again).

A server source whose address leads to another server after a reconnect (a failover while
running: ServerIdentityError from the source) is run again from the checkpoint, which follows the
new server (or refuses it) as a restart does; ``[source] on_identity_change = "error"`` stops instead.

Error strategies (``[errors] strategy``): ``exit`` (default) raises the positioned error with the
checkpoint intact; ``skip`` writes a record the sink cannot write (a rows event that does not
decode, a value the sink cannot render or convert: SinkValueError, ...), or a DDL that cannot be
parsed or applied, to the dead-letter file (JSON Lines) with its error, counts it and goes on;
``retry`` runs again from the checkpoint after a transient error (a sink or store I/O error, a
connection error: the server's too, once the live source's own reconnections are spent), up to
``retries`` times with doubling backoff, then exits. An error inside the reader (a corrupt binlog)
ends the reading under every strategy: the events after it cannot be framed.

XA: the reader holds an XA transaction's rows from its XA PREPARE to its XA COMMIT (ARCHITECTURE.md
"Binlog facts"). A checkpoint written while prepared transactions are open records where the first
of them starts (its GTID event, or its XA START) and the schema history version there
(``reader_state.xa_replay``, the Boundary's ``state``); a restart reads again from there with that
history, the reader delivering nothing before the checkpoint position (``ChangeReader(deliver_from=)``),
so it holds their rows again and delivers them at their COMMIT. An XA transaction prepared and
never resolved so no longer stops the checkpoints; it only makes restarts read again from its
start. (In a relay log, where the start cannot be re-read by position, checkpoints still wait: the
Boundary is not ``checkpointable``.)

A transaction that delivers nothing (all its tables filtered out, an XA transaction rolled back, a
DDL on a filtered table) ends too: the reader emits its Boundary (``delivered`` False), committed
under the same batching (counted in the batch, not in the stats' transactions), so a restart does
not read a long filtered stretch again.

Known limits: a followed directory must hold a binlog file when the run starts (its identity is
read from the first file), as must a followed OLR directory (:mod:`mysqlddl.olr.source`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
import time
from pathlib import Path

from ..changes import ChangeReader
from ..changes.records import Boundary, RowBatch, RowChange, SchemaChange, TransactionMark
from ..changes.start import SnapshotStart
from ..errors import (
    CheckpointError,
    ConfigError,
    MysqlddlError,
    PipelineError,
    ServerConnectError,
    ServerIdentityError,
    SinkError,
    SinkValueError,
)
from ..faults import fault
from ..olr.reader import OlrReader
from ..options import ErrorPolicy, Options
from ..positions import BinlogPosition, OlrResumePosition
from ..sinks.base import Sink
from ..sources import open_source
from . import failover
from .checkpoint import Checkpoint, CheckpointStore, SqliteCheckpointStore
from .checkpointer import Checkpointer
from .config import PipelineConfig, load_config
from .dead_letters import DeadLetters
from .lock import PipelineLock
from .sinks import SINKS, make_sink
from .stats import Stats
from .target_store import TargetCheckpointStore


@dataclasses.dataclass
class RunResult:
    """What a run did: ``checkpoint`` (the last one written, or the one found when none was),
    ``stats`` (the cumulated report), ``stopped`` (a stop was asked), ``retries``."""

    checkpoint: Checkpoint | None
    stats: dict
    stopped: bool = False
    retries: int = 0


class Pipeline:
    """One pipeline (the module docstring). ``config``: a PipelineConfig or a pipeline file's
    path. ``sink``: a Sink to use instead of the one ``[sink] uri`` names (the Python API).
    ``progress``: a stream for the progress line (default: stderr when it is a terminal, per
    ``[stats] progress``)."""

    def __init__(self, config: PipelineConfig | str | os.PathLike, *, sink: Sink | None = None, progress=None):
        self.config = config if isinstance(config, PipelineConfig) else load_config(config)
        self._given_sink = sink
        self._stop = False
        self.retries = 0
        self._retries_stored = 0
        mode = self.config.stats.progress
        if progress is None and (mode == "always" or (mode == "auto" and sys.stderr.isatty())):
            progress = sys.stderr
        self.progress = progress

    def request_stop(self) -> None:
        """Stop at the next transaction end (or now, when waiting for data), with a final checkpoint
        (what SIGTERM does under ``mysqlddl run``)."""
        self._stop = True

    # -- the strategy around runs -----------------------------------------------------------------
    def run(self, once: bool = False) -> RunResult:
        """Run under the pipeline's lock (:mod:`.lock`: one run at a time, taken before the source
        opens, held across retries; a sink's own lock in its target too, :meth:`Sink.lock`)."""
        cfg = self.config
        holder = {"pipeline": cfg.name, "pid": os.getpid(), "host": socket.gethostname(),
                  "started": round(time.time(), 3)}
        details = {"pipeline_file": str(Path(cfg.path).resolve()) if cfg.path else None,
                   "store": str(cfg.store_path.resolve())}        # (the lock file's: where the lock is)
        with PipelineLock(cfg.lock_path, pipeline=cfg.name, details=details):
            sink = self._given_sink if self._given_sink is not None else make_sink(cfg)
            self._target_lock = None
            try:
                return self._runs(once, lambda: sink.lock(holder))
            finally:
                if self._target_lock is not None:
                    self._target_lock.close()

    def _runs(self, once: bool, lock_target) -> RunResult:
        errors = self.config.errors
        delay = errors.backoff_ms / 1000
        while True:
            try:
                # the sink's lock in its target: taken in the attempt (a target down is retried as any
                # sink error), taken again when its connection was lost since
                if self._target_lock is None:
                    self._target_lock = lock_target()
                else:
                    self._target_lock.check()
                return self._run(once)
            except ServerIdentityError as e:
                # the server source reconnected to another server (its address moved to it: a
                # failover while running): a new run from the checkpoint follows it from the GTID set
                # there, or refuses it (.failover), as a restart would
                if self.config.source.on_identity_change != "follow-gtid":
                    raise
                self._note(f"the source's address leads to another server now ({e}): going on from the "
                           "checkpoint")
            except (SinkError, ServerConnectError, OSError, ConnectionError) as e:
                if errors.strategy != "retry" or not _transient(e) or self.retries >= errors.retries:
                    raise
                self.retries += 1
                self._note(f"retry {self.retries}/{errors.retries} in {delay:.1f} s after: {e}")
                time.sleep(delay)
                delay = min(delay * 2, 30.0)

    def _note(self, text: str) -> None:
        if self.progress is not None:
            self.progress.write(f"\rmysqlddl run {self.config.name}: {text}\n")
            self.progress.flush()

    # -- one run ----------------------------------------------------------------------------------
    def _run(self, once: bool) -> RunResult:
        cfg = self.config
        sink = self._given_sink if self._given_sink is not None else make_sink(cfg)
        own = _own_store(sink, cfg.name)
        self.store = store = own if own is not None else SqliteCheckpointStore(cfg.store_path, cfg.name)
        self.sink_keeps_checkpoint = own is not None
        self._snapshot = None
        try:
            return self._run_with(sink, store, once)
        finally:
            if self._snapshot is not None:
                self._snapshot.close()      # (a first run's snapshot session, if it was not done with)
            store.close()

    def _run_with(self, sink: Sink, store, once: bool) -> RunResult:
        cfg = self.config
        self._ckpt = None           # (this run's Checkpointer, made once the reader is)
        ckpt = store.load()
        decode = cfg.changes.decode
        options = cfg.changes
        if cfg.errors.strategy == "skip" and decode.error_policy == ErrorPolicy.RAISE:
            # a DDL that cannot be parsed or applied goes to the dead-letter file (DeadLetters.ddl)
            options = options.replace(decode=decode.replace(error_policy=ErrorPolicy.COLLECT))
        fresh = ckpt is None            # (the [source] start options apply: a checkpoint wins over them)
        opts = cfg.source.source_options(decode, follow=not once, fresh=fresh, schema_given=cfg.schema is not None)
        # a first run's snapshot ([source] snapshot): the server source's start hook captures the
        # schema (and rows) on a session of its own when it logs in, and moves the start there
        # (its session is closed when the run ends: _run)
        snapshot = self._snapshot = SnapshotStart(opts.snapshot, options.filters, decode)
        # (a server logs in at its first use: the checkpoint is looked at before the server is asked anything)
        self.source = source = open_source(cfg.source.uri, opts, on_wait=self._idle, stop_requested=lambda: self._stop,
                                           **({"lazy": True, "start_hook": snapshot.hook} if cfg.source.server else {}))
        at = cfg.source.start_filter(fresh=fresh)
        if at is not None:
            # files: the history is built from their start, delivery begins at the position (checked
            # as `mysqlddl changes --start-position` checks it: in these files, at an event's start)
            try:
                source.check_position(at, "[source] start_position")
            except ConfigError as e:
                raise PipelineError(str(e), path=cfg.path, setting="source.start_position") from None
            options = options.replace(filters=dataclasses.replace(options.filters, start_position=at))
        olr = self.olr = getattr(source, "kind", "binlog") == "olr"
        start = ckpt.position if ckpt is not None else None
        if olr:
            f = options.filters
            if f.databases or f.exclude_databases or f.tables or f.exclude_tables or f.include_gtids or \
                    f.exclude_gtids:
                raise PipelineError("the [changes] database, table and GTID filters apply to binlog sources, not to "
                                    "an olr:// source (operations does)", path=cfg.path, setting="changes")
            if start is not None and not isinstance(start, OlrResumePosition):
                raise CheckpointError(f"the checkpoint was taken from another source ({ckpt.source_id}, a binlog "
                                      f"position {start}); this source is OLR output {cfg.source.uri}: use a new "
                                      "store (or pipeline name) for it", path=str(cfg.store_path))
            decode = Options(dialect="oracle", olr_time_unit=cfg.source.time_unit, olr_tm_unit=cfg.source.tm_unit,
                             error_policy=decode.error_policy)
        elif start is not None and not isinstance(start, BinlogPosition):
            raise CheckpointError(f"the checkpoint was taken from another source ({ckpt.source_id}, at {start}); this "
                                  f"source is {cfg.source.uri}: use a new store (or pipeline name) for it",
                                  path=str(cfg.store_path))
        try:
            identity, stamp = source.identity(start)
        except CheckpointError as e:
            e.path = e.path or str(cfg.store_path)
            raise
        new_failover = None
        if ckpt is not None:
            other = ckpt.source_id != identity
            if olr and not other and stamp != start.fingerprint:
                # same database and names, but the message at the checkpoint's offset is another one
                identity += (f" (at byte {start.message} of {start.file}: {stamp}, not the checkpoint's "
                             f"{start.fingerprint})")
                other = True
            if not other and ckpt.file_created is not None and stamp is not None and stamp != ckpt.file_created:
                # same server and names, but the file is not the one the checkpoint was taken in
                identity += f" (its file {start.file} created at {stamp}, not {ckpt.file_created})"
                other = True
            if other:
                # another server: followed from the checkpoint's GTID set when it can be (.failover)
                new_failover = failover.follow(cfg, ckpt, identity, source, olr=olr)
        # XA transactions prepared before the checkpoint and not resolved at it: read again from the
        # first one's start (their rows are held by the reader until their outcome), the reader
        # delivering nothing before the checkpoint
        replay = (ckpt.reader_state or {}).get("xa_replay") if ckpt is not None and not olr else None
        read_from = start
        if replay is not None:
            read_from = BinlogPosition(int(replay["file_seq"]), int(replay["pos"]), replay["file"])
            history = store.load_history(dataclasses.replace(ckpt, history_version=int(replay["history_version"])),
                                         decode)
        else:
            history = store.load_history(ckpt, decode) if ckpt is not None else None
        if new_failover is not None:
            history = failover.rebase(history)
            store.rebase_history(failover.archive_name(cfg.name, new_failover["epoch"]))
            read_from = None            # (the source streams after the GTID set)
        if history is not None:
            options = options.replace(schema_position=None)      # (the baseline is in the history)
        self.stats = Stats(ckpt.stats if ckpt is not None else None, getattr(sink, "policy_counts", None))
        # (this process's retries not yet in a checkpoint: counted once)
        self.stats.retries += self.retries - self._retries_stored
        self.sink = sink
        self._dead = DeadLetters(self.config.dead_letter_path, self.config.name, self.stats)
        self._in_txn = False
        self._said_untyped = False
        if olr:
            columns = (ckpt.reader_state or {}).get("olr_columns") if ckpt is not None else None
            try:
                reader = self.reader = OlrReader(source, decode, start=start, history=history, columns=columns,
                                                 baseline=cfg.schema if history is None else None,
                                                 baseline_owner=options.schema_database, name=options.name)
            except ValueError as e:
                raise CheckpointError(f"the checkpoint's OLR column types cannot be read: {e}") from None
        else:
            schema = None
            if history is None:
                # the baseline: a first run's snapshot capture (taken when identity() logged in), else [changes] schema
                schema, options = snapshot.baseline(cfg.schema, options)
            reader = self.reader = ChangeReader(source, options.replace(span=(read_from, None)),
                                                schema=schema, history=history,
                                                gtid_set=ckpt.gtid_set if ckpt is not None else "",
                                                deliver_from=start if replay is not None else None,
                                                xa_open=int(replay.get("pending", 1)) if replay is not None else 0)
        # the last failover followed, carried from checkpoint to checkpoint; a new one is "fresh"
        # until its first commit (then the checkpoint is the new server's)
        self._ckpt = Checkpointer(cfg, store, sink, self.stats, self._dead, reader.history, identity=identity,
                                  checkpoint=ckpt, sink_keeps=self.sink_keeps_checkpoint,
                                  failover=new_failover if new_failover is not None else
                                  (ckpt.failover if ckpt is not None else None), fresh=new_failover is not None,
                                  file_created=None if olr else (lambda name: reader.file_created.get(name)),
                                  on_commit=self._committed, progress=self.progress)
        sink.open()
        try:
            # (before recover, which removes what is past the checkpoint: another pipeline's output is
            # refused untouched; sinks.segments)
            sink.claim(self._identity(store), ckpt.sink_state if ckpt is not None else None)
            sink.recover(ckpt.sink_state if ckpt is not None else None)
            if new_failover is not None:
                sink.failover(new_failover["epoch"])
            if ckpt is None:
                # the first run: a database sink creates the baseline's tables (none without one)
                sink.seed(reader.history.catalog if olr else reader.history.catalog_at(BinlogPosition(-1, 0)))
            else:
                sink.validate_schema(reader.history)     # (a restart: the schema restored from the checkpoint)
            # (a first run's initial snapshot: its rows and a Boundary at the captured position first)
            self._loop(snapshot.records(reader, reader.stats) if not olr else reader)
            if not self._in_txn:
                sink.rotate()
                self._ckpt.commit(final=True)
        except BaseException as e:
            if isinstance(e, CheckpointError) and e.path is None:
                e.path = str(cfg.store_path)        # (the reader's: a replay that misses what the checkpoint held)
            self.stats.discard_batch()
            sink.abort()
            raise
        finally:
            sink.close()
            self._dead.close()
            self._ckpt.write_stats(final=True)
        return RunResult(self.checkpoint, self.stats.report(), self._stop, self.retries)

    def _identity(self, store) -> dict:
        """What identifies this pipeline to a sink that belongs to one (:meth:`Sink.claim`): its
        name, its store (path and identity, the store's ``store_id``) and its pipeline file."""
        cfg = self.config
        where = store.where if self.sink_keeps_checkpoint else str(cfg.store_path.resolve())
        return {"pipeline": cfg.name, "store": where, "store_id": getattr(store, "store_id", None),
                "pipeline_file": str(Path(cfg.path).resolve()) if cfg.path else None}

    @property
    def checkpoint(self) -> Checkpoint | None:
        """The last checkpoint written, or the one the run started from."""
        ck = getattr(self, "_ckpt", None)
        return ck.checkpoint if ck is not None else None

    def _committed(self) -> None:
        self._retries_stored = self.retries         # (the retries are in the checkpoint's stats now)

    def _end_decided(self) -> bool:
        """The commit decision at a transaction end: commit when asked to stop (True: stop reading)
        or when the batch is full."""
        if self._stop:
            self._ckpt.commit()
            return True
        if self._ckpt.due():
            self._ckpt.commit()
        return False

    def _loop(self, reader) -> None:
        """Every record into the sink; at a Boundary (the reader's, after every record of a
        transaction, silent ends included) the checkpointer decides whether to commit."""
        cfg = self.config
        ops = frozenset(cfg.operations)
        all_ops = len(ops) == 4
        marks, schema = cfg.write_transactions, cfg.write_schema_changes
        write = self._write
        stats = self.stats
        ckpt = self._ckpt
        faults = "MYSQLDDL_FAULT" in os.environ
        for rec in reader:
            t = type(rec)
            if t is RowBatch:
                if (all_ops or rec.op in ops) and write(rec):
                    stats.rows(rec.mapping.qualified_name, rec.op, rec.count)
                    if rec.mapping.version is None and not rec.mapping.mismatch:
                        self._untyped(rec.mapping.qualified_name, rec.count)
                if faults and rec.total0 >= 1000:
                    fault("huge-transaction")
            elif t is Boundary:
                self._in_txn = False
                if rec.delivered:
                    stats.boundary(rec.ts, rec.ddl)
                ckpt.boundary(rec)
                if self._end_decided():
                    return
            elif t is TransactionMark:
                if rec.status == "BEGIN":
                    self._in_txn = True
                if marks:
                    write(rec)
            elif t is SchemaChange:
                if schema:
                    write(rec)
            elif t is RowChange:
                if (all_ops or rec.op in ops) and write(rec):
                    src = rec.source
                    stats.rows(src.qualified_name, rec.op, 1)
                    # (an OLR row says its own typing: rec.typing, in its envelope)
                    if rec.table_version is None and not rec.mismatch and rec.op != "t" and src.kind == "binlog":
                        self._untyped(src.qualified_name, 1)

    def _untyped(self, table: str, n: int) -> None:
        """Rows written without a table definition: counted (Stats), and said once per run."""
        if not self._said_untyped:
            self._said_untyped = True
            print(f"mysqlddl run: {table} has no table definition (not in the baseline, not created in the log "
                  "read): its rows are written with positional columns col_1..n (or the TABLE_MAP's names) typed "
                  "by the TABLE_MAP alone (ENUM/SET as numbers), and so are those of any other such table; give "
                  "the pipeline a baseline, [changes] schema = \"DUMP.sql\" in its file (mysqldump --no-data "
                  "of the tables before its first event)", file=sys.stderr, flush=True)
        self.stats.rows_without_schema(table, n)

    def _idle(self) -> None:
        """The source waits for data: commit what ended (not inside a transaction)."""
        ck = getattr(self, "_ckpt", None)
        if ck is None:
            return              # (the source is being opened)
        if not self._in_txn and ck.pending:
            ck.commit()
        else:
            ck.waiting()

    def _write(self, rec) -> bool:
        """``sink.write(rec)``; under the skip strategy a record the sink cannot write goes to the
        dead-letter file instead (False). A value the sink cannot render or convert (a ValueError,
        TypeError or ArithmeticError out of it) is a SinkValueError with the record's position and
        table, under the strategy like any other: never a traceback, which would stop the run at
        the same event on every restart."""
        try:
            self.sink.write(rec)
            return True
        except SinkValueError as e:
            err = e
        except SinkError:
            raise
        except MysqlddlError as e:
            err = e
        except (ValueError, TypeError, ArithmeticError) as e:
            src = rec.source
            file, pos = getattr(src, "file", None), getattr(src, "pos", None)
            db, table = getattr(src, "db", None) or getattr(src, "owner", None), getattr(src, "table", None)
            err = SinkValueError(f"the sink cannot take a value of this record: {type(e).__name__}: {e}",
                                 position=f"{file}:{pos}" if file else None,
                                 table=f"{db}.{table}" if table else None, what=type(e).__name__)
            err.__cause__ = e           # (raised below, outside this clause: the cause kept by hand)
        if self.config.errors.strategy != "skip":
            raise err
        self._dead.record(rec, err)
        return False

def _transient(e: Exception) -> bool:
    """Whether the retry strategy retries ``e``: a sink's error says so itself; a server connection
    that failed or was lost (the live source's own reconnections spent) is transient, a refused
    login or TLS handshake (a ``setting`` to fix) is not; an OS or connection error is."""
    if isinstance(e, SinkError):
        return e.transient
    if isinstance(e, ServerConnectError):
        return e.setting is None and not e.login_refused
    return True


def _own_store(sink: Sink, name: str, readonly: bool = False):
    """The sink's own checkpoint store: a pipeline store as it is, or a view of a checkpoint row in
    the sink's target adapted (:mod:`.target_store`); None when the sink keeps none."""
    own = sink.checkpoint_store()
    if own is None or isinstance(own, CheckpointStore):
        return own
    return TargetCheckpointStore(own, pipeline=name, readonly=readonly)


def run_pipeline(config, *, once: bool = False, sink: Sink | None = None) -> RunResult:
    """Run a pipeline (a PipelineConfig or a pipeline file's path): the Python API of ``mysqlddl run``."""
    return Pipeline(config, sink=sink).run(once=once)


def pipeline_status(config) -> dict:
    """The stored checkpoint, the schema history version and the stats of a pipeline, read without
    running anything (``mysqlddl status``)."""
    cfg = config if isinstance(config, PipelineConfig) else load_config(config)
    own = _own_store(make_sink(cfg), cfg.name, readonly=True)
    store = own if own is not None else SqliteCheckpointStore(cfg.store_path, cfg.name, readonly=True)
    try:
        ck = store.load()
    finally:
        store.close()
    where = store.where if own is not None else str(cfg.store_path)
    stats_file = None
    try:
        stats_file = json.loads(cfg.stats_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    return {"pipeline": cfg.name, "store": where,
            "checkpoint": ck.as_dict() if ck is not None else None,
            "history_version": ck.history_version if ck is not None else None,
            "stats": Stats(ck.stats).report() if ck is not None else None,
            "stats_file": stats_file}


__all__ = ["SINKS", "Pipeline", "RunResult", "make_sink", "pipeline_status", "run_pipeline"]
