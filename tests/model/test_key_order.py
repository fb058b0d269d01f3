"""Key order per dialect (model/key_order.py), from DDL text through the parser.

MySQL has no server in the lab: these cases follow the source. sort_keys() in MySQL's
sql/sql_table.cc ranks unique keys before the others, NOT NULL unique keys first, the PRIMARY KEY
first among the rest, whole-column before prefix keys, FULLTEXT keys last and keys with a virtual
generated part (HA_VIRTUAL_GEN_KEY; a functional key part is a hidden virtual generated column,
manual 15.1.15 "CREATE INDEX", Functional Key Parts) after the keys they tie with; ties keep the
given order. Every ALTER TABLE but a bare RENAME TO / ENABLE|DISABLE KEYS
(is_simple_rename_or_index_change() in sql_table.cc) goes through mysql_prepare_create_table(),
which sorts the keys again by the columns as the statement leaves them.

The MariaDB cases repeat, without a server, a few of those checked on 10.11.19 in
test_model_vs_mariadb_key_order.py, to show where the two dialects part.
"""

from __future__ import annotations

import pytest

from mysqlddl.ddl import parse_ddl
from mysqlddl.model import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.options import Options

MYSQL = Options(dialect="mysql", server_version=(8, 0, 40))
MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))


def keys_after(options: Options, *statements: str, table: str = "t") -> list[str]:
    cat = Catalog.empty(options)
    for text in ("CREATE DATABASE d", "USE d") + statements:
        for cmd in parse_ddl(text, options=options):
            cat = cmd.apply(cat, options)
    return [ix.name for ix in cat.table(TableId("d", table)).keys()]


T2 = "CREATE TABLE t (a INT, b INT, c INT, UNIQUE KEY ua (a), UNIQUE KEY ub (b))"


@pytest.mark.parametrize("alter", [
    "ALTER TABLE t MODIFY b INT NOT NULL",
    "ALTER TABLE t CHANGE b b INT NOT NULL",
])
def test_not_null_moves_a_unique_key_up_in_mysql_only(alter):
    assert keys_after(MYSQL, T2, alter) == ["ub", "ua"]
    assert keys_after(MARIADB, T2, alter) == ["ua", "ub"]  # checked on 10.11.19


def test_mysql_sorts_on_every_rebuilding_alter():
    # the NOT NULL change and the sort need not be in one statement in MariaDB's terms; in MySQL
    # the statement that makes b NOT NULL already sorts, and later ones keep the sorted order
    for later in ("ALTER TABLE t RENAME INDEX ua TO ux", "ALTER TABLE t ALTER COLUMN c SET DEFAULT 1",
                  "ALTER TABLE t COMMENT 'x'", "ALTER TABLE t RENAME TO t"):
        got = keys_after(MYSQL, T2, "ALTER TABLE t MODIFY b INT NOT NULL", later)
        assert got[0] == "ub", later


def test_prefix_key_after_whole_column_key():
    create = ("CREATE TABLE t (a VARCHAR(10) NOT NULL, b VARCHAR(10) NOT NULL, UNIQUE KEY ua (a),"
              " UNIQUE KEY ub (b(3)))")
    alter = "ALTER TABLE t DROP KEY ua, ADD UNIQUE KEY ua (a(4))"
    for opts in (MYSQL, MARIADB):
        assert keys_after(opts, create) == ["ua", "ub"]
        assert keys_after(opts, create, alter) == ["ub", "ua"]
    # shrinking b to its prefix length makes ub whole-column: MySQL sorts, MariaDB keeps
    shrink = "ALTER TABLE t MODIFY b VARCHAR(3) NOT NULL"
    assert keys_after(MYSQL, create, alter, shrink) == ["ub", "ua"]
    assert keys_after(MARIADB, create, alter, shrink) == ["ub", "ua"]


def test_primary_key_first_and_nullable_unique_after():
    create = "CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, c INT, UNIQUE KEY uc (c), UNIQUE KEY ua (a))"
    for opts in (MYSQL, MARIADB):
        assert keys_after(opts, create) == ["ua", "uc"]
        assert keys_after(opts, create, "ALTER TABLE t ADD PRIMARY KEY (b)") == ["PRIMARY", "ua", "uc"]
        assert keys_after(opts, create, "ALTER TABLE t ADD PRIMARY KEY (b)",
                          "ALTER TABLE t DROP PRIMARY KEY") == ["ua", "uc"]


def test_virtual_generated_keys_last_in_mysql():
    create = ("CREATE TABLE t (a INT, v INT AS (a + 1) VIRTUAL, s INT AS (a + 2) STORED,"
              " KEY kv (v), KEY ks (s), KEY ka (a))")
    assert keys_after(MYSQL, create) == ["ks", "ka", "kv"]
    assert keys_after(MARIADB, create) == ["kv", "ks", "ka"]


def test_functional_key_parts_last_in_mysql():
    create = "CREATE TABLE t (a INT, b INT, KEY kf ((a + b)), KEY ka (a), FULLTEXT KEY ft (x), x TEXT)"
    assert keys_after(MYSQL, create) == ["ka", "kf", "ft"]
