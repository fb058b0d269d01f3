"""Pure-Python twin of mysqlddl._speedups: the same functions, the same results and errors.

Used when MYSQLDDL_PUREPYTHON=1 or when the extension is absent (and not required).
"""

from __future__ import annotations

from ..errors import CorruptEventError, TruncatedError

IMPLEMENTATION = "pure-python"


def _need(buf, offset: int, n: int, what: str) -> None:
    if len(buf) - offset < n:
        avail = len(buf) - offset
        raise TruncatedError(f"{what}: needs {n} bytes, {avail} remain", needed=n, available=avail,
                             offset=offset)


def read_lenenc_int(buf, offset: int):
    """See mysqlddl._speedups.read_lenenc_int (sql-common/pack.c net_field_length_ll)."""
    if offset < 0 or offset > len(buf):
        raise CorruptEventError(f"offset {offset} outside buffer of {len(buf)} bytes", offset=offset)
    _need(buf, offset, 1, "length-encoded integer")
    first = buf[offset]
    offset += 1
    if first < 251:
        return first, offset
    if first == 251:
        return None, offset
    width = {252: 2, 253: 3, 254: 8}.get(first)
    if width is None:
        raise CorruptEventError("length-encoded integer with first byte 0xff", offset=offset - 1)
    suffix = {2: " (2 bytes)", 3: " (3 bytes)", 8: " (8 bytes)"}[width]
    _need(buf, offset, width, "length-encoded integer" + suffix)
    return int.from_bytes(buf[offset:offset + width], "little"), offset + width
