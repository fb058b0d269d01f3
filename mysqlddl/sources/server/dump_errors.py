"""What the server means when it ends a dump with an ERR packet: each known refusal as a typed error
naming the setting and the fix (MariaDB sql/sql_repl.cc and MySQL sql/rpl_binlog_sender.cc send most
of them as ER_MASTER_FATAL_ERROR_READING_BINLOG, 1236, told apart by their text). The dump session
(:mod:`.session`) calls :func:`dump_error` with itself: its position, the start the stream planned,
and the stream's control connection, where the binlog list is asked."""

from __future__ import annotations

from ...binlog import packets
from ...errors import BinlogPurgedError, GtidPositionError, ReplicaIdConflictError, ServerSettingError, SourceError
from . import pymysql_bridge as bridge


def server_error(uri, cls, message: str, **kw) -> SourceError:
    """A source error of class ``cls`` naming the server (its address: never a password)."""
    return cls(message, server=uri.address, **kw)


def binlogs(conn) -> list[tuple[str, int]]:
    """The server's binlogs, ``[(name, size)]`` (SHOW BINARY LOGS)."""
    return [(str(r[0]), int(r[1])) for r in bridge.query(conn, "SHOW BINARY LOGS")]


def name_list(names) -> str:
    """Binlog names for a message: all of a few, the first and last of many."""
    if len(names) > 6:
        return f"{names[0]} .. {names[-1]}, {len(names)} files"
    return ", ".join(names) or "none"


def dump_error(src, payload) -> SourceError:
    """The error an ERR packet of the dump means, typed, with the setting and the fix (``src``: the
    :class:`~.session.DumpSession` it ended: ``file``/``next_pos`` where it was, ``start`` the planned
    start, ``uri``, ``control`` the stream's control connection, ``error(cls, message, **kw)``)."""
    code, state, msg = packets.parse_err(payload)
    where = dict(file=src.file or (src.start.file if src.start else None),
                 log_pos=src.next_pos or (src.start.pos if src.start else None))
    if code in (1227, 1045, 1142):
        return src.error(ServerSettingError, f"the server refused the dump: {msg}", code=code,
                        setting="REPLICATION SLAVE privilege", fix="GRANT REPLICATION SLAVE ON *.* TO the user")
    low = msg.lower()
    if code == 4052 or "same server_uuid" in low or "same server_id" in low or "same server-id" in low:
        # MariaDB ER_SLAVE_SAME_ID (4052), MySQL in a 1236: a dump with our server-id took over
        return src.error(ReplicaIdConflictError, f"{msg} (server-id {src.uri.server_id}): the server "
                        "ended this stream", code=code, setting="server-id",
                        fix="give each stream its own ?server-id=", **where)
    if code != 1236:
        return src.error(SourceError, msg, code=code, **where)
    try:
        names = [n for n, _ in binlogs(src.control)]
    except SourceError:
        names = []
    have = f"the server has: {name_list(names)}"
    if "could not find first log file" in low:
        return src.error(BinlogPurgedError, f"the start binlog is gone (purged); {have}", code=code,
                        files=tuple(names), setting="--start-position",
                        fix="start at a binlog the server still has, or at a GTID", **where)
    if "could not find gtid state" in low or "purged" in low:
        return src.error(BinlogPurgedError, f"the binlogs holding the start GTID were purged ({msg}); {have}",
                        code=code, files=tuple(names), setting="--start-gtid",
                        fix="take a new snapshot and start from its GTID position", **where)
    if "not in the master's binlog" in low or "is not in the" in low or "gtid" in low and "strict" in low:
        return src.error(GtidPositionError, f"the start GTID is not in the server's binlog ({msg}); {have}",
                        code=code, setting="--start-gtid", fix="give GTIDs the server has written", **where)
    if "bogus data" in low or "truncated in the middle" in low or "position" in low and (
            "file size" in low or "impossible" in low or "first event" in low):
        return src.error(SourceError, f"the start position is not the start of an event in that binlog "
                        f"({msg}); {have}", code=code, setting="--start-position",
                        fix="start at an event boundary (SHOW BINLOG EVENTS lists them) or at 4", **where)
    if "max_allowed_packet" in low:
        # (#30 item 14) a start inside an event reads as this too: the bytes there, taken for an
        # event header, give a length over max_allowed_packet (sql_repl.cc, LOG_READ_TOO_LARGE)
        inside = inside_event(src, where["file"], where["log_pos"])
        if inside:
            return src.error(SourceError, f"the start position is not the start of an event in that binlog "
                             f"(the server read a length there past max_allowed_packet: {msg}); {have}",
                             code=code, setting="--start-position",
                             fix="start at an event boundary (SHOW BINLOG EVENTS lists them) or at 4", **where)
        maybe = "" if inside is False else " (or the start position is not the start of an event)"
        return src.error(ServerSettingError, f"an event is larger than the server's max_allowed_packet{maybe} "
                        f"({msg})", code=code, setting="max_allowed_packet",
                        fix="SET GLOBAL max_allowed_packet to at least the largest event", **where)
    return src.error(SourceError, f"the server stopped the dump: {msg}; {have}", code=code, **where)


def inside_event(src, file: str | None, pos: int | None) -> bool | None:
    """Whether the dump failed at the start position asked for and that position is not where
    an event starts (None: cannot tell). The server's listing tells: SHOW BINLOG EVENTS FROM a
    position inside an event fails with ER_ERROR_WHEN_EXECUTING_COMMAND (1220, "Wrong offset")."""
    if src.start is None or file != src.start.file or pos != src.start.pos:
        return False
    name = file.replace("\\", "\\\\").replace("'", "''")
    try:
        bridge.query(src.control, f"SHOW BINLOG EVENTS IN '{name}' FROM {int(pos)} LIMIT 1")
    except SourceError as e:
        return True if e.code == 1220 else None
    return False

