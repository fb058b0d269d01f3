#!/usr/bin/env python3
"""The change reader's cost per transaction, on a stream of many one-row transactions (issue #31:
the reader's Boundary per transaction end and its GTID tracking must not make it slower).

    python tools/bench_transactions.py                         # 20k transactions, 5 runs
    python tools/bench_transactions.py --against /work/wt/base/.venv/bin/python --rounds 5

Input: a private MariaDB (tools/mariadb_lab.py: ROW format, GTIDs as MariaDB always writes them)
runs ``--transactions`` autocommit single-row INSERT / UPDATE / DELETE statements (5:3:2, seeded)
on a five-column table; its binlogs (from the server's first, so the CREATE TABLE is in them and
the rows are typed by the schema) are cached under ``--cache`` (default
/tmp/mysqlddl-bench-transactions/n-N) and reused while they exist.

Two measurements, CPU seconds (the minimum of ``--runs``), per transaction the reader counted:

- ``reader``: ``ChangeReader`` in this process over the files, every record consumed and nothing
  rendered (a RowBatch nobody walked is counted by the reader itself, as it does for any consumer),
  after an untimed pass (the first DDL of a process loads the grammar: not a cost per transaction);
- ``cli``: ``python -m mysqlddl changes FILES -o /dev/null --summary none``, a child process from a
  neutral directory (imports and the JSON rendering included).

It runs under any interpreter of the project, before or after issue #31: the reader of before took
paths, the one after an EventSource (``mysqlddl.sources.open_source(paths)``); which is detected.
``--against PYTHON`` runs this script under this interpreter and under PYTHON in turn, ``--rounds``
times (alternating, so both meet the same drift of a shared machine), and prints both with the ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "mysqlddl-bench-transactions"
TABLE = ("CREATE TABLE bench.items (id INT NOT NULL PRIMARY KEY, qty INT NOT NULL, name VARCHAR(40), "
         "price DECIMAL(10,2), updated DATETIME(3)) ENGINE=InnoDB")


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_txbench", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _workload(conn, n: int, seed: int) -> None:
    """``n`` autocommit statements of one row each: INSERT, UPDATE and DELETE 5:3:2 (a DELETE or
    UPDATE picks a live row; with none yet, an INSERT)."""
    rng = random.Random(seed)
    live: list[int] = []
    next_id = 1
    with conn.cursor() as cur:
        for i in range(n):
            k = rng.randrange(10)
            stamp = f"2024-06-{1 + i % 28:02d} 12:{i % 60:02d}:{(i * 7) % 60:02d}.{i % 1000:03d}"
            if k < 5 or not live:
                cur.execute("INSERT INTO bench.items VALUES (%s, %s, %s, %s, %s)",
                            (next_id, rng.randrange(1000), f"item {next_id}", rng.randrange(100000) / 100, stamp))
                live.append(next_id)
                next_id += 1
            elif k < 8:
                cur.execute("UPDATE bench.items SET qty = qty + 1, updated = %s WHERE id = %s",
                            (stamp, rng.choice(live)))
            else:
                victim = live.pop(rng.randrange(len(live)))
                cur.execute("DELETE FROM bench.items WHERE id = %s", (victim,))


def binlogs(n: int, seed: int, cache: Path, log=print) -> list[Path]:
    """The cached binlog files of ``n`` one-row transactions, written on first use."""
    workload = _tool("workload")

    def write(where: Path) -> tuple[list[str], dict]:
        srv = workload.lab_server("mdb-txb-")
        try:
            t0 = time.monotonic()
            log(f"writing {n} one-row transactions on a lab MariaDB ...")
            srv.execute("CREATE DATABASE bench", TABLE)
            conn = srv.connect()
            try:
                _workload(conn, n, seed)
            finally:
                conn.close()
            srv.flush_logs()
            files = srv.binlog_files()[:-1]         # (the last one, opened by the flush, holds nothing)
            for f in files:
                shutil.copyfile(f, where / f.name)
            log(f"  {len(files)} files in {time.monotonic() - t0:.0f} s, cached in {where}")
            return [f.name for f in files], {"transactions": n, "seed": seed, "server": srv.version,
                                             "secs": round(time.monotonic() - t0, 1)}
        finally:
            srv.destroy()

    return workload.manifest_cache(cache / f"n-{n}-seed-{seed}", write)


def reader_factory():
    """A function of the binlog paths giving a ChangeReader over them: given the paths (before
    issue #31, its ``events=`` parameter says so) or an EventSource opened on them (after). The
    imports are done here, outside the timed passes."""
    from mysqlddl.changes import ChangeOptions, ChangeReader

    if "events" in inspect.signature(ChangeReader).parameters:
        return lambda paths: ChangeReader(paths, ChangeOptions())
    from mysqlddl.sources import open_source

    return lambda paths: ChangeReader(open_source(paths), ChangeOptions())


def reader_cpu(files: list[Path], factory) -> tuple[float, int]:
    """(CPU seconds, transactions) of one ChangeReader pass, every record consumed."""
    paths = [str(f) for f in files]
    t0 = time.process_time()
    reader = factory(paths)
    for _ in reader:
        pass
    return time.process_time() - t0, reader.stats.transactions


def cli_cpu(files: list[Path], cwd: str) -> float:
    """CPU seconds (user + system) of one ``mysqlddl changes`` child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "changes", *map(str, files), "-o", os.devnull,
                           "--summary", "none"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"mysqlddl changes failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(files: list[Path], runs: int, cli: bool) -> dict:
    neutral = tempfile.mkdtemp(prefix="bench-tx-")      # not a checkout: the installed package is imported
    reader, clis, txns = [], [], 0
    factory = reader_factory()
    reader_cpu(files, factory)      # (untimed: a process's first DDL loads the grammar, once)
    try:
        for _ in range(runs):
            secs, txns = reader_cpu(files, factory)
            reader.append(secs)
            if cli:
                clis.append(cli_cpu(files, neutral))
    finally:
        shutil.rmtree(neutral, ignore_errors=True)
    import mysqlddl

    out = {"python": sys.executable, "package": str(Path(mysqlddl.__file__).parent), "transactions": txns,
           "runs": runs, "reader_cpu_s": round(min(reader), 4),
           "reader_us_per_txn": round(min(reader) / max(txns, 1) * 1e6, 2)}
    if cli:
        out["cli_cpu_s"] = round(min(clis), 4)
        out["cli_us_per_txn"] = round(min(clis) / max(txns, 1) * 1e6, 2)
    return out


def _show(r: dict, label: str = "") -> str:
    line = f"{label}reader {r['reader_us_per_txn']:7.2f} us/txn ({r['reader_cpu_s']:.3f} s)"
    if "cli_us_per_txn" in r:
        line += f"   cli {r['cli_us_per_txn']:7.2f} us/txn ({r['cli_cpu_s']:.3f} s)"
    return line


def compare(args, other: str) -> int:
    """This script under this interpreter and ``other`` in turn, ``rounds`` times; the minima."""
    me = ["--transactions", str(args.transactions), "--seed", str(args.seed), "--cache", str(args.cache),
          "--runs", str(args.runs), *(["--no-cli"] if args.no_cli else [])]
    neutral = tempfile.mkdtemp(prefix="bench-tx-")
    results: dict[str, list[dict]] = {sys.executable: [], other: []}
    try:
        for i in range(args.rounds):
            for py in (other, sys.executable) if i % 2 else (sys.executable, other):
                out = subprocess.run([py, str(Path(__file__).resolve()), *me, "--json"], capture_output=True,
                                     text=True, cwd=neutral, check=True).stdout
                r = json.loads(out.strip().splitlines()[-1])
                results[py].append(r)
                print(_show(r, f"round {i + 1} {py:<40} "), flush=True)
    finally:
        shutil.rmtree(neutral, ignore_errors=True)
    best = {}
    for py, rs in results.items():
        best[py] = {k: min(r[k] for r in rs) for k in ("reader_us_per_txn", "cli_us_per_txn") if k in rs[0]}
    mine, theirs = best[sys.executable], best[other]
    n = results[sys.executable][0]["transactions"]
    print(f"best of {args.rounds} rounds x {args.runs} runs ({n} transactions):")
    for k in mine:
        print(f"  {k:<18} this {mine[k]:7.2f}   other {theirs[k]:7.2f}   ratio {mine[k] / theirs[k]:.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--transactions", type=int, default=20_000, help="one-row transactions written")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--runs", type=int, default=5, help="passes of each measurement; the minimum counts")
    ap.add_argument("--no-cli", action="store_true", help="only the in-process reader")
    ap.add_argument("--against", metavar="PYTHON", help="compare with this interpreter's installed mysqlddl")
    ap.add_argument("--rounds", type=int, default=3, help="with --against: alternating rounds")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a = ap.parse_args(argv)
    files = binlogs(a.transactions, a.seed, a.cache, log=lambda m: print(m, file=sys.stderr))
    if a.against:
        return compare(a, a.against)
    r = measure(files, a.runs, not a.no_cli)
    print(json.dumps(r) if a.json else _show(r, f"{r['transactions']} transactions, {r['package']}: "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
