"""SynchDB's Oracle DDL (the must-pass core, issue 8): every statement parses and applies.

``../shared/corpora/oracle/synchdb/statements.jsonl`` holds the statements SynchDB's test suite
runs against Oracle (see its PROVENANCE.md). They are applied in file order to one catalog, so
each CREATE/ALTER/DROP finds the table its test created.
"""

from __future__ import annotations

import json

import pytest

from mysqlddl.ddl.oracle import OracleEngine, split_script
from mysqlddl.model.types import TypeFamily as F

from .conftest import apply


@pytest.fixture(scope="module")
def statements(shared_path):
    path = shared_path / "corpora" / "oracle" / "synchdb" / "statements.jsonl"
    return [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_statement_parses_without_fallback(statements):
    eng = OracleEngine()
    n = 0
    for text in statements:
        for st in split_script(text):
            res = eng.parse(st.text)
            assert res.ok, f"{st.text!r}: {res.errors[0]}"
            n += 1
    assert n == 44  # 43 rows; one holds "CREATE TABLE mytable (...); commit;"
    assert eng.fallbacks == 0


def test_every_statement_applies_in_order(statements):
    cat = None
    seen = {}
    for text in statements:
        cat = apply(text, cat)
        for t in cat.all_tables():
            seen[t.name] = t
    # each test drops what it created; the last row (OLR's DDL event) is never dropped
    assert [t.name for t in cat.all_tables()] == ["TEST_TABLE"]
    assert len(seen) == 19


def test_representative_tables(statements):
    cat = None
    tables = {}
    for text in statements:
        cat = apply(text, cat)
        for t in cat.all_tables():
            tables[t.name] = t
    t = tables["create table test"]  # quoted name with spaces
    assert t.column_names == ("ID", "NAME", "CREATED_AT") and t.primary_key.columns == ("ID",)
    assert tables["CREATE_TABLE_NOINLINEPK"].primary_key.constraint_name == "PK_CREATE_TABLE_TEST"
    assert tables["ALTER_TABLE_ADDPK"].primary_key.constraint_name == "PK_CREATE_TABLE_ADDPK"
    age = tables["ALTER_TABLE_ALTER_COL"].column("AGE")
    assert (age.type_name, age.length, age.scale) == ("NUMBER", 10, 0)
    assert tables["ALTER_TABLE_ADD_COL"].column_names[-1] == "AGE"
    assert "CREATED_AT" not in tables["ALTER_TABLE_DROP_COL"].column_names
    m = tables["MYTABLE"]
    got = {c.name: (c.type_name, c.family) for c in m.columns}
    assert got["BINARY_DOUBLE_COL"] == ("BINARY_DOUBLE", F.FLOAT)
    assert got["INTERVAL_DS_COL"] == ("INTERVAL DAY TO SECOND", F.INTERVAL)
    assert got["TIMESTAMP_TZ_COL"] == ("TIMESTAMP WITH TIME ZONE", F.TIMESTAMP_TZ)
    assert got["TIMESTAMP_LTZ_COL"] == ("TIMESTAMP WITH LOCAL TIME ZONE", F.TIMESTAMP)
    assert got["VARCHAR_COL"] == ("VARCHAR2", F.VARCHAR) and got["NCLOB_COL"] == ("NCLOB", F.TEXT)
    assert got["ROWID_COL"] == ("ROWID", F.VARCHAR) and got["BFILE_COL"] == ("BFILE", F.UNKNOWN)
    assert len(m.columns) == 24
    assert len(tables["TEST_TABLE"].columns) == 24  # the OLR DDL event of the SynchDB docs
