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
