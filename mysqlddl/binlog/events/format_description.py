"""FORMAT_DESCRIPTION_EVENT (15) and the pre-v4 START_EVENT_V3 (1).

FDE body (libs/mysql/binlog/event/control_events.h ``Format_description_event``; MySQL internals
manual, "FORMAT_DESCRIPTION_EVENT")::

    0      2                52        56     57                      57+n   +1     +4
    +------+-----------------+---------+------+-----------------------+------+------+
    |binlog| server_version  | created |header| post_header_len[n]    | alg  | crc  |
    | ver  | 50, NUL padded  |  epoch  | len  | one byte per type 1..n| (ck) | (ck) |
    +------+-----------------+---------+------+-----------------------+------+------+

The last five bytes exist only when the server version is at least the checksum split
(MySQL 5.6.1, MariaDB 5.3.0: ``checksum_version_split`` in control_events.h / sql/log_event.cc);
they are there even when the algorithm is OFF (the CRC bytes are then just room).

START_EVENT_V3 (binlog v1 for 3.23, v3 for 4.0-4.1) has only the first three fields; the header
and post-header lengths are implied by the version (``Format_description_event`` constructor for
binlog_ver 1/3, sql/log_event.cc of 5.x).
"""

from __future__ import annotations

import dataclasses
import re

from ...errors import CorruptEventError
from .types import CHECKSUM_CRC32, CHECKSUM_OFF, CHECKSUM_UNDEF, V1_HEADER_LEN, V4_HEADER_LEN, Event, EventType

ST_SERVER_VER_LEN = 50
MYSQL_CHECKSUM_SPLIT = (5, 6, 1)
MARIADB_CHECKSUM_SPLIT = (5, 3, 0)


def version_tuple(server_version: str) -> tuple[int, int, int]:
    """``do_server_version_split``: the leading ``X.Y.Z`` digits (missing parts are 0)."""
    m = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", server_version)
    if not m:
        return (0, 0, 0)
    return tuple(int(g) if g else 0 for g in m.groups())  # type: ignore[return-value]


def has_checksum_descriptor(server_version: str) -> bool:
    split = MARIADB_CHECKSUM_SPLIT if "mariadb" in server_version.lower() else MYSQL_CHECKSUM_SPLIT
    return version_tuple(server_version) >= split


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class FormatDescriptionEvent(Event):
    """``checksum_alg`` is 0 (OFF), 1 (CRC32) or None when the server predates checksums;
    ``checksum`` is the FDE's own stored CRC (None unless CRC32)."""

    binlog_version: int
    server_version: str
    create_timestamp: int
    common_header_len: int
    post_header_lengths: tuple[int, ...]
    checksum_alg: int | None = None
    checksum: int | None = None

    @property
    def is_mariadb(self) -> bool:
        return "mariadb" in self.server_version.lower()

    @property
    def version(self) -> tuple[int, int, int]:
        return version_tuple(self.server_version)

    @property
    def created_at(self) -> int:
        """When the file was created: the body's ``created`` (set only in the first file after a
        server start), else the header timestamp (when the FDE was written, i.e. file creation)."""
        return self.create_timestamp or self.header.timestamp

    @property
    def uses_crc32(self) -> bool:
        return self.checksum_alg == CHECKSUM_CRC32

    def post_header_len(self, type_code: int) -> int:
        """Post-header length of an event type (0 for types this FDE does not list)."""
        if 1 <= type_code <= len(self.post_header_lengths):
            return self.post_header_lengths[type_code - 1]
        return 0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class StartV3Event(FormatDescriptionEvent):
    """START_EVENT_V3 of binlog v1/v3 files, presented as the format description in force."""


def decode_format_description(header, cur, ctx) -> FormatDescriptionEvent:
    binlog_version = cur.u16("binlog version")
    server_version = cur.take(ST_SERVER_VER_LEN, "server version").split(b"\0", 1)[0]
    server_version = server_version.decode("ascii", "replace")
    created = cur.u32("create timestamp")
    common_header_len = cur.u8("common header length")
    if common_header_len < V4_HEADER_LEN:
        raise cur.corrupt(f"FDE common header length {common_header_len} < {V4_HEADER_LEN}",
                          cur.pos - 1)
    alg = crc = None
    if has_checksum_descriptor(server_version):
        n = cur.remaining - 5
        if n < 0:
            raise cur.corrupt("FDE too short for its checksum descriptor")
        post = tuple(cur.take(n, "post-header lengths"))
        alg = cur.u8("checksum algorithm")
        crc = cur.u32("checksum")
        if alg not in (CHECKSUM_OFF, CHECKSUM_CRC32, CHECKSUM_UNDEF):
            raise CorruptEventError(f"unknown checksum algorithm {alg} in the FDE",
                                    offset=cur.abs(cur.pos - 5))
        if alg == CHECKSUM_UNDEF:
            alg = CHECKSUM_OFF
        if alg != CHECKSUM_CRC32:
            crc = None
    else:
        post = tuple(cur.rest())
    cur.expect_end("FORMAT_DESCRIPTION")
    return FormatDescriptionEvent(**ctx.base(header), binlog_version=binlog_version,
                                  server_version=server_version, create_timestamp=created,
                                  common_header_len=common_header_len, post_header_lengths=post,
                                  checksum_alg=alg, checksum=crc)


def v3_post_header_lengths(binlog_version: int) -> tuple[int, ...]:
    """Implied post-header lengths for binlog v1/v3 (types 1..14), as the 5.x server sets them:
    START_V3_HEADER_LEN 56, QUERY_HEADER_MINIMAL_LEN 11, ROTATE_HEADER_LEN 8 (0 in v1),
    LOAD_HEADER_LEN 18, CREATE_FILE/APPEND_BLOCK/EXEC_LOAD/DELETE_FILE 4, NEW_LOAD as LOAD."""
    rotate = 0 if binlog_version == 1 else 8
    #       START QUERY STOP ROTATE INTVAR LOAD SLAVE CREATE APPEND EXEC DELETE NEWLOAD RAND USERVAR
    return (56, 11, 0, rotate, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0)


def decode_start_v3(header, cur, ctx) -> StartV3Event:
    binlog_version = cur.u16("binlog version")
    server_version = cur.take(ST_SERVER_VER_LEN, "server version").split(b"\0", 1)[0]
    created = cur.u32("create timestamp")
    if binlog_version not in (1, 3):
        # A v4 file may carry a START_V3 only when written by a 4.x master into a relay log;
        # we describe it but it does not change the format in force.
        pass
    cur.expect_end("START_EVENT_V3")
    return StartV3Event(**ctx.base(header), binlog_version=binlog_version,
                        server_version=server_version.decode("ascii", "replace"),
                        create_timestamp=created,
                        common_header_len=V1_HEADER_LEN if binlog_version == 1 else V4_HEADER_LEN,
                        post_header_lengths=v3_post_header_lengths(binlog_version),
                        checksum_alg=None, checksum=None)


DECODERS = {EventType.FORMAT_DESCRIPTION: decode_format_description,
            EventType.START_V3: decode_start_v3}
