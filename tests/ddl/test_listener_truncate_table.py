"""truncateTable listener: no schema change, recorded."""

import pytest

from mysqlddl.commands import TableId, TruncateTable
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog


def test_truncate_keeps_the_table_and_marks_it_changed():
    cat = apply_script(Catalog.empty(), "USE db;\nCREATE TABLE a (x INT);\nTRUNCATE TABLE a;")
    assert cat.table("db", "a").column_names == ("x",)
    assert [t.name for t in cat.changed] == ["a"]


def test_command_shape_and_unknown_table():
    assert parse_ddl("TRUNCATE db.a") == [TruncateTable(TableId("db", "a"))]
    with pytest.raises(DdlError, match="doesn't exist"):
        apply_script(Catalog.empty(), "USE db;\nTRUNCATE TABLE nope;")
