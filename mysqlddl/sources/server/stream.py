r"""A running MySQL/MariaDB server as a binlog source: the resuming stream over dump sessions.

Start-up (before the first event; every refusal a typed error naming the setting and the fix):
log in (:mod:`.pymysql_bridge`), read the settings (``log_bin``, ``binlog_format`` = ROW,
``binlog_row_image`` = FULL unless MINIMAL is allowed, ``binlog_checksum``), the privileges
(REPLICATION SLAVE to dump, REPLICATION CLIENT / BINLOG MONITOR to list the binlogs), the other
replicas' ids (SHOW SLAVE HOSTS: a second replica with our ``server-id`` would make the server drop
the first one on each reconnect of the other, a storm): :mod:`.checks`. Then the binlogs the
server has, and the end position (SHOW BINARY LOG STATUS, MySQL 8.2+; SHOW MASTER STATUS before):
that end is where the stream stops unless ``follow``. The start is planned here: a file position,
the end (``from_now``), a GTID set (``start_gtid``), or what a start hook (the snapshot) captured at.

Each dump runs in a :class:`~.session.DumpSession` (one connection: registration, the dump
command, the event packets, heartbeats, what an ERR or EOF means), its events decoded by the file
reader's code; the stream owns everything that outlives one connection.

Reconnection, at a transaction boundary, never repeating or skipping an event: the stream remembers
where the current transaction began (its GTID event, or BEGIN: :mod:`.resume_point`) and the end of
the last event it yielded. After a lost connection (a read error, the server gone, no byte and no
heartbeat for three heartbeat periods; while following, also a dump ended by an EOF packet: a clean
shutdown or a KILL) it kills the old connection (``KILL <id>``: the old dump thread may still hold
our server-id), waits (backoff with jitter; ``on_wait`` is called meanwhile, as when caught up), and
dumps again from the start of that transaction: the events before the last one yielded are decoded
again (their TABLE_MAPs are needed by the rows after them; the consumer keeps the ones it had) but
not yielded again. So nothing is buffered: a transaction bigger than memory streams, and a consumer
sees each event exactly once, in order. A reconnect that reaches another server (the address moved
to it: a failover) is refused with a ServerIdentityError, never resumed at this server's file
position there.

The source contract (:class:`~mysqlddl.sources.base.EventSource`): ``identity(start)`` is the
server's (``server:uuid=...``; MariaDB has no uuid: its flavor and ``server_id``), also when the
checkpoint's file is not on this server (purged, or another server: the caller tells which by the
identity); ``events(start)`` plans the stream at a checkpoint position (a transaction end; the
plan made for ``identity()`` is kept when the start is the same, and a reading that starts before
the checkpoint, an XA replay, plans there); ``restart_at_gtid(set)`` follows a failover
(:mod:`mysqlddl.pipeline.failover`).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator

from ...binlog.decoder import EventDecoder
from ...binlog.events import Event, TableMapEvent, TransactionPayloadEvent
from ...errors import (
    BinlogPurgedError,
    ConfigError,
    GtidPositionError,
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
from .dump_errors import binlogs, name_list, server_error
from .resume_point import ResumePoint
from .session import WAIT_SLICE, DumpSession, Login, Lost


class ServerSource(EventSource):
    """Stream a server's binlog as a replica. See the module docstring.

    ``uri``: a :class:`~mysqlddl.sources.uri.ServerUri`. ``options``: :class:`SourceOptions`.
    ``password``: given by a program (None: :func:`~mysqlddl.sources.uri.resolve_password`).
    ``registry``/``only_types``: as for BinlogReader. ``start_hook``: called as
    ``start_hook(source)`` once the start-up checks passed and the start and stop are planned,
    before any dump: the point where a consistent schema capture and an initial data snapshot run
    (``--from-now`` / ``--snapshot``; :meth:`new_connection` gives the hook a session of its own).
    It returns None, or the position it captured at: the stream then starts there (a default stop,
    the end reported at start, moves up to it), so the snapshot and the stream meet with no gap and
    no overlap. ``lazy``: log in at the first use (``identity``, ``events``, ``restart_at_gtid``,
    iteration) instead of now (a pipeline decides on its checkpoint before asking the server).
    ``on_wait``/``stop_requested``: the hooks below (also settable as attributes).

    After opening: ``flavor`` (``mysql``/``mariadb``), ``server_version``, ``server_uuid`` (None on
    MariaDB), ``settings`` (the variables read), ``binlogs`` (``[(name, size)]`` at start),
    ``end`` (the end position at start), ``start``/``stop`` (BinlogPosition; ``stop`` None: follow),
    ``start_gtid``. While iterating: ``position``, ``fde``, ``reconnects``, ``resumes`` (each lost
    connection: the (file, pos) the dump resumes at, whether a transaction was open, why).

    Hooks: ``on_wait()``, called (no argument) whenever the stream has caught up with the server
    and waits for more, then every quarter second until it comes, and while it waits to reconnect:
    returning True ends the stream there (a pipeline commits what ended and notices a stop request
    while the server is quiet); ``stop_requested()``, asked after each event :meth:`events` yields
    and while waiting: True ends it there.
    """

    kind = "binlog"

    def __init__(self, uri: ServerUri, options: SourceOptions | None = None, *, password: str | None = None,
                 registry=None, only_types=None, start_hook=None, lazy: bool = False, on_wait=None,
                 stop_requested=None):
        self.uri = uri
        self.options = options if options is not None else SourceOptions()
        self._password = password
        self._registry, self._only_types = registry, only_types
        self._start_hook = start_hook
        self.decoder = self._new_decoder()
        self.reconnects = 0
        self.on_wait = on_wait
        self.stop_requested = stop_requested
        self.resumes: list[tuple[tuple[str, int] | None, bool, str]] = []
        self.control = None
        self.checks: ServerChecks | None = None
        self.files: list[str] = []
        self._login: Login | None = None
        self._session: DumpSession | None = None
        self._dump_id: int | None = None
        self._point = ResumePoint()
        self._done: tuple[int, int] | None = None
        self._planned = None            # ("pos", (file, pos)) or ("gtid", set): what the plan started at
        self._opened = False
        if not lazy:
            self._open()

    def _new_decoder(self) -> EventDecoder:
        return EventDecoder(options=self.options.decode, registry=self._registry, only_types=self._only_types)

    def _err(self, cls, message: str, **kw):
        return server_error(self.uri, cls, message, **kw)

    # -- start-up -------------------------------------------------------------------------------------
    def _open(self) -> None:
        """Log in, check the server, plan the start and stop, run the start hook (once)."""
        if self._opened:
            return
        self._opened = True
        o = self.options
        if self._password is None:
            user, password = resolve_password(self.uri, defaults_file=o.defaults_file)
        else:
            user, password = self.uri.user, self._password
        login = Login(self.uri, user, password)
        self.control = login.connect()
        self._login = dataclasses.replace(login, tls=bridge.is_tls(self.control))
        try:
            self.checks = ServerChecks(self.uri, o, user)
            facts = self.checks.inspect(self.control)
            self.settings, self.server_version, self.flavor = facts.settings, facts.version, facts.flavor
            self.server_uuid, self.checksum = facts.server_uuid, facts.checksum
            self._plan()
            if self._start_hook is not None:
                self._hooked(self._start_hook(self))
        except BaseException:
            self.close()
            raise

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
        self.binlogs = binlogs(self.control)
        names = [n for n, _ in self.binlogs]
        self.end = self._end()
        if o.from_now:
            self._place(self.end.file, self.end.pos, names)
        elif o.start is not None:
            self._place(o.start[0] or names[0], o.start[1], names)
        elif o.start_gtid:
            self._place_gtid(o.start_gtid.strip(), names)
        else:
            self._place(names[0], 4, names)
        if o.stop is not None:
            f, p = o.stop
            self.stop = BinlogPosition.of(f or (self.start.file if self.start else self.end.file), p)
        else:
            self.stop = None if o.follow else self.end

    def _place(self, f: str, p: int, names: list[str]) -> None:
        """Start at ``f``:``p`` (a file the server has: else a BinlogPurgedError)."""
        if f not in names:
            raise self._err(BinlogPurgedError, f"the start file {f} is not among the server's binlogs "
                            f"({name_list(names)})", files=tuple(names), setting="--start-position",
                            fix="start at a file the server still has (or at a GTID)")
        self.start = BinlogPosition.of(f, max(p, 4))
        self.start_gtid = None
        self.files = names[names.index(f):]
        self._planned = ("pos", (f, self.start.pos))

    def _place_gtid(self, text: str, names: list[str]) -> None:
        """Start after the GTID set ``text`` (the server holds it: else a GtidPositionError or, when
        what follows it was purged, a BinlogPurgedError)."""
        self._check_gtid(text)
        self.start_gtid = text
        self.start = None
        self.files = list(names)
        self._planned = ("gtid", text)

    def new_connection(self):
        """A new logged-in PyMySQL connection to the server, with the source's credentials and TLS
        settings (for a start hook: a schema capture or a snapshot needs a session of its own)."""
        return self._login.connect()

    def _hooked(self, moved) -> None:
        """The start hook's answer: None, or the position it captured at (a BinlogPosition or
        ``(file, pos)``), where the stream then starts; a default stop (the end at start) moves with it."""
        if moved is None:
            return
        f, p = (moved.file, moved.pos) if isinstance(moved, BinlogPosition) else moved
        self.start = BinlogPosition.of(f, int(p))
        self.start_gtid = None
        self._planned = ("pos", (f, self.start.pos))
        if self.stop is not None and self.options.stop is None and self.stop.key < self.start.key:
            self.stop = self.end = self.start
        names = [n for n, _ in binlogs(self.control)]
        self.files = names[names.index(f):] if f in names else [f]

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
                                f"{self.settings.get('gtid_purged')}); binlogs: {name_list(names)}",
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

    # -- the source contract --------------------------------------------------------------------------
    def identity(self, start: BinlogPosition | None = None) -> tuple[str, None]:
        """``(source_id, None)``: ``server:uuid=<server_uuid>`` (MySQL), ``server:<flavor>;server_id=<id>``
        (MariaDB has no uuid). The stream is planned at ``start`` (a checkpoint position) for
        :meth:`events`; when the server does not have that file (purged here, or this is another
        server: its binlogs are numbered its own way) the identity is still answered: which server
        it is decides (a caller follows, or refuses, another identity as such), and the purge stands
        on the same server (:meth:`events` raises it)."""
        self._open()
        if start is not None:
            try:
                self._at(start)
            except BinlogPurgedError:
                pass
        if self.server_uuid:
            return f"server:uuid={self.server_uuid}", None
        return f"server:{self.flavor};server_id={self.settings.get('server_id')}", None

    def _at(self, start) -> None:
        """Plan the stream at ``start`` (a BinlogPosition or ``(file, pos)``), unless it is planned there."""
        f, p = (start.file, start.pos) if isinstance(start, BinlogPosition) else start
        if self._planned == ("pos", (f, max(int(p), 4))):
            return
        names = [n for n, _ in binlogs(self.control)]
        self._place(f, int(p), names)

    def events(self, start: BinlogPosition | None = None, *, stop=None, only_types=None,
               registry=None) -> Iterator[Event]:
        """The events from ``start`` (a position at a transaction end; None: the planned start, the
        options' or :meth:`restart_at_gtid`'s), an FDE first, until ``stop`` (a BinlogPosition or
        ``(file, pos)``; None: the options' stop, the end at start, or never when following), a
        ``stop_requested()`` or ``on_wait()`` answering True. ``only_types``/``registry``: what to
        decode (None: the constructor's). The stream is planned now (its errors are raised here);
        the iteration ends with the source closed."""
        self._open()
        if start is not None:
            self._at(start)
        if isinstance(stop, int):
            # (a bare offset: in the file the stream stops in, as the options' stop is read)
            stop = (self.stop.file if self.stop is not None else self.end.file, stop)
        if stop is not None:
            f, p = (stop.file, stop.pos) if isinstance(stop, BinlogPosition) else stop
            self.stop = BinlogPosition.of(f, int(p))
        if only_types is not None:
            self._only_types = only_types
        if registry is not None:
            self._registry = registry
        return self._events()

    def _events(self) -> Iterator[Event]:
        asked = self.stop_requested
        stream = self._stream()
        try:
            for ev in stream:
                yield ev
                if asked is not None and asked():
                    return
        finally:
            stream.close()
            self.close()

    def restart_at_gtid(self, gtid_set: str) -> None:
        """Plan the stream after ``gtid_set`` instead (a failover: :mod:`mysqlddl.pipeline.failover`):
        the server checks it holds the set (a GtidPositionError when not, raised here)."""
        self._open()
        self._end_dump()
        self._place_gtid(gtid_set.strip(), [n for n, _ in binlogs(self.control)])
        # MariaDB checks the set only per domain (seq_no up to gtid_binlog_pos: _check_gtid); its dump
        # thread refuses a GTID its binlog does not hold (error 1236, a diverged server) only once
        # the stream starts: a probe dump's first event asks it now, before a pipeline writes anything
        probe = self._stream()
        try:
            next(probe, None)
        finally:
            probe.close()
            self._end_dump()

    @property
    def position(self) -> BinlogPosition | None:
        session = self._session
        if session is None or session.file is None:
            return self.start
        return BinlogPosition.of(session.file, session.next_pos)

    @property
    def fde(self):
        return self.decoder.fde

    def __iter__(self) -> Iterator[Event]:
        self._open()
        return self._stream()

    # -- streaming -----------------------------------------------------------------------------------
    def _stream(self) -> Iterator[Event]:
        """The planned stream, resumed after each lost connection (the module docstring)."""
        point = self._point = ResumePoint()
        self._done = None                   # what was yielded last: (file_seq, next pos)
        self._session = None
        attempts = 0
        try:
            while True:
                try:
                    if attempts:
                        self._kill_old()
                    for ev in self._dump(point):
                        attempts = 0
                        yield ev
                    return
                except Lost as lost:
                    self._drop_session()
                    self.resumes.append((point.resume, point.txn is not None, str(lost)))
                    if attempts >= self.options.reconnect_attempts:
                        where = self._where()
                        raise self._err(ServerConnectError, f"connection lost ({lost}) and {attempts} reconnection "
                                        f"attempts failed", **where,
                                        fix="check the server and the network; restart from the last position "
                                            "delivered") from None
                    delay = min(self.options.reconnect_max_delay, self.options.reconnect_delay * (2 ** attempts))
                    if self._backoff(delay * random.uniform(0.5, 1.0)):
                        return
                    attempts += 1
                    self.reconnects += 1
        finally:
            self._drop_session()

    def _where(self) -> dict:
        session = self._session
        if session is None:
            return {"file": None, "log_pos": 0}
        return {"file": session.file, "log_pos": session.next_pos}

    def _waiting(self):
        """The hook a session calls while caught up (None: nobody asks)."""
        on_wait, asked = self.on_wait, self.stop_requested
        if on_wait is None and asked is None:
            return None
        return lambda: bool(on_wait is not None and on_wait()) or bool(asked is not None and asked())

    def _backoff(self, seconds: float) -> bool:
        """Wait ``seconds`` before a reconnection, calling the waiting hooks every quarter second:
        the stream waits for the server as when it has caught up (a pipeline commits what ended, a
        stop request ends the stream now, not after up to ``reconnect_max_delay``); True: it asked to stop."""
        waiting = self._waiting()
        end = time.monotonic() + seconds
        while True:
            if waiting is not None and waiting():
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(left, WAIT_SLICE))

    def _kill_old(self) -> None:
        """``KILL`` the previous dump connection (sql/sql_parse.cc ``sql_kill``), so two dumps with our
        server-id never run at once; unknown thread (1094) means it is gone already."""
        old, self._dump_id = self._dump_id, None
        try:
            bridge.query(self.control, "SELECT 1")
        except SourceError:
            bridge.close(self.control)
            try:
                self.control = self._login.connect()
            except ServerConnectError as e:
                if e.login_refused:
                    raise
                raise Lost(f"cannot reconnect: {e.message}") from None
            # (the address may lead to another server now: a thread id there is another thread)
            self.checks.same_server(self.control, **self._where())
        if old is not None:
            try:
                bridge.query(self.control, f"KILL {int(old)}")
            except SourceError as e:
                if e.code != 1094:
                    raise

    def _open_session(self, point: ResumePoint) -> DumpSession:
        """A new dump session, logged in, checked and dumping: from the resume point, else from the
        GTID start (before its first transaction), else from the planned start."""
        prev = self._session
        self.decoder = self._new_decoder()
        session = self._session = DumpSession(
            self._login, flavor=self.flavor, checksum=self.checksum, follow=self.options.follow,
            decoder=self.decoder, control=self.control, start=self.start, file=prev.file if prev else None,
            next_pos=prev.next_pos if prev else 0, on_rotate=self._entered)
        try:
            try:
                conn = session.connect()
            except ServerConnectError as e:
                if e.login_refused or self.reconnects == 0 and self._done is None:
                    raise
                raise Lost(e.message) from None
            self._dump_id = session.thread_id
            if self.reconnects:
                # (the address may lead to another server now: .checks)
                self.checks.same_server(conn, file=session.file, log_pos=session.next_pos)
            gtid_start = self.start_gtid is not None and point.resume is None
            point.gtid_dump = gtid_start
            session.request(gtid=self.start_gtid if gtid_start else None, at=point.resume)
        except OSError as e:
            raise Lost(str(e)) from None
        return session

    def _entered(self, name: str) -> None:
        if name not in self.files:
            self.files.append(name)

    def _dump(self, point: ResumePoint) -> Iterator[Event]:
        session = self._open_session(point)
        decoder = session.decoder
        payload_events = decoder.payload_events
        stop = self.stop
        stop_key = stop.key if stop is not None else None
        done = self._done
        maps = point.maps
        track = point.track
        for ev, t, seq, pos, size in session.events(stop_key, self._waiting()):
            if done is not None and (seq, pos) < done:
                # read again after a reconnect: decoded for its state, not yielded twice
                if isinstance(ev, TableMapEvent) and ev.table_id in maps:
                    # the map the consumer was given last for this id: the one in force at the
                    # point it stopped (rows re-read before that point are not yielded)
                    decoder.tables.add(maps[ev.table_id])
                if isinstance(ev, TransactionPayloadEvent):
                    payload_events(ev)
                continue
            track(ev, t, session.file, pos, size, session.next_pos)
            if isinstance(ev, TableMapEvent):
                maps[ev.table_id] = ev
            yield ev
            if isinstance(ev, TransactionPayloadEvent):
                yield from payload_events(ev)
            done = self._done = (seq, pos + size)
        if session.ended == "eof" and (stop is None or self._ended_early(session, stop_key)):
            # Following (no BINLOG_DUMP_NON_BLOCK), the server sends EOF only when the dump thread is
            # ended, by a shutdown (MariaDB sql/sql_repl.cc mysql_binlog_send, the killed thread's
            # end) or a KILL: a lost connection. Not following, EOF is the end of the binlog, unless
            # it comes before the end there was at start (the thread ended the same way in the
            # middle of the backlog): lost too, never a short stream.
            raise Lost("the server ended the dump (EOF: a shutdown or a KILL)")

    def _ended_early(self, session: DumpSession, stop_key) -> bool:
        """Not following, an EOF: did it come before the end there was at start? By position, where
        positions are the dump's own; in a GTID dump before its first transaction they are not (the
        sender skips, unsent, what the GTID start has: an EOF at a lower position can be the end),
        and the control session tells instead: a shutdown ends it too."""
        if not self._point.gtid_dump:
            seq = file_seq(session.file) if session.file else -1
            return (seq, session.next_pos) < min(stop_key, self.end.key)
        try:
            bridge.query(self.control, "SELECT 1")
        except (SourceError, OSError):
            return True
        return False

    def _drop_session(self) -> None:
        if self._session is not None:
            self._session.close()

    def _end_dump(self) -> None:
        """Close the dump connection and KILL its thread (it would hold our server-id until its next
        heartbeat fails: .checks ``_check_replica_id``); gone already: ER_NO_SUCH_THREAD, ignored."""
        self._drop_session()
        dump_id, self._dump_id = self._dump_id, None
        if dump_id is not None and self.control is not None:
            try:
                bridge.query(self.control, f"KILL {int(dump_id)}")
            except SourceError:
                pass

    def close(self) -> None:
        self._end_dump()
        if self.control is not None:
            bridge.close(self.control)
            self.control = None


def open_server(uri: ServerUri, options: SourceOptions | None = None, **kw) -> ServerSource:
    if not isinstance(uri, ServerUri):
        raise ConfigError(f"not a server URI: {uri!r}")
    return ServerSource(uri, options, **kw)


__all__ = ["ServerSource", "SourceWarning", "open_server"]
