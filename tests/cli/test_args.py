"""The shared argument groups and path checks (mysqlddl.cli.args), through the subcommands that
use them, as subprocesses: every path error is one line naming the path and exit 1, every bad value
a usage error (exit 2), every option has a help text and every subcommand lists its exit codes."""

from __future__ import annotations

import os
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


# ------------------------------------------------------------- an output that is an input (#30 item 1)


@pytest.fixture
def victim(maxwell, tmp_path):
    """A private copy of a binlog, its bytes, and a symlink and a hard link to it."""
    path = tmp_path / "in" / "victim.bin"
    path.parent.mkdir()
    path.write_bytes(maxwell.read_bytes())
    (tmp_path / "sym.bin").symlink_to(path)
    os.link(path, tmp_path / "hard.bin")
    return path, path.read_bytes()


@pytest.mark.parametrize("name", ["in/victim.bin", "sym.bin", "hard.bin"])
@pytest.mark.parametrize("sub", ["changes", "history"])
def test_an_output_that_is_the_input_is_refused(sub, name, victim, tmp_path, run_cli, input_error):
    path, data = victim
    line = input_error(run_cli(sub, path, "-o", tmp_path / name), f"--output {tmp_path / name}",
                       f"is the input {path}")
    assert "give another path" in line
    assert path.read_bytes() == data


def test_an_output_that_is_the_input_is_refused_in_process(victim, tmp_path, capsys):
    path, data = victim
    assert main(["changes", str(path), "-o", str(tmp_path / "hard.bin")]) == 1
    assert "is the input" in capsys.readouterr().err
    assert path.read_bytes() == data


def test_an_output_that_is_the_schema_file_is_refused(victim, tmp_path, run_cli, input_error):
    path, _ = victim
    schema = tmp_path / "s.sql"
    schema.write_text("CREATE TABLE t (a INT);\n")
    input_error(run_cli("changes", path, "--schema", schema, "-o", schema), f"is the input {schema}")
    assert schema.read_text() == "CREATE TABLE t (a INT);\n"
    cnf = tmp_path / "repl.cnf"
    cnf.write_text("[client]\nuser=repl\n")
    input_error(run_cli("changes", "mysql://127.0.0.1:1/?server-id=9", "--defaults-file", cnf, "-o", cnf),
                f"is the input {cnf}")
    assert cnf.read_text() == "[client]\nuser=repl\n"


def test_other_outputs_that_are_inputs_are_refused(olr_crud, tmp_path, run_cli, input_error):
    olr = tmp_path / "olr.json"
    olr.write_bytes(olr_crud.read_bytes())
    data = olr.read_bytes()
    for option in ("-o", "--history"):
        input_error(run_cli("olr", "--time-unit", "s", olr, option, olr), "is the input")
    sql = tmp_path / "a.sql"
    sql.write_text("CREATE TABLE t (a INT);\n")
    input_error(run_cli("parse", sql, "--summary-json", sql), f"--summary-json {sql}", "is the input")
    assert olr.read_bytes() == data and sql.read_text() == "CREATE TABLE t (a INT);\n"


def test_an_output_directory_holding_an_input_is_refused(victim, tmp_path, run_cli, input_error):
    path, data = victim
    for out in (path.parent, tmp_path):
        input_error(run_cli("changes", path, "--format", "debezium", "--topics-dir", out),
                    f"--topics-dir {out}", f"holds the input {path}")
        input_error(run_cli("spark", path, "--out", out), f"--out {out}", f"holds the input {path}")
    assert path.read_bytes() == data


# ---------------------------------------------------------------- refusals that were rc 0 (#30 item 13)


@pytest.mark.parametrize("sub", ["changes", "history", "events"])
def test_a_position_in_a_file_not_among_the_inputs_is_refused(sub, maxwell, run_cli, input_error):
    for option in ("--start-position", "--stop-position"):
        input_error(run_cli(sub, maxwell, option, "other.000001:4"), f"{option} other.000001:4",
                    "not among the inputs", str(maxwell))


@pytest.mark.parametrize("sub", ["changes", "history", "events"])
def test_a_start_position_inside_an_event_is_refused(sub, maxwell, run_cli, input_error):
    # binlog.000004: a QUERY event at 276..502, the next (GTID) at 502
    for value in (f"{maxwell.name}:500", "500"):
        input_error(run_cli(sub, maxwell, "--start-position", value), f"--start-position {value}",
                    "not at an event boundary", "276", "502")
    ok = run_cli(sub, maxwell, "--start-position", f"{maxwell.name}:502")
    assert ok.returncode == 0 and ok.stdout, ok.stderr


def test_reconnect_attempts_below_zero_is_a_usage_error(maxwell, run_cli, usage_error):
    for sub in ("changes", "events"):
        usage_error(run_cli(sub, maxwell, "--reconnect-attempts", "-1"), "argument --reconnect-attempts",
                    "0 or more")


@pytest.mark.parametrize("option", [["--follow"], ["--from-now"], ["--start-gtid", "0-1-5"]])
def test_server_only_options_on_file_inputs_are_refused(option, maxwell, run_cli, input_error):
    for sub in ("changes", "events"):
        proc = run_cli(sub, maxwell, *option)
        input_error(proc, f"{option[0]} needs a server input (mysql://")
        assert not proc.stdout


@pytest.mark.parametrize("option", [["--allow-minimal"], ["--defaults-file", "repl.cnf"],
                                    ["--reconnect-attempts", "5"]])
def test_connection_options_on_file_inputs_are_refused(option, victim, tmp_path, run_cli, input_error):
    # (#30 item 13: these were dropped silently, rc 0; --reconnect-attempts even at its default value)
    path, data = victim
    (tmp_path / "repl.cnf").write_text("[client]\nuser=repl\n")
    for sub in ("changes", "events"):
        proc = run_cli(sub, path, *option)
        input_error(proc, f"{option[0]} needs a server input (mysql://")
        assert not proc.stdout
    assert path.read_bytes() == data


def test_a_full_device_is_named_by_every_command(olr_crud, tmp_path, run_cli, input_error):
    # (#30 item 14: "(no file name): no space left on device")
    for option in ("-o", "--history"):
        input_error(run_cli("olr", "--time-unit", "s", olr_crud, option, "/dev/full"), "/dev/full", "(ENOSPC)")
    sql = tmp_path / "a.sql"
    sql.write_text("CREATE TABLE t (a INT);\n")
    proc = run_cli("parse", sql, "--summary-json", "/dev/full")
    assert proc.returncode == 1 and "--summary-json /dev/full: cannot write" in proc.stderr
    assert "(ENOSPC)" in proc.stderr and "Traceback" not in proc.stderr
