"""MariaDB-only events: ANNOTATE_ROWS (160), BINLOG_CHECKPOINT (161), GTID (162), GTID_LIST (163),
START_ENCRYPTION (164). Layouts from MariaDB sql/log_event.cc (``Gtid_log_event``,
``Gtid_list_log_event``, ``Binlog_checkpoint_log_event``, ``Start_encryption_log_event``) and the
MariaDB KB replication-protocol pages of the same names.

GTID (``GTID_HEADER_LEN`` = 19 bytes, more with a commit id or an XA xid)::

    +--------+-----------+--------+------------------------------------------------+
    | seq_no | domain_id | flags2 | FL_GROUP_COMMIT_ID: commit_id(8)               |
    |   8    |     4     |   1    | FL_PREPARED_XA|FL_COMPLETED_XA: formatID(4)    |
    |        |           |        |   gtrid_len(1) bqual_len(1) data               |
    |        |           |        | otherwise: nothing (see the padding below)     |
    +--------+-----------+--------+------------------------------------------------+
    then, when bytes remain (10.5+): flags_extra(1) [extra_engines(1)] [sa_seq_no(8)]
    [thread_id(4)], in that order, each present per its flags_extra bit; the event is
    zero-padded to 19 bytes (so an old event's padding reads as flags_extra 0). Seen in 11.8.5:
    ``flags2 0x0c, flags_extra 0x10 (FL_EXTRA_THREAD_ID), thread_id(4), 1 pad byte``.

GTID_LIST: count(4, low 28 bits; top 4 bits are flags) then count x domain(4) server(4) seq(8)
(an empty list carries 2 zero bytes more).
"""

from __future__ import annotations

import dataclasses

from ...errors import EncryptedBinlogError
from .types import Event, EventType, StatementTextEvent

GTID_HEADER_LEN = 19
FL_STANDALONE = 1
FL_GROUP_COMMIT_ID = 2
FL_TRANSACTIONAL = 4
FL_ALLOW_PARALLEL = 8
FL_WAITED = 16
FL_DDL = 32
FL_PREPARED_XA = 64
FL_COMPLETED_XA = 128
FL_EXTRA_MULTI_ENGINE_E1 = 1
FL_START_ALTER_E1 = 2
FL_COMMIT_ALTER_E1 = 4
FL_ROLLBACK_ALTER_E1 = 8
FL_EXTRA_THREAD_ID = 16


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class AnnotateRowsEvent(StatementTextEvent):
    """The statement of the rows events that follow (binlog_annotate_row_events, on by default)."""


def decode_annotate_rows(header, cur, ctx) -> AnnotateRowsEvent:
    ctx.post_header(header, cur, 0, "ANNOTATE_ROWS")   # ANNOTATE_ROWS_HEADER_LEN 0
    return AnnotateRowsEvent(**ctx.base(header), query_bytes=cur.rest())


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class BinlogCheckpointEvent(Event):
    binlog_file: str


def decode_binlog_checkpoint(header, cur, ctx) -> BinlogCheckpointEvent:
    # BINLOG_CHECKPOINT_HEADER_LEN 4: the name length is the post-header and the name starts
    # after the declared post-header (Binlog_checkpoint_log_event constructor, log_event.cc,
    # reads ``buf + post_header_len``).
    post = ctx.post_header(header, cur, 4, "BINLOG_CHECKPOINT")
    n = post.u32("binlog file name length")
    post.pos = post.end
    name = cur.take(n, "binlog file name").decode("utf-8", "surrogateescape")
    cur.expect_end("BINLOG_CHECKPOINT")
    return BinlogCheckpointEvent(**ctx.base(header), binlog_file=name)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MariadbGtidEvent(Event):
    """``gtid`` is ``domain-server-seq`` (the server id is the header's)."""

    seq_no: int
    domain_id: int
    flags2: int
    commit_id: int | None = None
    xa_format_id: int | None = None
    xa_gtrid: bytes | None = None
    xa_bqual: bytes | None = None
    flags_extra: int | None = None
    extra_engines: int | None = None
    sa_seq_no: int | None = None
    thread_id: int | None = None

    @property
    def gtid(self) -> str:
        return f"{self.domain_id}-{self.header.server_id}-{self.seq_no}"

    @property
    def standalone(self) -> bool:
        return bool(self.flags2 & FL_STANDALONE)


def decode_mariadb_gtid(header, cur, ctx) -> MariadbGtidEvent:
    # GTID_HEADER_LEN 19 is a padded minimum, not a field boundary: MariaDB's Gtid_log_event
    # constructor (log_event.cc) refuses a declared post_header_len below 19, then reads
    # seq_no, domain_id, flags2 and the optional parts on from the start of the post-header
    # without skipping to its declared end (a commit id already runs past byte 19). We do the
    # same: the declared length is checked, and whatever follows the fields must be the zero
    # padding the server writes.
    cur.need(ctx.checked_post_header_len(header, cur, GTID_HEADER_LEN, "MARIADB_GTID"),
             "MARIADB_GTID post-header")
    v: dict = {}
    v["seq_no"] = cur.u64("seq_no")
    v["domain_id"] = cur.u32("domain_id")
    flags2 = v["flags2"] = cur.u8("flags2")
    if flags2 & FL_GROUP_COMMIT_ID:
        v["commit_id"] = cur.u64("commit_id")
    elif flags2 & (FL_PREPARED_XA | FL_COMPLETED_XA):
        v["xa_format_id"] = cur.u32("xid formatID")
        gl = cur.u8("gtrid length")
        bl = cur.u8("bqual length")
        v["xa_gtrid"] = cur.take(gl, "gtrid")
        v["xa_bqual"] = cur.take(bl, "bqual")
    if cur.remaining:
        fe = cur.u8("flags_extra")
        if fe:
            v["flags_extra"] = fe
        if fe & FL_EXTRA_MULTI_ENGINE_E1:
            v["extra_engines"] = cur.u8("extra_engines")
        if fe & (FL_COMMIT_ALTER_E1 | FL_ROLLBACK_ALTER_E1):
            v["sa_seq_no"] = cur.u64("sa_seq_no")
        if fe & FL_EXTRA_THREAD_ID:
            v["thread_id"] = cur.u32("thread_id")
    # Short events are zero-padded to GTID_HEADER_LEN (19 bytes); padding must be zero.
    pad_at = cur.pos
    if cur.rest().strip(b"\0"):
        raise cur.corrupt("MariaDB GTID padding is not zero", pad_at)
    cur.expect_end("MARIADB_GTID")
    return MariadbGtidEvent(**ctx.base(header), **v)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GtidListEvent(Event):
    """``gtids``: tuple of (domain_id, server_id, seq_no)."""

    flags: int
    gtids: tuple[tuple[int, int, int], ...]

    @property
    def gtid_list(self) -> str:
        return ",".join(f"{d}-{s}-{q}" for d, s, q in self.gtids)


def decode_gtid_list(header, cur, ctx) -> GtidListEvent:
    # GTID_LIST_HEADER_LEN 4: the count word is the post-header; the list starts after the
    # declared post-header. MariaDB GTIDs have no tags (domain-server-seq), nothing else to read.
    post = ctx.post_header(header, cur, 4, "GTID_LIST")
    at = post.pos
    word = post.u32("gtid count")
    post.pos = post.end
    count = word & ((1 << 28) - 1)
    if count * 16 > cur.remaining:
        raise cur.corrupt(f"GTID_LIST announces {count} GTIDs but has {cur.remaining} bytes", at)
    gtids = tuple((cur.u32("domain_id"), cur.u32("server_id"), cur.u64("seq_no")) for _ in range(count))
    # An empty list is written with 2 zero bytes after the count (seen in 10.0.17 and 11.8.5
    # files); trailing bytes are accepted only as that zero padding of an empty list.
    if count == 0 and cur.remaining <= 2 and not cur.take(cur.remaining).strip(b"\0"):
        pass
    cur.expect_end("GTID_LIST")
    return GtidListEvent(**ctx.base(header), flags=word >> 28, gtids=gtids)


def decode_start_encryption(header, cur, ctx):
    scheme = cur.u8("encryption scheme") if cur.remaining else None
    key_version = cur.u32("key version") if cur.remaining >= 4 else None
    raise EncryptedBinlogError(
        "this binlog is encrypted (MariaDB START_ENCRYPTION_EVENT, scheme "
        f"{scheme}, key version {key_version}); every event after it needs the server's "
        "encryption keys, which this reader does not have. Decrypt it first with the server "
        "(mariadb-binlog --read-from-remote-server reads it decrypted).",
        offset=cur.abs(0))


DECODERS = {EventType.MARIADB_ANNOTATE_ROWS: decode_annotate_rows,
            EventType.MARIADB_BINLOG_CHECKPOINT: decode_binlog_checkpoint,
            EventType.MARIADB_GTID: decode_mariadb_gtid,
            EventType.MARIADB_GTID_LIST: decode_gtid_list,
            EventType.MARIADB_START_ENCRYPTION: decode_start_encryption}
