"""TRANSACTION_PAYLOAD_EVENT (40): a whole transaction's events, compressed (MySQL 8.0.20+,
binlog_transaction_compression).

Layout (libs/mysql/binlog/event/control_events.h ``Transaction_payload_event``; the fields are
read by the binary codec, codecs/binary.cpp, starting right after the common header)::

    +------------+--------------+-----------+ ... +------------+---------------------------+
    | field type | field length | value     |     | type 0     | payload (payload_size     |
    | packed int | packed int   | (length)  |     | (end mark) | bytes, compressed events) |
    +------------+--------------+-----------+ ... +------------+---------------------------+
    field 1 PAYLOAD_SIZE, 2 COMPRESSION_TYPE (0 ZSTD, 255 NONE), 3 UNCOMPRESSED_SIZE; each value
    is itself a packed int. Unknown fields are skipped by their length.

The decompressed payload is a sequence of ordinary events (v4 header, no CRC even when the file
uses CRC32); the reader iterates them after yielding this event.
"""

from __future__ import annotations

import dataclasses

from ...errors import UnsupportedError
from ._compress import zstd_uncompress
from .types import Event, EventType

OTW_PAYLOAD_HEADER_END_MARK = 0
OTW_PAYLOAD_SIZE_FIELD = 1
OTW_PAYLOAD_COMPRESSION_TYPE_FIELD = 2
OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD = 3
COMPRESSION_ZSTD = 0
COMPRESSION_NONE = 255


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TransactionPayloadEvent(Event):
    """``payload`` (not shown in ``fields()``) is the decompressed event stream."""

    compression_type: int
    payload_size: int
    uncompressed_size: int | None
    payload: bytes = dataclasses.field(repr=False, compare=False)


def decode_transaction_payload(header, cur, ctx) -> TransactionPayloadEvent:
    payload_size = compression = uncompressed = None
    while True:
        at = cur.pos
        ftype = cur.lenenc("payload field type")
        if ftype == OTW_PAYLOAD_HEADER_END_MARK:
            break
        flen = cur.lenenc("payload field length")
        f = cur.sub(flen, f"payload field {ftype}")
        if ftype == OTW_PAYLOAD_SIZE_FIELD:
            payload_size = f.lenenc("payload size")
        elif ftype == OTW_PAYLOAD_COMPRESSION_TYPE_FIELD:
            compression = f.lenenc("compression type")
        elif ftype == OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD:
            uncompressed = f.lenenc("uncompressed size")
        else:
            f.pos = f.end
        if f.remaining:
            raise cur.corrupt(f"payload field {ftype} has {f.remaining} unread bytes", at)
    if payload_size is None or compression is None:
        raise cur.corrupt("TRANSACTION_PAYLOAD lacks its payload size or compression type")
    if payload_size != cur.remaining:
        raise cur.corrupt(f"TRANSACTION_PAYLOAD announces {payload_size} payload bytes, "
                          f"{cur.remaining} remain")
    data_at = cur.abs()
    data = cur.rest()
    limit = ctx.options.max_decompressed_size
    if compression == COMPRESSION_ZSTD:
        out = zstd_uncompress(data, uncompressed, limit, data_at, "TRANSACTION_PAYLOAD")
    elif compression == COMPRESSION_NONE:
        out = data
    else:
        raise UnsupportedError(f"TRANSACTION_PAYLOAD compression type {compression} is unknown",
                               offset=data_at)
    return TransactionPayloadEvent(**ctx.base(header), compression_type=compression,
                                   payload_size=payload_size, uncompressed_size=uncompressed,
                                   payload=out)


DECODERS = {EventType.TRANSACTION_PAYLOAD: decode_transaction_payload}
