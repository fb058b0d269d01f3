"""GEOMETRY (all spatial types log as type 255): length in ``meta.len_bytes`` bytes, then the
server's internal form: 4-byte little-endian SRID followed by standard WKB (sql/field.cc
``Field_geom``; MySQL manual "Internal Geometry Storage Format"). Value: Geometry(srid, wkb)."""

from __future__ import annotations

from typing import NamedTuple

from ...errors import CorruptEventError
from ._common import length_prefixed


class Geometry(NamedTuple):
    srid: int
    wkb: bytes


def decode_geometry(buf, offset, meta):
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "GEOMETRY")
    if end - start < 4:
        raise CorruptEventError(f"GEOMETRY of {end - start} bytes has no SRID", offset=offset)
    return Geometry(int.from_bytes(buf[start:start + 4], "little"), bytes(buf[start + 4:end])), end
