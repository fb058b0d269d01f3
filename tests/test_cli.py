"""`mysqlddl` as a function and as a subprocess (`python -m mysqlddl`)."""

import os
import subprocess
import sys
import tempfile

import pytest

from mysqlddl import __version__, cli


def run(*args, **env):
    """`python -m mysqlddl ...` from a neutral directory: with -m, the current directory comes first on
    sys.path, and the source checkout's bare package (no parser, no extension) must not shadow the
    installed one."""
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-m", "mysqlddl", *args], capture_output=True, text=True, env=e,
                          cwd=tempfile.gettempdir())


def test_version_reports_package_runtime_stamp_and_speedups(capsys):
    from mysqlddl.binlog import speedups

    assert cli.main(["version"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"mysqlddl {__version__}"
    assert out[1] == "antlr4-python3-runtime 4.13.2"
    assert out[2] == "grammar: antlr 4.13.2"
    assert any(line.strip().startswith("mysql/MySqlParser.g4 sha256:") for line in out)
    assert out[-1] == f"speedups: {speedups.IMPLEMENTATION}"


def test_version_subprocess_pure_python_switch():
    p = run("version", MYSQLDDL_PUREPYTHON="1", MYSQLDDL_REQUIRE_SPEEDUPS="")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "speedups: pure-python"


def test_version_subprocess_compiled_when_built():
    if os.environ.get("MYSQLDDL_PUREPYTHON"):
        pytest.skip("this run forces the pure-Python twin")
    p = run("version")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "speedups: compiled"


def test_contradictory_switches_are_a_clear_error():
    p = run("version", MYSQLDDL_PUREPYTHON="1", MYSQLDDL_REQUIRE_SPEEDUPS="1")
    assert p.returncode != 0
    assert "contradict" in p.stderr


def test_unknown_subcommand_is_a_usage_error():
    p = run("no-such-command")
    assert p.returncode == 2
    assert "invalid choice" in p.stderr
