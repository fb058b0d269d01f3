"""Fixtures for the Spark job and the range splitting it runs on.

- `lab_binlogs`: the lab workload (tools/workload.py, every phase, small scale) run once per
  session on the shared private MariaDB (`mariadb_server`), in databases of its own; its binlog
  files copied to a directory nothing else writes to.
- `cli_changes`: `mysqlddl changes` of those files (the sequential CLI: the oracle), as dicts.
- `spark`: one local SparkSession for the session, `local[2,2]` (two cores; a failed task is
  retried once, so the retry test can fail every first attempt), workers on this interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def lab_binlogs(mariadb_server, tmp_path_factory, tool):
    """(directory of the workload's binlog files, its Truth)."""
    workload = tool("workload")
    truth = workload.run(mariadb_server, scale=0.002, bigtx_rows=500, database="spark_lab",
                         tmp_database="spark_lab_tmp", log=lambda msg: None)
    out = tmp_path_factory.mktemp("spark_lab_binlogs")
    for p in truth.paths:
        shutil.copyfile(p, out / p.name)
    return out, truth


@pytest.fixture(scope="session")
def cli_changes(lab_binlogs, tmp_path_factory):
    """Every event `mysqlddl changes` prints for the lab binlogs (run from a neutral directory, so
    the installed package is the one imported)."""
    d, _ = lab_binlogs
    cwd = tmp_path_factory.mktemp("cli")
    out = cwd / "changes.jsonl"
    proc = subprocess.run([sys.executable, "-m", "mysqlddl", "changes", str(d), "-o", str(out), "--summary", "none"],
                          capture_output=True, text=True, cwd=cwd, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as e:
        msg = f"pyspark/pyarrow not installed ({e}): pip install -e '.[spark]' (tox -e spark)"
        if IN_CI:
            pytest.fail(f"{msg} (CI=true: this must not be skipped)", pytrace=False)
        pytest.skip(msg)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # the commands the tests run keep their JVM's class-data archive here, not in ~/.cache
    os.environ.setdefault("MYSQLDDL_SPARK_CDS", str(tmp_path_factory.mktemp("jvm_cds")))
    from mysqlddl.spark import launcher

    # The JVM, and the Python workers it starts, keep the directory they start in, which comes
    # first on the workers' sys.path: from the checkout, its bare source package (no generated
    # parser, no compiled core) would shadow the installed one. Start them from a neutral one.
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("spark_cwd"))
    try:
        s = launcher.session("local[2,2]", app="mysqlddl-tests")
    finally:
        os.chdir(here)
    yield s
    s.stop()
