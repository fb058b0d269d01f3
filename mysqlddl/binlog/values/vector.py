"""VECTOR (MySQL 9.0+, type 242): a BLOB-like value, length in ``meta.len_bytes`` (the metadata,
4) bytes, holding little-endian IEEE-754 float32 components (sql/field.cc ``Field_vector``,
libbinlogevents ``Table_map_event`` VECTOR_DIMENSIONALITY). Value: tuple of floats."""

from __future__ import annotations

import struct

from ...errors import CorruptEventError
from ._common import length_prefixed


def decode_vector(buf, offset, meta):
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "VECTOR")
    if (end - start) % 4:
        raise CorruptEventError(f"VECTOR of {end - start} bytes is not whole float32 components", offset=offset)
    return struct.unpack_from(f"<{(end - start) // 4}f", buf, start), end
