"""Column type codes as they appear in TABLE_MAP events and row images.

The numbers are MySQL's ``enum_field_types`` (include/field_types.h, formerly mysql_com.h) plus the
MariaDB additions from its include/mysql_com.h (``MYSQL_TYPE_BLOB_COMPRESSED`` = 140 and
``MYSQL_TYPE_VARCHAR_COMPRESSED`` = 141, which only ever appear in binlogs, never on the wire).
"""

from __future__ import annotations

import enum


class ColumnType(enum.IntEnum):
    DECIMAL = 0          # pre-5.0 DECIMAL: ASCII digits (no length in the TABLE_MAP)
    TINY = 1
    SHORT = 2
    LONG = 3
    FLOAT = 4
    DOUBLE = 5
    NULL = 6
    TIMESTAMP = 7        # pre-5.6 TIMESTAMP (MariaDB: also the pre-10.1 hires TIMESTAMP(n))
    LONGLONG = 8
    INT24 = 9
    DATE = 10
    TIME = 11            # pre-5.6 TIME (MariaDB: also the 5.3 hires TIME(n))
    DATETIME = 12        # pre-5.6 DATETIME (MariaDB: also the 5.3 hires DATETIME(n))
    YEAR = 13
    NEWDATE = 14         # internal to the server; never in a binlog in practice
    VARCHAR = 15
    BIT = 16
    TIMESTAMP2 = 17      # MySQL 5.6.4+ / MariaDB 10.1+ temporal format
    DATETIME2 = 18
    TIME2 = 19
    TYPED_ARRAY = 20     # MySQL 8 multi-valued index helper; not in row images
    BLOB_COMPRESSED = 140     # MariaDB 10.3+ COMPRESSED BLOB/TEXT
    VARCHAR_COMPRESSED = 141  # MariaDB 10.3+ COMPRESSED VARCHAR
    VECTOR = 242         # MySQL 9.0+
    INVALID = 243
    BOOL = 244           # reserved, never written
    JSON = 245           # MySQL 5.7+ binary JSON (MariaDB JSON is LONGTEXT, logged as BLOB)
    NEWDECIMAL = 246
    ENUM = 247           # only as the real type inside STRING metadata
    SET = 248            # only as the real type inside STRING metadata
    TINY_BLOB = 249
    MEDIUM_BLOB = 250
    LONG_BLOB = 251
    BLOB = 252
    VAR_STRING = 253
    STRING = 254
    GEOMETRY = 255


T = ColumnType

#: Types whose signedness is described by the TABLE_MAP SIGNEDNESS optional metadata, in the order
#: MySQL counts them (sql/log_event.cc ``Table_map_log_event::init_signedness_field`` uses
#: ``is_numeric_type``).
NUMERIC_TYPES = frozenset({T.DECIMAL, T.TINY, T.SHORT, T.LONG, T.FLOAT, T.DOUBLE, T.LONGLONG, T.INT24,
                           T.NEWDECIMAL})

#: MariaDB gives a SIGNEDNESS bit to every column whose Binlog_type_info has a signedness
#: (sql/log_event_server.cc ``Table_map_log_event::init_signedness_field``): the numeric types and
#: also YEAR (Field_year is a Field_tiny, always UNSIGNED). Seen in MariaDB 10.11 binlogs: a table
#: with a YEAR column has one more bit than MySQL's count.
MARIADB_SIGNEDNESS_TYPES = NUMERIC_TYPES | {T.YEAR}


def signedness_columns(column_types, mariadb: bool) -> list[int]:
    """Indices of the columns the SIGNEDNESS bitmap describes, in bit order (MSB first)."""
    kinds = MARIADB_SIGNEDNESS_TYPES if mariadb else NUMERIC_TYPES
    return [i for i, t in enumerate(column_types) if t in kinds]

#: Types that carry a character set in the TABLE_MAP DEFAULT_CHARSET / COLUMN_CHARSET optional metadata
#: (sql/log_event.cc ``is_character_type``: string and blob types, ENUM/SET excluded).
CHARACTER_TYPES = frozenset({T.STRING, T.VAR_STRING, T.VARCHAR, T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB,
                             T.BLOB, T.VARCHAR_COMPRESSED, T.BLOB_COMPRESSED})

BLOB_TYPES = frozenset({T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB, T.BLOB})


def type_name(code: int) -> str:
    try:
        return ColumnType(code).name
    except ValueError:
        return f"type {code}"
