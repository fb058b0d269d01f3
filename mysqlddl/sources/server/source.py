r"""A running MySQL/MariaDB server as a binlog source: we connect as a replica and stream.

Start-up (before the first event; every refusal a typed error naming the setting and the fix):
log in (:mod:`.pymysql_bridge`), read the settings (``log_bin``, ``binlog_format`` = ROW,
``binlog_row_image`` = FULL unless MINIMAL is allowed, ``binlog_checksum``), the privileges
(REPLICATION SLAVE to dump, REPLICATION CLIENT / BINLOG MONITOR to list the binlogs), the other
replicas' ids (SHOW SLAVE HOSTS: a second replica with our ``server-id`` would make the server drop
the first one on each reconnect of the other, a storm), the binlogs the server has, and the end
position (SHOW BINARY LOG STATUS, MySQL 8.2+; SHOW MASTER STATUS before): that end is where the
stream stops unless ``follow``.

The dump (MySQL internals manual "Replication Protocol"; sql/rpl_replica.cc ``request_dump`` for
MySQL, sql/slave.cc ``request_dump`` for MariaDB), on a second connection:

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
dump starts past it (log_pos 0: it is yielded at position 4, where it is in the file), HEARTBEATs,
and MariaDB's fake GTID_LIST: only the FDE is yielded. An event's position is its ``log_pos`` (the
next event's offset, sql/log_event.cc ``Log_event::write_header``) minus its size, so streamed
events carry the server's file names and offsets and equal the events read from the files. Each
is decoded by the file reader's code (:class:`mysqlddl.binlog.frames.FrameDecoder`: the same CRC32
check, decoders and payload expansion).

Reconnection, at a transaction boundary, never repeating or skipping an event: the source remembers
where the current transaction began (its GTID event, or BEGIN) and the end of the last event it
yielded. After a lost connection (a read error, the server gone, no byte and no heartbeat for three
heartbeat periods; while following, also a dump ended by an EOF packet: a clean shutdown or a
KILL) it kills the old connection (``KILL <id>``: the old dump thread may still hold our
server-id), waits (backoff with jitter; ``on_wait`` is called meanwhile, as when caught up), and
dumps again from the start of that transaction: the events before the last one yielded are
decoded again (their TABLE_MAPs are needed by the rows after them; the consumer keeps the ones it
had) but not yielded again. So nothing is buffered: a
transaction bigger than memory streams, and a consumer sees each event exactly once, in order.
A reconnect that reaches another server (the address moved to it: a failover) is refused with a
ServerIdentityError, never resumed at this server's file position there.

(The start-up checks, and the reconnection's check that it reached the same server, are in
:mod:`.checks`; what an ERR packet ending the dump means, in :mod:`.dump_errors`. Still past 600
lines: the dump loop, the reconnection, the end of a dump (an EOF: the end, or a lost connection)
and the wait for new events (``on_wait``) share one connection state.)
"""

from __future__ import annotations

import random
import select
import socket
import time
from collections.abc import Iterator

from ...binlog import packets
from ...binlog.decoder import EventDecoder
from ...binlog.events import (
    Event,
    EventType,
    MariadbGtidEvent,
    QueryEvent,
    RowsEvent,
    TableMapEvent,
    TransactionPayloadEvent,
)
from ...errors import (
    BinlogPurgedError,
    ConfigError,
    GtidPositionError,
    ProtocolError,
    ServerConnectError,
    ServerSettingError,
    SourceError,
)
from ...positions import BinlogPosition, file_seq
from ..base import EventSource
from ..options import SourceOptions
from ..uri import ServerUri, resolve_password
from . import protocol
from . import pymysql_bridge as bridge
from .checks import ServerChecks, SourceWarning
from .dump_errors import dump_error

#: Bytes asked of the socket per read, received straight into the framer's reusable buffer
#: (``PacketFramer.read_from``): a read costs one system call and no allocation, however large.
_RECV = 1 << 20
#: Seconds without a byte after which the stream has caught up with the server (``on_wait`` is
#: called): a server sending its binlog never pauses this long, so a momentarily empty socket in the
#: middle of a backlog does not count (a pipeline would commit there, far more often than it asks).
_CAUGHT_UP = 0.05
#: Seconds between two calls of ``on_wait`` while the stream is caught up.
_WAIT_SLICE = 0.25
#: Transaction starts: MySQL GTID_LOG_EVENT, ANONYMOUS_GTID_LOG_EVENT, GTID_TAGGED_LOG_EVENT
#: (libs/mysql/binlog/event/binlog_event.h); MariaDB's GTID (162) is handled apart (its flags say
#: whether a BEGIN is implied).
_GTID_TYPES = frozenset((33, 34, 42))
#: Transaction ends: XID_EVENT (16), XA_PREPARE_LOG_EVENT (38).
_END_TYPES = frozenset((16, 38))
#: sql/log_event.h FL_STANDALONE: a MariaDB GTID whose group is one statement without BEGIN/COMMIT.
_FL_STANDALONE = 1
#: rows_event.h STMT_END_F: the last rows event of a statement.
_STMT_END_F = 1


def _readable(sock, timeout: float) -> bool:
    """Bytes to read on ``sock`` within ``timeout`` seconds (a TLS socket may hold decrypted bytes
    that select(2) does not see: ``pending``)."""
    pending = getattr(sock, "pending", None)
    if pending is not None and pending():
        return True
    return bool(select.select([sock], [], [], timeout)[0])


class _Lost(Exception):
    """The dump connection broke (not a server's refusal): reconnect."""


def _end_query(q: str) -> bool:
    head = q.lstrip()[:12].upper()
    return head.startswith(("COMMIT", "ROLLBACK", "XA COMMIT", "XA ROLLBACK"))


def _begin_query(q: str) -> bool:
    head = q.lstrip()[:8].upper()
    return head.startswith(("BEGIN", "XA START", "XA BEGIN"))


class ServerSource(ServerChecks, EventSource):
    """Stream a server's binlog as a replica. See the module docstring.

    ``uri``: a :class:`~mysqlddl.sources.uri.ServerUri`. ``options``: :class:`SourceOptions`.
    ``password``: given by a program (None: :func:`~mysqlddl.sources.uri.resolve_password`).
    ``registry``/``only_types``: as for BinlogReader. ``start_hook``: called as
    ``start_hook(source)`` once the start-up checks passed and the start and stop are planned,
    before any dump: the point where a consistent schema capture and an initial data snapshot run
    (``--from-now`` / ``--snapshot``; :meth:`new_connection` gives the hook a session of its own).
    It returns None, or the position it captured at: the stream then starts there (a default stop,
    the end reported at start, moves up to it), so the snapshot and the stream meet with no gap and
    no overlap.

    After opening: ``flavor`` (``mysql``/``mariadb``), ``server_version``, ``server_uuid`` (None on
    MariaDB), ``settings`` (the variables read), ``binlogs`` (``[(name, size)]`` at start),
    ``end`` (the end position at start), ``start``/``stop`` (BinlogPosition; ``stop`` None: follow),
    ``start_gtid``. While iterating: ``position``, ``fde``, ``reconnects``, ``resumes``.
    """

    #: the dump in progress was started from a GTID and has sent no transaction yet (_open_dump)
    _gtid_dump = False

    def __init__(self, uri: ServerUri, options: SourceOptions | None = None, *, password: str | None = None,
                 registry=None, only_types=None, start_hook=None):
        self.uri = uri
        self.options = options = options if options is not None else SourceOptions()
        if password is None:
            self._user, self._password = resolve_password(uri, defaults_file=options.defaults_file)
        else:
            self._user = uri.user
            self._password = password
        self._registry, self._only_types = registry, only_types
        self.decoder = self._new_decoder()
        self.read_timeout = 3 * uri.heartbeat
        self.reconnects = 0
        #: called (no argument) whenever the stream has caught up with the server and waits for more,
        #: then every quarter second until it comes; returning True ends the stream there (a
        #: pipeline commits what ended and notices a stop request while the server is quiet)
        self.on_wait = None
        #: each lost connection: (the (file, pos) the dump resumes at, whether a transaction was open, why)
        self.resumes: list[tuple[tuple[str, int] | None, bool, str]] = []
        self._dump_conn = None
        self._dump_id: int | None = None
        self._current_file: str | None = None
        self._next = 0
        self.files: list[str] = []
        self.control = bridge.connect(uri, self._user, self._password)
        self._tls = bridge.is_tls(self.control)
        try:
            self._inspect()
            self._plan()
            if start_hook is not None:
                self._hooked(start_hook(self))
        except BaseException:
            self.close()
            raise

    def _new_decoder(self) -> EventDecoder:
        return EventDecoder(options=self.options.decode, registry=self._registry, only_types=self._only_types)

    # -- start-up checks ------------------------------------------------------------------------------
    def _err(self, cls, message: str, **kw):
        return cls(message, server=self.uri.address, **kw)

    # -- start and stop -------------------------------------------------------------------------------
    def _binlogs(self, conn=None) -> list[tuple[str, int]]:
        return [(str(r[0]), int(r[1])) for r in bridge.query(conn or self.control, "SHOW BINARY LOGS")]

    def _end(self) -> BinlogPosition:
        try:
            rows = bridge.query(self.control, "SHOW BINARY LOG STATUS")     # MySQL 8.2+
        except SourceError as e:
            if e.code not in (1064, 1149):                                 # ER_PARSE_ERROR: older servers
                raise
            rows = bridge.query(self.control, "SHOW MASTER STATUS")
        if not rows:
            raise self._err(ServerSettingError, "SHOW MASTER STATUS returned nothing: binary logging is off",
                            setting="log_bin", fix="start the server with --log-bin")
        return BinlogPosition.of(str(rows[0][0]), int(rows[0][1]))

    def _plan(self) -> None:
        o = self.options
        self.binlogs = self._binlogs()
        names = [n for n, _ in self.binlogs]
        self.end = self._end()
        self.start_gtid = None
        if o.from_now:
            self.start = self.end
        elif o.start is not None:
            f, p = o.start
            if f is None:
                f = names[0]
            if f not in names:
                raise self._err(BinlogPurgedError, f"the start file {f} is not among the server's binlogs "
                                f"({self._list(names)})", files=tuple(names), setting="--start-position",
                                fix="start at a file the server still has (or at a GTID)")
            self.start = BinlogPosition.of(f, max(p, 4))
        elif o.start_gtid:
            self.start_gtid = o.start_gtid.strip()
            self._check_gtid(self.start_gtid)
            self.start = None
        else:
            self.start = BinlogPosition.of(names[0], 4)
        if o.stop is not None:
            f, p = o.stop
            self.stop = BinlogPosition.of(f or (self.start.file if self.start else self.end.file), p)
        else:
            self.stop = None if o.follow else self.end
        first = self.start.file if self.start is not None else names[0]
        self.files = names[names.index(first):] if first in names else [first]

    def new_connection(self):
        """A new logged-in PyMySQL connection to the server, with the source's credentials and TLS
        settings (for a start hook: a schema capture or a snapshot needs a session of its own)."""
        return bridge.connect(self.uri, self._user, self._password, tls_offered=self._tls)

    def _hooked(self, moved) -> None:
        """The start hook's answer: None, or the position it captured at (a BinlogPosition or
        ``(file, pos)``), where the stream then starts; a default stop (the end at start) moves with it."""
        if moved is None:
            return
        f, p = (moved.file, moved.pos) if isinstance(moved, BinlogPosition) else moved
        self.start = BinlogPosition.of(f, int(p))
        self.start_gtid = None
        if self.stop is not None and self.options.stop is None and self.stop.key < self.start.key:
            self.stop = self.end = self.start
        names = [n for n, _ in self._binlogs()]
        self.files = names[names.index(f):] if f in names else [f]

    @staticmethod
    def _list(names) -> str:
        if len(names) > 6:
            return f"{names[0]} .. {names[-1]}, {len(names)} files"
        return ", ".join(names) or "none"

    def _check_gtid(self, text: str) -> None:
        if self.flavor == "mysql":
            protocol.parse_mysql_gtid_set(text)      # syntax first, our own message
            ok = bridge.query(self.control, "SELECT GTID_SUBSET(%s, @@GLOBAL.gtid_executed), "
                              "GTID_SUBSET(@@GLOBAL.gtid_purged, %s)", (text, text))[0]
            if not int(ok[0]):
                raise self._err(GtidPositionError, f"the GTID set {text} holds transactions the server never "
                                f"executed (gtid_executed is {self.settings.get('gtid_executed') or 'empty'})",
                                setting="--start-gtid", fix="give a set contained in the server's gtid_executed")
            if not int(ok[1]):
                names = [n for n, _ in self.binlogs]
                raise self._err(BinlogPurgedError, f"transactions after {text} were purged (gtid_purged is "
                                f"{self.settings.get('gtid_purged')}); binlogs: {self._list(names)}",
                                files=tuple(names), setting="--start-gtid",
                                fix="start from a set that contains gtid_purged (take a new snapshot)")
            return
        want = protocol.parse_mariadb_gtid_state(text)
        have = protocol.parse_mariadb_gtid_state(str(self.settings.get("gtid_binlog_pos") or ""))
        for domain, (_server, seq) in want.items():
            if domain not in have or seq > have[domain][1]:
                raise self._err(GtidPositionError, f"GTID {domain}-{_server}-{seq} is not in the server's binlog "
                                f"(gtid_binlog_pos is {self.settings.get('gtid_binlog_pos') or 'empty'})",
                                setting="--start-gtid", fix="give GTIDs up to the server's gtid_binlog_pos")

    # -- the position API ----------------------------------------------------------------------------
    @property
    def position(self) -> BinlogPosition | None:
        if self._current_file is None:
            return self.start
        return BinlogPosition.of(self._current_file, self._next)

    @property
    def fde(self):
        return self.decoder.fde

    # -- streaming -----------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Event]:
        # resume state: where the open transaction began, what was yielded last (file_seq, next_pos)
        self._txn = None                    # None, "gtid", "begin", "rows": the kind of open group
        self._resume: tuple[str, int] | None = None
        self._done: tuple[int, int] | None = None
        # the last TABLE_MAP yielded for each table_id since the resume point: by table_id, not by
        # position, so a transaction of a million statements (a TABLE_MAP each) keeps one per table
        self._maps: dict[int, TableMapEvent] = {}
        attempts = 0
        try:
            while True:
                try:
                    if attempts:
                        self._kill_old()
                    for ev in self._dump():
                        attempts = 0
                        yield ev
                    return
                except _Lost as lost:
                    self._drop_dump()
                    self.resumes.append((self._resume, self._txn is not None, str(lost)))
                    if attempts >= self.options.reconnect_attempts:
                        raise self._err(ServerConnectError, f"connection lost ({lost}) and {attempts} reconnection "
                                        f"attempts failed", file=self._current_file, log_pos=self._next,
                                        fix="check the server and the network; restart from the last position "
                                            "delivered") from None
                    delay = min(self.options.reconnect_max_delay, self.options.reconnect_delay * (2 ** attempts))
                    if self._backoff(delay * random.uniform(0.5, 1.0)):
                        return
                    attempts += 1
                    self.reconnects += 1
        finally:
            self._drop_dump()

    def _backoff(self, seconds: float) -> bool:
        """Wait ``seconds`` before a reconnection, calling ``on_wait`` every quarter second: the stream
        waits for the server as when it has caught up (a pipeline commits what ended, a stop request
        ends the stream now, not after up to ``reconnect_max_delay``); True: it asked to stop."""
        end = time.monotonic() + seconds
        while True:
            if self.on_wait is not None and self.on_wait():
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(left, _WAIT_SLICE))

    def _kill_old(self) -> None:
        """``KILL`` the previous dump connection (sql/sql_parse.cc ``sql_kill``), so two dumps with our
        server-id never run at once; unknown thread (1094) means it is gone already."""
        old, self._dump_id = self._dump_id, None
        try:
            bridge.query(self.control, "SELECT 1")
        except SourceError:
            bridge.close(self.control)
            try:
                self.control = bridge.connect(self.uri, self._user, self._password, tls_offered=self._tls)
            except ServerConnectError as e:
                if e.login_refused:
                    raise
                raise _Lost(f"cannot reconnect: {e.message}") from None
            # (the address may lead to another server now: a thread id there is another thread)
            self._same_server(self.control)
        if old is not None:
            try:
                bridge.query(self.control, f"KILL {int(old)}")
            except SourceError as e:
                if e.code != 1094:
                    raise

    def _drop_dump(self) -> None:
        if self._dump_conn is not None:
            bridge.close(self._dump_conn)
            self._dump_conn = None

    def _open_dump(self):
        """Log in, set the sender's variables, register, send the dump command: the socket."""
        try:
            conn = bridge.connect(self.uri, self._user, self._password, tls_offered=self._tls)
        except ServerConnectError as e:
            if e.login_refused or self.reconnects == 0 and self._done is None:
                raise
            raise _Lost(e.message) from None
        self._dump_conn = conn
        self._dump_id = bridge.thread_id(conn)
        if self.reconnects:
            self._same_server(conn)         # (.checks: the address may lead to another server now)
        period = int(self.uri.heartbeat * 1e9)
        sets = ["@master_binlog_checksum = @@global.binlog_checksum",
                "@source_binlog_checksum = @@global.binlog_checksum",
                f"@master_heartbeat_period = {period}", f"@source_heartbeat_period = {period}"]
        if self.flavor == "mariadb":
            sets.append(f"@mariadb_slave_capability = {protocol.MARIA_SLAVE_CAPABILITY_GTID}")
        gtid_start = self.start_gtid is not None and self._resume is None
        # (until its first transaction, a GTID dump's positions say nothing: _track, _ended_early)
        self._gtid_dump = gtid_start
        if gtid_start and self.flavor == "mariadb":
            bridge.query(conn, "SET @slave_connect_state = %s", (self.start_gtid,))
            sets += ["@slave_gtid_strict_mode = 1", "@slave_gtid_ignore_duplicates = 0"]
        bridge.query(conn, "SET " + ", ".join(sets))
        sock = bridge.raw_socket(conn)
        sid = self.uri.server_id
        self._command(sock, protocol.register_slave(sid, host=socket.gethostname()[:60], user="mysqlddl"))
        flags = 0 if self.options.follow else protocol.BINLOG_DUMP_NON_BLOCK
        if self.flavor == "mariadb":
            flags |= protocol.BINLOG_SEND_ANNOTATE_ROWS_EVENT
        if self._resume is not None:
            file, pos = self._resume
            cmd = protocol.binlog_dump(sid, file, pos, flags=flags)
        elif gtid_start and self.flavor == "mysql":
            cmd = protocol.binlog_dump_gtid(sid, protocol.encode_gtid_set(
                protocol.parse_mysql_gtid_set(self.start_gtid)), flags=flags)
        elif gtid_start:
            # MariaDB: the GTID start is @slave_connect_state; the file name is left empty (sql/slave.cc)
            cmd = protocol.binlog_dump(sid, "", 4, flags=flags)
        else:
            cmd = protocol.binlog_dump(sid, self.start.file, self.start.pos, flags=flags)
        sock.sendall(packets.frame(cmd, 0))
        return sock

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
                raise _Lost("the server closed the connection")
        kind = packets.classifier()(p)
        if kind == packets.PACKET_ERR:
            raise dump_error(self, p)
        if kind != packets.PACKET_OK:
            raise self._err(ProtocolError, f"expected OK after command 0x{payload[0]:02x}, got {p[:16].hex(' ')}")

    def _dump(self) -> Iterator[Event]:
        try:
            sock = self._open_dump()
        except OSError as e:
            raise _Lost(str(e)) from None
        framer = packets.framer(1)
        next_event = framer.next_event
        sock.settimeout(self.read_timeout)
        decoder = self.decoder = self._new_decoder()
        decoder.checksum = self.checksum
        stop = self.stop
        stop_key = stop.key if stop is not None else None
        done = self._done
        maps = self._maps
        header_of = decoder.header
        seq = file_seq(self._current_file) if self._current_file else -1
        read_from, recv_into = framer.read_from, sock.recv_into
        on_wait = self.on_wait
        while True:
            got = next_event()
            if got is None:
                if on_wait is not None and not _readable(sock, _CAUGHT_UP) and self._wait(sock, on_wait):
                    return
                try:
                    got = read_from(recv_into, _RECV)
                except TimeoutError:
                    raise self._silent() from None
                except OSError as e:
                    raise _Lost(str(e)) from None
                if not got:
                    raise _Lost("the server closed the connection")
                continue
            kind, data = got
            if kind != packets.PACKET_OK:
                p = b"\xff" + data if kind == packets.PACKET_ERR else data
                if kind == packets.PACKET_EOF:
                    # Following (no BINLOG_DUMP_NON_BLOCK), the server sends EOF only when the dump
                    # thread is ended, by a shutdown (MariaDB sql/sql_repl.cc mysql_binlog_send, the
                    # killed thread's end) or a KILL: a lost connection. Not following, EOF is the
                    # end of the binlog, unless it comes before the end there was at start (the
                    # thread ended the same way in the middle of the backlog): lost too, never a
                    # short stream.
                    if stop is None or self._ended_early(seq, stop_key):
                        raise _Lost("the server ended the dump (EOF: a shutdown or a KILL)")
                    return
                if kind == packets.PACKET_ERR:
                    err = dump_error(self, p)
                    if err.code in (1053, 1927, 2013):     # ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED: reconnect
                        raise _Lost(err.message)
                    raise err
                raise self._err(ProtocolError, f"unexpected packet in the binlog stream: {p[:16].hex(' ')}",
                                file=self._current_file, log_pos=self._next)
            header = header_of(data)
            t = header.type_code
            if t in protocol.HEARTBEAT_TYPES:
                continue
            size = header.event_size
            if header.flags & protocol.LOG_EVENT_ARTIFICIAL_F or (t == protocol.ROTATE_EVENT and not header.log_pos):
                if t == protocol.ROTATE_EVENT:
                    body = decoder.verify_artificial(self._current_file or "", self._next, header, data)
                    self._current_file = body[8:].decode("utf-8", "surrogateescape")
                    self._next = int.from_bytes(body[:8], "little")
                    seq = file_seq(self._current_file)
                    if self._current_file not in self.files:
                        self.files.append(self._current_file)
                continue
            if self._current_file is None:
                raise self._err(ProtocolError, f"{header.type_name} before the ROTATE naming the file")
            resent = t == EventType.FORMAT_DESCRIPTION and not header.log_pos
            if resent:
                pos = 4                     # resent at the dump's start; in the file it is at 4
            else:
                pos = self._next
                if header.log_pos != (pos + size) & 0xFFFFFFFF:
                    # the sender skipped events (a GTID start skips what the replica has)
                    pos = header.log_pos - size
            key = (seq, pos)
            if stop_key is not None and key >= stop_key:
                self._next = pos
                return
            if not resent:
                self._next = pos + size
            ev = decoder.decode(self._current_file, pos, data, header)
            if ev is None:
                continue
            old = done is not None and key < done
            if old:
                # read again after a reconnect: decoded for its state, not yielded twice
                if isinstance(ev, TableMapEvent) and ev.table_id in maps:
                    # the map the consumer was given last for this id: the one in force at the
                    # point it stopped (rows re-read before that point are not yielded)
                    decoder.tables.add(maps[ev.table_id])
                if isinstance(ev, TransactionPayloadEvent):
                    decoder.payload_events(ev)
                continue
            self._track(ev, t, pos, size)
            if isinstance(ev, TableMapEvent):
                maps[ev.table_id] = ev
            yield ev
            if isinstance(ev, TransactionPayloadEvent):
                yield from decoder.payload_events(ev)
            done = self._done = (seq, pos + size)

    def _ended_early(self, seq: int, stop_key) -> bool:
        """Not following, an EOF: did it come before the end there was at start? By position, where
        positions are the dump's own; in a GTID dump before its first transaction they are not (the
        sender skips, unsent, what the GTID start has: an EOF at a lower position can be the end),
        and the control session tells instead: a shutdown ends it too."""
        if not self._gtid_dump:
            return (seq, self._next) < min(stop_key, self.end.key)
        try:
            bridge.query(self.control, "SELECT 1")
        except (SourceError, OSError):
            return True
        return False

    def _wait(self, sock, on_wait) -> bool:
        """The stream caught up (nothing buffered, nothing on the socket for ``_CAUGHT_UP``): call
        ``on_wait`` now and every quarter second until bytes arrive (a heartbeat at the latest);
        True: it asked to stop. Three heartbeat periods without a byte: the connection is lost, as a
        blocking read says."""
        waited = 0.0
        while True:
            if on_wait():
                return True
            if _readable(sock, _WAIT_SLICE):
                return False
            waited += _WAIT_SLICE
            if waited >= self.read_timeout:
                raise self._silent()

    def _silent(self) -> _Lost:
        """No byte, not even a heartbeat, for three heartbeat periods: the connection is lost."""
        return _Lost(f"nothing received for {self.read_timeout:g} s (three heartbeat periods)")

    def _track(self, ev: Event, t: int, pos: int, size: int) -> None:
        """Keep ``_resume``: the start of the open transaction, or the next event's position outside one."""
        here = (self._current_file, pos)
        opened = self._txn
        if t in _GTID_TYPES:
            self._open(here, "gtid")
        elif isinstance(ev, MariadbGtidEvent):
            self._open(here, "gtid" if ev.flags2 & _FL_STANDALONE else "begin")
        elif isinstance(ev, QueryEvent):
            q = ev.query
            if _begin_query(q):
                self._open(here, "begin")
            elif opened is None or opened == "gtid" or _end_query(q):
                self._close(here, size)
        elif t in _END_TYPES:
            self._close(here, size)
        elif isinstance(ev, TableMapEvent) and opened is None:
            self._open(here, "rows")
        elif isinstance(ev, RowsEvent) and opened == "rows" and ev.flags & _STMT_END_F:
            self._close(here, size)
        elif opened is None and not self._gtid_dump:
            # between transactions: resume at the next event (self._next: a resent FDE leaves it at
            # the dump's start). Not in a GTID dump before its first transaction: the sender starts
            # at the file's start and skips, unsent, what the GTID start has, so a file position
            # there would send those transactions again; a reconnection starts from the GTID again
            self._resume = (self._current_file, self._next)
            self._maps.clear()

    def _open(self, here, kind: str) -> None:
        self._gtid_dump = False             # (a transaction sent: positions are the dump's from here)
        if self._txn is None:
            self._resume = here
            self._maps.clear()
        self._txn = kind

    def _close(self, here, size: int) -> None:
        self._maps.clear()
        self._txn = None
        self._resume = (here[0], here[1] + size)

    def close(self) -> None:
        self._drop_dump()
        ctl = getattr(self, "control", None)
        if ctl is not None:
            dump_id, self._dump_id = getattr(self, "_dump_id", None), None
            if dump_id is not None:
                # a dump thread waiting for new events notices the closed socket only when its next
                # heartbeat fails, and holds our server-id until then (a restart would wait for it:
                # .checks _check_replica_id); gone already: ER_NO_SUCH_THREAD, ignored
                try:
                    bridge.query(ctl, f"KILL {int(dump_id)}")
                except SourceError:
                    pass
            bridge.close(ctl)
            self.control = None


def open_server(uri: ServerUri, options: SourceOptions | None = None, **kw) -> ServerSource:
    if not isinstance(uri, ServerUri):
        raise ConfigError(f"not a server URI: {uri!r}")
    return ServerSource(uri, options, **kw)


__all__ = ["ServerSource", "SourceWarning", "open_server"]
