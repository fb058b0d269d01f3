"""renameObject -> AlterTable IF EXISTS + RenameTo (SQL Ref. \"RENAME\")."""

from __future__ import annotations

from mysqlddl.commands import AlterTable

from .conftest import apply, commands


def test_rename_statement_renames_a_known_table_and_ignores_other_objects():
    cat = apply("CREATE TABLE t1 (a NUMBER); RENAME t1 TO t2; RENAME my_sequence TO s2")
    assert cat.table("APP", "T1") is None and cat.table("APP", "T2").column_names == ("A",)


def test_rename_is_an_alter_table_if_exists():
    (cmd,) = commands("RENAME a TO b")
    assert isinstance(cmd, AlterTable) and cmd.if_exists and cmd.operations[0].new_table.name == "B"
