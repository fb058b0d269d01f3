"""The parse engine: two-stage SLL/LL with fallback counting, every error collected with its
position, lexer/parser reuse, the public parse API and error policies; plus expressions."""

from __future__ import annotations

import warnings

import pytest

from mysqlddl.ddl import Engine, iter_statements, parse_statement
from mysqlddl.errors import DdlSyntaxError, MysqlddlError
from mysqlddl.options import ErrorPolicy, Options


def test_valid_statement_needs_no_ll_fallback():
    eng = Engine()
    for sql in ("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10) DEFAULT 'x')",
                "ALTER TABLE t ADD COLUMN c INT AFTER a, DROP INDEX i",
                "SELECT a FROM t WHERE b IN (1, 2) ORDER BY a"):
        res = eng.parse(sql)
        assert res.ok and not res.fallback
    assert (eng.statements, eng.fallbacks) == (3, 0)


def test_invalid_statement_falls_back_once_and_collects_every_error():
    eng = Engine()
    res = eng.parse("CREATE TABLE t (a INT,, b VARCHAR(10) NOT NOT NULL)")
    assert not res.ok and res.tree is None and res.fallback
    assert eng.fallbacks == 1
    assert len(res.errors) >= 2
    first, second = res.errors[:2]
    assert (first.line, first.column, first.token) == (1, 22, ",")
    assert (second.token, second.column) == ("NOT", 42)


def test_error_carries_offset_statement_expected_and_excerpt():
    sql = "CREATE TABLE t (\n  a INT,\n  b FOO\n)"
    with pytest.raises(DdlSyntaxError) as ei:
        parse_statement(sql)
    err = ei.value
    assert (err.line, err.column, err.offset, err.token) == (3, 4, sql.index("FOO"), "FOO")
    assert err.statement == sql
    assert "INT" in err.expected and "VARCHAR" in err.expected
    assert isinstance(err, MysqlddlError)
    text = str(err)
    assert "line 3:4" in text and "    b FOO".rstrip() in text and text.rstrip().endswith("^")


def test_expected_tokens_fold_identifier_keywords():
    err = Engine().parse("DROP TABLE").errors[0]
    assert err.expected.startswith("identifier")
    assert "ACCOUNT" not in err.expected  # a keyword usable as identifier is part of 'identifier'


def test_engine_is_reused_across_statements_and_options():
    eng = Engine()
    lexer, parser = eng.lexer, eng.parser
    assert eng.parse('SELECT "a"').ok
    assert eng.parse('CREATE TABLE "t" (a INT)', Options(sql_mode="ANSI_QUOTES")).ok
    assert not eng.parse('CREATE TABLE "t" (a INT)').ok
    assert eng.parse("SELECT 1").ok
    assert eng.lexer is lexer and eng.parser is parser


def test_trailing_semicolon_and_empty_statement():
    eng = Engine()
    assert eng.parse("DROP TABLE t;").ok
    assert eng.parse("/* nothing */").ok
    assert not eng.parse("DROP TABLE t;;").ok


def test_iter_statements_positions_and_policies():
    script = "CREATE TABLE a (x INT);\nCREATE TABLE b (y INT,);\nDROP TABLE a;"
    with pytest.raises(DdlSyntaxError) as ei:
        list(iter_statements(script))
    assert ei.value.statement_index == 1 and ei.value.line == 1
    got = list(iter_statements(script, Options(error_policy=ErrorPolicy.COLLECT)))
    assert [p.ok for p in got] == [True, False, True]
    assert [p.statement.line for p in got] == [1, 2, 3]
    assert [p.statement.index for p in iter_statements(script, Options(error_policy=ErrorPolicy.SKIP))] == [0, 2]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert len(list(iter_statements(script, Options(error_policy=ErrorPolicy.WARN)))) == 3
    assert len(w) == 1 and "statement 2" in str(w[0].message)


EXPRESSIONS = [
    "a + b * c - d / e DIV 2 MOD 3 % 4",
    "a << 2 | b & c ^ d >> 1",
    "NOT a AND b OR c XOR d && e || f",
    "a IS NOT NULL AND b IS TRUE AND c IS NOT UNKNOWN",
    "a BETWEEN 1 AND 10 AND b NOT IN (1, 2, 3) AND c IN (SELECT x FROM t)",
    "a LIKE 'x%' ESCAPE '!' AND b NOT REGEXP '^a' AND c RLIKE 'z' AND d SOUNDS LIKE 'e'",
    "a <=> b AND a <> b AND a != b AND a >= ALL (SELECT 1) AND a < ANY (SELECT 2)",
    "CASE WHEN a > 0 THEN 'p' WHEN a < 0 THEN 'n' ELSE 'z' END",
    "CASE a WHEN 1 THEN 'one' END",
    "CAST(a AS UNSIGNED) + CAST(b AS CHAR(10) CHARACTER SET utf8mb4) + CAST(c AS DECIMAL(10, 2))",
    "CONVERT(a, SIGNED INTEGER) + CONVERT(b USING utf8mb4)",
    "EXTRACT(YEAR FROM d) + DATE_ADD(d, INTERVAL 1 DAY) + d - INTERVAL '1:30' HOUR_MINUTE",
    "SUBSTRING(s FROM 2 FOR 3) || SUBSTRING(s, 2) || TRIM(LEADING 'x' FROM s) || TRIM(s) || POSITION('a' IN s)",
    "COUNT(*) + COUNT(DISTINCT a) + SUM(b) OVER w + GROUP_CONCAT(DISTINCT c ORDER BY c SEPARATOR ';')",
    "j->'$.a' = j->>'$.b' AND 3 MEMBER OF (j)",
    "MATCH (a, b) AGAINST ('x' IN BOOLEAN MODE)",
    "EXISTS (SELECT 1) AND ROW(1, 2) = (1, 2) AND (SELECT 1) = 1",
    "_utf8mb4'x' COLLATE utf8mb4_bin = N'y' AND BINARY a = b AND -a = ~b AND !c",
    "@v + @@session.sql_mode + ? + DATE '2020-01-01' + TIMESTAMP '2020-01-01 00:00:00' + \\N",
    "NEXT VALUE FOR s + PREVIOUS VALUE FOR db.s + IF(a, b, c) + LEFT(s, 1) + REPLACE(s, 'a', 'b')",
    "DEFAULT(a) + VALUES(b) + CURRENT_TIMESTAMP + CURRENT_USER() + db.f(1) + CHAR(65 USING utf8mb4)",
    "JSON_VALUE(j, '$.a' RETURNING DECIMAL(4, 2) NULL ON EMPTY) + WEIGHT_STRING('ab' AS CHAR(4))",
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_full_expressions(expr):
    assert Engine().parse(f"SELECT {expr}").ok
    # the same expression inside DDL: a generated column and a CHECK constraint
    assert Engine().parse(f"CREATE TABLE t (g INT AS ({expr}), CHECK ({expr}))").ok


@pytest.mark.parametrize("expr", ["a +", "(a", "CASE a END", "a BETWEEN 1", "CAST(a AS)", "a IN ()", "1 2"])
def test_invalid_expressions_are_rejected(expr):
    res = Engine().parse(f"SELECT {expr}")
    assert not res.ok and res.errors[0].line == 1
