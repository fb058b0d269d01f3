"""`mysqlddl changes mysql://... --follow` stopped by a signal (Ctrl-C, a service manager's SIGTERM):
it stops cleanly, what was written is flushed, the usual summary is printed, and the exit code is
the shell's for that signal (128 + its number: 130 for SIGINT, 143 for SIGTERM), never a traceback.
A real follower process and real signals, on the session's lab MariaDB (its replication account)."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

pytestmark = pytest.mark.mariadb


def _ids(path, table: str) -> list[int]:
    if not path.exists():
        return []
    # (the lab account cannot read the tables' definitions: the columns are positional, col_1)
    return [next(iter(r["after"].values())) for r in map(json.loads, path.read_text().splitlines())
            if r.get("op") == "c" and r["source"]["table"] == table]


def _follow(srv, tmp_path, spawn_cli, server_id: int, table: str, *extra: str):
    srv.execute("CREATE DATABASE IF NOT EXISTS sig", f"CREATE TABLE IF NOT EXISTS sig.{table} (id INT PRIMARY KEY)")
    out = tmp_path / "out.jsonl"
    uri = f"mysql://{srv.REPL_USER}@127.0.0.1:{srv.port}/?server-id={server_id}&heartbeat=1&ssl-mode=disabled"
    run = spawn_cli("changes", uri, "--from-now", "--follow", "-o", out, *extra, env={"MYSQL_PWD": srv.REPL_PASSWORD},
                    stdout=subprocess.PIPE)
    time.sleep(2)
    srv.execute(*(f"INSERT INTO sig.{table} VALUES ({i})" for i in range(1, 6)))
    run.wait_until(lambda: len(_ids(out, table)) >= 5, 30, "5 rows")
    return run, out


@pytest.mark.parametrize(("signum", "rc"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_follower_cleanly(mariadb_server, tmp_path, spawn_cli, signum, rc):
    table = f"t{int(signum)}"
    run, out = _follow(mariadb_server, tmp_path, spawn_cli, 160 + int(signum), table)
    assert _ids(out, table) == [1, 2, 3, 4, 5]
    got, err = run.stop(signum, timeout=20)
    assert got == rc, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "DML rows 5" in err and f"sig.{table}: c=5" in err         # the usual text summary
    assert _ids(out, table) == [1, 2, 3, 4, 5]
    assert out.read_text().endswith("\n")


def test_a_signal_while_rows_stream_stops_at_a_record(mariadb_server, tmp_path, spawn_cli):
    """Stopped while a backlog streams (not waiting for the server): the output ends with a whole
    record, the JSON summary counts what was written."""
    srv = mariadb_server
    table = "backlog"
    run, out = _follow(srv, tmp_path, spawn_cli, 170, table, "--summary", "json")
    srv.execute(*(f"INSERT INTO sig.{table} VALUES " + ",".join(f"({t * 500 + i})" for i in range(1, 501))
                  for t in range(1, 60)))
    run.wait_until(lambda: len(_ids(out, table)) >= 1000, 30, "1,000 rows")
    rc, err = run.stop(signal.SIGINT, timeout=20)
    assert rc == 130, err[-3000:]
    assert "Traceback" not in err
    summary = json.loads(err.splitlines()[-1])
    written = [json.loads(x) for x in out.read_text().splitlines()]       # every line whole
    assert summary["dml_rows"] == sum(1 for r in written if "op" in r)


def test_ctrl_c_over_files_stops_without_a_traceback(mariadb_server, tmp_path, spawn_cli):
    """Over binlog files (no server stream to note the signal) Ctrl-C ends `changes` with exit 130 and
    one line, never a KeyboardInterrupt traceback (#30 item 11). The file: 40 transactions of 1,000
    rows of 600 bytes written on the session's MariaDB 10.11, its binlog flushed and copied."""
    srv = mariadb_server
    srv.execute("CREATE DATABASE IF NOT EXISTS sig", "FLUSH BINARY LOGS")
    path, _ = srv.current_binlog()
    srv.execute("CREATE TABLE IF NOT EXISTS sig.big (id INT PRIMARY KEY, pad VARCHAR(600))")
    for t in range(40):
        srv.execute(f"INSERT INTO sig.big SELECT seq, REPEAT('x', 600) "
                    f"FROM test.seq_{t * 1000 + 1}_to_{t * 1000 + 1000}")
    srv.execute("FLUSH BINARY LOGS", "DROP TABLE sig.big")
    binlog = tmp_path / path.name
    binlog.write_bytes(path.read_bytes())
    out = tmp_path / "out.jsonl"
    run = spawn_cli("changes", binlog, "-o", out, stdout=subprocess.PIPE)
    run.wait_until(lambda: out.exists() and out.stat().st_size > 1_000_000, 60, "1 MB of output", poll=0.01)
    rc, err = run.stop(signal.SIGINT, timeout=30)
    assert rc == 130, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.splitlines()[-1] == "mysqlddl changes: interrupted"
