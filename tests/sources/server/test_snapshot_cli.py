"""`mysqlddl changes mysql://... --snapshot`: the consistent schema capture and initial snapshot
(mysqlddl.sources.server.snapshot) wired to the server source's start hook, on the private MariaDB
10.11 of tests/sources/conftest.py (SQL below)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def _changes(live, tmp_path, *args, server_id: int):
    env = dict(os.environ, MYSQL_PWD="live-pw")
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "changes", live.uri(server_id), *args,
                           "--summary", "none"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_initial_snapshot_then_the_stream_from_its_position(live, tmp_path):
    live.server.execute("CREATE DATABASE IF NOT EXISTS snapcli",
                        "CREATE TABLE snapcli.t (id INT PRIMARY KEY, v VARCHAR(10), d DECIMAL(6,2))",
                        "INSERT INTO snapcli.t VALUES (3,'c',3.30),(1,'a',1.10),(2,'b',2.20)")
    recs = _changes(live, tmp_path, "--snapshot", "initial", "--table", "snapcli.t", server_id=141)
    rows = [r for r in recs if r.get("op") == "r"]
    # the rows, in primary-key order, named and typed from the captured schema, marked as Debezium marks them
    assert [r["after"] for r in rows] == [{"id": 1, "v": "a", "d": "1.10"}, {"id": 2, "v": "b", "d": "2.20"},
                                          {"id": 3, "v": "c", "d": "3.30"}]
    assert [r["source"]["snapshot"] for r in rows] == ["true", "true", "last"]
    # the stream starts at the captured position and (a quiet server) stops there: nothing after
    assert recs == rows
    pos = (rows[0]["source"]["file"], rows[0]["source"]["pos"])
    assert pos[0] == live.server.query("SHOW MASTER STATUS")[0][0]


def test_from_now_captures_the_schema_in_force_there(live, tmp_path):
    # --from-now (--snapshot auto): a table created long before the start gets its column names
    # from the capture, not col_1..n (a baseline taken with the position, under one lock)
    live.server.execute("CREATE DATABASE IF NOT EXISTS snapcli",
                        "CREATE TABLE IF NOT EXISTS snapcli.u (id INT PRIMARY KEY, name VARCHAR(20))")
    out = tmp_path / "follow.jsonl"
    env = dict(os.environ, MYSQL_PWD="live-pw")
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "changes", live.uri(142), "--from-now", "--follow",
                             "--table", "snapcli.u", "-o", str(out), "--summary", "none"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not any(int(r[0]) == 142 for r in live.server.query("SHOW SLAVE HOSTS")):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read() if proc.poll() else ""
            time.sleep(0.05)
        live.server.execute("INSERT INTO snapcli.u VALUES (9, 'nine')")
        deadline = time.monotonic() + 15
        while '"name":"nine"' not in (out.read_text() if out.exists() else ""):
            assert time.monotonic() < deadline, out.read_text() if out.exists() else "(no file)"
            time.sleep(0.05)
        (row,) = [json.loads(x) for x in out.read_text().splitlines() if '"op":"c"' in x]
        assert row["after"] == {"id": 9, "name": "nine"} and row["source"]["snapshot"] == "false"
    finally:
        proc.terminate()
        proc.wait(10)


def test_snapshot_and_a_baseline_file_exclude_each_other(live, tmp_path):
    env = dict(os.environ, MYSQL_PWD="live-pw")
    schema = tmp_path / "s.sql"
    schema.write_text("CREATE TABLE x (a INT);")
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "changes", live.uri(143), "--snapshot", "initial",
                           "--schema", str(schema)], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and "leave out --schema" in proc.stderr and not proc.stdout


def test_the_summary_counts_the_snapshot_rows(live, tmp_path):
    # the op "r" rows are no DML of the binlog: their own count, per table and in all, in the text
    # and the JSON summary (they were left out of both)
    live.server.execute("CREATE DATABASE IF NOT EXISTS snapsum",
                        "CREATE TABLE IF NOT EXISTS snapsum.a (id INT PRIMARY KEY)",
                        "CREATE TABLE IF NOT EXISTS snapsum.b (id INT PRIMARY KEY)",
                        "INSERT IGNORE INTO snapsum.a VALUES (1),(2),(3)",
                        "INSERT IGNORE INTO snapsum.b VALUES (1),(2)")
    env = dict(os.environ, MYSQL_PWD="live-pw")
    base = [sys.executable, "-m", "mysqlddl", "changes", live.uri(144), "--snapshot", "initial", "--database",
            "snapsum", "-o", str(tmp_path / "out.jsonl")]
    text = subprocess.run(base, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert text.returncode == 0, text.stderr
    lines = text.stderr.splitlines()
    assert "DML rows 0," in lines[0]
    assert "snapshot rows 5 (op r: the tables as they were at the start position)" in lines
    assert "  snapsum.a: r=3" in lines and "  snapsum.b: r=2" in lines
    js = subprocess.run([*base, "--summary", "json"], env=env, cwd=tmp_path, capture_output=True, text=True,
                        timeout=120)
    assert js.returncode == 0, js.stderr
    d = json.loads(js.stderr.splitlines()[-1])
    assert (d["dml_rows"], d["snapshot_rows"]) == (0, 5)
    assert d["rows"] == {"snapsum.a": {"r": 3}, "snapsum.b": {"r": 2}}
