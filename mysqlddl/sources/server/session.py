r"""One dump: a connection that registers as a replica and reads the binlog the server sends.

A :class:`DumpSession` is one connection's COM_BINLOG_DUMP (MySQL internals manual "Replication
Protocol"; sql/rpl_replica.cc ``request_dump`` for MySQL, sql/slave.cc ``request_dump`` for
MariaDB), from its login to the end of the dump, and nothing after: where to start, what a lost
connection means and where to resume are the stream's (:mod:`.stream`).

1. user variables the sender reads (sql/rpl_binlog_sender.cc / MariaDB sql/sql_repl.cc):
   ``@master_binlog_checksum`` and ``@source_binlog_checksum`` (MySQL 8.0.26 renamed it; the
   sender refuses a checksum-unaware replica when the binlog has CRC32), ``@master_heartbeat_period``
   and ``@source_heartbeat_period`` (nanoseconds; a HEARTBEAT event each period while idle, so a read
   timeout of three periods tells a dead connection from a quiet server -- NAT and load balancers
   drop idle connections silently), MariaDB ``@mariadb_slave_capability`` = 4 (GTID-aware: events
   as they are in the file) and, for a GTID start, ``@slave_connect_state`` with
   ``@slave_gtid_strict_mode``;
2. COM_REGISTER_SLAVE (the stream shows in SHOW SLAVE HOSTS / SHOW REPLICAS);
3. COM_BINLOG_DUMP (file/pos, and MariaDB's GTID start) or COM_BINLOG_DUMP_GTID (a MySQL GTID set);
   without ``follow`` with BINLOG_DUMP_NON_BLOCK, so the server ends the stream with an EOF packet
   at its end instead of waiting.

Each event arrives as one packet, ``0x00`` then the event's bytes exactly as in the file. The
sender adds events that are not in the file: a fake ROTATE (LOG_EVENT_ARTIFICIAL_F, log_pos 0)
naming the file at the start and after each rotation, the file's FORMAT_DESCRIPTION again when the
dump starts past it (log_pos 0: it is given at position 4, where it is in the file), HEARTBEATs,
and MariaDB's fake GTID_LIST: only the FDE is given on. An event's position is its ``log_pos`` (the
next event's offset, sql/log_event.cc ``Log_event::write_header``) minus its size, so streamed
events carry the server's file names and offsets and equal the events read from the files. Each
is decoded by the decoder the session is given (the file reader's code: the same CRC32 check,
decoders and payload expansion).

The end of a dump: an EOF packet (:attr:`DumpSession.ended` ``"eof"``: the end of the binlog
without ``follow``, else the dump thread ended by a shutdown or a KILL: the stream tells which), the
stop position (``"stop"``), the waiting hook asking to stop (``"asked"``), or :class:`Lost` (a read
error, the server gone, no byte and no heartbeat for three heartbeat periods, an ERR saying the
server shuts down or killed the dump); any other ERR is the typed error :mod:`.dump_errors` makes
of it.
"""

from __future__ import annotations

import dataclasses
import select
import socket
from collections.abc import Callable, Iterator

from ...binlog import packets
from ...binlog.events import EventType
from ...errors import ProtocolError
from ...positions import BinlogPosition, file_seq
from ..uri import ServerUri
from . import protocol
from . import pymysql_bridge as bridge
from .dump_errors import dump_error, server_error

#: Bytes asked of the socket per read, received straight into the framer's reusable buffer
#: (``PacketFramer.read_from``): a read costs one system call and no allocation, however large.
_RECV = 1 << 20
#: Seconds without a byte after which the dump has caught up with the server (the waiting hook is
#: called): a server sending its binlog never pauses this long, so a momentarily empty socket in the
#: middle of a backlog does not count (a pipeline would commit there, far more often than it asks).
_CAUGHT_UP = 0.05
#: Seconds between two calls of the waiting hook while the dump is caught up.
WAIT_SLICE = 0.25
#: ER_SERVER_SHUTDOWN (1053), ER_CONNECTION_KILLED (1927), CR_SERVER_LOST (2013): an ERR ending the
#: dump that means the connection is gone, not a refusal.
_LOST_CODES = (1053, 1927, 2013)


class Lost(Exception):
    """The dump connection broke (not a server's refusal): the stream may reconnect."""


@dataclasses.dataclass(frozen=True, slots=True)
class Login:
    """How to log in to the server: the URI, the user and password resolved once, and whether the
    first connection found TLS offered (``tls``; later connections then do not try again)."""

    uri: ServerUri
    user: str | None
    password: str | None
    tls: bool | None = None

    def connect(self):
        """A new logged-in PyMySQL connection (:func:`.pymysql_bridge.connect`)."""
        return bridge.connect(self.uri, self.user, self.password, tls_offered=self.tls)


def _readable(sock, timeout: float) -> bool:
    """Bytes to read on ``sock`` within ``timeout`` seconds (a TLS socket may hold decrypted bytes
    that select(2) does not see: ``pending``)."""
    pending = getattr(sock, "pending", None)
    if pending is not None and pending():
        return True
    return bool(select.select([sock], [], [], timeout)[0])


class DumpSession:
    """One dump connection (the module docstring).

    ``login``: :class:`Login`. ``flavor``: ``mysql``/``mariadb``. ``decoder``: the event decoder
    (``header(data)``, ``decode(file, pos, data, header)``, ``verify_artificial(...)``; its
    ``checksum`` is set here). ``control``: the stream's control connection (what an ERR means is
    asked there: the binlog list, SHOW BINLOG EVENTS). ``start``: the position the stream planned
    (None: a GTID start), for the errors. ``file``/``next_pos``: where the dump is (the file and the
    next event's offset; given the last dump's, so an error before the first ROTATE names them).
    ``on_rotate(name)``: called with each file the dump enters.

    :meth:`connect`, then :meth:`request` (variables, registration, the dump command), then
    :meth:`events`; :meth:`close`.
    """

    def __init__(self, login: Login, *, flavor: str, checksum: bool, follow: bool, decoder, control,
                 start: BinlogPosition | None, file: str | None = None, next_pos: int = 0,
                 on_rotate: Callable[[str], None] | None = None):
        self.login = login
        self.uri = login.uri
        self.flavor = flavor
        self.follow = follow
        self.decoder = decoder
        decoder.checksum = checksum
        self.control = control
        self.start = start
        self.file = file
        self.next_pos = next_pos
        self.on_rotate = on_rotate
        self.read_timeout = 3 * login.uri.heartbeat
        self.conn = None
        self.thread_id: int | None = None
        self.ended: str | None = None
        self._sock = None

    def error(self, cls, message: str, **kw):
        return server_error(self.uri, cls, message, **kw)

    def connect(self):
        """Log in (ServerConnectError when it cannot: the stream decides whether that is a lost
        connection); the connection, for the stream's identity check before :meth:`request`."""
        self.conn = conn = self.login.connect()
        self.thread_id = bridge.thread_id(conn)
        return conn

    def request(self, *, gtid: str | None = None, at: tuple[str, int] | None = None) -> None:
        """Set the sender's variables, register, send the dump command: from ``at`` (file, pos), or
        after the GTID set ``gtid`` (a GTID start), else from ``start``. Lost on a socket error."""
        try:
            self._request(gtid, at)
        except OSError as e:
            raise Lost(str(e)) from None

    def _request(self, gtid: str | None, at: tuple[str, int] | None) -> None:
        conn = self.conn
        period = int(self.uri.heartbeat * 1e9)
        sets = ["@master_binlog_checksum = @@global.binlog_checksum",
                "@source_binlog_checksum = @@global.binlog_checksum",
                f"@master_heartbeat_period = {period}", f"@source_heartbeat_period = {period}"]
        if self.flavor == "mariadb":
            sets.append(f"@mariadb_slave_capability = {protocol.MARIA_SLAVE_CAPABILITY_GTID}")
        if gtid is not None and self.flavor == "mariadb":
            bridge.query(conn, "SET @slave_connect_state = %s", (gtid,))
            sets += ["@slave_gtid_strict_mode = 1", "@slave_gtid_ignore_duplicates = 0"]
        bridge.query(conn, "SET " + ", ".join(sets))
        sock = self._sock = bridge.raw_socket(conn)
        sid = self.uri.server_id
        self._command(sock, protocol.register_slave(sid, host=socket.gethostname()[:60], user="mysqlddl"))
        flags = 0 if self.follow else protocol.BINLOG_DUMP_NON_BLOCK
        if self.flavor == "mariadb":
            flags |= protocol.BINLOG_SEND_ANNOTATE_ROWS_EVENT
        if at is not None:
            cmd = protocol.binlog_dump(sid, at[0], at[1], flags=flags)
        elif gtid is not None and self.flavor == "mysql":
            cmd = protocol.binlog_dump_gtid(sid, protocol.encode_gtid_set(protocol.parse_mysql_gtid_set(gtid)),
                                            flags=flags)
        elif gtid is not None:
            # MariaDB: the GTID start is @slave_connect_state; the file name is left empty (sql/slave.cc)
            cmd = protocol.binlog_dump(sid, "", 4, flags=flags)
        else:
            cmd = protocol.binlog_dump(sid, self.start.file, self.start.pos, flags=flags)
        sock.sendall(packets.frame(cmd, 0))

    def _command(self, sock, payload: bytes) -> None:
        """One command and its OK (COM_REGISTER_SLAVE): ERR becomes the typed error."""
        sock.sendall(packets.frame(payload, 0))
        framer = packets.framer(1)
        sock.settimeout(self.read_timeout)
        while True:
            p = framer.next_packet()
            if p is not None:
                break
            if not framer.read_from(sock.recv_into, _RECV):
                raise Lost("the server closed the connection")
        kind = packets.classifier()(p)
        if kind == packets.PACKET_ERR:
            raise dump_error(self, p)
        if kind != packets.PACKET_OK:
            raise self.error(ProtocolError, f"expected OK after command 0x{payload[0]:02x}, got {p[:16].hex(' ')}")

    def events(self, stop_key=None, waiting: Callable[[], bool] | None = None) -> Iterator[tuple]:
        """The dump's events, decoded: ``(event, type_code, file_seq, pos, size)`` each, until the
        dump ends (:attr:`ended`: ``"eof"``, ``"stop"`` at the first event at or past ``stop_key``
        (``(file_seq, pos)``), ``"asked"`` when ``waiting()``, called while the dump is caught up,
        returned True) or is :class:`Lost`. Events the decoder leaves out (``only_types``) are not given."""
        sock = self._sock
        framer = packets.framer(1)
        next_event = framer.next_event
        sock.settimeout(self.read_timeout)
        decoder = self.decoder
        decode, header_of = decoder.decode, decoder.header
        seq = file_seq(self.file) if self.file else -1
        read_from, recv_into = framer.read_from, sock.recv_into
        while True:
            got = next_event()
            if got is None:
                if waiting is not None and not _readable(sock, _CAUGHT_UP) and self._wait(sock, waiting):
                    self.ended = "asked"
                    return
                try:
                    got = read_from(recv_into, _RECV)
                except TimeoutError:
                    raise self._silent() from None
                except OSError as e:
                    raise Lost(str(e)) from None
                if not got:
                    raise Lost("the server closed the connection")
                continue
            kind, data = got
            if kind != packets.PACKET_OK:
                if kind == packets.PACKET_EOF:
                    self.ended = "eof"
                    return
                if kind == packets.PACKET_ERR:
                    err = dump_error(self, b"\xff" + data)
                    if err.code in _LOST_CODES:
                        raise Lost(err.message)
                    raise err
                raise self.error(ProtocolError, f"unexpected packet in the binlog stream: {data[:16].hex(' ')}",
                                 file=self.file, log_pos=self.next_pos)
            header = header_of(data)
            t = header.type_code
            if t in protocol.HEARTBEAT_TYPES:
                continue
            size = header.event_size
            if header.flags & protocol.LOG_EVENT_ARTIFICIAL_F or (t == protocol.ROTATE_EVENT and not header.log_pos):
                if t == protocol.ROTATE_EVENT:
                    body = decoder.verify_artificial(self.file or "", self.next_pos, header, data)
                    self.file = body[8:].decode("utf-8", "surrogateescape")
                    self.next_pos = int.from_bytes(body[:8], "little")
                    seq = file_seq(self.file)
                    if self.on_rotate is not None:
                        self.on_rotate(self.file)
                continue
            if self.file is None:
                raise self.error(ProtocolError, f"{header.type_name} before the ROTATE naming the file")
            resent = t == EventType.FORMAT_DESCRIPTION and not header.log_pos
            if resent:
                pos = 4                     # resent at the dump's start; in the file it is at 4
            else:
                pos = self.next_pos
                if header.log_pos != (pos + size) & 0xFFFFFFFF:
                    # the sender skipped events (a GTID start skips what the replica has)
                    pos = header.log_pos - size
            if stop_key is not None and (seq, pos) >= stop_key:
                self.next_pos = pos
                self.ended = "stop"
                return
            if not resent:
                self.next_pos = pos + size
            ev = decode(self.file, pos, data, header)
            if ev is not None:
                yield ev, t, seq, pos, size

    def _wait(self, sock, waiting) -> bool:
        """The dump caught up (nothing buffered, nothing on the socket for ``_CAUGHT_UP``): call
        ``waiting`` now and every quarter second until bytes arrive (a heartbeat at the latest);
        True: it asked to stop. Three heartbeat periods without a byte: the connection is lost, as a
        blocking read says."""
        waited = 0.0
        while True:
            if waiting():
                return True
            if _readable(sock, WAIT_SLICE):
                return False
            waited += WAIT_SLICE
            if waited >= self.read_timeout:
                raise self._silent()

    def _silent(self) -> Lost:
        """No byte, not even a heartbeat, for three heartbeat periods: the connection is lost."""
        return Lost(f"nothing received for {self.read_timeout:g} s (three heartbeat periods)")

    def close(self) -> None:
        """Close the connection (the server's dump thread notices at its next write: the stream
        KILLs it on its control connection)."""
        if self.conn is not None:
            bridge.close(self.conn)
            self.conn = None
            self._sock = None


__all__ = ["DumpSession", "Login", "Lost", "WAIT_SLICE"]
