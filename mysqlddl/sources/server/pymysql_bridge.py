"""The one module that touches PyMySQL: it logs in, runs plain queries, and hands over the socket.

PyMySQL does the connection phase (MySQL internals manual "Connection Phase"): the handshake, the
TLS upgrade (``ssl-mode``) and every authentication exchange it implements -- mysql_native_password,
caching_sha2_password (fast path, and full authentication over TLS or with the server's RSA key,
which needs ``cryptography``), sha256_password, MariaDB's client_ed25519 (needs ``PyNaCl``). After
that the replica commands are ours (:mod:`.protocol`), written and read on the raw socket.

PyMySQL internals used here, and only here (tested on the PyMySQL versions pinned in
pyproject.toml):

- ``Connection._sock``: the connected socket (an ``ssl.SSLSocket`` after the TLS upgrade), taken
  over once the last query's result has been read completely, so PyMySQL's buffered reader
  (``_rfile``) holds nothing: the server sends nothing unasked between commands.

Everything else is PyMySQL's public API (``connect``, cursors, ``thread_id``, ``get_server_info``).
"""

from __future__ import annotations

import socket
import ssl

import pymysql

from ...errors import ServerConnectError, SourceError
from ..uri import ServerUri

#: CR_* client error numbers (include/errmsg.h) PyMySQL raises for a broken connection.
_CONNECTION_ERRORS = (2003, 2006, 2013, 2055)
#: Server errors at login (mysys/share/errmsg-utf8.txt): ER_ACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR,
#: ER_NOT_SUPPORTED_AUTH_MODE, ER_ACCESS_DENIED_NO_PASSWORD_ERROR.
_LOGIN_ERRORS = {1045: "the user name or password is wrong (or the user may not connect from this host)",
                 1044: "the user may not use that database", 1251: "the server wants an authentication method "
                 "this client does not have", 1698: "the account needs a password"}


#: OpenSSL X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH (include/openssl/x509_vfy.h):
#: the certificate is trusted but made out to another name (ssl-mode=verify-identity).
_NAME_MISMATCH = (62, 64)

_UNVERIFIED: ssl.SSLContext | None = None


def _unverified() -> ssl.SSLContext:
    """One TLS context that verifies nothing (PREFERRED and REQUIRED, as the mysql client), made
    once: a default context loads the system's CA store, ~20 ms of CPU per connection."""
    global _UNVERIFIED
    if _UNVERIFIED is None:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        _UNVERIFIED = ctx
    return _UNVERIFIED


def _ssl_context(uri: ServerUri) -> ssl.SSLContext | None:
    """The TLS context for ``ssl-mode`` (None: DISABLED)."""
    if uri.ssl_mode == "disabled":
        return None
    if uri.ssl_mode in ("preferred", "required") and not uri.ssl_cert:
        return _unverified()
    ctx = ssl.create_default_context(cafile=uri.ssl_ca) if uri.ssl_ca else ssl.create_default_context()
    if uri.ssl_mode == "required":
        # REQUIRED encrypts but verifies nothing (the mysql client's --ssl-mode=REQUIRED)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    else:
        ctx.check_hostname = uri.ssl_mode == "verify-identity"
        ctx.verify_mode = ssl.CERT_REQUIRED
        # servers' auto-generated certificates are not strict X.509 (no key usage extensions)
        ctx.verify_flags &= ~getattr(ssl, "VERIFY_X509_STRICT", 0)
    if uri.ssl_cert:
        ctx.load_cert_chain(uri.ssl_cert, keyfile=uri.ssl_key)
    return ctx


def connect(uri: ServerUri, user: str | None, password: str, *, read_timeout: float | None = None,
            tls_offered: bool | None = None):
    """A logged-in PyMySQL connection (autocommit, utf8mb4). ServerConnectError says why not.

    ``ssl-mode=preferred``: TLS when the server offers it. A context given to PyMySQL makes TLS
    required, so a server without TLS is retried in plain text (CR_SSL_CONNECTION_ERROR, 2026);
    ``tls_offered`` (what an earlier connection found) skips that try."""
    kw = {}
    # The password as UTF-8 bytes: PyMySQL encodes a str password as latin-1 (Connection.__init__),
    # which sends other bytes than the server stored for a non-ASCII password set over a utf8mb4
    # connection (and raises UnicodeEncodeError past U+00FF); the mysql client sends the bytes typed.
    secret = (password or "").encode("utf-8")
    ctx = _ssl_context(uri)
    if ctx is not None and not (uri.ssl_mode == "preferred" and tls_offered is False):
        kw["ssl"] = ctx
    else:
        kw["ssl_disabled"] = True
    try:
        try:
            conn = pymysql.connect(host=uri.host, port=uri.port, user=user or "", password=secret,
                                   charset="utf8mb4", autocommit=True, connect_timeout=uri.connect_timeout,
                                   read_timeout=read_timeout, program_name="mysqlddl", **kw)
        except pymysql.err.OperationalError as e:
            if uri.ssl_mode != "preferred" or "ssl" not in kw or not e.args or e.args[0] != 2026:
                raise
            kw.pop("ssl")
            conn = pymysql.connect(host=uri.host, port=uri.port, user=user or "", password=secret,
                                   charset="utf8mb4", autocommit=True, connect_timeout=uri.connect_timeout,
                                   read_timeout=read_timeout, program_name="mysqlddl", ssl_disabled=True)
    except pymysql.err.MySQLError as e:
        code = e.args[0] if e.args and isinstance(e.args[0], int) else None
        # PyMySQL reports a failed TLS handshake as "can't connect" (CR_CONN_HOST_ERROR, the
        # ssl.SSLError kept as ``original_exception``): say it is the certificate, not the host
        tls_error = getattr(e, "original_exception", None)
        if isinstance(tls_error, ssl.SSLError):
            why = getattr(tls_error, "verify_message", None) or tls_error.reason or str(tls_error)
            if getattr(tls_error, "verify_code", None) in _NAME_MISMATCH:
                fix = ("connect by a name the certificate holds (its CN or subjectAltName), or use "
                       "ssl-mode=verify-ca, which checks the CA only")
            elif isinstance(tls_error, ssl.SSLCertVerificationError):
                fix = "give the CA that signed the server's certificate as ssl-ca"
            else:
                fix = "check the TLS settings (ssl-mode, ssl-ca, ssl-cert, ssl-key) and the server's"
            raise ServerConnectError(f"TLS handshake failed (ssl-mode={uri.ssl_mode}): {why}", server=uri.address,
                                     code=code, setting="ssl-mode", fix=fix) from None
        why = _LOGIN_ERRORS.get(code, str(e.args[1] if len(e.args) > 1 else e))
        fix = None
        if code == 1045:
            fix = "check the user and the password (MYSQL_PWD, --defaults-file [client] password, or the prompt)"
            if "ssl" not in kw:
                # the server answers 1045 alike to an account created REQUIRE SSL (X509, ISSUER...)
                # that logs in without TLS: nothing in the reply tells the two apart
                why += "; or the account requires TLS (REQUIRE SSL) and this connection is not encrypted"
                fix += ", or use ssl-mode=required (or verify-ca/verify-identity with ssl-ca) for an account " \
                       "that requires TLS"
        elif code in _CONNECTION_ERRORS:
            fix = "check that the server runs and listens on this host and port"
        raise ServerConnectError(f"cannot log in as {user!r}: {why}", server=uri.address, code=code,
                                 fix=fix) from None
    except (OSError, ssl.SSLError) as e:
        raise ServerConnectError(f"cannot connect: {e}", server=uri.address,
                                 fix="check the host, the port and the TLS settings") from None
    if uri.ssl_mode not in ("disabled", "preferred") and not is_tls(conn):
        conn.close()
        raise ServerConnectError("the connection is not encrypted but ssl-mode requires TLS",
                                 server=uri.address, setting="ssl-mode",
                                 fix="enable TLS on the server (ssl_cert/ssl_key) or lower ssl-mode")
    return conn


def is_tls(conn) -> bool:
    return isinstance(conn._sock, ssl.SSLSocket)


def raw_socket(conn) -> socket.socket:
    """The connection's socket, for the replica commands (see the module docstring)."""
    return conn._sock


def query(conn, sql: str, args=None) -> list[tuple]:
    """Rows of one statement; a server error becomes SourceError with the server's code."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql, args)
            return list(cur.fetchall())
    except pymysql.err.MySQLError as e:
        code = e.args[0] if e.args and isinstance(e.args[0], int) else None
        msg = e.args[1] if len(e.args) > 1 else str(e)
        raise SourceError(f"{sql.split()[0]} failed: {msg}", code=code) from None


def query_dict(conn, sql: str) -> dict[str, str]:
    """``SHOW VARIABLES``-shaped results (name, value) as a dict, names lower-cased."""
    return {str(k).lower(): v for k, v in query(conn, sql)}


def thread_id(conn) -> int:
    return conn.thread_id()


def server_version(conn) -> str:
    return conn.get_server_info()


def close(conn) -> None:
    """Close, ignoring a connection that is already broken."""
    try:
        conn.close()
    except Exception:   # noqa: BLE001 -- closing a dead connection: nothing to report
        try:
            socket_ = conn._sock
            if socket_ is not None:
                socket_.close()
        except OSError:
            pass


__all__ = ["close", "connect", "is_tls", "query", "query_dict", "raw_socket", "server_version", "thread_id"]
