"""Generated columns in the PostgreSQL sink (mysqlddl/sinks/pg/generated.py).

The translator on its own (what it gives, what it refuses and why), then on real servers: a table
with VIRTUAL, STORED and PERSISTENT generated columns on the private MariaDB (`mariadb_server`),
rows inserted, updated and deleted around ALTERs (a generated column added, a column an expression
uses retyped), its binlog applied to the private PostgreSQL (`pg_server`): the target's columns
are PostgreSQL generated columns, and every row equals the source's SELECT. An expression without
a same-meaning PostgreSQL form stops the sink with the column and expression named, or, with
``generated_fallback = "plain"``, lands as a plain column holding the source's values.
"""

from __future__ import annotations

import psycopg
import pytest

from mysqlddl.changes.filters import Filters
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.errors import ConfigError, UnconvertibleDdlError
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.generated import Ref, Untranslatable, translate
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

DB = "pggen"

_REFS = {"a": Ref('"a"', "int"), "b": Ref('"b"', "int"), "d": Ref('"d"', "dec", 2), "s": Ref('"s"', "str"),
         "f": Ref('"f"', "float"), "l": Ref('"l"', "str", 0, False)}


def _refs(name: str) -> Ref:
    return _REFS.get(name.lower(), Ref(refused=f"no column {name}"))


@pytest.mark.parametrize(("expr", "sql"), [
    ("a + b", '(CAST("a" AS bigint) + CAST("b" AS bigint))'),
    ("`a` / b", 'round(CAST("a" AS numeric) / NULLIF("b", 0), 4)'),
    ("d / 3", 'round(CAST("d" AS numeric) / NULLIF(3, 0), 6)'),
    ("CONCAT('x', a, s)", """('x' || CAST("a" AS text) || "s")"""),
    ("IFNULL(a, 'none')", """COALESCE(CAST("a" AS text), 'none')"""),
    ("IF(a > b, 1, 0)", '(CASE WHEN ("a" > "b") THEN 1 ELSE 0 END)'),
    ("upper(s)", 'upper("s")'),
    ("'it''s' ", "'it''s'"),
])
def test_translations(expr, sql):
    assert translate(expr, _refs).sql == sql


@pytest.mark.parametrize(("expr", "reason"), [
    ("s = 'x'", "string comparison"),
    ("a || b", "PIPES_AS_CONCAT"),
    ("CONCAT_WS(',', s, s)", "CONCAT_WS()"),
    ("DATE_FORMAT(s, '%Y')", "DATE_FORMAT()"),
    ("s + 1", "converts strings to numbers"),
    ("CONCAT(f)", "float as text"),
    ("LENGTH(l)", "bytes"),
    ("s LIKE 'a%'", "collation"),
    ("a & b", "bit operators"),
    ("zz * 2", "no column zz"),
    ("(a + ", "ends early"),
])
def test_refusals_say_why(expr, reason):
    with pytest.raises(Untranslatable) as e:
        translate(expr, _refs)
    assert reason in str(e.value)


def test_the_fallback_option_is_checked():
    with pytest.raises(ConfigError, match="generated_fallback"):
        PgOptions(generated_fallback="compute")


# ------------------------------------------------------------------------------ real servers
TABLE = (f"CREATE TABLE {DB}.g (id INT PRIMARY KEY, a INT, b INT, d DECIMAL(10,2), "
         "s VARCHAR(20) CHARACTER SET utf8mb4, t INT, "
         "g_sum BIGINT AS (a + b) VIRTUAL, "
         "g_div DECIMAL(16,4) AS (a / b) STORED, "
         "g_txt VARCHAR(80) CHARACTER SET utf8mb4 AS (CONCAT(UPPER(s), '-', id, ':', IFNULL(t, 'none'))) PERSISTENT, "
         "g_case INT AS (CASE WHEN a > b THEN 1 WHEN a = b THEN 0 ELSE -1 END) VIRTUAL, "
         "g_if VARCHAR(10) CHARACTER SET utf8mb4 AS (IF(t IS NULL, 'null', LEFT(s, 3))) VIRTUAL, "
         "g_len INT AS (CHAR_LENGTH(s) + LENGTH(s)) STORED, "
         "g_dm DECIMAL(14,2) AS (d * 2 + a % 7) VIRTUAL, "
         "g_idiv INT AS (a DIV b) VIRTUAL)")
ROWS = [(1, 5, 2, "1.25", "héllo", 3), (2, -7, 3, "-0.50", "abc", None), (3, 2147483647, 1, "99999.99", "", 0),
        (4, 0, 0, None, None, None), (5, 10, -4, "0.01", "żółw!", 7), (6, 1, 3, "2.00", "x", 1)]
UNTRANSLATABLE = (f"CREATE TABLE {DB}.u (id INT PRIMARY KEY, s VARCHAR(20), "
                  "u VARCHAR(50) AS (CONCAT_WS(',', s, s)) VIRTUAL)")


@pytest.fixture(scope="module")
def gen_binlogs(mariadb_server):
    """The source's statements in binlog files of their own (flushed before and after)."""
    srv = mariadb_server
    srv.flush_logs()
    first = srv.current_binlog()[0]
    srv.execute(f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}", TABLE)
    conn = srv.connect()
    try:
        with conn.cursor() as cur:
            # (not strict: a division by zero gives NULL, as the target's NULLIF does, not an error)
            cur.execute("SET SESSION sql_mode = ''")
            cur.executemany(f"INSERT INTO {DB}.g (id, a, b, d, s, t) VALUES (%s, %s, %s, %s, %s, %s)", ROWS)
            cur.execute(f"UPDATE {DB}.g SET a = a + 1, s = CONCAT(s, '?') WHERE id IN (1, 2, 5)")
            cur.execute(f"DELETE FROM {DB}.g WHERE id = 6")
            cur.execute(f"ALTER TABLE {DB}.g ADD COLUMN g_new BIGINT AS (a * 3 - b) VIRTUAL")
            cur.execute(f"ALTER TABLE {DB}.g MODIFY a BIGINT")
            cur.execute(f"INSERT INTO {DB}.g (id, a, b, d, s, t) VALUES (7, 3000000000, 7, 3.5, 'Big', NULL)")
            cur.execute(f"UPDATE {DB}.g SET t = NULL, b = 5 WHERE id = 3")
            cur.execute(UNTRANSLATABLE)
            cur.execute(f"INSERT INTO {DB}.u (id, s) VALUES (1, 'a'), (2, NULL)")
            cur.execute(f"UPDATE {DB}.u SET s = 'b' WHERE id = 1")
        conn.commit()
    finally:
        conn.close()
    srv.flush_logs()
    files = srv.binlog_files()
    return files[files.index(first):-1]


def source_rows(srv, table: str) -> tuple[list[str], list[tuple]]:
    cols = [r[0] for r in srv.query("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = %s AND "
                                    "TABLE_NAME = %s ORDER BY ORDINAL_POSITION", (DB, table))]
    q = ", ".join(f"CAST(`{c}` AS CHAR)" for c in cols)
    return cols, [tuple(r) for r in srv.query(f"SELECT {q} FROM {DB}.{table} ORDER BY id")]


def target_rows(uri: str, table: str, cols: list[str]) -> list[tuple]:
    q = ", ".join(f'"{c}"::text' for c in cols)
    with psycopg.connect(uri) as conn:
        return conn.execute(f'SELECT {q} FROM "{DB}"."{table}" ORDER BY id').fetchall()


def generated_columns(uri: str, table: str) -> dict[str, str]:
    with psycopg.connect(uri) as conn:
        return dict(conn.execute("SELECT column_name, generation_expression FROM information_schema.columns WHERE "
                                 "table_schema = %s AND table_name = %s AND is_generated = 'ALWAYS'",
                                 (DB, table)).fetchall())


def apply(files, uri: str, options: PgOptions) -> PostgresSink:
    sink = PostgresSink(uri, options)
    with sink:
        write_records(ChangeReader(open_source(files), ChangeOptions(filters=Filters(databases=(DB,)))), sink)
    return sink


def test_generated_columns_are_computed_by_the_target(gen_binlogs, mariadb_server, pg_server):
    uri = pg_server.create_database("gen_plain")
    sink = apply(gen_binlogs, uri, PgOptions(commit_every=3, generated_fallback="plain"))
    cols, want = source_rows(mariadb_server, "g")
    assert len(want) == 6 and "g_new" in cols
    assert target_rows(uri, "g", cols) == want
    gen = generated_columns(uri, "g")
    assert sorted(gen) == ["g_case", "g_div", "g_dm", "g_idiv", "g_if", "g_len", "g_new", "g_sum", "g_txt"]
    assert "concat" not in gen["g_txt"].lower() and "||" in gen["g_txt"]
    # the untranslatable one: a plain column with the source's values, and said so
    ucols, uwant = source_rows(mariadb_server, "u")
    assert target_rows(uri, "u", ucols) == uwant == [("1", "b", "b,b"), ("2", None, "")]
    assert generated_columns(uri, "u") == {}
    notes = sink.report()["notes"]
    assert any("u: generated column kept as a plain column" in n and "CONCAT_WS" in n for n in notes)


def test_an_untranslatable_expression_stops_the_sink_by_default(gen_binlogs, pg_server):
    uri = pg_server.create_database("gen_error")
    with pytest.raises(UnconvertibleDdlError) as e:
        apply(gen_binlogs, uri, PgOptions(commit_every=3))
    msg = str(e.value)
    assert f"{DB}.u.u AS (CONCAT_WS(',', s, s))" in msg and "CONCAT_WS()" in msg and "generated_fallback" in msg
    assert e.value.position is not None and e.value.table == f"{DB}.u"
    with psycopg.connect(uri) as conn:       # (what was committed before it stands: table g is there)
        assert conn.execute(f"SELECT to_regclass('{DB}.u')").fetchone() == (None,)
