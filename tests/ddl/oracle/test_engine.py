"""The Oracle engine: positioned syntax errors, strictness, the two-stage prediction, and the
dialect dispatch of the public API."""

from __future__ import annotations

import pytest

import mysqlddl
from mysqlddl.ddl import check_inputs, default_engine, run_script
from mysqlddl.ddl.oracle import OracleEngine
from mysqlddl.errors import DdlSyntaxError
from mysqlddl.options import ErrorPolicy, Options

from .conftest import ORACLE, apply


def test_syntax_error_is_positioned_in_its_statement():
    with pytest.raises(DdlSyntaxError) as e:
        mysqlddl.parse_ddl("CREATE TABLE a (x NUMBER);\nCREATE TABLE b (\n  y NUMBER,\n)", dialect="oracle")
    err = e.value
    assert (err.line, err.column, err.token) == (3, 0, ")")
    assert err.statement_index == 1 and err.statement.startswith("CREATE TABLE b")
    assert "identifier" in err.expected


def test_unknown_statements_are_errors_not_skipped():
    with pytest.raises(DdlSyntaxError) as e:
        mysqlddl.parse_ddl("FROBNICATE TABLE t", dialect="oracle")
    assert e.value.column == 0


def test_a_schema_qualified_name_is_never_split_to_accept_bad_input():
    eng = OracleEngine()
    for sql in ("CREATE TABLE a.b (x NUMBER,)", "ALTER TABLE a.b ADD (x NUMBER,)"):
        assert not eng.parse(sql).ok, sql


def test_collect_policy_keeps_going():
    res = run_script(apply(""), "CREATE TABLE a (x NUMBER); CREATE TABLE (; CREATE TABLE b (y DATE)",
                     ORACLE.replace(error_policy=ErrorPolicy.COLLECT))
    assert len(res.errors) == 1 and res.errors[0].statement_index == 1
    assert {t.name for t in res.catalog.all_tables()} == {"A", "B"}


def test_default_engine_per_dialect():
    assert isinstance(default_engine(ORACLE), OracleEngine)
    assert not isinstance(default_engine(Options()), OracleEngine)


def test_valid_statements_need_no_fallback():
    eng = OracleEngine()
    for sql in ("CREATE TABLE s.t (a NUMBER(10) CONSTRAINT pk PRIMARY KEY, b VARCHAR2(10 CHAR) DEFAULT 'x' NOT NULL)",
                "ALTER TABLE t MODIFY (a NUMBER(5) NOT NULL) ", "ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0) ENABLE",
                "COMMENT ON COLUMN t.a IS 'x'", "DROP TABLE t CASCADE CONSTRAINTS", "CREATE INDEX i ON t (a)"):
        assert eng.parse(sql).ok
    assert eng.fallbacks == 0


def test_check_inputs_uses_the_oracle_splitter(tmp_path):
    p = tmp_path / "x.sql"
    p.write_text("REM setup\nCREATE TABLE t (a NUMBER)\n/\nBEGIN\n  NULL;\nEND;\n/\nCREATE TABLE (;\n")
    s = check_inputs([p], ORACLE)
    assert (s["total"], s["accepted"], s["rejected"]) == (3, 2, 1)
    assert s["rejections"][0]["line"] == 8
