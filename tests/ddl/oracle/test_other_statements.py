"""dropTable, truncateTable, commentOn, and the statements that are recognised and skipped."""

from __future__ import annotations

import pytest

from mysqlddl.commands import CommentOn, DropTable, TruncateTable
from mysqlddl.errors import DdlSemanticError

from .conftest import apply, commands, table


def test_drop_table_forms():
    for sql in ("DROP TABLE t", "DROP TABLE app.t CASCADE CONSTRAINTS PURGE",
                'DROP TABLE t CASCADE CONSTRAINTS AS "BIN$yv+1ra/roTjgUwEBAH+ByQ==$0"'):
        (cmd,) = commands(sql)
        assert isinstance(cmd, DropTable) and cmd.tables[0].name == "T" and not cmd.if_exists
    (cmd,) = commands("DROP TABLE IF EXISTS t")
    assert cmd.if_exists
    cat = apply("CREATE TABLE t (a NUMBER); DROP TABLE t PURGE")
    assert cat.table("APP", "T") is None


def test_drop_unknown_table_is_an_error():
    with pytest.raises(DdlSemanticError):
        apply("DROP TABLE nope")


def test_truncate_table():
    (cmd,) = commands("TRUNCATE TABLE s.t PRESERVE MATERIALIZED VIEW LOG REUSE STORAGE CASCADE")
    assert isinstance(cmd, TruncateTable) and (cmd.table.database, cmd.table.name) == ("S", "T")
    cat = apply("CREATE TABLE t (a NUMBER); TRUNCATE TABLE t DROP ALL STORAGE")
    assert cat.changed[0].name == "T"


def test_comment_on_table_and_column():
    t = table("""CREATE TABLE t (a NUMBER, "b c" NUMBER);
        COMMENT ON TABLE t IS 'It''s a table';
        COMMENT ON COLUMN t.a IS q'[A's]';
        COMMENT ON COLUMN app.t."b c" IS 'spaces'""", "T")
    assert t.comment == "It's a table"
    assert t.column("A").comment == "A's" and t.column("b c").comment == "spaces"
    t = table("CREATE TABLE t (a NUMBER); COMMENT ON TABLE t IS 'x'; COMMENT ON TABLE t IS ''", "T")
    assert t.comment is None
    (cmd,) = commands("COMMENT ON COLUMN s.t.c IS 'x'")
    assert cmd == CommentOn(cmd.table, "C", "x") and cmd.table.database == "S"


@pytest.mark.parametrize("sql", [
    "CREATE INDEX ix ON t (a)", "CREATE UNIQUE INDEX s.ix ON t (a, b) TABLESPACE x",
    "DROP INDEX ix", "ALTER INDEX ix REBUILD", "CREATE SEQUENCE s START WITH 1",
    "CREATE OR REPLACE VIEW v AS SELECT * FROM t", "DROP VIEW v", "GRANT SELECT ON t TO u",
    "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "DELETE FROM t", "COMMIT", "ROLLBACK",
    "BEGIN NULL; END;", "DECLARE x NUMBER; BEGIN x := 1; END;", "SELECT * FROM dual",
    "COMMENT ON MATERIALIZED VIEW mv IS 'x'", "TRUNCATE CLUSTER c",
    "CREATE OR REPLACE PROCEDURE p IS BEGIN NULL; END;", "ANALYZE TABLE t COMPUTE STATISTICS",
    "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY'", "PURGE RECYCLEBIN", "LOCK TABLE t IN EXCLUSIVE MODE",
    "CREATE SYNONYM s FOR t", "FLASHBACK TABLE t TO BEFORE DROP",
])
def test_other_statements_are_recognised_and_produce_nothing(sql):
    assert commands(sql) == []


def test_classifier_and_lenient_runs():
    from mysqlddl.ddl import iter_statements
    from mysqlddl.ddl.classify import StatementClass
    from mysqlddl.ddl.oracle.classify import classify

    from .conftest import ORACLE

    assert classify("/* c */ create global temporary table t (a number)") is StatementClass.SCHEMA
    assert classify("COMMENT ON COLUMN t.a IS 'x'", ORACLE) is StatementClass.SCHEMA
    assert classify("CREATE INDEX i ON t (a)") is StatementClass.OTHER
    assert classify("-- nothing") is StatementClass.EMPTY
    got = [(p.statement.text.split()[0], p.skimmed) for p in
           iter_statements("CREATE TABLE t (a NUMBER); GRANT SELECT ON t TO u; DROP TABLE t", ORACLE, lenient=True)]
    assert got == [("CREATE", False), ("GRANT", True), ("DROP", False)]


def test_varchar2_needs_a_length():
    with pytest.raises(DdlSemanticError, match="VARCHAR2 needs a length"):
        apply("CREATE TABLE t (a VARCHAR2)")


def test_rename_statement_renames_a_known_table_and_ignores_other_objects():
    cat = apply("CREATE TABLE t1 (a NUMBER); RENAME t1 TO t2; RENAME my_sequence TO s2")
    assert cat.table("APP", "T1") is None and cat.table("APP", "T2").column_names == ("A",)
