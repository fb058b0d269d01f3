"""dropTable -> DropTable (SQL Ref. \"DROP TABLE\")."""

from __future__ import annotations

import pytest

from mysqlddl.commands import DropTable
from mysqlddl.errors import DdlSemanticError

from .conftest import apply, commands


def test_drop_table_forms():
    for sql in ("DROP TABLE t", "DROP TABLE app.t CASCADE CONSTRAINTS PURGE",
                'DROP TABLE t CASCADE CONSTRAINTS AS "BIN$yv+1ra/roTjgUwEBAH+ByQ==$0"'):
        (cmd,) = commands(sql)
        assert isinstance(cmd, DropTable) and cmd.tables[0].name == "T" and not cmd.if_exists
    (cmd,) = commands("DROP TABLE IF EXISTS t")
    assert cmd.if_exists
    cat = apply("CREATE TABLE t (a NUMBER); DROP TABLE t PURGE")
    assert cat.table("APP", "T") is None


def test_drop_unknown_table_is_an_error():
    with pytest.raises(DdlSemanticError):
        apply("DROP TABLE nope")


PARENT_CHILD = """CREATE TABLE p (id NUMBER PRIMARY KEY, u NUMBER UNIQUE);
CREATE TABLE c (a NUMBER CONSTRAINT c_p REFERENCES p, b NUMBER CONSTRAINT c_pu REFERENCES p (u),
                s NUMBER PRIMARY KEY, me NUMBER CONSTRAINT c_self REFERENCES c);
CREATE TABLE other.d (a NUMBER CONSTRAINT d_p REFERENCES app.p)
"""


def test_cascade_constraints_drops_the_foreign_keys_that_refer_to_the_table():
    (cmd,) = commands("DROP TABLE p CASCADE CONSTRAINTS")
    assert cmd.cascade_constraints
    cat = apply(PARENT_CHILD + ";\nDROP TABLE p CASCADE CONSTRAINTS PURGE")
    assert cat.table("APP", "P") is None
    assert [f.name for f in cat.table("APP", "C").foreign_keys] == ["C_SELF"]  # the self-reference stays
    assert cat.table("OTHER", "D").foreign_keys == ()
    assert {str(t) for t in cat.changed} == {"APP.P", "APP.C", "OTHER.D"}  # the children got new versions


def test_dropping_a_referenced_table_without_cascade_is_ora_02449():
    # SQL Ref. "DROP TABLE": without CASCADE CONSTRAINTS Oracle refuses to drop a table whose
    # primary or unique keys other tables' foreign keys refer to; the model raises, so the error
    # policy decides (strict: the run stops; skip/warn: the statement is skipped and counted)
    with pytest.raises(DdlSemanticError, match="ORA-02449.*APP.C.C_P"):
        apply(PARENT_CHILD + ";\nDROP TABLE p")
    from mysqlddl.ddl import run_script
    from mysqlddl.options import Options

    lenient = Options(dialect="oracle", error_policy="skip")
    res = run_script(apply(PARENT_CHILD), "DROP TABLE p", lenient)
    assert len(res.errors) == 1 and res.catalog.table("APP", "P") is not None
    assert len(res.catalog.table("APP", "C").foreign_keys) == 3
    # a table referenced only by itself drops without CASCADE CONSTRAINTS
    assert apply("DROP TABLE c", apply(PARENT_CHILD)).table("APP", "C") is None
