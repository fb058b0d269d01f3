"""The server-id clash check (mysqlddl/sources/server/checks.py) for an account that cannot list the
replicas: on MariaDB 10.5.2+ SHOW SLAVE HOSTS needs REPLICATION MASTER ADMIN, which a replication
account with only REPLICATION SLAVE and REPLICATION CLIENT (BINLOG MONITOR) lacks. A second stream
with the server-id of a running one must be refused, never let the server end the running one
(error 4052, "A slave with the same server_uuid/server_id as this slave has connected to the
master"); the refusal says which check could not be made and how to make it or opt out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pymysql
import pytest

from mysqlddl.errors import ReplicaIdConflictError, SourceUriError
from mysqlddl.sources import SourceOptions, open_source
from mysqlddl.sources.server.checks import SourceWarning
from mysqlddl.sources.uri import parse_uri

from ..conftest import PASSWORD

pytestmark = pytest.mark.mariadb


@pytest.fixture(scope="module")
def minimal(live):
    """An account with what streaming needs and no more (no REPLICATION MASTER ADMIN, no PROCESS)."""
    live.server.execute(f"CREATE OR REPLACE USER 'minrepl'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                        "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'minrepl'@'127.0.0.1'",
                        "CREATE TABLE IF NOT EXISTS lab.clash (id INT PRIMARY KEY)")
    conn = pymysql.connect(user="minrepl", password=PASSWORD, host="127.0.0.1", port=live.server.port)
    try:
        with conn.cursor() as cur, pytest.raises(pymysql.err.OperationalError, match="MASTER ADMIN"):
            cur.execute("SHOW SLAVE HOSTS")
    finally:
        conn.close()
    return live


def _ids(path) -> list[int]:
    if not path.exists():
        return []
    return [next(iter(r["after"].values())) for r in map(json.loads, path.read_text().splitlines())
            if r.get("op") == "c" and r["source"]["table"] == "clash"]


def _follower(live, server_id: int, out, *, extra: str = ""):
    uri = live.uri(server_id, user="minrepl", heartbeat=1, ssl_mode="disabled") + extra
    return subprocess.Popen([sys.executable, "-m", "mysqlddl", "changes", uri, "--from-now", "--follow",
                             "--summary", "none", "-o", str(out)], cwd=out.parent, env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _registered(live, server_id: int) -> bool:
    return any(int(r[0]) == server_id for r in live.server.query("SHOW SLAVE HOSTS"))


def test_a_second_stream_with_the_same_server_id_is_refused(minimal, tmp_path):
    live = minimal
    first = _follower(live, 190, tmp_path / "first.jsonl")
    try:
        deadline = time.monotonic() + 30
        while not _registered(live, 190) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _registered(live, 190), first.stderr.read().decode()[-3000:]
        second = subprocess.run([sys.executable, "-m", "mysqlddl", "changes",
                                 live.uri(190, user="minrepl", heartbeat=1, ssl_mode="disabled"), "--from-now",
                                 "--follow", "-o", str(tmp_path / "second.jsonl")],
                                cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1, second.stderr
        assert "Traceback" not in second.stderr
        assert "server-id 190" in second.stderr and "SHOW SLAVE HOSTS" in second.stderr
        assert "REPLICATION MASTER ADMIN" in second.stderr and "allow-server-id-takeover" in second.stderr
        # the running one was not ended: it goes on delivering
        live.server.execute(*(f"INSERT INTO lab.clash VALUES ({i})" for i in range(1, 4)))
        deadline = time.monotonic() + 30
        while len(_ids(tmp_path / "first.jsonl")) < 3 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first.poll() is None, first.stderr.read().decode()[-3000:]
        assert _ids(tmp_path / "first.jsonl") == [1, 2, 3]
    finally:
        first.kill()
        first.wait(10)


def test_the_check_passes_when_no_replica_is_connected(minimal):
    """Without the list, the number of dump threads (Slaves_connected, readable by any account)
    still tells that nothing can clash when it is 0."""
    live = minimal
    deadline = time.monotonic() + 20
    while int(dict(live.server.query("SHOW GLOBAL STATUS LIKE 'Slaves_connected'"))["Slaves_connected"]) \
            and time.monotonic() < deadline:
        time.sleep(0.2)       # (the followers of the tests before end)
    open_source(live.uri(191, user="minrepl", ssl_mode="disabled"), SourceOptions(from_now=True)).close()


def test_the_opt_in_starts_without_the_check(minimal, tmp_path):
    live = minimal
    first = _follower(live, 192, tmp_path / "first.jsonl")
    try:
        deadline = time.monotonic() + 30
        while not _registered(live, 192) and time.monotonic() < deadline:
            time.sleep(0.05)
        with pytest.raises(ReplicaIdConflictError):
            open_source(live.uri(193, user="minrepl", heartbeat=0.2, ssl_mode="disabled"), SourceOptions(from_now=True))
        src = open_source(live.uri(193, user="minrepl", ssl_mode="disabled", allow_server_id_takeover="yes"),
                          SourceOptions(from_now=True))
        src.close()
        # the opt-in with the running stream's own id: the takeover it accepts, said as such by the one ended
        with pytest.warns(SourceWarning, match="server-id 192 is not checked"):
            src = open_source(live.uri(192, user="minrepl", ssl_mode="disabled", allow_server_id_takeover="yes"),
                              SourceOptions(from_now=True, follow=True))
        try:
            next(iter(src))
            _, err = first.communicate(timeout=30)
        finally:
            src.close()
        assert first.returncode == 1 and "Traceback" not in err.decode()
        assert "(server-id 192): the server ended this stream" in err.decode()
        assert "[setting: server-id]" in err.decode()
    finally:
        first.kill()
        first.wait(10)


def test_the_opt_in_value_is_checked():
    assert parse_uri("mysql://u@h/?server-id=3&allow-server-id-takeover=yes").allow_server_id_takeover
    assert not parse_uri("mysql://u@h/?server-id=3").allow_server_id_takeover
    with pytest.raises(SourceUriError, match="yes or no"):
        parse_uri("mysql://u@h/?server-id=3&allow-server-id-takeover=maybe")
