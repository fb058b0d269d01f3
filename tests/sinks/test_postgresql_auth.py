"""The PostgreSQL sink takes its password as libpq does (issue #24: "password as libpq takes it:
``PGPASSWORD``, ``~/.pgpass``, or the URI"), checked on the private cluster with a role that must
authenticate with SCRAM on loopback (a ``pg_hba.conf`` line put before the cluster's ``trust``
lines: the first matching line decides, PostgreSQL manual 21.1 "The pg_hba.conf File"). The
password file is named by ``PGPASSFILE``, libpq's way to point at a file other than ``~/.pgpass``
(manual 34.16 "The Password File": ``hostname:port:database:username:password``, mode 0600).

Without any password the sink stops with a SinkError that names the URI without its password."""

from __future__ import annotations

import os

import pytest

from mysqlddl.errors import SinkError
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink

ROLE, SECRET = "pw_sink", "s3cret-Pa55"


@pytest.fixture(scope="module")
def scram_role(pg_server):
    """A role that must send its password (scram-sha-256 on 127.0.0.1) and owns database ``pwdb``."""
    pg_server.psql(f"SET password_encryption = 'scram-sha-256'; "
                   f"CREATE ROLE {ROLE} LOGIN PASSWORD '{SECRET}'")
    pg_server.psql(f"CREATE DATABASE pwdb OWNER {ROLE}")
    hba = pg_server.datadir / "pg_hba.conf"
    original = hba.read_text()
    hba.write_text(f"host all {ROLE} 127.0.0.1/32 scram-sha-256\n" + original)
    pg_server.psql("SELECT pg_reload_conf()")
    try:
        yield f"postgresql://{ROLE}@127.0.0.1:{pg_server.port}/pwdb"
    finally:
        hba.write_text(original)
        pg_server.psql("SELECT pg_reload_conf()")


def _connects(uri: str) -> str:
    sink = PostgresSink(uri, PgOptions(state_schema="pw_state"))
    sink.open()
    try:
        with sink.conn.cursor() as cur:
            cur.execute("SELECT current_user")
            return cur.fetchone()[0]
    finally:
        sink.close()


def _no_libpq_password(monkeypatch, tmp_path):
    monkeypatch.delenv("PGPASSWORD", raising=False)
    # (an empty file: libpq finds nothing in it, whatever ~/.pgpass of the machine holds)
    empty = tmp_path / "empty.pgpass"
    empty.write_text("")
    empty.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(empty))


def test_without_a_password_the_sink_says_it_cannot_connect(scram_role, monkeypatch, tmp_path):
    _no_libpq_password(monkeypatch, tmp_path)
    with pytest.raises(SinkError) as err:
        _connects(scram_role)
    text = str(err.value)
    assert "cannot connect" in text and "password" in text
    assert err.value.transient


def test_a_wrong_password_is_refused_and_not_echoed(scram_role, monkeypatch, tmp_path):
    _no_libpq_password(monkeypatch, tmp_path)
    wrong = scram_role.replace(f"{ROLE}@", f"{ROLE}:not-it@")
    with pytest.raises(SinkError) as err:
        _connects(wrong)
    assert "not-it" not in str(err.value)
    assert "authentication failed" in str(err.value)


def test_password_from_the_uri(scram_role, monkeypatch, tmp_path):
    _no_libpq_password(monkeypatch, tmp_path)
    assert _connects(scram_role.replace(f"{ROLE}@", f"{ROLE}:{SECRET}@")) == ROLE


def test_password_from_pgpassword(scram_role, monkeypatch, tmp_path):
    _no_libpq_password(monkeypatch, tmp_path)
    monkeypatch.setenv("PGPASSWORD", SECRET)
    assert _connects(scram_role) == ROLE


def test_password_from_the_password_file(scram_role, monkeypatch, tmp_path, pg_server):
    _no_libpq_password(monkeypatch, tmp_path)
    pgpass = tmp_path / "pgpass"
    # a line for another database first: libpq takes the first line that matches all four fields
    pgpass.write_text(f"127.0.0.1:{pg_server.port}:otherdb:{ROLE}:wrong\n"
                      f"127.0.0.1:{pg_server.port}:pwdb:{ROLE}:{SECRET}\n")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    assert _connects(scram_role) == ROLE
    assert "PGPASSWORD" not in os.environ
