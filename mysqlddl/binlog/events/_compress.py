"""Decompression helpers with a bound on the output size (a corrupt or hostile length must not
make us allocate gigabytes)."""

from __future__ import annotations

import zlib

from ...errors import CorruptEventError


def mariadb_uncompress(cur, limit: int, what: str) -> bytes:
    """MariaDB's compressed-event payload (sql/log_event.cc ``binlog_buf_uncompress`` /
    ``binlog_get_uncompress_len``; MariaDB KB "QUERY_COMPRESSED_EVENT")::

        +--------------------+-------------------------+----------------+
        | 1 0 0 0 0 L L L    | uncompressed length     | zlib stream    |
        | bit7=1, alg=bits4-6| L bytes (1..4), big-end.| (rest of data) |
        +--------------------+-------------------------+----------------+

    Consumes the rest of ``cur``. Returns exactly the announced number of bytes or raises.
    """
    start = cur.pos
    first = cur.u8(what + " compression header")
    if first & 0x80 == 0 or (first >> 4) & 0x07 != 0:
        raise cur.corrupt(f"{what}: bad compression header byte 0x{first:02x} "
                          "(expected bit 7 set and algorithm 0 = zlib)", start)
    lenlen = first & 0x07
    if not 1 <= lenlen <= 4:
        raise cur.corrupt(f"{what}: compressed length uses {lenlen} bytes (1..4 allowed)", start)
    size = cur.uint_be(lenlen, what + " uncompressed length")
    if size > limit:
        raise cur.corrupt(f"{what}: uncompressed length {size} exceeds the limit of {limit} bytes",
                          start)
    data_at = cur.pos
    data = cur.rest()
    d = zlib.decompressobj()
    try:
        out = d.decompress(data, size + 1)
    except zlib.error as e:
        raise CorruptEventError(f"{what}: zlib data is corrupt ({e})", offset=cur.abs(data_at)) from None
    if len(out) != size or not d.eof:
        raise CorruptEventError(f"{what}: zlib data gave {len(out)} bytes"
                                f"{'' if d.eof else ' (stream incomplete or longer)'}, "
                                f"the header announced {size}", offset=cur.abs(data_at))
    return out


def zstd_uncompress(data: bytes, expected: int | None, limit: int, offset: int, what: str) -> bytes:
    """Decompress one zstd frame to at most ``limit`` bytes, reading the output in bounded steps so
    a corrupt or hostile frame cannot make us allocate more than the limit (plus one step)."""
    # lazy: ~10 ms at import that only MySQL 8 compressed TRANSACTION_PAYLOADs need
    import zstandard

    if expected is not None and expected > limit:
        raise CorruptEventError(f"{what}: uncompressed size {expected} exceeds the limit of {limit} bytes",
                                offset=offset)
    parts = []
    total = 0
    try:
        with zstandard.ZstdDecompressor().stream_reader(data, read_across_frames=False) as r:
            while True:
                chunk = r.read(1 << 20)
                if not chunk:
                    break
                total += len(chunk)
                if total > limit:
                    raise CorruptEventError(f"{what}: decompressed data exceeds the limit of {limit} bytes",
                                            offset=offset)
                parts.append(chunk)
    except zstandard.ZstdError as e:
        raise CorruptEventError(f"{what}: zstd data is corrupt ({e})", offset=offset) from None
    out = b"".join(parts)
    if expected is not None and len(out) != expected:
        raise CorruptEventError(f"{what}: zstd gave {len(out)} bytes, the event announced {expected}",
                                offset=offset)
    return out
