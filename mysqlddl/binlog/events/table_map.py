"""TABLE_MAP_EVENT (19), and the reader's table_id -> (table map, decode plan) cache.

Layout (libs/mysql/binlog/event/rows_event.h ``Table_map_event``; MySQL internals manual,
"TABLE_MAP_EVENT")::

    post-header (TABLE_MAP_HEADER_LEN 8; 6 in 5.1.0-5.1.3 where table_id has 4 bytes)
    +-----------------+-------+
    | table_id (6|4)  | flags |
    +-----------------+-------+
    body
    +--------+----+-----+---------+-----+-----+---------+----------+------------+-----------+----------+
    | db_len | db | NUL | tbl_len | tbl | NUL | ncols   | types    | meta_len   | metadata  | null     |
    |   1    |    |     |    1    |     |     | packed  | ncols x1 | packed     | meta_len  | bitmap   |
    +--------+----+-----+---------+-----+-----+---------+----------+------------+-----------+----------+
    then optional metadata (binlog_row_metadata, MySQL 8.0.1+ / MariaDB 10.5+), TLVs to the end:
    +------+----------------+-----------------+
    | type | length packed  | value (length)  |    type: Optional_metadata_field_type
    +------+----------------+-----------------+

Bitmaps of the optional metadata (SIGNEDNESS, COLUMN_VISIBILITY) are MSB-first
(``Table_map_log_event::init_signedness_field``: bit ``7 - i % 8`` of byte ``i / 8``); the null
bitmap is LSB-first like every row bitmap.

The per-column metadata block is handed, exactly fenced, to ``rows.parse_column_metadata`` (the
row decoder owns what each type's metadata means; ENUM/SET hide in STRING there, type 242 VECTOR
has 1 byte of metadata).
"""

from __future__ import annotations

import dataclasses

from ...errors import BinlogError
from .. import rows
from ..coltypes import CHARACTER_TYPES, ColumnType, signedness_columns
from ..rows import string_real_type
from .types import Event, EventType

# Table_map_event::Optional_metadata_field_type (rows_event.h)
SIGNEDNESS = 1
DEFAULT_CHARSET = 2
COLUMN_CHARSET = 3
COLUMN_NAME = 4
SET_STR_VALUE = 5
ENUM_STR_VALUE = 6
GEOMETRY_TYPE = 7
SIMPLE_PRIMARY_KEY = 8
PRIMARY_KEY_WITH_PREFIX = 9
ENUM_AND_SET_DEFAULT_CHARSET = 10
ENUM_AND_SET_COLUMN_CHARSET = 11
COLUMN_VISIBILITY = 12
VECTOR_DIMENSIONALITY = 13


def _msb_bits(raw: bytes, n: int) -> tuple[bool, ...]:
    return tuple(bool(raw[i // 8] & (0x80 >> (i % 8))) for i in range(min(n, len(raw) * 8)))


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TableMapEvent(Event):
    """Optional-metadata fields are None when the server did not write them.

    - ``signedness``: one bool per numeric column (True = UNSIGNED), numeric columns in order
      (written by MariaDB: YEAR columns too, coltypes.signedness_columns);
    - ``default_charset``: (default collation, ((character-column index, collation), ...));
      ``column_charsets``: one collation per character column; the ``enum_set_*`` pair is the same
      for ENUM/SET columns;
    - ``column_names``; ``enum_values``/``set_values``: per ENUM/SET column, its strings (bytes,
      in the column's charset); ``geometry_types``: per geometry column;
    - ``primary_key``: ((column index, prefix length or 0), ...);
    - ``visibility``: one bool per column (True = visible); ``vector_dims``: per VECTOR column;
    - ``unknown_metadata``: ((type, raw bytes), ...) for TLV types newer than this decoder.

    ``column_metadata`` comes from ``rows.parse_column_metadata`` (None only while that module
    does not exist); ``column_metadata_raw`` is the block as logged.
    """

    table_id: int
    flags: int
    database: str
    table: str
    column_count: int
    column_types: tuple[int, ...]
    column_metadata_raw: bytes
    column_metadata: tuple | None
    null_bitmap: bytes
    signedness: tuple[bool, ...] | None = None
    default_charset: tuple | None = None
    column_charsets: tuple[int, ...] | None = None
    column_names: tuple[str, ...] | None = None
    set_values: tuple[tuple[bytes, ...], ...] | None = None
    enum_values: tuple[tuple[bytes, ...], ...] | None = None
    geometry_types: tuple[int, ...] | None = None
    primary_key: tuple[tuple[int, int], ...] | None = None
    enum_set_default_charset: tuple | None = None
    enum_set_column_charsets: tuple[int, ...] | None = None
    visibility: tuple[bool, ...] | None = None
    vector_dims: tuple[int, ...] | None = None
    unknown_metadata: tuple[tuple[int, bytes], ...] = ()

    @property
    def qualified_name(self) -> str:
        return f"{self.database}.{self.table}"

    @property
    def charsets(self) -> tuple[int, ...] | None:
        """One collation id per character column (string/blob types, ENUM/SET excluded), from
        COLUMN_CHARSET, or expanded from DEFAULT_CHARSET's default plus its exceptions; None when
        the map carries neither. Needs the real types behind STRING (``rows.string_real_type``)."""
        if self.column_charsets is not None:
            return self.column_charsets
        if self.default_charset is None or self.column_metadata is None:
            return None
        n = 0
        for t, m in zip(self.column_types, self.column_metadata, strict=True):
            if t in (ColumnType.STRING, ColumnType.VAR_STRING):
                t = string_real_type(m)[0] if string_real_type(m)[0] in (ColumnType.ENUM, ColumnType.SET) else t
            n += t in CHARACTER_TYPES
        default, exceptions = self.default_charset
        out = [default] * n
        for idx, coll in exceptions:
            if idx < n:
                out[idx] = coll
        return tuple(out)

    def nullable(self, column: int) -> bool:
        return bool(self.null_bitmap[column // 8] & (1 << (column % 8)))


def _until_end(c, read):
    out = []
    while c.remaining:
        out.append(read(c))
    return tuple(out)


def _charset_pairs(c):
    default = c.lenenc("default collation")
    pairs = []
    while c.remaining:
        pairs.append((c.lenenc("column index"), c.lenenc("collation")))
    return (default, tuple(pairs))


def _str_values(c):
    n = c.lenenc("value count")
    return tuple(c.lenenc_bytes("value") for _ in range(n))


def _optional_metadata(cur, column_types, mariadb: bool) -> dict:
    v: dict = {}
    unknown = []
    while cur.remaining:
        at = cur.pos
        t = cur.u8("optional metadata type")
        n = cur.lenenc("optional metadata length")
        c = cur.sub(n, f"optional metadata {t}")
        if t == SIGNEDNESS:
            # Which columns the bitmap describes depends on the server that wrote it: MariaDB's
            # init_signedness_field also counts YEAR (coltypes.MARIADB_SIGNEDNESS_TYPES). The FDE
            # says which server that is; cutting the bits to MySQL's count would shift every flag
            # after a YEAR column onto its neighbour.
            numeric = len(signedness_columns(column_types, mariadb=mariadb))
            raw = c.rest()
            if len(raw) != (numeric + 7) // 8:
                raise cur.corrupt(f"SIGNEDNESS has {len(raw)} bytes for {numeric} numeric columns", at)
            v["signedness"] = _msb_bits(raw, numeric)
        elif t == DEFAULT_CHARSET:
            v["default_charset"] = _charset_pairs(c)
        elif t == COLUMN_CHARSET:
            v["column_charsets"] = _until_end(c, lambda x: x.lenenc("collation"))
        elif t == COLUMN_NAME:
            v["column_names"] = _until_end(
                c, lambda x: x.lenenc_bytes("column name").decode("utf-8", "surrogateescape"))
        elif t == SET_STR_VALUE:
            v["set_values"] = _until_end(c, _str_values)
        elif t == ENUM_STR_VALUE:
            v["enum_values"] = _until_end(c, _str_values)
        elif t == GEOMETRY_TYPE:
            v["geometry_types"] = _until_end(c, lambda x: x.lenenc("geometry type"))
        elif t == SIMPLE_PRIMARY_KEY:
            v["primary_key"] = _until_end(c, lambda x: (x.lenenc("key column"), 0))
        elif t == PRIMARY_KEY_WITH_PREFIX:
            v["primary_key"] = _until_end(c, lambda x: (x.lenenc("key column"), x.lenenc("prefix")))
        elif t == ENUM_AND_SET_DEFAULT_CHARSET:
            v["enum_set_default_charset"] = _charset_pairs(c)
        elif t == ENUM_AND_SET_COLUMN_CHARSET:
            v["enum_set_column_charsets"] = _until_end(c, lambda x: x.lenenc("collation"))
        elif t == COLUMN_VISIBILITY:
            raw = c.rest()
            if len(raw) != (len(column_types) + 7) // 8:
                raise cur.corrupt(f"COLUMN_VISIBILITY has {len(raw)} bytes for "
                                  f"{len(column_types)} columns", at)
            v["visibility"] = _msb_bits(raw, len(column_types))
        elif t == VECTOR_DIMENSIONALITY:
            v["vector_dims"] = _until_end(c, lambda x: x.lenenc("vector dimensionality"))
        else:
            unknown.append((t, c.rest()))
        c.expect_end(f"optional metadata {t}")
    v["unknown_metadata"] = tuple(unknown)
    return v


#: Decoded TABLE_MAP bodies by (body bytes, post-header length, MariaDB): a server writes the same
#: TABLE_MAP before each transaction on a table (same table_id, same bytes until a DDL), and a stream
#: of small transactions would parse each one anew. Only successful decodes enter; bounded.
_DECODED: dict[tuple, dict] = {}
_DECODED_MAX = 1024


def decode_table_map(header, cur, ctx) -> TableMapEvent:
    # TABLE_MAP_HEADER_LEN 8 = table_id(6) flags(2); a declared length of exactly 6 means a
    # 4-byte table_id (pre-5.1.4 sources, Table_map_event constructor, rows_event.cpp).
    phl = ctx.post_header_len(header.type_code)
    key = (bytes(cur.buf[cur.pos:cur.end]), phl, ctx.fde.is_mariadb)
    fields = _DECODED.get(key)
    if fields is None:
        fields = _decode_table_map(header, cur, ctx, phl)
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.clear()
        _DECODED[key] = fields
    else:
        cur.pos = cur.end               # the same bytes decoded before: all of them consumed
    return TableMapEvent(**ctx.base(header), **fields)


def _decode_table_map(header, cur, ctx, phl) -> dict:
    post = ctx.post_header(header, cur, 6 if phl == 6 else 8, "TABLE_MAP")
    id_width = 4 if phl == 6 else 6
    table_id = post.uint(id_width, "table_id")
    flags = post.u16("table map flags")
    post.pos = post.end
    n = cur.u8("database name length")
    db = cur.take(n, "database name").decode("utf-8", "surrogateescape")
    if cur.u8("database name terminator") != 0:
        raise cur.corrupt("database name is not NUL-terminated", cur.pos - 1)
    n = cur.u8("table name length")
    table = cur.take(n, "table name").decode("utf-8", "surrogateescape")
    if cur.u8("table name terminator") != 0:
        raise cur.corrupt("table name is not NUL-terminated", cur.pos - 1)
    ncols = cur.lenenc("column count")
    types = tuple(cur.take(ncols, "column types"))
    meta_len = cur.lenenc("metadata length")
    meta_at = cur.abs()
    meta_raw = cur.take(meta_len, "column metadata")
    null_bitmap = cur.take((ncols + 7) // 8, "null bitmap")
    optional = _optional_metadata(cur, types, mariadb=ctx.fde.is_mariadb)
    cur.expect_end("TABLE_MAP")
    try:
        column_metadata = tuple(rows.parse_column_metadata(types, meta_raw))
    except BinlogError as e:
        # parse_column_metadata sees only the block: its offsets (if any) are block-relative.
        e.offset = meta_at if e.offset is None else meta_at + e.offset
        e.with_context(table=f"{db}.{table}")
        raise
    return dict(table_id=table_id, flags=flags, database=db, table=table, column_count=ncols, column_types=types,
                column_metadata_raw=meta_raw, column_metadata=column_metadata, null_bitmap=null_bitmap, **optional)


class TableMapCache:
    """table_id -> (table map, decode plan built on first use). A new TABLE_MAP for a table_id
    replaces the old entry (and its plan): ids are reused after DDL and across sessions."""

    __slots__ = ("options", "_maps")

    def __init__(self, options):
        self.options = options
        self._maps: dict[int, list] = {}

    def add(self, tm: TableMapEvent) -> None:
        self._maps[tm.table_id] = [tm, None]

    def get(self, table_id: int) -> TableMapEvent | None:
        e = self._maps.get(table_id)
        return e[0] if e else None

    def plan_for(self, tm: TableMapEvent):
        """The decode plan of ``tm``: cached while ``tm`` is the map in force for its table_id,
        built afresh for an older map (a rows event decoded after its table_id was re-mapped)."""
        e = self._maps.get(tm.table_id)
        if e is None or e[0] is not tm:
            return rows.build_plan(tm, self.options)
        if e[1] is None:
            e[1] = rows.build_plan(tm, self.options)
        return e[1]

    def clear(self) -> None:
        self._maps.clear()


DECODERS = {EventType.TABLE_MAP: decode_table_map}
