"""`mysqlddl schema`: apply DDL scripts in order, print the catalog (as a function and a subprocess)."""

import json
from pathlib import Path

import pytest

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


# ------------------------------------------------- scripts that are not UTF-8 (#30 item 10)

# the head mysqldump writes: the client's charset saved, then SET NAMES (the later one wins, from 5.5.3)
DUMP_HEAD = ("-- MySQL dump 10.13\n/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
             "/*!40101 SET NAMES utf8 */;\n/*!50503 SET NAMES {cs} */;\n")
DDL = "CREATE TABLE t (a INT COMMENT 'caf\u00e9 \u20ac');\n"


def _comment(out: str) -> str:
    (table,) = json.loads(out)["tables"]
    return table["columns"][0]["comment"]


@pytest.mark.parametrize(("data", "extra"), [
    ((DUMP_HEAD.format(cs="latin1") + DDL).encode("cp1252"), []),            # MySQL latin1 is cp1252
    ("\ufeff".encode() + DDL.encode(), []),                                   # a UTF-8 BOM
    (DDL.encode("utf-16"), []),                                               # a UTF-16 BOM (LE)
    (DDL.encode("utf-16-be").join([b"\xfe\xff", b""]), []),                   # a UTF-16 BOM (BE)
    (DDL.encode("cp1252"), ["--encoding", "latin1"]),                         # a MySQL charset name
    (DDL.encode("cp1252"), ["--encoding", "cp1252"]),                         # a Python codec name
], ids=["set-names", "utf8-bom", "utf16le-bom", "utf16be-bom", "charset-option", "codec-option"])
def test_a_script_is_read_as_its_bom_or_set_names_or_option_says(data, extra, tmp_path, capsys):
    f = tmp_path / "dump.sql"
    f.write_bytes(data)
    assert cli.main(["schema", str(f), *extra]) == 0
    assert _comment(capsys.readouterr().out) == "caf\u00e9 \u20ac"


def test_a_script_not_in_its_encoding_is_a_positioned_error(tmp_path, run_cli, input_error):
    f = tmp_path / "latin1.sql"
    f.write_bytes(b"-- x\n" + DDL.encode("cp1252"))
    line = input_error(run_cli("schema", f), f"{f}, line 2:34", "byte 0xe9 at byte offset 39",
                       "not UTF-8", "--encoding")
    assert "UnicodeDecodeError" not in line


def test_changes_schema_encoding(shared_path, tmp_path, run_cli, input_error):
    binlog = shared_path / "binlogs/maxwell/binlog.000004"
    f = tmp_path / "s.sql"
    f.write_bytes(DDL.encode("cp1252"))
    for sub in ("changes", "history"):
        input_error(run_cli(sub, binlog, "--schema", f), f"--schema {f}, line 1:34", "--schema-encoding")
        ok = run_cli(sub, binlog, "--schema", f, "--schema-encoding", "latin1", "--schema-database", "d")
        assert ok.returncode == 0, ok.stderr
    usage = run_cli("changes", binlog, "--schema", f, "--schema-encoding", "klingon")
    assert usage.returncode == 2 and "unknown encoding 'klingon'" in usage.stderr
