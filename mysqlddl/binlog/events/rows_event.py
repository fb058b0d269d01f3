"""Rows events: WRITE/UPDATE/DELETE_ROWS v0 (20-22, pre-GA 5.1), v1 (23-25), v2 (30-32),
PARTIAL_UPDATE_ROWS (39), and MariaDB's compressed forms (166-171).

Layout (libs/mysql/binlog/event/rows_event.h ``Rows_event``; MySQL internals manual "ROWS_EVENT";
MariaDB KB "ROWS_EVENT_V1/V2, ROWS_COMPRESSED_EVENT_V1")::

    post-header: v0/v1 8 bytes (6 with a 4-byte table_id), v2 10 bytes
    +----------------+-------+------------------------------+
    | table_id (6|4) | flags | v2: var_header_len (2, incl.) |
    +----------------+-------+------------------------------+
    body
    +----------------------------+--------+-------------+----------------------+-----------------+
    | v2: extra data             | ncols  | present1    | UPDATE/PARTIAL:      | row images      |
    | (var_header_len - 2 bytes) | packed | (ncols+7)/8 | present2 (ncols+7)/8 | (rest)          |
    +----------------------------+--------+-------------+----------------------+-----------------+

Extra data is a list of (tag, chunk): tag 0 ``ROWS_V_EXTRAINFO_TAG`` = len(1, counting itself and
the format byte) format(1) data(len-2); tag 1 ``PART`` (8.0 partition info) = partition_id(2) and,
for UPDATE/PARTIAL_UPDATE, source_partition_id(2). An unknown tag ends the parse (as in the
server), the rest is kept raw.

MariaDB's compressed rows events compress only the row images: ncols and the bitmaps are plain,
then the compressed block (``row_log_event_uncompress``, sql/log_event.cc).

The row images are decoded lazily by ``rows.decode_rows(plan, body, rows_start, rows_end,
present1, present2)`` with the plan the reader caches per TABLE_MAP.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ...errors import BinlogError, CorruptEventError
from .. import rows as rows_mod
from ._compress import mariadb_uncompress
from .types import Event, EventType

T = EventType
# type -> (kind, version, compressed)
ROWS_TYPES = {
    T.PRE_GA_WRITE_ROWS: ("write", 0, False), T.PRE_GA_UPDATE_ROWS: ("update", 0, False),
    T.PRE_GA_DELETE_ROWS: ("delete", 0, False),
    T.WRITE_ROWS_V1: ("write", 1, False), T.UPDATE_ROWS_V1: ("update", 1, False),
    T.DELETE_ROWS_V1: ("delete", 1, False),
    T.WRITE_ROWS: ("write", 2, False), T.UPDATE_ROWS: ("update", 2, False),
    T.DELETE_ROWS: ("delete", 2, False), T.PARTIAL_UPDATE_ROWS: ("partial_update", 2, False),
    T.MARIADB_WRITE_ROWS_COMPRESSED_V1: ("write", 1, True),
    T.MARIADB_UPDATE_ROWS_COMPRESSED_V1: ("update", 1, True),
    T.MARIADB_DELETE_ROWS_COMPRESSED_V1: ("delete", 1, True),
    T.MARIADB_WRITE_ROWS_COMPRESSED: ("write", 2, True),
    T.MARIADB_UPDATE_ROWS_COMPRESSED: ("update", 2, True),
    T.MARIADB_DELETE_ROWS_COMPRESSED: ("delete", 2, True),
}

# Rows_event::enum_flag
STMT_END_F = 0x1
NO_FOREIGN_KEY_CHECKS_F = 0x2
RELAXED_UNIQUE_CHECKS_F = 0x4
COMPLETE_ROWS_F = 0x8

ROWS_V_EXTRAINFO_TAG = 0
ROWS_V_PART_INFO_TAG = 1


def mask_bitmap(raw: bytes, ncols: int) -> bytes:
    """Clear the padding bits past ``ncols`` (servers leave them set; ARCHITECTURE.md "Binlog facts")."""
    if ncols % 8 and raw:
        return raw[:-1] + bytes([raw[-1] & ((1 << (ncols % 8)) - 1)])
    return raw


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RowsEvent(Event):
    """One rows event. ``kind`` is write/update/delete/partial_update; ``version`` 0, 1 or 2.

    ``present1``/``present2`` are the columns-present bitmaps (LSB-first, padding bits masked);
    ``present2`` is None except for updates. ``body[rows_start:rows_end]`` are the row images
    (for MariaDB compressed events ``body`` is the uncompressed image block and
    ``body_offset`` is None; otherwise ``body_offset`` is the file offset of ``body[0]``).
    ``table_map`` is the TABLE_MAP in force for ``table_id`` when the event was read (None when
    the reader started after it). Rows are decoded only when :meth:`rows` is called.
    """

    table_id: int
    flags: int
    kind: str
    version: int
    compressed: bool
    extra_data: bytes | None
    extra_info: tuple
    column_count: int
    present1: bytes
    present2: bytes | None
    rows_start: int
    rows_end: int
    body: Any = dataclasses.field(repr=False, compare=False)
    body_offset: int | None = dataclasses.field(default=None, repr=False)
    table_map: Any = dataclasses.field(default=None, repr=False, compare=False)
    plan_source: Callable | None = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def table(self) -> str | None:
        return self.table_map.qualified_name if self.table_map is not None else None

    @property
    def rows_size(self) -> int:
        return self.rows_end - self.rows_start

    def _ctx(self, e: BinlogError) -> BinlogError:
        # decode_rows reports offsets as base + index; with no file offset for the body
        # (decompressed images) the event's own position is the best place to point at.
        if e.offset is not None and self.body_offset is None:
            e.offset = self.pos
        return e.with_context(file=self.file, log_pos=self.pos, event_type=self.type_name,
                              table=self.table, offset=self.pos)

    def plan(self):
        if self.table_map is None or self.plan_source is None:
            raise CorruptEventError(f"no TABLE_MAP for table_id {self.table_id} precedes this rows "
                                    "event (did reading start inside a transaction?)",
                                    file=self.file, log_pos=self.pos, event_type=self.type_name)
        try:
            return self.plan_source()
        except BinlogError as e:
            self._ctx(e)
            raise

    def rows(self) -> list:
        """Decoded row images: tuples, or (before, after) pairs for updates (absent columns are
        ``rows.ABSENT``). Errors carry the absolute file offset of the failing value."""
        plan = self.plan()
        # PARTIAL_UPDATE_ROWS after images start with value_options and may hold Json_diff_vectors
        # (sql/rpl_record.cc pack_row): only the decoder that knows that layout may read them.
        decode = rows_mod.decode_partial_update_rows if self.kind == "partial_update" else rows_mod.decode_rows
        try:
            return decode(plan, self.body, self.rows_start, self.rows_end,
                          self.present1, self.present2, base=self.body_offset or 0)
        except BinlogError as e:
            self._ctx(e)
            raise


def _extra_info(c, kind) -> tuple:
    out = []
    while c.remaining:
        tag_at = c.pos
        tag = c.u8("extra row info tag")
        if tag == ROWS_V_EXTRAINFO_TAG:
            n = c.u8("extra row info length")
            if n < 2:
                raise c.corrupt(f"extra row info length {n} < 2", tag_at + 1)
            fmt = c.u8("extra row info format")
            out.append(("ndb_info", fmt, c.take(n - 2, "extra row info data")))
        elif tag == ROWS_V_PART_INFO_TAG:
            pid = c.u16("partition_id")
            src = c.u16("source_partition_id") if kind in ("update", "partial_update") else None
            out.append(("partition", pid, src))
        else:
            out.append(("unknown", tag, c.rest()))
    return tuple(out)


def decode_rows_event(header, cur, ctx) -> RowsEvent:
    kind, version, compressed = ROWS_TYPES[header.type_code]
    # ROWS_HEADER_LEN_V1 8 = table_id(6) flags(2), 6 with a 4-byte table_id (Rows_event ctor,
    # rows_event.cpp); ROWS_HEADER_LEN_V2 10 adds var_header_len(2). Read once per event: the
    # row images (the compiled path) start after the fenced post-header and extra data.
    phl = ctx.post_header_len(header.type_code)
    if phl < (10 if version == 2 else (6 if phl == 6 else 8)):
        # (the common case stays one comparison: this path runs once per rows event)
        ctx.checked_post_header_len(header, cur, 10 if version == 2 else 8, header.type_name)
    post = cur.sub(phl, "rows post-header")
    id_width = 4 if phl == 6 else 6
    table_id = post.uint(id_width, "table_id")
    flags = post.u16("rows flags")
    extra_data = None
    extra_info: tuple = ()
    if version == 2:
        var_len = post.u16("extra data length")
        if var_len < 2:
            raise post.corrupt(f"extra data length {var_len} < 2 (it counts its own 2 bytes)",
                               post.pos - 2)
        post.pos = post.end
        ec = cur.sub(var_len - 2, "extra data")
        extra_data = bytes(ec.buf[ec.pos:ec.end])
        extra_info = _extra_info(ec, kind)
    else:
        post.pos = post.end
    ncols = cur.lenenc("column count")
    nbytes = (ncols + 7) // 8
    present1 = mask_bitmap(cur.take(nbytes, "columns-present bitmap"), ncols)
    present2 = None
    if kind in ("update", "partial_update"):
        present2 = mask_bitmap(cur.take(nbytes, "after-image columns-present bitmap"), ncols)
    if compressed:
        body = mariadb_uncompress(cur, ctx.options.max_decompressed_size, "compressed rows")
        start, end, body_offset = 0, len(body), None
    else:
        body, start, end = cur.buf, cur.pos, cur.end
        body_offset = cur.base if ctx.payload_offset is None else None
        cur.pos = cur.end
    tables = ctx.tables
    tm = tables.get(table_id) if tables is not None else None
    source = (lambda m=tm, t=tables: t.plan_for(m)) if tm is not None else None
    return RowsEvent(**ctx.base(header), table_id=table_id, flags=flags, kind=kind, version=version,
                     compressed=compressed, extra_data=extra_data, extra_info=extra_info,
                     column_count=ncols, present1=present1, present2=present2, rows_start=start,
                     rows_end=end, body=body, body_offset=body_offset, table_map=tm,
                     plan_source=source)


DECODERS = {t: decode_rows_event for t in ROWS_TYPES}
