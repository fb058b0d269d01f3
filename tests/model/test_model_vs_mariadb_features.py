"""The model against a real MariaDB 10.11 for the newer clauses, statement text in: each statement
is sent to the server and, through our parser, applied to the model (``Lab.step_sql``); both must
agree on success or failure, then on information_schema (TABLES with TABLE_TYPE, COLUMNS,
STATISTICS with IGNORED, TABLE_CONSTRAINTS, PARTITIONS), SHOW CREATE TABLE (and SHOW CREATE
SEQUENCE), and SHOW CREATE TABLE fed back through the parser. The Lab and its comparisons live in
test_model_vs_mariadb.py.

MySQL-only forms (INVISIBLE indexes, CHECK ... NOT ENFORCED, ALTER CHECK) are syntax errors on
MariaDB 10.11; the tests below check that the model refuses them under the MariaDB dialect too.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("_model_vs_mariadb",
                                               Path(__file__).with_name("test_model_vs_mariadb.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

pytestmark = pytest.mark.mariadb


def _prefix(request) -> str:
    return "mdf_" + "".join(ch for ch in request.node.name if ch.isalnum())[-24:].lower()


@pytest.fixture
def lab(mariadb_server, request):
    lab = base.Lab(mariadb_server, _prefix(request))
    # ALTER TABLE on a system-versioned table needs this session setting (the binlog records only
    # statements that succeeded, so the model does not refuse them)
    lab.sql("SET SESSION system_versioning_alter_history = KEEP")
    yield lab
    lab.close()


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    print("\nmodel vs MariaDB (features):", ", ".join(f"{k}={v}" for k, v in sorted(base.STATS.items())))


def start(lab, name: str = "f") -> str:
    d = lab.db(name)
    lab.run_sql(f"CREATE DATABASE `{d}`", f"USE `{d}`")
    return d


def rejected(lab, *texts: str) -> None:
    for t in texts:
        lab.step_sql(t, expect_error=True)


# ------------------------------------------------------------------------------------- gap tests


def test_ignored_indexes(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE TABLE t1 (a INT, b INT, c INT NOT NULL, KEY i (a), KEY j (b) IGNORED, UNIQUE u (b),"
        " UNIQUE un (c))",
        "ALTER TABLE t1 ALTER INDEX i IGNORED",
        "ALTER TABLE t1 ALTER INDEX j NOT IGNORED",
        "ALTER TABLE t1 ALTER INDEX u IGNORED",  # a nullable UNIQUE key may be ignored
        "CREATE INDEX k ON t1 (a, b) IGNORED",
        "ALTER TABLE t1 ALTER INDEX k NOT IGNORED, ADD KEY k2 (c) IGNORED",
    )
    t = lab.catalog.table(d, "t1")
    assert [(k.name, k.visible) for k in t.keys()] == [
        ("un", True), ("u", False), ("i", False), ("j", True), ("k", True), ("k2", False)]
    rejected(
        lab,
        "ALTER TABLE t1 ALTER INDEX un IGNORED",  # the implicit primary key (UNIQUE on NOT NULL)
        "CREATE TABLE t2 (a INT NOT NULL, UNIQUE u (a) IGNORED)",
        "ALTER TABLE t1 ADD KEY k3 (a), ALTER INDEX k3 IGNORED",  # ALTER INDEX sees only old keys
        "ALTER TABLE t1 RENAME KEY i TO i2, ALTER INDEX i2 IGNORED",
        "ALTER TABLE t1 RENAME KEY i TO i3, ALTER INDEX i NOT IGNORED",
        "ALTER TABLE t1 ALTER INDEX i NOT IGNORED, DROP KEY i",
        "ALTER TABLE t1 ALTER INDEX nope IGNORED",
        "ALTER TABLE t1 ALTER INDEX i INVISIBLE",  # MySQL's spelling: a syntax error on MariaDB
    )
    lab.run_sql("CREATE TABLE t3 (a INT PRIMARY KEY, b INT)")
    rejected(lab, "ALTER TABLE t3 ALTER INDEX `PRIMARY` IGNORED")


def test_check_enforcement_is_mysql_only(lab):
    start(lab)
    lab.run_sql("CREATE TABLE t (a INT, CONSTRAINT c CHECK (`a` > 0))")
    rejected(
        lab,
        "CREATE TABLE t2 (a INT, CHECK (a > 0) NOT ENFORCED)",
        "CREATE TABLE t2 (a INT CHECK (a > 0) NOT ENFORCED)",
        "ALTER TABLE t ALTER CHECK c NOT ENFORCED",
        "ALTER TABLE t ALTER CONSTRAINT c ENFORCED",
    )


def test_rename_table_if_exists(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE TABLE a (x INT)",
        "RENAME TABLE IF EXISTS nope TO n2, a TO b",
        "RENAME TABLE IF EXISTS b TO c, nope TO n3",
    )
    assert lab.catalog.table(d, "c") is not None and lab.catalog.table(d, "n2") is None
    lab.run_sql("CREATE TABLE d (x INT)")
    rejected(lab, "RENAME TABLE nope TO n4", "RENAME TABLE IF EXISTS c TO d")  # a target that exists


def test_create_table_select_star_and_expression_types(lab):
    d = start(lab)
    lab.run_sql(
        "SET NAMES utf8mb4",
        "CREATE TABLE src (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10) CHARACTER SET utf8mb4,"
        " d DECIMAL(6,2), t DATETIME(3), e ENUM('a','b') NOT NULL DEFAULT 'b')",
        "CREATE TABLE src2 (id INT, w TEXT)",
        "CREATE TABLE c1 AS SELECT *, 1 AS i, 1.5 AS dd, 'abc' AS s, CAST(v AS CHAR(20)) AS cc,"
        " CAST(d AS DECIMAL(8,3)) cd, CAST(t AS DATE) dt, CAST(t AS TIME) tm, CAST(t AS DATETIME(6)) dtm,"
        " NULL AS n, NOW() AS nw, -1 AS neg, 12345678901 AS big, 1e3 AS f, x'41' AS hx, b'1' AS bt,"
        " src.id AS alias_id FROM src",
        "CREATE TABLE c2 AS SELECT s.* FROM src s",
        "CREATE TABLE c3 AS SELECT 1234567890 a, 123456789 b, 2147483648 d, -2147483648 e, '' f, 0.5 g,"
        " .5 h, 100.00 i, -1.5 j, 18446744073709551615 k, 9223372036854775807 l, 99999999999999999999 m,"
        " CAST(1 AS CHAR(5)) n, CAST('2020-01-01' AS DATE) o, CAST(1 AS DECIMAL(5,2)) p, CAST(1 AS TIME(2)) r,"
        " CAST(1 AS BINARY(3)) s, CAST(1 AS DOUBLE) t, CAST(1 AS FLOAT) u, CURRENT_TIMESTAMP() w, CURDATE() y,"
        " CURRENT_TIMESTAMP(3) z, 1.0e0 ab, _latin1'x' ad, N'x' ae, -0 ai, 0.000 aj, CURTIME(2) al,"
        " CURRENT_DATE am, LOCALTIME(1) an, CONVERT(1, CHAR(4)) ap, CAST(id AS DECIMAL(4,1)) aq,"
        " 0x4142 ar, 0b101 ss FROM src",
        "CREATE TABLE c5 AS SELECT src.*, src2.w FROM src, src2",
        "CREATE TABLE c6 (x INT) AS SELECT *, 5 y FROM src2",
        "CREATE TABLE c7 AS SELECT s2.* FROM src2 s2, src",
    )
    c3 = lab.catalog.table(d, "c3")
    assert not [c.name for c in c3.columns if c.type_name == "unknown"]
    assert (c3.column("a").column_type, c3.column("k").column_type, c3.column("m").column_type) == (
        "bigint(10)", "bigint(20) unsigned", "decimal(20,0)")
    assert [c.name for c in lab.catalog.table(d, "c5").columns] == ["id", "v", "d", "t", "e", "w"]
    rejected(
        lab,
        "CREATE TABLE c4 AS SELECT * FROM src JOIN src2 ON src.id = src2.id",  # two columns id
        "CREATE TABLE c8 AS SELECT *, 'x' w FROM src2",
        "CREATE TABLE c9 AS SELECT * FROM nope",
    )


def test_sequences(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE SEQUENCE s1",
        "CREATE SEQUENCE s2 START WITH 5 INCREMENT BY 2 MINVALUE 1 MAXVALUE 100 CACHE 10 CYCLE ENGINE=MyISAM"
        " COMMENT='hi'",
        "ALTER SEQUENCE s2 RESTART WITH 7 INCREMENT 3 NOCYCLE",
        "CREATE SEQUENCE s4 INCREMENT BY -1",
        "CREATE TABLE t1 (a INT)",
        "CREATE TABLE s7 LIKE s2",
        "ALTER TABLE s2 COMMENT='x'",
        "RENAME TABLE s1 TO s8",
        "DROP TABLE s8",
        "CREATE OR REPLACE SEQUENCE s4 NOCACHE",
        "CREATE SEQUENCE IF NOT EXISTS s4",
        "DROP SEQUENCE IF EXISTS s7, nope",
    )
    assert lab.catalog.table(d, "s2").sequence.increment == 3
    rejected(
        lab,
        "CREATE SEQUENCE s5 START WITH 0",
        "CREATE SEQUENCE s6 MINVALUE 10 MAXVALUE 5",
        "ALTER SEQUENCE t1 RESTART",
        "DROP SEQUENCE t1",
        "ALTER TABLE s2 ADD COLUMN z INT",
        "CREATE SEQUENCE s4",
    )
    lab.run_sql("CREATE TEMPORARY SEQUENCE s3", "DROP TEMPORARY SEQUENCE s3")


def test_system_versioning(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE TABLE v1 (a INT) WITH SYSTEM VERSIONING",
        "CREATE TABLE v2 (a INT, b INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING COMMENT='x'",
        "CREATE TABLE v3 (a INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
        " e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING",
        "CREATE TABLE v5 (id INT PRIMARY KEY, a INT)",
        "ALTER TABLE v5 ADD SYSTEM VERSIONING",
        "ALTER TABLE v5 ADD COLUMN z INT",
        "CREATE TABLE v6 (a INT WITH SYSTEM VERSIONING, b INT)",
        "CREATE TABLE v7 (id INT PRIMARY KEY, a INT) WITH SYSTEM VERSIONING",
        "ALTER TABLE v7 DROP SYSTEM VERSIONING",
        "CREATE TABLE v8 (a INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
        " e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING",
        "ALTER TABLE v8 DROP SYSTEM VERSIONING, DROP COLUMN s, DROP COLUMN e",
        "CREATE TABLE v9 LIKE v1",
        "CREATE TABLE v10 AS SELECT * FROM v1",
        "CREATE TABLE v11 (a INT, s BIGINT UNSIGNED GENERATED ALWAYS AS ROW START INVISIBLE,"
        " e BIGINT UNSIGNED GENERATED ALWAYS AS ROW END INVISIBLE, PERIOD FOR SYSTEM_TIME (s, e))"
        " WITH SYSTEM VERSIONING",
    )
    # the hidden row_start/row_end are in the row image (last), not in information_schema
    assert [(c.name, c.hidden) for c in lab.catalog.table(d, "v5").columns] == [
        ("id", False), ("a", False), ("z", False), ("row_start", True), ("row_end", True)]
    assert [c.name for c in lab.catalog.table(d, "v10").columns] == ["a"]
    rejected(
        lab,
        "CREATE TABLE v12 (a INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
        " e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (e, s)) WITH SYSTEM VERSIONING",
        "ALTER TABLE v3 DROP SYSTEM VERSIONING",  # the ROW START/END columns must be dropped too
        "ALTER TABLE v5 ADD SYSTEM VERSIONING",
        "ALTER TABLE v7 DROP SYSTEM VERSIONING",
    )


def test_application_time_periods(lab):
    start(lab)
    lab.run_sql(
        "CREATE TABLE p1 (id INT, s DATE, e DATE, PERIOD FOR app (s, e))",
        "CREATE TABLE p2 (id INT, s DATE NOT NULL, e DATE NOT NULL, PERIOD FOR app (s, e),"
        " UNIQUE u (id, app WITHOUT OVERLAPS))",
        "CREATE TABLE p3 (id INT, s DATETIME(3), e DATETIME(3))",
        "ALTER TABLE p3 ADD PERIOD FOR p (s, e)",
        "ALTER TABLE p3 DROP PERIOD FOR p",
        "CREATE TABLE p6 (id INT, s DATE, e DATE, PERIOD FOR p (s, e))",
    )
    rejected(
        lab,
        "CREATE TABLE p4 (id INT, s INT, e INT, PERIOD FOR p (s, e))",
        "CREATE TABLE p5 (id INT, s DATE, e DATETIME, PERIOD FOR p (s, e))",
        "ALTER TABLE p6 DROP COLUMN s",
        "ALTER TABLE p6 CHANGE s s2 DATE",
        "CREATE TABLE p7 (id INT, s DATE, e DATE, PERIOD FOR p (s, e), UNIQUE u (id, q WITHOUT OVERLAPS))",
        "ALTER TABLE p3 DROP PERIOD FOR p",
    )


def test_partition_counts(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE TABLE h (id INT NOT NULL, PRIMARY KEY (id)) PARTITION BY HASH (`id`) PARTITIONS 4",
        "ALTER TABLE h ADD PARTITION PARTITIONS 2",
        "ALTER TABLE h COALESCE PARTITION 3",
        "CREATE TABLE k (id INT NOT NULL PRIMARY KEY) PARTITION BY KEY (id) PARTITIONS 2",
        "ALTER TABLE k ADD PARTITION PARTITIONS 1",
        # (expressions are kept as written: spelled the way the server prints them)
        "CREATE TABLE h2 (id INT) PARTITION BY HASH (`id`) (PARTITION a, PARTITION b)",
        "ALTER TABLE h2 ADD PARTITION PARTITIONS 2",
        "ALTER TABLE h2 COALESCE PARTITION 1",
    )
    assert lab.catalog.table(d, "h").partitioning.count == 3
    assert lab.catalog.table(d, "h2").partitioning.names == ("a", "b", "p2")
    rejected(lab, "ALTER TABLE h COALESCE PARTITION 3")  # (RANGE: see test_commands_alter_table)


def test_foreign_key_index_names(lab):
    d = start(lab)
    lab.run_sql(
        "CREATE TABLE par (id INT PRIMARY KEY)",
        "CREATE TABLE ch (a INT, b INT, c INT, FOREIGN KEY ix (a) REFERENCES par (id),"
        " CONSTRAINT cn FOREIGN KEY ix2 (b) REFERENCES par (id), FOREIGN KEY (c) REFERENCES par (id))",
        "CREATE TABLE ch3 (a INT)",
        "ALTER TABLE ch3 ADD FOREIGN KEY fx (a) REFERENCES par (id)",
        "CREATE TABLE ch4 (a INT, KEY k (a), FOREIGN KEY fz (a) REFERENCES par (id))",
    )
    assert sorted(f.name for f in lab.catalog.table(d, "ch").foreign_keys) == ["ch_ibfk_1", "cn", "ix"]


def test_alter_clause_order(lab):
    """Which clauses of one ALTER TABLE see which others (mysql_prepare_alter_table() phases)."""
    start(lab)
    lab.run_sql(
        "CREATE TABLE a (x INT, y INT, z INT, KEY a (x), KEY b (y), KEY c (z))",
        "ALTER TABLE a ADD KEY k (w), ADD COLUMN w INT",  # new keys see new columns
        "ALTER TABLE a RENAME KEY a TO b, DROP KEY b",  # drops name old keys, before renames
        "ALTER TABLE a RENAME KEY b TO q, RENAME KEY c TO b",  # new names unique only at the end
        "ALTER TABLE a RENAME KEY q TO r, RENAME KEY b TO q",
        "ALTER TABLE a DROP COLUMN z, ADD COLUMN z INT, ADD KEY kz (z)",  # KEY q (z) stays
        "ALTER TABLE a ADD COLUMN q1 INT FIRST, MODIFY x BIGINT AFTER q1",
        "ALTER TABLE a CHANGE y y2 INT, ADD KEY ky (y2)",
    )
    rejected(
        lab,
        "ALTER TABLE a ADD COLUMN v INT AFTER u, ADD COLUMN u INT",
        "ALTER TABLE a ADD KEY (x), DROP COLUMN x",
        "ALTER TABLE a ADD COLUMN n INT, DROP COLUMN n",
        "ALTER TABLE a DROP KEY r, RENAME KEY r TO r2",
        "ALTER TABLE a RENAME KEY r TO s, RENAME KEY s TO t",
        "ALTER TABLE a RENAME KEY r TO r2, RENAME KEY r TO r3",
        "ALTER TABLE a RENAME KEY r TO r2, DROP KEY r2",
        "ALTER TABLE a ADD KEY f (x), DROP KEY f",
        "ALTER TABLE a RENAME COLUMN w TO w2, CHANGE w2 w3 INT",
        "ALTER TABLE a MODIFY x INT AFTER nonexist, ADD COLUMN nonexist INT",
    )


def test_identifier_case_lower_case_table_names_0(lab):
    """The default server (lower_case_table_names=0 on Linux): names are case-sensitive."""
    d = start(lab)
    lab.run_sql("CREATE TABLE T (a INT)", "CREATE TABLE t (b INT)", "ALTER TABLE T ADD c INT", "RENAME TABLE t TO u")
    assert lab.catalog.table(d, "T").column_names == ("a", "c")
    rejected(lab, "CREATE TABLE T (x INT)", "ALTER TABLE U ADD d INT")


@pytest.fixture(scope="module")
def lc1_server(mariadb_server, tool):
    """A second private MariaDB started with --lower-case-table-names=1 (needs mariadbd, like
    mariadb_server). 2 cannot be checked here: on a case-sensitive file system the server
    silently runs with 0 (checked on 10.11.19)."""
    import os

    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdb-lc1-{os.getpid()}"
    srv = tool("mariadb_lab").MariaDBServer(base, extra_args=("--lower-case-table-names=1",))
    srv.start()
    try:
        assert srv.query("SELECT @@lower_case_table_names")[0][0] == 1
        yield srv
    finally:
        srv.destroy()


def test_identifier_case_lower_case_table_names_1(lc1_server, request):
    lab = base.Lab(lc1_server, _prefix(request), base.OPTS.replace(lower_case_table_names=1))
    try:
        d = lab.db("Mixed").lower()
        lab.run_sql(
            f"CREATE DATABASE `{lab.db('Mixed')}`",
            f"USE `{lab.db('MIXED')}`",
            "CREATE TABLE MyTable (Id INT)",
            "ALTER TABLE mytable ADD c INT",
            "RENAME TABLE MYTABLE TO Other",
            f"CREATE TABLE `{lab.db('MIXED')}`.Third LIKE OTHER",
            "DROP TABLE THIRD",
        )
        assert [t.name for t in lab.catalog.tables_in(d)] == ["other"]
        rejected(lab, "CREATE TABLE OTHER (x INT)", "CREATE TABLE other (x INT)",
                 f"CREATE DATABASE `{lab.db('MIXED')}`")
    finally:
        lab.close()
