"""Server-source fixtures: a private MariaDB of this package's own (its settings are changed and it
is restarted by some tests, so it is not the session's shared ``mariadb_server``), with a
replication user, the lab workload run on it once, and the TCP fault proxy.

- ``live``: a LiveServer (``.server`` the MariaDBServer, ``.uri(server_id, port=None, **opts)``,
  ``.truth`` the lab workload's Truth, ``.files()`` the binlog paths);
- ``proxy``: ``proxy(plans, server=None)`` -> a started TcpProxy in front of the live server (or
  ``server``), closed after the test;
- ``scratch``: a fresh server of one test's own (one that purges its binlogs);
- ``make_certs``: ``make_certs(dir)`` -> a CA and certificates for TLS tests (tests/sources/certs.py).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

PASSWORD = "live-pw"
LAB_KW = {"scale": 0.001, "bigtx_rows": 300, "blob_kib": 64, "random_rows": 12}


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod         # (a dataclass looks its module up there while it is built)
    spec.loader.exec_module(mod)
    return mod


proxy_mod = _load(Path(__file__).with_name("proxy.py"), "_mysqlddl_tests_sources_proxy")


@pytest.fixture(scope="session")
def make_certs():
    """``make_certs(dir)`` of tests/sources/certs.py (throw-away X.509 material made with openssl)."""
    return _load(Path(__file__).with_name("certs.py"), "_mysqlddl_tests_sources_certs").make_certs


class LiveServer:
    def __init__(self, server, truth):
        self.server = server
        self.truth = truth

    def uri(self, server_id: int, port: int | None = None, user: str = "repl", **opts) -> str:
        q = "&".join(f"{k.replace('_', '-')}={v}" for k, v in opts.items())
        return f"mysql://{user}@127.0.0.1:{port or self.server.port}/?server-id={server_id}" + (f"&{q}" if q else "")

    def files(self) -> list[Path]:
        return self.server.binlog_files()


@pytest.fixture(scope="session")
def live(mariadb_server, tool, tmp_path_factory):
    """(mariadb_server first: it skips or fails with the install hint when mariadbd is missing.)"""
    server_class = type(mariadb_server)
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdblive-{os.getpid()}"
    srv = _users(server_class(base).start())
    try:
        truth = tool("workload").run(srv, log=lambda m: None, **LAB_KW)
        yield LiveServer(srv, truth)
    finally:
        srv.destroy()


def _users(srv):
    # (every lab server already has a repl@127.0.0.1 for its own replication, tools/mariadb_lab.py:
    # replaced here by the account these tests log in with)
    srv.execute(f"CREATE OR REPLACE USER 'repl'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT, RELOAD ON *.* TO 'repl'@'127.0.0.1'",
                # MariaDB 10.5.2+: SHOW SLAVE HOSTS (the server-id clash check) needs it
                "GRANT REPLICATION MASTER ADMIN ON *.* TO 'repl'@'127.0.0.1'",
                f"CREATE USER 'norepl'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                "GRANT SELECT ON *.* TO 'norepl'@'127.0.0.1'")
    return srv


@pytest.fixture
def scratch(live):
    """A fresh private server of the test's own (binlogs it may purge), as a LiveServer without truth."""
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbscratch-{os.getpid()}"
    srv = _users(type(live.server)(base).start())
    try:
        yield LiveServer(srv, None)
    finally:
        srv.destroy()


@pytest.fixture(autouse=True)
def _password(monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", PASSWORD)


@pytest.fixture
def proxy(live):
    made = []

    def make(plans=None, server=None):
        p = proxy_mod.TcpProxy((server or live.server).port, plans)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()
