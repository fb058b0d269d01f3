"""A followed server shut down cleanly (``mariadb-admin shutdown``, SIGTERM to mariadbd) ends the dump
with an EOF packet (MariaDB sql/sql_repl.cc ``mysql_binlog_send``: the killed dump thread's end).
While following, that is a lost connection like any other: the follower reconnects with its backoff
and goes on once the server is back, from where it was, delivering every row exactly once, and never
ends by itself with exit 0; when the server stays away past the reconnection budget the run fails
with a typed error and a non-zero exit. The server is ``live`` (tests/sources/conftest.py), restarted
on its own port."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.mariadb


def _rows(path, table: str) -> list[int]:
    """The ids of the ``c`` rows of ``lab.<table>`` in a JSON Lines output (native format or segments)."""
    out = []
    # (a segment directory: closed segments by their first position, then the open one)
    files = sorted(path.glob("*.jsonl")) + sorted(path.glob("*.jsonl.tmp")) if path.is_dir() \
        else [path] if path.exists() else []
    for f in files:
        for line in f.read_text().splitlines():
            if f'"table":"{table}"' not in line:
                continue
            rec = json.loads(line)
            if rec.get("op") == "c":
                out.append(rec["after"]["id"])
    return out


def _wait_rows(path, table: str, n: int, proc, timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = _rows(path, table)
        if len(got) >= n:
            return got
        if proc.poll() is not None:
            pytest.fail(f"the follower ended (rc {proc.returncode}): {proc.stderr.read().decode()[-3000:]}")
        time.sleep(0.1)
    return _rows(path, table)


def _streaming(live, server_id: int, proc, timeout: float = 60) -> None:
    """Wait until the follower's dump runs (its registration is listed): before, a server away is a
    start-up failure, not a lost connection."""
    deadline = time.monotonic() + timeout
    while not any(int(r[0]) == server_id for r in live.server.query("SHOW SLAVE HOSTS")):
        if proc.poll() is not None:
            pytest.fail(f"the follower ended (rc {proc.returncode}): {proc.stderr.read().decode()[-3000:]}")
        assert time.monotonic() < deadline, "the follower never started its dump"
        time.sleep(0.05)


def _insert(srv, table: str, ids) -> None:
    srv.execute(*(f"INSERT INTO lab.{table} VALUES ({i})" for i in ids))


def _restart_after(srv, seconds: float) -> None:
    """A clean shutdown (SIGTERM, as ``mariadb-admin shutdown``), ``seconds`` away, then the same server
    on the same port."""
    srv.stop()
    time.sleep(seconds)
    srv.start()


def test_changes_follow_goes_on_after_a_clean_shutdown(live, tmp_path):
    srv = live.server
    srv.execute("CREATE TABLE IF NOT EXISTS lab.shut_changes (id INT PRIMARY KEY)")
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "mysqlddl", "changes", live.uri(150, heartbeat=1, ssl_mode="disabled"),
           "--from-now", "--follow", "--format", "native", "--summary", "none", "-o", str(out)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _streaming(live, 150, proc)
        _insert(srv, "shut_changes", range(1, 11))
        assert _wait_rows(out, "shut_changes", 10, proc) == list(range(1, 11))
        _restart_after(srv, 1.5)
        _insert(srv, "shut_changes", range(11, 21))
        got = _wait_rows(out, "shut_changes", 20, proc)
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
        assert got == list(range(1, 21))                # each row once, in order
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def test_changes_follow_fails_when_the_server_stays_away(live, tmp_path):
    srv = live.server
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "mysqlddl", "changes", live.uri(151, heartbeat=1, ssl_mode="disabled"),
           "--from-now", "--follow", "--summary", "none", "--reconnect-attempts", "2", "-o", str(out)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _streaming(live, 151, proc)
        srv.stop()
        try:
            _, err = proc.communicate(timeout=60)
        finally:
            srv.start()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    err = err.decode()
    assert proc.returncode == 1, err
    assert "2 reconnection attempts failed" in err and "Traceback" not in err


def test_a_following_pipeline_goes_on_after_a_clean_shutdown(live, tmp_path):
    srv = live.server
    srv.execute("CREATE TABLE IF NOT EXISTS lab.shut_run (id INT PRIMARY KEY)")
    _insert(srv, "shut_run", range(1, 6))
    p = tmp_path / "p.toml"
    uri = live.uri(152, heartbeat=1, ssl_mode="disabled")
    p.write_text(f'[source]\nuri = "{uri}"\n[sink]\nuri = "jsonl://{tmp_path / "out"}"\n[checkpoint]\n'
                 f'uri = "sqlite://{tmp_path / "p.db"}"\nevery_transactions = 1\n'
                 f'[changes]\ntables = ["lab.shut_run"]\n', encoding="utf-8")
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p)]
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert _wait_rows(tmp_path / "out", "shut_run", 5, proc) == list(range(1, 6))
        _insert(srv, "shut_run", range(6, 11))
        assert _wait_rows(tmp_path / "out", "shut_run", 10, proc) == list(range(1, 11))
        _restart_after(srv, 1.5)
        _insert(srv, "shut_run", range(11, 16))
        got = _wait_rows(tmp_path / "out", "shut_run", 15, proc)
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, err.decode()[-3000:]
    assert _rows(tmp_path / "out", "shut_run") == got == list(range(1, 16))


def test_a_following_pipeline_fails_when_the_server_stays_away(live, tmp_path):
    """(the pipeline's source reconnects 5 times, 0.5 s doubling: about 8 to 16 s of backoff)"""
    srv = live.server
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "{live.uri(153, heartbeat=1, ssl_mode="disabled")}"\n'
                 f'[sink]\nuri = "jsonl://{tmp_path / "out"}"\n[checkpoint]\nuri = "sqlite://{tmp_path / "p.db"}"\n'
                 '[changes]\ntables = ["lab.shut_run_away"]\n', encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p)], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _streaming(live, 153, proc)
        srv.stop()
        try:
            _, err = proc.communicate(timeout=90)
        finally:
            srv.start()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    err = err.decode()
    assert proc.returncode == 1, err[-3000:]
    assert "reconnection attempts failed" in err and "Traceback" not in err


def test_a_signal_while_reconnecting_stops_at_once(live, tmp_path):
    """Ctrl-C while the server is away: the reconnection's backoff (up to 30 s a wait) notices it
    (the source's on_wait), the command stops with its summary and 130."""
    srv = live.server
    cmd = [sys.executable, "-m", "mysqlddl", "changes", live.uri(154, heartbeat=1, ssl_mode="disabled"),
           "--from-now", "--follow", "--reconnect-attempts", "30", "-o", str(tmp_path / "out.jsonl")]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _streaming(live, 154, proc)
        srv.stop()
        try:
            time.sleep(3)
            assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
            t0 = time.monotonic()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
        finally:
            srv.start()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    err = err.decode()
    assert proc.returncode == 130, err[-3000:]
    assert time.monotonic() - t0 < 3 and "Traceback" not in err and "DML rows" in err


def test_a_clean_shutdown_while_a_backlog_is_read_is_not_its_end(scratch, tmp_path):
    """Not following, the stream ends where the binlog ended at start. A dump ended by an EOF packet
    before that point (the server shut down cleanly while it sent the backlog: MariaDB's dump thread
    sees the shutdown between two events and ends with EOF) is a lost connection too, never a short
    output with exit 0. SQL on the session's MariaDB 10.11: 60 transactions of 1,000 rows of 600
    bytes (~37 MB of binlog), read with `changes` (no --follow); the server is stopped (SIGTERM) once
    the output has begun and started again on its port 1.5 s later."""
    srv = scratch.server
    srv.execute("CREATE DATABASE IF NOT EXISTS lab")
    path, pos = srv.current_binlog()
    srv.execute("CREATE TABLE lab.backlog (id INT PRIMARY KEY, pad VARCHAR(600))")
    for t in range(60):
        srv.execute(f"INSERT INTO lab.backlog SELECT seq, REPEAT('x', 600) "
                    f"FROM test.seq_{t * 1000 + 1}_to_{t * 1000 + 1000}")
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "mysqlddl", "changes", scratch.uri(153, heartbeat=1, ssl_mode="disabled"),
           "--start-position", f"{path.name}:{pos}", "--format", "native", "--summary", "json",
           "--reconnect-attempts", "20", "-o", str(out)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.stat().st_size > 2_000_000):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()[-3000:]
            time.sleep(0.01)
        _restart_after(srv, 1.5)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    err = err.decode()
    assert proc.returncode == 0, err[-3000:]
    assert sorted(_rows(out, "backlog")) == list(range(1, 60_001))           # every row, once
    assert json.loads(err.splitlines()[-1])["dml_rows"] == 60_000


def test_a_gtid_start_at_the_end_is_an_empty_stream_not_a_lost_one(scratch, tmp_path, run_cli):
    """The other side of the check above: a GTID start where the server has nothing after it (the
    sender skips what the replica has, sending no event before its EOF) ends at once with exit 0."""
    srv = scratch.server
    srv.execute("CREATE DATABASE IF NOT EXISTS lab", "CREATE TABLE IF NOT EXISTS lab.gtid_end (id INT PRIMARY KEY)",
                "INSERT INTO lab.gtid_end VALUES (1), (2)")
    gtid = srv.query("SELECT @@gtid_binlog_pos")[0][0]
    t0 = time.monotonic()
    proc = run_cli("changes", scratch.uri(154, heartbeat=1, ssl_mode="disabled"), "--start-gtid", gtid,
                   "--summary", "json", timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stderr.splitlines()[-1])["dml_rows"] == 0, (gtid, proc.stdout[-3000:])
    assert time.monotonic() - t0 < 30


def test_a_gtid_start_cut_before_its_first_transaction_sends_nothing_again(scratch, tcp_proxy, tmp_path):
    """A GTID dump starts at its file's start and skips, unsent, what the GTID start has: until its
    first transaction arrives, the positions it shows are no place to resume from. A dump cut there
    (the proxy drops the dump connection after its first 600 bytes: the fake ROTATE, the FDE, the
    GTID list, heartbeats) is resumed from the GTID again, not from the file position, which sent the rows
    before the GTID once more. SQL on the session's MariaDB 10.11."""
    srv = scratch.server
    srv.execute("CREATE DATABASE IF NOT EXISTS lab", "CREATE TABLE IF NOT EXISTS lab.gtid_cut (id INT PRIMARY KEY)",
                "INSERT INTO lab.gtid_cut VALUES (1), (2)")
    gtid = srv.query("SELECT @@gtid_binlog_pos")[0][0]
    p = tcp_proxy(srv.port, {2: ("cut", 600)})
    out, schema = tmp_path / "out.jsonl", tmp_path / "schema.sql"
    schema.write_text("CREATE DATABASE IF NOT EXISTS lab; CREATE TABLE lab.gtid_cut (id INT PRIMARY KEY);")
    cmd = [sys.executable, "-m", "mysqlddl", "changes", scratch.uri(155, port=p.port, heartbeat=1, ssl_mode="disabled"),
           "--start-gtid", gtid, "--schema", str(schema), "--follow", "--format", "native", "--summary", "none",
           "-o", str(out)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while p.faults == [] or p.accepted < 3:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()[-3000:]
            time.sleep(0.05)
        srv.execute("INSERT INTO lab.gtid_cut VALUES (3)")
        got = _wait_rows(out, "gtid_cut", 1, proc)
        time.sleep(1)
        got = _rows(out, "gtid_cut")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert got == [3], got
