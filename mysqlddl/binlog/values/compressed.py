"""MariaDB COMPRESSED columns (10.3+): BLOB/TEXT COMPRESSED (type 140) and VARCHAR(n) COMPRESSED (141).

The row image holds the column's stored (compressed) form behind the usual length prefix
(VARCHAR: 1 or 2 bytes by the metadata maximum; BLOB: ``meta.len_bytes``). The stored form
(MariaDB sql/field.cc ``compress_zlib`` / ``uncompress_zlib``; sql/compression.cc lists the methods)::

    empty value: no bytes at all
    +------+----------------------------------+
    | 0x00 | the original bytes, uncompressed |     (too short, or compression did not help)
    +------+----------------------------------+
    +----------+--------------------------+------------------------------------------+
    | 1MMMWLLL | original length: LLL     | deflate data: raw (W = 1, wbits -15) or   |
    |  header  | bytes, big-endian        | zlib-wrapped (W = 0, RFC 1950)            |
    +----------+--------------------------+------------------------------------------+
      MMM: compression method (0 = zlib, the only one the server implements)
      W: column_compression_zlib_wrap was OFF (the default), so the stream has no zlib header
"""

from __future__ import annotations

import zlib

from ...errors import CorruptEventError, UnsupportedError
from ._common import length_prefixed
from .strings import text_value


def uncompress(raw: bytes) -> bytes:
    if not raw:
        return b""
    header = raw[0]
    if header == 0:
        return raw[1:]
    if not header & 0x80:
        raise CorruptEventError(f"COMPRESSED value header {header:#04x} is neither stored nor compressed")
    method = (header >> 4) & 0x07
    if method != 0:
        raise UnsupportedError(f"COMPRESSED value with compression method {method} (only zlib is known)")
    nlen = header & 0x07
    if not 1 <= nlen <= 4 or len(raw) < 1 + nlen:
        raise CorruptEventError(f"COMPRESSED value header {header:#04x}: bad length width")
    original = int.from_bytes(raw[1:1 + nlen], "big")
    try:
        d = zlib.decompressobj(-15 if header & 0x08 else 15)
        out = d.decompress(raw[1 + nlen:], original + 1)
    except zlib.error as e:
        raise CorruptEventError(f"COMPRESSED value does not inflate: {e}") from None
    if len(out) != original or not d.eof or d.unused_data:
        raise CorruptEventError(f"COMPRESSED value inflates to {len(out)} bytes, header says {original}")
    return out


def decode_varchar_compressed(buf, offset, meta):
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "COMPRESSED VARCHAR")
    return text_value(uncompress(bytes(buf[start:end])), meta), end


def decode_blob_compressed(buf, offset, meta):
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "COMPRESSED BLOB")
    return text_value(uncompress(bytes(buf[start:end])), meta), end
