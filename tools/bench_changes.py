#!/usr/bin/env python3
"""CPU time of `mysqlddl changes` (JSON Lines) against `mariadb-binlog --base64-output=decode-rows -v`
on the lab bulk set, measured in the same run, with the ratio. The issue's target: ratio <= 1.

    python tools/bench_changes.py --scale 0.05            # a quick check (about 50k row changes)
    python tools/bench_changes.py --scale 1 --runs 3      # the full measurement (about 1M)

The bulk set is phase (c) of tools/workload.py (500k INSERT + 300k UPDATE + 200k DELETE row changes
of an 11-column table at --scale 1, in binlog files of their own), written once per scale by a
private MariaDB (tools/mariadb_lab.py) and cached under --cache (default
~/.cache/mysqlddl/bench-changes/scale-S/: the files and a manifest); later runs reuse it.

Each tool runs as a child process writing to /dev/null; its CPU time is user + system from
getrusage(RUSAGE_CHILDREN) around that child alone. With --runs N each is run N times, alternating,
and the minimum counts (the least disturbed run). `mysqlddl changes` runs from a neutral directory
with this interpreter, so it is the installed package (compiled core unless MYSQLDDL_PUREPYTHON=1).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_bench", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def bulk_set(scale: float, cache: Path, log=print) -> list[Path]:
    """The bulk set's binlog files for ``scale`` (tools/workload.py --phases c), written on first use."""
    return _tool("workload").cached_binlogs(cache, scale=scale, phases="c", bulk_only=True, log=log)


def cpu_of(cmd: list[str], cwd: str | None = None, env=None) -> tuple[float, float]:
    """(CPU seconds user+sys, wall seconds) of one child run, output to /dev/null."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        proc = subprocess.run(cmd, stdout=null, stderr=subprocess.PIPE, cwd=cwd, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="bulk size (1.0: about 1M row changes)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mysqlddl" / "bench-changes")
    ap.add_argument("--runs", type=int, default=1, help="runs of each tool; the minimum counts")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a = ap.parse_args(argv)
    files = bulk_set(a.scale, a.cache, log=lambda m: print(m, file=sys.stderr))
    size = sum(f.stat().st_size for f in files)
    exe = shutil.which("mariadb-binlog") or shutil.which("mysqlbinlog")
    if exe is None:
        sys.exit("mariadb-binlog not found (apt-get install mariadb-client)")
    theirs = [exe, "--no-defaults", "--base64-output=decode-rows", "-v", *map(str, files)]
    ours = [sys.executable, "-m", "mysqlddl", "changes", *map(str, files), "--summary", "none"]
    neutral = tempfile.mkdtemp(prefix="bench-changes-")      # not the checkout: see tests/conftest run_cli
    t_theirs, t_ours = [], []
    load_before = os.getloadavg()
    for _ in range(a.runs):
        t_theirs.append(cpu_of(theirs))
        t_ours.append(cpu_of(ours, cwd=neutral))
    shutil.rmtree(neutral, ignore_errors=True)
    impl = subprocess.run([sys.executable, "-m", "mysqlddl", "version"], capture_output=True, text=True,
                          cwd=tempfile.gettempdir()).stdout.strip().splitlines()[-1:]
    mine, other = min(t for t, _ in t_ours), min(t for t, _ in t_theirs)
    result = {"scale": a.scale, "files": len(files), "mbytes": round(size / 1e6, 2), "runs": a.runs,
              "mariadb_binlog_cpu_s": round(other, 3), "mysqlddl_changes_cpu_s": round(mine, 3),
              "ratio": round(mine / other, 3), "mysqlddl_wall_s": round(min(w for _, w in t_ours), 3),
              "implementation": impl[0] if impl else None,
              # the machine may be shared: CPU time is what counts, but a loaded host still disturbs it
              "loadavg_1min": [round(load_before[0], 2), round(os.getloadavg()[0], 2)], "cpus": os.cpu_count()}
    if a.json:
        print(json.dumps(result))
    else:
        print(f"bulk set: scale {a.scale:g}, {len(files)} files, {size / 1e6:.1f} MB ({impl[0] if impl else '?'})")
        print(f"mariadb-binlog --base64-output=decode-rows -v : {other:8.2f} s CPU")
        print(f"mysqlddl changes (JSON Lines)                 : {mine:8.2f} s CPU")
        print(f"ratio mysqlddl / mariadb-binlog               : {mine / other:8.2f}  (target <= 1)")
        print(f"load average (1 min) before / after           : {result['loadavg_1min'][0]:.2f} / "
              f"{result['loadavg_1min'][1]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
