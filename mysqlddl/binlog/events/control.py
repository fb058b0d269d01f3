"""Small control and session events: ROTATE (4), STOP (3), XID (16), INTVAR (5), RAND (13),
USER_VAR (14), INCIDENT (26), HEARTBEAT (27), HEARTBEAT_V2 (41), IGNORABLE (28), ROWS_QUERY (29),
XA_PREPARE (38).

Layouts (libs/mysql/binlog/event/control_events.h and statement_events.h; MySQL internals manual
"Binlog Event Type" pages):

    ROTATE       post-header: position(8)         body: next file name (rest)
    XID          body: xid(8)
    INTVAR       body: type(1) value(8)            type 1 LAST_INSERT_ID, 2 INSERT_ID
    RAND         body: seed1(8) seed2(8)
    INCIDENT     post-header: incident(2)         body: msg_len(1) msg
    HEARTBEAT    body: current file name (rest)
    ROWS_QUERY   body: len(1, ignored: truncated at 255) query (rest)
    XA_PREPARE   body: one_phase(1) formatID(4) gtrid_len(4) bqual_len(4) data(gtrid+bqual)
    USER_VAR     body: name_len(4) name is_null(1)
                       [type(1) charset(4) value_len(4) value flags(1, optional)]
"""

from __future__ import annotations

import dataclasses
import decimal
import struct

from ..values.numeric import decimal_size, decimal_text
from .query import decode_text
from .types import Event, EventType, StatementTextEvent


def _skip_post_header(header, cur, ctx, what: str):
    """Types whose post-header is empty today (``*_HEADER_LEN`` 0 in binlog_event.h): whatever
    length the FDE declares is skipped, so a newer server's post-header fields are never read as
    the body."""
    return ctx.post_header(header, cur, 0, what)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RotateEvent(Event):
    position: int
    next_file: str


def decode_rotate(header, cur, ctx) -> RotateEvent:
    # ROTATE_HEADER_LEN 8 (binlog_event.h); binlog v1 (3.23) declared 0 and had no position:
    # the next file then starts at 4, right after the magic.
    declared = ctx.post_header_len(header.type_code)
    post = ctx.post_header(header, cur, 8 if declared else 0, "ROTATE")
    position = post.u64("rotate position") if declared else 4
    post.pos = post.end
    name = cur.rest()
    if not name:
        raise cur.corrupt("ROTATE has no file name")
    return RotateEvent(**ctx.base(header), position=position,
                       next_file=name.decode("utf-8", "surrogateescape"))


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class StopEvent(Event):
    pass


def decode_stop(header, cur, ctx) -> StopEvent:
    _skip_post_header(header, cur, ctx, "STOP")
    cur.expect_end("STOP")
    return StopEvent(**ctx.base(header))


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class XidEvent(Event):
    xid: int


def decode_xid(header, cur, ctx) -> XidEvent:
    _skip_post_header(header, cur, ctx, "XID")
    xid = cur.u64("xid")
    cur.expect_end("XID")
    return XidEvent(**ctx.base(header), xid=xid)


INTVAR_TYPES = {0: "INVALID_INT", 1: "LAST_INSERT_ID", 2: "INSERT_ID"}  # Intvar_event::Int_event_type


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class IntvarEvent(Event):
    var_type: int
    var_name: str
    value: int


def decode_intvar(header, cur, ctx) -> IntvarEvent:
    _skip_post_header(header, cur, ctx, "INTVAR")
    t = cur.u8("intvar type")
    value = cur.u64("intvar value")
    cur.expect_end("INTVAR")
    return IntvarEvent(**ctx.base(header), var_type=t, var_name=INTVAR_TYPES.get(t, f"TYPE_{t}"),
                       value=value)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RandEvent(Event):
    seed1: int
    seed2: int


def decode_rand(header, cur, ctx) -> RandEvent:
    _skip_post_header(header, cur, ctx, "RAND")
    s1 = cur.u64("seed1")
    s2 = cur.u64("seed2")
    cur.expect_end("RAND")
    return RandEvent(**ctx.base(header), seed1=s1, seed2=s2)


# User_var_event::Value_type (statement_events.h; Item_result of the server)
STRING_RESULT, REAL_RESULT, INT_RESULT, ROW_RESULT, DECIMAL_RESULT = 0, 1, 2, 3, 4
USER_VAR_UNSIGNED_F = 0x01


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class UserVarEvent(Event):
    """``value`` is str for strings (decoded by charset when it is UTF-8/latin1, else bytes), float
    for REAL, int for INT (unsigned per ``flags``), Decimal for DECIMAL (with its
    ``precision``/``scale``)."""

    name: str
    is_null: bool
    value_type: int | None = None
    charset: int | None = None
    value: object = None
    flags: int | None = None
    precision: int | None = None
    scale: int | None = None


def decode_user_var(header, cur, ctx) -> UserVarEvent:
    _skip_post_header(header, cur, ctx, "USER_VAR")
    n = cur.u32("user variable name length")
    name = cur.take(n, "user variable name").decode("utf-8", "surrogateescape")
    is_null = cur.u8("is_null") != 0
    if is_null:
        cur.expect_end("USER_VAR")
        return UserVarEvent(**ctx.base(header), name=name, is_null=True)
    vtype = cur.u8("value type")
    charset = cur.u32("charset")
    vlen = cur.u32("value length")
    vcur = cur.sub(vlen, "user variable value")
    flags = cur.u8("flags") if cur.remaining else None
    cur.expect_end("USER_VAR")
    precision = scale = None
    if vtype == STRING_RESULT:
        raw = vcur.rest()
        value = raw if charset == 63 else decode_text(raw, charset)
    elif vtype == REAL_RESULT:
        vcur.need(8, "REAL value")
        value = struct.unpack("<d", vcur.take(8))[0]
    elif vtype == INT_RESULT:
        vcur.need(8, "INT value")
        unsigned = bool(flags and flags & USER_VAR_UNSIGNED_F)
        value = int.from_bytes(vcur.take(8), "little", signed=not unsigned)
    elif vtype == DECIMAL_RESULT:
        # precision(1) scale(1) then the binary decimal (User_var_log_event::pack_info reads it
        # with binary2my_decimal(val + 2, val[0], val[1])); the row decoder's reader decodes it.
        precision = vcur.u8("decimal precision")
        scale = vcur.u8("decimal scale")
        if scale > precision or precision > 65:
            raise vcur.corrupt(f"USER_VAR DECIMAL({precision},{scale}) is impossible", vcur.pos - 2)
        raw = vcur.take(decimal_size(precision, scale), f"DECIMAL({precision},{scale}) value")
        value = decimal.Decimal(decimal_text(raw, precision, scale))
    else:
        raise cur.corrupt(f"USER_VAR has unknown value type {vtype}")
    vcur.expect_end("USER_VAR value")
    return UserVarEvent(**ctx.base(header), name=name, is_null=False, value_type=vtype,
                        charset=charset, value=value, flags=flags, precision=precision, scale=scale)


INCIDENT_NAMES = {0: "NONE", 1: "LOST_EVENTS"}  # enum_incident, control_events.h


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class IncidentEvent(Event):
    incident: int
    message: str


def decode_incident(header, cur, ctx) -> IncidentEvent:
    post = ctx.post_header(header, cur, 2, "INCIDENT")   # INCIDENT_HEADER_LEN 2
    incident = post.u16("incident number")
    post.pos = post.end
    n = cur.u8("incident message length")
    msg = cur.take(n, "incident message").decode("utf-8", "surrogateescape")
    cur.expect_end("INCIDENT")
    return IncidentEvent(**ctx.base(header), incident=incident, message=msg)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HeartbeatEvent(Event):
    log_file: str
    log_position: int | None = None


def decode_heartbeat(header, cur, ctx) -> HeartbeatEvent:
    _skip_post_header(header, cur, ctx, "HEARTBEAT")
    return HeartbeatEvent(**ctx.base(header), log_file=cur.rest().decode("utf-8", "surrogateescape"),
                          log_position=header.log_pos)


def decode_heartbeat_v2(header, cur, ctx) -> HeartbeatEvent:
    """HEARTBEAT_LOG_EVENT_V2: the binary codec's TLV list (libs/mysql/binlog/event/codecs/
    binary.cpp): field type (packed int), field length (packed int), value; type 0 ends the
    header. Field 1 is the log file name, field 2 the position (a packed int).

    The codec starts right after the common header whatever the FDE declares
    (``Heartbeat_event_v2`` constructor, control_events.cpp, hands it ``reader().ptr()`` without
    skipping a post-header): its fields are self-delimiting, so no post-header is skipped here."""
    name = ""
    position = None
    while cur.remaining:
        ftype = cur.lenenc("heartbeat field type")
        if ftype == 0:
            break
        flen = cur.lenenc("heartbeat field length")
        f = cur.sub(flen, "heartbeat field")
        if ftype == 1:
            name = f.rest().decode("utf-8", "surrogateescape")
        elif ftype == 2:
            position = f.lenenc("heartbeat position")
            f.expect_end("heartbeat position")
        else:
            f.pos = f.end
    cur.expect_end("HEARTBEAT_V2")
    return HeartbeatEvent(**ctx.base(header), log_file=name, log_position=position)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RowsQueryEvent(StatementTextEvent):
    """The original statement of the following rows events (binlog_rows_query_log_events)."""


def decode_rows_query(header, cur, ctx) -> RowsQueryEvent:
    _skip_post_header(header, cur, ctx, "ROWS_QUERY")
    cur.u8("rows query length (ignored: it saturates at 255)")
    return RowsQueryEvent(**ctx.base(header), query_bytes=cur.rest())


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class XaPrepareEvent(Event):
    one_phase: bool
    format_id: int
    gtrid: bytes
    bqual: bytes


def decode_xa_prepare(header, cur, ctx) -> XaPrepareEvent:
    _skip_post_header(header, cur, ctx, "XA_PREPARE")
    one_phase = cur.u8("one_phase") != 0
    format_id = cur.u32("formatID")
    gl = cur.u32("gtrid_length")
    bl = cur.u32("bqual_length")
    if gl > 64 or bl > 64:   # MY_XIDDATASIZE 128, each part at most 64 (XA_prepare_event ctor)
        raise cur.corrupt(f"XA_PREPARE xid lengths {gl}/{bl} exceed 64")
    gtrid = cur.take(gl, "gtrid")
    bqual = cur.take(bl, "bqual")
    cur.expect_end("XA_PREPARE")
    return XaPrepareEvent(**ctx.base(header), one_phase=one_phase, format_id=format_id,
                          gtrid=gtrid, bqual=bqual)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MysqlIgnorableEvent(Event):
    """IGNORABLE_LOG_EVENT (28): a base type for events a replica may skip; the body is kept."""

    body: bytes


def decode_ignorable(header, cur, ctx) -> MysqlIgnorableEvent:
    return MysqlIgnorableEvent(**ctx.base(header), body=cur.rest())


DECODERS = {EventType.ROTATE: decode_rotate, EventType.STOP: decode_stop, EventType.XID: decode_xid,
            EventType.INTVAR: decode_intvar, EventType.RAND: decode_rand,
            EventType.USER_VAR: decode_user_var, EventType.INCIDENT: decode_incident,
            EventType.HEARTBEAT: decode_heartbeat, EventType.HEARTBEAT_V2: decode_heartbeat_v2,
            EventType.ROWS_QUERY: decode_rows_query, EventType.XA_PREPARE: decode_xa_prepare,
            EventType.IGNORABLE: decode_ignorable}
