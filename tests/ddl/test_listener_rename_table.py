"""renameTable listener."""

from mysqlddl.commands import RenameTable, TableId
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.model import Catalog


def test_swap_through_a_temporary_name():
    cat = apply_script(Catalog.empty(), "USE db;\nCREATE TABLE a (x INT);\nCREATE TABLE b (y INT);\n"
                                        "RENAME TABLE a TO tmp, b TO a, tmp TO b;")
    assert cat.table("db", "a").column_names == ("y",)
    assert cat.table("db", "b").column_names == ("x",)
    assert cat.table("db", "tmp") is None


def test_move_to_another_database():
    cat = apply_script(Catalog.empty(), "USE db;\nCREATE TABLE a (x INT);\nRENAME TABLE a TO other.a2;")
    assert cat.table("db", "a") is None and cat.table("other", "a2") is not None


def test_rename_if_exists_skips_missing_tables():
    cat = apply_script(Catalog.empty(), "USE db;\nCREATE TABLE a (x INT);\n"
                                        "RENAME TABLE IF EXISTS nope TO n2, a TO b;")
    assert cat.table("db", "b") is not None and cat.table("db", "n2") is None
    assert parse_ddl("RENAME TABLE IF EXISTS a TO b")[0].if_exists


def test_command_shape():
    (cmd,) = parse_ddl("RENAME TABLES d.a TO d.b, c TO `e f`")
    assert cmd == RenameTable(((TableId("d", "a"), TableId("d", "b")), (TableId(None, "c"), TableId(None, "e f"))))
