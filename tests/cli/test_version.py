"""`mysqlddl` as a function and as a subprocess (`python -m mysqlddl`)."""

import os
import subprocess
import sys

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


def test_dash_dash_version_prints_the_version_report(run_cli):
    p = run_cli("--version")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == f"mysqlddl {__version__}"
    assert p.stdout.splitlines()[-1].startswith("speedups: ")
    assert p.stdout == run_cli("version").stdout


def test_help_describes_the_tool_in_a_whole_sentence(run_cli):
    p = run_cli("--help")
    assert p.returncode == 0
    description = " ".join(p.stdout.split("\n\n")[1].split())
    assert description.startswith("Parse MySQL, MariaDB and Oracle DDL") and description.endswith(".")
    assert "exit codes:" in p.stdout
    for sub in ("version", "events", "schema", "parse", "changes", "history", "olr", "spark"):
        assert f"\n    {sub} " in p.stdout


def test_importing_the_cli_loads_no_spark(tmp_path):
    # `mysqlddl --help` (and every subcommand but spark's run) must not pay for pyspark/pyarrow
    code = ("import sys, contextlib, io\nfrom mysqlddl.cli import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['spark', '--help'])\n"
            "print(sorted(m for m in ('pyspark', 'pyarrow', 'pandas') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"
