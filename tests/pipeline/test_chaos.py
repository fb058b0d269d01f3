"""The chaos harness (tools/chaos.py; issue #30's acceptance): a private MariaDB followed into the
session's PostgreSQL by a following `mysqlddl run` while a seeded writer uses every column type the
sink maps (JSON extremes, keyless tables with float columns and duplicate rows, a UNIQUE NOT NULL
key, schema changes mid-run and an ADD COLUMN ... AUTO_INCREMENT); the run is SIGKILLed (now and
then SIGTERMed) at random moments, the server is shut down cleanly and restarted, crashed (SIGKILL)
and restarted, and the run's dump thread is killed; then no run may have ended by itself, the
target must catch up with the server's GTID position, and every table must equal the server's,
value by value (multisets: keyless tables hold duplicates).

The short form runs by default (one seed, ~20 s of writes); the long form (several seeds, minutes
each, more of everything) behind --run-slow, and by hand: ``python tools/chaos.py --seed N
--seconds S`` (``--without INGREDIENT,...`` to tell which ingredient a failure comes from).
Each scenario gets a MariaDB of its own: it is restarted, and its binlog must hold only this run.
"""

from __future__ import annotations

import itertools
import os
import re
import struct
from pathlib import Path

import psycopg
import pytest

pytestmark = pytest.mark.mariadb

_SERVERS = itertools.count()


@pytest.fixture
def chaos_server(tool):
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{lab.INSTALL_HINT} (CI=true: this must not be skipped)", pytrace=False)
        pytest.skip(lab.INSTALL_HINT)
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdb-chaos-{os.getpid()}-{next(_SERVERS)}"
    srv = lab.MariaDBServer(base)
    srv.start()
    try:
        yield srv
    finally:
        srv.destroy()


def _scenario(tool, server, pg_server, tmp_path, *, seed: int, seconds: float, kills: int, restarts: int,
              dump_kills: int):
    chaos = tool("chaos")
    report = chaos.run(server, pg_server.create_database(f"chaos_{seed}"), tmp_path, seed=seed, seconds=seconds,
                       kills=kills, restarts=restarts, dump_kills=dump_kills, server_id=4200 + seed)
    print(report.text())
    if report.problems:
        pytest.fail(report.text(), pytrace=False)
    # the scenario did what it says (a run that kept ending would have stopped it early)
    assert sum(bool(re.search(r"run \d+ SIG(KILL|TERM)ed", a)) for a in report.actions) == kills, report.text()
    # (each restart twice: a clean shutdown, ingredient server_restart, and a crash, server_crash)
    assert sum("MariaDB started again" in a for a in report.actions) == 2 * restarts, report.text()
    assert sum("Binlog Dump thread(s) [" in a for a in report.actions) == dump_kills, report.text()
    assert set(report.rows) == {"types", "uq", "kl", "kf", "js", "grow", "late"}, report.text()
    assert all(report.rows[t] > 0 for t in ("types", "uq", "kl", "kf", "js", "grow")), report.text()
    assert report.transactions > 100
    return report


def test_chaos_short(tool, chaos_server, pg_server, tmp_path):
    _scenario(tool, chaos_server, pg_server, tmp_path, seed=1, seconds=20, kills=3, restarts=1, dump_kills=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_chaos_long(tool, chaos_server, pg_server, tmp_path, seed):
    _scenario(tool, chaos_server, pg_server, tmp_path, seed=seed, seconds=150, kills=15, restarts=3, dump_kills=4)


def test_the_comparison_sees_every_difference(tool, mariadb_server, pg_server):
    """The harness's comparison (chaos.compare) on tables made by hand on both sides: equal ones pass,
    and each difference the harness exists to catch is seen: a float one unit in the last place
    off (single precision too), a JSON number past a double's precision, the JSON document
    ``null`` stored as SQL NULL, one of two duplicate rows lost."""
    chaos = tool("chaos")
    db = "chaoscmp"
    mariadb_server.execute(f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}")
    mariadb_server.execute("CREATE TABLE kf (a INT, f FLOAT, d DOUBLE)", "CREATE TABLE js (id INT PRIMARY KEY, j JSON)",
                           "INSERT INTO kf VALUES (1, 0.1, 0.1), (1, 0.1, 0.1), (2, 1.5, 2.5)",
                           "INSERT INTO js VALUES (1, '12345678901234567890.123'), (2, 'null'), (3, NULL), "
                           "(4, '{\"big\": 1e400, \"a\": [true, 1]}')", database=db)
    uri = pg_server.create_database(db)
    f01 = struct.unpack("<f", struct.pack("<f", 0.1))[0]       # (what FLOAT 0.1 holds)
    with psycopg.connect(uri, autocommit=True) as pg:
        pg.execute(f"CREATE SCHEMA {db}")
        pg.execute(f"CREATE TABLE {db}.kf (a integer, f real, d double precision)")
        pg.execute(f"CREATE TABLE {db}.js (id integer PRIMARY KEY, j jsonb)")
        pg.execute(f"INSERT INTO {db}.kf VALUES (1, %s, 0.1), (1, %s, 0.1), (2, 1.5, 2.5)", (f01, f01))
        pg.execute(f"INSERT INTO {db}.js VALUES (1, '12345678901234567890.123'), (2, 'null'), (3, NULL), "
                   "(4, '{\"a\": [true, 1.0], \"big\": 1e400}')")
        assert chaos.compare(mariadb_server, uri, db) == ([], {"js": 4, "kf": 3})
        steps = [
            ("UPDATE {db}.kf SET d = 0.1 + 1e-17 * 2 WHERE a = 2", "kf"),                      # 2.5 -> 0.1000...2
            ("UPDATE {db}.kf SET d = 2.5, f = 1.5000001 WHERE a = 2", "kf"),                    # one float32 ulp
            ("UPDATE {db}.kf SET f = 1.5 WHERE a = 2", None),
            ("UPDATE {db}.js SET j = '12345678901234567000' WHERE id = 1", "js"),               # a double's digits
            ("UPDATE {db}.js SET j = '12345678901234567890.123' WHERE id = 1", None),
            ("UPDATE {db}.js SET j = NULL WHERE id = 2", "js"),                                  # `null` -> NULL
            ("UPDATE {db}.js SET j = 'null' WHERE id = 2", None),
            ("DELETE FROM {db}.kf WHERE ctid = (SELECT min(ctid) FROM {db}.kf WHERE a = 1)", "kf"),
        ]
        for sql, differs in steps:
            pg.execute(sql.format(db=db))
            problems, _rows = chaos.compare(mariadb_server, uri, db)
            assert [p.split(":")[0] for p in problems] == ([differs] if differs else []), (sql, problems)
