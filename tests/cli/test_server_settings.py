"""`--server-version` and `--set VAR=VALUE` (schema, history, changes): the server the DDL ran on as
the schema model's input (issue #23, "Server settings as inputs")."""

from __future__ import annotations

import argparse

import pytest

from mysqlddl import cli
from mysqlddl.cli import args as common
from mysqlddl.options import Options

DDL = "CREATE TABLE t (ts TIMESTAMP, r REAL, a INT);\n"


def schema_sql(tmp_path, capsys, *extra: str) -> str:
    f = tmp_path / "a.sql"
    f.write_text(DDL)
    assert cli.main(["schema", "--format", "sql", *extra, str(f)]) == 0
    return capsys.readouterr().out


def test_defaults_follow_the_server_version(tmp_path, capsys):
    out = schema_sql(tmp_path, capsys)  # MySQL 8.0.40: explicit defaults ON, utf8mb4, no widths
    assert "`ts` timestamp NULL DEFAULT NULL" in out and "CHARSET=utf8mb4" in out and "`a` int " in out
    out = schema_sql(tmp_path, capsys, "--server-version", "5.7.44")
    assert "`ts` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP" in out
    assert "CHARSET=latin1" in out and "`a` int(11) " in out
    out = schema_sql(tmp_path, capsys, "--dialect", "mariadb", "--server-version", "10.6.21")
    assert "`ts` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp()" in out


def test_each_setting(tmp_path, capsys):
    out = schema_sql(tmp_path, capsys, "--set", "explicit_defaults_for_timestamp=OFF",
                     "--set", "sql_mode=REAL_AS_FLOAT,STRICT_TRANS_TABLES", "--set", "default_storage_engine=MyISAM",
                     "--set", "character_set_server=latin2")
    assert "`ts` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP" in out
    assert "`r` float" in out and "ENGINE=MyISAM" in out and "CHARSET=latin2" in out
    out = schema_sql(tmp_path, capsys, "--set", "collation_server=utf8mb4_unicode_ci")
    assert "COLLATE=utf8mb4_unicode_ci" in out


def test_lower_case_table_names(tmp_path, capsys):
    f = tmp_path / "a.sql"
    f.write_text("CREATE TABLE Mixed (a INT);\n")
    assert cli.main(["schema", "--set", "lower_case_table_names=1", str(f)]) == 0
    assert '"name": "mixed"' in capsys.readouterr().out
    assert cli.main(["schema", str(f)]) == 0
    assert '"name": "Mixed"' in capsys.readouterr().out


@pytest.mark.parametrize("argv, needle", [
    (["--set", "no_such_variable=1"], "variables: character_set_server, collation_server"),
    (["--set", "sql_mode"], "not VAR=VALUE"),
    (["--set", "sql_mode=ANSI,NOPE"], "unknown: NOPE"),
    (["--set", "explicit_defaults_for_timestamp=maybe"], "ON or OFF"),
    (["--set", "character_set_server=klingon"], "a character set (armscii8"),
    (["--set", "collation_server=nope_ci"], "a collation"),
    (["--set", "lower_case_table_names=3"], "0, 1 or 2"),
    (["--set", "default_storage_engine=In no DB"], "an engine name"),
    (["--server-version", "eight"], "not a server version"),
])
def test_bad_values_are_usage_errors(tmp_path, capsys, argv, needle):
    f = tmp_path / "a.sql"
    f.write_text(DDL)
    with pytest.raises(SystemExit) as e:
        cli.main(["schema", *argv, str(f)])
    assert e.value.code == 2
    assert needle in capsys.readouterr().err


def test_history_and_changes_take_them():
    for sub in ("history", "changes"):
        parser = argparse.ArgumentParser()
        sps = parser.add_subparsers(dest="cmd")
        sp = sps.add_parser(sub)
        common.add_baseline(sp)
        args = parser.parse_args([sub, "--server-version", "10.6.1", "--set", "storage_engine=Aria",
                                  "--set", "@@session.sql_mode=ANSI_QUOTES"])
        opts = common.baseline_options(args)
        assert opts.server_version == (10, 6, 1)
        assert opts.default_storage_engine == "Aria" and opts.ansi_quotes
        assert opts.json_as == "text"  # the change options stay


def test_server_options_last_set_wins():
    ns = argparse.Namespace(settings=[("sql_mode", frozenset({"ANSI"})), ("sql_mode", frozenset())],
                            server_version=None)
    assert common.server_options(ns, Options()).sql_mode == frozenset()


@pytest.mark.parametrize("sub", ["schema", "history", "changes"])
def test_listed_under_help(capsys, sub):
    with pytest.raises(SystemExit) as e:
        cli.main([sub, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--server-version X.Y.Z" in out and "--set VAR=VALUE" in out


@pytest.mark.parametrize("sub", ["changes", "history", "spark"])
def test_binlog_commands_help_names_no_option_they_lack(capsys, sub):
    # (#30: `changes --help` said "10.11 with --dialect mariadb", an option changes rejects: a
    # binlog's dialect and version are its FORMAT_DESCRIPTION event's)
    with pytest.raises(SystemExit):
        cli.main([sub, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--dialect" not in out and "FORMAT_DESCRIPTION" in out
    with pytest.raises(SystemExit) as e:
        cli.main([sub, "x.bin", "--dialect", "mariadb"])
    assert e.value.code == 2
