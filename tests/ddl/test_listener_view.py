"""createView / alterView / dropView listeners: views are recorded, not analysed."""

import pytest

from mysqlddl.commands import DropView, TableId
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog

SETUP = "USE db;\nCREATE TABLE t (a INT, b INT);\n"


def test_create_records_definition_columns_and_clauses():
    cat = apply_script(Catalog.empty(), SETUP + "CREATE OR REPLACE ALGORITHM=MERGE DEFINER=`u`@`%` SQL SECURITY "
                                                "INVOKER VIEW v (x, y) AS SELECT a,  b FROM t WHERE a > 1 "
                                                "WITH LOCAL CHECK OPTION;")
    v = cat.view(TableId("db", "v"))
    assert v.definition == "SELECT a,  b FROM t WHERE a > 1"
    assert v.columns == ("x", "y")
    assert dict(v.options) == {"ALGORITHM": "MERGE", "DEFINER": "`u`@`%`", "SQL SECURITY": "INVOKER",
                               "CHECK OPTION": "LOCAL"}
    assert cat.table("db", "v") is None or cat.base_table(TableId("db", "v")) is None


def test_alter_and_drop():
    cat = apply_script(Catalog.empty(), SETUP + "CREATE VIEW v AS SELECT a FROM t;\nALTER VIEW v AS SELECT b FROM t;")
    assert cat.view(TableId("db", "v")).definition == "SELECT b FROM t"
    cat = apply_script(cat, "DROP VIEW IF EXISTS v, nope;")
    assert cat.view(TableId("db", "v")) is None
    with pytest.raises(DdlError):
        apply_script(Catalog.empty(), SETUP + "CREATE VIEW t AS SELECT 1;")


def test_drop_command_shape():
    assert parse_ddl("DROP VIEW d.v1, v2") == [DropView((TableId("d", "v1"), TableId(None, "v2")))]
