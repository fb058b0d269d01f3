"""`mysqlddl parse`: .sql and .jsonl inputs, positioned rejections, summary JSON, exit codes;
called as a function and as a subprocess (STYLE 18)."""

from __future__ import annotations

import json

from mysqlddl.cli import main

SCRIPT = "CREATE TABLE t (a INT);\nALTER TABLE t\n  ADD COLUMN b FOO;\nDROP TABLE t;\n"


def test_sql_script_with_a_rejection(tmp_path, capsys):
    src = tmp_path / "s.sql"
    src.write_text(SCRIPT)
    summary_path = tmp_path / "summary.json"
    rc = main(["parse", "--summary-json", str(summary_path), str(src)])
    out, err = capsys.readouterr()
    assert rc == 1
    assert "2/3 statements accepted, 1 rejected" in out
    # statement index, script line:column, offending token and what was expected
    assert f"{src}: statement 2: line 3:15: unexpected 'FOO', expected identifier" in err
    summary = json.loads(summary_path.read_text())
    assert (summary["total"], summary["accepted"], summary["rejected"]) == (3, 2, 1)
    rej = summary["rejections"][0]
    assert (rej["statement_index"], rej["line"], rej["column"], rej["token"]) == (1, 3, 15, "FOO")
    assert "VARCHAR" in rej["expected"]


def test_jsonl_rows_with_scripts_all_accepted(tmp_path, capsys):
    src = tmp_path / "rows.jsonl"
    src.write_text("\n".join(json.dumps({"sql": s, "label": "x"}) for s in (
        "CREATE TABLE a (x INT); CREATE INDEX i ON a (x)", "RENAME TABLE a TO b", "SET NAMES utf8")) + "\n")
    assert main(["parse", "--dialect", "mysql", str(src)]) == 0
    assert "4/4 statements accepted, 0 rejected" in capsys.readouterr().out


def test_jsonl_rejection_names_the_row(tmp_path, capsys):
    src = tmp_path / "rows.jsonl"
    src.write_text(json.dumps({"sql": "SELECT 1"}) + "\n" + json.dumps({"sql": "DROP TABLE"}) + "\n")
    assert main(["parse", str(src)]) == 1
    assert f"{src}:row 2: statement 1: line 1:10: unexpected end of statement" in capsys.readouterr().err


def test_sql_mode_option_switches_ansi_quotes(tmp_path):
    src = tmp_path / "a.sql"
    src.write_text('CREATE TABLE "t" ("a" INT);')
    assert main(["parse", str(src)]) == 1
    assert main(["parse", "--sql-mode", "ANSI_QUOTES", str(src)]) == 0


def test_parse_as_a_subprocess(tmp_path, run_cli):
    src = tmp_path / "s.sql"
    src.write_text(SCRIPT)
    proc = run_cli("parse", src, timeout=120)
    assert proc.returncode == 1
    assert "statement 2: line 3:15" in proc.stderr
    assert "2/3 statements accepted" in proc.stdout


def test_unreadable_inputs_are_one_line_errors(tmp_path, run_cli, input_error):
    input_error(run_cli("parse", "nonexist.sql"), "mysqlddl parse: nonexist.sql: cannot read: no such file")
    (tmp_path / "somedir").mkdir()
    input_error(run_cli("parse", "somedir/"), "somedir/: cannot read: is a directory")


def test_summary_json_in_a_missing_directory(tmp_path, run_cli, input_error):
    src = tmp_path / "s.sql"
    src.write_text(SCRIPT)
    input_error(run_cli("parse", "--summary-json", "/nonexistent/s.json", src),
                "--summary-json /nonexistent/s.json: cannot write")


def test_jsonl_with_a_bad_line_still_prints_the_summary(tmp_path, run_cli):
    src = tmp_path / "rows.jsonl"
    src.write_text(json.dumps({"sql": "CREATE TABLE a (x INT)"}) + "\nnot json\n"
                   + json.dumps({"nosql": 1}) + "\n" + json.dumps({"sql": "DROP TABLE a"}) + "\n")
    proc = run_cli("parse", "--summary-json", tmp_path / "s.json", src)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == "2/4 statements accepted, 2 rejected\n"
    assert f"{src}:row 2: script: line 1:0: not a JSON object" in proc.stderr
    assert f"{src}:row 3: script: line 1:0: row has no string field \"sql\"" in proc.stderr
    assert json.loads((tmp_path / "s.json").read_text())["rejected"] == 2


def test_scripts_are_read_in_their_encoding(tmp_path, capsys):
    # (#30 item 10: a script that is not UTF-8 was read with its bad bytes replaced; a UTF-16 one
    # was garbage)
    ddl = "CREATE TABLE t (a INT COMMENT 'caf\u00e9');\n"
    (tmp_path / "u16.sql").write_bytes(ddl.encode("utf-16"))
    (tmp_path / "dump.sql").write_bytes(b"/*!40101 SET NAMES latin1 */;\n" + ddl.encode("cp1252"))
    (tmp_path / "plain.sql").write_bytes(ddl.encode("cp1252"))
    assert main(["parse", str(tmp_path / "u16.sql"), str(tmp_path / "dump.sql")]) == 0
    assert main(["parse", str(tmp_path / "plain.sql"), "--encoding", "latin1"]) == 0
    capsys.readouterr()
    assert main(["parse", str(tmp_path / "plain.sql")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'plain.sql'}: script: line 1:34: not UTF-8 text" in err and "--encoding" in err
