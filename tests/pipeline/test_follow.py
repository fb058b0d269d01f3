"""`mysqlddl run` (no --once) follows the binlog directory of a running MariaDB (the lab server,
rotating every 64 KiB) while traffic comes in, a DDL and a FLUSH BINARY LOGS included, and stops
cleanly on SIGTERM with a final checkpoint at the server's last transaction end; its output equals
a --once run over the same directory afterwards."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from mysqlddl.binlog.events import XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.options import Options
from mysqlddl.pipeline import pipeline_status


def _wait_for(pred, timeout=180.0, what=""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _checkpoint(p):
    try:
        return pipeline_status(p)["checkpoint"]
    except Exception:          # (not created yet)
        return None


def test_follow_a_server_directory_and_stop_on_sigterm(lab_server, tmp_path, pipeline_file, read_segments):
    srv = lab_server
    p = pipeline_file(tmp_path / "follow.toml", source=srv.binlog_dir, sink=f"jsonl://{tmp_path}/out",
                      store=tmp_path / "state.db", extra="every_ms = 100\n")
    files_before = len(srv.binlog_files())
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "json"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        srv.execute("CREATE DATABASE IF NOT EXISTS follow", "CREATE TABLE follow.t (id INT PRIMARY KEY, v TEXT)")
        n = 0
        for batch in range(60):
            if batch == 20:
                srv.execute("ALTER TABLE follow.t ADD COLUMN w INT DEFAULT 7")
            if batch == 40:
                srv.flush_logs()
            rows = ", ".join(f"({n + i}, '{'x' * 600}')" for i in range(4))
            srv.execute(f"INSERT INTO follow.t (id, v) VALUES {rows}")
            n += 4
            if batch % 10 == 0:
                time.sleep(0.3)       # the pipeline catches up, waits, and goes on as the server writes
        srv.execute("UPDATE follow.t SET v = 'y' WHERE id < 10", "DELETE FROM follow.t WHERE id >= 230")
        assert len(srv.binlog_files()) >= files_before + 3         # rotated (size, and the FLUSH)
        last_file, _ = srv.current_binlog()
        # the last transaction's end (the server may append a BINLOG_CHECKPOINT event after it)
        last_pos = max(e.next_pos for e in BinlogReader(last_file, options=Options(stop_at_truncated_tail=True))
                       if isinstance(e, XidEvent))

        def caught_up():
            ck = _checkpoint(p)
            return ck if ck and (ck["file"], ck["pos"]) == (last_file.name, last_pos) else None

        ck = _wait_for(caught_up, what="the checkpoint to reach the server's position")
        assert proc.poll() is None              # still following
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    assert '"stopped": true' in err
    final = pipeline_status(p)
    assert (final["checkpoint"]["file"], final["checkpoint"]["pos"]) == (ck["file"], ck["pos"])
    assert final["stats_file"]["running"] is False
    dml = final["stats"]["dml"]["follow.t"]
    assert dml == {"c": 240, "u": 10, "d": 10}
    assert final["stats"]["ddl"] >= 3

    # the same directory read once, afterwards, by a fresh pipeline: the same output
    q = pipeline_file(tmp_path / "once.toml", source=srv.binlog_dir, sink=f"jsonl://{tmp_path}/once",
                      store=tmp_path / "once.db")
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "run", str(q), "--once"], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert read_segments(tmp_path / "out") == read_segments(tmp_path / "once")
