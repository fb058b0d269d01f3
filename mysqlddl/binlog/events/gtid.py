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

The fixed fields up to sequence_number are the post-header (``Gtid_event::POST_HEADER_LENGTH``
42; 25 in 5.6, which stopped after gno); the rest is the body. The post-header length is taken
from the FDE, so a newer server's longer post-header is skipped, not read as commit timestamps.

GTID_TAGGED (MySQL 8.4+) is one mysql::serialization message (libs/mysql/serialization/), see
``decode_gtid_tagged``.

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

from ...errors import TruncatedError, UnsupportedError
from .types import Event, EventType

LOGICAL_TIMESTAMP_TYPECODE = 2
GTID_POST_HEADER_MIN = 1 + 16 + 8     # flags, sid, gno: all a 5.6 server wrote
TAG_MAX_LENGTH = 32                   # mysql::gtid::tag_max_length (libs/mysql/gtid/tag.h)
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
    post = ctx.post_header(header, cur, GTID_POST_HEADER_MIN, header.type_name)
    v: dict = {}
    v["flags"] = post.u8("gtid flags")
    v["sid"] = _uuid_str(post.take(16, "sid"))
    v["gno"] = post.i64("gno")
    if post.remaining >= 1 + 16:
        lt = post.u8("logical timestamp typecode")
        if lt != LOGICAL_TIMESTAMP_TYPECODE:
            # 5.7.4 and earlier wrote another typecode and shorter fields; the server ignores
            # them and everything after (Gtid_event constructor, control_events.cpp).
            post.pos = post.end
            cur.rest()
        else:
            v["last_committed"] = post.i64("last_committed")
            v["sequence_number"] = post.i64("sequence_number")
    post.pos = post.end
    if "last_committed" in v and cur.remaining >= 7:
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


# -- GTID_TAGGED_LOG_EVENT (42) ----------------------------------------------------------------
#
# The server writes the event with ``Encoder_type << *this`` (mysql::serialization::
# Serializer_default over Write_archive_binary) and reads it back in
# ``Gtid_event::read_gtid_tagged_log_event`` (control_events.cpp), from the first byte after the
# common header: the FDE's post-header length is not used for this type. The message is the
# top-level serializable of ``Serializer::operator>>`` (serializer_impl.hpp, skip_id false),
# whose metadata ``Serializer_default::decode_serializable_metadata`` reads
# (serializer_default_impl.hpp)::
#
#   +---------+--------------+-------------------------+------------------------------------+
#   | version | encoded_size | last_non_ignorable_id+1 | field_id value, field_id value ... |
#   | varlen  | varlen       | varlen                  | present fields only, in id order   |
#   +---------+--------------+-------------------------+------------------------------------+
#   version: serialization_format_version = 1 (serialization_format_version.h), written where a
#     nested message's field id would be; another value is refused ("Missing field id").
#   encoded_size: ``get_size_serializable`` = the version's bytes + the size's own bytes + the
#     last-id bytes + the fields, i.e. the whole message; the reader seeks to start + size after
#     the fields it knows, which is how newer (ignorable) fields are skipped.
#   last_non_ignorable_id: id + 1 of the last present non-ignorable field (0 when none); a value
#     beyond the last id a reader knows + 1 means fields it cannot skip ("unknown_field").
#
# Every integer is a varlen (Byte_count_helper<0>, primitive_type_codec.h; bytes in
# variable_length_integers.h, read by ``Cursor.varlen``); signed fields keep the sign in the
# least significant bit. Field ids and types, in ``Gtid_event::define_fields()`` order
# (control_events.h): a field is looked for by peeking its id, and a field whose id does not come
# next is absent (``decode_field_id``)::
#
#   id field                      type            notes
#   0  gtid_flags                 unsigned char   varlen, at most 255
#   1  uuid                       uchar[16]       std::array: 16 varlens, one per byte
#                                                 (Serializer_array_tag, default size 0),
#                                                 so 0x80..0xff take two bytes each
#   2  gno                        int64           signed varlen
#   3  tag                        string <= 32    varlen length + bytes (Primitive_type_codec
#                                                 <std::string>, tag_max_length 32)
#   4  last_committed             int64           signed
#   5  sequence_number            int64           signed
#   6  immediate_commit_timestamp uint64
#   7  original_commit_timestamp  uint64          absent => equals immediate
#   8  transaction_length         uint64
#   9  immediate_server_version   uint32
#   10 original_server_version    uint32          absent => equals immediate
#   11 commit_group_ticket        uint64          absent => unset


def _unsigned(bits: int, what: str):
    limit = (1 << bits) - 1

    def read(c):
        at = c.pos
        v = c.varlen(what)
        # read_varlen_bytes_unsigned refuses a value wider than the field's type
        if v > limit:
            raise c.corrupt(f"GTID_TAGGED {what} {v} does not fit {bits} bits", at)
        return v
    return read


def _signed(what: str):
    return lambda c: c.varlen_signed(what)


def _read_uuid(c):
    byte = _unsigned(8, "uuid byte")
    return _uuid_str(bytes(byte(c) for _ in range(16)))


def _read_tag(c):
    at = c.pos
    n = c.varlen("tag length")
    if n > TAG_MAX_LENGTH:
        raise c.corrupt(f"tag length {n} exceeds {TAG_MAX_LENGTH}", at)
    return c.take(n, "tag").decode("ascii", "surrogateescape")


SERIALIZATION_FORMAT_VERSION = 1
_TAGGED_FIELDS = (
    ("flags", _unsigned(8, "gtid_flags")),
    ("sid", _read_uuid),
    ("gno", _signed("gno")),
    ("tag", _read_tag),
    ("last_committed", _signed("last_committed")),
    ("sequence_number", _signed("sequence_number")),
    ("immediate_commit_timestamp", _unsigned(64, "immediate_commit_timestamp")),
    ("original_commit_timestamp", _unsigned(64, "original_commit_timestamp")),
    ("transaction_length", _unsigned(64, "transaction_length")),
    ("immediate_server_version", _unsigned(32, "immediate_server_version")),
    ("original_server_version", _unsigned(32, "original_server_version")),
    ("commit_group_ticket", _unsigned(64, "commit_group_ticket")),
)


def _varlen_width(n: int) -> int:
    """Bytes of the varlen of ``n`` (``get_size_integer_varlen_unsigned``)."""
    return ((n.bit_length() * 575) >> 12) + 1


def _message_end(start: int, size_at: int, lni_at: int, fields_at: int, size: int) -> int:
    """Where the message really ends. ``get_size_serializable`` writes
    size = version bytes + width(varlen(F)) + last-id bytes + F, with F the bytes of the fields:
    it counts the size field as wide as the varlen of F, not of the total it writes, so when the
    total needs one byte more than F (F of 125..127 bytes, for instance) the written size is one
    short of the bytes written. The server's reader is not troubled (it seeks to start + size
    only when it stopped short of it, then skips what is left of the event); we solve for F and
    accept exactly that message length, so the event is still consumed exactly."""
    rest = size - (size_at - start) - (fields_at - lni_at)      # F + width(varlen(F))
    for w in range(1, 10):
        if rest - w >= 0 and _varlen_width(rest - w) == w:
            return fields_at + rest - w
    return start + size


def decode_gtid_tagged(header, cur, ctx) -> GtidEvent:
    start = cur.pos
    version = cur.varlen("serialization format version")
    if version != SERIALIZATION_FORMAT_VERSION:
        raise UnsupportedError(f"GTID_TAGGED serialization format version {version} "
                               f"(this decoder reads {SERIALIZATION_FORMAT_VERSION})",
                               offset=cur.abs(start))
    size_at = cur.pos
    size = cur.varlen("message size")
    lni_at = cur.pos
    last_non_ignorable = cur.varlen("last non-ignorable field id")
    end = start + size
    real_end = max(end, _message_end(start, size_at, lni_at, cur.pos, size))
    if real_end > cur.end:
        raise TruncatedError(f"GTID_TAGGED message of {real_end - start} bytes, the event body has "
                             f"{cur.end - start}", needed=real_end - start,
                             available=cur.end - start, offset=cur.abs(start))
    if last_non_ignorable > len(_TAGGED_FIELDS):
        # Unknown fields the writer marked non-ignorable: the server refuses the event
        # (Event_decoding_error::unknown_non_ignorable_fields), and so do we.
        raise UnsupportedError(f"GTID_TAGGED carries non-ignorable fields up to id "
                               f"{last_non_ignorable - 1}, newer than this decoder "
                               f"(last known id {len(_TAGGED_FIELDS) - 1})", offset=cur.abs(lni_at))
    v: dict = {}
    for fid, (name, read) in enumerate(_TAGGED_FIELDS):
        if cur.pos >= end:
            break                 # decode(): at the end position every further field is absent
        at = cur.pos
        if cur.varlen("field id") != fid:
            cur.pos = at          # not this field: absent, look for the next known id
            continue
        v[name] = read(cur)
    if cur.pos > real_end:
        raise cur.corrupt(f"GTID_TAGGED fields run {cur.pos - real_end} bytes past the message size "
                          f"{size}", start)
    # Fields after the ones we know (ignorable, per the check above) are skipped by the size.
    cur.pos = real_end
    if cur.remaining:
        raise cur.corrupt(f"{cur.remaining} bytes after the GTID_TAGGED message")
    if "original_commit_timestamp" not in v and "immediate_commit_timestamp" in v:
        v["original_commit_timestamp"] = v["immediate_commit_timestamp"]
    if "original_server_version" not in v and "immediate_server_version" in v:
        v["original_server_version"] = v["immediate_server_version"]
    v.setdefault("flags", FLAG_MAY_HAVE_SBR)
    v.setdefault("sid", _uuid_str(bytes(16)))
    v.setdefault("gno", 0)
    if not v.get("tag"):
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
    # The post-header is empty (Previous_gtids_event constructor forwards over the declared
    # post_header_len, control_events.cpp); the body is ``Gtid_set::encode`` (sql/rpl_gtid_set.cc).
    ctx.post_header(header, cur, 0, "PREVIOUS_GTIDS")
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
