"""`mysqlddl schema`: apply DDL scripts in order, print the catalog (as a function and a subprocess)."""

import json
from pathlib import Path

from mysqlddl import cli

SHOP = Path(__file__).parent.parent / "data" / "shop.sql"


def test_shop_json(capsys):
    assert cli.main(["schema", str(SHOP)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(t["database"], t["name"]) for t in doc["tables"]] == [("test", "customers"), ("test", "orders")]
    cust = doc["tables"][0]
    assert [c["name"] for c in cust["columns"]] == ["id", "name", "email"]
    assert [c["nullable"] for c in cust["columns"]] == [False, False, True]
    assert cust["columns"][1]["type"] == "varchar(100)"


def test_json_is_deterministic(capsys):
    cli.main(["schema", str(SHOP)])
    first = capsys.readouterr().out
    cli.main(["schema", str(SHOP)])
    assert capsys.readouterr().out == first
    assert first.index('"charset"') < first.index('"columns"')  # sorted keys


def test_sql_format_and_several_files_in_order(tmp_path, capsys):
    more = tmp_path / "more.sql"
    more.write_text("ALTER TABLE orders ADD COLUMN total DECIMAL(8,2) NOT NULL AFTER customer_id;\n"
                    "DROP TABLE customers;\n")
    assert cli.main(["schema", "--format", "sql", str(SHOP), str(more)]) == 0
    out = capsys.readouterr().out
    assert "CREATE TABLE `customers`" not in out
    assert "`customer_id` int NOT NULL,\n  `total` decimal(8,2) NOT NULL," in out


def test_dialect_and_database_options(tmp_path, capsys):
    f = tmp_path / "a.sql"
    f.write_text("CREATE TABLE t (j JSON, n INT);\n")
    assert cli.main(["schema", "--dialect", "mariadb", "--database", "shop", str(f)]) == 0
    (t,) = json.loads(capsys.readouterr().out)["tables"]
    assert t["database"] == "shop"
    assert t["columns"][0]["type"] == "longtext"          # MariaDB JSON is LONGTEXT
    assert t["columns"][1]["type"] == "int(11)"           # MariaDB keeps display widths


def test_syntax_error_is_positioned_exit_1(tmp_path, capsys):
    f = tmp_path / "bad.sql"
    f.write_text("CREATE TABLE a (id INT);\nCREATE TABLE b (\n  x INT,,\n  y INT);\n")
    assert cli.main(["schema", str(f)]) == 1
    err = capsys.readouterr().err
    # the line is the file's (issue #19: as `parse` counts), the caret still under the token
    assert f"{f}, statement 2, line 3:8: unexpected ','" in err
    assert "      x INT,,\n            ^" in err
    assert "^" in err


def test_semantic_error_is_positioned_exit_1(tmp_path, capsys):
    f = tmp_path / "bad.sql"
    f.write_text("CREATE TABLE a (id INT);\nALTER TABLE nope ADD x INT;\n")
    assert cli.main(["schema", str(f)]) == 1
    err = capsys.readouterr().err
    assert "statement 2" in err and "nope" in err and "doesn't exist" in err


def test_missing_file_exit_1(tmp_path, capsys):
    assert cli.main(["schema", str(tmp_path / "none.sql")]) == 1
    assert "none.sql" in capsys.readouterr().err


def test_subprocess_shop(run_cli):
    p = run_cli("schema", SHOP)
    assert p.returncode == 0, p.stderr
    assert [t["name"] for t in json.loads(p.stdout)["tables"]] == ["customers", "orders"]


def test_subprocess_error_exit_code(tmp_path, run_cli):
    f = tmp_path / "bad.sql"
    f.write_text("CREATE TABLE t (a INT NOT NULL DEFAULT NULL);\n")
    p = run_cli("schema", f)
    assert p.returncode == 1
    assert "Invalid default value for 'a'" in p.stderr and p.stdout == ""


def test_subprocess_errors_count_file_lines(tmp_path, run_cli):
    # the third statement starts on line 4: its error on its own second line is the file's line 5,
    # as `parse` reports it
    f = tmp_path / "s.sql"
    f.write_text("CREATE TABLE a (id INT);\n\n\nCREATE TABLE b (id INT,\n  x FOOBAR);\n")
    p = run_cli("schema", f)
    assert p.returncode == 1
    assert f"mysqlddl schema: {f}, statement 2, line 5:4: unexpected 'FOOBAR'" in p.stderr
    assert "  x FOOBAR)\n        ^" in p.stderr
    parsed = run_cli("parse", f)
    assert f"{f}: statement 2: line 5:4: unexpected 'FOOBAR'" in parsed.stderr
    g = tmp_path / "t.sql"
    g.write_text("CREATE TABLE a (id INT);\n\n  ALTER TABLE zz ADD COLUMN q INT;\n")
    p = run_cli("schema", g)
    assert p.returncode == 1 and f"{g}, statement 2, line 3:2: Table 'test.zz' doesn't exist" in p.stderr


def test_subprocess_unreadable_paths_are_one_line(tmp_path, run_cli, input_error):
    input_error(run_cli("schema", tmp_path / "none.sql"), "none.sql: cannot read: no such file")
    input_error(run_cli("schema", tmp_path), f"{tmp_path}: cannot read: is a directory")
