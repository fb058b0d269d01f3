"""Failover, on a real pair of lab MariaDBs (tools/mariadb_lab.py: the replica writes its own binlog
with ``log_slave_updates`` and keeps the primary's GTIDs): a stream from the primary stops, the
replica is promoted, and the stream goes on from its GTID position against the promoted server;
the two outputs together equal the rows in the table, nothing lost or repeated. A stored file
position is refused there (issue #20: "a server that changed identity since a stored position
(failover: only a GTID position survives it)"): file names and offsets are per server. Refused by
the pipeline (its checkpoint's source identity, CheckpointError) and by the source itself given
the identity stored with the position (ServerIdentityError: MariaDB's identity is its server_id).

The pair is this module's own (the session's ``mariadb_replica`` is shared and must stay a replica).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from mysqlddl.errors import BinlogPurgedError, CheckpointError, ServerIdentityError
from mysqlddl.pipeline import run_pipeline
from mysqlddl.sources import SourceOptions, open_source

pytestmark = pytest.mark.mariadb


@pytest.fixture(scope="module")
def pair(mariadb_server, tool):
    """(primary server_id 11, replica server_id 12 replicating it with GTIDs)."""
    lab = tool("mariadb_lab")
    tmp = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp"))
    with lab.replication_pair(tmp / f"mdbfo-{os.getpid()}", 11, 12) as pair:
        yield pair


@pytest.fixture(autouse=True)
def _password(monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", "repl")       # the lab's replication account (tools/mariadb_lab.py)


def _writes(srv, start: int, transactions: int) -> None:
    """Transactions of inserts, updates and deletes on fo.t (ids from ``start * 10``)."""
    conn = srv.connect("fo")
    try:
        with conn.cursor() as cur:
            for t in range(start, start + transactions):
                cur.execute("BEGIN")
                cur.execute("INSERT INTO t VALUES " + ",".join(f"({t * 10 + i}, 'r{t}-{i}', {t})" for i in range(10)))
                if t % 3 == 1:
                    cur.execute("UPDATE t SET n = n + 1000, v = CONCAT(v, 'u') WHERE id BETWEEN %s AND %s",
                                ((t - 1) * 10, (t - 1) * 10 + 4))
                if t % 4 == 3:
                    cur.execute("DELETE FROM t WHERE id %% 3 = 0 AND id BETWEEN %s AND %s", ((t - 2) * 10, t * 10))
                cur.execute("COMMIT")
    finally:
        conn.close()


def _uri(srv, server_id: int) -> str:
    return f"mysql://repl@127.0.0.1:{srv.port}/?server-id={server_id}&ssl-mode=disabled"


def _replay(table: dict, path: Path, gtids: list) -> str | None:
    """Apply one `mysqlddl changes` output to ``table`` (id -> row values in column order; the
    column names are positional when the stream starts past the CREATE TABLE), refusing a row
    created twice or changed before it exists; collect the transactions' GTIDs. Returns the
    last transaction's GTID."""
    last = None
    for line in path.read_text(encoding="utf-8").splitlines():
        ch = json.loads(line)
        if ch.get("status") == "BEGIN":
            gtids.append(ch["id"])
            last = ch["id"]
            continue
        if "op" not in ch or ch["source"]["table"] != "t":
            continue
        before = tuple(ch["before"].values()) if ch["before"] else None
        after = tuple(ch["after"].values()) if ch["after"] else None
        if before is not None:
            was = table.get(before[0])
            assert was == before, f"{ch['op']} of row {before[0]} not as it was: {was}"
            del table[before[0]]
        if after is not None:
            assert after[0] not in table, f"row {after[0]} created twice"
            table[after[0]] = after
    return last


def test_a_gtid_position_survives_a_failover(pair, run_cli, tmp_path):
    primary, replica = pair
    primary.execute("CREATE DATABASE fo", "CREATE TABLE fo.t (id INT PRIMARY KEY, v VARCHAR(40), n INT)")
    _writes(primary, 0, 30)
    first = run_cli("changes", _uri(primary, 61), "--database", "fo", "--summary", "none", "-o", tmp_path / "a.jsonl")
    assert first.returncode == 0, first.stderr[-3000:]
    table: dict = {}
    gtids: list = []
    stored = _replay(table, tmp_path / "a.jsonl", gtids)
    assert stored is not None and stored.startswith("0-11-")
    # the primary goes on, the replica receives it, then the primary is lost and the replica promoted
    _writes(primary, 30, 20)
    replica.wait_caught_up()
    replica.promote()
    _writes(replica, 50, 20)
    second = run_cli("changes", _uri(replica, 62), "--start-gtid", stored, "--database", "fo", "--summary", "none",
                     "-o", tmp_path / "b.jsonl")
    assert second.returncode == 0, second.stderr[-3000:]
    _replay(table, tmp_path / "b.jsonl", gtids)
    rows = {r[0]: r for r in replica.query("SELECT id, v, n FROM fo.t")}
    assert table == rows and len(rows) > 500
    # every transaction once: 30 + 20 from the primary (the 20 through the replica's binlog), 20 of the new primary
    assert len(gtids) == len(set(gtids)) == 70
    assert sum(g.startswith("0-12-") for g in gtids) == 20


def test_a_file_position_is_refused_after_a_failover(pair, tmp_path):
    """The pipeline's checkpoint holds a file position and the identity of the server it was taken
    on; pointed at the other server of the pair, the run is refused before reading anything (also
    when the promoted server has no binlog of the stored file's name: not taken for a purge)."""
    primary, replica = pair
    if replica.primary is not None:       # (alone, without the test above)
        replica.promote()
    primary.execute("CREATE DATABASE IF NOT EXISTS fo2", "CREATE TABLE IF NOT EXISTS fo2.t (id INT PRIMARY KEY)",
                    "INSERT INTO fo2.t VALUES (1), (2)")
    # (FLUSH BINARY LOGS is never binlogged: the primary's file numbers move ahead of the replica's,
    # so the stored file does not even exist on the replica; the refusal must still be about identity)
    for _ in range(4):
        primary.flush_logs()
    primary.execute("INSERT INTO fo2.t VALUES (3)")
    conf = tmp_path / "p.toml"

    def write(srv, server_id):
        conf.write_text(f'[source]\nuri = "{_uri(srv, server_id)}"\n[sink]\nuri = "jsonl://{tmp_path}/out"\n'
                        f'[checkpoint]\nuri = "sqlite://{tmp_path}/state.db"\n', encoding="utf-8")
        return conf

    done = run_pipeline(write(primary, 63), once=True)
    assert done.checkpoint.source_id == "server:mariadb;server_id=11"
    assert done.checkpoint.position.file not in [p.name for p in replica.binlog_files()]
    before = sorted(p.name for p in (tmp_path / "out").iterdir())
    with pytest.raises(CheckpointError) as e:
        run_pipeline(write(replica, 64), once=True)
    msg = str(e.value)
    assert "another source" in msg and "server_id=11" in msg and "server_id=12" in msg, msg
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == before      # nothing written
    # the source alone, given the identity stored with a file position (MariaDB has no server_uuid:
    # its server_id), refuses the other server before planning anything, even where a file of that
    # name exists; a GTID start is not refused
    for pos in (f"{done.checkpoint.position.file}:{done.checkpoint.position.pos}", "mariadb-bin.000001:4"):
        with pytest.raises(ServerIdentityError) as e:
            open_source(_uri(replica, 66), SourceOptions(start=pos, expected_server_id=11))
        assert e.value.setting == "server_id" and "server_id is 12" in str(e.value) and "server_id 11" in str(e.value)
    with open_source(_uri(replica, 67), SourceOptions(start="mariadb-bin.000001:4", expected_server_id=12)) as src:
        assert src.start.file == "mariadb-bin.000001"
    gtid = replica.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0]
    with open_source(_uri(replica, 68), SourceOptions(start_gtid=gtid, expected_server_id=11)) as src:
        assert src.start_gtid == gtid
    # on the server it was taken on, a stored file that was purged stays a purge
    primary.flush_logs()
    newest = primary.current_binlog()[0].name
    deadline = time.monotonic() + 20
    while [p.name for p in primary.binlog_files()] != [newest] and time.monotonic() < deadline:
        # (PURGE skips a file a dump thread still has open: the run's, until the server notices it ended)
        primary.execute(f"PURGE BINARY LOGS TO '{newest}'")
        time.sleep(0.1)
    with pytest.raises(BinlogPurgedError) as e:
        run_pipeline(write(primary, 65), once=True)
    assert done.checkpoint.position.file in str(e.value)


def test_a_reconnect_that_reaches_another_server_is_refused(pair, tcp_proxy):
    """The address a stream uses moves to another server while it streams (a proxy in front of the
    primary sends new connections to the replica, and drops the old ones: a virtual IP after a
    failover). The source reconnects, sees another server_id, and stops with a ServerIdentityError
    naming both, rather than resume the primary's file position on the replica (whose binlogs are
    numbered its own way) or KILL the old dump's thread id there (another thread on that server)."""
    primary, replica = pair
    primary.execute("CREATE DATABASE IF NOT EXISTS fo3", "CREATE TABLE IF NOT EXISTS fo3.t (id INT PRIMARY KEY)",
                    "INSERT INTO fo3.t VALUES (1)")
    px = tcp_proxy(primary.port)
    uri = f"mysql://repl@127.0.0.1:{px.port}/?server-id=69&ssl-mode=disabled&heartbeat=1"
    src = open_source(uri, SourceOptions(follow=True, reconnect_delay=0.1, reconnect_attempts=3))
    outcome: dict = {}

    def read():
        try:
            for n, _ev in enumerate(src, 1):
                outcome["events"] = n
                if n == 5:
                    moved.set()
        except Exception as e:      # noqa: BLE001 -- the outcome is checked below
            outcome["error"] = e

    moved = threading.Event()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert moved.wait(30), outcome
    px.retarget(replica.port)
    px.cut_all()
    reader.join(60)
    try:
        assert not reader.is_alive(), "the stream went on after the address moved"
        e = outcome.get("error")
        assert isinstance(e, ServerIdentityError), outcome
        assert e.setting == "server_id" and "server_id 12, not 11" in str(e), str(e)
        assert src.reconnects == 1 and outcome["events"] >= 5
    finally:
        src.close()
