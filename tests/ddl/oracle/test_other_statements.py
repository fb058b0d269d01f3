"""Statements that are recognised and produce no commands, the classifier, and data-type
errors found when a statement is applied."""

from __future__ import annotations

import pytest

from mysqlddl.errors import DdlSemanticError

from .conftest import apply, commands


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
    from mysqlddl.ddl import StatementClass, iter_statements
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
