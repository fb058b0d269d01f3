#!/usr/bin/env python3
"""Latency of a followed server: from a transaction's commit to its change event on
``mysqlddl changes mysql://... --follow``'s output. Issue #20's target: p99 < 50 ms at 1,000
single-row transactions per second.

    python tools/bench_latency.py                      # 1,000 commits/s for 25 s
    python tools/bench_latency.py --rate 500 --seconds 10

A private MariaDB (tools/mariadb_lab.py) gets a table ``lat.t (id, seq, committed_ns)``; the
reader, ``python -m mysqlddl changes mysql://bench@127.0.0.1:PORT/?server-id=N --follow`` from
the binlog position before that CREATE TABLE (so the schema comes from the stream), runs as a
child whose stdout is a pipe this process reads line by line. Once the reader has printed the
CREATE TABLE's schema change (it is streaming), a writer child commits single-row transactions
at ``--rate`` per second, paced against a monotonic schedule (it does not catch up in bursts when
late: a late commit is just late, and the achieved rate is printed).

What is measured, per row: ``arrival - committed_ns``, both ``time.time_ns()`` on this machine
(one clock for all the processes). ``committed_ns`` is set by the writer immediately before it
sends the row's autocommit ``INSERT`` (its own transaction: the server commits it at the end of
that statement), so it precedes the commit by the statement's execution (tens of microseconds on
loopback): the measure includes the commit itself and errs high, never low. The server's binlog
header timestamp has one-second resolution, too coarse for this. ``arrival`` is taken when
this process's ``readline`` returns the row's line: it includes the server's dump thread, the
socket, our decoding and rendering, the flush of our output (the CLI flushes its output after each
transaction's END mark when following: mysqlddl/cli/changes.py ``_flush_at_commits``) and the pipe.
Every row must arrive (a missing one fails the run). The report gives p50 / p99 / max, the
achieved commit rate and the writer's schedule lag (if the writer could not keep up on a loaded
machine, the offered load was lower than asked, and it says so).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASSWORD = "bench-pw"

WRITER = r"""
import sys, time, pymysql
sock, rate, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
conn = pymysql.connect(unix_socket=sock, user="root", database="lat", autocommit=True)
cur = conn.cursor()
n = int(rate * seconds)
t0 = time.monotonic()
worst = 0.0
for i in range(n):
    due = t0 + i / rate
    now = time.monotonic()
    if now < due:
        time.sleep(due - now)
    else:
        worst = max(worst, now - due)
    # the commit time travels in the row; taken as late as possible (see the bench's docstring)
    cur.execute("INSERT INTO t (seq, committed_ns) VALUES (%s, %s)", (i, time.time_ns()))
took = time.monotonic() - t0
conn.close()
print(n, took, worst, file=sys.stderr)
"""


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"_mysqlddl_tools_{name}_bench_latency", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a live process (/proc/PID/stat fields 14 and 15, in clock ticks)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(sorted_ms: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of an ascending list."""
    k = max(0, min(len(sorted_ms) - 1, int(round(p / 100 * len(sorted_ms) + 0.5)) - 1))
    return sorted_ms[k]


class _Reader(threading.Thread):
    """Reads the reader child's stdout line by line, stamping each line as it arrives."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.latency_ns: dict[int, int] = {}
        self.streaming = threading.Event()
        self.lines = 0

    def run(self) -> None:
        readline = self.stream.readline
        while True:
            line = readline()
            arrival = time.time_ns()
            if not line:
                return
            self.lines += 1
            if b'"committed_ns"' not in line:
                continue
            rec = json.loads(line)
            after = rec.get("after")
            if after is None:               # the CREATE TABLE's schema change: streaming now
                self.streaming.set()
                continue
            self.latency_ns[int(after["seq"])] = arrival - int(after["committed_ns"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rate", type=float, default=1000.0, help="single-row commits per second")
    ap.add_argument("--seconds", type=float, default=25.0)
    ap.add_argument("--target-ms", type=float, default=50.0, help="the p99 target")
    a = ap.parse_args(argv)
    lab = _tool("mariadb_lab")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not lab.mariadbd_path():
        raise SystemExit(lab.INSTALL_HINT)
    srv = lab.MariaDBServer(Path(tempfile.mkdtemp(prefix="mdb-bench-lat-"))).start()
    reader = None
    try:
        srv.execute(f"CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                    "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'bench'@'127.0.0.1'")
        binlog, pos = srv.current_binlog()
        srv.execute("CREATE DATABASE lat",
                    "CREATE TABLE lat.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, seq INT NOT NULL, "
                    "committed_ns BIGINT NOT NULL) ENGINE=InnoDB")
        env = dict(os.environ, MYSQL_PWD=PASSWORD)
        cmd = [sys.executable, "-m", "mysqlddl", "changes",
               f"mysql://bench@127.0.0.1:{srv.port}/?server-id=9903", "--follow",
               "--start-position", f"{binlog.name}:{pos}", "--summary", "none"]
        reader = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                  cwd=tempfile.gettempdir())
        lines = _Reader(reader.stdout)
        lines.start()
        if not lines.streaming.wait(60):
            reader.kill()
            raise SystemExit("the reader printed no schema change within 60 s:\n"
                             + reader.stderr.read().decode(errors="replace")[-3000:])
        print(f"writing {a.rate:g} single-row transactions/s for {a.seconds:g} s ...", flush=True)
        cpu0 = _cpu(reader.pid)
        w = subprocess.run([sys.executable, "-c", WRITER, srv.socket, str(a.rate), str(a.seconds)],
                           capture_output=True, text=True)
        if w.returncode != 0:
            raise SystemExit(f"the writer failed:\n{w.stderr[-3000:]}")
        n, took, worst = w.stderr.split()
        n, took, worst = int(n), float(took), float(worst)
        deadline = time.monotonic() + 30
        while len(lines.latency_ns) < n and time.monotonic() < deadline and reader.poll() is None:
            time.sleep(0.05)
        got = dict(lines.latency_ns)
        cpu = _cpu(reader.pid) - cpu0
        if len(got) < n:
            err = reader.stderr.read1().decode(errors="replace") if reader.poll() is not None else ""
            raise SystemExit(f"only {len(got)} of {n} rows arrived within 30 s of the last commit{err and ':'}\n{err}")
        ms = sorted(v / 1e6 for v in got.values())
        p50, p99 = _pct(ms, 50), _pct(ms, 99)
        print(f"\n{n} single-row transactions in {took:.1f} s ({n / took:.0f}/s achieved, asked {a.rate:g}/s; "
              f"the writer's worst lag behind its schedule {worst * 1e3:.1f} ms)")
        print(f"commit -> change event on our output: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms, "
              f"mean {sum(ms) / len(ms):.2f} ms")
        print(f"the reader's CPU meanwhile: {cpu:.2f} s ({cpu / n * 1e6:.0f} us a transaction, "
              f"{cpu / took * 100:.0f}% of a core); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"  p99 < {a.target_ms:g} ms: {'met' if p99 < a.target_ms else 'NOT met'}")
        return 0 if p99 < a.target_ms else 1
    finally:
        if reader is not None and reader.poll() is None:
            reader.terminate()
            try:
                reader.wait(10)
            except subprocess.TimeoutExpired:
                reader.kill()
        srv.destroy()


if __name__ == "__main__":
    sys.exit(main())
