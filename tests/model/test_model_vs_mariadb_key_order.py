"""Key order after ALTER TABLE, the model against a real MariaDB 10.11 (issue #23, "Schema model").

Each statement runs on the server and, through our parser, on the model (``Lab.step_sql``); after
each one the Lab compares information_schema.STATISTICS and the server's SHOW CREATE TABLE with
the model's (the key order is the order of the KEY lines there). The tables are built so that a
full sort (sort_keys() in sql_table.cc) and "keep the order" give different answers; the comment
on each statement says which one MariaDB chose (model/key_order.py states the rule). The MySQL
rules, which have no server in the lab, are tested from the source in test_key_order.py.
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


@pytest.fixture
def lab(mariadb_server, request):
    lab = base.Lab(mariadb_server, "mko_" + "".join(ch for ch in request.node.name if ch.isalnum())[-24:].lower())
    d = lab.db("k")
    lab.run_sql(f"CREATE DATABASE `{d}`", f"USE `{d}`")
    yield lab
    lab.close()


def key_names(lab, table: str) -> list[str]:
    t = lab.catalog.table(base.T(table, lab.db("k")))
    return [ix.name for ix in t.keys()]


def test_nullable_part_moves_a_unique_key_down(lab):
    lab.run_sql("CREATE TABLE a1 (a INT NOT NULL, b INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b))",
                "ALTER TABLE a1 MODIFY a INT NULL")  # head key ua lost its standing: sorted
    assert key_names(lab, "a1") == ["ub", "ua"]
    lab.run_sql("ALTER TABLE a1 MODIFY a INT NOT NULL")  # made NOT NULL: the order stays
    assert key_names(lab, "a1") == ["ub", "ua"]
    lab.run_sql("ALTER TABLE a1 MODIFY b INT NULL")  # the head key ub: sorted, ua first again
    assert key_names(lab, "a1") == ["ua", "ub"]
    lab.run_sql("ALTER TABLE a1 FORCE", "ALTER TABLE a1 ADD KEY k (a)", "ALTER TABLE a1 DROP KEY k")


def test_not_null_alone_keeps_the_order_until_a_key_is_added(lab):
    lab.run_sql("CREATE TABLE t2 (a INT, b INT, c INT, UNIQUE KEY ua (a), UNIQUE KEY ub (b))",
                "ALTER TABLE t2 MODIFY b INT NOT NULL",
                "ALTER TABLE t2 FORCE",
                "ALTER TABLE t2 ADD COLUMN d INT, ALGORITHM=COPY",
                "ALTER TABLE t2 CHANGE d d2 BIGINT",
                "ALTER TABLE t2 ALTER COLUMN d2 SET DEFAULT 3",
                "ALTER TABLE t2 RENAME INDEX ua TO ux",
                "ALTER TABLE t2 COMMENT 'x'",
                "ALTER TABLE t2 ADD CONSTRAINT cc CHECK (`a` > 0)")
    assert key_names(lab, "t2") == ["ux", "ub"]
    lab.run_sql("ALTER TABLE t2 ADD KEY kc (c)")  # a new key: all sorted, ub (NOT NULL) first
    assert key_names(lab, "t2") == ["ub", "ux", "kc"]


def test_a_new_foreign_key_index_sorts_too(lab):
    lab.run_sql("CREATE TABLE p (b INT NOT NULL, UNIQUE KEY (b))",
                "CREATE TABLE a7 (a INT, b INT, UNIQUE KEY ua (a), UNIQUE KEY ub (b))",
                "ALTER TABLE a7 MODIFY b INT NOT NULL",
                "ALTER TABLE a7 ADD FOREIGN KEY (a) REFERENCES p (b)")
    assert key_names(lab, "a7") == ["ub", "ua"]


def test_statement_that_worsens_the_head_sorts_everything(lab):
    lab.run_sql(
        "CREATE TABLE b2 (a INT, b INT, c INT NOT NULL, d INT NOT NULL,"
        " UNIQUE KEY ua (a), UNIQUE KEY ub (b), UNIQUE KEY uc (c), UNIQUE KEY ud (d))",
        "ALTER TABLE b2 MODIFY b INT NOT NULL",  # kept: uc, ud, ua, ub
        "ALTER TABLE b2 MODIFY c INT NULL",  # the head uc: sorted, and ub moves up too
        "ALTER TABLE b2 MODIFY a INT NOT NULL",  # kept
        "ALTER TABLE b2 MODIFY d INT NULL")  # the head ud: sorted
    assert key_names(lab, "b2") == ["ub", "ua", "ud", "uc"]
    lab.run_sql("CREATE TABLE b1 (a INT, b INT, c INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b),"
                " UNIQUE KEY uc (c))",
                "ALTER TABLE b1 MODIFY b INT NOT NULL, MODIFY c INT NULL")
    assert key_names(lab, "b1") == ["ub", "uc", "ua"]


def test_prefix_keys(lab):
    lab.run_sql(
        "CREATE TABLE b3 (a VARCHAR(10) NOT NULL, b VARCHAR(10) NOT NULL, c INT,"
        " UNIQUE KEY ua (a(3)), UNIQUE KEY ub (b), UNIQUE KEY uc (c))",  # whole-column ub first
        "ALTER TABLE b3 MODIFY b VARCHAR(10) NULL",  # the head ub: sorted, prefix ua first now
        "ALTER TABLE b3 MODIFY a VARCHAR(10) NULL")  # ua heads but never was a candidate: kept
    assert key_names(lab, "b3") == ["ua", "ub", "uc"]
    lab.run_sql(
        "CREATE TABLE a3 (a VARCHAR(10) NOT NULL, b VARCHAR(10) NOT NULL,"
        " UNIQUE KEY ua (a), UNIQUE KEY ub (b(3)))",
        "ALTER TABLE a3 MODIFY b VARCHAR(3) NOT NULL",  # ub becomes whole-column: kept
        "ALTER TABLE a3 DROP KEY ua, ADD UNIQUE KEY ua (a(4))",  # re-added as a prefix key: sorted
        "ALTER TABLE a3 MODIFY a VARCHAR(4) NOT NULL")  # whole-column again: kept
    assert key_names(lab, "a3") == ["ub", "ua"]


def test_primary_key_drop_and_add(lab):
    lab.run_sql(
        "CREATE TABLE a5 (a INT NOT NULL, b INT NOT NULL, c INT, UNIQUE KEY uc (c), UNIQUE KEY ua (a),"
        " PRIMARY KEY (b))",
        "ALTER TABLE a5 DROP PRIMARY KEY",
        "ALTER TABLE a5 ADD PRIMARY KEY (c)",
        "ALTER TABLE a5 DROP PRIMARY KEY",
        "ALTER TABLE a5 MODIFY c INT NULL",
        "ALTER TABLE a5 ADD PRIMARY KEY (c)")
    assert key_names(lab, "a5") == ["PRIMARY", "ua", "uc"]
    lab.run_sql(
        "CREATE TABLE b4 (a INT, b INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b))",
        "ALTER TABLE b4 ADD PRIMARY KEY (a)",  # ua ranked by a as the statement found it: nullable
        "ALTER TABLE b4 DROP PRIMARY KEY",
        "ALTER TABLE b4 MODIFY a INT NULL")
    assert key_names(lab, "b4") == ["ub", "ua"]
    lab.run_sql(
        "CREATE TABLE c4 (a INT, b INT, c INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b), PRIMARY KEY (c))",
        "ALTER TABLE c4 MODIFY b INT NOT NULL",
        "ALTER TABLE c4 DROP PRIMARY KEY")  # the head key dropped by name: kept
    assert key_names(lab, "c4") == ["ua", "ub"]


def test_head_key_dropped_with_its_column_sorts(lab):
    lab.run_sql(
        "CREATE TABLE c1 (a INT, b INT, c INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b), UNIQUE KEY uc (c))",
        "ALTER TABLE c1 MODIFY b INT NOT NULL",
        "ALTER TABLE c1 DROP KEY uc")  # dropped by name: kept
    assert key_names(lab, "c1") == ["ua", "ub"]
    lab.run_sql(
        "CREATE TABLE c2 (a INT, b INT, c INT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b), UNIQUE KEY uc (c))",
        "ALTER TABLE c2 MODIFY b INT NOT NULL",
        "ALTER TABLE c2 DROP COLUMN c")  # gone with its column: sorted
    assert key_names(lab, "c2") == ["ub", "ua"]


def test_long_unique_and_fulltext_keys(lab):
    lab.run_sql(
        "CREATE TABLE b5 (a INT, b INT, t TEXT, UNIQUE KEY ut (t), UNIQUE KEY ua (a), UNIQUE KEY ub (b))",
        "ALTER TABLE b5 MODIFY b INT NOT NULL",
        "ALTER TABLE b5 MODIFY a INT NOT NULL, MODIFY b INT NULL",
        "ALTER TABLE b5 ADD UNIQUE KEY uab (a, b)")
    assert key_names(lab, "b5") == ["ua", "ub", "uab", "ut"]
    lab.run_sql(
        "CREATE TABLE a4 (a INT NOT NULL, b INT, c TEXT, KEY kb (b), FULLTEXT KEY ft (c), KEY kc (c(3)),"
        " UNIQUE KEY ua (a))",
        "ALTER TABLE a4 ADD KEY kd (a)")
    assert key_names(lab, "a4") == ["ua", "kb", "kc", "kd", "ft"]
