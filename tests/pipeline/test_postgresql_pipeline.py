"""`mysqlddl run` with a PostgreSQL sink: exactly-once, the checkpoint kept in the target.

On real servers: the private PostgreSQL of `pg_server` (tools/pg_lab.py) and the lab workload's
binlog files (`lab_binlogs`: tools/workload.py on a private MariaDB, rotated every 64 KiB), plus
the shop binlog with its baseline (tests/data). The reference is the direct application the sink's
own tests make (tests/sinks/test_postgresql.py: ChangeReader -> PostgresSink -> write_records).

- a `--once` run gives the direct application's tables, row for row; `status` reads the checkpoint
  from the target; a second run delivers nothing (no target commit at all);
- killed with SIGKILL at random moments and at the fault points (mysqlddl/faults.py), restarted
  each time: the target equals the uninterrupted run's;
- a target whose checkpoint is from another source, or was not written by a pipeline, is refused;
- the pipeline file's PostgreSQL keys and [mapping] rules are checked with positioned errors.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from mysqlddl.binlog.events import QueryEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.errors import PipelineError
from mysqlddl.pipeline import config_from_dict
from mysqlddl.positions import BinlogPosition
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parent.parent / "data"
LAB_SCHEMAS = ["pipelab", "pipelab_tmp"]
# the customers the shop baseline holds before its binlog (tests/data/shop-bin.PROVENANCE.md, "Before")
SHOP_ROWS = ("INSERT INTO shop.customers VALUES (1, 'Ada', 'ada@example.com', '2023-11-01 09:00:00.125'), "
             "(2, 'Grace', NULL, '2023-11-02 10:30:00'), (3, 'Linus', 'linus@example.org', '2023-11-03 11:45:00.5')")


def all_rows(uri: str, schemas: list[str]) -> dict:
    """Every table of ``schemas``: its columns and its rows as text, sorted."""
    out = {}
    with psycopg.connect(uri) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        for (name,) in conn.execute("SELECT table_schema || '.' || table_name FROM information_schema.tables "
                                    "WHERE table_schema = ANY(%s) ORDER BY 1", (schemas,)).fetchall():
            s, t = name.split(".", 1)
            cols = [r[0] for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                                               "table_schema = %s AND table_name = %s ORDER BY 1", (s, t)).fetchall()]
            q = ", ".join(f'"{c}"::text' for c in cols)
            out[name] = (cols, sorted(conn.execute(f'SELECT {q} FROM "{s}"."{t}"').fetchall(),
                                      key=lambda r: [(x is None, x or "") for x in r]))
    return out


def state_row(uri: str, pipeline: str):
    with psycopg.connect(uri) as conn:
        if conn.execute("SELECT to_regclass('mysqlddl.mysqlddl_checkpoint')").fetchone() == (None,):
            return None         # (not created yet)
        return conn.execute("SELECT file, pos, transactions, updated_at, state FROM mysqlddl.mysqlddl_checkpoint "
                            "WHERE pipeline = %s", (pipeline,)).fetchone()


def write_file(path: Path, source: str, uri: str, extra: str = "", name: str = "lab") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'name = "{name}"\n[source]\nuri = "file://{source}"\n[sink]\nuri = "{uri}"\n{extra}',
                    encoding="utf-8")
    return path


def cli(*args, env=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "mysqlddl", *map(str, args)], capture_output=True, text=True,
                          cwd="/", env=env, timeout=timeout)


def lab_files(lab_binlogs: Path) -> list[Path]:
    return sorted(p for p in lab_binlogs.iterdir() if p.name[-1].isdigit())


# ------------------------------------------------------------------------------ the lab workload
@pytest.fixture(scope="module")
def direct(lab_binlogs, pg_server):
    """The direct application (as tests/sinks/test_postgresql.py makes it): its tables."""
    uri = pg_server.create_database("pipe_direct")
    sink = PostgresSink(uri, PgOptions(commit_every=25))
    with sink:
        write_records(ChangeReader(open_source(lab_files(lab_binlogs)), ChangeOptions()), sink)
    rows = all_rows(uri, LAB_SCHEMAS)
    assert sum(len(r) for _c, r in rows.values()) > 1000
    return uri, rows


@pytest.fixture(scope="module")
def once(lab_binlogs, pg_server, tmp_path_factory):
    """One uninterrupted `mysqlddl run --once` into a new database: (pipeline file, uri, summary)."""
    uri = pg_server.create_database("pipe_once")
    p = write_file(tmp_path_factory.mktemp("once") / "lab.toml", lab_binlogs, uri,
                   "[checkpoint]\nevery_transactions = 20\n[stats]\nprogress = \"never\"\n")
    proc = cli("run", p, "--once", "--summary", "json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return p, uri, json.loads(proc.stderr.strip().splitlines()[-1])


def test_run_once_equals_the_direct_application(once, direct):
    p, uri, summary = once
    assert all_rows(uri, LAB_SCHEMAS) == direct[1]
    assert summary["stats"]["dml_rows"] > 2000 and summary["stats"]["ddl"] >= 30
    # the checkpoint is in the target, in the pipeline's form; no SQLite store was made
    file, pos, _n, _at, state = state_row(uri, "lab")
    ck = json.loads(state)["checkpoint"]
    assert (ck["file"], ck["pos"]) == (summary["checkpoint"]["file"], summary["checkpoint"]["pos"]) == (file, pos)
    assert not (p.parent / "lab.state.db").exists()


def test_status_reads_the_checkpoint_from_the_target(once):
    p, uri, summary = once
    proc = cli("status", p, "--json")
    assert proc.returncode == 0, proc.stderr
    st = json.loads(proc.stdout)
    assert "mysqlddl_checkpoint" in st["store"] and uri.rsplit("/", 1)[1] in st["store"]
    assert st["checkpoint"]["pos"] == summary["checkpoint"]["pos"]
    assert st["checkpoint"]["source_id"].startswith("file:server_id=")
    assert st["stats"]["dml_rows"] == summary["stats"]["dml_rows"]
    text = cli("status", p)
    assert text.returncode == 0 and f"checkpoint: {summary['checkpoint']['file']}:" in text.stdout


def test_a_second_run_delivers_nothing(once, direct):
    p, uri, summary = once
    before = state_row(uri, "lab")
    proc = cli("run", p, "--once", "--summary", "json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    again = json.loads(proc.stderr.strip().splitlines()[-1])
    assert again["checkpoint"]["pos"] == summary["checkpoint"]["pos"]
    assert again["stats"]["dml_rows"] == summary["stats"]["dml_rows"]
    # not one target commit: the row (its commit count and time) is the first run's
    assert state_row(uri, "lab") == before
    assert all_rows(uri, LAB_SCHEMAS) == direct[1]


def _lab_target(pg_server, tmp, lab_binlogs, name: str):
    uri = pg_server.create_database(name)
    return uri, write_file(tmp / name / "lab.toml", lab_binlogs, uri,
                           "[checkpoint]\nevery_transactions = 1\n[stats]\nprogress = \"never\"\n")


ENV = {k: v for k, v in os.environ.items() if k != "MYSQLDDL_FAULT"}


def test_sigkill_at_fault_points(lab_binlogs, pg_server, tmp_path, direct):
    # (a run commits 112 times: 72 transactions and 40 DDL, one target transaction each; the huge
    # transaction is the last): in the target's transaction before its COMMIT, after a commit the
    # run was not told of, inside the 2000-row transaction; each kill followed by a restart
    uri, p = _lab_target(pg_server, tmp_path, lab_binlogs, "pipe_faults")
    for point in ["in-checkpoint-commit@10", "after-sink-commit@20", "in-checkpoint-commit@30", "huge-transaction@2"]:
        proc = cli("run", p, "--once", "--summary", "none", env={**ENV, "MYSQLDDL_FAULT": point})
        assert proc.returncode == -signal.SIGKILL, f"{point} not reached: {proc.returncode} {proc.stderr[-2000:]}"
    proc = cli("run", p, "--once", "--summary", "none", env=ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert all_rows(uri, LAB_SCHEMAS) == direct[1]


def crash_runs(lab_binlogs, pg_server, tmp, want: dict, kills: int, seed: int) -> int:
    """`mysqlddl run --once` killed with SIGKILL at random moments and restarted until ``kills``
    kills happened; a run that completes before its kill ends a cycle (its target is compared with
    ``want`` and the next cycle starts on a new database). Returns the number of cycles."""
    rng = random.Random(seed)
    killed = cycles = 0
    while killed < kills:
        cycles += 1
        uri, p = _lab_target(pg_server, tmp, lab_binlogs, f"pipe_crash_{seed}_{cycles}")
        while True:
            proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p), "--once", "--summary", "none"],
                                    cwd="/", env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0.6, 3.0))
            if killed < kills and proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.communicate()
                killed += 1
                continue
            _out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err[-3000:]
            break
        assert all_rows(uri, LAB_SCHEMAS) == want, f"cycle {cycles} after {killed} kills"
    return cycles


def test_sigkill_at_random_moments(lab_binlogs, pg_server, tmp_path, direct):
    assert crash_runs(lab_binlogs, pg_server, tmp_path, direct[1], kills=4, seed=3) >= 1


@pytest.mark.slow
def test_sigkill_at_thirty_random_moments(lab_binlogs, pg_server, tmp_path, direct):
    assert crash_runs(lab_binlogs, pg_server, tmp_path, direct[1], kills=30, seed=5) >= 1


def test_following_commits_when_idle_and_stops_on_sigterm(lab_binlogs, pg_server, tmp_path, once, direct):
    # without --once: everything there is applied and committed while it waits for more (every_transactions
    # is far away), and SIGTERM stops it cleanly
    uri, p = _lab_target(pg_server, tmp_path, lab_binlogs, "pipe_follow")
    p.write_text(p.read_text().replace("every_transactions = 1", "every_transactions = 100000\nevery_ms = 600000"))
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "json"], cwd="/", env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = once[2]["checkpoint"]["pos"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            row = state_row(uri, "lab") if proc.poll() is None else None
            if row is not None and row[1] == end:
                break
            time.sleep(0.3)
        assert proc.poll() is None and row is not None and row[1] == end
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    assert json.loads(err.strip().splitlines()[-1])["stopped"] is True
    assert all_rows(uri, LAB_SCHEMAS) == direct[1]


def test_an_xa_transaction_open_at_a_checkpoint_is_applied_once(lab_server, pg_server, tmp_path, prepare_xa):
    """The XA replay with the checkpoint kept in the target: the binlog cut right before an XA
    COMMIT, a run commits a checkpoint past the XA PREPARE (its ``reader_state.xa_replay`` in the
    target's row); the whole file then: the restart reads the XA transaction again from its start,
    applies nothing before the checkpoint, and applies the transaction once at its COMMIT. The
    target equals the direct application of the whole file. (SQL on the lab MariaDB 10.11 below.)"""
    srv = lab_server
    srv.execute("DROP DATABASE IF EXISTS xapg")
    srv.flush_logs()
    srv.execute("CREATE DATABASE xapg", "CREATE TABLE xapg.t (id INT PRIMARY KEY, v VARCHAR(10))")
    a = prepare_xa(srv, "xp1", "INSERT INTO xapg.t VALUES (1, 'a'), (2, 'b')",
                   "UPDATE xapg.t SET v = 'b2' WHERE id = 2")
    try:
        srv.execute("INSERT INTO xapg.t VALUES (10, 'o')")
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'xp1'")
        srv.execute("INSERT INTO xapg.t VALUES (11, 'p')")
    finally:
        a.close()
    path, _ = srv.current_binlog()
    srv.flush_logs()
    commit = next(e for e in BinlogReader(path)
                  if isinstance(e, QueryEvent) and e.query.upper().startswith("XA COMMIT"))
    data = path.read_bytes()
    src = tmp_path / "src"
    src.mkdir()
    (src / path.name).write_bytes(data[:commit.pos])
    uri = pg_server.create_database("pipe_xa")
    p = write_file(tmp_path / "xa.toml", src, uri, "[checkpoint]\nevery_transactions = 1\n", name="xa")
    first = cli("run", p, "--once")
    assert first.returncode == 0, first.stderr[-3000:]
    ck = json.loads(state_row(uri, "xa")[4])["checkpoint"]
    assert ck["reader_state"]["xa_replay"]["pending"] == 1 and ck["pos"] > ck["reader_state"]["xa_replay"]["pos"]
    assert all_rows(uri, ["xapg"])["xapg.t"][1] == [("10", "o")]
    (src / path.name).write_bytes(data)
    second = cli("run", p, "--once")
    assert second.returncode == 0, second.stderr[-3000:]
    ref = pg_server.create_database("pipe_xa_direct")
    with PostgresSink(ref, PgOptions()) as sink:
        write_records(ChangeReader(open_source([path]), ChangeOptions()), sink)
    want = all_rows(ref, ["xapg"])
    assert want["xapg.t"][1] == [("1", "a"), ("10", "o"), ("11", "p"), ("2", "b2")]
    assert all_rows(uri, ["xapg"]) == want
    assert "xa_replay" not in (json.loads(state_row(uri, "xa")[4])["checkpoint"].get("reader_state") or {})


def test_a_checkpoint_from_another_source_is_refused(once, lab_binlogs, tmp_path):
    # the same server, version and file name, but another file (shop's binlog under the name the
    # checkpoint is at): the checkpoint's file creation time differs
    p, uri, summary = once
    other = tmp_path / "other"
    other.mkdir()
    (other / summary["checkpoint"]["file"]).write_bytes((DATA / "shop-bin.000001").read_bytes())
    before = state_row(uri, "lab")
    q = write_file(tmp_path / "lab.toml", other, uri)
    proc = cli("run", q, "--once", "--summary", "none")
    assert proc.returncode == 1
    assert "the checkpoint was taken from another source" in proc.stderr and "created at" in proc.stderr
    assert state_row(uri, "lab") == before


def test_a_checkpoint_row_no_pipeline_wrote_is_refused(direct, lab_binlogs, tmp_path):
    # the direct application's row (pipeline "default") has no pipeline state
    q = write_file(tmp_path / "default.toml", lab_binlogs, direct[0], name="default")
    proc = cli("run", q, "--once", "--summary", "none")
    assert proc.returncode == 1
    assert "no pipeline wrote" in proc.stderr and "mysqlddl_checkpoint" in proc.stderr


# ------------------------------------------------------------------------------ shop, with its baseline
def _shop_direct(uri: str) -> None:
    """The shop binlog applied directly: the baseline's tables seeded, its rows loaded, then the binlog."""
    reader = ChangeReader(open_source([DATA / "shop-bin.000001"]), ChangeOptions(),
                          schema=(DATA / "shop-baseline.sql").read_text(encoding="utf-8"))
    sink = PostgresSink(uri, PgOptions(commit_every=2))
    with sink:
        sink.seed(reader.history.catalog_at(BinlogPosition(-1, 0)))
        sink.conn.execute(SHOP_ROWS)
        sink.conn.commit()
        write_records(reader, sink)


def test_shop_baseline_is_seeded_and_equals_the_direct_application(pg_server, tmp_path):
    want_uri = pg_server.create_database("shop_direct")
    _shop_direct(want_uri)
    uri = pg_server.create_database("shop_pipe")
    p = write_file(tmp_path / "shop.toml", DATA / "shop-bin.000001", uri,
                   f'[changes]\nschema = "{DATA / "shop-baseline.sql"}"\n[stats]\nprogress = "never"\n', name="shop")
    # the first run creates the baseline's tables, then stops: the target lacks the baseline's rows
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 1 and "found 0" in proc.stderr and "shop.customers" in proc.stderr
    with psycopg.connect(uri) as conn:
        assert conn.execute("SELECT count(*) FROM shop.orders").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM mysqlddl.mysqlddl_checkpoint").fetchone() == (0,)
        conn.execute(SHOP_ROWS)
    proc = cli("run", p, "--once", "--summary", "none")         # (seeds again: nothing to create)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert all_rows(uri, ["shop"]) == all_rows(want_uri, ["shop"])
    assert len(all_rows(uri, ["shop"])["shop.orders"][1]) == 2
    with psycopg.connect(uri) as conn:       # (MariaDB's JSON column as documents, not JSON strings)
        assert conn.execute("SELECT array_agg(jsonb_typeof(note)) FROM shop.orders").fetchone() == (["object"] * 2,)


def test_mapping_rules_in_the_pipeline_file(pg_server, tmp_path):
    uri = pg_server.create_database("shop_mapped")
    mapping = ('[[mapping.tables]]\ndatabase = "shop"\nschema = "store"\n'
               '[[mapping.columns]]\ndatabase = "shop"\ntable = "orders"\ncolumn = "total"\nname = "amount"\n'
               '[[mapping.exclude]]\ndatabase = "shop"\ntable = "customers"\n')
    p = write_file(tmp_path / "shop.toml", DATA / "shop-bin.000001", uri,
                   f'[changes]\nschema = "{DATA / "shop-baseline.sql"}"\n{mapping}', name="shop")
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = all_rows(uri, ["store", "shop"])
    assert list(got) == ["store.orders"]
    cols, rows = got["store.orders"]
    assert "amount" in cols and "total" not in cols
    assert sorted(r[cols.index("amount")] for r in rows) == ["19.99", "5.50"]


def test_mapping_rules_are_checked_against_the_baseline(pg_server, tmp_path):
    uri = pg_server.create_database("shop_badmap")
    mapping = '[[mapping.columns]]\ndatabase = "shop"\ntable = "orders"\ncolumn = "totl"\nname = "amount"\n'
    p = write_file(tmp_path / "shop.toml", DATA / "shop-bin.000001", uri,
                   f'[changes]\nschema = "{DATA / "shop-baseline.sql"}"\n{mapping}', name="shop")
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 1
    line = p.read_text().splitlines().index("[[mapping.columns]]") + 1       # (the rule's place in the file)
    assert f"mapping.columns[0] (shop.toml line {line}) (column): shop.orders has no column 'totl'" in proc.stderr


def test_status_changes_nothing_in_the_target(pg_server, tmp_path):
    uri = pg_server.create_database("pipe_status")
    p = write_file(tmp_path / "lab.toml", tmp_path, uri.replace("postgres@", "postgres:secret@"))
    proc = cli("status", p)
    assert proc.returncode == 0, proc.stderr
    assert "no checkpoint yet" in proc.stdout and "secret" not in proc.stdout and ":***@" in proc.stdout
    with psycopg.connect(uri) as conn:
        assert conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = 'mysqlddl'").fetchone() == (0,)


# ------------------------------------------------------------------------------ the pipeline file
def _pg(extra: dict, **top) -> dict:
    return {"source": {"uri": "file:///nowhere/"}, "sink": {"uri": "postgresql://u@127.0.0.1:1/db", **extra}, **top}


@pytest.mark.parametrize(("data", "setting", "text"), [
    (_pg({"commit_every": 5}), "sink.commit_every", "every_transactions"),
    (_pg({"pipeline": "x"}), "sink.pipeline", "pipeline's name"),
    (_pg({"segment_bytes": 5}), "sink.segment_bytes", "unknown key segment_bytes of a postgresql sink"),
    (_pg({"value_policy": "drop"}), "sink.value_policy", "must be"),
    (_pg({"generated_fallback": "compute"}), "sink.generated_fallback", "'error' or 'plain'"),
    (_pg({"geometry": "wkt"}), "sink.geometry", "'auto', 'wkb' or 'postgis'"),
    (_pg({}, checkpoint={"uri": "sqlite:///x.db"}), "checkpoint.uri", "in its target"),
    (_pg({}, changes={"schema_changes": False}), "changes.schema_changes", "schema changes"),
    (_pg({}, mapping={"columns": [{"database": "d", "table": "t", "column": "c", "transform": "upper(x)"}]}),
     "mapping.columns[0].transform", "%d"),
    (_pg({}, mapping={"tabels": []}), "mapping.tabels", "unknown key"),
    ({"source": {"uri": "file:///x/"}, "sink": {"uri": "jsonl:///x/"}, "mapping": {}}, "mapping", "postgresql"),
])
def test_pipeline_file_errors_are_positioned(data, setting, text):
    with pytest.raises(PipelineError) as e:
        config_from_dict(data, path="p.toml")
    assert e.value.setting == setting and text in str(e.value) and str(e.value).startswith("p.toml: [")


def test_pipeline_file_postgresql_options():
    assert config_from_dict(_pg({"generated_fallback": "plain"})).sink.pg.generated_fallback == "plain"
    cfg = config_from_dict(_pg({"value_policy": "clamp", "enum_mode": "type"}, name="p1",
                               errors={"strategy": "skip"}))
    assert cfg.sink.pg.pipeline == "p1" and cfg.sink.pg.value_policy.value == "clamp"
    assert cfg.sink.pg.on_ddl_error == "skip"          # (the skip strategy's default)
    assert config_from_dict(_pg({})).sink.pg.on_ddl_error == "error"


# ------------------------------------------------------------------------------ the sink's value-policy counts
def test_value_policy_counts_in_stats_and_status(lab_binlogs, pg_server, tmp_path):
    # the lab's zero dates under value_policy = "clamp": the direct application's counts (the sink's
    # own report) are what `status` shows, counted once although a run was killed after a commit
    # it was not told of and inside the big transaction, and restarted
    want_uri = pg_server.create_database("pipe_policy_direct")
    sink = PostgresSink(want_uri, PgOptions(commit_every=25, value_policy="clamp"))
    with sink:
        write_records(ChangeReader(open_source(lab_files(lab_binlogs)), ChangeOptions()), sink)
    want = sink.report()["value_policy"]
    assert any(r[2] == "zero-date" and r[3] == "clamp" and r[4] > 0 for r in want)
    uri = pg_server.create_database("pipe_policy")
    # (the extra text follows [sink] uri: value_policy is a [sink] key)
    p = write_file(tmp_path / "lab.toml", lab_binlogs, uri, 'value_policy = "clamp"\n'
                   "[checkpoint]\nevery_transactions = 1\n[stats]\nprogress = \"never\"\ninterval_s = 0\n")
    for point in ["after-sink-commit@20", "huge-transaction@2"]:
        proc = cli("run", p, "--once", "--summary", "none", env={**ENV, "MYSQLDDL_FAULT": point})
        assert proc.returncode == -signal.SIGKILL, f"{point} not reached: {proc.returncode} {proc.stderr[-2000:]}"
    proc = cli("run", p, "--once", "--summary", "json", env=ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stderr.strip().splitlines()[-1])["stats"]["value_policy"] == want
    st = json.loads(cli("status", p, "--json").stdout)
    assert st["stats"]["value_policy"] == want          # (from the checkpoint, in the target)
    assert st["stats_file"]["stats"]["value_policy"] == want
    assert st["stats"]["dml"]                            # (alongside the per-table applied counts)
    text = cli("status", p).stdout
    table, column, reason, action, n = want[0]
    assert f"value policy: {table}.{column}: {reason} -> {action} x{n}" in text


def test_mapping_rules_are_checked_against_the_restored_schema_on_every_start(lab_binlogs, pg_server, tmp_path):
    # the rules fit when the first run starts (no baseline: the tables come later); at the end of
    # the binlogs pipelab.evo was renamed (evo2, then evo3) and its column a dropped: a restart
    # checks the rules against the schema restored from the checkpoint and names the rule's line
    uri = pg_server.create_database("pipe_restart_rules")
    rules = ('[[mapping.tables]]\ndatabase = "pipelab"\ntable = "evo"\nname = "evolution"\n'
             '[[mapping.columns]]\ndatabase = "pipelab"\ntable = "evo3"\ncolumn = "a"\nname = "a_old"\n')
    p = write_file(tmp_path / "lab.toml", lab_binlogs, uri, f"[stats]\nprogress = \"never\"\n{rules}")
    lines = p.read_text().splitlines()
    table_line = lines.index("[[mapping.tables]]") + 1
    column_line = lines.index("[[mapping.columns]]") + 1
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-3000:]
    before = state_row(uri, "lab")
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 1
    assert f"mapping.tables[0] (lab.toml line {table_line}) (table): pipelab.evo no longer exists" in proc.stderr
    p.write_text(p.read_text().replace('[[mapping.tables]]\ndatabase = "pipelab"\ntable = "evo"\n'
                                       'name = "evolution"\n', ""))
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 1
    assert (f"mapping.columns[0] (lab.toml line {column_line - 4}) (column): pipelab.evo3 has no column 'a'"
            in proc.stderr)
    assert state_row(uri, "lab") == before          # (refused at start-up: the target is untouched)
    p.write_text(p.read_text().replace('[[mapping.columns]]\ndatabase = "pipelab"\ntable = "evo3"\n'
                                       'column = "a"\nname = "a_old"\n', ""))
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_json_documents_reach_the_target_exactly(mariadb_server, pg_server, tmp_path):
    """Issue #30 item 7: MariaDB JSON (LONGTEXT) documents through `mysqlddl run` into jsonb, value by
    value: the document null is jsonb 'null' (not SQL NULL), 12345678901234567890.123 and 1e400 keep
    their value, -0 and 1.0 theirs; the run completes (1e400 used to stop it with a ValueError
    traceback at the same event on every restart). SQL: tests/changes/test_values.py JSON_SQL on
    the session's MariaDB 10.11; DECIMAL(20,10) -0.0000000001 stored exactly too."""
    from ..changes.test_values import DECIMALS, JSON_SQL, STORED, capture

    src = tmp_path / "src"
    src.mkdir()
    for f in capture(mariadb_server, *JSON_SQL):
        (src / f.name).write_bytes(f.read_bytes())
    uri = pg_server.create_database("pipe_json")
    p = write_file(tmp_path / "json.toml", src, uri, "[stats]\nprogress = \"never\"\n", name="json")
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    with psycopg.connect(uri) as conn:
        got = dict(conn.execute("SELECT id, j IS NULL FROM jvals.t").fetchall())
        assert got == {i: text is None for i, text in STORED.items()}
        for i, text in STORED.items():
            if text is not None:
                same, kind = conn.execute("SELECT j = %s::jsonb, jsonb_typeof(j) FROM jvals.t WHERE id = %s",
                                          (text, i)).fetchone()
                assert same, (i, text)
                assert (kind == "null") == (text == "null"), i
        assert conn.execute("SELECT j::text FROM jvals.t WHERE id = 3").fetchone() == ("12345678901234567890.123",)
        for i, text in DECIMALS.items():
            assert conn.execute("SELECT d::text FROM jvals.t WHERE id = %s", (i,)).fetchone() == (text,)


def test_a_json_number_numeric_cannot_hold_goes_through_the_value_policy(mariadb_server, pg_server, tmp_path):
    """1e200000 is valid JSON for MariaDB (10.11: JSON_VALID checks the syntax) but beyond numeric,
    which jsonb keeps numbers as (manual 8.1.2: 131072 digits before the point, 16383 after). It used
    to fail the target's COPY with no event position, at the same place on every restart. Now it is a
    value-policy case with its position: null (the default) counts it and the run completes; error
    stops with the event's file:pos; clamp keeps the number's digits as a JSON string."""
    from ..changes.test_reader_mariadb import capture

    src = tmp_path / "src"
    src.mkdir()
    files = capture(mariadb_server, "DROP DATABASE IF EXISTS jbig", "CREATE DATABASE jbig",
                    "CREATE TABLE jbig.t (id INT PRIMARY KEY, j JSON)",
                    "INSERT INTO jbig.t VALUES (1, '{\"x\": 1e200000, \"y\": 1.5}'), (2, '[1e-20000]'), (3, '1e400')")
    for f in files:
        (src / f.name).write_bytes(f.read_bytes())
    want = {"null": {1: None, 2: None, 3: "1" + "0" * 400},
            "clamp": {1: '{"x": "1E+200000", "y": 1.5}', 2: '["1E-20000"]', 3: "1" + "0" * 400}}
    for policy, rows in want.items():
        uri = pg_server.create_database(f"pipe_jbig_{policy}")
        p = write_file(tmp_path / policy / "p.toml", src, uri, f'value_policy = "{policy}"\n', name="jbig")
        proc = cli("run", p, "--once", "--summary", "json")
        assert proc.returncode == 0, proc.stderr[-3000:]
        counts = json.loads(proc.stderr.strip().splitlines()[-1])["stats"]["value_policy"]
        assert counts == [["jbig.t", "j", "out-of-range", policy, 2]]
        with psycopg.connect(uri) as conn:
            assert dict(conn.execute("SELECT id, j::text FROM jbig.t").fetchall()) == rows
    uri = pg_server.create_database("pipe_jbig_error")
    p = write_file(tmp_path / "error" / "p.toml", src, uri, 'value_policy = "error"\n', name="jbig")
    proc = cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "out-of-range" in proc.stderr and f"at {files[0].name}:" in proc.stderr and "jbig.t" in proc.stderr


# ------------------------------------------------------------------------------ one run at a time (#30 item 3)
def _follow_shop(p: Path, uri: str) -> subprocess.Popen:
    """`mysqlddl run P` (following), returned once the target's checkpoint is at the shop binlog's end."""
    end = 3107          # (where its last transaction ends: test_runner.py)
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "json"], cwd="/", env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        row = state_row(uri, "shop")
        if row is not None and row[1] == end:
            return proc
        time.sleep(0.3)
    proc.kill()
    pytest.fail(f"the run did not reach {end}: {proc.communicate()[1][-2000:]}")


def test_a_second_run_into_the_same_target_is_refused_by_its_advisory_lock(pg_server, tmp_path):
    want_uri = pg_server.create_database("shop_lock_direct")
    _shop_direct(want_uri)
    uri = pg_server.create_database("shop_lock")
    src = tmp_path / "binlogs"
    src.mkdir()
    (src / "shop-bin.000001").write_bytes((DATA / "shop-bin.000001").read_bytes())
    # one pipeline (its name, its target) from two directories, as from two hosts: two lock files, one
    # advisory lock in the target
    extra = f'[changes]\nschema = "{DATA / "shop-baseline.sql"}"\n[stats]\nprogress = "never"\n'
    a = write_file(tmp_path / "a" / "shop.toml", src, uri, extra, name="shop")
    b = write_file(tmp_path / "b" / "shop.toml", src, uri, extra, name="shop")
    assert cli("run", a, "--once", "--summary", "none").returncode == 1      # (seeded: the baseline's rows lack)
    with psycopg.connect(uri) as conn:
        conn.execute(SHOP_ROWS)
    first = _follow_shop(a, uri)
    try:
        before = state_row(uri, "shop")
        t0 = time.monotonic()
        second = cli("run", b, "--once", "--summary", "none", env=ENV, timeout=60)
        assert second.returncode == 1, second.stderr
        assert f"process {first.pid} on host {socket.gethostname()} since 20" in second.stderr
        assert "advisory lock" in second.stderr and "Traceback" not in second.stderr
        assert time.monotonic() - t0 < 30 and state_row(uri, "shop") == before      # (nothing written)
        first.send_signal(signal.SIGTERM)
        _out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err[-3000:]
    assert all_rows(uri, ["shop"]) == all_rows(want_uri, ["shop"])
    # a holder killed with SIGKILL: the server ends its session, and with it the lock
    first = _follow_shop(a, uri)
    first.kill()
    first.communicate(timeout=60)
    proc = cli("run", b, "--once", "--summary", "none", env=ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert all_rows(uri, ["shop"]) == all_rows(want_uri, ["shop"])
