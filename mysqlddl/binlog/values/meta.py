"""ColumnMeta: one column's decoding parameters, resolved once per TABLE_MAP (STYLE.md 10).

Built by :func:`mysqlddl.binlog.rows.build_plan` from the TABLE_MAP metadata, its optional metadata,
the schema (when given) and the Options; read by the pure value decoders and compiled into the C
plan by mysqlddl._speedups. Plain data only, so both twins decode from the same description.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnMeta:
    """How to decode one column of a row image.

    type: the effective column type (for STRING columns holding ENUM/SET: ENUM or SET, the real type
        kept in the metadata); binlog_type: the type code in the TABLE_MAP; metadata: the raw
        metadata value (see rows.parse_column_metadata).
    length: STRING/VARCHAR: maximum bytes; ENUM/SET: pack length (bytes); BIT: bytes; NEWDECIMAL:
        bytes of the binary form; old DECIMAL: characters (0 = unknown, from the schema only).
    len_bytes: width of the length prefix of variable-length values (1-4), else 0.
    precision, scale: NEWDECIMAL (and old DECIMAL) digits.
    fsp: fractional-second digits of TIME2/DATETIME2/TIMESTAMP2 (from metadata) or of MariaDB's
        pre-10.1 TIME/DATETIME/TIMESTAMP (from the schema only; None = unknown, read as 0).
    unsigned: integer columns are unsigned.
    encoding: Python codec of a text column (charsets.MYSQL_LATIN1 for MySQL latin1) or None for bytes.
    errors: codec error handler.
    pad_bytes: BINARY(N): restore trailing 0x00 up to N bytes (0 = no padding).
    pad_chars: CHAR(N): restore trailing spaces up to N characters (0 = no padding).
    names: ENUM/SET member names when known (index 1 is names[0]), else None.
    decimal_as_str, invalid_as_none, json_as_text: Options.decimal_as / invalid_temporal_as / json_as.
    """

    type: int
    binlog_type: int
    metadata: int = 0
    length: int = 0
    len_bytes: int = 0
    precision: int = 0
    scale: int = 0
    fsp: int | None = None
    unsigned: bool = False
    encoding: str | None = None
    errors: str = "strict"
    pad_bytes: int = 0
    pad_chars: int = 0
    names: tuple[str, ...] | None = None
    decimal_as_str: bool = False
    invalid_as_none: bool = False
    json_as_text: bool = False
