"""alterDatabase listener."""

from mysqlddl.commands import AlterDatabase
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.model import Catalog


def test_changes_the_default_for_new_tables_only():
    cat = apply_script(Catalog.empty(), "CREATE DATABASE d CHARSET utf8mb4;\nUSE d;\nCREATE TABLE old (a TEXT);\n"
                                        "ALTER DATABASE CHARACTER SET latin1;\nCREATE TABLE new (a TEXT);")
    assert cat.database("d").charset == "latin1"
    assert cat.table("d", "old").charset == "utf8mb4" and cat.table("d", "new").charset == "latin1"


def test_command_shape():
    assert parse_ddl("ALTER SCHEMA d COLLATE utf8mb4_bin") == [AlterDatabase("d", collation="utf8mb4_bin")]
    assert parse_ddl("ALTER DATABASE d UPGRADE DATA DIRECTORY NAME") == []
