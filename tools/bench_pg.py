#!/usr/bin/env python3
"""The PostgreSQL sink's speed: the lab bulk set (about 1M row changes at --scale 1) applied to a
private PostgreSQL (tools/pg_lab.py), rows per second and the CPU split between us and PostgreSQL,
against a peer applying the same changes into the same server in the same run, with the ratio.

    python tools/bench_pg.py --scale 0.05        # a quick check (about 50k row changes)
    python tools/bench_pg.py --scale 1           # the issue's measurement (about 1M)
    python tools/bench_pg.py --scale 0.05 --peer executemany --peer pg_chameleon --pgc-venv /opt/venv-pgc

The bulk set is phase (c) of tools/workload.py, the same cached binlog files as
tools/bench_changes.py (~/.cache/mysqlddl/bench-changes/scale-S/, written on first use by a private
MariaDB). Ours and the executemany applier read them with the ChangeReader (that cost is in both),
into their own empty database; the tables are created by the sink's DDL converter in both, so only
the applying differs.

  ours   PostgresSink: COPY into a staging table then one set-based statement per run of changes,
         commit_every=1000 source transactions, the checkpoint row in each target transaction
  executemany  (the default peer) a plain psycopg applier: ``executemany`` of one INSERT /
         UPDATE-by-key / DELETE-by-key per row, committing every 1000 source transactions (what
         most hand-written appliers do)

  pg_chameleon  (``--peer pg_chameleon``; PyPI ``pg-chameleon``, the issue's named peer, in a venv of
         its own given by ``--pgc-venv DIR`` or ``$PGC_VENV``, see tools/bench_pg_chameleon.py for how
         to install it and what it needs). Then the input is not the cache: a private MariaDB
         (binlog_row_metadata=FULL, which its mysql-replication 1.0 needs) runs phase (c) live;
         pg_chameleon's ``init_replica`` snapshot is taken right after the phase's CREATE TABLE, and
         after the phase its ``start_replica`` replays the row changes from that point; its time is
         from start until the target's count(*), sum(k), sum(qty) equal the source's. Ours and
         executemany read the same server's binlog files (the CREATE TABLE and the same changes).
         If pg_chameleon fails, its own error line is printed and the others still run.

CPU: ours is this process's user+sys time (getrusage) during the apply; PostgreSQL's is the
user+sys time of the connection's backend process (/proc/PID/stat utime+stime, clock ticks), read
before and after. pg_chameleon's is the sum over its processes (main, read and replay daemons) and
over its PostgreSQL backends (pg_stat_activity of its database), each as last sampled every 0.25 s;
the MariaDB server's work in serving its binlog stream is counted for no one. Wall time and rows/s
are printed; the ratio is the peer's wall time over ours. No assertion: numbers only.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
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
from mysqlddl.sources import open_source

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
    reader = ChangeReader(open_source(files), ChangeOptions())
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


def live_bulk(mdb, scale: float, snapshot) -> tuple[list[Path], dict]:
    """Phase (c) on ``mdb`` (a new lab MariaDB), ``snapshot()`` called right after its CREATE TABLE
    (where pg_chameleon's init_replica must run, see tools/bench_pg_chameleon.py). Returns the
    phase's binlog files and the expected row changes."""
    workload = _tool("workload")
    import pymysql

    # the database exists before anything reads the binlog: pg_chameleon's parser cannot take a
    # binlogged CREATE DATABASE
    mdb.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE lab CHARACTER SET utf8mb4")

    class Snapshotting(workload.Workload):
        def ddl(self, sql, note=None):
            rec = super().ddl(sql, note)
            if sql.startswith("CREATE TABLE bulk"):
                snapshot()
            return rec

    conn = pymysql.connect(unix_socket=mdb.socket, user="root", charset="utf8mb4", autocommit=True,
                           max_allowed_packet=1 << 30)
    try:
        wl = Snapshotting(conn, binlog_dir=str(mdb.binlog_dir), socket=mdb.socket, scale=scale, log=lambda m: None)
        # what Workload.run sets before its phases, without its binlogged CREATE DATABASE
        wl.q("SET SESSION time_zone = '+00:00'")
        wl.q("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'")
        wl.tick(0)
        wl.phase_c()
    finally:
        conn.close()
    return [mdb.binlog_dir / n for n in wl.bulk_files], wl.expected


CHECK = "SELECT count(*), sum(k), sum(qty) FROM lab.bulk"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mysqlddl" / "bench-changes")
    ap.add_argument("--peer", action="append", choices=("executemany", "pg_chameleon"),
                    help="peers to measure (repeatable; default: executemany)")
    ap.add_argument("--no-peer", action="store_true", help="measure the sink only")
    ap.add_argument("--pgc-venv", type=Path, default=os.environ.get("PGC_VENV"),
                    help="the venv holding pg-chameleon (default: $PGC_VENV)")
    ap.add_argument("--pgc-user", default="pgcbench", help="the non-root user pg_chameleon runs as, when run as root")
    a = ap.parse_args(argv)
    peers = [] if a.no_peer else (a.peer or ["executemany"])
    pg_lab = _tool("pg_lab")
    srv = pg_lab.PgServer(Path(tempfile.mkdtemp(prefix="pg-bench-"))).start()
    mdb, pgc, pgc_error, results = None, None, None, {}
    try:
        version = srv.psql("SHOW server_version").strip()
        if "pg_chameleon" in peers:
            pgcmod = _tool("bench_pg_chameleon")
            mdb = _tool("mariadb_lab").MariaDBServer(Path(tempfile.mkdtemp(prefix="mdb-pgc-")),
                                                     row_metadata="FULL").start()
            try:
                if a.pgc_venv is None:
                    raise pgcmod.ChameleonError("no pg_chameleon venv: give --pgc-venv DIR or $PGC_VENV "
                                                "(see tools/bench_pg_chameleon.py)")
                pgc = pgcmod.Chameleon(a.pgc_venv, mdb, srv, user=a.pgc_user)
            except pgcmod.ChameleonError as e:
                pgc_error = str(e)

            def snapshot():
                nonlocal pgc_error
                if pgc_error is None:
                    try:
                        pgc.setup()
                        pgc.snapshot()
                    except (pgcmod.ChameleonError, subprocess.SubprocessError, OSError) as e:
                        pgc_error = str(e)

            files, expected = live_bulk(mdb, a.scale, snapshot)
            source = f"phase (c) run live on MariaDB {mdb.version}"
        else:
            files = _tool("workload").cached_binlogs(a.cache, scale=a.scale, phases="c", bulk_only=True)
            source = "cached binlogs"
        print(f"bulk set at scale {a.scale:g}: {len(files)} binlog files ({source}); PostgreSQL {version}")
        results["ours"] = run("ours", PostgresSink(srv.create_database("bench_ours"), PgOptions(commit_every=1000)),
                              files, lambda s: s.conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        if "executemany" in peers:
            results["executemany"] = run("executemany", ExecuteManyApplier(srv.create_database("bench_peer")), files,
                                         lambda s: s.backend)
        if "pg_chameleon" in peers:
            if pgc_error is None:
                rows = sum(sum(v.values()) for v in expected.values())
                want = tuple(mdb.query(CHECK)[0])
                try:
                    r = pgc.replay(want, CHECK)
                except pgcmod.ChameleonError as e:
                    pgc_error = str(e)
                else:
                    results["pg_chameleon"] = {"label": "pg_chameleon", "rows": rows, "wall_s": round(r["wall_s"], 2),
                                               "rows_per_s": round(rows / r["wall_s"]),
                                               "cpu_ours_s": round(r["cpu_procs_s"], 2),
                                               "cpu_postgres_s": round(r["cpu_postgres_s"], 2)}
                    print(f"  {'pg_chameleon':10} {rows:>9} rows  {r['wall_s']:7.2f} s wall  "
                          f"{rows / r['wall_s']:>9.0f} rows/s  CPU it  {r['cpu_procs_s']:6.2f} s"
                          f"  PostgreSQL {r['cpu_postgres_s']:6.2f} s  ({r['procs']} processes, "
                          f"{r['backends']} backends)", flush=True)
            if pgc_error is not None:
                print(f"  pg_chameleon FAILED: {pgc_error}", flush=True)
        ours = results["ours"]
        for name, peer in results.items():
            if name == "ours":
                continue
            cpu_peer = peer["cpu_ours_s"] + peer["cpu_postgres_s"]
            cpu_ours = ours["cpu_ours_s"] + ours["cpu_postgres_s"]
            print(f"  ratio {name} / ours: wall {peer['wall_s'] / ours['wall_s']:.1f}x   "
                  f"CPU total {cpu_peer / cpu_ours:.1f}x")
        targets = {"ours": "bench_ours", "executemany": "bench_peer", "pg_chameleon": "bench_pgc"}
        sums = {}
        for name in results:
            with psycopg.connect(srv.uri_for(targets[name])) as c:
                sums[name] = tuple(c.execute(CHECK).fetchone())
        if mdb is not None:
            sums["source"] = tuple(mdb.query(CHECK)[0])
        if len(sums) > 1:
            print(f"  count, sum(k), sum(qty) equal in {', '.join(sums)}: {len(set(sums.values())) == 1}")
    finally:
        srv.destroy()
        if mdb is not None:
            mdb.destroy()
    return 1 if pgc_error else 0


if __name__ == "__main__":
    sys.exit(main())
