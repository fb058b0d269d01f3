"""The cheap classifier: which statements may change the schema model (and so need the full
parse in a lenient run). Decided on lexed keyword tokens, honouring versioned comments."""

from __future__ import annotations

import pytest

from mysqlddl.ddl import StatementClass
from mysqlddl.ddl.mysql.classify import classify
from mysqlddl.options import Options

S, OTH, E = StatementClass.SCHEMA, StatementClass.OTHER, StatementClass.EMPTY

CASES = [
    ("CREATE TABLE t (a INT)", S),
    ("create or replace temporary table if not exists t like s", S),
    ("CREATE UNIQUE INDEX i ON t (a)", S),
    ("CREATE DATABASE d", S),
    ("CREATE SCHEMA d", S),
    ("CREATE OR REPLACE ALGORITHM=MERGE DEFINER=`u`@`%` SQL SECURITY INVOKER VIEW v AS SELECT 1", S),
    ("CREATE SEQUENCE s", S),
    ("ALTER ONLINE IGNORE TABLE t ADD c INT", S),
    ("ALTER DATABASE d CHARACTER SET utf8", S),
    ("ALTER DEFINER = CURRENT_USER VIEW v AS SELECT 2", S),
    ("DROP TEMPORARY TABLE IF EXISTS t", S),
    ("DROP INDEX i ON t", S),
    ("DROP VIEW v", S),
    ("RENAME TABLE a TO b", S),
    ("TRUNCATE t", S),
    ("USE db", S),
    ("SET NAMES utf8mb4", S),
    ("SET STATEMENT max_statement_time=1 FOR ALTER TABLE t FORCE", S),
    ("BEGIN NOT ATOMIC CREATE TABLE t (a INT); END", S),
    ("/*!40000 ALTER TABLE `t` DISABLE KEYS */", S),
    ("CREATE DEFINER=`root`@`%` PROCEDURE p() BEGIN CREATE TABLE x (a INT); END", OTH),
    ("CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1", OTH),
    ("CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DROP TABLE t", OTH),
    ("CREATE USER u", OTH),
    ("ALTER USER u ACCOUNT LOCK", OTH),
    ("DROP FUNCTION f", OTH),
    ("DROP PREPARE s", OTH),
    ("RENAME USER a TO b", OTH),
    ("INSERT INTO t VALUES (1)", OTH),
    ("SELECT * FROM `table`", OTH),
    ("GRANT ALL ON TABLE t TO u", OTH),
    ("BEGIN", OTH),
    ("XA START 'x'", OTH),
    ("", E),
    ("  -- just a comment\n/* and another */", E),
]


@pytest.mark.parametrize("sql,expected", CASES)
def test_classification(sql, expected):
    assert classify(sql) is expected


def test_versioned_comment_that_does_not_apply_is_empty():
    sql = "/*!90000 CREATE TABLE t (a INT) */"
    assert classify(sql, Options(server_version=(8, 0, 40))) is E
    assert classify(sql, Options(server_version=(9, 0, 0))) is S


def test_ansi_quotes_does_not_fool_it():
    assert classify('CREATE TABLE "t" (a INT)', Options(sql_mode="ANSI_QUOTES")) is S


def test_lenient_iteration_parses_only_schema_statements():
    from mysqlddl.ddl import Engine, iter_statements
    from mysqlddl.options import ErrorPolicy

    script = "INSERT INTO t VALUES (1,,);\nCREATE TABLE t (a INT);\nSELECT FROM;"
    eng = Engine()
    got = list(iter_statements(script, Options(error_policy=ErrorPolicy.COLLECT), engine=eng, lenient=True))
    assert [(p.skimmed, p.ok) for p in got] == [(True, True), (False, True), (True, True)]
    assert eng.statements == 1
    strict = list(iter_statements(script, Options(error_policy=ErrorPolicy.COLLECT), engine=eng))
    assert [p.ok for p in strict] == [False, True, False]
