"""truncateTable -> TruncateTable (SQL Ref. \"TRUNCATE TABLE\")."""

from __future__ import annotations

from mysqlddl.commands import TruncateTable

from .conftest import apply, commands


def test_truncate_table():
    (cmd,) = commands("TRUNCATE TABLE s.t PRESERVE MATERIALIZED VIEW LOG REUSE STORAGE CASCADE")
    assert isinstance(cmd, TruncateTable) and (cmd.table.database, cmd.table.name) == ("S", "T")
    cat = apply("CREATE TABLE t (a NUMBER); TRUNCATE TABLE t DROP ALL STORAGE")
    assert cat.changed[0].name == "T"
