"""A pipeline's first run with `[source] snapshot = "initial"` into PostgreSQL (issue #31: the start
options of `mysqlddl changes` in a pipeline file): the target's tables equal the source's, value by
value, after the snapshot, and again after the stream delivered what was written since.

The source: tests/pipeline/conftest.py's lab MariaDB 10.11 (a database of this test's own, so the
lab workload's tables, which other tests read, are left alone), read as the lab's replication account;
the target: tests/conftest.py's private PostgreSQL cluster."""

from __future__ import annotations

import psycopg
import pytest

from mysqlddl.pipeline import run_pipeline

DB = "snapinit"
# (MariaDB's CAST(... AS CHAR) and PostgreSQL's ::text agree on these types' text)
TABLE = (f"CREATE TABLE {DB}.t (id INT PRIMARY KEY, name VARCHAR(40), amount DECIMAL(10,2), at DATETIME, "
         "note TEXT)")


@pytest.fixture
def source(monkeypatch, lab_server):
    lab_server.execute("GRANT REPLICATION MASTER ADMIN, SELECT, RELOAD ON *.* TO 'repl'@'127.0.0.1'",
                       f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}", TABLE)
    values = ", ".join(f"({i}, 'name {i}', {i * 7}.25, '2024-01-{1 + i % 28:02d} 10:{i % 60:02d}:00', "
                       f"{'NULL' if i % 5 == 0 else repr('note ' + str(i))})" for i in range(1, 301))
    lab_server.execute(f"INSERT INTO {DB}.t VALUES {values}")
    monkeypatch.setenv("MYSQL_PWD", "repl")
    yield lab_server
    lab_server.execute(f"DROP DATABASE IF EXISTS {DB}")


def _source_rows(srv) -> list[tuple]:
    rows = srv.query(f"SELECT CAST(id AS CHAR), name, CAST(amount AS CHAR), CAST(at AS CHAR), note FROM {DB}.t")
    return sorted(tuple(None if v is None else (v.decode() if isinstance(v, bytes) else str(v)) for v in r)
                  for r in rows)


def _target_rows(uri: str) -> list[tuple]:
    with psycopg.connect(uri) as conn:
        rows = conn.execute(f'SELECT id::text, name, amount::text, "at"::text, note FROM "{DB}"."t"').fetchall()
    return sorted(rows)


def test_an_initial_snapshot_into_postgresql_then_the_stream(source, pg_server, tmp_path):
    uri = pg_server.create_database("snap_initial")
    p = tmp_path / "p.toml"
    p.write_text(f'name = "snap"\n[source]\nuri = "mysql://repl@127.0.0.1:{source.port}/?server-id=3301"\n'
                 f'snapshot = "initial"\n[sink]\nuri = "{uri}"\n[changes]\ndatabases = ["{DB}"]\n', encoding="utf-8")
    first = run_pipeline(p, once=True)
    want = _source_rows(source)
    assert len(want) == 300 and _target_rows(uri) == want
    assert first.stats["dml"][f"{DB}.t"] == {"r": 300}
    # what is written after the capture comes through the stream, from the checkpoint at the captured position
    source.execute(f"UPDATE {DB}.t SET amount = amount + 1, note = 'changed' WHERE id % 3 = 0",
                   f"DELETE FROM {DB}.t WHERE id > 290", f"INSERT INTO {DB}.t VALUES (1000, 'late', 1.50, NULL, NULL)")
    second = run_pipeline(p, once=True)
    want = _source_rows(source)
    assert len(want) == 291 and _target_rows(uri) == want
    assert second.checkpoint.position.key > first.checkpoint.position.key
