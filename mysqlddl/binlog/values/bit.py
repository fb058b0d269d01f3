"""BIT(M): (M + 7) // 8 bytes, big-endian (sql/field.cc ``Field_bit::pack``; the metadata holds
M % 8 in its first byte and M // 8 in its second, ``Field_bit::do_save_field_metadata``). Value: int."""

from __future__ import annotations

from ._common import uint_be


def decode_bit(buf, offset, meta):
    n = meta.length
    return uint_be(buf, offset, n, "BIT"), offset + n
