r"""The replica's commands, built by us (PyMySQL only logs in: :mod:`.pymysql_bridge`).

Every layout below is the one the server parses; each cites the MySQL internals manual page and
the server function that reads (or, for the replica side, writes) it.

COM_REGISTER_SLAVE (MySQL internals manual "COM_REGISTER_SLAVE"; written by the replica in
sql/rpl_replica.cc ``register_replica_on_source``, read by sql/rpl_source.cc
``register_replica`` / MariaDB sql/repl_failsafe.cc ``register_slave``)::

    0x15 | server_id: 4 | hostname_len: 1 | hostname | user_len: 1 | user | password_len: 1 | password
         | port: 2 | replication_rank: 4 (ignored) | master_id: 4 (ignored, 0)

COM_BINLOG_DUMP (manual "COM_BINLOG_DUMP"; sql/rpl_replica.cc ``request_dump``; read by
sql/rpl_source.cc ``com_binlog_dump`` / MariaDB sql/sql_parse.cc ``COM_BINLOG_DUMP`` case)::

    0x12 | binlog_pos: 4 | flags: 2 | server_id: 4 | binlog_filename: rest of the packet

COM_BINLOG_DUMP_GTID (manual "COM_BINLOG_DUMP_GTID"; sql/rpl_replica.cc ``request_dump``; read by
sql/rpl_source.cc ``com_binlog_dump_gtid``; MySQL only)::

    0x1e | flags: 2 | server_id: 4 | name_len: 4 | binlog_filename: name_len | binlog_pos: 8
         | [flags & BINLOG_THROUGH_GTID: data_len: 4 | gtid_set: data_len, Gtid_set::encode]

``Gtid_set::encode`` (sql/rpl_gtid_set.cc; the set the replica has, so the source sends what is
missing; read back by ``Gtid_set::add_gtid_encoding``)::

    head: 8 | per tsid, in order: uuid: 16 | [tagged: tag] | n_intervals: 8
            | per interval: start: 8 | end: 8 (exclusive)

``head`` (``encode_nsids_format``): untagged format (``mysql::gtid::Gtid_format::untagged`` = 0,
every set before MySQL 8.3, and any set without a tag) is ``n_sids`` itself; tagged format (1, as
soon as one tsid of the set has a tag) is ``1 << 56 | n_sids << 8 | 1``. In the tagged format every
tsid carries its tag, empty for an untagged one (``Tsid::encode_tsid`` -> ``Tag::encode_tag``:
``Primitive_type_codec<std::string>::write_bytes<tag_max_length>``, a mysql::serialization varlen
length -- one byte ``len << 1`` for a tag's at most 32 bytes -- then the bytes). Tsids go in
``Tsid::operator<`` order: uuid bytes, then tag text (the empty tag first).

All integers little-endian.
"""

from __future__ import annotations

import re
import struct
import uuid as _uuid

from ...errors import SourceUriError

COM_BINLOG_DUMP = 0x12          # include/my_command.h enum_server_command
COM_REGISTER_SLAVE = 0x15
COM_BINLOG_DUMP_GTID = 0x1E

# COM_BINLOG_DUMP(_GTID) flags: libs/mysql/binlog/event/... / sql/rpl_source.cc
BINLOG_DUMP_NON_BLOCK = 0x01    # send EOF at the end instead of waiting (mysqlbinlog --stop-never off)
BINLOG_THROUGH_POSITION = 0x02  # COM_BINLOG_DUMP_GTID: start at file/pos
BINLOG_THROUGH_GTID = 0x04      # COM_BINLOG_DUMP_GTID: a GTID set follows
# MariaDB sql/log_event.h: ask for ANNOTATE_ROWS events (without it the server leaves them out, and
# the stream would differ from the files, which have them)
BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02

#: MariaDB sql/log_event.h MARIA_SLAVE_CAPABILITY_GTID: a replica that understands GTID events (and
#: so gets the events as they are in the binlog, not rewritten into BEGIN queries for old replicas).
MARIA_SLAVE_CAPABILITY_GTID = 4

#: Heartbeat events: HEARTBEAT_LOG_EVENT (27) and MySQL 8.0.26+ HEARTBEAT_LOG_EVENT_V2 (41)
#: (libs/mysql/binlog/event/binlog_event.h Log_event_type). Neither is in a binlog file.
HEARTBEAT_TYPES = (27, 41)
ROTATE_EVENT = 4
#: sql/log_event.h LOG_EVENT_ARTIFICIAL_F: the event was made up by the sender (a fake ROTATE
#: naming the file, a fake GTID_LIST) and is not in the file.
LOG_EVENT_ARTIFICIAL_F = 0x20


def _short(text: str, what: str) -> bytes:
    b = text.encode("utf-8")
    if len(b) > 255:
        raise SourceUriError(f"{what} longer than 255 bytes cannot be registered")
    return bytes([len(b)]) + b


def register_slave(server_id: int, *, host: str = "", user: str = "", password: str = "", port: int = 0) -> bytes:
    """The COM_REGISTER_SLAVE payload: what SHOW SLAVE HOSTS / SHOW REPLICAS lists. We report no
    password (the field is shown to anyone with REPLICATION CLIENT in old servers)."""
    return (bytes([COM_REGISTER_SLAVE]) + struct.pack("<I", server_id) + _short(host, "report host")
            + _short(user, "report user") + _short(password, "report password")
            + struct.pack("<HII", port, 0, 0))


def binlog_dump(server_id: int, file: str, pos: int, *, flags: int = 0) -> bytes:
    """The COM_BINLOG_DUMP payload. ``pos`` is 4 bytes on the wire (a start beyond 4 GiB needs
    COM_BINLOG_DUMP_GTID's 8-byte position)."""
    if not 0 <= pos <= 0xFFFFFFFF:
        raise SourceUriError(f"start position {pos} does not fit COM_BINLOG_DUMP's 4 bytes")
    return bytes([COM_BINLOG_DUMP]) + struct.pack("<IHI", pos, flags, server_id) + file.encode("utf-8")


def binlog_dump_gtid(server_id: int, gtid_set: bytes | None, *, file: str = "", pos: int = 4, flags: int = 0) -> bytes:
    """The COM_BINLOG_DUMP_GTID payload; ``gtid_set`` is :func:`encode_gtid_set`'s output (None:
    start at file/pos, BINLOG_THROUGH_POSITION)."""
    name = file.encode("utf-8")
    flags |= BINLOG_THROUGH_GTID if gtid_set is not None else BINLOG_THROUGH_POSITION
    out = (bytes([COM_BINLOG_DUMP_GTID]) + struct.pack("<HII", flags, server_id, len(name)) + name
           + struct.pack("<Q", pos))
    if gtid_set is not None:
        out += struct.pack("<I", len(gtid_set)) + gtid_set
    return out


# ------------------------------------------------------------------------------------------- GTID sets

_UUID = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_INTERVAL = re.compile(r"(\d+)(?:-(\d+))?")
#: libs/mysql/gtid/tag.cpp ``Tag::is_character_valid``: a letter or '_' first, then letters, digits,
#: '_'; at most ``tag_max_length`` (32, libs/mysql/gtid/tag.h) characters; stored lower-cased.
_TAG = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_MARIADB_ITEM = re.compile(r"(\d+)-(\d+)-(\d+)")

#: sql/rpl_gtid.h ``GNO_END`` = INT64_MAX: one past the largest GNO (the exclusive end on the wire).
GNO_END = (1 << 63) - 1
#: ``mysql::gtid::Gtid_format`` (libs/mysql/gtid/gtid_format.h), the top byte of the set's head.
GTID_FORMAT_UNTAGGED = 0
GTID_FORMAT_TAGGED = 1


def _tsid_key(sid: str, tag: str) -> str:
    """The dict key of a tsid: ``uuid`` untagged, ``uuid:tag`` tagged (the GTID text's own form)."""
    return f"{sid}:{tag}" if tag else sid


def parse_mysql_gtid_set(text: str) -> dict[str, list[tuple[int, int]]]:
    """``uuid:1-5:7,uuid2:3`` -> {uuid (lower, dashed): [(1, 5), (7, 7)], ...}: intervals sorted and
    merged, inclusive. MySQL 8.3+ tags (``uuid:tag:1-5``, ``uuid:1-3:tag:1-5``; MySQL 8.4 manual
    "GTID Format and Storage"): a tag names the tsid of the intervals after it, the key is then
    ``uuid:tag`` (tag lower-cased, as ``Tag::replace`` stores it). Stricter than the server's
    ``Gtid_set::add_gtid_text``, which takes a uuid or a tag without intervals, and an interval
    ``5-1``, as adding nothing: in a start position those are typing mistakes."""
    out: dict[str, list[tuple[int, int]]] = {}
    for item in filter(None, (x.strip() for x in text.replace("\n", "").split(","))):
        head, *parts = (p.strip() for p in item.split(":"))
        if not _UUID.fullmatch(head) or not parts:
            raise SourceUriError(f"not a MySQL GTID set item (uuid[:tag]:N[-M][:...]): {item!r}",
                                 setting="--start-gtid")
        sid = str(_uuid.UUID(head))
        key, pending_tag = sid, None
        for part in parts:
            iv = _INTERVAL.fullmatch(part)
            if iv is None:
                if not _TAG.fullmatch(part):
                    raise SourceUriError(f"not a GTID interval nor a tag (a letter or '_', then letters, digits, "
                                         f"'_', at most 32): {part!r} in {item!r}", setting="--start-gtid")
                if pending_tag is not None:
                    raise SourceUriError(f"tag {pending_tag!r} without an interval in {item!r}",
                                         setting="--start-gtid")
                pending_tag = part.lower()
                key = _tsid_key(sid, pending_tag)
                continue
            lo_n, hi_n = int(iv.group(1)), int(iv.group(2) or iv.group(1))
            if lo_n < 1 or hi_n < lo_n or hi_n >= GNO_END:
                raise SourceUriError(f"empty or invalid GTID interval {part!r} in {item!r}", setting="--start-gtid")
            out.setdefault(key, []).append((lo_n, hi_n))
            pending_tag = None
        if pending_tag is not None:
            raise SourceUriError(f"tag {pending_tag!r} without an interval in {item!r}", setting="--start-gtid")
    for sid, ivs in out.items():
        ivs.sort()
        merged = [ivs[0]]
        for lo, hi in ivs[1:]:
            if lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        out[sid] = merged
    return out


def encode_gtid_set(gtids: dict[str, list[tuple[int, int]]]) -> bytes:
    """``Gtid_set::encode`` (sql/rpl_gtid_set.cc, see the module docstring): the untagged format
    unless a key has a tag (``Gtid_set::analyze_encoding_format``), tsids in ``Tsid::operator<``
    order, end exclusive (``Gtid_set::Interval::end`` is one past the last GNO)."""
    tsids = []
    for key, ivs in gtids.items():
        sid, _, tag = key.partition(":")
        tsids.append((_uuid.UUID(sid).bytes, tag.encode("ascii"), ivs))
    tsids.sort(key=lambda t: (t[0], t[1]))
    tagged = any(tag for _, tag, _ in tsids)
    n = len(tsids)
    if tagged:
        head = GTID_FORMAT_TAGGED << 56 | n << 8 | GTID_FORMAT_TAGGED
    else:
        head = n
    parts = [struct.pack("<Q", head)]
    for sid, tag, ivs in tsids:
        parts.append(sid)
        if tagged:
            # varlen length (one byte, len << 1: a tag has at most 32 bytes), then the bytes
            parts.append(bytes([len(tag) << 1]) + tag)
        parts.append(struct.pack("<Q", len(ivs)))
        for lo, hi in ivs:
            parts.append(struct.pack("<QQ", lo, hi + 1))
    return b"".join(parts)


def parse_mariadb_gtid_state(text: str) -> dict[int, tuple[int, int]]:
    """``0-1-100,1-2-5`` -> {domain: (server_id, seq_no)}: one GTID per domain, what
    ``@slave_connect_state`` takes (MariaDB KB "Global Transaction ID": the replica's position is
    the last GTID applied in each replication domain)."""
    out: dict[int, tuple[int, int]] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        m = _MARIADB_ITEM.fullmatch(item)
        if not m:
            raise SourceUriError(f"not a MariaDB GTID (domain-server-seq): {item!r}", setting="--start-gtid")
        domain = int(m.group(1))
        if domain in out:
            raise SourceUriError(f"two GTIDs for replication domain {domain} in {text!r} (one per domain)",
                                 setting="--start-gtid")
        out[domain] = (int(m.group(2)), int(m.group(3)))
    return out


def format_mariadb_gtid_state(state: dict[int, tuple[int, int]]) -> str:
    return ",".join(f"{d}-{s}-{n}" for d, (s, n) in sorted(state.items()))


def mysql_gtid_contains(outer: dict[str, list[tuple[int, int]]], inner: dict[str, list[tuple[int, int]]]) -> bool:
    """Whether every GTID of ``inner`` is in ``outer`` (both as :func:`parse_mysql_gtid_set` gives)."""
    for sid, ivs in inner.items():
        have = outer.get(sid, [])
        for lo, hi in ivs:
            if not any(a <= lo and hi <= b for a, b in have):
                return False
    return True


__all__ = ["BINLOG_DUMP_NON_BLOCK", "BINLOG_SEND_ANNOTATE_ROWS_EVENT", "BINLOG_THROUGH_GTID",
           "BINLOG_THROUGH_POSITION", "COM_BINLOG_DUMP", "COM_BINLOG_DUMP_GTID", "COM_REGISTER_SLAVE",
           "GTID_FORMAT_TAGGED", "GTID_FORMAT_UNTAGGED", "HEARTBEAT_TYPES", "LOG_EVENT_ARTIFICIAL_F",
           "MARIA_SLAVE_CAPABILITY_GTID", "ROTATE_EVENT",
           "binlog_dump", "binlog_dump_gtid", "encode_gtid_set", "format_mariadb_gtid_state",
           "mysql_gtid_contains", "parse_mariadb_gtid_state", "parse_mysql_gtid_set", "register_slave"]
