"""The PostgreSQL sink: applies change records to a PostgreSQL database, exactly once.

With :mod:`~.pg.lock` (the driver's import, the connection and the pipeline's advisory lock), the
only module that uses psycopg (ARCHITECTURE.md "Layers"); what needs no driver lives in
:mod:`mysqlddl.sinks.pg`: the type map and options (:mod:`~.pg.types`), the value policy
(:mod:`~.pg.values`), the DDL converter (:mod:`~.pg.ddl`), the DML statement builder
(:mod:`~.pg.dml`), the row conversion and where a record's rows go (:mod:`~.pg.rows`), the run
buffer (:mod:`~.pg.runs`) and the COPY text lines (:mod:`~.pg.copytext`).

Records of any source go through the same branches (by record class): what differs between a
binlog's records and OLR output's (the table's schema is ``db`` or ``owner``, a row's place a
``file:pos`` or a ``file line``) is said by :func:`~.pg.rows.source_table` and its neighbours.

Use::

    sink = PostgresSink("postgresql://user@host:5432/db", PgOptions(pipeline="p1"), mapping)
    with sink:
        cp = sink.load_checkpoint()          # None on the first run, else where to resume
        options = ChangeOptions(filters=Filters(start_position=cp.resume)) if cp else ChangeOptions()
        reader = ChangeReader(open_source(files), options)
        write_records(reader, sink)

Exactly-once: the sink keeps its checkpoint in the target (``keeps_checkpoint`` is True), in the
same PostgreSQL transaction as the rows and DDL it covers. A target transaction holds
``commit_every`` source transactions (or ``commit_ms``, whichever first, and never part of one):
rows are buffered per run of same-kind changes of one table and written when the run ends, DDL is
applied in the transaction (PostgreSQL DDL is transactional), and ``commit(position)`` at the batch's
end writes the checkpoint row and commits. A crash anywhere loses the uncommitted batch in the
target and in the checkpoint together; a restart reads from :attr:`Checkpoint.resume`.

State tables, in ``options.state_schema`` (default ``mysqlddl``):

    mysqlddl_checkpoint   one row per pipeline: source identity (connector:server_id), file, pos
                          (what ``commit`` got), resume file/pos (the first event not yet applied),
                          GTID, schema history version (DDL applied; plus the serialized history
                          when one is attached with :meth:`attach_history`), transactions, time
    mysqlddl_tables       per pipeline and source table: the source table version the target
                          holds (model codec JSON): what the next ALTER is diffed against

(Over 600 lines: the sink's buffering, set-based writes, DDL application and the commit share
its state; the driver-free parts are already in :mod:`mysqlddl.sinks.pg`.)

Stats (:attr:`stats`): rows applied per table and operation, statements and batch sizes, DDL
applied and what it left out, value-policy counts, and source-to-target lag of the last commit.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import Counter

from ..changes.records import Boundary, RowBatch, RowChange, SchemaChange, TransactionMark
from ..commands.alter_table import AlterTable, ChangeColumn, RenameColumn, RenameTo
from ..commands.databases import CreateDatabase, DropDatabase
from ..commands.table_ddl import RenameTable, TruncateTable
from ..errors import ConfigError, SinkError, UnconvertibleDdlError
from ..faults import fault
from ..mapping.rules import Mapping
from ..model import codec
from ..model.ids import TableId, column_key
from ..model.table import Table
from ..redact import remember_secret, remember_uri
from .base import Sink
from .pg import ddl as D
from .pg import dml as M
from .pg import order as O
from .pg.copytext import Unformatted
from .pg.copytext import formatter as copy_formatter
from .pg.lock import AdvisoryLock, connect, psycopg  # (psycopg: the [postgresql] extra, a typed error without it)
from .pg.rows import RowConverter, commit_source, full_images, source_table, source_ts, source_where
from .pg.runs import Run, RunBuffer
from .pg.state import Checkpoint, TargetCheckpointView, masked_uri, position_fields
from .pg.types import PgOptions, postgis_options
from .pg.values import PolicyCounts

log = logging.getLogger("mysqlddl.sinks.postgresql")

COPY_BLOCK = 2000       # rows per block of COPY text (the server parses one while the next is made)


class PostgresSink(Sink):
    """Applies records to PostgreSQL (see the module docstring). ``uri``: a libpq URI or
    connection string (password as libpq takes it: PGPASSWORD, ~/.pgpass or the URI)."""

    keeps_checkpoint = True

    def __init__(self, uri: str, options: PgOptions | None = None, mapping: Mapping | None = None, *,
                 history=None, batched: bool = True):
        self.uri = uri
        # (the password libpq will send, from the URI or PGPASSWORD: masked in every message from
        # now on, e.g. a server error that quotes it; mysqlddl.redact)
        remember_uri(uri)
        remember_secret(os.environ.get("PGPASSWORD"))
        #: False (a pipeline decides the cadence): each commit() is one target transaction, and
        #: close() rolls back what no commit covered (a restart reads it again)
        self.batched = batched
        self._staged: tuple[str, str | None] | None = None     # (state, history) for the next checkpoint row
        self.options = options or PgOptions()
        self.mapping = (mapping or Mapping()).validate()
        self.history = history
        self.conn: psycopg.Connection | None = None
        self.policy_counts = PolicyCounts()
        self.stats = {"rows": Counter(), "statements": 0, "batches": 0, "batch_rows": 0, "ddl": 0,
                      "ddl_skipped": 0, "notes": Counter(), "commits": 0, "lag_s": None, "transactions": 0}
        self._versions: dict[tuple[str, str], Table] = {}
        self._targets: dict[tuple[str, str], D.TargetTable | None] = {}
        self.converter = RowConverter(self.options.value_policy, self.policy_counts, self.options.json_text)
        self.runs = RunBuffer(self._write_run)
        self._stages: dict[tuple, str] = {}
        self._stage_seq = 0
        self._pending = None        # the position of the last source transaction not committed yet
        self._source = None         # (source identity, commit ts) of the last transaction mark
        self._pending_src = None
        self._txns = 0
        self._batch_t0 = None
        self._ddl_version = 0
        self._history_saved = -1
        self._warned_keyless: set[str] = set()
        self._changed_tables: dict[tuple[str, str], Table | None] = {}

    @classmethod
    def from_config(cls, sink: dict, mapping: dict | None = None, *, history=None) -> PostgresSink:
        """A sink from a pipeline file's ``[sink]`` section (``uri = "postgresql://..."`` plus any
        :class:`PgOptions` key) and its ``[mapping]`` section (:meth:`Mapping.from_config`)."""
        if not sink.get("uri"):
            raise ConfigError("sink.uri is required (postgresql://USER@HOST:PORT/DB)")
        return cls(sink["uri"], PgOptions.from_config(sink), Mapping.from_config(mapping), history=history)

    # ------------------------------------------------------------------------------ lifecycle
    def open(self, *, create: bool = True) -> None:
        """Connects (once: a second call does nothing) and creates the state tables when missing.
        ``create`` False (``mysqlddl status``): connects only, changes nothing."""
        if self.conn is not None and not self.conn.closed:
            return
        self.conn = connect(self.uri, autocommit=False)
        s = D.qi(self.options.state_schema)
        with self.conn.cursor() as cur:
            cur.execute("SET TimeZone = 'UTC'")
            for sql in M.SESSION_SETTINGS:
                cur.execute(sql)
            if self.options.geometry == "auto":
                self.options = postgis_options(cur, self.options)
            if not create:
                self.conn.commit()
                return
            cur.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
            cur.execute(O.sequence_sql(self.options.state_schema))      # (keyless tables' insertion order)
            cur.execute(f"CREATE TABLE IF NOT EXISTS {s}.mysqlddl_checkpoint (pipeline text PRIMARY KEY, "
                        "source_id text, file text, pos bigint, resume text, gtid text, history_version bigint, "
                        "history text, transactions bigint, updated_at timestamptz, state text)")
            # (a table from before the state column; PostgreSQL 9.6+ has ADD COLUMN IF NOT EXISTS)
            cur.execute(f"ALTER TABLE {s}.mysqlddl_checkpoint ADD COLUMN IF NOT EXISTS state text")
            cur.execute(f"CREATE TABLE IF NOT EXISTS {s}.mysqlddl_tables (pipeline text, source_db text, "
                        "source_table text, definition jsonb, PRIMARY KEY (pipeline, source_db, source_table))")
            cur.execute(f"SELECT source_db, source_table, definition FROM {s}.mysqlddl_tables WHERE pipeline = %s",
                        (self.options.pipeline,))
            self._versions.clear()      # (a sink opened again after an abort: only what was committed)
            self._history_saved = -1
            for db, name, definition in cur.fetchall():
                self._versions[(db, name)] = codec.from_data(definition, Table)
            cur.execute(f"SELECT history_version FROM {s}.mysqlddl_checkpoint WHERE pipeline = %s",
                        (self.options.pipeline,))
            row = cur.fetchone()
            self._ddl_version = row[0] if row else 0
        self.conn.commit()

    def attach_history(self, history) -> None:
        """Store this SchemaHistory (serialized) with each checkpoint after it changed."""
        self.history = history

    def seed(self, tables) -> None:
        """Creates the target tables of a baseline (tables that existed before the first record:
        a ``--schema`` DDL file, an OLR baseline) that the target does not hold yet, and commits.
        ``tables``: Tables, or a Catalog."""
        if hasattr(tables, "tables"):
            self.mapping.validate(tables)       # (the rules against the schema in force: positioned errors)
            tables = tables.tables.values()
        notes: list[str] = []
        with self.conn.cursor() as cur:
            for t in tables:
                key = (t.database, t.name)
                if key in self._versions or t.temporary:
                    continue
                tt = D.resolve(t, self.mapping, self.options)
                if tt is not None:
                    for sql in D.create_table(tt, self.options, notes):
                        cur.execute(sql)
                self._set_version(key, t)
        self._commit_now()      # (the table versions; the checkpoint moves only if a commit was pending)

    def validate_schema(self, history) -> None:
        """The mapping rules against the schema in force in ``history`` (restored from the
        checkpoint): positioned MappingErrors, also for a table the history saw dropped or renamed."""
        cat = history.catalog
        gone = {(tid.database, tid.name) for rec in history.records for tid, _t in rec.tables}
        self.mapping.validate(cat, gone)

    def load_checkpoint(self) -> Checkpoint | None:
        """The stored checkpoint of ``options.pipeline``, None when there is none (a first run)."""
        try:
            with self.conn.cursor() as cur:
                cur.execute(f"SELECT pipeline, source_id, file, pos, resume, gtid, history_version, history, "
                            f"transactions, updated_at, state FROM {D.qi(self.options.state_schema)}."
                            "mysqlddl_checkpoint WHERE pipeline = %s", (self.options.pipeline,))
                row = cur.fetchone()
        except psycopg.errors.UndefinedTable:
            row = None          # (opened with create=False on a target never written)
        self.conn.commit()
        return Checkpoint(*row) if row else None

    def checkpoint_store(self):
        """The view of this sink's checkpoint row (:class:`~.pg.state.TargetCheckpointView`): what a
        pipeline adapts into its checkpoint store (sinks do not know the pipeline's Checkpoint)."""
        return TargetCheckpointView(self)

    def stage_checkpoint(self, state: str, history: str | None = None) -> None:
        """Text the next checkpoint row carries, written in the same transaction as the data it
        covers: ``state`` (a pipeline's own checkpoint, JSON) and, when given, ``history`` (the
        serialized schema history, replacing the stored one)."""
        self._staged = (state, history)

    def close(self) -> None:
        if self.conn is None:
            return
        try:
            if not self.conn.closed:
                if self._pending is not None:
                    self._commit_now()
                elif not self.batched:
                    self.conn.rollback()        # (what no commit covered: a restart reads it again)
                else:
                    self.runs.flush()
                    self.conn.commit()
        finally:
            self.conn.close()
            self.conn = None

    def lock(self, holder: dict) -> AdvisoryLock:
        """The pipeline's run lock in the target (:class:`AdvisoryLock`), keyed by the checkpoint
        row's identity: ``state_schema`` and ``pipeline``."""
        lock = AdvisoryLock(self.uri, f"{self.options.state_schema}.{self.options.pipeline}", holder)
        lock.check()
        return lock

    def abort(self) -> None:
        self.runs.clear()
        self._staged = None
        self._pending = None
        self._txns = 0
        self._stages.clear()
        self._targets.clear()
        self.converter.clear()          # (its caches hold ids of TargetTables: one may die now)
        self._changed_tables.clear()
        if self.conn is not None and not self.conn.closed:
            self.conn.rollback()
            self.conn.close()
        self.conn = None

    # ------------------------------------------------------------------------------ records
    def write(self, record) -> None:
        t = type(record)
        if t is RowBatch:
            # (decoded here rather than through RowBatch.changes(): no RowChange per row is needed)
            m, op, src = record.mapping, record.op, record.source
            ev = record.event
            rows = m.decode(ev)
            record.note_count(len(rows))
            where, images, apply = f"{src.file}:{src.pos}", m.images, self._row_images
            if not m.retypes and full_images(ev) and self._batch(m, op, rows, src.db, src.table, where):
                return
            for row in rows:
                before, after = images(op, row)
                apply(op, before, after, src.db, src.table, where)
        elif t is RowChange:
            if record.op != "t":      # (a truncate's SchemaChange already emptied the table)
                src = record.source
                db, table = source_table(src)
                self._row(record, db, table, source_where(src))
        elif t is SchemaChange:
            self._schema_change(record)
        elif t is TransactionMark:
            # the source's identity and commit time for the checkpoint row: a commit position
            # (the transaction's end, a BinlogPosition) carries neither
            self._source = commit_source(record.source)
        elif t is Boundary:
            pass                # (what a pipeline commits by: no change to apply)
        else:
            raise SinkError(f"not a change record: {type(record).__name__}")

    def commit(self, position) -> None:
        self._pending = position
        self._txns += 1
        self.stats["transactions"] += 1
        now = time.monotonic()
        if self._batch_t0 is None:
            self._batch_t0 = now
        if (not self.batched or self._txns >= self.options.commit_every
                or (now - self._batch_t0) * 1000 >= self.options.commit_ms):
            self._commit_now()

    def flush(self) -> None:
        """Commits what is buffered now, with the checkpoint of the last source transaction
        committed (a timer's flush between ``commit_ms`` checks; a benchmark's end)."""
        self._commit_now()

    # ------------------------------------------------------------------------------ rows
    def _target(self, db: str, name: str) -> D.TargetTable | None:
        key = (db, name)
        if key in self._targets:
            return self._targets[key]
        t = self._versions.get(key)
        tt = D.resolve(t, self.mapping, self.options) if t is not None else None
        self._targets[key] = tt
        return tt

    def _row(self, ch, db: str, table: str, where: str) -> None:
        # a snapshot row (op r) of a pipeline's first run goes into the tables its seed just created,
        # empty: an insert (an incremental snapshot into a live target would need an upsert)
        self._row_images("c" if ch.op == "r" else ch.op, ch.before, ch.after, db, table, where)

    def _row_images(self, op: str, before, after, db: str, table: str, where: str) -> None:
        tt = self._target(db, table)
        if tt is None:
            if (db, table) not in self._versions and self.mapping.table_included(db, table):
                raise SinkError(f"no table definition for {db}.{table}: the target needs its CREATE (or a "
                                "baseline: PostgresSink.seed)", position=where, table=f"{db}.{table}")
            return
        convs = self.converter.converters(tt)
        if not tt.key and tt.source_name not in self._warned_keyless and op != "c":
            self._warned_keyless.add(tt.source_name)
            log.warning("%s has no primary key: updates and deletes find rows by all their columns",
                        tt.source_name)
        # payloads (see _write_run): a set-based delete stages the key values, a set-based update the
        # key values then the after image; row by row keeps the images
        if op == "c":
            cols, vals = self.converter.image(convs, after, where)
            self.runs.add(tt, "c", cols, vals, None, False)
        elif op == "d":
            cols, vals = self.converter.image(convs, before, where)
            key = self.converter.key(tt, cols, vals, where)
            if tt.key:
                self.runs.add(tt, "d", cols, tuple(vals[i] for i in self.converter.key_positions(tt, cols)), key, False)
            else:
                self.runs.add(tt, "d", cols, vals, key, True)
        else:
            bcols, bvals = self.converter.image(convs, before, where)
            acols, avals = self.converter.image(convs, after, where)
            key = self.converter.key(tt, bcols, bvals, where)
            if not acols:
                return          # (an after image without columns sets nothing)
            moves = not tt.key or self.converter.moves_unique(tt, bcols, bvals, acols, avals)
            if moves:
                self.runs.add(tt, "u", acols, (bcols, bvals, avals), key, True)
            else:
                kp = self.converter.key_positions(tt, bcols)
                self.runs.add(tt, "u", acols, tuple(bvals[i] for i in kp) + avals, key, False)
        self.stats["rows"][(tt.source_name, op)] += 1

    def _batch(self, m, op: str, rows: list, db: str, table: str, where: str) -> bool:
        """A rows event's decoded tuples (full images, nothing to retype) converted without an
        image dict per row (:meth:`RowConverter.batch`); False: they take the per-row path (a table
        without a key or not in the target, a Python transform)."""
        tt = self._target(db, table)
        if tt is None or (not tt.key and op != "c"):
            return False
        got = self.converter.batch(tt, op, m.names, rows, where)
        if got is None:
            return False
        cols, payloads, keys, moves = got
        if op == "c":
            self.runs.extend(tt, cols, payloads)
        else:
            self.runs.add_keyed(tt, op, cols, payloads, keys, moves)
        self.stats["rows"][(tt.source_name, op)] += len(rows)
        return True

    def _stage(self, cur, tt, cols: list[tuple[str, str]]) -> str:
        k = (id(tt), tuple(cols))
        name = self._stages.get(k)
        if name is None:
            self._stage_seq += 1
            name = self._stages[k] = M.staging_name(self._stage_seq)
            cur.execute(M.staging_sql(name, cols))
        return name

    def _write_run(self, run: Run) -> None:
        tt, cols = run.tt, list(run.cols)
        n = len(run.rows)
        self.stats["batches"] += 1
        self.stats["batch_rows"] += n
        try:
            with self.conn.cursor() as cur:
                if run.op == "c" and M.copies_direct(cols):
                    self._copy(cur, tt.qualified, [c.name for c in cols], run.rows, cols)
                    self.stats["statements"] += 1
                elif run.op == "c":
                    stage = self._stage(cur, tt, [(c.name, c.natural.sql) for c in cols])
                    self._copy(cur, D.qi(stage), [c.name for c in cols], run.rows, cols)
                    cur.execute(M.insert_sql(tt, cols, stage))
                    cur.execute(f"TRUNCATE {D.qi(stage)}")
                    self.stats["statements"] += 2
                elif run.op == "u" and not run.rowwise:
                    keys = [(M.key_ref(i), k.natural.sql) for i, k in enumerate(tt.key)]
                    stage = self._stage(cur, tt, keys + [(c.name, c.natural.sql) for c in cols])
                    self._copy(cur, D.qi(stage), [k for k, _ in keys] + [c.name for c in cols], run.rows,
                               list(tt.key) + cols)
                    cur.execute(M.update_set_sql(tt, cols, stage))
                    self._check_count(cur, run, n)
                    cur.execute(f"TRUNCATE {D.qi(stage)}")
                    self.stats["statements"] += 2
                elif run.op == "d" and not run.rowwise:
                    keys = [(M.key_ref(i), k.natural.sql) for i, k in enumerate(tt.key)]
                    stage = self._stage(cur, tt, keys)
                    self._copy(cur, D.qi(stage), [k for k, _ in keys], run.rows, tt.key)
                    cur.execute(M.delete_set_sql(tt, stage))
                    self._check_count(cur, run, n)
                    cur.execute(f"TRUNCATE {D.qi(stage)}")
                    self.stats["statements"] += 2
                else:
                    self._rowwise(cur, run)
        except psycopg.Error as e:
            raise SinkError(f"applying {n} {run.op} row(s) to {tt.qualified} failed: {e}",
                            table=tt.source_name) from e

    @staticmethod
    def _check_count(cur, run: Run, n: int) -> None:
        """A set-based UPDATE/DELETE found every row of the run (keys do not repeat in a run), or
        the target differs from the source: stop rather than diverge further."""
        if cur.rowcount != n:
            raise SinkError(f"{run.op} of {n} row(s) on {run.tt.qualified} found {cur.rowcount} (the target "
                            "differs from the source)", table=run.tt.source_name)

    def _rowwise(self, cur, run: Run) -> None:
        tt = run.tt
        for payload in run.rows:
            if run.op == "u":
                bcols, bvals, avals = payload
                match = M.match_columns(tt, list(bcols))
                by = {c.name: v for c, v in zip(bcols, bvals, strict=True)}
                params = [*avals, *(by.get(c.name) for c in match)]
                cur.execute(M.update_row_sql(tt, list(run.cols), match), params)
            else:
                match = M.match_columns(tt, list(run.cols))
                by = {c.name: v for c, v in zip(run.cols, payload, strict=True)}
                cur.execute(M.delete_row_sql(tt, match), [by.get(c.name) for c in match])
            if cur.rowcount != 1:
                raise SinkError(f"{run.op} on {tt.qualified} matched {cur.rowcount} rows, not 1 (the target "
                                "differs from the source)", table=tt.source_name)
            self.stats["statements"] += 1

    @staticmethod
    def _copy(cur, table: str, names: list[str], rows, cols) -> None:
        """COPY ``rows`` (values of the TargetColumns ``cols``) into ``table`` (quoted, maybe
        qualified): as text lines written here (:mod:`.pg.copytext`) in blocks, else (a value
        without a text form there, a client encoding not UTF-8) through the driver row by row."""
        fmt = copy_formatter(tuple(c.natural.kind for c in cols))
        if fmt is not None and cur.connection.info.encoding != "utf-8":
            fmt = None
        with cur.copy(f"COPY {table} ({', '.join(D.qi(n) for n in names)}) FROM STDIN") as cp:
            i = 0
            if fmt is not None:
                try:
                    for i in range(0, len(rows), COPY_BLOCK):
                        cp.write(fmt(rows[i:i + COPY_BLOCK]))
                    return
                except Unformatted:
                    pass            # (the block that failed was not written: the driver goes on from it)
            for r in rows[i:]:
                cp.write_row(r)

    # ------------------------------------------------------------------------------ DDL
    def _schema_change(self, sc: SchemaChange) -> None:
        self.runs.flush()
        notes: list[str] = []
        where = str(sc.record.position)
        skip = self.options.on_ddl_error == "skip"
        saved = (dict(self._versions), dict(self._changed_tables))
        try:
            with self.conn.cursor() as cur:
                if skip:
                    cur.execute("SAVEPOINT mysqlddl_ddl")
                for sql in self._ddl_statements(sc, notes):
                    cur.execute(sql)
                    self.stats["statements"] += 1
        except (psycopg.Error, UnconvertibleDdlError) as e:
            if isinstance(e, UnconvertibleDdlError):      # (the converter's own: a generated column)
                err = e.with_context(position=where)
            else:
                err = UnconvertibleDdlError(f"the DDL {sc.ddl[:200]!r} did not apply in PostgreSQL: {e}",
                                            position=where, what=str(e).splitlines()[0] if str(e) else None)
            if not skip:
                raise err from (None if err is e else e)
            with self.conn.cursor() as cur:
                cur.execute("ROLLBACK TO SAVEPOINT mysqlddl_ddl")
            self._versions, self._changed_tables = saved        # the target did not change
            self._targets.clear()
            self.converter.clear()          # (its caches hold ids of TargetTables: one may die now)
            self.stats["ddl_skipped"] += 1
            log.warning("%s", err)
            return
        self._ddl_version += 1
        self.stats["ddl"] += 1
        for n in notes:
            self.stats["notes"][n] += 1
            log.info("%s: %s", where, n)

    def _ddl_statements(self, sc: SchemaChange, notes: list[str]) -> list[str]:
        out: list[str] = []
        rec = sc.record
        ts = source_ts(sc.source)
        ts = float(ts) if ts else None
        for cmd in rec.commands:
            if isinstance(cmd, CreateDatabase):
                out.append(D.create_schema(self.mapping.schema_for(cmd.name)))
            elif isinstance(cmd, DropDatabase):
                out.append(D.drop_schema(self.mapping.schema_for(cmd.name)))
                for key in [k for k in self._versions if k[0] == cmd.name]:
                    self._set_version(key, None)
            elif isinstance(cmd, TruncateTable):
                tid = cmd.table.qualified(rec.default_db)
                tt = self._target(tid.database, tid.name)
                if tt is not None:
                    out += D.truncate_table(tt)
        renames, col_renames = self._renames(rec)
        starts = O.alter_starts(rec)
        new = {(tid.database, tid.name): t for tid, t in rec.tables}
        # renames first: a table moved to its new name, then diffed there
        for old_id, new_id in renames:
            okey, nkey = (old_id.database, old_id.name), (new_id.database, new_id.name)
            old_t = self._versions.get(okey)
            if old_t is None:
                continue
            ott = self._target(*okey)
            moved = old_t.replace(id=TableId(*nkey))
            ntt = D.resolve(moved, self.mapping, self.options)
            self._set_version(okey, None)
            if ott is not None and ntt is not None:
                out += D.rename_table(ott, ntt)
            elif ott is not None:
                out += D.drop_table(ott)
            elif ntt is not None:
                out += D.create_table(ntt, self.options, notes)
            self._set_version(nkey, moved)
        for key, t in new.items():
            old_t = self._versions.get(key)
            if t is None:
                if old_t is not None:
                    ott = self._target(*key)
                    if ott is not None:
                        out += D.drop_table(ott)
                    self._set_version(key, None)
                continue
            if t.temporary:
                continue
            ntt = D.resolve(t, self.mapping, self.options)
            if old_t is None:
                if ntt is not None:
                    out += D.create_table(ntt, self.options, notes)
            elif ntt is not None:
                ott = self._target(*key)
                out += D.alter_table(ott, ntt, col_renames.get(key, {}), self.options, notes, ts, starts.get(key, 1))
            self._set_version(key, t)
        return out

    @staticmethod
    def _renames(rec) -> tuple[list[tuple[TableId, TableId]], dict]:
        """Table renames (old id, new id) and per new table the column renames of the statement."""
        tables, cols = [], {}
        db = rec.default_db
        for cmd in rec.commands:
            if isinstance(cmd, RenameTable):
                tables += [(a.qualified(db), b.qualified(db)) for a, b in cmd.pairs]
            elif isinstance(cmd, AlterTable):
                tid = cmd.table.qualified(db)
                key = (tid.database, tid.name)
                ren = {}
                for op in cmd.operations:
                    if isinstance(op, RenameTo):
                        nid = op.new_table.qualified(tid.database)
                        tables.append((tid, nid))
                        key = (nid.database, nid.name)
                    elif isinstance(op, RenameColumn) and column_key(op.old_name) != column_key(op.new_name):
                        ren[column_key(op.old_name)] = op.new_name
                    elif isinstance(op, ChangeColumn) and column_key(op.old_name) != column_key(op.column.name):
                        ren[column_key(op.old_name)] = op.column.name
                cols[key] = ren
        return tables, cols

    def _set_version(self, key: tuple[str, str], t: Table | None) -> None:
        if t is None:
            self._versions.pop(key, None)
        else:
            self._versions[key] = t
        self._targets.pop(key, None)
        self.converter.clear()          # (its caches hold ids of TargetTables: one may die now)
        self._changed_tables[key] = t

    # ------------------------------------------------------------------------------ commit
    def _commit_now(self) -> None:
        try:
            self._commit_batch()
        except psycopg.OperationalError as e:       # (a lost connection: the retry strategy starts again)
            raise SinkError(f"the commit failed: {str(e).strip()}", transient=True, path=masked_uri(self.uri)) from None

    def _commit_batch(self) -> None:
        self.runs.flush()
        pos = self._pending
        s = D.qi(self.options.state_schema)
        pipe = self.options.pipeline
        with self.conn.cursor() as cur:
            for (db, name), t in self._changed_tables.items():
                if t is None:
                    cur.execute(f"DELETE FROM {s}.mysqlddl_tables WHERE pipeline = %s AND source_db = %s "
                                "AND source_table = %s", (pipe, db, name))
                else:
                    cur.execute(f"INSERT INTO {s}.mysqlddl_tables VALUES (%s, %s, %s, %s) ON CONFLICT "
                                "(pipeline, source_db, source_table) DO UPDATE SET definition = EXCLUDED.definition",
                                (pipe, db, name, json.dumps(codec.to_data(t))))
            if pos is not None:
                file, p, resume, gtid, source_id, ts = position_fields(pos)
                if source_id is None and self._source is not None:
                    source_id, ts = self._source
                history = None
                state, staged_history = self._staged or (None, None)
                if staged_history is not None:
                    history = staged_history
                elif self.history is not None and len(self.history.records) != self._history_saved:
                    history = "\n".join(self.history.lines())
                # (state is replaced, never kept: a row moved by a commit without a staged state
                # must not keep a state that points before it)
                cur.execute(
                    f"INSERT INTO {s}.mysqlddl_checkpoint AS c VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, now(), "
                    "%s) ON CONFLICT (pipeline) DO UPDATE SET source_id = coalesce(EXCLUDED.source_id, c.source_id), "
                    "file = EXCLUDED.file, pos = EXCLUDED.pos, resume = EXCLUDED.resume, gtid = EXCLUDED.gtid, "
                    "history_version = EXCLUDED.history_version, history = coalesce(EXCLUDED.history, c.history), "
                    "transactions = c.transactions + %s, updated_at = now(), state = EXCLUDED.state",
                    (pipe, source_id, file, p, resume, gtid, self._ddl_version, history, self._txns, state,
                     self._txns))
                if ts:
                    self.stats["lag_s"] = round(time.time() - ts, 3)
                fault("in-checkpoint-commit")       # (the crash tests: data and checkpoint staged, not committed)
        self.conn.commit()
        self._staged = None
        if self.history is not None:
            self._history_saved = len(self.history.records)
        self._changed_tables.clear()
        self.stats["commits"] += 1
        self._pending = None
        self._txns = 0
        self._batch_t0 = None

    # ------------------------------------------------------------------------------ reporting
    def report(self) -> dict:
        """Stats as plain data, with the value-policy table."""
        st = dict(self.stats)
        per_table: dict[str, dict[str, int]] = {}
        for (t, op), n in sorted(st.pop("rows").items()):
            per_table.setdefault(t, {})[op] = n
        st["rows"] = per_table
        st["notes"] = dict(st["notes"])
        st["avg_batch_rows"] = round(st["batch_rows"] / st["batches"], 1) if st["batches"] else 0
        st["value_policy"] = [list(r) for r in self.policy_counts.table()]
        return st


__all__ = ["AdvisoryLock", "Checkpoint", "PostgresSink"]
