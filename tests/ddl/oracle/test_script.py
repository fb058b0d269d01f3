"""The Oracle splitter (SQL*Plus rules)."""

from __future__ import annotations

from mysqlddl.ddl.oracle import split_script


def texts(script: str) -> list[str]:
    return [s.text for s in split_script(script)]


def test_semicolons_slash_lines_and_positions():
    stmts = list(split_script("CREATE TABLE t (a VARCHAR2(3) DEFAULT ';');\n  ALTER TABLE t ADD b NUMBER\n/\n"))
    assert [s.text for s in stmts] == ["CREATE TABLE t (a VARCHAR2(3) DEFAULT ';')", "ALTER TABLE t ADD b NUMBER"]
    assert [(s.index, s.line, s.column, s.offset) for s in stmts] == [(0, 1, 0, 0), (1, 2, 2, 46)]


def test_plsql_units_end_at_a_slash_line():
    script = ("CREATE OR REPLACE PACKAGE BODY p AS\n PROCEDURE x IS BEGIN NULL; END;\nEND;\n/\n"
              "DECLARE\n  v NUMBER;\nBEGIN\n  v := 1 / 2;\nEND;\n/\nCOMMIT;")
    assert texts(script) == ["CREATE OR REPLACE PACKAGE BODY p AS\n PROCEDURE x IS BEGIN NULL; END;\nEND;",
                             "DECLARE\n  v NUMBER;\nBEGIN\n  v := 1 / 2;\nEND;", "COMMIT"]


def test_quotes_comments_and_sqlplus_commands():
    script = ("REM a comment; not SQL\nSET SERVEROUTPUT ON\nPROMPT creating;\n@other.sql\n"
              "/* ; */ CREATE TABLE \"a;b\" (c VARCHAR2(9) DEFAULT q'[;']');  -- ;\n"
              "SET TRANSACTION READ ONLY;\n")
    assert texts(script) == ["CREATE TABLE \"a;b\" (c VARCHAR2(9) DEFAULT q'[;']')", "SET TRANSACTION READ ONLY"]


def test_last_statement_without_terminator():
    assert texts("COMMIT;\nCREATE TABLE t (a NUMBER)") == ["COMMIT", "CREATE TABLE t (a NUMBER)"]
