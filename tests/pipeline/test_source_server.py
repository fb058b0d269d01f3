"""The pipeline over a live server (the server source of mysqlddl.sources.open_source: mysql://, streamed as a
replica by mysqlddl.sources): `mysqlddl run --once` gives what the same pipeline gives over the
server's binlog files, and a run killed with SIGKILL and restarted resumes from its checkpoint
with the same final output. The server: tests/pipeline/conftest.py's lab MariaDB 10.11 after the
lab workload (tools/workload.py), logged into as the lab's replication account repl/repl
(tools/mariadb_lab.py)."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from mysqlddl.errors import CheckpointError, ServerConnectError
from mysqlddl.pipeline import Pipeline, pipeline_status, run_pipeline


@pytest.fixture
def server_env(monkeypatch, lab_server):
    # (the lab account has REPLICATION SLAVE/CLIENT; SHOW SLAVE HOSTS needs more on MariaDB
    # 10.5.2+: granted here so the server-id check runs rather than being skipped with a warning)
    lab_server.execute("GRANT REPLICATION MASTER ADMIN ON *.* TO 'repl'@'127.0.0.1'")
    monkeypatch.setenv("MYSQL_PWD", "repl")
    return lab_server


def _pipeline(path, *, source: str, out, store, every: int = 5):
    path.write_text(f'[source]\nuri = "{source}"\n[sink]\nuri = "jsonl://{out}"\n[checkpoint]\n'
                    f'uri = "sqlite://{store}"\nevery_transactions = {every}\nevery_ms = 600000\n', encoding="utf-8")
    return path


def test_a_server_source_gives_what_its_files_give(server_env, lab_binlogs, tmp_path, read_segments):
    # (lab_binlogs: the workload has run; the reference reads the server's own binlog directory,
    # so whatever else the session wrote there is in both)
    uri = f"mysql://repl@127.0.0.1:{server_env.port}/?server-id=3101"
    files = _pipeline(tmp_path / "f.toml", source=f"file://{server_env.binlog_dir}", out=tmp_path / "fout",
                      store=tmp_path / "f.db")
    server = _pipeline(tmp_path / "s.toml", source=uri, out=tmp_path / "sout", store=tmp_path / "s.db")
    a = run_pipeline(files, once=True)
    b = run_pipeline(server, once=True)
    expected = read_segments(tmp_path / "fout")
    assert read_segments(tmp_path / "sout") == expected and expected.count("\n") > 500
    assert (b.checkpoint.position.file, b.checkpoint.position.pos) == (a.checkpoint.position.file,
                                                                         a.checkpoint.position.pos)
    assert b.checkpoint.source_id.startswith("server:mariadb;server_id=")
    # a second run resumes at the checkpoint and delivers nothing again
    again = run_pipeline(server, once=True)
    assert read_segments(tmp_path / "sout") == expected and again.checkpoint.position == b.checkpoint.position


def test_killed_and_restarted_over_a_server_equals_one_run(server_env, lab_binlogs, tmp_path, read_segments):
    uri = f"mysql://repl@127.0.0.1:{server_env.port}/?server-id=3102"
    ref = _pipeline(tmp_path / "r.toml", source=f"file://{server_env.binlog_dir}", out=tmp_path / "rout",
                    store=tmp_path / "r.db")
    run_pipeline(ref, once=True)
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db")
    rng = random.Random(2026)
    env = dict(os.environ, MYSQL_PWD="repl")
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p), "--once"]
    kills = 0
    for _ in range(3):
        proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.4, 1.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(60)
    final = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    assert kills >= 1
    assert read_segments(tmp_path / "out") == read_segments(tmp_path / "rout")


def test_a_checkpoint_while_an_xa_transaction_is_prepared_over_a_server(server_env, lab_binlogs, tmp_path,
                                                                        read_segments, prepare_xa):
    """A run over the server stops while an XA transaction is prepared, its checkpoint past the
    PREPARE (``reader_state.xa_replay``); the next run must stream from the XA transaction's start,
    not from the checkpoint (where the first run's identity check had opened the stream: the XA
    COMMIT then released no rows, and the transaction was lost), and deliver its rows once, at its
    COMMIT. The output equals one uninterrupted run over the server's binlog files."""
    srv = server_env
    srv.execute("CREATE DATABASE IF NOT EXISTS xas", "CREATE TABLE IF NOT EXISTS xas.t (id INT PRIMARY KEY)")
    uri = f"mysql://repl@127.0.0.1:{srv.port}/?server-id=3106"
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db", every=1)
    a = prepare_xa(srv, "xs1", "INSERT INTO xas.t VALUES (1), (2)")
    try:
        srv.execute("INSERT INTO xas.t VALUES (10)")
        first = run_pipeline(p, once=True)
        ck = first.checkpoint
        replay = ck.reader_state["xa_replay"]
        assert replay["pending"] == 1 and (replay["file_seq"], replay["pos"]) < ck.position.key
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'xs1'")
        srv.execute("INSERT INTO xas.t VALUES (11)")
    finally:
        a.close()
    second = run_pipeline(p, once=True)
    assert second.checkpoint.reader_state is None            # (nothing prepared any more)
    ref = _pipeline(tmp_path / "r.toml", source=f"file://{srv.binlog_dir}", out=tmp_path / "rout",
                    store=tmp_path / "r.db")
    run_pipeline(ref, once=True)
    want = read_segments(tmp_path / "rout")
    rows = [line for line in want.splitlines() if '"table":"t"' in line and '"db":"xas"' in line]
    assert len(rows) == 4, rows
    assert read_segments(tmp_path / "out") == want


def test_following_a_quiet_server_commits_and_stops_on_sigterm(server_env, lab_binlogs, tmp_path, read_segments):
    """A pipeline following the server with batches far larger than the traffic (every 1,000
    transactions or 10 minutes) commits what ended as soon as the stream has caught up (the source's
    on_wait), and a SIGTERM stops it while the server sends nothing (before, both waited for the next
    event: the last transactions stayed uncommitted, and the stop was not noticed, on a quiet
    server). A --once run afterwards delivers nothing again."""
    srv = server_env
    srv.execute("CREATE DATABASE IF NOT EXISTS quiet", "CREATE TABLE IF NOT EXISTS quiet.t (id INT PRIMARY KEY)")
    uri = f"mysql://repl@127.0.0.1:{srv.port}/?server-id=3107&heartbeat=30"
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db", every=1000)
    env = dict(os.environ, MYSQL_PWD="repl")
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "none"]
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _settled(srv, p, proc)
        srv.execute(*(f"INSERT INTO quiet.t VALUES ({i})" for i in range(3)))
        at = _settled(srv, p, proc)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err.decode(errors="replace")[-3000:]
    assert time.monotonic() - t0 < 5          # (heartbeats every 30 s: the stop did not wait for one)
    # the stopped run killed its dump thread: its server-id is free for the next run at once (the
    # thread would otherwise hold it until its next heartbeat failed, 30 s here)
    deadline = time.monotonic() + 5
    while any(int(r[0]) == 3107 for r in srv.query("SHOW SLAVE HOSTS")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(int(r[0]) == 3107 for r in srv.query("SHOW SLAVE HOSTS"))
    out = read_segments(tmp_path / "out")
    assert sum('"db":"quiet"' in line and '"op":"c"' in line for line in out.splitlines()) == 3
    again = run_pipeline(p, once=True)
    assert read_segments(tmp_path / "out") == out
    assert (again.checkpoint.position.file, again.checkpoint.position.pos) == at


def test_retry_goes_on_when_the_server_answers_again(server_env, lab_binlogs, tmp_path, read_segments, tcp_proxy,
                                                    monkeypatch):
    """A server that cannot be reached (the proxy in front of it leads to a closed port) is a
    connection error: under ``strategy = "exit"`` the run stops with ServerConnectError, nothing
    written; under ``"retry"`` it runs again with backoff and goes on once the address leads to the
    server again (after 1 s), and its output equals one run over the server's binlog files. A
    refused login is not retried."""
    srv = server_env
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead_port = closed.getsockname()[1]
    closed.close()                      # (a port nothing listens on)
    px = tcp_proxy(dead_port)
    uri = f"mysql://repl@127.0.0.1:{px.port}/?server-id=3108"
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db")
    with pytest.raises(ServerConnectError):
        run_pipeline(p, once=True)
    assert pipeline_status(p)["checkpoint"] is None
    p.write_text(p.read_text() + '[errors]\nstrategy = "retry"\nretries = 8\nbackoff_ms = 200\n')
    threading.Timer(1.0, px.retarget, (srv.port,)).start()
    done = Pipeline(p)
    result = done.run(once=True)
    assert done.retries >= 1 and result.stats["retries"] == done.retries
    ref = _pipeline(tmp_path / "r.toml", source=f"file://{srv.binlog_dir}", out=tmp_path / "rout",
                    store=tmp_path / "r.db")
    run_pipeline(ref, once=True)
    assert read_segments(tmp_path / "out") == read_segments(tmp_path / "rout")
    # a wrong password is refused at once, not retried
    monkeypatch.setenv("MYSQL_PWD", "wrong")
    bad = Pipeline(p)
    with pytest.raises(ServerConnectError) as e:
        bad.run(once=True)
    assert e.value.code == 1045 and bad.retries == 0


def _settled(srv, conf, proc, timeout: float = 30) -> tuple[str, int]:
    """Wait until the follower's checkpoint is at the server's end (SHOW MASTER STATUS); that end."""
    file, pos = srv.query("SHOW MASTER STATUS")[0][:2]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the follower ended ({proc.returncode}): {proc.stderr.read().decode()[-3000:]}")
        try:
            ck = pipeline_status(conf)["checkpoint"]
        except CheckpointError:
            ck = None               # (no store yet: the first commit makes it)
        if ck is not None and (ck["file"], ck["pos"]) == (file, int(pos)):
            return file, int(pos)
        time.sleep(0.2)
    pytest.fail(f"the follower's checkpoint did not reach {file}:{pos} in {timeout:g} s")


def _writer(srv, stop, counts):
    """Transactions on pipelive.w until ``stop`` is set: five-row inserts, an update now and then,
    and every 25th a 1,500-row transaction (kills land inside big ones too)."""
    conn = srv.connect("pipelive")
    try:
        with conn.cursor() as cur:
            t = counts["transactions"]
            while not stop.is_set():
                cur.execute("BEGIN")
                n = 1500 if t % 25 == 24 else 5
                cur.execute("INSERT INTO w VALUES " + ",".join(f"({t * 2000 + i}, 'w{t}-{i}', {t})" for i in range(n)))
                if t % 4 == 3:
                    lo = (t - 1) * 2000
                    cur.execute("UPDATE w SET n = n + 1 WHERE id BETWEEN %s AND %s", (lo, lo + 2))
                cur.execute("COMMIT")
                t += 1
                counts["transactions"] = t
                time.sleep(0.02)
    finally:
        conn.close()


def _crash_while_writing(server_env, tmp_path, read_segments, *, kills: int, seed: int, server_id: int):
    """``mysqlddl run`` following the server (no --once) while it receives writes, SIGKILLed at
    ``kills`` random moments and restarted each time; then, the writes stopped, one more run with
    --once catches up. Its output must equal one uninterrupted run over the final binlog (the
    server's own binlog files, read by the file source), line for line."""
    srv = server_env
    srv.execute("CREATE DATABASE IF NOT EXISTS pipelive",
                "CREATE TABLE IF NOT EXISTS pipelive.w (id INT PRIMARY KEY, v VARCHAR(40), n INT)")
    uri = f"mysql://repl@127.0.0.1:{srv.port}/?server-id={server_id}&heartbeat=1"
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db")
    rng = random.Random(seed)
    env = dict(os.environ, MYSQL_PWD="repl")
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "none"]
    stop, counts = threading.Event(), {"transactions": 0}
    writer = threading.Thread(target=_writer, args=(srv, stop, counts))
    writer.start()
    killed, errors = 0, []
    try:
        for _ in range(kills):
            proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0.3, 2.5))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                killed += 1
            _, err = proc.communicate(timeout=60)
            if proc.returncode != -signal.SIGKILL:
                errors.append((proc.returncode, err.decode(errors="replace")[-2000:]))
    finally:
        stop.set()
        writer.join(60)
    # (a follower only ends when killed: any other exit is a failure)
    assert not errors, errors
    final = subprocess.run(cmd + ["--once"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr[-3000:]
    ref = _pipeline(tmp_path / "r.toml", source=f"file://{srv.binlog_dir}", out=tmp_path / "rout",
                    store=tmp_path / "r.db")
    run_pipeline(ref, once=True)
    want = read_segments(tmp_path / "rout")
    assert killed == kills and counts["transactions"] > kills * 5
    # the writes are all there (each transaction's first insert carries its number)
    assert f"w{counts['transactions'] - 1}-0" in want
    assert read_segments(tmp_path / "out") == want


def test_killed_while_the_server_is_written_equals_one_run(server_env, lab_binlogs, tmp_path, read_segments):
    _crash_while_writing(server_env, tmp_path, read_segments, kills=5, seed=7, server_id=3103)


@pytest.mark.slow
def test_killed_fifty_times_while_the_server_is_written(server_env, lab_binlogs, tmp_path, read_segments):
    _crash_while_writing(server_env, tmp_path, read_segments, kills=50, seed=50, server_id=3104)


def test_killed_inside_a_huge_transaction_over_a_server(server_env, lab_binlogs, tmp_path, read_segments):
    """The pipeline kills itself (mysqlddl/faults.py ``huge-transaction``) while the workload's
    2,000-row transaction streams from the server into the open segment; the restart re-reads it
    from its start and the output equals one uninterrupted run's."""
    uri = f"mysql://repl@127.0.0.1:{server_env.port}/?server-id=3105"
    ref = _pipeline(tmp_path / "r.toml", source=f"file://{server_env.binlog_dir}", out=tmp_path / "rout",
                    store=tmp_path / "r.db")
    run_pipeline(ref, once=True)
    p = _pipeline(tmp_path / "p.toml", source=uri, out=tmp_path / "out", store=tmp_path / "p.db")
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p), "--once", "--summary", "none"]
    env = dict(os.environ, MYSQL_PWD="repl", MYSQLDDL_FAULT="huge-transaction@1")
    killed = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, f"the fault point was not reached: {killed.stderr[-2000:]}"
    env.pop("MYSQLDDL_FAULT")
    final = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr[-3000:]
    assert read_segments(tmp_path / "out") == read_segments(tmp_path / "rout")
