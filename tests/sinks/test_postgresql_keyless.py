"""Tables without a key in the PostgreSQL sink (mysqlddl/sinks/pg/dml.py): the row an UPDATE or
DELETE changes is found by every column the image holds, floats, JSON, BLOBs and NULLs included,
and where several target rows are equal (legal without a key) exactly one of them changes, as in
the source. Driven from a real binlog: statements on the private MariaDB (`mariadb_server`), its
binlog applied to the private PostgreSQL (`pg_server`), then every table compared with MariaDB's
value by value (as multisets: a keyless table has no order to compare by).
"""

from __future__ import annotations

import json
from collections import Counter

import psycopg
import pytest

from mysqlddl.changes.filters import Filters
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

DB = "pgkeyless"

# (the reproduction: 1.5 and 2.5 differ only in a DOUBLE)
U = f"CREATE TABLE {DB}.u (a INT, c DOUBLE, note VARCHAR(10))"
# rows that differ in one column each: FLOAT (4 bytes), DOUBLE, DECIMAL, DATETIME, TIME, JSON, BLOB, NULL
W = (f"CREATE TABLE {DB}.w (a INT, f FLOAT, c DOUBLE, d DECIMAL(8,3), dt DATETIME(6), tm TIME, j JSON, "
     "b BLOB, v VARCHAR(10), n INT)")
BASE = (1, 0.1, 1e-300, "1.250", "2024-02-29 12:00:00.000001", "-01:02:03", '{"k": [1, 2]}', b"\x00\xff", "x", 7)
# (the JSON one is equal to BASE's by jsonb's = (1.0 = 1), yet another document)
VARIANTS = {"f": 0.3, "c": 2.5e-300, "d": "1.251", "dt": "2024-02-29 12:00:00.000002", "tm": "-01:02:04",
            "j": '{"k": [1.0, 2]}', "b": b"\x00\xfe", "n": None}
W_COLS = ("a", "f", "c", "d", "dt", "tm", "j", "b", "v", "n")


def _statements(cur) -> None:
    cur.execute(f"INSERT INTO {DB}.u VALUES (1, 1.5, 'x'), (1, 2.5, 'x'), (2, 0.1, 'y'), (2, 0.2, 'y')")
    cur.execute(f"UPDATE {DB}.u SET note = 'changed' WHERE c = 2.5")
    cur.execute(f"DELETE FROM {DB}.u WHERE c = 0.2")
    ins = f"INSERT INTO {DB}.w ({', '.join(W_COLS)}) VALUES ({', '.join(['%s'] * len(W_COLS))})"
    cur.execute(ins, BASE)
    for col, v in VARIANTS.items():
        row = list(BASE)
        row[W_COLS.index(col)] = v
        cur.execute(ins, row)
        # the variant row changes (its one different value finds it), then the base row is deleted
        # and inserted again: each time exactly the row the source changed
        # (a FLOAT holds the 4-byte float nearest 0.3, not the double 0.3)
        cond = "n IS NULL" if v is None else "ABS(f - %s) < 1e-6" if col == "f" else f"{col} <=> %s"
        cur.execute(f"UPDATE {DB}.w SET v = %s WHERE {cond}", (col,) if v is None else (col, v))
        cur.execute(f"DELETE FROM {DB}.w WHERE v = 'x'")
        cur.execute(ins, BASE)
    # equal rows: one of two changes, one of two goes, then an all-NULL row among equal ones
    cur.execute(f"INSERT INTO {DB}.u VALUES (3, 3.25, 'dup'), (3, 3.25, 'dup'), (4, 4.0, 'two'), (4, 4.0, 'two')")
    cur.execute(f"UPDATE {DB}.u SET note = 'one' WHERE a = 3 LIMIT 1")
    cur.execute(f"DELETE FROM {DB}.u WHERE a = 4 LIMIT 1")
    cur.execute(f"INSERT INTO {DB}.u VALUES (NULL, NULL, NULL), (NULL, NULL, NULL), (NULL, NULL, NULL)")
    cur.execute(f"UPDATE {DB}.u SET note = 'null' WHERE a IS NULL LIMIT 1")
    cur.execute(f"DELETE FROM {DB}.u WHERE a IS NULL AND note IS NULL LIMIT 1")
    # documents equal by jsonb's = (1.0 = 1) yet different, the one not changed stored first
    cur.execute(f"INSERT INTO {DB}.w (a, j, v) VALUES (20, '[1.0]', 'jv'), (20, '[1]', 'jv')")
    cur.execute(f"UPDATE {DB}.w SET v = 'int' WHERE a = 20 AND j = '[1]'")
    # a FLOAT from a computation: the value written is the 4-byte float, not the decimal text
    cur.execute(f"INSERT INTO {DB}.w (a, f, v) VALUES (9, 1/3, 'third'), (9, 2/3, 'third')")
    cur.execute(f"UPDATE {DB}.w SET v = 'found' WHERE a = 9 AND f < 0.5")


@pytest.fixture(scope="module")
def keyless_binlogs(mariadb_server):
    srv = mariadb_server
    srv.flush_logs()
    first = srv.current_binlog()[0]
    srv.execute(f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}", U, W)
    conn = srv.connect()
    try:
        with conn.cursor() as cur:
            _statements(cur)
    finally:
        conn.close()
    srv.flush_logs()
    files = srv.binlog_files()
    return files[files.index(first):-1]


def _norm(v):
    if isinstance(v, bytes | memoryview):
        return bytes(v)
    if isinstance(v, dict | list):
        return json.dumps(v, sort_keys=True)        # (a document, compared by value)
    return v


def source_rows(srv, table: str, cols: tuple[str, ...], json_cols=()) -> Counter:
    got = Counter()
    # (a FLOAT's exact 4-byte value, as a double: its text has 6 digits)
    sel = ", ".join(f"CAST({c} AS DOUBLE)" if c == "f" else c for c in cols)
    for r in srv.query(f"SELECT {sel} FROM {DB}.{table}"):
        got[tuple(_norm(json.loads(v)) if c in json_cols and v is not None else _norm(v)
                  for c, v in zip(cols, r, strict=True))] += 1
    return got


def target_rows(uri: str, table: str, cols: tuple[str, ...]) -> Counter:
    with psycopg.connect(uri) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        sel = ", ".join(f"{c}::float8" if c == "f" else c for c in cols)
        rows = conn.execute(f'SELECT {sel} FROM "{DB}"."{table}"').fetchall()
    return Counter(tuple(_norm(v) for v in r) for r in rows)


def test_keyless_rows_are_found_by_every_column(keyless_binlogs, mariadb_server, pg_server):
    uri = pg_server.create_database("keyless_match")
    sink = PostgresSink(uri, PgOptions(commit_every=5))
    with sink:
        write_records(ChangeReader(open_source(keyless_binlogs), ChangeOptions(filters=Filters(databases=(DB,)))), sink)
    want_u = source_rows(mariadb_server, "u", ("a", "c", "note"))
    assert want_u[(1, 1.5, "x")] == 1 and want_u[(1, 2.5, "changed")] == 1 and want_u[(3, 3.25, "one")] == 1
    assert target_rows(uri, "u", ("a", "c", "note")) == want_u
    want_w = source_rows(mariadb_server, "w", W_COLS, ("j",))
    assert sorted(r[8] for r in want_w) == ["b", "c", "d", "dt", "f", "found", "int", "j", "jv", "n", "third",
                                                    "tm", "x"]
    assert target_rows(uri, "w", W_COLS) == want_w
