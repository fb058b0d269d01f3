"""Helpers shared by the pure value decoders (bounds checks that raise the library's typed errors)."""

from __future__ import annotations

from ...errors import CorruptEventError, TruncatedError


def need(buf, offset: int, n: int, what: str) -> None:
    """Fence a read of ``n`` bytes at ``offset``: ``len(buf)`` is the end of the readable region
    (the row decoder passes a view that ends at the event body's end, STYLE.md 9)."""
    avail = len(buf) - offset
    if avail < n:
        raise TruncatedError(f"{what}: needs {n} bytes, {max(avail, 0)} remain", needed=n,
                             available=max(avail, 0), offset=offset)


def uint_le(buf, offset: int, n: int, what: str) -> int:
    need(buf, offset, n, what)
    return int.from_bytes(buf[offset:offset + n], "little")


def uint_be(buf, offset: int, n: int, what: str) -> int:
    need(buf, offset, n, what)
    return int.from_bytes(buf[offset:offset + n], "big")


def length_prefixed(buf, offset: int, len_bytes: int, maximum: int | None, what: str):
    """A value preceded by a ``len_bytes`` little-endian length -> (start, end) of the payload.

    The length is checked against the column's declared maximum when known: a longer value cannot
    come from the server (sql/field.cc ``Field_varstring::unpack``, ``Field_blob::unpack``).
    """
    n = uint_le(buf, offset, len_bytes, f"{what} length")
    start = offset + len_bytes
    if maximum is not None and n > maximum:
        raise CorruptEventError(f"{what} of {n} bytes exceeds the column maximum of {maximum}", offset=offset)
    need(buf, start, n, what)
    return start, start + n
