"""dropIndex listener."""

import pytest

from mysqlddl.commands import DropIndex, TableId
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog

SETUP = "USE db;\nCREATE TABLE t (a INT PRIMARY KEY, b INT, KEY kb (b));\n"


def test_drop_index_and_primary():
    t = apply_script(Catalog.empty(), SETUP + "DROP INDEX kb ON t;\nDROP INDEX `PRIMARY` ON t;").table("db", "t")
    assert t.keys() == ()


def test_if_exists_and_unknown():
    assert parse_ddl("DROP INDEX IF EXISTS kb ON d.t ALGORITHM=INPLACE") == [DropIndex(TableId("d", "t"), "kb", True)]
    with pytest.raises(DdlError):
        apply_script(Catalog.empty(), SETUP + "DROP INDEX nope ON t;")
