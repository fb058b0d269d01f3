"""createIndex listener."""

import pytest

from mysqlddl.commands import CreateIndex, DropIndex
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog, IndexKind
from mysqlddl.options import Options

MYSQL = Options()
SETUP = "USE db;\nCREATE TABLE t (a INT, b VARCHAR(20), g GEOMETRY NOT NULL);\n"


def keys(sql, options=MYSQL):
    return {k.name: k for k in apply_script(Catalog.empty(options), SETUP + sql, options).table("db", "t").keys()}


def test_kinds_parts_and_options():
    k = keys("CREATE UNIQUE INDEX u ON t (a, b(5) DESC) USING HASH COMMENT 'c';\n"
             "CREATE FULLTEXT INDEX f ON t (b);\nCREATE SPATIAL INDEX s ON t (g);\n"
             "CREATE INDEX e ON t ((a * 2)) INVISIBLE ALGORITHM=INPLACE LOCK=NONE;")
    u = k["u"]
    assert (u.kind, u.using, u.comment) == (IndexKind.UNIQUE, "HASH", "c")
    assert [(p.column, p.length, p.descending) for p in u.parts] == [("a", None, False), ("b", 5, True)]
    assert (k["f"].kind, k["s"].kind) == (IndexKind.FULLTEXT, IndexKind.SPATIAL)
    assert (k["e"].parts[0].expression, k["e"].visible) == ("a * 2", False)


def test_duplicate_name_fails_unless_if_not_exists():
    assert "i" in keys("CREATE INDEX i ON t (a);\nCREATE INDEX IF NOT EXISTS i ON t (b);")
    with pytest.raises(DdlError, match="Duplicate key name"):
        keys("CREATE INDEX i ON t (a);\nCREATE INDEX i ON t (b);")


def test_mariadb_or_replace_is_drop_then_create():
    maria = Options(dialect="mariadb")
    cmds = parse_ddl("CREATE OR REPLACE INDEX i ON t (b)", options=maria)
    assert [type(c) for c in cmds] == [DropIndex, CreateIndex] and cmds[0].if_exists
    k = keys("CREATE INDEX i ON t (a);\nCREATE OR REPLACE INDEX i ON t (b);", maria)
    assert k["i"].columns == ("b",)
