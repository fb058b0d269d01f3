"""TLS and login plugins against a real server: a private MariaDB 10.11 started with a certificate
made for the test (tests/sources/certs.py, `openssl`), streamed as a replica over every ssl-mode;
certificate refusals; an account that requires TLS; MariaDB's ed25519 login (auth_ed25519 plugin,
PyNaCl on the client); a non-ASCII password."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent, RowsEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import ServerConnectError
from mysqlddl.sources import SourceOptions, open_source

pytestmark = pytest.mark.mariadb

PW = "tls-pw"
ED_PW = "ed-pw"
UNI_PW = "pässwörd-€"


GRANTS = "REPLICATION SLAVE, REPLICATION CLIENT, SELECT, RELOAD, REPLICATION MASTER ADMIN"


@dataclasses.dataclass
class TlsServer:
    server: object
    certs: object
    ed25519: str | None       # None: the plugin is installed; else why not

    def uri(self, server_id: int, user: str = "tlsrepl", **opts) -> str:
        q = "".join(f"&{k.replace('_', '-')}={v}" for k, v in opts.items())
        return f"mysql://{user}@127.0.0.1:{self.server.port}/?server-id={server_id}{q}"


@pytest.fixture(scope="module")
def tls(mariadb_server, tmp_path_factory, make_certs):
    certs = make_certs(tmp_path_factory.mktemp("certs"))
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbtls-{os.getpid()}"
    srv = type(mariadb_server)(base, extra_args=(f"--ssl-ca={certs.ca}", f"--ssl-cert={certs.server}",
                                                 f"--ssl-key={certs.server_key}")).start()
    try:
        srv.execute(f"CREATE USER 'tlsrepl'@'127.0.0.1' IDENTIFIED BY '{PW}'",
                    f"GRANT {GRANTS} ON *.* TO 'tlsrepl'@'127.0.0.1'",
                    f"CREATE USER 'tlsonly'@'127.0.0.1' IDENTIFIED BY '{PW}' REQUIRE SSL",
                    f"GRANT {GRANTS} ON *.* TO 'tlsonly'@'127.0.0.1'",
                    # (the lab's connection is utf8mb4: the server stores the password's UTF-8 bytes)
                    f"CREATE USER 'uni'@'127.0.0.1' IDENTIFIED BY '{UNI_PW}'",
                    f"GRANT {GRANTS} ON *.* TO 'uni'@'127.0.0.1'",
                    "CREATE DATABASE tlsdb", "CREATE TABLE tlsdb.t (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO tlsdb.t VALUES (1, 'one'), (2, 'two')", "UPDATE tlsdb.t SET v = 'zwei' WHERE id = 2")
        ed = None
        try:
            srv.execute("INSTALL SONAME 'auth_ed25519'",
                        f"CREATE USER 'ed'@'127.0.0.1' IDENTIFIED VIA ed25519 USING PASSWORD('{ED_PW}')",
                        f"GRANT {GRANTS} ON *.* TO 'ed'@'127.0.0.1'")
        except Exception as e:      # noqa: BLE001 -- reported by the ed25519 test, which then fails
            ed = f"auth_ed25519 could not be installed: {e}"
        yield TlsServer(srv, certs, ed)
    finally:
        srv.destroy()


def norm(ev):
    """As tests/sources/server/test_server.py compares: the file's base name, and the FDE without
    LOG_EVENT_BINLOG_IN_USE_F (set in the open file, cleared by the sender)."""
    ev = dataclasses.replace(ev, file=os.path.basename(ev.file))
    if isinstance(ev, FormatDescriptionEvent):
        ev = dataclasses.replace(ev, header=dataclasses.replace(ev.header, flags=ev.header.flags & ~1))
    return ev


def events(uri: str):
    with open_source(uri, SourceOptions()) as src:
        return [norm(e) for e in src]


def check_stream(tls: TlsServer, uri: str) -> None:
    """The stream is the server's binlog files, event for event."""
    got = events(uri)
    want = [norm(e) for e in BinlogReader(tls.server.binlog_files())]
    assert len(got) == len(want) > 10
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"event {i}: {a.type_name} at {a.file}:{a.pos} differs from the file's"
    assert sum(isinstance(e, RowsEvent) for e in got) >= 2


def test_server_has_tls(tls):
    assert tls.server.query("SELECT @@have_ssl")[0][0] == "YES"


@pytest.mark.parametrize("mode", ["required", "verify-ca", "verify-identity"])
def test_stream_over_tls(tls, monkeypatch, mode):
    monkeypatch.setenv("MYSQL_PWD", PW)
    opts = {"ssl_mode": mode} | ({"ssl_ca": tls.certs.ca} if mode != "required" else {})
    check_stream(tls, tls.uri(301, **opts))
    # the server saw an encrypted session (its own word, not ours)
    from mysqlddl.sources.server import pymysql_bridge as bridge
    from mysqlddl.sources.uri import parse_uri
    u = parse_uri(tls.uri(302, **opts))
    conn = bridge.connect(u, u.user, PW)
    try:
        assert bridge.is_tls(conn)
        cipher = bridge.query(conn, "SHOW SESSION STATUS LIKE 'Ssl_cipher'")[0][1]
        assert cipher, "the server reports no TLS cipher for the session"
    finally:
        bridge.close(conn)


def test_preferred_uses_tls_when_offered(tls, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", PW)
    from mysqlddl.sources.server import pymysql_bridge as bridge
    from mysqlddl.sources.uri import parse_uri
    u = parse_uri(tls.uri(303))
    conn = bridge.connect(u, u.user, PW)
    try:
        assert bridge.is_tls(conn)
    finally:
        bridge.close(conn)


def test_wrong_ca_is_refused(tls, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", PW)
    for mode in ("verify-ca", "verify-identity"):
        with pytest.raises(ServerConnectError) as e:
            events(tls.uri(304, ssl_mode=mode, ssl_ca=tls.certs.wrong_ca))
        assert e.value.setting == "ssl-mode" and "certificate" in str(e.value).lower()
        assert "ssl-ca" in e.value.fix


def test_verify_identity_checks_the_name(tls, monkeypatch, mariadb_server):
    """A certificate from the right CA for another name: verify-ca takes it, verify-identity not."""
    monkeypatch.setenv("MYSQL_PWD", PW)
    c = tls.certs
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbtlsname-{os.getpid()}"
    srv = type(mariadb_server)(base, extra_args=(f"--ssl-ca={c.ca}", f"--ssl-cert={c.other_name}",
                                                 f"--ssl-key={c.other_name_key}")).start()
    try:
        srv.execute(f"CREATE USER 'tlsrepl'@'127.0.0.1' IDENTIFIED BY '{PW}'",
                    f"GRANT {GRANTS} ON *.* TO 'tlsrepl'@'127.0.0.1'")
        other = TlsServer(srv, c, None)
        assert events(other.uri(305, ssl_mode="verify-ca", ssl_ca=c.ca))
        with pytest.raises(ServerConnectError) as e:
            events(other.uri(306, ssl_mode="verify-identity", ssl_ca=c.ca))
        assert e.value.setting == "ssl-mode" and "127.0.0.1" in str(e.value)
        assert "name" in e.value.fix
    finally:
        srv.destroy()


def test_account_requiring_tls(tls, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", PW)
    with pytest.raises(ServerConnectError) as e:
        events(tls.uri(307, user="tlsonly", ssl_mode="disabled"))
    assert e.value.code == 1045
    assert "REQUIRE SSL" in str(e.value) and "ssl-mode=required" in e.value.fix
    check_stream(tls, tls.uri(308, user="tlsonly", ssl_mode="required"))


def test_ed25519_login(tls, monkeypatch):
    assert tls.ed25519 is None, tls.ed25519
    plugin = tls.server.query("SELECT plugin FROM mysql.user WHERE user = 'ed'")[0][0]
    assert plugin == "ed25519"
    monkeypatch.setenv("MYSQL_PWD", ED_PW)
    check_stream(tls, tls.uri(309, user="ed", ssl_mode="disabled"))     # no TLS: ed25519 needs none
    monkeypatch.setenv("MYSQL_PWD", "not-it")
    with pytest.raises(ServerConnectError) as e:
        events(tls.uri(310, user="ed", ssl_mode="disabled"))
    assert e.value.code == 1045


def test_non_ascii_password(tls, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", UNI_PW)
    check_stream(tls, tls.uri(311, user="uni", ssl_mode="required"))
    check_stream(tls, tls.uri(312, user="uni", ssl_mode="disabled"))
