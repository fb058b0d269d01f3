#!/usr/bin/env python3
"""The Spark job's speed on the lab binlogs, against itself and against the sequential CLI, with the
issue's targets (issue 7):

- stage 2 (decode the byte ranges and write Parquet) at ``local[2]`` is >= 1.7x faster than at
  ``local[1]``;
- the whole job at ``local[1]`` takes at most 1.5x the single-process ``mysqlddl changes``.

    python tools/bench_spark.py --scale 0.05          # a quick check that it runs (about 28 MB)
    python tools/bench_spark.py --scale 3 --runs 3    # the measurement: about 1.1 GB of binlogs

Input: every phase of tools/workload.py (types, DDL evolution with XA, the bulk set, one big
transaction) at ``--scale``, written once by a private MariaDB (tools/mariadb_lab.py) and cached
under ``--cache`` (default /tmp/mysqlddl-bench-spark/scale-S/: the binlog files and a manifest);
later runs reuse it. At --scale 1 the bulk set alone is about 1M row changes; the set grows by
about 350 MB per unit of scale (measured at 0.05 and 0.25), so --scale 3 passes 1 GB. The targets
are stated for >= 1 GB: a smaller input is measured and labelled as such.

Each run is a child process from a neutral directory with this interpreter (so the installed
package is what runs, compiled core unless MYSQLDDL_PUREPYTHON=1), timed by wall clock, the minimum
of ``--runs``:

- ``cli``: ``mysqlddl changes DIR -o FILE`` (JSON Lines to a file on the same disk as the Parquet);
- ``spark local[1]`` and ``spark local[2]``: ``mysqlddl spark DIR --out OUT --master local[N]``.
  Stage 2 is the job's own ``seconds.decode_write`` (summary.json); the job's total also counts
  the pre-scan and the history, and the process's wall time also the JVM's start (during which
  the driver pre-scans what files it can: summary.json's ``prescanned_by_driver``; the history's
  seconds then include the Python workers' start, overlapping it). Before the runs,
  one run on the smallest file makes sure the JVM's class-data archive exists (the first run on an
  installation writes it; its time is printed): the measured runs start from it, as every run
  after a user's first does.

The row-change counts of the three runs must agree, or the tool fails. Run it on a quiet machine:
the ratios compare wall clocks. Spark's fixed costs (the JVM's start, each Python worker's imports
and the history load, the JVM's warm-up) are paid once per run and dominate small inputs: at
--scale 0.05 the ratios say nothing about the targets.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GB = 1 << 30


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_bench_spark", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def lab_set(scale: float, cache: Path, log=print) -> Path:
    """The directory of the workload's binlog files at ``scale`` (every phase), written on first use."""
    return _tool("workload").cached_binlogs(cache, scale=scale, log=log)[0].parent


def _run(cmd: list[str], cwd: Path) -> tuple[float, str]:
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd, text=True)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:5])} ... failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return wall, proc.stderr


def run_cli(d: Path, work: Path) -> dict:
    out = work / "changes.jsonl"
    wall, err = _run([sys.executable, "-m", "mysqlddl", "changes", str(d), "-o", str(out), "--summary", "json"],
                     work)
    stats = json.loads(err.strip().splitlines()[-1])
    out.unlink()
    return {"wall": wall, "rows": stats["dml_rows"]}


def run_spark(d: Path, work: Path, master: str, range_size: str) -> dict:
    out = work / ("spark-" + "".join(ch for ch in master if ch.isalnum()))
    wall, _ = _run([sys.executable, "-m", "mysqlddl", "spark", str(d), "--out", str(out), "--master", master,
                    "--range-size", range_size], work)
    s = json.loads((out / "summary.json").read_text())
    shutil.rmtree(out)
    return {"wall": wall, "job": s["seconds"]["total"], "stage1": s["seconds"]["prescan"],
            "history": s["seconds"]["history"], "stage2": s["seconds"]["decode_write"], "rows": s["dml_rows"],
            "ranges": s["ranges"], "tasks": sum(s.get("range_seconds", ())),
            "driver_files": f"{s.get('prescanned_by_driver', 0)}/{s['files']}"}


def jvm_archive(small: Path, work: Path) -> str:
    """The command keeps its embedded JVM's class-data archive between runs (mysqlddl.spark.job.
    context(cds=True)); the first run on an installation writes it, and is slower for it. Runs
    the command once on the smallest file, so the measured runs all start as a user's second run
    does; says what that run did."""
    out = work / "jvm-archive"
    wall, err = _run([sys.executable, "-m", "mysqlddl", "spark", str(small), "--out", str(out),
                      "--master", "local[1]"], work)
    shutil.rmtree(out)
    if "class-data archive" in err:
        return f"JVM class-data archive: written by a first run on one small file in {wall:.2f} s (once per install)"
    return f"JVM class-data archive: already there, or off by $MYSQLDDL_SPARK_CDS (one small file: {wall:.2f} s)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=3.0, help="workload scale (3: about 1.1 GB of binlogs)")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("MYSQLDDL_BENCH_SPARK",
                                                                       "/tmp/mysqlddl-bench-spark")))
    ap.add_argument("--range-size", default="64M", help="the job's --range-size (default 64M)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each case; the minimum counts")
    a = ap.parse_args(argv)

    d = lab_set(a.scale, a.cache, log=lambda m: print(m, file=sys.stderr, flush=True))
    files = json.loads((d / "manifest.json").read_text())["files"]
    size = sum((d / f).stat().st_size for f in files)
    binlogs = d / "binlogs"
    binlogs.mkdir(exist_ok=True)
    for f in files:                      # the job reads a directory: the binlogs without the manifest
        if not (binlogs / f).exists():
            os.link(d / f, binlogs / f)
    small = "" if size >= GB else " -- below 1 GB: the targets are stated for >= 1 GB"
    print(f"input: {len(files)} files, {size / 1e6:.1f} MB (scale {a.scale:g}){small}")

    work = Path(tempfile.mkdtemp(prefix="bench-spark-", dir=a.cache))
    try:
        print(jvm_archive(d / min(files, key=lambda f: (d / f).stat().st_size), work), flush=True)
        best: dict[str, dict] = {}
        runs: list[dict[str, dict]] = []
        for i in range(a.runs):
            runs.append({})
            for name, fn in (("cli", lambda: run_cli(binlogs, work)),
                             ("local[1]", lambda: run_spark(binlogs, work, "local[1]", a.range_size)),
                             ("local[2]", lambda: run_spark(binlogs, work, "local[2]", a.range_size))):
                r = fn()
                print(f"  run {i + 1} {name:9s} " + " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                                                          for k, v in r.items()), file=sys.stderr, flush=True)
                runs[-1][name] = r
                key = "stage2" if name == "local[2]" else "wall"
                if name not in best or r[key] < best[name][key]:
                    best[name] = r
    finally:
        shutil.rmtree(work, ignore_errors=True)

    cli, one, two = best["cli"], best["local[1]"], best["local[2]"]
    if not cli["rows"] == one["rows"] == two["rows"]:
        raise SystemExit(f"row-change counts disagree: cli {cli['rows']}, local[1] {one['rows']}, "
                         f"local[2] {two['rows']}")
    mb = size / 1e6
    print(f"row changes: {cli['rows']}; ranges: {one['ranges']} of {a.range_size}")
    print(f"{'case':22s} {'wall s':>8s} {'MB/s':>8s}")
    print(f"{'cli changes':22s} {cli['wall']:8.2f} {mb / cli['wall']:8.1f}")
    for name, r in (("spark local[1]", one), ("spark local[2]", two)):
        print(f"{name:22s} {r['wall']:8.2f} {mb / r['wall']:8.1f}   job {r['job']:.2f} = pre-scan {r['stage1']:.2f}"
              f" + history {r['history']:.2f} + stage 2 {r['stage2']:.2f} (task seconds {r['tasks']:.2f};"
              f" files pre-scanned by the driver {r['driver_files']})")
    speedup = one["stage2"] / two["stage2"]
    vs_cli = one["wall"] / cli["wall"]
    vs_cli_job = one["job"] / cli["wall"]
    print(f"stage 2 local[1] / local[2]: {speedup:.2f}x  (target >= 1.7x: {'met' if speedup >= 1.7 else 'NOT met'})")
    print(f"local[1] total / cli: {vs_cli:.2f}x wall, {vs_cli_job:.2f}x without the JVM start  "
          f"(target <= 1.5x: {'met' if vs_cli <= 1.5 else 'NOT met'})")
    # the targets above compare the best runs; each run's own (its three cases ran one after the
    # other) show how far this machine's moments move them
    print("per run: stage 2 local[1] / local[2] " + ", ".join(f"{r['local[1]']['stage2'] / r['local[2]']['stage2']:.2f}"
                                                               for r in runs)
          + "; local[1] total / cli " + ", ".join(f"{r['local[1]']['wall'] / r['cli']['wall']:.2f}" for r in runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
