"""The PostgreSQL sink's type map and DDL converter, without a server (the server-side checks are
in test_postgresql.py)."""

from __future__ import annotations

import datetime

import pytest

from mysqlddl.ddl import run_script
from mysqlddl.errors import ValuePolicyError
from mysqlddl.mapping import Mapping
from mysqlddl.model.catalog import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.options import DEFAULT
from mysqlddl.sinks.pg import ddl as D
from mysqlddl.sinks.pg.types import PgOptions, ValuePolicy
from mysqlddl.sinks.pg.values import PolicyCounts, ValueConverter

OPTS = PgOptions()


def table(sql: str, name: str = "t"):
    cat = run_script(Catalog.empty(DEFAULT), "CREATE DATABASE d; USE d; " + sql, DEFAULT).catalog
    return cat.table(TableId("d", name))


@pytest.mark.parametrize(("decl", "want"), [
    ("TINYINT", "smallint"), ("TINYINT(1)", "smallint"), ("INT UNSIGNED", "bigint"),
    ("BIGINT UNSIGNED", "numeric(20)"), ("DECIMAL(65,30)", "numeric(65,30)"), ("DOUBLE", "double precision"),
    ("BIT(5)", "bit varying(5)"), ("DATETIME(6)", "timestamp(6)"), ("TIMESTAMP(3) NULL", "timestamptz(3)"),
    ("TIME(2)", "interval"), ("YEAR", "smallint"), ("CHAR(3)", "char(3)"), ("VARCHAR(7)", "varchar(7)"),
    ("LONGTEXT", "text"), ("VARBINARY(9)", "bytea"), ("ENUM('a','b')", "text"), ("SET('a','b')", "text[]"),
    ("JSON", "jsonb"), ("POINT", "bytea"), ("INET6", "inet"), ("UUID", "uuid"),
])
def test_type_map(decl, want):
    t = table(f"CREATE TABLE t (c {decl})")
    tt = D.resolve(t, Mapping(), OPTS)
    assert tt.columns[0].sql_type == want


def test_tinyint1_boolean_only_where_asked():
    t = table("CREATE TABLE t (c TINYINT(1))")
    assert D.resolve(t, Mapping(), PgOptions(tinyint1_boolean=True)).columns[0].sql_type == "boolean"


def test_alter_is_a_diff_of_versions():
    old = D.resolve(table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(5) NOT NULL, KEY ka (a))"),
                    Mapping(), OPTS)
    new = D.resolve(table("CREATE TABLE t (id INT PRIMARY KEY, b2 TEXT NOT NULL, c INT NOT NULL DEFAULT 3)"),
                    Mapping(), OPTS)
    sql = D.alter_table(old, new, {"b": "b2"}, OPTS, [])
    text = "\n".join(sql)
    assert 'DROP INDEX IF EXISTS "d"."t_ka"' in text and 'DROP COLUMN IF EXISTS "a"' in text
    assert 'RENAME COLUMN "b" TO "b2"' in text and 'ALTER COLUMN "b2" TYPE text' in text
    assert 'ADD COLUMN "c" integer DEFAULT 3' in text and 'ALTER COLUMN "c" SET NOT NULL' in text
    assert text.index("DROP INDEX") < text.index("DROP COLUMN")


def test_create_with_keys_enum_check_and_prefix():
    t = table("CREATE TABLE t (id INT, e ENUM('x','y') NOT NULL DEFAULT 'y', s TEXT, PRIMARY KEY (id), "
              "UNIQUE KEY us (s(10)), FULLTEXT KEY ft (s))")
    notes: list[str] = []
    text = "\n".join(D.create_table(D.resolve(t, Mapping(), OPTS), OPTS, notes))
    assert """"e" text DEFAULT 'y' NOT NULL""" in text and """CHECK ("e" IN ('','x','y'))""" in text
    assert 'PRIMARY KEY ("id")' in text and 'CREATE UNIQUE INDEX "t_us" ON "d"."t" ((left("s", 10)))' in text
    assert any("fulltext" in n for n in notes)


def test_value_policy():
    counts = PolicyCounts()
    t = table("CREATE TABLE t (d DATETIME NOT NULL, n DATE, s VARCHAR(9))")
    tt = D.resolve(t, Mapping(), OPTS)
    conv = {c.name: ValueConverter(c.natural, ValuePolicy.NULL, counts, ("d.t", c.name), c.nullable)
            for c in tt.columns}
    assert conv["n"]("0000-00-00") is None
    assert conv["d"]("2020-00-15 10:00:00") == datetime.datetime(2020, 1, 15, 10)      # NOT NULL: clamped
    assert conv["s"]("a\x00b") is None
    assert counts == {("d.t", "n", "zero-date", "null"): 1, ("d.t", "d", "zero-date", "clamp"): 1,
                      ("d.t", "s", "nul-in-text", "null"): 1}
    strict = ValueConverter(tt.columns[2].natural, ValuePolicy.ERROR, counts, ("d.t", "s"))
    with pytest.raises(ValuePolicyError, match="nul-in-text"):
        strict("a\x00b", "f:4")


def test_json_text_is_stored_as_it_is_not_encoded_again():
    # change records decoded with json_as="text" (as `mysqlddl changes` decodes them) carry the
    # document's text: PgOptions(json_text=True) stores it as that text; a document (json_as the
    # default) is encoded once. Either way a JSON string scalar stays one string.
    from mysqlddl.sinks.pg.types import PgType

    jsonb = PgType("jsonb", "jsonb")
    counts = PolicyCounts()
    as_text = ValueConverter(jsonb, ValuePolicy.NULL, counts, ("d.t", "j"), json_text=True)
    as_doc = ValueConverter(jsonb, ValuePolicy.NULL, counts, ("d.t", "j"))
    assert as_text('{"a": [1, 2]}') == '{"a": [1, 2]}' and as_text('"abc"') == '"abc"'
    assert as_doc({"a": [1, 2]}) == '{"a": [1, 2]}' and as_doc("abc") == '"abc"'
    assert as_text('{"a": "x\\u0000y"}') is None and counts[("d.t", "j", "nul-in-text", "null")] == 1
