"""The pipeline run: source -> ChangeReader -> sink, with checkpoints, stats and an error strategy.

(Past 600 lines: one run's state, the batch, the boundary, the prepared XA transactions, the
replay, is shared by the binlog and OLR loops, the event tap and the commit; split, it would be
passed around as a second object with the same fields.)

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
3. read from the checkpoint's position with the stored schema history (or, the first time, from
   the start with the baseline), writing every record; at a transaction end (an END mark, or a
   SchemaChange) the batch is committed once it holds ``every_transactions`` transactions or is
   ``every_ms`` old, or a stop was asked, or the source has nothing more for now: the sink's commit
   first (durable), then the checkpoint, with the history's new records, in one store transaction
   (a sink that keeps the checkpoint itself gets it staged before its commit instead);
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

XA: the reader holds an XA transaction's rows from its XA PREPARE to its XA COMMIT (DESIGN
"Binlog facts"). A checkpoint written while prepared transactions are open records where the first
of them starts (its GTID event, or its XA START) and the schema history version there
(``reader_state.xa_replay``); a restart reads again from there with that history, delivering
nothing before the checkpoint position (:meth:`Pipeline._tap` notes when it is reached), so the
reader holds their rows again and delivers them at their COMMIT. An XA transaction prepared and
never resolved so no longer stops the checkpoints; it only makes restarts read again from its
start. (In a relay log, where the start cannot be re-read by position, checkpoints still wait.)

A transaction that delivers nothing (all its tables filtered out, an XA transaction rolled back, a
DDL on a filtered table) ends too: the events pass the runner on their way to the reader
(:meth:`Pipeline._tap`), and when the reader, between transactions again after an XID or a QUERY,
asks for the next event without having emitted that end, the end is taken as a silent transaction
end (:meth:`Pipeline._silent_end`), committed under the same batching, so a restart does not read
a long filtered stretch again.

Known limits: a followed directory must hold a binlog file when the run starts (its identity is
read from the first file), as must a followed OLR directory (:mod:`.olr_source`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
import time
from pathlib import Path

from ..binlog.events import (
    DEFAULT_REGISTRY,
    EventType,
    FormatDescriptionEvent,
    GtidEvent,
    GtidListEvent,
    MariadbGtidEvent,
    PreviousGtidsEvent,
    QueryEvent,
    XaPrepareEvent,
    XidEvent,
)
from ..changes import ChangeReader
from ..changes.gtids import GtidTracker
from ..changes.records import RowBatch, RowChange, SchemaChange, TransactionMark
from ..changes.transactions import parse_xid
from ..errors import (
    CheckpointError,
    MysqlddlError,
    PipelineError,
    ServerConnectError,
    ServerIdentityError,
    SinkError,
    SinkValueError,
)
from ..faults import fault
from ..olr.events import OracleRowChange, OracleSchemaChange, OracleTransactionMark
from ..options import ErrorPolicy, Options
from ..positions import BinlogPosition, file_seq
from ..sinks.base import Sink
from . import failover
from .checkpoint import Checkpoint, CheckpointStore, SqliteCheckpointStore
from .config import PipelineConfig, load_config
from .dead_letters import DeadLetters
from .lock import PipelineLock
from .olr_source import OlrResumePosition
from .sinks import SINKS, make_sink
from .source import make_source
from .stats import Stats, write_stats_file
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
        try:
            return self._run_with(sink, store, once)
        finally:
            store.close()

    def _run_with(self, sink: Sink, store, once: bool) -> RunResult:
        cfg = self.config
        ckpt = store.load()
        decode = cfg.changes.decode
        options = cfg.changes
        if cfg.errors.strategy == "skip" and decode.error_policy == ErrorPolicy.RAISE:
            # a DDL that cannot be parsed or applied goes to the dead-letter file (DeadLetters.ddl)
            options = options.replace(decode=decode.replace(error_policy=ErrorPolicy.COLLECT))
        registry = None
        if not options.queries:
            # as the ChangeReader's own reader would: ROWS_QUERY / ANNOTATE_ROWS left opaque (a
            # multi-row INSERT's text costs more to decode than its rows)
            registry = DEFAULT_REGISTRY.copy()
            for t in (EventType.ROWS_QUERY, EventType.MARIADB_ANNOTATE_ROWS):
                if t in registry:
                    registry.unregister(t)
        extra = {"defaults_file": cfg.source.defaults_file} if cfg.source.defaults_file else {}
        self.source = source = make_source(cfg.source.uri, decode, follow=not once, poll=cfg.source.poll_ms / 1000,
                                           stop=lambda: self._stop, idle=self._idle, registry=registry, **extra)
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
        # first one's start (their rows are held by the reader until their outcome), delivering
        # nothing before the checkpoint (:meth:`_tap`)
        replay = (ckpt.reader_state or {}).get("xa_replay") if ckpt is not None and not olr else None
        self._replay_until = None
        self._replay_pending = 0
        read_from = start
        if replay is not None:
            read_from = BinlogPosition(int(replay["file_seq"]), int(replay["pos"]), replay["file"])
            self._replay_until = start.key
            self._replay_pending = int(replay.get("pending", 1))
            history = store.load_history(dataclasses.replace(ckpt, history_version=int(replay["history_version"])),
                                         decode)
        else:
            history = store.load_history(ckpt, decode) if ckpt is not None else None
        # the last failover followed, carried from checkpoint to checkpoint; a new one is "fresh"
        # until its first commit (then the checkpoint is the new server's)
        self._failover = new_failover if new_failover is not None else (ckpt.failover if ckpt is not None else None)
        self._failover_fresh = new_failover is not None
        if new_failover is not None:
            history = failover.rebase(history)
            store.rebase_history(failover.archive_name(cfg.name, new_failover["epoch"]))
            read_from = None            # (the source streams after the GTID set)
        self._read_from = read_from
        if history is not None:
            options = options.replace(schema_position=None)      # (the baseline is in the history)
        self.gtids = GtidTracker(ckpt.gtid_set if ckpt is not None else "")
        self.stats = Stats(ckpt.stats if ckpt is not None else None, getattr(sink, "policy_counts", None))
        # (this process's retries not yet in a checkpoint: counted once)
        self.stats.retries += self.retries - self._retries_stored
        self.identity = identity
        self._created: dict[str, int] = {}      # binlog base name -> its FDE's timestamp (file creation)
        # XIDs prepared and not yet committed or rolled back -> (start position, history version) of
        # their transaction (None: unknown, a relay log's)
        self._xa_prepared: dict = {}
        self._xa_resolved = None                # an XID whose COMMIT/ROLLBACK the reader is taking
        self._txn_start = None                  # (position, history version) of the transaction being read
        self.checkpoint = ckpt
        self.sink = sink
        self._dead = DeadLetters(self.config.dead_letter_path, self.config.name, self.stats)
        self._boundary = None
        self._pending = 0
        self._batch_t0 = time.monotonic()
        self._in_txn = False
        self._ended = None
        self._last_stats = 0.0
        self._last_progress = 0.0
        self._said_untyped = False
        if olr:
            columns = (ckpt.reader_state or {}).get("olr_columns") if ckpt is not None else None
            reader = self.reader = source.reader(start, decode, history=history, columns=columns,
                                                 baseline=cfg.schema if history is None else None,
                                                 baseline_owner=options.schema_database, name=options.name)
        else:
            reader = self.reader = ChangeReader(source.reader_source(read_from), options,
                                                schema=cfg.schema if history is None else None, history=history,
                                                events=self._tap(source.events(read_from)))
        self._ddl_errors = len(reader.history.errors)
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
            if olr:
                self._loop_olr(reader)
            else:
                self._loop(reader)
            if not self._in_txn:
                sink.rotate()
                self._commit(final=True)
        except BaseException:
            self.stats.discard_batch()
            sink.abort()
            raise
        finally:
            sink.close()
            self._dead.close()
            self._write_stats(final=True)
        return RunResult(self.checkpoint, self.stats.report(), self._stop, self.retries)

    def _identity(self, store) -> dict:
        """What identifies this pipeline to a sink that belongs to one (:meth:`Sink.claim`): its
        name, its store (path and identity, the store's ``store_id``) and its pipeline file."""
        cfg = self.config
        where = store.where if self.sink_keeps_checkpoint else str(cfg.store_path.resolve())
        return {"pipeline": cfg.name, "store": where, "store_id": getattr(store, "store_id", None),
                "pipeline_file": str(Path(cfg.path).resolve()) if cfg.path else None}

    def _tap(self, events):
        """The source's events, with the GTIDs noted on the way (the set a checkpoint carries)."""
        gtids = self.gtids
        xa = self._xa_prepared
        self._ended = None      # the last event that may have ended a transaction (checked at the next)
        replaying = self._replay_until is not None
        read_at = self._read_from
        for ev in events:
            if self._ended is not None or self._xa_resolved is not None:
                self._settle()          # (tested inline: this runs for every event)
            t = type(ev)
            if replaying and (file_seq(ev.file or ""), ev.pos) >= self._replay_until:
                replaying = self._replay_until = None       # (the checkpoint reached: deliver from here)
                if len(xa) < self._replay_pending:
                    # (the reader would hold fewer prepared transactions than the checkpoint had open:
                    # a COMMIT to come would release nothing; stop rather than lose them)
                    raise PipelineError(f"the source read again from {read_at} gave {len(xa)} of the "
                                        f"{self._replay_pending} XA transactions prepared and open at the "
                                        f"checkpoint ({self.checkpoint.position}): not the binlog they were "
                                        "prepared in", path=str(self.config.store_path))
            if (t is XidEvent or t is QueryEvent or t is XaPrepareEvent) and ev.origin is None:
                self._ended = ev
            if t is GtidEvent or t is MariadbGtidEvent:
                gtids.add(ev.gtid)
                self._txn_start = self._start_of(ev)
            elif t is PreviousGtidsEvent:
                gtids.add_set(ev.gtid_set)
            elif t is GtidListEvent:
                gtids.add_set(ev.gtid_list)
            elif t is FormatDescriptionEvent:
                self._created[Path(ev.file or "").name] = ev.header.timestamp
            elif t is XaPrepareEvent:
                if not ev.one_phase:
                    xa[(ev.format_id, bytes(ev.gtrid), bytes(ev.bqual))] = self._txn_start
                self._txn_start = None
            elif t is QueryEvent and ev.query[:2].upper() == "XA":
                verb = ev.query.split(None, 2)[1].upper() if len(ev.query.split(None, 2)) > 1 else ""
                if verb == "START" and self._txn_start is None:
                    self._txn_start = self._start_of(ev)       # (no GTID event before it)
                elif xa and verb in ("COMMIT", "ROLLBACK"):
                    self._xa_resolved = parse_xid(ev.query)
            elif t is XidEvent:
                self._txn_start = None
            yield ev
        self._settle()

    def _settle(self) -> None:
        """The reader took the last event the tap gave it (it asks for the next one, the source ended
        or waits): an XA transaction its COMMIT/ROLLBACK resolved leaves the prepared set now (not
        before: a commit decided while the reader releases the rows is at a transaction end before
        it, where they are still held), and a transaction it ended silently is a transaction end."""
        if self._xa_resolved is not None:
            self._xa_prepared.pop(self._xa_resolved, None)
            self._xa_resolved = None
        if self._ended is not None:
            self._silent_end()

    def _start_of(self, ev):
        """Where a transaction starting with ``ev`` (its GTID event, or its XA START) is read again
        from, with the schema history version in force there; None in a relay log."""
        if ev.origin is not None:
            return None
        return (BinlogPosition(file_seq(ev.file or ""), ev.pos, Path(ev.file or "").name),
                len(self.reader.history.records))

    def _silent_end(self) -> None:
        """``_ended`` (an XID, a QUERY, an XA PREPARE) was read and the reader asks for the next
        event (or the source ends, or waits: :meth:`_idle`):
        when it ended a transaction (the reader is between transactions) that delivered nothing (all
        its tables filtered out, an XA ROLLBACK, a DDL on a filtered table: no END mark or
        SchemaChange at its end), its end is a transaction end too, so the checkpoint can move past
        it (else a restart reads a long filtered stretch again). Every record of the events before
        is written by now (the reader emits an event's records before it reads the next event), so
        a commit here covers exactly what precedes it; it follows the batching as an emitted
        transaction end does (counted in the batch, not in the stats' transactions)."""
        ev, self._ended = self._ended, None
        if self._replay_until is not None or self.reader.in_transaction:
            return                      # inside a transaction (a BEGIN, XA START, a statement in it)
        name = ev.file or ""
        key = (file_seq(name), ev.next_pos)
        b = self._boundary
        if b is not None and b[0].key == key:
            return                      # the reader emitted its end (the loop took it)
        self._boundary = (BinlogPosition(key[0], key[1], name), self.gtids.text, len(self.reader.history.records))
        self._pending += 1
        if self._batch_full():
            self._commit()

    def _batch_full(self) -> bool:
        """The batching rule: every N transactions or T milliseconds, whichever first."""
        cfg = self.config.checkpoint
        return self._pending >= cfg.every_transactions or time.monotonic() - self._batch_t0 >= cfg.every_ms / 1000

    def _end_decided(self) -> bool:
        """The commit decision at a transaction end, taken at the next record: commit when asked to
        stop (True: stop reading) or when the batch is full."""
        if self._stop:
            self._commit()
            return True
        if self._batch_full():
            self._commit()
        return False

    def _loop(self, reader) -> None:
        """Every record into the sink. The commit decision at a transaction end is taken when the
        next record arrives (or the source runs dry: :meth:`_idle`, or ends): a TRUNCATE's
        ``op="t"`` changes follow its SchemaChange and belong before the commit point."""
        cfg = self.config
        ops = frozenset(cfg.operations)
        all_ops = len(ops) == 4
        marks, schema = cfg.write_transactions, cfg.write_schema_changes
        write = self._write
        stats = self.stats
        faults = "MYSQLDDL_FAULT" in os.environ
        due = False
        for rec in reader:
            if self._replay_until is not None:
                continue                # (read again before the checkpoint: delivered already)
            t = type(rec)
            if due and not (t is RowChange and rec.op == "t"):
                due = False
                if self._end_decided():
                    return
            if t is RowBatch:
                if (all_ops or rec.op in ops) and write(rec):
                    stats.rows(rec.mapping.qualified_name, rec.op, rec.count)
                    if rec.mapping.version is None and not rec.mapping.mismatch:
                        self._untyped(rec.mapping.qualified_name, rec.count)
                if faults and rec.total0 >= 1000:
                    fault("huge-transaction")
            elif t is TransactionMark:
                if rec.status == "BEGIN":
                    self._in_txn = True
                    if marks:
                        write(rec)
                    continue
                if marks:
                    write(rec)
                self._in_txn = False
                self._at_boundary(rec.end if rec.end is not None else rec.source, rec.source.ts, ddl=False)
                due = True
            elif t is SchemaChange:
                if schema:
                    write(rec)
                self._at_boundary(rec.position, rec.source.ts, ddl=True)
                due = True
            elif t is RowChange:
                if (all_ops or rec.op in ops) and write(rec):
                    stats.rows(f"{rec.source.db}.{rec.source.table}", rec.op, 1)
                    if rec.table_version is None and not rec.mismatch and rec.op != "t":
                        self._untyped(f"{rec.source.db}.{rec.source.table}", 1)

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

    def _loop_olr(self, reader) -> None:
        """:meth:`_loop` for an OLR source's records (:mod:`.olr_source`). A transaction ends at
        its ``commit`` message (or a DDL message); the checkpoint names that message and a restart
        reads on after it, so the commit decision waits for a record of another message (a message
        may carry several payloads)."""
        cfg = self.config
        ops = frozenset(cfg.operations)
        marks, schema = cfg.write_transactions, cfg.write_schema_changes
        write = self._write
        stats = self.stats
        due = None              # (offset, file) of the message that ended the last transaction
        for rec in reader:
            t = type(rec)
            src = rec.source
            if due is not None and (src.offset, src.file) != due:
                due = None
                # (in a transaction again: payloads after the commit in its message; the next end commits)
                if not self._in_txn and self._end_decided():
                    return
            if t is OracleRowChange:
                if rec.op in ops and write(rec):
                    stats.rows(f"{src.owner}.{src.table}" if src.owner else str(src.table), rec.op, 1)
            elif t is OracleTransactionMark:
                if rec.status == "BEGIN":
                    self._in_txn = True
                    if marks:
                        write(rec)
                    continue
                if marks:
                    write(rec)
                self._in_txn = False
                self._at_boundary(OlrResumePosition.at(src), (src.ts_ms or 0) // 1000, ddl=False)
                due = (src.offset, src.file)
            elif t is OracleSchemaChange:
                if schema:
                    write(rec)
                if not self._in_txn:
                    self._at_boundary(OlrResumePosition.at(src), (src.ts_ms or 0) // 1000, ddl=True)
                    due = (src.offset, src.file)

    def _at_boundary(self, position, ts: int, *, ddl: bool) -> None:
        # what the checkpoint will say, taken now: by the time the commit is decided (at the next
        # record) the reader may have read on, and recorded the next DDL in the history already
        self._boundary = (position, self.gtids.text, len(self.reader.history.records))
        self._pending += 1
        self.stats.boundary(ts, ddl)

    def _idle(self) -> None:
        """The source waits for data: commit what ended (not inside a transaction)."""
        self._settle()
        if not self._in_txn and self._pending:
            self._commit()
        elif time.monotonic() - self._last_stats >= self.config.stats.interval_s:
            self._write_stats()            # (the file says the pipeline is alive while it waits)

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

    # -- commits ----------------------------------------------------------------------------------
    def _commit(self, final: bool = False) -> None:
        """Commit the batch at the last transaction end; ``final`` (the run ends): also when
        nothing is pending, at the stored checkpoint, so the sink's rotation is recorded."""
        b = self._boundary
        idle_end = final and not self._pending
        if idle_end:
            ck = self.checkpoint
            if ck is None or self.sink_keeps_checkpoint or self._failover_fresh:
                return          # (a failover with nothing read since: the old server's checkpoint stands)
            b = (ck.position, ck.gtid_set, ck.history_version)
        elif b is None or not self._pending:
            return
        position, gtid_text, history_version = b
        replay = None
        if self._xa_prepared:
            # an XA transaction's rows are held by the reader from its PREPARE to its COMMIT: a
            # restart from a checkpoint between the two reads again from the first such
            # transaction's start (delivering nothing before the checkpoint); one whose start is
            # unknown (a relay log) holds the checkpoint back as before
            starts = [v for v in self._xa_prepared.values() if v is None or v[0].key < position.key]
            if any(v is None for v in starts):
                return
            if starts:
                first, version = min(starts, key=lambda v: v[0].key)
                replay = {"xa_replay": {"file": first.file, "file_seq": first.file_seq, "pos": first.pos,
                                        "history_version": version, "pending": len(starts)}}
        name = Path(position.file).name if position.file else ""
        pos = position if type(position) is OlrResumePosition else \
            BinlogPosition(position.file_seq, position.pos, name, position.gtid)
        errors = self.reader.history.errors
        if len(errors) != self._ddl_errors:
            if self.config.errors.strategy == "skip":
                self._dead.ddl(errors[self._ddl_errors:])
            self._ddl_errors = len(errors)
        self._dead.sync()
        history = self.reader.history
        totals = self.stats.committed()
        # (an OLR reader's column types: those of the records read up to the one that decided this
        # commit, which a restart reads again and so sets again: the same state)
        reader_state = {"olr_columns": self.reader.columns_state()} if self.olr else replay

        def checkpoint(state):
            return Checkpoint(self.config.name, self.identity, pos, gtid_text, history_version, time.time(),
                              int((state or {}).get("seq", 0)), state, totals, file_created=self._created.get(name),
                              reader_state=reader_state, failover=self._failover)

        if self.sink_keeps_checkpoint:
            ckpt = checkpoint(None)
            self.store.save(ckpt, history)     # staged in the sink's transaction
            self.sink.commit(pos)
            fault("after-sink-commit")          # (data and checkpoint committed together)
        else:
            state = self.sink.commit(pos)
            if idle_end and state == self.checkpoint.sink_state:
                return                          # (nothing was open: the checkpoint stands)
            fault("after-sink-commit")
            ckpt = checkpoint(state)
            self.store.save(ckpt, history)
        self.checkpoint = ckpt
        self._failover_fresh = False
        self._retries_stored = self.retries
        self._pending = 0
        self._batch_t0 = time.monotonic()
        now = time.monotonic()
        if now - self._last_stats >= self.config.stats.interval_s:
            self._write_stats()
        if self.progress is not None and now - self._last_progress >= 0.5:
            self._progress_line()

    def _progress_line(self) -> None:
        """The progress line (on a terminal: rewritten in place)."""
        self._last_progress = time.monotonic()
        ck = self.checkpoint
        rep = self.stats.report()
        self.progress.write(f"\r{self.config.name}: {ck.position if ck else '-'} transactions {rep['transactions']} "
                            f"rows {rep['dml_rows']} DDL {rep['ddl']} skipped {rep['skipped']} lag "
                            f"{rep.get('lag_s', 0):.1f} s ")
        self.progress.flush()

    def _write_stats(self, final: bool = False) -> None:
        stats = getattr(self, "stats", None)
        if stats is None:
            return
        self._last_stats = time.monotonic()
        ck = self.checkpoint
        data = {"pipeline": self.config.name, "updated": round(time.time(), 3), "running": not final,
                "checkpoint": ck.as_dict() if ck is not None else None, "stats": stats.report()}
        try:
            write_stats_file(self.config.stats_path, data)
        except OSError:
            pass        # (the stats file is informative; the checkpoint is what counts)
        if final and self.progress is not None:
            self._progress_line()
            self.progress.write("\n")
            self.progress.flush()


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
