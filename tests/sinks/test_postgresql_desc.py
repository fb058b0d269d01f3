"""Keys with DESC parts in the PostgreSQL sink (mysqlddl/sinks/pg/ddl.py): MariaDB 10.8+ keeps
DESC in an index, PostgreSQL takes no ordering in a PRIMARY KEY constraint (manual "CREATE TABLE":
``PRIMARY KEY ( column_name [, ... ] )``). A DESC primary key (CREATE TABLE, ALTER TABLE ADD
PRIMARY KEY / ADD CONSTRAINT) becomes the same constraint without the ordering, never a DDL that
fails; UNIQUE keys and plain indexes stay indexes with their DESC (manual "CREATE INDEX"); rows
are found by the key as before. Driven from a real binlog: statements on the private MariaDB
(`mariadb_server`), applied to the private PostgreSQL (`pg_server`), every table then compared
with MariaDB's value by value.
"""

from __future__ import annotations

import psycopg
import pytest

from mysqlddl.sinks.pg.types import PgOptions

from .test_postgresql_autoinc import apply, source_rows, target_rows

DB = "pgdesc"

STATEMENTS = [
    # a DESC primary key in the CREATE; UPDATEs of the key and of other columns, DELETEs
    f"CREATE TABLE {DB}.p (a INT, b VARCHAR(10), PRIMARY KEY (a DESC))",
    f"INSERT INTO {DB}.p VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')",
    f"UPDATE {DB}.p SET b = 'TWO' WHERE a = 2",
    f"UPDATE {DB}.p SET a = 30 WHERE a = 3",
    f"DELETE FROM {DB}.p WHERE a = 1",
    # an AUTO_INCREMENT column added: MariaDB numbers the rows in the clustered (DESC) key's order
    f"ALTER TABLE {DB}.p ADD COLUMN n INT AUTO_INCREMENT UNIQUE",
    # a UNIQUE key with a DESC part (the key rows are found by: no primary key)
    f"CREATE TABLE {DB}.u (a INT NOT NULL, b VARCHAR(10) NOT NULL, v INT, UNIQUE KEY u (b DESC, a))",
    f"INSERT INTO {DB}.u VALUES (1, 'x', 10), (2, 'x', 20), (1, 'y', 30), (2, 'y', 40)",
    f"UPDATE {DB}.u SET v = 21 WHERE a = 2 AND b = 'x'",
    f"UPDATE {DB}.u SET a = 5 WHERE a = 1 AND b = 'y'",
    f"DELETE FROM {DB}.u WHERE a = 1 AND b = 'x'",
    # a keyless table holding rows gets a DESC primary key; then its rows change by it
    f"CREATE TABLE {DB}.k (a INT NOT NULL, b VARCHAR(10))",
    f"INSERT INTO {DB}.k VALUES (3, 'c'), (1, 'a'), (2, 'b')",
    f"ALTER TABLE {DB}.k ADD PRIMARY KEY (a DESC)",
    f"UPDATE {DB}.k SET b = 'B' WHERE a = 2",
    f"DELETE FROM {DB}.k WHERE a = 3",
    f"INSERT INTO {DB}.k VALUES (4, 'd')",
    # ADD CONSTRAINT ... PRIMARY KEY, a composite one, mixed orders
    f"CREATE TABLE {DB}.c (a INT NOT NULL, b INT NOT NULL, v VARCHAR(10))",
    f"INSERT INTO {DB}.c VALUES (1, 1, 'p'), (1, 2, 'q')",
    f"ALTER TABLE {DB}.c ADD CONSTRAINT pk PRIMARY KEY (a, b DESC)",
    f"UPDATE {DB}.c SET v = 'Q' WHERE a = 1 AND b = 2",
    # an ascending primary key made descending (the target's constraint is the same one)
    f"ALTER TABLE {DB}.c DROP PRIMARY KEY, ADD PRIMARY KEY (a DESC, b DESC)",
    f"DELETE FROM {DB}.c WHERE a = 1 AND b = 1",
    # UNIQUE keys added every way, a prefix part, a plain index: all DESC
    f"CREATE TABLE {DB}.x (id INT PRIMARY KEY, e INT, f INT, g INT, h INT, s VARCHAR(20))",
    f"INSERT INTO {DB}.x VALUES (1, 1, 1, 1, 1, 'abcdef'), (2, 2, 2, 2, 2, 'abcxyz')",
    f"ALTER TABLE {DB}.x ADD UNIQUE ue (e DESC), ADD CONSTRAINT uf UNIQUE (f DESC), ADD KEY kh (h DESC)",
    f"CREATE UNIQUE INDEX ug ON {DB}.x (g DESC)",
    f"CREATE INDEX ks ON {DB}.x (s(3) DESC)",
    f"UPDATE {DB}.x SET e = 5, s = 'zzz' WHERE id = 2",
    # a primary key with a DESC prefix part (kept as a unique index: PostgreSQL has no prefix key)
    f"CREATE TABLE {DB}.pp (s VARCHAR(20) NOT NULL, v INT, PRIMARY KEY (s(3) DESC))",
    f"INSERT INTO {DB}.pp VALUES ('abcdef', 1), ('xyz', 2)",
    f"UPDATE {DB}.pp SET v = 3 WHERE s = 'xyz'",
]
TABLES = {"p": ("a", "b", "n"), "u": ("a", "b", "v"), "k": ("a", "b"), "c": ("a", "b", "v"),
          "x": ("id", "e", "f", "g", "h", "s"), "pp": ("s", "v")}


@pytest.fixture(scope="module")
def desc_binlogs(mariadb_server):
    srv = mariadb_server
    srv.flush_logs()
    first = srv.current_binlog()[0]
    srv.execute(f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}", *STATEMENTS)
    srv.flush_logs()
    files = srv.binlog_files()
    return files[files.index(first):-1]


def test_desc_keys_are_applied_and_rows_found_by_them(desc_binlogs, mariadb_server, pg_server):
    uri = pg_server.create_database("desc_keys")
    sink = apply(desc_binlogs, uri, DB, PgOptions(commit_every=2))
    assert sink.report().get("ddl_skipped", 0) == 0
    assert source_rows(mariadb_server, DB, "p", TABLES["p"]) == [
        ("2", "TWO", "3"), ("4", "four", "2"), ("30", "three", "1")]
    assert source_rows(mariadb_server, DB, "k", TABLES["k"]) == [("1", "a"), ("2", "B"), ("4", "d")]
    for table, cols in TABLES.items():
        # (sorted here: the two servers order strings differently)
        want = sorted(source_rows(mariadb_server, DB, table, cols))
        assert sorted(target_rows(uri, DB, table, cols)) == want, table
    with psycopg.connect(uri) as conn:
        pkeys = dict(conn.execute(
            "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'p' "
            "AND connamespace = %s::regnamespace", (DB,)).fetchall())
        indexes = dict(conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s",
                                    (DB,)).fetchall())
    # the primary keys are primary keys (NOT NULL, unique), in the source's column order
    assert pkeys == {f"{DB}.p": "PRIMARY KEY (a)", f"{DB}.k": "PRIMARY KEY (a)", f"{DB}.c": "PRIMARY KEY (a, b)",
                     f"{DB}.x": "PRIMARY KEY (id)"}
    # unique keys and plain indexes keep their DESC, the UNIQUE ones stay unique
    for name, unique, cols in (("u_u", True, "(b DESC, a)"), ("x_ue", True, "(e DESC)"),
                               ("x_uf", True, "(f DESC)"), ("x_ug", True, "(g DESC)"),
                               ("x_kh", False, "(h DESC)"), ("x_ks", False, "(\"left\"((s)::text, 3) DESC)"),
                               ("pp_pkey_prefix", True, "(\"left\"((s)::text, 3) DESC)")):
        assert name in indexes, (name, indexes)
        assert indexes[name].startswith("CREATE UNIQUE INDEX" if unique else "CREATE INDEX "), indexes[name]
        assert indexes[name].endswith(cols), indexes[name]
