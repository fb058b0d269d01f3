"""dropDatabase listener."""

import pytest

from mysqlddl.commands import DropDatabase
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog


def test_drops_its_tables():
    cat = apply_script(Catalog.empty(), "CREATE DATABASE d;\nCREATE TABLE d.t (a INT);\nCREATE TABLE e.u (a INT);\n"
                                        "DROP DATABASE d;")
    assert [(t.database, t.name) for t in cat.all_tables()] == [("e", "u")]
    assert cat.database("d") is None


def test_if_exists():
    assert parse_ddl("DROP SCHEMA IF EXISTS d") == [DropDatabase("d", if_exists=True)]
    with pytest.raises(DdlError, match="doesn't exist"):
        apply_script(Catalog.empty(), "DROP DATABASE nope;")
