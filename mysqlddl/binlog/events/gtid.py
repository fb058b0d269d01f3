"""MySQL GTID events: GTID (33), ANONYMOUS_GTID (34), GTID_TAGGED (42), PREVIOUS_GTIDS (35).

GTID / ANONYMOUS_GTID (libs/mysql/binlog/event/control_events.cpp ``Gtid_event`` constructor;
every field after gno is optional, older servers stop earlier)::

    +-------+---------+---------+---------+----------------+-----------------+
    | flags |  sid    |   gno   | lt_type | last_committed | sequence_number |
    |   1   |   16    |  8 (s)  | 1 (=2)  |       8        |        8        |
    +-------+---------+---------+---------+----------------+-----------------+
    +---------------------------------+-------------+--------------------+-----------+
    | immediate_commit_ts 7 bytes;    | trx length  | immediate_server_  | commit    |
    | bit 55 set => original_ts 7 more| packed int  | version 4; bit 31  | group     |
    |                                 |             | => original 4 more | ticket 8  |
    +---------------------------------+-------------+--------------------+-----------+

GTID_TAGGED uses the mysql::serialization message format (libs/mysql/serialization/readme.md):
``serializable_size`` varlen, ``last_non_ignorable_field_id`` varlen, then ``field_id`` + value for
each present field, in the order of ``Gtid_event::define_fields()`` (control_events.h).

PREVIOUS_GTIDS (``Gtid_set::encode``, sql/rpl_gtid_set.cc)::

    +----------------------------+  per sid: +------+-------------------+-------------+----------+
    | n_sids 8 (top byte: format)|           | sid  | tag (tagged only: | n_intervals | (start,  |
    |  0 untagged, 1 tagged:     |           |  16  |  varlen len+bytes)|      8      |  end) 16 |
    |  n_sids in bits 8..55      |           +------+-------------------+-------------+----------+
    +----------------------------+
"""

from __future__ import annotations

import dataclasses
import uuid as _uuid

from ...errors import UnsupportedError
from .types import Event, EventType

LOGICAL_TIMESTAMP_TYPECODE = 2
FLAG_MAY_HAVE_SBR = 1


def _uuid_str(raw: bytes) -> str:
    return str(_uuid.UUID(bytes=raw))


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GtidEvent(Event):
    """``gtid`` is ``uuid:gno`` (``uuid:tag:gno`` when tagged), None for ANONYMOUS_GTID. Optional
    fields are None when the server did not write them. Timestamps are microseconds since epoch."""

    flags: int
    sid: str
    gno: int
    tag: str | None = None
    last_committed: int | None = None
    sequence_number: int | None = None
    immediate_commit_timestamp: int | None = None
    original_commit_timestamp: int | None = None
    transaction_length: int | None = None
    immediate_server_version: int | None = None
    original_server_version: int | None = None
    commit_group_ticket: int | None = None
    anonymous: bool = False

    @property
    def gtid(self) -> str | None:
        if self.anonymous:
            return None
        return f"{self.sid}:{self.tag}:{self.gno}" if self.tag else f"{self.sid}:{self.gno}"


def decode_gtid(header, cur, ctx) -> GtidEvent:
    v: dict = {}
    v["flags"] = cur.u8("gtid flags")
    v["sid"] = _uuid_str(cur.take(16, "sid"))
    v["gno"] = cur.i64("gno")
    if cur.remaining:
        lt = cur.u8("logical timestamp typecode")
        if lt != LOGICAL_TIMESTAMP_TYPECODE:
            # 5.7.4 and earlier wrote another typecode and shorter fields; the server ignores them.
            cur.rest()
        else:
            v["last_committed"] = cur.i64("last_committed")
            v["sequence_number"] = cur.i64("sequence_number")
            if cur.remaining >= 7:
                ts = cur.uint(7, "immediate_commit_timestamp")
                if ts & (1 << 55):
                    ts &= ~(1 << 55)
                    v["original_commit_timestamp"] = cur.uint(7, "original_commit_timestamp")
                else:
                    v["original_commit_timestamp"] = ts
                v["immediate_commit_timestamp"] = ts
                if cur.remaining:
                    v["transaction_length"] = cur.lenenc("transaction_length")
                if cur.remaining >= 4:
                    sv = cur.u32("immediate_server_version")
                    if sv & (1 << 31):
                        sv &= ~(1 << 31)
                        v["original_server_version"] = cur.u32("original_server_version")
                    else:
                        v["original_server_version"] = sv
                    v["immediate_server_version"] = sv
                    if cur.remaining >= 8:
                        v["commit_group_ticket"] = cur.u64("commit_group_ticket")
    cur.expect_end(header.type_name)
    return GtidEvent(**ctx.base(header), anonymous=header.type_code == EventType.ANONYMOUS_GTID, **v)


# Gtid_event::define_fields() order -> (name, reader)
def _read_uuid(c):
    # std::array<unsigned char, 16>: Serializer_array_tag, each element encoded as a field of
    # default size, i.e. a varlen integer (Serializer_default::encode_field, array overload)
    return _uuid_str(bytes(c.varlen("sid byte") & 0xFF for _ in range(16)))


def _read_tag(c):
    n = c.varlen("tag length")
    return c.take(n, "tag").decode("ascii", "surrogateescape")


_TAGGED_FIELDS = (
    ("flags", lambda c: c.varlen("gtid_flags")),
    ("sid", _read_uuid),
    ("gno", lambda c: c.varlen_signed("gno")),
    ("tag", _read_tag),
    ("last_committed", lambda c: c.varlen_signed("last_committed")),
    ("sequence_number", lambda c: c.varlen_signed("sequence_number")),
    ("immediate_commit_timestamp", lambda c: c.varlen("immediate_commit_timestamp")),
    ("original_commit_timestamp", lambda c: c.varlen("original_commit_timestamp")),
    ("transaction_length", lambda c: c.varlen("transaction_length")),
    ("immediate_server_version", lambda c: c.varlen("immediate_server_version")),
    ("original_server_version", lambda c: c.varlen("original_server_version")),
    ("commit_group_ticket", lambda c: c.varlen("commit_group_ticket")),
)


def decode_gtid_tagged(header, cur, ctx) -> GtidEvent:
    start = cur.pos
    size = cur.varlen("serializable size")
    # The size covers the whole message, its own bytes included (Serializer_default::
    # get_size_serializable adds the overhead of the size and of the last non-ignorable id).
    if size != cur.end - start:
        raise cur.corrupt(f"GTID_TAGGED message size {size} != body size {cur.end - start}", start)
    last_non_ignorable = cur.varlen("last non-ignorable field id")
    v: dict = {}
    prev = -1
    while cur.remaining:
        fid_at = cur.pos
        fid = cur.varlen("field id")
        if fid <= prev:
            raise cur.corrupt(f"GTID_TAGGED field ids out of order ({fid} after {prev})", fid_at)
        prev = fid
        if fid >= len(_TAGGED_FIELDS):
            if last_non_ignorable <= len(_TAGGED_FIELDS):
                # Newer but ignorable fields: the message size lets us skip them, as the server's
                # decoder does (decode_serializable_metadata only rejects unknown non-ignorable).
                cur.pos = cur.end
                break
            # Unknown non-ignorable fields: the server refuses the event, and so do we.
            raise UnsupportedError(f"GTID_TAGGED field {fid} is newer than this decoder "
                                   f"(last non-ignorable field {last_non_ignorable})",
                                   offset=cur.abs(fid_at))
        name, read = _TAGGED_FIELDS[fid]
        v[name] = read(cur)
    if "original_commit_timestamp" not in v and "immediate_commit_timestamp" in v:
        v["original_commit_timestamp"] = v["immediate_commit_timestamp"]
    if "original_server_version" not in v and "immediate_server_version" in v:
        v["original_server_version"] = v["immediate_server_version"]
    v.setdefault("flags", FLAG_MAY_HAVE_SBR)
    v.setdefault("sid", _uuid_str(bytes(16)))
    v.setdefault("gno", 0)
    if v.get("tag") == "":
        v["tag"] = None
    return GtidEvent(**ctx.base(header), **v)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PreviousGtidsEvent(Event):
    """``gtid_sets``: tuple of (sid, tag or None, ((start, end_exclusive), ...))."""

    gtid_sets: tuple

    @property
    def gtid_set(self) -> str:
        """The set in the server's text form (end is exclusive on the wire, inclusive in text)."""
        parts = []
        for sid, tag, intervals in self.gtid_sets:
            iv = ":".join(f"{s}" if e - 1 == s else f"{s}-{e - 1}" for s, e in intervals)
            parts.append(f"{sid}:{tag}:{iv}" if tag else f"{sid}:{iv}")
        return ",".join(parts)


def decode_previous_gtids(header, cur, ctx) -> PreviousGtidsEvent:
    post = cur.sub(ctx.post_header_len(header.type_code), "PREVIOUS_GTIDS post-header")
    post.pos = post.end
    head_at = cur.pos
    head = cur.u64("n_sids")
    fmt = head >> 56
    if fmt == 0:
        n_sids = head & ((1 << 56) - 1)
    elif fmt == 1:
        n_sids = (head >> 8) & ((1 << 48) - 1)
    else:
        raise cur.corrupt(f"PREVIOUS_GTIDS has unknown format {fmt}", head_at)
    if n_sids * 24 > cur.remaining:
        raise cur.corrupt(f"PREVIOUS_GTIDS announces {n_sids} sids, more than the body can hold", head_at)
    sets = []
    for _ in range(n_sids):
        sid = _uuid_str(cur.take(16, "sid"))
        tag = _read_tag(cur) if fmt == 1 else None
        n_iv_at = cur.pos
        n_iv = cur.u64("n_intervals")
        if n_iv * 16 > cur.remaining:
            raise cur.corrupt(f"PREVIOUS_GTIDS announces {n_iv} intervals, more than the body holds",
                              n_iv_at)
        sets.append((sid, tag or None, tuple((cur.i64("interval start"), cur.i64("interval end"))
                                             for _ in range(n_iv))))
    cur.expect_end("PREVIOUS_GTIDS")
    return PreviousGtidsEvent(**ctx.base(header), gtid_sets=tuple(sets))


DECODERS = {EventType.GTID: decode_gtid, EventType.ANONYMOUS_GTID: decode_gtid,
            EventType.GTID_TAGGED: decode_gtid_tagged,
            EventType.PREVIOUS_GTIDS: decode_previous_gtids}
