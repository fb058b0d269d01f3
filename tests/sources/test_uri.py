"""Source URIs and credentials (mysqlddl.sources.uri) and open_source's scheme registry."""

from __future__ import annotations

import pytest

from mysqlddl.errors import ConfigError, SourceUriError
from mysqlddl.sources import OPENERS, FileSource, SourceOptions, open_source, register
from mysqlddl.sources.uri import FileUri, ServerUri, parse_uri, read_option_file, resolve_password


def test_server_uri():
    u = parse_uri("mysql://repl@db.example:3307/?server-id=42&ssl-mode=VERIFY_CA&ssl-ca=/ca.pem&heartbeat=2")
    assert u == ServerUri("mysql", "db.example", 3307, "repl", 42, "verify-ca", "/ca.pem", heartbeat=2.0)
    assert str(u) == "mysql://repl@db.example:3307/?server-id=42"
    m = parse_uri("mariadb://127.0.0.1?server-id=1")
    assert (m.scheme, m.port, m.user, m.ssl_mode) == ("mariadb", 3306, None, "preferred")


def test_file_uris():
    assert parse_uri("file:///var/lib/mysql/binlog.000042") == FileUri("/var/lib/mysql/binlog.000042")
    assert parse_uri("relative/binlog.000001") == FileUri("relative/binlog.000001")
    assert parse_uri("file:///a%20b/x.000001") == FileUri("/a b/x.000001")


@pytest.mark.parametrize(("uri", "why"), [
    ("mysql://repl:secret@h/?server-id=1", "password in the URI"),
    ("mysql://repl@h/", "no server-id"),
    ("mysql://repl@h/?server-id=0", "outside"),
    ("mysql://repl@h/?server-id=x", "not a number"),
    ("mysql://repl@h:99999/?server-id=1", "port"),
    ("mysql://repl@h/db?server-id=1", "unexpected path"),
    ("mysql://repl@h/?server-id=1&ssl-mode=sometimes", "ssl-mode"),
    ("mysql://repl@h/?server-id=1&ssl-mode=verify-identity", "needs the CA"),
    ("mysql://repl@h/?server-id=1&colour=blue", "unknown option colour"),
    ("mysql://repl@h/?server-id=1&server-id=2", "given twice"),
    ("postgres://h/", r"unsupported source scheme 'postgres' \(supported: file, mysql, mariadb\)"),
    ("file://otherhost/x", "local path"),
])
def test_bad_uris(uri, why):
    with pytest.raises(SourceUriError, match=why) as e:
        parse_uri(uri)
    assert isinstance(e.value, ConfigError)
    assert "secret" not in f"{e.value} {e.value.args}"      # (not even in the error refusing it)


def test_option_file_and_password_order(tmp_path):
    cnf = tmp_path / "my.cnf"
    cnf.write_text("# comment\n[mysqld]\npassword = server\n[client]\nuser = app\npassword = 'from file'\n"
                   "!includedir /nowhere\n")
    assert read_option_file(str(cnf)) == {"user": "app", "password": "from file"}
    u = parse_uri("mysql://h/?server-id=1")
    env = {"MYSQL_PWD": "from env", "USER": "login"}
    assert resolve_password(u, defaults_file=str(cnf), env=env, interactive=False) == ("app", "from file")
    assert resolve_password(u, env=env, interactive=False) == ("login", "from env")
    # (#30 item 14: no user was "cannot log in as None" from the server; it is said, with the fix)
    with pytest.raises(SourceUriError, match="no user to log in as.*USER is not set.*mysql://USER@h:3306/"):
        resolve_password(u, env={}, interactive=False)
    with pytest.raises(SourceUriError, match="cannot read the option file"):
        read_option_file(str(tmp_path / "missing.cnf"))


def test_prompt_when_interactive(monkeypatch):
    monkeypatch.setattr("getpass.getpass", lambda prompt: "typed" if "repl@h:3306" in prompt else "?")
    u = parse_uri("mysql://repl@h/?server-id=1")
    assert resolve_password(u, env={}, interactive=True) == ("repl", "typed")


def test_open_source_files_and_registry(shared_path):
    path = shared_path / "binlogs/maxwell/binlog.000004"
    src = open_source(f"file://{path}")
    assert isinstance(src, FileSource)
    plain = list(open_source(str(path)))
    assert [e.pos for e in src] == [e.pos for e in plain] and len(plain) > 10
    assert src.position.pos == path.stat().st_size
    with pytest.raises(ConfigError, match="no source for scheme 'kafka'"):
        open_source("kafka://x")
    seen = []
    register("dummy", lambda target, options, **kw: seen.append(target) or src)
    try:
        assert open_source("dummy://anything") is src and seen == ["dummy://anything"]
    finally:
        OPENERS.pop("dummy")


def test_file_source_refuses_server_starts(shared_path):
    with pytest.raises(ConfigError, match="needs a server source"):
        open_source(str(shared_path / "binlogs/maxwell/binlog.000004"), SourceOptions(from_now=True))
