"""The PostgreSQL sink without its extra (psycopg) installed: a typed error saying what to install,
from the pipeline and from the Python API, never a ModuleNotFoundError traceback (issue #30 item 12).
psycopg is made unimportable in a subprocess by a sitecustomize that puts None in its sys.modules
slot (an import of it then fails as an uninstalled package's does)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

INSTALL = "pip install 'mysqlddl[postgresql]'"


@pytest.fixture
def no_psycopg(tmp_path):
    """env entries under which psycopg cannot be imported."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['psycopg'] = None\n")
    return {"PYTHONPATH": str(site)}


def test_a_pipeline_with_a_postgresql_sink_says_which_extra(shared_path, tmp_path, run_cli, no_psycopg):
    binlog = shared_path / "binlogs/maxwell/binlog.000004"
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{binlog}"\n[sink]\nuri = "postgresql://u@127.0.0.1:1/db"\n')
    proc = run_cli("run", p, "--once", env=no_psycopg)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    (line,) = proc.stderr.splitlines()
    assert "psycopg is not installed" in line and INSTALL in line


def test_the_python_api_raises_the_typed_error(tmp_path, no_psycopg):
    code = ("from mysqlddl.errors import ConfigError\n"
            "try:\n    import mysqlddl.sinks.postgresql\n"
            "except ConfigError as e:\n    print(type(e).__name__, isinstance(e, ImportError), e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, **no_psycopg}, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.startswith("ExtraMissingError True ") and INSTALL in proc.stdout
