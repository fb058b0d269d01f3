"""`mysqlddl changes mysql://...`: what the CLI says about a server input, on the session's private
MariaDB (tests/conftest.py `mariadb_server`, its replication account repl/repl): a start position
inside an event (error 1236, which MariaDB words as an event over max_allowed_packet) and the
server source's warnings as one plain line (issue #30 item 14)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest


@pytest.fixture
def server_changes(mariadb_server, run_cli):
    """``server_changes(*args, query="")``: `mysqlddl changes mysql://repl@127.0.0.1:PORT/?server-id=4711ARGS`."""

    def run(*args, query=""):
        uri = f"mysql://repl@127.0.0.1:{mariadb_server.port}/?server-id=4711{query}"
        return run_cli("changes", uri, "--summary", "none", *args, env={"MYSQL_PWD": "repl"}, timeout=120)

    return run


def _events(server, name: str) -> list[tuple[int, int]]:
    """(start, end) of every event of binlog ``name`` (SHOW BINLOG EVENTS: Pos, End_log_pos)."""
    return [(int(r[1]), int(r[4])) for r in server.query(f"SHOW BINLOG EVENTS IN '{name}'")]


def test_a_start_position_inside_an_event(mariadb_server, server_changes):
    mariadb_server.execute("CREATE DATABASE IF NOT EXISTS cli_server_input",
                           "CREATE TABLE IF NOT EXISTS cli_server_input.t (id INT PRIMARY KEY, v TEXT)",
                           "INSERT INTO cli_server_input.t VALUES (1, REPEAT('x', 3000))")
    path, _ = mariadb_server.current_binlog()
    start, end = next((s, e) for s, e in _events(mariadb_server, path.name) if e - s > 3000)
    # in the middle of the row's 'xxx...': the server reads 0x78787878 as the event's length and
    # says the event exceeds max_allowed_packet; near an event's start, that the binlog is truncated
    for pos in (start + 1000, start + 3):
        proc = server_changes("--start-position", f"{path.name}:{pos}")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        last = proc.stderr.splitlines()[-1]
        assert "not the start of an event" in last and "[setting: --start-position]" in last, last
        assert "SET GLOBAL max_allowed_packet" not in last


def test_server_warnings_are_one_plain_line(mariadb_server, server_changes, tmp_path):
    # The server source's one warning: repl lacks REPLICATION MASTER ADMIN, so SHOW SLAVE HOSTS is
    # refused; with another replica connected (a follower on server-id 4712) the clash cannot be
    # ruled out, and the opt-in allow-server-id-takeover=yes starts with a warning saying so.
    uri = f"mysql://repl@127.0.0.1:{mariadb_server.port}/?server-id=4712"
    follower = subprocess.Popen([sys.executable, "-m", "mysqlddl", "changes", uri, "--from-now", "--follow",
                                 "--summary", "none", "-o", str(tmp_path / "f.jsonl")], cwd=tmp_path,
                                env={**os.environ, "MYSQL_PWD": "repl"}, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while int(mariadb_server.query("SHOW GLOBAL STATUS LIKE 'Slaves_connected'")[0][1]) < 1:
            assert follower.poll() is None and time.monotonic() < deadline, follower.stderr.read()
            time.sleep(0.1)
        proc = server_changes("--from-now", query="&allow-server-id-takeover=yes")
    finally:
        follower.send_signal(signal.SIGTERM)
        follower.communicate(timeout=60)
    assert proc.returncode == 0 and "mysqlddl: warning: " in proc.stderr, proc.stderr
    assert "server-id 4711 is not checked for a clash" in proc.stderr
    for line in proc.stderr.splitlines():
        assert line.startswith("mysqlddl: warning: "), proc.stderr
    assert ".py:" not in proc.stderr
