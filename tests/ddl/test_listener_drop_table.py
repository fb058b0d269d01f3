"""dropTable listener."""

import pytest

from mysqlddl.commands import DropTable, TableId
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog

SETUP = "USE db;\nCREATE TABLE a (x INT);\nCREATE TABLE b (x INT);\nCREATE TABLE c (x INT);\n"


def test_several_tables_and_if_exists():
    cat = apply_script(Catalog.empty(), SETUP + "DROP TABLE IF EXISTS a, nope, b CASCADE;")
    assert [t.name for t in cat.all_tables()] == ["c"]


def test_unknown_table_without_if_exists_fails_and_drops_nothing():
    with pytest.raises(DdlError, match="Unknown table") as ei:
        apply_script(Catalog.empty(), SETUP + "DROP TABLE a, nope;")
    assert ei.value.statement_index == 4


def test_temporary_shadows_base_table():
    cat = apply_script(Catalog.empty(), SETUP + "CREATE TEMPORARY TABLE a (t INT);\nDROP TEMPORARY TABLE a;")
    assert cat.table("db", "a").column_names == ("x",)


def test_command_shape():
    (cmd,) = parse_ddl("DROP TEMPORARY TABLES IF EXISTS d1.t1, `t 2`")
    assert cmd == DropTable((TableId("d1", "t1"), TableId(None, "t 2")), if_exists=True, temporary=True)
