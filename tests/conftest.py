"""Fixtures shared by every test area.

- `shared_path`: ../shared (third-party binlogs, corpora). Absent: skip with a message, except under
  CI=true, where its absence is a failure (CI always has it, so a skip there would hide tests).
- `twin`: runs a test on the compiled core and on its pure-Python twin.
- `mariadb_server`: a private MariaDB with row-based binlogging for the whole session. mariadbd
  missing: skip with the install command, except under CI=true (fail: .ci/run installs it).
- `mariadb_replica`: a second private MariaDB replicating (GTID, over 127.0.0.1) from a primary of
  its own (``replica.primary``; not `mariadb_server`, so other tests' DDL never reaches it), relay
  logs kept. Same skip/fail rule.
- `pg_server`: a private PostgreSQL cluster (tools/pg_lab.py) for the session: .uri, .create_database(),
  .psql(). initdb/postgres missing: skip with the install command, except under CI=true (fail).
- `tool`: ``tool(name)`` is tools/NAME.py as a module (tools/ is not a package, and test modules
  cannot import conftest in importlib mode).
- `tcp_proxy`: ``tcp_proxy(port, plans=None)`` -> a started TcpProxy (tests/sources/proxy.py, the
  loopback fault injector) in front of 127.0.0.1:port, closed at the end of the test module.
- `--run-slow`: enable tests marked `slow` (long fuzz and scale runs).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
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


@pytest.fixture(scope="module")
def tcp_proxy():
    key = "_mysqlddl_tests_sources_proxy"
    mod = sys.modules.get(key)
    if mod is None:
        spec = importlib.util.spec_from_file_location(key, ROOT / "tests" / "sources" / "proxy.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[key] = mod
    made = []

    def make(port: int, plans=None):
        made.append(mod.TcpProxy(port, plans))
        return made[-1]

    yield make
    for p in made:
        p.close()


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


class Spawned:
    """A `python -m mysqlddl` running in the background (:func:`spawn_cli`): ``proc`` (its Popen,
    stderr piped), :meth:`wait_until` a condition while it runs, :meth:`stop` it with a signal."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_until(self, cond, timeout: float = 60, what: str = "the condition", poll: float = 0.05) -> None:
        """Until ``cond()`` holds; the test fails if the process ends first or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while not cond():
            if self.proc.poll() is not None:
                pytest.fail(f"the process ended (rc {self.proc.returncode}) before {what}: "
                            f"{self.proc.stderr.read().decode()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"{what} did not come within {timeout} s")
            time.sleep(poll)

    def stop(self, signum: int | None = None, timeout: float = 60) -> tuple[int, str]:
        """(exit code, stderr) once it ended: after ``signum`` when given, else of its own accord."""
        if signum is not None:
            self.proc.send_signal(signum)
        _, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, err.decode()


@pytest.fixture
def spawn_cli(tmp_path):
    """`spawn_cli(*args, env=None, stdout=DEVNULL) -> Spawned`: `python -m mysqlddl ARGS` started in the
    background from tmp_path (as run_cli), killed at the test's end if it still runs."""
    started = []

    def spawn(*args, env=None, stdout=subprocess.DEVNULL) -> Spawned:
        full = dict(os.environ)
        full.update(env or {})
        started.append(Spawned(subprocess.Popen([sys.executable, "-m", "mysqlddl", *map(str, args)], cwd=tmp_path,
                                                env=full, stdout=stdout, stderr=subprocess.PIPE)))
        return started[-1]

    yield spawn
    for s in started:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait(10)


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
def mariadb_replica():
    """A replica and its primary for the session (tools/mariadb_lab.py, "Replication"): the replica
    has server_id 2, ``relay_log_purge=OFF`` (every relay log stays: ``.relay_log_files()``) and
    ``log_slave_updates``; ``.primary`` (server_id 1) is a private server of its own. Write on
    the primary, then ``replica.wait_caught_up()`` (``applied=False``: only the relay log must have
    it). Tests share the pair: they use databases of their own and never RESET MASTER or purge
    (the replica starts from the primary's first binlog). ``replica.start_replica(primary,
    gtid_pos=None)`` re-points it (failover tests)."""
    if not mariadb_lab.mariadbd_path():
        missing(mariadb_lab.INSTALL_HINT)
    tmp = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp"))
    primary = mariadb_lab.MariaDBServer(tmp / f"mdbprim-{os.getpid()}", server_id=1)
    replica = mariadb_lab.MariaDBServer(tmp / f"mdbrepl-{os.getpid()}", server_id=2)
    try:
        primary.start()
        replica.start()
        replica.start_replica(primary)
        yield replica
    finally:
        replica.destroy()
        primary.destroy()


@pytest.fixture(scope="session")
def relay_workload(mariadb_replica):
    """The lab workload (tools/workload.py, every phase, small scale, databases ``relay_lab`` and
    ``relay_lab_tmp``) run on ``mariadb_replica.primary``, then one multi-statement transaction
    (``relay_lab.spanning``, :data:`SPANNING_ROWS` single-row INSERTs in one BEGIN ... COMMIT)
    replicated while the replica's ``max_relay_log_size`` is 4096 (the server's minimum), so that
    its relay log rotates inside the transaction. Returns (replica, truth, spanning GTID); the
    relay logs hold all of it (I/O thread caught up), the primary's binlogs are flushed."""
    replica = mariadb_replica
    primary = replica.primary
    workload = _load_tool("workload")
    truth = workload.run(primary, log=lambda m: None, database="relay_lab", tmp_database="relay_lab_tmp",
                         scale=0.0005, bigtx_rows=200, blob_kib=16, random_rows=6)
    replica.wait_caught_up(applied=False)
    replica.execute("SET GLOBAL max_relay_log_size = 4096")
    try:
        primary.execute("CREATE TABLE relay_lab.spanning (id INT PRIMARY KEY, v VARCHAR(64)) ENGINE=InnoDB")
        conn = primary.connect()
        try:
            with conn.cursor() as cur:
                cur.execute("BEGIN")
                for i in range(SPANNING_ROWS):
                    cur.execute("INSERT INTO relay_lab.spanning VALUES (%s, %s)", (i, f"row {i:04d} " + "x" * 40))
                cur.execute("COMMIT")
                cur.execute("SELECT @@last_gtid")
                gtid = cur.fetchone()[0]
        finally:
            conn.close()
        primary.flush_logs()
        replica.wait_caught_up(applied=False)
    finally:
        replica.execute("SET GLOBAL max_relay_log_size = 0")
    return replica, truth, gtid


#: rows of the transaction the relay log rotates inside (``relay_workload``)
SPANNING_ROWS = 120


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
