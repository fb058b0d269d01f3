"""The checkpointed pipeline across a failover (mysqlddl/pipeline/failover.py), on a real pair of lab
MariaDBs (tools/mariadb_lab.py, as tests/sources/server/test_failover.py: the replica writes its own binlog
with ``log_slave_updates`` and keeps the primary's GTIDs).

The module's scenario: on the primary, tables in three databases get rows and a DDL; pipeline A
runs to the end and stops, pipeline B is SIGKILLed mid-stream (after its 12th sink commit,
before that checkpoint); the primary goes on (replicated), the replica is promoted, and the
promoted server gets more rows and another DDL. Then each pipeline, pointed at the promoted server,
goes on from its checkpoint's GTID set: its output, replayed, equals the table on the promoted
server (no row lost, none repeated: a row created twice or changed from another state fails the
replay), the DDL after the failover shapes the rows after it, and the checkpoint (and `mysqlddl
status`) names the new server. B is also killed twice on the new server (before and after its first
checkpoint there). A checkpoint holding GTIDs the new server lacks gets FailoverError, and
``on_identity_change = "error"`` refuses as before.

The pair is this module's own (promotion is one-way).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from mysqlddl.errors import CheckpointError, FailoverError
from mysqlddl.pipeline import pipeline_status, run_pipeline
from mysqlddl.pipeline.failover import ONLY_GTID

pytestmark = pytest.mark.mariadb

#: the DDLs of the scenario: on the primary (before the stop), on the promoted server (after)
ADDED = {"x": "p", "w": 7}


@pytest.fixture(scope="module")
def pair(tool):
    """(primary server_id 21, replica server_id 22 replicating it with GTIDs)."""
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{lab.INSTALL_HINT} (CI=true: this must not be skipped)", pytrace=False)
        pytest.skip(lab.INSTALL_HINT)
    tmp = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp"))
    with lab.replication_pair(tmp / f"mdbfp-{os.getpid()}", 21, 22) as pair:
        yield pair


@pytest.fixture(scope="module", autouse=True)
def _password():
    old = os.environ.get("MYSQL_PWD")
    os.environ["MYSQL_PWD"] = "repl"        # the lab's replication account (tools/mariadb_lab.py)
    yield
    if old is None:
        os.environ.pop("MYSQL_PWD", None)
    else:
        os.environ["MYSQL_PWD"] = old


def _writes(srv, db: str, start: int, transactions: int) -> int:
    """Transactions of inserts, updates and deletes on ``db``.t (ids from ``start * 10``); the
    number of transactions."""
    conn = srv.connect(db)
    try:
        with conn.cursor() as cur:
            for t in range(start, start + transactions):
                cur.execute("BEGIN")
                cur.execute("INSERT INTO t (id, v, n) VALUES " +
                            ",".join(f"({t * 10 + i}, 'r{t}-{i}', {t})" for i in range(6)))
                if t % 3 == 1:
                    cur.execute("UPDATE t SET n = n + 1000, v = CONCAT(v, 'u') WHERE id BETWEEN %s AND %s",
                                ((t - 1) * 10, (t - 1) * 10 + 3))
                if t % 4 == 3:
                    cur.execute("DELETE FROM t WHERE id %% 3 = 0 AND id BETWEEN %s AND %s", ((t - 2) * 10, t * 10))
                cur.execute("COMMIT")
    finally:
        conn.close()
    return transactions


def _uri(srv, server_id: int, port: int | None = None) -> str:
    return f"mysql://repl@127.0.0.1:{port or srv.port}/?server-id={server_id}&ssl-mode=disabled"


def _pipeline(path: Path, srv, server_id: int, db: str, extra: str = "", port: int | None = None) -> Path:
    d = path.parent
    path.write_text(f'[source]\nuri = "{_uri(srv, server_id, port)}"\n{extra}[sink]\nuri = "jsonl://{d}/out-{db}"\n'
                    f'segment_bytes = 3000\nsequence = "line"\n[checkpoint]\nuri = "sqlite://{d}/state-{db}.db"\n'
                    f'every_transactions = 4\nevery_ms = 600000\n[changes]\ndatabases = ["{db}"]\n',
                    encoding="utf-8")
    return path


def _pg_pipeline(path: Path, srv, server_id: int, pg_uri: str) -> Path:
    """Pipeline D: fpd into PostgreSQL (its checkpoint kept in the target, with the rows)."""
    path.write_text(f'name = "d"\n[source]\nuri = "{_uri(srv, server_id)}"\n[sink]\nuri = "{pg_uri}"\n'
                    f'[checkpoint]\nevery_transactions = 4\nevery_ms = 600000\n[changes]\ndatabases = ["fpd"]\n',
                    encoding="utf-8")
    return path


def _run(conf: Path, fault: str | None = None):
    env = dict(os.environ, MYSQL_PWD="repl")
    env.pop("MYSQLDDL_FAULT", None)
    if fault:
        env["MYSQLDDL_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "mysqlddl", "run", str(conf), "--once", "--summary", "none"],
                          env=env, cwd=conf.parent, capture_output=True, text=True, timeout=300)


def _lines(out: Path) -> list[dict]:
    # (closed segments in name order, which is log order across failovers too, then the open one)
    names = sorted(p.name for p in out.iterdir() if p.name.endswith(".jsonl"))
    names += sorted(p.name for p in out.iterdir() if p.name.endswith(".jsonl.tmp"))
    return [json.loads(line) for n in names for line in (out / n).read_text(encoding="ascii").splitlines()]


def _check_output(lines: list[dict], srv, db: str, transactions: int) -> dict:
    """Replay the output into a table and compare it with the server's; every event once. Returns
    counts for the caller's own checks."""
    table: dict = {}
    events, gtids = [], set()
    added = []                   # the columns added so far (in output order)
    for ch in lines:
        if "ddl" in ch:
            for col, default in ADDED.items():
                if f"ADD COLUMN {col}" in ch["ddl"]:
                    added.append(col)
                    for row in table.values():
                        row[col] = default       # (what the server gave the rows already there)
            continue
        if "op" not in ch:
            continue
        src = ch["source"]
        assert src["db"] == db and src["table"] == "t"
        before, after = ch["before"], ch["after"]
        # the schema in force: every column added by a DDL before this row is in its images
        for image in (before, after):
            if image is not None:
                assert sorted(image) == sorted(["id", "v", "n", *added]), (image, added)
        events.append((src["gtid"], ch["op"], json.dumps(before, sort_keys=True), json.dumps(after, sort_keys=True)))
        gtids.add(src["gtid"])
        if before is not None:
            assert table.get(before["id"]) == before, f"{ch['op']} of row {before['id']} not as it was"
            del table[before["id"]]
        if after is not None:
            assert after["id"] not in table, f"row {after['id']} created twice"
            table[after["id"]] = dict(after)
    conn = srv.connect(db)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT * FROM t")
            names = [d[0] for d in cur.description]
            rows = {r[0]: dict(zip(names, r, strict=True)) for r in cur.fetchall()}
    finally:
        conn.close()
    assert table == rows and len(rows) > 100
    assert len(events) == len(set(events)), "an event delivered twice"
    assert len(gtids) == transactions, (len(gtids), transactions)
    seqs = [ch["seq"] for ch in lines]
    assert seqs == list(range(len(seqs))), "the per-line sequence repeats or skips"
    assert added == list(ADDED)
    return {"events": len(events), "gtids": gtids}


@pytest.fixture(scope="module")
def scenario(pair, pg_server, tcp_proxy, tmp_path_factory):
    primary, replica = pair
    tmp = tmp_path_factory.mktemp("failover-pipeline")
    counts = {}
    for db in ("fpa", "fpb", "fpc", "fpd", "fpe"):
        primary.execute(f"CREATE DATABASE {db}", f"CREATE TABLE {db}.t (id INT PRIMARY KEY, v VARCHAR(40), n INT)")
    # (FLUSH BINARY LOGS is not replicated: the primary's file numbers run ahead of the replica's,
    # so the promoted server's positions sort before the checkpoints', as after a real failover)
    for _ in range(5):
        primary.flush_logs()
    for db in ("fpa", "fpb", "fpc", "fpd", "fpe"):
        counts[db] = _writes(primary, db, 0, 12)
        primary.execute(f"ALTER TABLE {db}.t ADD COLUMN x VARCHAR(10) DEFAULT 'p'")
        counts[db] += _writes(primary, db, 12, 8)
    # (a view the re-based history must carry: it is dropped on the promoted server)
    primary.execute("CREATE VIEW fpa.tv AS SELECT id, v FROM fpa.t")
    a = _pipeline(tmp / "a.toml", primary, 71, "fpa")
    first = run_pipeline(a, once=True)
    assert first.checkpoint.source_id == "server:mariadb;server_id=21"
    b = _pipeline(tmp / "b.toml", primary, 72, "fpb")
    killed = _run(b, "after-sink-commit@12")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    pg_uri = pg_server.create_database("failover_pipeline")
    d = _pg_pipeline(tmp / "d.toml", primary, 78, pg_uri)
    killed = _run(d, "after-sink-commit@5")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    # E follows (no --once) through an address that moves from the primary to the promoted replica
    # while it runs (a proxy, tests/sources/proxy.py, as a virtual IP)
    px = tcp_proxy(primary.port)
    e = _pipeline(tmp / "e.toml", primary, 80, "fpe", port=px.port)
    env = dict(os.environ, MYSQL_PWD="repl")
    env.pop("MYSQLDDL_FAULT", None)
    follower = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(e), "--summary", "none"], env=env,
                                cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _caught_up(e, primary, follower)
        for db in ("fpa", "fpb", "fpd", "fpe"):
            counts[db] += _writes(primary, db, 20, 10)       # (after the stop: reaches the replica only)
        replica.wait_caught_up()
        _caught_up(e, primary, follower)
        replica.promote()
        px.retarget(replica.port)
        px.cut_all()
        for db in ("fpa", "fpb", "fpd", "fpe"):
            counts[db] += _writes(replica, db, 30, 6)
            replica.execute(f"ALTER TABLE {db}.t ADD COLUMN w INT DEFAULT 7")
            counts[db] += _writes(replica, db, 36, 10)
        replica.execute("DROP VIEW fpa.tv")
        _caught_up(e, replica, follower)
    finally:
        follower.send_signal(signal.SIGTERM)
        _, err = follower.communicate(timeout=60)
    assert follower.returncode == 0, err.decode(errors="replace")[-3000:]
    return {"tmp": tmp, "a": a, "b": b, "counts": counts, "primary": primary, "replica": replica,
            "a_checkpoint": first.checkpoint, "pg_uri": pg_uri, "e": e}


def _caught_up(conf: Path, srv, proc, timeout: float = 60) -> None:
    """Wait until the following pipeline's checkpoint holds every GTID of ``srv``'s binlog."""
    def seqs(text: str) -> dict:
        return {g.split("-")[0]: int(g.split("-")[2]) for g in text.split(",") if g}
    want = seqs(srv.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0])
    deadline = time.monotonic() + timeout
    ck = None
    while time.monotonic() < deadline:
        try:
            ck = pipeline_status(conf)["checkpoint"]
        except CheckpointError:
            ck = None               # (no store yet: the first commit makes it)
        if ck is not None and seqs(ck["gtid_set"]) == want:
            return
        if proc.poll() is not None:
            pytest.fail(f"the follower ended ({proc.returncode}): {proc.stderr.read().decode()[-3000:]}")
        time.sleep(0.2)
    pytest.fail(f"the follower did not reach {want} in {timeout:g} s (checkpoint: {ck and ck['gtid_set']})")


def test_a_stopped_pipeline_goes_on_across_the_failover(scenario, run_cli):
    s = scenario
    replica, tmp = s["replica"], s["tmp"]
    before = sorted(p.name for p in (tmp / "out-fpa").iterdir())
    # refusing instead, as configured: the old refusal, which says why
    refuse = _pipeline(tmp / "a.toml", replica, 73, "fpa", 'on_identity_change = "error"\n')
    with pytest.raises(CheckpointError) as e:
        run_pipeline(refuse, once=True)
    assert not isinstance(e.value, FailoverError)
    assert "server_id=21" in str(e.value) and "server_id=22" in str(e.value) and ONLY_GTID in str(e.value)
    assert sorted(p.name for p in (tmp / "out-fpa").iterdir()) == before       # nothing written
    conf = _pipeline(tmp / "a.toml", replica, 74, "fpa")
    done = run_pipeline(conf, once=True)
    ck = done.checkpoint
    assert ck.source_id == "server:mariadb;server_id=22"
    assert ck.failover["epoch"] == 1 and ck.failover["from"] == "server:mariadb;server_id=21"
    assert ck.failover["gtid_set"] == s["a_checkpoint"].gtid_set
    # (the new server's positions: its own binlog, numbered its own way)
    assert ck.position.file in [p.name for p in replica.binlog_files()]
    assert ck.position.file_seq < s["a_checkpoint"].position.file_seq
    got = _check_output(_lines(tmp / "out-fpa"), replica, "fpa", s["counts"]["fpa"])
    assert any(g.startswith("0-22-") for g in got["gtids"]) and any(g.startswith("0-21-") for g in got["gtids"])
    # the segments after the failover are named in epoch 1, after the old server's
    names = sorted(p.name for p in (tmp / "out-fpa").iterdir())
    assert any(n.startswith("changes-e0001.") for n in names) and not names[0].startswith("changes-e")
    # the store: a new history for the new server (its baseline the schema at the checkpoint, then
    # the DDL after the failover), the old server's kept aside under another name
    db = sqlite3.connect(tmp / "state-fpa.db")
    try:
        kept = db.execute("SELECT COUNT(*) FROM history WHERE pipeline='a#epoch0'").fetchone()[0]
        now = [json.loads(r[0]) for r in db.execute("SELECT line FROM history WHERE pipeline='a' ORDER BY idx")]
    finally:
        db.close()
    # (the history records every DDL, filtered or not: the ALTERs of fpa.t, fpb.t, fpd.t and fpe.t after
    # the failover, and the DROP VIEW of the view the re-based baseline carried)
    assert kept == s["a_checkpoint"].history_version + 1 and ck.history_version == 5 and len(now) == 6
    assert [v["id"]["name"] for v in now[0]["baseline_views"]] == ["tv"] and "DROP VIEW" in now[5]["ddl"]
    base = {(t["id"]["database"], t["id"]["name"]): t for t in now[0]["baseline"]}
    assert [c["name"] for c in base["fpa", "t"]["columns"]] == ["id", "v", "n", "x"]
    assert all("ADD COLUMN w" in r["ddl"] for r in now[1:5])
    # a second run on the promoted server: same server now, nothing again
    count = len(_lines(tmp / "out-fpa"))
    again = run_pipeline(conf, once=True)
    assert again.checkpoint.position == ck.position and again.checkpoint.failover == ck.failover
    assert len(_lines(tmp / "out-fpa")) == count
    _check_output(_lines(tmp / "out-fpa"), replica, "fpa", s["counts"]["fpa"])
    st = pipeline_status(conf)
    assert st["checkpoint"]["source_id"] == "server:mariadb;server_id=22" and st["checkpoint"]["failover"]["epoch"] == 1
    shown = run_cli("status", conf)
    assert shown.returncode == 0, shown.stderr
    assert "source: server:mariadb;server_id=22" in shown.stdout
    assert "failover 1: from server:mariadb;server_id=21" in shown.stdout


def test_a_killed_pipeline_goes_on_across_the_failover(scenario):
    """B was SIGKILLed on the old primary between a sink commit and its checkpoint; on the new
    server it is killed again after its first sink commit there (the checkpoint still the old
    server's: the failover is followed again from it, the segment written past it removed), and
    after its second (its first checkpoint on the new server stored); the last run finishes."""
    s = scenario
    replica, tmp = s["replica"], s["tmp"]
    conf = _pipeline(tmp / "b.toml", replica, 75, "fpb")
    old = pipeline_status(conf)["checkpoint"]
    first = _run(conf, "after-sink-commit@1")
    assert first.returncode == -signal.SIGKILL, first.stderr[-2000:]
    assert pipeline_status(conf)["checkpoint"]["source_id"] == "server:mariadb;server_id=21"
    second = _run(conf, "after-sink-commit@2")
    assert second.returncode == -signal.SIGKILL, second.stderr[-2000:]
    st = pipeline_status(conf)["checkpoint"]
    assert st["source_id"] == "server:mariadb;server_id=22" and st["failover"]["epoch"] == 1
    assert st["file_seq"] < old["file_seq"]
    # (B had delivered much on the old server: closed segments there that a restart must keep)
    assert old["sequence"] > 100 and old["file_seq"] == 6
    final = _run(conf)
    assert final.returncode == 0, final.stderr[-3000:]
    _check_output(_lines(tmp / "out-fpb"), replica, "fpb", s["counts"]["fpb"])
    assert not any(p.name.endswith(".tmp") for p in (tmp / "out-fpb").iterdir())


def test_a_postgresql_sink_goes_on_across_the_failover(scenario):
    """D keeps its checkpoint in the PostgreSQL target, in the transaction of the rows it covers; it
    was SIGKILLed on the old primary after its 5th commit. Pointed at the promoted server it follows
    the failover from the target's GTID set, is killed after its first commit there (the target's
    checkpoint row then names the new server), and finishes: the target's table equals the promoted
    server's row for row, including the column added there after the failover."""
    s = scenario
    replica, tmp, pg_uri = s["replica"], s["tmp"], s["pg_uri"]
    conf = _pg_pipeline(tmp / "d.toml", replica, 79, pg_uri)
    old = pipeline_status(conf)["checkpoint"]
    assert old["source_id"] == "server:mariadb;server_id=21"
    first = _run(conf, "after-sink-commit@1")
    assert first.returncode == -signal.SIGKILL, first.stderr[-2000:]
    st = pipeline_status(conf)["checkpoint"]
    assert st["source_id"] == "server:mariadb;server_id=22" and st["failover"]["epoch"] == 1
    assert st["failover"]["gtid_set"] == old["gtid_set"]
    final = _run(conf)
    assert final.returncode == 0, final.stderr[-3000:]
    conn = replica.connect("fpd")
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT id, v, n, x, w FROM t ORDER BY id")
            want = [tuple(r) for r in cur.fetchall()]
    finally:
        conn.close()
    with psycopg.connect(pg_uri) as pg:
        got = pg.execute("SELECT id, v, n, x, w FROM fpd.t ORDER BY id").fetchall()
    assert len(want) > 100 and any(r[4] == 7 for r in want) and any(r[3] == "p" for r in want)
    assert got == want
    done = pipeline_status(conf)
    assert done["checkpoint"]["source_id"] == "server:mariadb;server_id=22"
    assert done["stats"]["transactions"] == s["counts"]["fpd"]


def test_a_following_pipeline_goes_on_when_its_address_moves(scenario):
    """E followed the primary through an address that moved to the promoted replica while it ran:
    its source reconnected, met another server (ServerIdentityError), and the run went on from its
    checkpoint's GTID set on the new server, then stopped on SIGTERM. Its output, replayed, equals
    the promoted server's table, every transaction once, the DDL after the failover in place."""
    s = scenario
    replica, tmp = s["replica"], s["tmp"]
    _check_output(_lines(tmp / "out-fpe"), replica, "fpe", s["counts"]["fpe"])
    ck = pipeline_status(s["e"])["checkpoint"]
    assert ck["source_id"] == "server:mariadb;server_id=22" and ck["failover"]["epoch"] == 1
    assert ck["failover"]["from"] == "server:mariadb;server_id=21"
    assert not any(p.name.endswith(".tmp") for p in (tmp / "out-fpe").iterdir())


def test_a_server_lacking_delivered_transactions_is_not_followed(scenario):
    """The old primary, diverged after the promotion, writes transactions in a domain the promoted
    server never had; a pipeline that delivered them cannot go on there: FailoverError, nothing
    written."""
    s = scenario
    primary, replica, tmp = s["primary"], s["replica"], s["tmp"]
    promoted_pos = replica.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0]
    # first in domain 0, at a seq_no the promoted server has passed (its own GTIDs there): the
    # per-domain check passes it, the server's dump refuses it (MariaDB error 1236, "diverged");
    # then in a domain the promoted server never had
    for domain, row in ((0, 9001), (5, 9002)):
        conn = primary.connect("fpc")
        try:
            with conn.cursor() as cur:
                cur.execute(f"SET SESSION gtid_domain_id = {domain}")
                cur.execute(f"INSERT INTO t (id, v, n) VALUES ({row}, 'lost', 1)")
        finally:
            conn.close()
        conf = _pipeline(tmp / "c.toml", primary, 76, "fpc")
        done = run_pipeline(conf, once=True)
        if domain == 0:
            mine = int(done.checkpoint.gtid_set.split("-")[2].split(",")[0])
            assert done.checkpoint.gtid_set.startswith("0-21-") and mine < int(promoted_pos.split("-")[2])
        else:
            assert "5-21-" in done.checkpoint.gtid_set
        before = sorted(p.name for p in (tmp / "out-fpc").iterdir())
        with pytest.raises(FailoverError) as e:
            run_pipeline(_pipeline(tmp / "c.toml", replica, 77, "fpc"), once=True)
        msg = str(e.value)
        assert "lacks transactions" in msg and "server_id=21" in msg and "server_id=22" in msg, msg
        assert sorted(p.name for p in (tmp / "out-fpc").iterdir()) == before
        assert pipeline_status(conf)["checkpoint"]["source_id"] == "server:mariadb;server_id=21"


def test_without_a_gtid_set_the_checkpoint_is_refused(tmp_path):
    """A checkpoint without GTIDs (a server without GTIDs: MySQL gtid_mode OFF) on another server:
    the refusal, saying why; decided before the server is asked anything (no server here)."""
    from mysqlddl.pipeline.checkpoint import Checkpoint
    from mysqlddl.pipeline.config import load_config
    from mysqlddl.pipeline.failover import follow
    from mysqlddl.positions import BinlogPosition
    from mysqlddl.sources import open_source

    conf = tmp_path / "p.toml"
    conf.write_text('[source]\nuri = "mysql://repl@127.0.0.1:9/?server-id=5"\n[sink]\nuri = "jsonl:///x"\n',
                    encoding="utf-8")
    cfg = load_config(conf)
    # (lazy: the refusal comes before the server is asked anything)
    source = open_source(cfg.source.uri, cfg.source.source_options(cfg.changes.decode, follow=False, fresh=False),
                         lazy=True)
    ckpt = Checkpoint("p", "server:uuid=aaaa", BinlogPosition(7, 1234, "binlog.000007"), "")
    with pytest.raises(CheckpointError) as e:
        follow(cfg, ckpt, "server:uuid=bbbb", source, olr=False)
    assert not isinstance(e.value, FailoverError)
    assert "holds no GTID set" in str(e.value) and ONLY_GTID in str(e.value) and "server:uuid=aaaa" in str(e.value)
