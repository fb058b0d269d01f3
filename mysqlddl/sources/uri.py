"""Source URIs: what ``open_source`` and ``mysqlddl changes`` accept.

    mysql://USER@HOST[:PORT]/?server-id=N[&ssl-mode=...&ssl-ca=FILE&heartbeat=SECONDS
                               &allow-server-id-takeover=yes]
    mariadb://USER@HOST[:PORT]/?server-id=N...           (the same; the dialect is also detected)
    file:///path/binlog.000042                           a binlog file, directory, index or glob
    /path/binlog.000042                                  the same, as a plain path

A password is never taken from the URI (a command line is visible to every user of the machine in
``ps``): it comes from ``MYSQL_PWD`` (as the mysql client reads it), an option file
(``--defaults-file``, its ``[client]`` section, as the mysql client reads it), or a prompt when
standard input is a terminal (:func:`resolve_password`).

``ssl-mode`` follows the mysql client's ``--ssl-mode`` (MySQL Reference Manual, "Command Options
for Encrypted Connections"): DISABLED, PREFERRED (the default: TLS when the server offers it,
unverified), REQUIRED (TLS or fail, unverified), VERIFY_CA (TLS, the certificate checked against
``ssl-ca``), VERIFY_IDENTITY (also the host name).

``allow-server-id-takeover=yes``: start even when the account cannot check that no other replica
uses ``server-id`` (:mod:`mysqlddl.sources.server.checks`), accepting that the server then ends a
stream already running with it; without it such a start is refused.
"""

from __future__ import annotations

import dataclasses
import getpass
import os
import sys
from urllib.parse import parse_qsl, unquote, urlsplit

from ..errors import SourceUriError
from ..redact import mask_uri, remember_secret, remember_uri

SERVER_SCHEMES = ("mysql", "mariadb")
#: every scheme of a source URI (a bare path is a file source too)
SCHEMES = ("file", *SERVER_SCHEMES)
SSL_MODES = ("disabled", "preferred", "required", "verify-ca", "verify-identity")
DEFAULT_PORT = 3306
#: Seconds between the server's heartbeats when the stream is idle (MASTER_HEARTBEAT_PERIOD); the read
#: timeout is three of them.
DEFAULT_HEARTBEAT = 5.0


@dataclasses.dataclass(frozen=True, slots=True)
class ServerUri:
    """A server to stream from (``mysql://`` or ``mariadb://``). ``user`` may be None (then the
    option file's, else the login name); ``server_id`` is the replica id we register with; ``ssl_ca``,
    ``ssl_cert``, ``ssl_key`` may be None."""

    scheme: str
    host: str
    port: int = DEFAULT_PORT
    user: str | None = None
    server_id: int = 0
    ssl_mode: str = "preferred"
    ssl_ca: str | None = None
    ssl_cert: str | None = None
    ssl_key: str | None = None
    heartbeat: float = DEFAULT_HEARTBEAT
    connect_timeout: float = 10.0
    allow_server_id_takeover: bool = False

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def __str__(self) -> str:     # never a password: there is none in it
        return f"{self.scheme}://{self.user + '@' if self.user else ''}{self.address}/?server-id={self.server_id}"


@dataclasses.dataclass(frozen=True, slots=True)
class FileUri:
    """Binlog files: ``path`` is what :func:`mysqlddl.binlog.files.resolve_sources` accepts."""

    path: str


_YES = ("yes", "true", "on", "1")
_NO = ("no", "false", "off", "0")


def _fail(uri: str, why: str, fix: str | None = None) -> SourceUriError:
    # (masked: the URI may hold the very password it is refused for)
    return SourceUriError(f"bad source URI {mask_uri(uri)!r}: {why}", fix=fix)


def _number(uri: str, key: str, text: str, kind=int, low=None, high=None):
    try:
        v = kind(text)
    except ValueError:
        raise _fail(uri, f"{key}={text!r} is not a number") from None
    if (low is not None and v < low) or (high is not None and v > high):
        raise _fail(uri, f"{key}={text} is outside {low}..{high}")
    return v


def parse_uri(uri: str) -> ServerUri | FileUri:
    """A ServerUri or a FileUri; SourceUriError (a ConfigError) says what is wrong."""
    if not isinstance(uri, str):
        uri = os.fspath(uri)
    scheme, sep, _ = uri.partition("://")
    if not sep:
        return FileUri(uri)
    scheme = scheme.lower()
    # a password given in the URI is refused below, and masked in every message from now on, raw
    # and percent-decoded (mysqlddl.redact)
    remember_uri(uri)
    parts = urlsplit(uri)
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise _fail(uri, f"a file URI names a local path, not host {parts.netloc!r}",
                        "write file:///absolute/path")
        if not parts.path:
            raise _fail(uri, "no path")
        return FileUri(unquote(parts.path))
    if scheme not in SERVER_SCHEMES:
        # (the URI itself is not repeated: another scheme's URI may hold a password)
        raise SourceUriError(f"unsupported source scheme {scheme!r} (supported: {', '.join(SCHEMES)})",
                             fix="give a binlog file, directory, .index file or glob (or file:///path), or a "
                             "server as mysql://USER@HOST:PORT/?server-id=N")
    if parts.password is not None:
        raise _fail(uri, "a password in the URI would be visible to every user of the machine",
                    "set MYSQL_PWD, or give --defaults-file with a [client] password, or let it prompt")
    if not parts.hostname:
        raise _fail(uri, "no host")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise _fail(uri, "the port is not a number in 1..65535") from None
    if parts.path not in ("", "/"):
        raise _fail(uri, f"unexpected path {parts.path!r} (a server URI names no database)")
    opts = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False):
        key = key.lower().replace("_", "-")
        if key in opts:
            raise _fail(uri, f"{key} given twice")
        opts[key] = value
    known = {"server-id", "ssl-mode", "ssl-ca", "ssl-cert", "ssl-key", "heartbeat", "connect-timeout",
             "allow-server-id-takeover"}
    unknown = sorted(set(opts) - known)
    if unknown:
        raise _fail(uri, f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}",
                    f"known: {', '.join(sorted(known))}")
    if "server-id" not in opts:
        raise _fail(uri, "no server-id", "add ?server-id=N, a number no other replica of this server uses")
    server_id = _number(uri, "server-id", opts["server-id"], int, 1, 0xFFFFFFFF)
    mode = opts.get("ssl-mode", "preferred").lower().replace("_", "-")
    if mode not in SSL_MODES:
        raise _fail(uri, f"ssl-mode={opts['ssl-mode']!r}", f"one of {', '.join(SSL_MODES)}")
    if mode.startswith("verify") and not opts.get("ssl-ca"):
        raise _fail(uri, f"ssl-mode={mode} needs the CA certificate", "add &ssl-ca=/path/ca.pem")
    heartbeat = _number(uri, "heartbeat", opts.get("heartbeat", str(DEFAULT_HEARTBEAT)), float, 0.1, 4294967.0)
    timeout = _number(uri, "connect-timeout", opts.get("connect-timeout", "10"), float, 0.1, 3600.0)
    takeover = opts.get("allow-server-id-takeover", "no").lower()
    if takeover not in _YES + _NO:
        raise _fail(uri, f"allow-server-id-takeover={opts['allow-server-id-takeover']!r}", "yes or no")
    return ServerUri(scheme=scheme, host=parts.hostname, port=port, user=unquote(parts.username)
                     if parts.username else None, server_id=server_id, ssl_mode=mode,
                     ssl_ca=opts.get("ssl-ca") or None, ssl_cert=opts.get("ssl-cert") or None,
                     ssl_key=opts.get("ssl-key") or None, heartbeat=heartbeat, connect_timeout=timeout,
                     allow_server_id_takeover=takeover in _YES)


# ------------------------------------------------------------------------------------ credentials


def read_option_file(path: str, group: str = "client") -> dict[str, str]:
    """The options of one group of a MySQL option file (MySQL Reference Manual, "Using Option
    Files": ``[group]`` headers, ``name=value`` or a bare ``name``, ``#``/``;`` comments, values
    optionally quoted; ``!include`` directives are not followed). Later values win."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise SourceUriError(f"cannot read the option file: {e.strerror or e}", setting="--defaults-file",
                             file=path) from None
    out: dict[str, str] = {}
    current = None
    for line in lines:
        line = line.strip()
        if not line or line[0] in "#;!":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip().lower()
            continue
        if current != group:
            continue
        name, eq, value = line.partition("=")
        name = name.strip().lower().replace("_", "-")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[name] = value if eq else ""
    return out


def resolve_password(uri: ServerUri, *, defaults_file: str | None = None, env=None, interactive=None) -> tuple[
        str | None, str]:
    """``(user, password)`` for ``uri``: the user from the URI, else the option file, else the
    login name (``USER``), else a SourceUriError saying how to give one; the password from the
    option file's ``[client]`` group, else ``MYSQL_PWD``, else a
    prompt when standard input is a terminal (``interactive`` overrides the check), else empty."""
    env = os.environ if env is None else env
    opts = read_option_file(defaults_file) if defaults_file else {}
    user = uri.user or opts.get("user") or env.get("USER") or None
    if user is None:
        # (said before any connection: the server's refusal would only name the user None)
        raise SourceUriError(f"no user to log in as: {uri} names none, "
                             f"{'--defaults-file has no [client] user=, ' if defaults_file else ''}and USER is not set",
                             fix=f"give it in the URI, {uri.scheme}://USER@{uri.address}/?server-id={uri.server_id}, "
                             "or as user= in the [client] group of a --defaults-file")
    if "password" in opts:
        password = opts["password"]
    elif "MYSQL_PWD" in env:
        password = env["MYSQL_PWD"]
    elif interactive if interactive is not None else sys.stdin.isatty():
        password = getpass.getpass(f"Enter password for {user}@{uri.address}: ")
    else:
        password = ""
    remember_secret(password)       # (never in a message from now on: mysqlddl.redact)
    return user, password


__all__ = ["DEFAULT_HEARTBEAT", "DEFAULT_PORT", "SCHEMES", "SERVER_SCHEMES", "SSL_MODES", "FileUri", "ServerUri",
           "parse_uri", "read_option_file", "resolve_password"]
