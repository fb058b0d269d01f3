"""setStatement listener: system variables become assignments; user variables and SET TRANSACTION
produce nothing."""

from mysqlddl.commands import Assignment, CreateTable, SetVariable
from mysqlddl.ddl.api import apply_script, parse_ddl
from mysqlddl.model import Catalog
from mysqlddl.options import Options


def test_assignment_forms():
    (cmd,) = parse_ddl("SET @@global.sql_mode = 'ANSI', SESSION foreign_key_checks = 0, @u = 5, "
                       "@@character_set_server = utf8mb4, LOCAL time_zone = '+00:00'")
    assert cmd == SetVariable((Assignment("sql_mode", "'ANSI'", "global"),
                               Assignment("foreign_key_checks", "0", "session"),
                               Assignment("character_set_server", "utf8mb4", "session"),
                               Assignment("time_zone", "'+00:00'", "session")))


def test_names_and_character_set():
    (cmd,) = parse_ddl("SET NAMES utf8mb4 COLLATE utf8mb4_bin")
    assert cmd.assignments == (Assignment("names", "utf8mb4", collation="utf8mb4_bin"),)
    (cmd,) = parse_ddl("SET CHARACTER SET 'latin1'")
    assert cmd.assignments == (Assignment("character set", "latin1"),)


def test_nothing_for_user_variables_and_transactions():
    assert parse_ddl("SET @a = 1, @b := 2") == []
    assert parse_ddl("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED") == []


def test_server_charset_applies_to_later_databases():
    cat = apply_script(Catalog.empty(), "SET character_set_server = latin1;\nCREATE TABLE d.t (a TEXT);")
    assert cat.table("d", "t").charset == "latin1"


def test_set_statement_for_builds_the_inner_statement():
    cmds = parse_ddl("SET STATEMENT max_statement_time = 10 FOR CREATE TABLE t (a INT)",
                     options=Options(dialect="mariadb"))
    assert [type(c) for c in cmds] == [CreateTable]


def test_mysqldump_restore_of_saved_sql_mode_restores_the_starting_mode():
    cat = apply_script(Catalog.empty(), "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='ANSI_QUOTES';\n"
                                        "CREATE TABLE d.\"t\" (a INT);\nSET SQL_MODE=@OLD_SQL_MODE;\n"
                                        "CREATE TABLE d.u (a VARCHAR(3) DEFAULT \"x\");")
    assert cat.table("d", "t") is not None
    assert cat.table("d", "u").column("a").default.value == "x"  # "x" is a string again


def test_sql_mode_of_the_catalog_session_carries_over_between_scripts():
    cat = apply_script(Catalog.empty(), "USE d;\nSET sql_mode = 'ANSI_QUOTES';")
    cat = apply_script(cat, 'CREATE TABLE "t" ("a" INT)')
    assert cat.table("d", "t").column_names == ("a",)
