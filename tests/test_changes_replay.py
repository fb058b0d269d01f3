"""The round trip: tools/workload.py (every phase a-d, small scale) on the `mariadb_server`,
decoded with `mysqlddl changes` (as a subprocess), replayed by tools/replay_changes.py into an
empty MariaDB of its own, must leave every table exactly as the workload's server holds it (the
Truth's lossless typed rendering: tools/workload.py RENDER). And every DDL of the workload's DDL
log is in `mysqlddl history` at the logged position.

Recorded with MariaDB 10.11.19 (ROW, FULL image, CRC32, binlog_row_metadata=MINIMAL), workload
seed 20240611, scale 0.001, bigtx_rows 300, blob_kib 64, random_rows 12; databases rlab/rlab_tmp
so the binlog tests' run of the same workload (databases lab/lab_tmp) on this server is untouched.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mysqlddl.binlog.reader import BinlogReader

DB, DB2 = "rlab", "rlab_tmp"
LAB_KW = {"scale": 0.001, "bigtx_rows": 300, "blob_kib": 64, "random_rows": 12}


@pytest.fixture(scope="module")
def workload(tool):
    return tool("workload")


@pytest.fixture(scope="module")
def truth(mariadb_server, workload):
    return workload.run(mariadb_server, database=DB, tmp_database=DB2, log=lambda m: None, **LAB_KW)


@pytest.fixture(scope="module")
def empty_server(mariadb_server):
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbreplay-{os.getpid()}"
    srv = type(mariadb_server)(base).start()          # tools/mariadb_lab.MariaDBServer
    try:
        yield srv
    finally:
        srv.destroy()


def test_replayed_workload_reproduces_every_table(truth, workload, empty_server, run_cli, tmp_path, tool):
    out = tmp_path / "changes.jsonl"
    proc = run_cli("changes", *truth.paths, "-o", out, "--summary", "json", "--truncate-events")
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stderr)
    assert summary["ddl_errors"] == 0 and summary["mismatches_flagged"] == 0
    assert summary["xa"] == {"committed": 1, "rolled_back": 1, "rows_discarded": 1, "pending": 0,
                             "unseen": 0}
    assert summary["truncates"] == {f"{DB}.evo_like": 1}

    replay = tool("replay_changes")
    conn = replay.connect(empty_server.socket)
    try:
        stats = replay.replay(replay.read_jsonl(out), conn)
    finally:
        conn.close()
    assert stats.truncates_skipped == 1
    assert stats.rows["c"] == sum(n.get("c", 0) for n in summary["rows"].values()) == 889

    conn = workload.text_connection(empty_server)
    try:
        got = workload.dump_tables(conn, [DB, DB2])
    finally:
        conn.close()
    assert sorted(got) == sorted(truth.tables)
    assert len(got) == 13          # every table that survives the workload, in every phase
    for name, want in truth.tables.items():
        have = got[name]
        assert have.column_names == want.column_names, name
        # (legacy_temporal's pre-10.1 temporal formats are re-created in the current format)
        assert [c["column_type"] for c in have.columns] == \
            [c["column_type"].replace(" /* mariadb-5.3 */", "") for c in want.columns], name
        assert len(have.rows) == len(want.rows), name
        for h, w in zip(have.rows, want.rows, strict=True):
            assert h == w, (name, [(c, a, b) for c, a, b in zip(want.column_names, h, w, strict=True) if a != b])
    # phase (b): the rolled-back XA branch and the rolled-back InnoDB row never surface; the
    # non-transactional row written in that rolled-back transaction stays
    assert got[f"{DB}.xa_t"].rows == [[1, "xa_commit"]]
    assert got[f"{DB}.tx_only"].rows == [[2]]
    assert got[f"{DB}.nontx"].rows == [[1, "survives rollback"]]
    # phase (c)/(d): the bulk table and the big transaction are all there
    assert len(got[f"{DB}.bulk"].rows) == 300 and len(got[f"{DB}.bigtx"].rows) == 240


def _written_between(paths, file: str, start: int, end: int) -> set[str]:
    """The types of the events of binlog ``file`` that start in [start, end)."""
    path = next(p for p in paths if Path(p).name == file)
    return {ev.type_name for ev in BinlogReader(path) if start <= ev.pos < end}


def test_every_logged_ddl_is_in_the_history_at_its_position(truth, run_cli, tmp_path):
    out = tmp_path / "history.jsonl"
    proc = run_cli("history", *truth.paths, "-o", out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = [json.loads(line) for line in out.read_text().splitlines()][1:]
    at = [(r["position"]["file"], r["position"]["pos"]) for r in records]
    assert at == sorted(at, key=lambda p: (p[0], p[1]))

    prev = (truth.files[0], 4)
    expected = []
    for entry in truth.ddl_log:
        here = (entry["binlog_file"], entry["binlog_pos_after"])
        between = [p for p in at if prev < p <= here]
        if "TEMPORARY" in entry["sql"].upper():
            # not logged under binlog_format=ROW: nothing in the history since the previous DDL
            assert between == [], entry["sql"]
            continue
        assert here > prev, entry["sql"]
        assert len(between) == 1, (entry["sql"][:120], between)
        if " AS SELECT " in entry["sql"].upper():
            # CREATE ... SELECT: the CREATE's QUERY event, then the copied rows in the same
            # transaction, which ends at the logged position
            assert between[0] < here
        else:
            # the DDL's QUERY event ends at the logged position, unless MariaDB's binlog background
            # thread wrote a BINLOG_CHECKPOINT after it before the position was read (it does so
            # once the previous binlog's transactions are durable, after a rotation: timing)
            after = set() if between[0] == here else _written_between(truth.paths, *between[0], here[1])
            assert between[0][0] == here[0] and after <= {"MARIADB_BINLOG_CHECKPOINT"}, entry["sql"][:120]
        expected.append(between[0])
        prev = here
    # and nothing else: every history record is a logged DDL of the workload
    assert at == expected and len(expected) >= 40
