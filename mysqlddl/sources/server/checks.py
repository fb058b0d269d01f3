"""The live source's checks of the server it logged into (:class:`ServerChecks`, owned by the
stream, :class:`~mysqlddl.sources.server.stream.ServerSource`, and given what it reads: the URI,
the source options, the user; each check takes the connection it asks): the settings, the
identity a stored position was taken on, the privileges and the other replicas' ids at start-up
(:meth:`ServerChecks.inspect`, which returns what it read as :class:`ServerFacts`), and after a
reconnect that the address still leads to the same server (:meth:`ServerChecks.same_server`).
Every refusal is a typed error naming the setting and the fix."""

from __future__ import annotations

import dataclasses
import time
import warnings

from ...errors import ReplicaIdConflictError, ServerIdentityError, ServerSettingError, SourceError
from ..options import SourceOptions
from ..uri import ServerUri
from . import pymysql_bridge as bridge
from .dump_errors import server_error


class SourceWarning(UserWarning):
    """A check the source could not make (it goes on without it)."""


@dataclasses.dataclass(frozen=True, slots=True)
class ServerFacts:
    """What the start-up checks read: ``settings`` (the variables, lower-case names), ``version``,
    ``flavor`` (``mysql``/``mariadb``), ``server_uuid`` (None on MariaDB), ``checksum`` (the
    binlog has CRC32s)."""

    settings: dict
    version: str
    flavor: str
    server_uuid: str | None
    checksum: bool

    @property
    def server_id(self) -> int:
        return int(self.settings.get("server_id", 0) or 0)


class ServerChecks:
    """The checks (see the module docstring). ``uri``: the ServerUri (its ``server_id``, heartbeat,
    ``allow_server_id_takeover``); ``options``: the SourceOptions (``allow_minimal``, the expected
    identity, ``start_gtid``); ``user``: the account logged in as (for the messages)."""

    def __init__(self, uri: ServerUri, options: SourceOptions, user: str | None):
        self.uri = uri
        self.options = options
        self.user = user
        #: what :meth:`inspect` read (None before)
        self.facts: ServerFacts | None = None

    def _err(self, cls, message: str, **kw):
        return server_error(self.uri, cls, message, **kw)

    def inspect(self, conn) -> ServerFacts:
        """The start-up checks on ``conn``; what they read (also kept as :attr:`facts`)."""
        names = ("version", "log_bin", "binlog_format", "binlog_row_image", "binlog_checksum", "server_id",
                 "server_uuid", "gtid_mode", "gtid_executed", "gtid_purged", "gtid_binlog_pos", "max_allowed_packet")
        v = bridge.query_dict(
            conn, "SHOW GLOBAL VARIABLES WHERE Variable_name IN (" + ",".join(f"'{n}'" for n in names) + ")")
        version = str(v.get("version", bridge.server_version(conn)))
        if str(v.get("log_bin", "OFF")).upper() not in ("ON", "1"):
            raise self._err(ServerSettingError, "binary logging is off: there is nothing to stream", setting="log_bin",
                            fix="start the server with --log-bin and a server_id")
        fmt = str(v.get("binlog_format", "")).upper()
        if fmt != "ROW":
            raise self._err(ServerSettingError, f"binlog_format is {fmt or 'unknown'}, not ROW: statement-based "
                            "changes carry no row images", setting="binlog_format",
                            fix="SET GLOBAL binlog_format=ROW and set it in the server's configuration "
                                "(sessions started before keep their format)")
        image = str(v.get("binlog_row_image", "FULL")).upper()
        if image != "FULL" and not (self.options.allow_minimal and image in ("MINIMAL", "NOBLOB")):
            raise self._err(ServerSettingError, f"binlog_row_image is {image}, not FULL: rows would lack columns",
                            setting="binlog_row_image",
                            fix="SET GLOBAL binlog_row_image=FULL, or allow partial images (--allow-minimal: "
                                "the events say which columns are present)")
        facts = ServerFacts(settings=v, version=version,
                            flavor="mariadb" if "mariadb" in version.lower() else "mysql",
                            server_uuid=v.get("server_uuid"),
                            checksum=str(v.get("binlog_checksum", "NONE")).upper() == "CRC32")
        if facts.server_id == self.uri.server_id:
            raise self._err(ReplicaIdConflictError, f"server-id {self.uri.server_id} is the server's own server_id",
                            setting="server-id", fix="choose another ?server-id= in the URI")
        self._check_identity(v, facts.server_uuid)
        self._check_privileges(conn)
        self._check_replica_id(conn)
        self.facts = facts
        return facts

    def _check_identity(self, v: dict, server_uuid: str | None) -> None:
        """A stored file position names a place in one server's binlogs: on another server (a
        failover) the same file name and offset are other events. The identity is ``server_uuid``
        (MySQL) or ``server_id`` (MariaDB has no uuid); a GTID start is not checked, it survives."""
        o = self.options
        if o.start_gtid:
            return
        fix = "restart from a GTID position (--start-gtid), which survives a failover"
        if o.expected_server_uuid and server_uuid \
                and o.expected_server_uuid.lower() != str(server_uuid).lower():
            raise self._err(ServerIdentityError, f"the server's server_uuid is {server_uuid}, the stored "
                            f"position was taken on {o.expected_server_uuid}: its file positions "
                            "mean nothing here (a failover?)", setting="server_uuid", fix=fix)
        sid = int(v.get("server_id", 0) or 0)
        if o.expected_server_id is not None and sid != int(o.expected_server_id):
            raise self._err(ServerIdentityError, f"the server's server_id is {sid}, the stored position was "
                            f"taken on server_id {o.expected_server_id}: its file positions mean nothing here "
                            "(a failover?)", setting="server_id", fix=fix)

    def _check_privileges(self, conn) -> None:
        """REPLICATION SLAVE (dump) and REPLICATION CLIENT (list the binlogs; MariaDB 10.5+: BINLOG
        MONITOR) on ``*.*``, from SHOW GRANTS (MySQL Reference Manual "Privileges Provided by MySQL";
        MariaDB KB "GRANT"). A role may grant them too: with a role active the check is left to the server."""
        grants = " ".join(str(r[0]) for r in bridge.query(conn, "SHOW GRANTS")).upper()
        try:
            role = bridge.query(conn, "SELECT CURRENT_ROLE()")[0][0]
        except SourceError:
            role = None
        if role not in (None, "NONE", ""):
            return
        globals_ = " ".join(g for g in grants.split("GRANT ") if " ON *.* " in g)
        everything = "ALL PRIVILEGES" in globals_
        missing = []
        if not everything and not any(p in globals_ for p in ("REPLICATION SLAVE", "REPLICATION REPLICA")):
            missing.append("REPLICATION SLAVE")
        if not everything and not any(p in globals_ for p in ("REPLICATION CLIENT", "BINLOG MONITOR", "SUPER")):
            missing.append("REPLICATION CLIENT")
        if missing:
            raise self._err(ServerSettingError, f"user {self.user!r} lacks {' and '.join(missing)}",
                            setting=" and ".join(missing) + " privilege",
                            fix=f"GRANT {', '.join(missing)} ON *.* TO the user (as an administrator)")

    def _check_replica_id(self, conn) -> None:
        """No other replica registered with our server-id: the server ends a dump thread with the
        server-id of a new dump (MariaDB sql/sql_parse.cc COM_BINLOG_DUMP: sql_repl.cc ``kill_zombie_dump_threads``;
        the ended one gets error 4052), so a second stream would silently kick out a running one.
        A registration that goes away within two heartbeat periods was a dead run's (one killed or
        crashed: the server ends its dump thread only when a heartbeat to the closed socket fails,
        the first write being accepted and the second refused; measured on MariaDB 10.11: 1.6 s at
        heartbeat=1, 9.4 s at 5), so a restart right after a crash waits for it rather than failing;
        a live one is refused, and so is a start whose check cannot be made (:meth:`_unchecked`)."""
        deadline = time.monotonic() + 2 * self.uri.heartbeat + 2
        while True:
            row = self._replica_with_our_id(conn)
            if row is None:
                return
            if time.monotonic() >= deadline or isinstance(row, str) and self.uri.allow_server_id_takeover:
                break
            time.sleep(0.2)
        if isinstance(row, str):
            self._unchecked(row)
            return
        raise self._err(ReplicaIdConflictError, f"another replica is registered with server-id "
                        f"{self.uri.server_id} (host {row[1] or '?'}, port {row[2]}): the server would "
                        "drop one of the two streams each time the other connects", setting="server-id",
                        fix="choose another ?server-id=; if it is an old run of this tool, KILL its "
                            "'Binlog Dump' connection (SHOW PROCESSLIST)")

    def _replica_with_our_id(self, conn):
        """The SHOW REPLICAS / SHOW SLAVE HOSTS row with our server-id, or None; when the account may
        not list the replicas, None if no replica at all is connected, else why it cannot be told (a str)."""
        try:
            try:
                hosts = bridge.query(conn, "SHOW REPLICAS")       # MySQL 8.0.22+ (8.4 has only this)
            except SourceError as e:
                if e.code not in (1064, 1149):                          # ER_PARSE_ERROR: MariaDB, older MySQL
                    raise
                hosts = bridge.query(conn, "SHOW SLAVE HOSTS")
        except SourceError as e:
            if e.code not in (1227, 1142):
                raise
            # ER_SPECIFIC_ACCESS_DENIED_ERROR: MariaDB 10.5.2+ wants REPLICATION MASTER ADMIN for it
            # (MySQL: REPLICATION SLAVE, which the dump needs anyway)
            return self._without_the_list(conn, e.message)
        return next((row for row in hosts if int(row[0]) == self.uri.server_id), None)

    def _without_the_list(self, conn, refused: str):
        """The check an account that may not list the replicas can make: how many dump threads run
        (MariaDB's ``Slaves_connected`` status, MariaDB KB "Replication and Binary Log Status
        Variables": readable without any privilege, 1 while one of our streams runs, measured on
        10.11). None: none does, so none can clash; else why the clash cannot be ruled out."""
        why = f"SHOW SLAVE HOSTS was refused ({refused})"
        try:
            status = bridge.query_dict(conn, "SHOW GLOBAL STATUS LIKE 'Slaves_connected'")
        except SourceError as e:
            status = {}
            why += f", and so was SHOW GLOBAL STATUS ({e.message})"
        if "slaves_connected" not in status:
            return why + ", and the server does not say how many replicas are connected (Slaves_connected)"
        connected = int(status["slaves_connected"] or 0)
        if connected == 0:
            return None
        why += (f", and {connected} replica{'s are' if connected > 1 else ' is'} connected (Slaves_connected) "
                "with server-ids this account cannot see")
        try:
            # the account's own threads are listed without the PROCESS privilege (MariaDB KB "SHOW PROCESSLIST")
            own = [f"{r[0]} from {r[2]}" for r in bridge.query(conn, "SHOW PROCESSLIST")
                   if str(r[4]).startswith("Binlog Dump")]
        except SourceError:
            own = []
        if own:
            why += f"; this account's 'Binlog Dump' threads: {', '.join(own)}"
        return why

    def _unchecked(self, why: str) -> None:
        """The server-id check could not be made: refused, unless the URI opts in
        (``allow-server-id-takeover=yes``), which goes on with a SourceWarning saying what was not checked."""
        sid = self.uri.server_id
        if self.uri.allow_server_id_takeover:
            warnings.warn(f"{self.uri.address}: server-id {sid} is not checked for a clash: {why} "
                          "(allow-server-id-takeover=yes: a stream running with it would be ended)",
                          SourceWarning, stacklevel=7)
            return
        raise self._err(ReplicaIdConflictError, f"cannot check that no other replica uses server-id {sid}: {why}; "
                        "started, this stream would make the server end one running with that server-id "
                        "(error 4052)", setting="server-id",
                        fix="GRANT REPLICATION MASTER ADMIN ON *.* TO the user (MariaDB 10.5.2+: SHOW SLAVE "
                            "HOSTS needs it), or, when no other stream uses this server-id, add "
                            "&allow-server-id-takeover=yes to the URI")

    def same_server(self, conn, *, file: str | None = None, log_pos: int | None = None) -> None:
        """After a reconnect: the address may lead to another server now (a failover behind a moved
        address: a virtual IP, a DNS name, a proxy). Its binlogs are numbered its own way, so the
        dump must not resume there at this server's file position: other events, or none, would
        come. The identity is ``server_uuid`` (MySQL) and ``server_id`` (MariaDB has no uuid), as
        at start-up (:meth:`_check_identity`). ``file``/``log_pos``: where the stream is, for the error."""
        v = bridge.query_dict(conn, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('server_id', 'server_uuid')")
        was_id, now_id = self.facts.server_id, int(v.get("server_id", 0) or 0)
        was_uuid, now_uuid = str(self.facts.server_uuid or "").lower(), str(v.get("server_uuid") or "").lower()
        if (was_id, was_uuid) == (now_id, now_uuid):
            return
        what = "server_uuid" if was_uuid != now_uuid else "server_id"
        was, now = (was_uuid, now_uuid) if what == "server_uuid" else (was_id, now_id)
        raise self._err(ServerIdentityError, f"reconnected to {self.uri.address}, which is now another server "
                        f"({what} {now}, not {was} as when the stream started): a failover behind the address; "
                        "the stream's file positions mean nothing there", setting=what,
                        file=file, log_pos=log_pos,
                        fix="go on from the last delivered GTID set (mysqlddl run follows it: [source] "
                            "on_identity_change = \"follow-gtid\")")
