"""setStatement listener: system and user variables become assignments (user variables save and
restore system variables, as mysqldump does); SET TRANSACTION produces nothing."""

from mysqlddl.commands import Assignment, CreateTable, SetVariable
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.model import Catalog
from mysqlddl.options import Options


def test_assignment_forms():
    (cmd,) = parse_ddl("SET @@global.sql_mode = 'ANSI', SESSION foreign_key_checks = 0, @u = 5, "
                       "@@character_set_server = utf8mb4, LOCAL time_zone = '+00:00'")
    assert cmd == SetVariable((Assignment("sql_mode", "'ANSI'", "global"),
                               Assignment("foreign_key_checks", "0", "session"),
                               Assignment("u", "5", "user"),
                               Assignment("character_set_server", "utf8mb4", "session"),
                               Assignment("time_zone", "'+00:00'", "session")))


def test_names_and_character_set():
    (cmd,) = parse_ddl("SET NAMES utf8mb4 COLLATE utf8mb4_bin")
    assert cmd.assignments == (Assignment("names", "utf8mb4", collation="utf8mb4_bin"),)
    (cmd,) = parse_ddl("SET CHARACTER SET 'latin1'")
    assert cmd.assignments == (Assignment("character set", "latin1"),)


def test_user_variables_are_assignments_and_transactions_produce_nothing():
    (cmd,) = parse_ddl("SET @a = 1, @`B c` := @@SQL_MODE, @'q' = CONCAT('a', 'b')")
    assert cmd.assignments == (Assignment("a", "1", "user"), Assignment("b c", "@@SQL_MODE", "user"),
                               Assignment("q", "CONCAT('a', 'b')", "user"))
    assert parse_ddl("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED") == []


def _session(script: str, catalog=None):
    return apply_script(catalog or Catalog.empty(), script).session


def test_user_variables_save_and_restore_system_variables():
    # mysqldump's header and footer (MySQL 8.4 manual 11.4 "User-Defined Variables": names are
    # case-insensitive; assignments in one SET run left to right)
    s = _session("SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0;\n"
                 "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO,ANSI_QUOTES';\n"
                 "SET @OLD_TIME_ZONE=@@TIME_ZONE;\nSET TIME_ZONE='+00:00';\n")
    assert s.foreign_key_checks is False and s.sql_mode == {"NO_AUTO_VALUE_ON_ZERO", "ANSI_QUOTES"}
    assert dict(s.user_variables) == {"old_foreign_key_checks": "1", "old_sql_mode": "", "old_time_zone": None}
    cat = apply_script(Catalog.empty(), "SET FOREIGN_KEY_CHECKS=0, SQL_MODE='ANSI_QUOTES', @x = 5;")
    s = _session("SET foreign_key_checks = @old_foreign_key_checks;\nSET sql_mode = @Old_Sql_Mode;\n"
                 "SET time_zone = @OLD_TIME_ZONE", apply_script(cat, "SET @OLD_FOREIGN_KEY_CHECKS=1, "
                                                                "@OLD_SQL_MODE='STRICT_TRANS_TABLES'"))
    assert s.foreign_key_checks is True and s.sql_mode == {"STRICT_TRANS_TABLES"}
    assert dict(s.variables)["time_zone"] == "NULL"  # an unset @x is NULL; time_zone is not modelled


def test_saved_character_set_client_follows_set_names_and_plain_sets():
    s = _session("SET NAMES utf8mb4;\nSET @a = @@character_set_client;\n"
                 "SET character_set_client = utf8;\nSET @b = @@character_set_client;\n"
                 "SET NAMES latin1;\nSET @c = @@character_set_client;\nSET character_set_client = @a")
    assert dict(s.user_variables) == {"a": "utf8mb4", "b": "utf8", "c": "latin1"}
    assert dict(s.variables)["character_set_client"] == "utf8mb4"


def test_a_modelled_variable_refuses_null_and_unevaluated_expressions():
    import pytest

    from mysqlddl.errors import DdlSemanticError

    # the server: ER_WRONG_VALUE_FOR_VAR "Variable 'sql_mode' can't be set to the value of 'NULL'"
    with pytest.raises(DdlSemanticError, match="'sql_mode' can't be set to the value of 'NULL'"):
        _session("SET sql_mode = @never_set")
    with pytest.raises(DdlSemanticError, match="does not evaluate"):
        _session("SET @m = CONCAT('ANSI', '_QUOTES');\nSET sql_mode = @m")
    # ...which is harmless while no modelled variable is set from it
    s = _session("SET @m = (SELECT 1);\nSET @@session.wait_timeout = @m")
    assert s.variables == (("wait_timeout", "(SELECT 1)"),)


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
