"""`mysqlddl` as a function and as a subprocess (`python -m mysqlddl`)."""

import os

import pytest

from mysqlddl import __version__, cli


def test_version_reports_package_runtime_stamp_and_speedups(capsys):
    from mysqlddl.binlog import speedups

    assert cli.main(["version"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"mysqlddl {__version__}"
    assert out[1] == "antlr4-python3-runtime 4.13.2"
    assert out[2] == "grammar: antlr 4.13.2"
    assert any(line.strip().startswith("mysql/MySqlParser.g4 sha256:") for line in out)
    assert out[-1] == f"speedups: {speedups.IMPLEMENTATION}"


def test_version_subprocess_pure_python_switch(run_cli):
    p = run_cli("version", env={"MYSQLDDL_PUREPYTHON": "1", "MYSQLDDL_REQUIRE_SPEEDUPS": ""})
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "speedups: pure-python"


def test_version_subprocess_compiled_when_built(run_cli):
    if os.environ.get("MYSQLDDL_PUREPYTHON"):
        pytest.skip("this run forces the pure-Python twin")
    p = run_cli("version")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "speedups: compiled"


def test_contradictory_switches_are_a_clear_error(run_cli):
    p = run_cli("version", env={"MYSQLDDL_PUREPYTHON": "1", "MYSQLDDL_REQUIRE_SPEEDUPS": "1"})
    assert p.returncode != 0
    assert "contradict" in p.stderr


def test_unknown_subcommand_is_a_usage_error(run_cli):
    p = run_cli("no-such-command")
    assert p.returncode == 2
    assert "invalid choice" in p.stderr
