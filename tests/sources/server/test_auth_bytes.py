"""caching_sha2_password (MySQL 8's default login) through our real connect path, byte by byte.

This is a DOCUMENTED-BYTES test, NOT a real server: no MySQL server can run here (only MariaDB,
which has no caching_sha2_password). A small fake server on loopback plays the server's side of
the connection phase only, from the documented layouts, and checks every byte the client sends:

- MySQL internals manual "Connection Phase": Protocol::HandshakeV10, Protocol::SSLRequest,
  Protocol::HandshakeResponse41, OK_Packet / ERR_Packet, "AuthMoreData" (0x01 + data);
- "Caching_sha2_password information" and the client plugin
  ``caching_sha2_password_auth_client`` (sql-common/client_authentication.cc): the fast-auth
  scramble is ``generate_sha256_scramble`` (sql/auth/sha2_password_common.cc
  ``Generate_scramble::scramble``): XOR(SHA256(pw), SHA256(SHA256(SHA256(pw)) || nonce)); the
  server then answers 0x01 0x03 (fast_auth_success, an OK follows) or 0x01 0x04
  (perform_full_authentication). Full authentication over TLS: the password and a NUL in clear;
  without TLS: 0x02 (request_public_key), the server sends its PEM key (AuthMoreData), the client
  sends RSA_PKCS1_OAEP_PADDING(XOR(password + NUL, nonce repeated)) (``xor_string``,
  ``encrypt_RSA_public_key``).

After the OK the fake answers PyMySQL's ``SET NAMES`` with an OK and takes COM_QUIT. The client
side is ``mysqlddl.sources.server.pymysql_bridge.connect``, as a live source calls it.
"""

from __future__ import annotations

import hashlib
import socket
import ssl
import struct
import threading

import pytest

# (cryptography: PyMySQL's own RSA path needs it, and the fake server's key; in the test extra)
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from mysqlddl.errors import ServerConnectError
from mysqlddl.sources.server import pymysql_bridge as bridge
from mysqlddl.sources.uri import parse_uri

PASSWORD = "s3cret-pässwörd-€"       # non-ASCII (and past latin-1) on purpose: the bytes are its UTF-8
NONCE = bytes(range(0x21, 0x21 + 20))  # 20 bytes (SCRAMBLE_LENGTH), printable, no NUL
NATIVE_NONCE = bytes(range(0x41, 0x41 + 20))

# include/mysql_com.h capability flags
CLIENT_LONG_PASSWORD, CLIENT_PROTOCOL_41, CLIENT_SSL = 0x1, 0x200, 0x800
CLIENT_TRANSACTIONS, CLIENT_SECURE_CONNECTION, CLIENT_MULTI_RESULTS = 0x2000, 0x8000, 0x20000
CLIENT_PLUGIN_AUTH, CLIENT_CONNECT_ATTRS, CLIENT_PLUGIN_AUTH_LENENC = 0x80000, 0x100000, 0x200000
CLIENT_CONNECT_WITH_DB = 0x8
SERVER_STATUS_AUTOCOMMIT = 0x0002


def sha256(b: bytes) -> bytes:
    return hashlib.sha256(b).digest()


def native_scramble(password: bytes, nonce: bytes) -> bytes:
    # mysql_native_password (internals manual "Secure Password Authentication"; sql/auth/password.cc
    # scramble): SHA1(password) XOR SHA1(nonce || SHA1(SHA1(password)))
    s1 = hashlib.sha1(password).digest()
    z = hashlib.sha1(nonce + hashlib.sha1(s1).digest()).digest()
    return bytes(a ^ b for a, b in zip(s1, z, strict=True))


def expected_scramble(password: bytes, nonce: bytes) -> bytes:
    # Generate_scramble::scramble: stage1 = SHA2(pw); stage2 = SHA2(stage1);
    # scramble_stage1 = SHA2(stage2, rnd); XOR(stage1, scramble_stage1)
    s1 = sha256(password)
    z = sha256(sha256(s1) + nonce)
    return bytes(a ^ b for a, b in zip(s1, z, strict=True))


class FakeServer:
    """One connection's authentication phase, then OK to every COM_QUERY until COM_QUIT.

    ``mode``: "fast" (0x01 0x03), "full" (0x01 0x04 then the password, clear over TLS or RSA), or
    "deny" (an ERR 1045 after the scramble). ``tls``: a server SSLContext (offers CLIENT_SSL).
    ``switch``: the handshake names mysql_native_password (with NATIVE_NONCE), and the account's
    caching_sha2_password is asked for by an AuthSwitchRequest carrying NONCE."""

    def __init__(self, mode: str, tls: ssl.SSLContext | None = None, switch: bool = False):
        self.mode, self.tls, self.switch = mode, tls, switch
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048) if mode == "full" else None
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.sock.settimeout(10)
        self.port = self.sock.getsockname()[1]
        self.seen: dict = {"queries": []}
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    # -- packets: 3-byte length, 1-byte sequence id (manual "MySQL Packets")
    def _read(self, conn) -> bytes:
        head = self._exact(conn, 4)
        n, seq = int.from_bytes(head[:3], "little"), head[3]
        assert seq == self.seq + 1, f"client sequence id {seq}, expected {self.seq + 1}"
        self.seq = seq
        return self._exact(conn, n)

    @staticmethod
    def _exact(conn, n: int) -> bytes:
        out = b""
        while len(out) < n:
            chunk = conn.recv(n - len(out))
            if not chunk:
                raise EOFError("client closed")
            out += chunk
        return out

    def _send(self, conn, payload: bytes) -> None:
        self.seq += 1
        conn.sendall(len(payload).to_bytes(3, "little") + bytes([self.seq & 0xFF]) + payload)

    @staticmethod
    def ok() -> bytes:
        # OK_Packet: 0x00 | affected_rows lenenc | last_insert_id lenenc | status 2 | warnings 2
        return b"\x00\x00\x00" + struct.pack("<HH", SERVER_STATUS_AUTOCOMMIT, 0)

    def handshake(self) -> bytes:
        caps = (CLIENT_LONG_PASSWORD | CLIENT_CONNECT_WITH_DB | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
                | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_CONNECT_ATTRS
                | CLIENT_PLUGIN_AUTH_LENENC | (CLIENT_SSL if self.tls else 0))
        nonce, plugin = (NATIVE_NONCE, b"mysql_native_password") if self.switch else (NONCE, b"caching_sha2_password")
        # Protocol::HandshakeV10
        return (b"\x0a" + b"8.4.0-documented-bytes\x00" + struct.pack("<I", 7)
                + nonce[:8] + b"\x00"                                   # auth-plugin-data-part-1, filler
                + struct.pack("<H", caps & 0xFFFF) + bytes([255])       # utf8mb4_0900_ai_ci
                + struct.pack("<H", SERVER_STATUS_AUTOCOMMIT) + struct.pack("<H", caps >> 16)
                + bytes([21]) + b"\x00" * 10                             # auth_plugin_data_len, reserved
                + nonce[8:] + b"\x00"                                   # part-2: 13 bytes
                + plugin + b"\x00")

    def _serve(self) -> None:
        try:
            conn, _ = self.sock.accept()
            conn.settimeout(10)
            self.seq = -1
            with conn:
                self._send(conn, self.handshake())
                resp = self._read(conn)
                caps = struct.unpack_from("<I", resp)[0]
                if caps & CLIENT_SSL:
                    # Protocol::SSLRequest: the 32 fixed bytes of the response only, then TLS
                    assert len(resp) == 32, f"SSLRequest of {len(resp)} bytes"
                    conn = self.tls.wrap_socket(conn, server_side=True)
                    self.seen["tls"] = True
                    resp = self._read(conn)
                self._auth(conn, resp)
                while True:
                    self.seq = -1                       # every command starts a new sequence
                    try:
                        cmd = self._read(conn)
                    except EOFError:
                        return
                    if cmd[:1] == b"\x01":              # COM_QUIT
                        self.seen["quit"] = True
                        return
                    assert cmd[:1] == b"\x03", f"unexpected command {cmd[:1].hex()}"
                    self.seen["queries"].append(cmd[1:].decode())
                    self._send(conn, self.ok())
        except BaseException as e:      # noqa: BLE001 -- handed to the test, which re-raises it
            self.error = e

    def _auth(self, conn, resp: bytes) -> None:
        # Protocol::HandshakeResponse41
        caps, _max, _charset = struct.unpack_from("<IIB", resp)
        assert caps & CLIENT_PROTOCOL_41 and caps & CLIENT_PLUGIN_AUTH
        assert resp[9:32] == b"\x00" * 23
        user_end = resp.index(b"\x00", 32)
        self.seen["user"] = resp[32:user_end].decode()
        pos = user_end + 1
        assert caps & CLIENT_PLUGIN_AUTH_LENENC
        n = resp[pos]                                   # lenenc (< 251: one byte)
        self.seen["scramble"] = resp[pos + 1:pos + 1 + n]
        pos += 1 + n
        if caps & CLIENT_CONNECT_WITH_DB:
            pos = resp.index(b"\x00", pos) + 1
        plugin_end = resp.index(b"\x00", pos)
        self.seen["plugin"] = resp[pos:plugin_end].decode()
        if self.switch:
            # Protocol::AuthSwitchRequest: 0xfe | plugin name NUL | auth data (the plugin's nonce + NUL)
            self.seen["native_scramble"] = self.seen["scramble"]
            self._send(conn, b"\xfe" + b"caching_sha2_password\x00" + NONCE + b"\x00")
            self.seen["scramble"] = self._read(conn)        # Protocol::AuthSwitchResponse
        if self.mode == "deny":
            # ERR_Packet: 0xff | code 2 | '#' sqlstate 5 | message
            self._send(conn, b"\xff" + struct.pack("<H", 1045) + b"#28000"
                       + b"Access denied for user 'app'@'localhost' (using password: YES)")
            return
        if self.mode == "fast":
            self._send(conn, b"\x01\x03")
            self._send(conn, self.ok())
            return
        self._send(conn, b"\x01\x04")
        answer = self._read(conn)
        if self.seen.get("tls"):
            self.seen["clear_password"] = answer
        else:
            assert answer == b"\x02", f"expected request_public_key, got {answer[:8].hex()}"
            pem = self.key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo)
            self._send(conn, b"\x01" + pem)
            cipher = self._read(conn)
            self.seen["cipher_len"] = len(cipher)
            self.seen["decrypted"] = self.key.decrypt(cipher, padding.OAEP(
                mgf=padding.MGF1(algorithm=hashes.SHA1()), algorithm=hashes.SHA1(), label=None))
        self._send(conn, self.ok())

    def done(self) -> dict:
        self.thread.join(10)
        self.sock.close()
        if self.error is not None:
            raise self.error
        return self.seen


def login(server: FakeServer, ssl_mode: str = "disabled", password: str = PASSWORD):
    uri = parse_uri(f"mysql://app@127.0.0.1:{server.port}/?server-id=9&ssl-mode={ssl_mode}&connect-timeout=5")
    try:
        conn = bridge.connect(uri, uri.user, password)
    except ServerConnectError:
        server.thread.join(10)
        if server.error is not None:        # the fake's own finding about the client's bytes first
            raise server.error from None
        raise
    tls = bridge.is_tls(conn)
    bridge.close(conn)
    return tls, server.done()


@pytest.fixture(scope="module")
def server_tls(tmp_path_factory, make_certs):
    certs = make_certs(tmp_path_factory.mktemp("fakecerts"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(certs.server, certs.server_key)
    return ctx


def test_fast_auth_scramble():
    tls, seen = login(FakeServer("fast"))
    assert not tls and seen["user"] == "app" and seen["plugin"] == "caching_sha2_password"
    assert seen["scramble"] == expected_scramble(PASSWORD.encode(), NONCE)
    assert len(seen["scramble"]) == 32                     # SHA2_SCRAMBLE_LENGTH
    assert seen["queries"] == ["SET NAMES utf8mb4"] and seen["quit"]


def test_full_auth_without_tls_uses_the_servers_rsa_key():
    tls, seen = login(FakeServer("full"))
    assert not tls
    assert seen["scramble"] == expected_scramble(PASSWORD.encode(), NONCE)
    assert seen["cipher_len"] == 256                       # RSA_size of the 2048-bit key
    clear = PASSWORD.encode() + b"\x00"
    # xor_string: password and its NUL, XOR the 20-byte nonce repeated
    assert seen["decrypted"] == bytes(c ^ NONCE[i % 20] for i, c in enumerate(clear))
    assert seen["quit"]


def test_full_auth_over_tls_sends_the_password_in_clear(server_tls):
    tls, seen = login(FakeServer("full", tls=server_tls), ssl_mode="required")
    assert tls and seen["tls"]
    assert seen["scramble"] == expected_scramble(PASSWORD.encode(), NONCE)
    assert seen["clear_password"] == PASSWORD.encode() + b"\x00"
    assert "decrypted" not in seen and seen["quit"]


def test_wrong_password_is_a_typed_error():
    srv = FakeServer("deny")
    with pytest.raises(ServerConnectError) as e:
        login(srv, password="wrong")
    assert e.value.code == 1045 and "password" in str(e.value)
    seen = srv.done()
    assert seen["scramble"] == expected_scramble(b"wrong", NONCE)


def test_auth_switch_from_native_to_caching_sha2():
    """A server whose default plugin is mysql_native_password, for a caching_sha2_password account
    (an upgraded MySQL 8 with default_authentication_plugin kept): AuthSwitchRequest, a new nonce."""
    tls, seen = login(FakeServer("full", switch=True))
    assert seen["plugin"] == "mysql_native_password"
    assert seen["native_scramble"] == native_scramble(PASSWORD.encode(), NATIVE_NONCE)
    assert seen["scramble"] == expected_scramble(PASSWORD.encode(), NONCE)
    clear = PASSWORD.encode() + b"\x00"
    assert seen["decrypted"] == bytes(c ^ NONCE[i % 20] for i, c in enumerate(clear))
