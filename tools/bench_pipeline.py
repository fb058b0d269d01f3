#!/usr/bin/env python3
"""CPU time of the checkpointed pipeline (`mysqlddl run --once`, JSON Lines segments, SQLite store)
against a plain `mysqlddl changes` on the same files, measured in the same run, with the ratios.
The issue's target: with a checkpoint every 1,000 transactions, ratio <= 1.15; with a checkpoint
after every transaction the cost is reported (it is bounded by the fsyncs: the segment's and the
store's WAL at each commit).

    python tools/bench_pipeline.py --scale 0.05          # a quick check (about 50k row changes)
    python tools/bench_pipeline.py --scale 1 --runs 3    # the full measurement (about 1M)

The input is tools/bench_changes.py's bulk set (phase c of tools/workload.py, cached under --cache,
written on first use by a private MariaDB). Each command runs as a child process; its CPU time is
user + system from getrusage(RUSAGE_CHILDREN) around that child alone; `changes -o` writes its file
and the pipeline its segments (its store beside them) in a fresh temporary directory each run; the
pipeline runs with the default sequence numbering (by place in the segment) and again with
``sequence = "line"`` ("seq" written in every line). With
--runs N each is run N times, alternating, and the minimum counts.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_benchp", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def plain_run(files: list[Path], neutral: str, cpu_of) -> tuple[float, float]:
    """(CPU s, wall s) of `mysqlddl changes FILES -o OUT` (a file, as the pipeline's segments are)."""
    work = Path(tempfile.mkdtemp(prefix="bench-pipeline-plain-"))
    try:
        return cpu_of([sys.executable, "-m", "mysqlddl", "changes", *map(str, files), "-o", str(work / "out.jsonl"),
                       "--summary", "none"], cwd=neutral)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def pipeline_run(files_dir: Path, every: int, neutral: str, cpu_of, sequence: str = "segment"):
    """(CPU s, wall s, checkpoints written) of one `mysqlddl run --once` from scratch."""
    work = Path(tempfile.mkdtemp(prefix="bench-pipeline-"))
    try:
        toml = work / "p.toml"
        toml.write_text(f'[source]\nuri = "file://{files_dir}"\n[sink]\nuri = "jsonl://{work}/out"\n'
                        f'sequence = "{sequence}"\n'
                        f'[checkpoint]\nuri = "sqlite://{work}/state.db"\nevery_transactions = {every}\n'
                        # (count-based only: the measurement is "every N transactions")
                        "every_ms = 100000000\n[stats]\nprogress = \"never\"\n")
        cpu, wall = cpu_of([sys.executable, "-m", "mysqlddl", "run", str(toml), "--once", "--summary", "none"],
                           cwd=neutral)
        db = sqlite3.connect(work / "state.db")
        batches = json.loads(db.execute("SELECT data FROM checkpoint").fetchone()[0])["stats"]["batches"]
        db.close()
        return cpu, wall, batches
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="bulk size (1.0: about 1M row changes)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mysqlddl" / "bench-changes")
    ap.add_argument("--runs", type=int, default=1, help="runs of each; the minimum counts")
    ap.add_argument("--no-per-transaction", action="store_true", help="skip the checkpoint-per-transaction run")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a = ap.parse_args(argv)
    bench = _tool("bench_changes")
    files = bench.bulk_set(a.scale, a.cache, log=lambda m: print(m, file=sys.stderr))
    files_dir = files[0].parent
    neutral = tempfile.mkdtemp(prefix="bench-pipeline-cwd-")     # not the checkout (tests/conftest run_cli)
    plain, p1000, pline, p1 = [], [], [], []
    for _ in range(a.runs):
        plain.append(plain_run(files, neutral, bench.cpu_of))
        p1000.append(pipeline_run(files_dir, 1000, neutral, bench.cpu_of))
        pline.append(pipeline_run(files_dir, 1000, neutral, bench.cpu_of, sequence="line"))
        if not a.no_per_transaction:
            p1.append(pipeline_run(files_dir, 1, neutral, bench.cpu_of))
    c_plain = min(t[0] for t in plain)
    c_1000 = min(t[0] for t in p1000)
    c_line = min(t[0] for t in pline)
    res = {"scale": a.scale, "files": len(files), "bytes": sum(f.stat().st_size for f in files),
           "changes_cpu_s": round(c_plain, 3), "pipeline_1000_cpu_s": round(c_1000, 3),
           "ratio_1000": round(c_1000 / c_plain, 3), "checkpoints_1000": p1000[0][2],
           "pipeline_1000_line_seq_cpu_s": round(c_line, 3), "ratio_1000_line_seq": round(c_line / c_plain, 3),
           "changes_wall_s": round(min(t[1] for t in plain), 3),
           "pipeline_1000_wall_s": round(min(t[1] for t in p1000), 3)}
    if p1:
        c_1 = min(t[0] for t in p1)
        w_1 = min(t[1] for t in p1)
        res.update(pipeline_1_cpu_s=round(c_1, 3), ratio_1=round(c_1 / c_plain, 3), checkpoints_1=p1[0][2],
                   pipeline_1_wall_s=round(w_1, 3), ratio_1_wall=round(w_1 / res["changes_wall_s"], 3),
                   checkpoints_per_s=round(p1[0][2] / w_1, 1))
    if a.json:
        print(json.dumps(res, sort_keys=True))
        return 0
    print(f"bulk set scale {a.scale:g}: {res['files']} files, {res['bytes'] / 1e6:.1f} MB")
    print(f"  mysqlddl changes -o FILE            CPU {c_plain:7.2f} s  wall {res['changes_wall_s']:7.2f} s")
    print(f"  pipeline, checkpoint every 1000     CPU {c_1000:7.2f} s  wall {res['pipeline_1000_wall_s']:7.2f} s  "
          f"({res['checkpoints_1000']} checkpoints)  ratio {res['ratio_1000']:.3f} (target <= 1.15)")
    print(f"  the same, \"seq\" in every line      CPU {c_line:7.2f} s  ratio {res['ratio_1000_line_seq']:.3f}")
    if p1:
        print(f"  pipeline, checkpoint every txn      CPU {res['pipeline_1_cpu_s']:7.2f} s  wall "
              f"{res['pipeline_1_wall_s']:7.2f} s  ({res['checkpoints_1']} checkpoints, "
              f"{res['checkpoints_per_s']}/s)  CPU ratio {res['ratio_1']:.3f}, wall ratio {res['ratio_1_wall']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
