"""CREATE TABLE ... AS subquery -> CreateTable.as_select -> columns copied from the source tables."""

from __future__ import annotations

import pytest

from mysqlddl.errors import DdlSemanticError
from mysqlddl.model.types import TypeFamily as F

from .conftest import apply, commands

SOURCES = """CREATE TABLE s (id NUMBER(5) NOT NULL, name VARCHAR2(20 CHAR) DEFAULT 'x', d DATE);
CREATE TABLE u (k NUMBER);
"""


def cols(sql: str, name: str):
    t = apply(SOURCES + sql).table("APP", name)
    return [(c.name, c.type_name, c.length, c.nullable) for c in t.columns]


def test_star_copies_every_column():
    assert cols("CREATE TABLE c AS SELECT * FROM s", "C") == [
        ("ID", "NUMBER", 5, False), ("NAME", "VARCHAR2", 20, True), ("D", "DATE", None, True)]


def test_columns_aliases_and_expressions():
    got = cols('CREATE TABLE c AS SELECT s.id, name n, d AS "When", id + 1 AS nxt FROM s WHERE 1 = 0', "C")
    assert got == [("ID", "NUMBER", 5, False), ("N", "VARCHAR2", 20, True), ("When", "DATE", None, True),
                   ("NXT", "unknown", None, True)]
    t = apply(SOURCES + "CREATE TABLE c AS SELECT name FROM s").table("APP", "C")
    assert t.column("NAME").length_semantics == "CHAR" and t.column("NAME").default.value == "x"


def test_column_list_renames_in_order_and_joins_resolve_aliases():
    assert cols("CREATE TABLE c (a, b) AS SELECT id, name FROM app.s", "C") == [
        ("A", "NUMBER", 5, False), ("B", "VARCHAR2", 20, True)]
    got = cols("CREATE TABLE c NOLOGGING AS SELECT /*+ parallel */ x.*, u.k FROM s x JOIN u ON x.id = u.k", "C")
    assert [g[0] for g in got] == ["ID", "NAME", "D", "K"]


def test_unknown_expression_type_is_unknown_family():
    t = apply(SOURCES + "CREATE TABLE c AS SELECT SYSDATE AS now FROM dual").table("APP", "C")
    assert t.column("NOW").family is F.UNKNOWN


@pytest.mark.parametrize("sql,message", [
    ("CREATE TABLE c AS SELECT id + 1 FROM s", "ORA-00998"),
    ("CREATE TABLE c (a) AS SELECT id, name FROM s", "ORA-01730"),
    ("CREATE TABLE c (a, b) AS SELECT * FROM s", "cannot count"),
])
def test_positioned_errors(sql, message):
    with pytest.raises(DdlSemanticError, match=message) as e:
        commands(sql)
    assert e.value.line == 1 and e.value.column > 0
