"""createDatabase listener."""

import pytest

from mysqlddl.commands import CreateDatabase
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog
from mysqlddl.options import Options


def test_charset_and_collation_are_inherited_by_tables():
    cat = apply_script(Catalog.empty(), "CREATE DATABASE shop DEFAULT CHARACTER SET = latin1 COLLATE latin1_bin;\n"
                                        "CREATE TABLE shop.t (a VARCHAR(3));")
    t = cat.table("shop", "t")
    assert (t.charset, t.collation, t.column("a").collation) == ("latin1", "latin1_bin", "latin1_bin")


def test_if_not_exists_and_duplicate():
    cat = apply_script(Catalog.empty(), "CREATE SCHEMA s;\nCREATE SCHEMA IF NOT EXISTS s CHARSET latin1;")
    assert cat.database("s") is not None
    with pytest.raises(DdlError, match="database exists"):
        apply_script(Catalog.empty(), "CREATE DATABASE s;\nCREATE DATABASE s;")


def test_command_shape():
    (cmd,) = parse_ddl("CREATE OR REPLACE DATABASE `my db` CHARACTER SET 'utf8mb4' COMMENT 'hi'",
                       options=Options(dialect="mariadb"))
    assert cmd == CreateDatabase("my db", charset="utf8mb4", or_replace=True, comment="'hi'")
