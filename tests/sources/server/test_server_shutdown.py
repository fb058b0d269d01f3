"""A followed server shut down cleanly (``mariadb-admin shutdown``, SIGTERM to mariadbd) ends the dump
with an EOF packet (MariaDB sql/sql_repl.cc ``mysql_binlog_send``: the killed dump thread's end).
While following, that is a lost connection like any other: the follower reconnects with its backoff
and goes on once the server is back, from where it was, delivering every row exactly once, and never
ends by itself with exit 0; when the server stays away past the reconnection budget the run fails
with a typed error and a non-zero exit. The server is ``live`` (tests/sources/conftest.py), restarted
on its own port."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

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


def _rows_of(path, table: str, n: int, run, timeout: float = 60) -> list[int]:
    """The rows once there are ``n`` (the test fails if ``run``, a Spawned, ends first)."""
    run.wait_until(lambda: len(_rows(path, table)) >= n, timeout, f"{n} rows of {table}", poll=0.1)
    return _rows(path, table)


def _streaming(live, server_id: int, run, timeout: float = 60) -> None:
    """Wait until the follower's dump runs (its registration is listed): before, a server away is a
    start-up failure, not a lost connection."""
    run.wait_until(lambda: any(int(r[0]) == server_id for r in live.server.query("SHOW SLAVE HOSTS")), timeout,
                   "the follower's dump")


def _insert(srv, table: str, ids) -> None:
    srv.execute(*(f"INSERT INTO lab.{table} VALUES ({i})" for i in ids))


def _restart_after(srv, seconds: float) -> None:
    """A clean shutdown (SIGTERM, as ``mariadb-admin shutdown``), ``seconds`` away, then the same server
    on the same port."""
    srv.stop()
    time.sleep(seconds)
    srv.start()


def _away(srv, run, timeout: float) -> tuple[int, str]:
    """The server stopped until ``run`` ended (exit code, stderr), then started again."""
    srv.stop()
    try:
        return run.stop(timeout=timeout)
    finally:
        srv.start()


def _pipeline(tmp_path, uri: str, table: str, *extra: str) -> Path:
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "{uri}"\n[sink]\nuri = "jsonl://{tmp_path / "out"}"\n[checkpoint]\n'
                 f'uri = "sqlite://{tmp_path / "p.db"}"\n{"".join(extra)}[changes]\ntables = ["lab.{table}"]\n',
                 encoding="utf-8")
    return p


def test_changes_follow_goes_on_after_a_clean_shutdown(live, tmp_path, spawn_cli):
    srv = live.server
    srv.execute("CREATE TABLE IF NOT EXISTS lab.shut_changes (id INT PRIMARY KEY)")
    out = tmp_path / "out.jsonl"
    run = spawn_cli("changes", live.uri(150, heartbeat=1, ssl_mode="disabled"), "--from-now", "--follow",
                    "--format", "native", "--summary", "none", "-o", out)
    _streaming(live, 150, run)
    _insert(srv, "shut_changes", range(1, 11))
    assert _rows_of(out, "shut_changes", 10, run) == list(range(1, 11))
    _restart_after(srv, 1.5)
    _insert(srv, "shut_changes", range(11, 21))
    got = _rows_of(out, "shut_changes", 20, run)
    assert run.alive()
    assert got == list(range(1, 21))                # each row once, in order


def test_changes_follow_fails_when_the_server_stays_away(live, tmp_path, spawn_cli):
    run = spawn_cli("changes", live.uri(151, heartbeat=1, ssl_mode="disabled"), "--from-now", "--follow",
                    "--summary", "none", "--reconnect-attempts", "2", "-o", tmp_path / "out.jsonl")
    _streaming(live, 151, run)
    rc, err = _away(live.server, run, 60)
    assert rc == 1, err
    assert "2 reconnection attempts failed" in err and "Traceback" not in err


def test_a_following_pipeline_goes_on_after_a_clean_shutdown(live, tmp_path, spawn_cli):
    srv = live.server
    srv.execute("CREATE TABLE IF NOT EXISTS lab.shut_run (id INT PRIMARY KEY)")
    _insert(srv, "shut_run", range(1, 6))
    p = _pipeline(tmp_path, live.uri(152, heartbeat=1, ssl_mode="disabled"), "shut_run", "every_transactions = 1\n")
    out = tmp_path / "out"
    run = spawn_cli("run", p)
    assert _rows_of(out, "shut_run", 5, run) == list(range(1, 6))
    _insert(srv, "shut_run", range(6, 11))
    assert _rows_of(out, "shut_run", 10, run) == list(range(1, 11))
    _restart_after(srv, 1.5)
    _insert(srv, "shut_run", range(11, 16))
    got = _rows_of(out, "shut_run", 15, run)
    assert run.alive()
    rc, err = run.stop(signal.SIGTERM, timeout=30)
    assert rc == 0, err[-3000:]
    assert _rows(out, "shut_run") == got == list(range(1, 16))


def test_a_following_pipeline_fails_when_the_server_stays_away(live, tmp_path, spawn_cli):
    """(the pipeline's source reconnects 5 times, 0.5 s doubling: about 8 to 16 s of backoff)"""
    run = spawn_cli("run", _pipeline(tmp_path, live.uri(153, heartbeat=1, ssl_mode="disabled"), "shut_run_away"))
    _streaming(live, 153, run)
    rc, err = _away(live.server, run, 90)
    assert rc == 1, err[-3000:]
    assert "reconnection attempts failed" in err and "Traceback" not in err


def test_a_signal_while_reconnecting_stops_at_once(live, tmp_path, spawn_cli):
    """Ctrl-C while the server is away: the reconnection's backoff (up to 30 s a wait) notices it
    (the source's on_wait), the command stops with its summary and 130."""
    srv = live.server
    run = spawn_cli("changes", live.uri(154, heartbeat=1, ssl_mode="disabled"), "--from-now", "--follow",
                    "--reconnect-attempts", "30", "-o", tmp_path / "out.jsonl")
    _streaming(live, 154, run)
    srv.stop()
    try:
        time.sleep(3)
        assert run.alive()
        t0 = time.monotonic()
        rc, err = run.stop(signal.SIGINT, timeout=30)
    finally:
        srv.start()
    assert rc == 130, err[-3000:]
    assert time.monotonic() - t0 < 3 and "Traceback" not in err and "DML rows" in err


def test_a_clean_shutdown_while_a_backlog_is_read_is_not_its_end(scratch, tmp_path, spawn_cli):
    """Not following, the stream ends where the binlog ended at start. A dump ended by an EOF packet
    before that point (the server shut down cleanly while it sent the backlog: MariaDB's dump thread
    sees the shutdown between two events and ends with EOF) is a lost connection too, never a short
    output with exit 0 (before: 17k of 60k rows, exit 0). SQL on the session's MariaDB 10.11: 60
    transactions of 1,000 rows of 600 bytes (~37 MB of binlog), read with `changes` (no --follow);
    the server is stopped (SIGTERM) once the output has begun and started again 1.5 s later."""
    srv = scratch.server
    srv.execute("CREATE DATABASE IF NOT EXISTS lab")
    path, pos = srv.current_binlog()
    srv.execute("CREATE TABLE lab.backlog (id INT PRIMARY KEY, pad VARCHAR(600))")
    for t in range(60):
        srv.execute(f"INSERT INTO lab.backlog SELECT seq, REPEAT('x', 600) "
                    f"FROM test.seq_{t * 1000 + 1}_to_{t * 1000 + 1000}")
    out = tmp_path / "out.jsonl"
    run = spawn_cli("changes", scratch.uri(153, heartbeat=1, ssl_mode="disabled"), "--start-position",
                    f"{path.name}:{pos}", "--format", "native", "--summary", "json", "--reconnect-attempts", "20",
                    "-o", out)
    run.wait_until(lambda: out.exists() and out.stat().st_size > 2_000_000, 60, "2 MB of output", poll=0.01)
    _restart_after(srv, 1.5)
    rc, err = run.stop(timeout=120)
    assert rc == 0, err[-3000:]
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


def test_a_gtid_start_cut_before_its_first_transaction_sends_nothing_again(scratch, tcp_proxy, tmp_path, spawn_cli):
    """A GTID dump starts at its file's start and skips, unsent, what the GTID start has: until its
    first transaction arrives, the positions it shows are no place to resume from. A dump cut there
    (the proxy drops the dump connection after its first 600 bytes: the fake ROTATE, the FDE, the
    GTID list, heartbeats) is resumed from the GTID again, not from the file position, which sent
    the rows before the GTID once more (before: [1, 2, 3]). SQL on the session's MariaDB 10.11."""
    srv = scratch.server
    srv.execute("CREATE DATABASE IF NOT EXISTS lab", "CREATE TABLE IF NOT EXISTS lab.gtid_cut (id INT PRIMARY KEY)",
                "INSERT INTO lab.gtid_cut VALUES (1), (2)")
    gtid = srv.query("SELECT @@gtid_binlog_pos")[0][0]
    p = tcp_proxy(srv.port, {2: ("cut", 600)})
    out, schema = tmp_path / "out.jsonl", tmp_path / "schema.sql"
    schema.write_text("CREATE DATABASE IF NOT EXISTS lab; CREATE TABLE lab.gtid_cut (id INT PRIMARY KEY);")
    run = spawn_cli("changes", scratch.uri(155, port=p.port, heartbeat=1, ssl_mode="disabled"), "--start-gtid", gtid,
                    "--schema", schema, "--follow", "--format", "native", "--summary", "none", "-o", out)
    run.wait_until(lambda: p.faults and p.accepted >= 3, 60, "the cut and a new dump connection")
    srv.execute("INSERT INTO lab.gtid_cut VALUES (3)")
    _rows_of(out, "gtid_cut", 1, run)
    time.sleep(1)
    assert _rows(out, "gtid_cut") == [3]
