"""Fixtures shared by every test area.

- `shared_path`: ../shared (third-party binlogs, corpora). Absent: skip with a message, except under
  CI=true, where its absence is a failure (CI always has it, so a skip there would hide tests).
- `twin`: runs a test on the compiled core and on its pure-Python twin.
- `mariadb_server`: a private MariaDB with row-based binlogging for the whole session. mariadbd
  missing: skip with the install command, except under CI=true (fail: .ci/run installs it).
- `pg_server`: a private PostgreSQL cluster (tools/pg_lab.py) for the session: .uri, .create_database(),
  .psql(). initdb/postgres missing: skip with the install command, except under CI=true (fail).
- `tool`: ``tool(name)`` is tools/NAME.py as a module (tools/ is not a package, and test modules
  cannot import conftest in importlib mode).
- `--run-slow`: enable tests marked `slow` (long fuzz and scale runs).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _load_tool(name: str):
    """tools/NAME.py, loaded once per session and registered in sys.modules (dataclasses resolve
    string annotations through it)."""
    key = f"_mysqlddl_tools_{name}"
    mod = sys.modules.get(key)
    if mod is None:
        spec = importlib.util.spec_from_file_location(key, ROOT / "tools" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[key] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[key]
            raise
    return mod


mariadb_lab = _load_tool("mariadb_lab")
pg_lab = _load_tool("pg_lab")


@pytest.fixture(scope="session")
def tool():
    return _load_tool


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def missing(reason: str):
    """Skip outside CI; fail under CI=true, where nothing may silently skip."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: this must not be skipped)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_path() -> Path:
    if not SHARED.is_dir():
        missing(f"shared data not found at {SHARED} (third-party binlogs and corpora live there)")
    return SHARED


@pytest.fixture(params=["compiled", "pure-python"])
def twin(request, monkeypatch):
    """The implementation module under test; `mysqlddl.binlog.speedups.impl` points at it meanwhile."""
    from mysqlddl.binlog import _twin, speedups

    if request.param == "compiled":
        if os.environ.get("MYSQLDDL_PUREPYTHON", "").lower() in ("1", "true", "yes", "on"):
            pytest.skip("MYSQLDDL_PUREPYTHON=1: compiled core deliberately not used in this run")
        try:
            mod = speedups.load_compiled()
        except ImportError as e:
            if os.environ.get("MYSQLDDL_REQUIRE_SPEEDUPS", "").lower() in ("1", "true", "yes", "on"):
                pytest.fail(f"MYSQLDDL_REQUIRE_SPEEDUPS=1 but the extension is missing: {e}")
            pytest.skip(f"compiled core not built: {e}")
    else:
        mod = _twin
    monkeypatch.setattr(speedups, "impl", mod)
    monkeypatch.setattr(speedups, "IMPLEMENTATION", mod.IMPLEMENTATION)
    return mod


@pytest.fixture
def run_cli(tmp_path):
    """`run_cli(*args, env=None, timeout=600)`: `python -m mysqlddl ARGS` as a subprocess, from tmp_path.

    Always from a neutral directory: with -m the working directory comes first on sys.path, and from
    the checkout the bare source package (no generated parser, no compiled core) would shadow the
    installed one. `env` entries are added to (or override) the current environment."""

    def run(*args, env=None, timeout=600):
        full = dict(os.environ)
        full.update(env or {})
        return subprocess.run([sys.executable, "-m", "mysqlddl", *map(str, args)], capture_output=True,
                              text=True, env=full, cwd=tmp_path, timeout=timeout)

    return run


@pytest.fixture(scope="session")
def mariadb_server(tmp_path_factory):
    """A private MariaDB (ROW, FULL image, CRC32) for the session: .connect(), .execute(), .query(),
    .flush_logs(), .binlog_files(), .current_binlog(), .socket, .port, .version."""
    if not mariadb_lab.mariadbd_path():
        missing(mariadb_lab.INSTALL_HINT)
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdb-{os.getpid()}"
    srv = mariadb_lab.MariaDBServer(base)
    srv.start()
    try:
        yield srv
    finally:
        srv.destroy()


@pytest.fixture(scope="session")
def pg_server():
    """A private PostgreSQL cluster (trust auth on 127.0.0.1, a spare port) for the session."""
    if not pg_lab.bindir() and IN_CI:
        pg_lab.install()        # (.ci/run should have: `python3 tools/pg_lab.py install`; CI never skips)
    if not pg_lab.bindir():
        missing(pg_lab.INSTALL_HINT)
    # (not under pytest's tmp_path: the server runs as the postgres user, which must reach its directory)
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"pg-{os.getpid()}"
    srv = pg_lab.PgServer(base, fsync=False)
    srv.start()
    try:
        yield srv
    finally:
        srv.destroy()
