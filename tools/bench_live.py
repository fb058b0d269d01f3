#!/usr/bin/env python3
"""CPU time of streaming a server's binlog (``mysqlddl changes mysql://...``) against ``mysqlddl
changes`` on the same server's binlog files, and against python-mysql-replication
(PyPI ``mysql-replication``) streaming the same events from the same server, in the same run, with
the ratios. Issue #20's targets: streaming <= 1.1x the files; python-mysql-replication >= 30x
streaming.

    python tools/bench_live.py --scale 0.02              # a quick check (~20k row changes)
    python tools/bench_live.py --scale 1 --runs 3        # the issue's 1M-row-change lab set

A private MariaDB (tools/mariadb_lab.py) runs the lab workload's bulk phase (tools/workload.py
phase c) at --scale, then its binlogs are flushed so the server and the files hold the same events.
Each contender runs as a child process writing to /dev/null; its CPU is user + system from
getrusage(RUSAGE_CHILDREN) around that child alone (the server's own CPU is not counted, for any
of them). With --runs N, the runs alternate and the minimum counts.

Every contender runs with compiled bytecode, as an installed package does: pip writes the peer's
.pyc files at install time, while an editable mysqlddl under PYTHONDONTWRITEBYTECODE (set in some
shells and CI images) would recompile its ~170 modules in every run (~0.5 s of CPU, charged to
files and stream alike, none of it to the peer). The children get PYTHONPYCACHEPREFIX (a temporary
directory) without PYTHONDONTWRITEBYTECODE, and mysqlddl is compiled into it once before the runs.

- files: ``python -m mysqlddl changes FILES... -o /dev/null``
- stream: ``python -m mysqlddl changes mysql://bench@127.0.0.1:PORT/?server-id=N -o /dev/null``
- pymysqlreplication: BinLogStreamReader (non-blocking, MariaDB mode, the same start file), every
  rows event's ``rows`` decoded and written as JSON (its equivalent of the change records), for at
  most --peer-cap seconds (it runs hundreds of times slower): then its CPU per row change is
  scaled to the whole set, and the line says how many it did; the
  same events skipped as ours skip none; ignore_decode_errors (it decodes every string as UTF-8,
  and the lab table has latin1 columns). Not installed: that column says so.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASSWORD = "bench-pw"

PYMYSQLREPLICATION = r"""
import json, os, sys, time
from pymysqlreplication import BinLogStreamReader
from pymysqlreplication.row_event import WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent
port, first, cap, want = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
settings = {"host": "127.0.0.1", "port": port, "user": "bench", "passwd": os.environ["MYSQL_PWD"]}
s = BinLogStreamReader(connection_settings=settings, server_id=9902, blocking=False, resume_stream=True,
                       log_file=first, log_pos=4, is_mariadb=True,
                       only_events=[WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent], ignore_decode_errors=True)
n = 0
deadline = time.monotonic() + cap
with open(os.devnull, "w") as out:
    for ev in s:
        for row in ev.rows:
            out.write(json.dumps(row, default=str) + "\n")
            n += 1
        if n >= want or time.monotonic() > deadline:
            break
s.close()
print(n, file=sys.stderr)
"""


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_bench_live", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _count(v) -> int:
    """Row changes in the workload's expected_row_changes ({phase: {kind: n}})."""
    return v if isinstance(v, int) else sum(_count(x) for x in v.values())


def child_cpu(argv, env=None) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), r.stderr


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.02)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--peer-cap", type=float, default=60.0,
                    help="seconds python-mysql-replication may run; its CPU is then scaled per row change")
    a = ap.parse_args(argv)
    lab, workload = _tool("mariadb_lab"), _tool("workload")
    # a SIGTERM (a timeout) still stops the private server: finally blocks run on SystemExit
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not lab.mariadbd_path():
        raise SystemExit(lab.INSTALL_HINT)
    srv = lab.MariaDBServer(Path(tempfile.mkdtemp(prefix="mdb-bench-live-"))).start()
    pyc = tempfile.mkdtemp(prefix="bench-live-pyc-")
    try:
        srv.execute(f"CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                    "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'bench'@'127.0.0.1'")
        print(f"writing the lab bulk set at scale {a.scale:g} ...", flush=True)
        truth = workload.run(srv, phases="c", scale=a.scale, log=lambda m: None)
        srv.flush_logs()
        first = truth.files[0]
        names = [p.name for p in srv.binlog_files()]
        files = [str(srv.binlog_dir / n) for n in names[names.index(first):]]
        size = sum(os.path.getsize(f) for f in files)
        env = dict(os.environ, MYSQL_PWD=PASSWORD, PYTHONPYCACHEPREFIX=pyc)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # the package's directory, compiled once outside the timed runs (see the docstring)
        package = Path(importlib.util.find_spec("mysqlddl").origin).parent
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        py = [sys.executable, "-m", "mysqlddl", "changes"]
        uri = f"mysql://bench@127.0.0.1:{srv.port}/?server-id=9901"
        contenders = {
            "files": py + files + ["-o", os.devnull, "--summary", "none"],
            "stream": py + [uri, "--start-position", f"{first}:4", "-o", os.devnull, "--summary", "none"],
        }
        if importlib.util.find_spec("pymysqlreplication") is not None:
            contenders["pymysqlreplication"] = [sys.executable, "-c", PYMYSQLREPLICATION, str(srv.port), first,
                                                str(a.peer_cap), str(_count(truth.expected_row_changes))]
        best: dict[str, float] = {}
        total = _count(truth.expected_row_changes)
        for run in range(a.runs):
            for name, cmd in contenders.items():
                cpu, err = child_cpu(cmd, env)
                note = ""
                if name == "pymysqlreplication":
                    done = int(err.strip().splitlines()[-1])
                    if 0 < done < total:
                        # capped: its CPU per row change, times all of them
                        note = f" ({done} of {total} row changes in the cap, scaled)"
                        cpu = cpu * total / done
                best[name] = min(best.get(name, cpu), cpu)
                print(f"  run {run + 1} {name:<20} {cpu:8.2f} s CPU{note}", flush=True)
        print(f"\n{len(files)} binlog files, {size / 1e6:.1f} MB, {total} row changes "
              f"(scale {a.scale:g}, min of {a.runs} run(s))")
        for name, cpu in best.items():
            print(f"  {name:<20} {cpu:8.2f} s CPU")
        print(f"  stream / files               {best['stream'] / best['files']:6.2f}x   (target <= 1.1)")
        if "pymysqlreplication" in best:
            print(f"  pymysqlreplication / stream  {best['pymysqlreplication'] / best['stream']:6.1f}x   "
                  "(target >= 30)")
        else:
            print("  pymysqlreplication: not installed (pip install mysql-replication)")
    finally:
        srv.destroy()
        shutil.rmtree(pyc, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
