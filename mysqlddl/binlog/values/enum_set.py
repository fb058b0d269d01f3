"""ENUM and SET.

Both are logged with binlog type STRING; the metadata's first byte holds the real type and the
second the pack length (sql/field.cc ``Field_enum::do_save_field_metadata``). The row image is the
little-endian index (ENUM, 1 or 2 bytes; 0 is the '' error value) or member bitmask (SET, 1-8 bytes)
(``Field_enum::pack``, log_event_print_value). Names come from the TABLE_MAP ENUM_STR_VALUE /
SET_STR_VALUE optional metadata or the schema; without them the index/bitmask is the value.
"""

from __future__ import annotations

from ...errors import CorruptEventError
from ._common import uint_le


def enum_name(index: int, names):
    if index == 0:
        return ""
    if index > len(names):
        raise CorruptEventError(f"ENUM index {index} beyond its {len(names)} members")
    return names[index - 1]


def set_names(mask: int, names) -> str:
    if mask >> len(names):
        raise CorruptEventError(f"SET bitmask {mask:#x} has bits beyond its {len(names)} members")
    return ",".join(n for i, n in enumerate(names) if mask >> i & 1)


def decode_enum(buf, offset, meta):
    n = meta.length
    v = uint_le(buf, offset, n, "ENUM")
    return (v if meta.names is None else enum_name(v, meta.names)), offset + n


def decode_set(buf, offset, meta):
    n = meta.length
    v = uint_le(buf, offset, n, "SET")
    return (v if meta.names is None else set_names(v, meta.names)), offset + n
