"""The shared argument groups and path checks (mysqlddl.cli.args), through the subcommands that
use them, as subprocesses: every path error is one line naming the path and exit 1, every bad value
a usage error (exit 2), every option has a help text and every subcommand lists its exit codes."""

from __future__ import annotations

import re

import pytest

from mysqlddl.cli import main

SUBCOMMANDS = ("version", "events", "schema", "parse", "changes", "history", "olr", "spark", "run", "status")


@pytest.mark.parametrize("sub", ["changes", "history"])
def test_output_in_a_missing_directory(sub, maxwell, run_cli, input_error):
    line = input_error(run_cli(sub, maxwell, "-o", "/nonexistent/x"), "--output /nonexistent/x", "cannot write")
    assert line.startswith(f"mysqlddl {sub}: ")


def test_olr_output_and_history_in_a_missing_directory(olr_crud, run_cli, input_error):
    input_error(run_cli("olr", "--time-unit", "s", olr_crud, "-o", "/nonexistent/x"),
                "--output /nonexistent/x", "cannot write")
    input_error(run_cli("olr", "--time-unit", "s", olr_crud, "--history", "/nonexistent/x"),
                "--history /nonexistent/x", "cannot write")


def test_output_that_is_a_directory(maxwell, tmp_path, run_cli, input_error):
    input_error(run_cli("changes", maxwell, "-o", tmp_path), f"--output {tmp_path}", "is a directory")


def test_missing_schema_file_names_the_option(maxwell, run_cli, input_error):
    input_error(run_cli("changes", maxwell, "--schema", "/nonexistent/s.sql"),
                "--schema /nonexistent/s.sql: cannot read")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--start-position", "abc", "not a binlog position (N or FILE:N): 'abc'"),
    ("--stop-position", "f:x", "not a binlog position"),
    ("--schema-position", "nope", "not a binlog position (N or FILE:N): 'nope'"),
    ("--include-gtids", "garbage", "not a GTID set item: 'garbage'"),
    ("--exclude-gtids", "x:5-1", "empty GTID interval"),
    ("--start-datetime", "yesterday", "not a datetime"),
])
def test_bad_values_are_usage_errors(option, value, message, maxwell, run_cli, usage_error):
    for sub in ("changes", "history"):
        usage_error(run_cli(sub, maxwell, option, value), f"argument {option}: {message}")


def test_events_positions_take_file_n_as_changes_does(maxwell, run_cli, usage_error):
    whole = run_cli("events", maxwell)
    cut = run_cli("events", "--stop-position", f"{maxwell.name}:1000", maxwell)
    assert whole.returncode == cut.returncode == 0, cut.stderr
    assert 0 < len(cut.stdout.splitlines()) < len(whole.stdout.splitlines())
    usage_error(run_cli("events", "--start-position", "abc", maxwell), "argument --start-position")


def test_the_same_binlog_twice_is_named(maxwell, tmp_path, run_cli, input_error):
    # given twice, its DDL came back "before" itself: the schema history's error, prefixed twice
    (tmp_path / "again").symlink_to(maxwell)
    for sub in ("changes", "history", "events"):
        line = input_error(run_cli(sub, maxwell, tmp_path / "again"), "the same binlog file is given twice",
                           "give each file once")
        assert "append-only" not in line


def test_every_option_has_a_help_text(capsys):
    for sub in SUBCOMMANDS:
        with pytest.raises(SystemExit):
            main([sub, "--help"])
        text = capsys.readouterr().out
        options = text[text.index("options:"):text.index("exit codes:")]
        # an option without help is a line of its own followed by the next option (or nothing)
        for block in re.split(r"\n(?=  -)", options)[1:]:
            assert len(block.split()) > 2, (sub, block)


def test_exclude_options_and_ddl_error_modes_are_described(capsys):
    with pytest.raises(SystemExit):
        main(["changes", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--exclude-database DB not these databases", "--exclude-table [DB.]TABLE not these tables",
                   "--exclude-gtids SET not the transactions"):
        assert option in text
    assert "warn leaves it out, prints a warning on stderr" in text and "skip leaves it out silently" in text


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_every_subcommand_lists_its_exit_codes(sub, run_cli):
    proc = run_cli(sub, "--help")
    assert proc.returncode == 0
    codes = proc.stdout[proc.stdout.index("exit codes:"):]
    assert "  0  " in codes and ("  2  usage error" in codes or sub == "version")
