#!/usr/bin/env python3
"""The PostgreSQL sink's speed: the lab bulk set (about 1M row changes at --scale 1) applied to a
private PostgreSQL (tools/pg_lab.py), rows per second and the CPU split between us and PostgreSQL,
against a peer applying the same changes into the same server in the same run, with the ratio.

    python tools/bench_pg.py --scale 0.05        # a quick check (about 50k row changes)
    python tools/bench_pg.py --scale 1           # the issue's measurement (about 1M)

The bulk set is phase (c) of tools/workload.py, the same cached binlog files as
tools/bench_changes.py (~/.cache/mysqlddl/bench-changes/scale-S/, written on first use by a private
MariaDB). Both appliers read them with the ChangeReader (that cost is in both), into their own
empty database; the tables are created by the sink's DDL converter in both, so only the applying
differs.

  ours   PostgresSink: COPY into a staging table then one set-based statement per run of changes,
         commit_every=1000 source transactions, the checkpoint row in each target transaction
  peer   a plain psycopg applier: ``executemany`` of one INSERT / UPDATE-by-key / DELETE-by-key per
         row, committing every 1000 source transactions (what most hand-written appliers do)

pg_chameleon (PyPI ``pg-chameleon``, the issue's named peer) is not the peer here, for what it did
when tried (2.0.21, from PyPI, against the lab MariaDB and a pg_lab cluster): it refuses root
("pg_chameleon cannot be run as root"); run as the ``postgres`` user, ``create_replica_schema``,
``add_source`` and ``init_replica`` succeed on an empty source database, but after the workload's
phase (c) (CREATE TABLE bulk, then the row changes) its ``start_replica`` daemons ran 17 minutes
without storing a single batch (``sch_chameleon.t_replica_batch`` empty): it replicates the tables
it copied at ``init_replica``, and a table created later was not picked up in that setup. It also
needs a live server (it reads the binlog through replication, not files). So the peer is the
executemany applier, as the issue allows.

CPU: ours is this process's user+sys time (getrusage) during the apply; PostgreSQL's is the
user+sys time of the connection's backend process (/proc/PID/stat utime+stime, clock ticks), read
before and after. Wall time and rows/s are printed; the ratio is the peer's wall time over ours.
No assertion: numbers only.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import psycopg

from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.changes.records import RowBatch, RowChange, SchemaChange, TransactionMark
from mysqlddl.mapping import Mapping
from mysqlddl.sinks.base import Sink, write_records
from mysqlddl.sinks.pg import ddl as D
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink

HERE = Path(__file__).resolve().parent
TICK = os.sysconf("SC_CLK_TCK")


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_benchpg", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK       # utime, stime (proc(5) fields 14, 15)


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class ExecuteManyApplier(Sink):
    """The peer: one statement per row through executemany, tables created by our DDL converter."""

    def __init__(self, uri: str, commit_every: int = 1000):
        self.uri, self.commit_every = uri, commit_every
        self.tables: dict[tuple[str, str], D.TargetTable] = {}
        self.pending: list[tuple[str, list]] = []
        self.txns = 0
        self.rows = 0

    def open(self):
        self.conn = psycopg.connect(self.uri)
        self.conn.execute("SET TimeZone = 'UTC'")
        self.backend = self.conn.execute("SELECT pg_backend_pid()").fetchone()[0]

    def write(self, rec):
        if isinstance(rec, SchemaChange):
            self._flush()
            for tid, t in rec.record.tables:
                if t is not None:
                    tt = D.resolve(t, _MAPPING, _OPTS)
                    for sql in D.create_table(tt, _OPTS, []):
                        self.conn.execute(sql)
                    self.tables[(tid.database, tid.name)] = tt
            return
        if isinstance(rec, TransactionMark):
            return
        changes = rec.changes() if isinstance(rec, RowBatch) else [rec] if isinstance(rec, RowChange) else []
        for ch in changes:
            tt = self.tables[(ch.source.db, ch.source.table)]
            cols = list(tt.columns)
            if ch.op == "c":
                sql = (f"INSERT INTO {tt.qualified} ({', '.join(D.qi(c.name) for c in cols)}) VALUES "
                       f"({', '.join('%s' for _ in cols)})")
                args = [_plain(ch.after.get(c.source.name)) for c in cols]
            elif ch.op == "u":
                sql = (f"UPDATE {tt.qualified} SET {', '.join(f'{D.qi(c.name)} = %s' for c in cols)} WHERE "
                       + " AND ".join(f"{D.qi(k.name)} = %s" for k in tt.key))
                args = [_plain(ch.after.get(c.source.name)) for c in cols] + \
                    [_plain(ch.before.get(k.source.name)) for k in tt.key]
            else:
                sql = f"DELETE FROM {tt.qualified} WHERE " + " AND ".join(f"{D.qi(k.name)} = %s" for k in tt.key)
                args = [_plain(ch.before.get(k.source.name)) for k in tt.key]
            if self.pending and self.pending[-1][0] == sql:
                self.pending[-1][1].append(args)
            else:
                self.pending.append((sql, [args]))
            self.rows += 1

    def _flush(self):
        with self.conn.cursor() as cur:
            for sql, rows in self.pending:
                cur.executemany(sql, rows)
        self.pending.clear()

    def commit(self, position):
        self.txns += 1
        if self.txns % self.commit_every == 0:
            self.flush()

    def flush(self):
        self._flush()
        self.conn.commit()

    def close(self):
        self.flush()
        self.conn.close()


_OPTS = PgOptions()
_MAPPING = Mapping()


def _plain(v):
    return v


def run(label: str, sink, files, backend_of) -> dict:
    reader = ChangeReader(files, ChangeOptions())
    with sink:
        pid = backend_of(sink)
        c0, b0, t0 = self_cpu(), backend_cpu(pid), time.monotonic()
        write_records(reader, sink)
        sink.flush()                # (the last batch, still inside the measurement)
        b1 = backend_cpu(pid)
    wall, ours = time.monotonic() - t0, self_cpu() - c0
    rows = sum(reader.stats.rows.values())
    out = {"label": label, "rows": rows, "wall_s": round(wall, 2), "rows_per_s": round(rows / wall),
           "cpu_ours_s": round(ours, 2), "cpu_postgres_s": round(b1 - b0, 2)}
    print(f"  {label:10} {rows:>9} rows  {wall:7.2f} s wall  {rows / wall:>9.0f} rows/s  CPU us {ours:6.2f} s"
          f"  PostgreSQL {b1 - b0:6.2f} s", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mysqlddl" / "bench-changes")
    ap.add_argument("--no-peer", action="store_true", help="measure the sink only")
    a = ap.parse_args(argv)
    files = _tool("workload").cached_binlogs(a.cache, scale=a.scale, phases="c", bulk_only=True)
    pg_lab = _tool("pg_lab")
    srv = pg_lab.PgServer(Path(tempfile.mkdtemp(prefix="pg-bench-"))).start()
    try:
        version = srv.psql("SHOW server_version").strip()
        print(f"bulk set at scale {a.scale:g}: {len(files)} binlog files; PostgreSQL {version}")
        ours = run("ours", PostgresSink(srv.create_database("bench_ours"), PgOptions(commit_every=1000)), files,
                   lambda s: s.conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        if not a.no_peer:
            peer = run("executemany", ExecuteManyApplier(srv.create_database("bench_peer")), files,
                       lambda s: s.backend)
            cpu = {r["label"]: r["cpu_ours_s"] + r["cpu_postgres_s"] for r in (ours, peer)}
            print(f"  ratio (peer wall / ours): {peer['wall_s'] / ours['wall_s']:.1f}x   "
                  f"(peer CPU total / ours: {cpu['executemany'] / cpu['ours']:.1f}x)")
            with psycopg.connect(srv.uri_for("bench_ours")) as c1, psycopg.connect(srv.uri_for("bench_peer")) as c2:
                q = "SELECT count(*), sum(k), sum(qty) FROM lab.bulk"
                same = c1.execute(q).fetchone() == c2.execute(q).fetchone()
            print(f"  both targets hold the same bulk table: {same}")
    finally:
        srv.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
