"""useStatement listener."""

from mysqlddl.commands import UseDatabase
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.model import Catalog


def test_use_sets_the_default_database_for_unqualified_names():
    cat = apply_script(Catalog.empty(), "USE a;\nCREATE TABLE t (x INT);\nUSE `b b`;\nCREATE TABLE t (y INT);")
    assert cat.table("a", "t").column_names == ("x",)
    assert cat.table("b b", "t").column_names == ("y",)
    assert parse_ddl("USE `x``y`") == [UseDatabase("x`y")]
