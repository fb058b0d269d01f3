"""Pure-Python value decoders: ``decoder(buf, offset, meta) -> (value, new_offset)``.

``DECODERS`` maps a column type (coltypes.ColumnType, with ENUM/SET as their real types) to its
decoder (STYLE.md 7); the row decoder of the pure twin calls them, and the compiled core calls the
same functions for the rare types it does not inline, so both give identical values. ``buf`` may be
any bytes-like object; ``len(buf)`` is the end of the readable region. ``meta`` is a
:class:`~mysqlddl.binlog.values.meta.ColumnMeta`.

Python values by column type (Options can change the ones marked *):

    TINYINT..BIGINT, BIT, YEAR            int (YEAR 0 stays 0; signed unless the TABLE_MAP or schema
                                          says UNSIGNED)
    FLOAT, DOUBLE                         float (FLOAT: the exact float32 value)
    DECIMAL                               decimal.Decimal with the column's scale  (* str)
    DATE / DATETIME                       datetime.date / naive datetime.datetime  (* zero/invalid
                                          dates: the server's text, or None)
    TIMESTAMP                             datetime.datetime in UTC                  (* as DATETIME)
    TIME                                  datetime.timedelta (may be negative)
    CHAR, VARCHAR, TEXT (+ COMPRESSED)    str in the column's charset, bytes for binary ones (* bytes,
                                          fallback charset, error handler, CHAR padding)
    BINARY(N), VARBINARY, BLOB            bytes (BINARY(N)/INET6/UUID trailing 0x00 restored)
    ENUM / SET                            member name(s) when known, else index / bitmask int
    JSON (MySQL binary)                   dict/list/str/int/float/bool/None, Decimal, date/time
                                          values, JsonOpaque  (* canonical JSON text)
    JSON partial update                   JsonPartialUpdate(diffs) (decode_partial_update_rows)
    GEOMETRY                              Geometry(srid, wkb)
    VECTOR                                tuple of floats
    NULL                                  None;  not in the row image: rows.ABSENT
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..coltypes import ColumnType as T
from . import bit, compressed, enum_set, geometry, jsonb, numeric, strings, temporal, vector
from .geometry import Geometry
from .jsonb import JsonOpaque
from .meta import ColumnMeta


def decode_null(buf, offset, meta):
    """MYSQL_TYPE_NULL: no bytes, always NULL."""
    return None, offset


def decode_unsupported(buf, offset, meta):
    raise UnsupportedError(f"no decoder for column type {meta.type} in a row image", offset=offset)


DECODERS = {
    T.DECIMAL: numeric.decode_old_decimal,
    T.TINY: numeric.decode_tiny,
    T.SHORT: numeric.decode_short,
    T.INT24: numeric.decode_int24,
    T.LONG: numeric.decode_long,
    T.LONGLONG: numeric.decode_longlong,
    T.FLOAT: numeric.decode_float,
    T.DOUBLE: numeric.decode_double,
    T.NEWDECIMAL: numeric.decode_newdecimal,
    T.NULL: decode_null,
    T.YEAR: temporal.decode_year,
    T.DATE: temporal.decode_date,
    T.NEWDATE: temporal.decode_date,
    T.TIME: temporal.decode_time,
    T.DATETIME: temporal.decode_datetime,
    T.TIMESTAMP: temporal.decode_timestamp,
    T.TIME2: temporal.decode_time2,
    T.DATETIME2: temporal.decode_datetime2,
    T.TIMESTAMP2: temporal.decode_timestamp2,
    T.STRING: strings.decode_string,
    T.VAR_STRING: strings.decode_string,
    T.VARCHAR: strings.decode_string,
    T.TINY_BLOB: strings.decode_blob,
    T.BLOB: strings.decode_blob,
    T.MEDIUM_BLOB: strings.decode_blob,
    T.LONG_BLOB: strings.decode_blob,
    T.ENUM: enum_set.decode_enum,
    T.SET: enum_set.decode_set,
    T.BIT: bit.decode_bit,
    T.JSON: jsonb.decode_json,
    T.GEOMETRY: geometry.decode_geometry,
    T.VECTOR: vector.decode_vector,
    T.VARCHAR_COMPRESSED: compressed.decode_varchar_compressed,
    T.BLOB_COMPRESSED: compressed.decode_blob_compressed,
}


def decoder_for(column_type: int):
    """The decoder of a column type; unknown types get one that raises UnsupportedError when a
    non-NULL value of that type is met (a TABLE_MAP naming it still decodes)."""
    return DECODERS.get(column_type, decode_unsupported)


__all__ = ["DECODERS", "ColumnMeta", "Geometry", "JsonOpaque", "decoder_for"]
