"""``mysqlddl parse --dialect oracle`` and ``mysqlddl schema --dialect oracle`` (subprocesses)."""

from __future__ import annotations

import json

from mysqlddl.cli import main

SCRIPT = """REM an Oracle script
CREATE TABLE hr.emp (id NUMBER(6) CONSTRAINT pk_emp PRIMARY KEY, name VARCHAR2(30 CHAR) NOT NULL,
  hired DATE DEFAULT SYSDATE);
COMMENT ON TABLE hr.emp IS 'Employees';
CREATE INDEX ix ON hr.emp (name)
/
"""


def test_parse_dialect_oracle(run_cli, tmp_path):
    p = tmp_path / "a.sql"
    p.write_text(SCRIPT + "CREATE TABLE (;\n")
    r = run_cli("parse", "--dialect", "oracle", p)
    assert r.returncode == 1
    assert "3/4 statements accepted, 1 rejected" in r.stdout
    assert "statement 4: line 7:13" in r.stderr


def test_schema_dialect_oracle(run_cli, tmp_path):
    p = tmp_path / "a.sql"
    p.write_text(SCRIPT)
    r = run_cli("schema", "--dialect", "oracle", p)
    assert r.returncode == 0, r.stderr
    (t,) = json.loads(r.stdout)["tables"]
    assert (t["database"], t["name"], t["comment"]) == ("HR", "EMP", "Employees")
    cols = {c["name"]: c for c in t["columns"]}
    assert cols["ID"]["type"] == "NUMBER(6,0)" and cols["ID"]["family"] == "decimal"
    assert cols["HIRED"]["family"] == "datetime" and cols["HIRED"]["default"]["value"] == "SYSDATE"
    assert [k["kind"] for k in t["keys"]] == ["primary"]


def test_schema_in_process(tmp_path, capsys):
    p = tmp_path / "a.sql"
    p.write_text(SCRIPT)
    assert main(["schema", "--dialect", "oracle", "--format", "sql", str(p)]) == 0
    out = capsys.readouterr().out
    assert '"NAME" VARCHAR2(30 CHAR) NOT NULL' in out and "ENGINE" not in out  # Oracle syntax
