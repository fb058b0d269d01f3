"""The start options work the same in `mysqlddl changes` and in a pipeline file's `[source]` (issue
#31): over a live server, `--start-position`, `--start-gtid`, `--from-now` and `--snapshot initial`
on the command line and `start_position`, `start_gtid`, `from_now`, `snapshot` in `[source]` give the
same records. (Over files, the start position is pinned by tests/pipeline/test_runner.py.)

The server: tests/pipeline/conftest.py's lab MariaDB 10.11 after the lab workload, read as the
lab's replication account repl/repl; `changes` runs as a child process (`run_cli`), the pipeline in
this process (`run_pipeline`), or as a child for the followed case."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mysqlddl.binlog.events import MariadbGtidEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.pipeline import run_pipeline


@pytest.fixture
def server(monkeypatch, lab_server, lab_binlogs):
    # (see test_source_server.py: the server-id check runs rather than being skipped with a warning;
    # a snapshot reads the tables and locks them briefly: SELECT, RELOAD, as tests/sources grants)
    lab_server.execute("GRANT REPLICATION MASTER ADMIN, SELECT, RELOAD ON *.* TO 'repl'@'127.0.0.1'")
    monkeypatch.setenv("MYSQL_PWD", "repl")
    return lab_server


def _uri(srv, server_id: int) -> str:
    return f"mysql://repl@127.0.0.1:{srv.port}/?server-id={server_id}"


def _pipeline(tmp_path, uri: str, extra: str):
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "{uri}"\n{extra}\n[sink]\nuri = "jsonl://{tmp_path}/out"\n[checkpoint]\n'
                 f'uri = "sqlite://{tmp_path}/state.db"\n', encoding="utf-8")
    return p


def _records(text: str) -> list[dict]:
    # (the pipeline numbers its lines by place in the segment: "seq" is the sink's, not the record's)
    return [json.loads(line) | {"seq": 0} for line in text.splitlines()]


def _lab_events(srv):
    return list(BinlogReader(srv.binlog_files()))


@pytest.mark.parametrize("option", ["start_position", "start_gtid"])
def test_a_server_start_is_the_same_for_changes_and_a_pipeline(server, tmp_path, run_cli, read_segments, option):
    events = _lab_events(server)
    if option == "start_position":
        xid = [ev for ev in events if isinstance(ev, XidEvent)][len(events) // 200 or 1]
        value = f"{os.path.basename(xid.file)}:{xid.next_pos}"
        cli = ["--start-position", value]
    else:
        gtids = [ev for ev in events if isinstance(ev, MariadbGtidEvent)]
        value = gtids[len(gtids) // 2].gtid
        cli = ["--start-gtid", value]
    got = run_cli("changes", _uri(server, 3201), *cli, "--summary", "none", env={"MYSQL_PWD": "repl"})
    assert got.returncode == 0, got.stderr
    run_pipeline(_pipeline(tmp_path, _uri(server, 3202), f'{option} = "{value}"'), once=True)
    piped = _records(read_segments(tmp_path / "out"))
    assert piped == _records(got.stdout)
    # (a start that moved: fewer records than the whole stream, and some)
    whole = run_cli("changes", _uri(server, 3201), "--summary", "none", env={"MYSQL_PWD": "repl"})
    assert 10 < len(piped) < len(_records(whole.stdout))


def test_an_initial_snapshot_is_the_same_for_changes_and_a_pipeline(server, tmp_path, run_cli, read_segments):
    got = run_cli("changes", _uri(server, 3203), "--snapshot", "initial", "--database", "pipelab", "--summary",
                  "none", env={"MYSQL_PWD": "repl"})
    assert got.returncode == 0, got.stderr
    p = _pipeline(tmp_path, _uri(server, 3204), 'snapshot = "initial"')
    p.write_text(p.read_text() + '[changes]\ndatabases = ["pipelab"]\n', encoding="utf-8")
    first = run_pipeline(p, once=True)
    piped = _records(read_segments(tmp_path / "out"))
    want = _records(got.stdout)

    def untimed(records):
        # (a snapshot row's time is its capture's: two captures, two times)
        return [r | {"ts_ms": 0, "source": r["source"] | {"ts_ms": 0}} for r in records]

    assert untimed(piped) == untimed(want) and len(want) > 100
    assert {r["op"] for r in want} == {"r"} and want[-1]["source"]["snapshot"] == "last"
    # the checkpoint is at the captured position: a restart streams on from there, no second snapshot
    again = run_pipeline(p, once=True)
    assert _records(read_segments(tmp_path / "out")) == piped
    assert again.checkpoint.position.key == first.checkpoint.position.key


def _wait_for(path_or_dir, predicate, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = path_or_dir() if callable(path_or_dir) else ""
        if predicate(text):
            return text
        time.sleep(0.2)
    raise AssertionError("timed out waiting for the output")


def test_from_now_is_the_same_for_changes_and_a_pipeline(server, tmp_path, read_segments):
    """Both follow the server from its end when they start: the transaction written after both
    started is all either delivers."""
    server.execute("CREATE TABLE IF NOT EXISTS pipelab.from_now (id INT PRIMARY KEY, v VARCHAR(20))")
    env = dict(os.environ, MYSQL_PWD="repl")
    out = tmp_path / "changes.jsonl"
    changes = subprocess.Popen([sys.executable, "-m", "mysqlddl", "changes", _uri(server, 3205), "--from-now",
                                "--snapshot", "schema-only", "--follow", "-o", str(out), "--summary", "none"],
                               env=env, cwd=tmp_path, stderr=subprocess.PIPE)
    p = _pipeline(tmp_path, _uri(server, 3206), 'from_now = true\nsnapshot = "schema-only"')
    run = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p)], env=env, cwd=tmp_path,
                           stderr=subprocess.PIPE)
    try:
        # both are connected once each has registered as a replica (SHOW SLAVE HOSTS lists its id)
        def registered():
            ids = {row[0] for row in server.query("SHOW SLAVE HOSTS")}
            return {3205, 3206} <= ids
        _wait_for(lambda: "yes" if registered() else "", bool)
        server.execute("INSERT INTO pipelab.from_now VALUES (1, 'after both started')")
        _wait_for(lambda: out.read_text() if out.exists() else "", lambda t: "after both started" in t)
        _wait_for(lambda: read_segments(tmp_path / "out") if (tmp_path / "out").exists() else "",
                  lambda t: "after both started" in t)
    finally:
        for proc in (changes, run):
            proc.send_signal(signal.SIGTERM)
        for proc in (changes, run):
            proc.wait(60)
    a = [r for r in _records(out.read_text()) if "after" in r or "ddl" in r]
    b = [r for r in _records(read_segments(tmp_path / "out")) if "after" in r or "ddl" in r]
    assert a == b and [r["after"] for r in a if r.get("after")] == [{"id": 1, "v": "after both started"}]
