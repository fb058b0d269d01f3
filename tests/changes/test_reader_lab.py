"""The lab workload (../shared/lab/workload.py: every phase, small scale) on a private MariaDB of
its own (it resets the master), decoded with ChangeReader: every DDL of its ddl_log.jsonl is in the
history at the logged position, and every row event of every phase decodes with schema names.
Recorded with MariaDB 10.11.19; seed 20240611, --scale 0.002 --bigtx-rows 500 --blob-mb 0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mysqlddl.changes import ChangeReader, Naming, RowChange
from mysqlddl.sources import open_source


@pytest.fixture(scope="module")
def lab(shared_path, tmp_path_factory, tool):
    mariadb_lab = tool("mariadb_lab")
    if not mariadb_lab.mariadbd_path():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(mariadb_lab.INSTALL_HINT)
        pytest.skip(mariadb_lab.INSTALL_HINT)
    base = tmp_path_factory.mktemp("lab")
    srv = mariadb_lab.MariaDBServer(base / "srv")
    srv.start()
    try:
        users = (shared_path / "lab/create_users.sql").read_text()
        srv.execute(*[s for s in users.split(";") if s.strip() and not s.strip().startswith("--")])
        truth = base / "truth"
        proc = subprocess.run([sys.executable, str(shared_path / "lab/workload.py"), "--socket", srv.socket,
                               "--out", str(truth), "--scale", "0.002", "--bigtx-rows", "500",
                               "--blob-mb", "0.1", "--reset-master"],
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-2000:]
        srv.flush_logs()
        yield srv, truth
    finally:
        srv.destroy()


def test_lab_workload_history_and_rows(lab):
    srv, truth = lab
    reader = ChangeReader(open_source(srv.binlog_dir))
    rows = [c for c in reader.changes() if isinstance(c, RowChange)]
    stats = reader.stats
    assert stats.ddl_errors == 0 and stats.mismatches == 0
    assert {r.naming for r in rows} == {Naming.SCHEMA}
    # phase (c) bulk and (d) the big transaction, at this scale and seed
    assert stats.rows[("lab.bulk", "c")] == 1000 and stats.rows[("lab.bulk", "d")] == 400
    assert stats.rows[("lab.bigtx", "c")] == 500
    # XA in phase (b): one committed, one rolled back (its row never surfaces)
    assert (stats.xa_committed, stats.xa_rolled_back, stats.xa_pending) == (1, 1, 0)
    assert stats.rows[("lab.xa_t", "c")] == 1

    log = [json.loads(line) for line in (truth / "ddl_log.jsonl").read_text().splitlines()]
    recorded = [(r.position.file, r.position.pos) for r in reader.history.records]
    prev = None
    checked = 0
    for entry in log:
        here = (entry["binlog_file"], entry["binlog_pos_after"])
        if here == prev or " TEMPORARY " in f" {entry['sql'].upper()} ":
            continue        # nothing was logged: temporary tables are not logged in ROW format
        # the DDL's QUERY event ends at the logged position, or before it when the statement
        # also logged rows (CREATE ... SELECT); never before the previous DDL's position
        after_prev = [p for f, p in recorded if f == here[0] and p <= here[1]
                      and (prev is None or prev[0] != f or p > prev[1])]
        assert after_prev, entry["sql"][:120]
        if " AS SELECT" not in entry["sql"].upper():
            assert here in recorded, entry["sql"][:120]
        prev = here
        checked += 1
    assert checked >= 35
