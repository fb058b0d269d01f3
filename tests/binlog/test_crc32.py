"""Event checksums: each twin's ``crc32`` equals zlib.crc32 (what servers store, ``my_checksum``)
for every input; the compiled one folds 16-byte blocks with PCLMULQDQ on x86-64, so lengths around
its 64-byte threshold and 16-byte tails, unaligned starts and chained values are all covered."""

from __future__ import annotations

import random
import zlib

import pytest


def test_crc32_equals_zlib_for_every_length_and_start(twin):
    rr = random.Random(11)
    data = rr.randbytes(400)
    for n in range(0, 300):
        for start in (0, 1, 7, 15):
            chunk = data[start:start + n]
            assert twin.crc32(chunk) == zlib.crc32(chunk), (n, start)
            seed = rr.getrandbits(32)
            assert twin.crc32(memoryview(data)[start:start + n], seed) == zlib.crc32(chunk, seed), (n, start, seed)


def test_crc32_large_and_chained(twin):
    rr = random.Random(12)
    big = rr.randbytes((1 << 20) + 37)
    assert twin.crc32(big) == zlib.crc32(big)
    assert twin.crc32(bytearray(big)) == zlib.crc32(big)
    value = 0
    for piece in (big[:1000], big[1000:70001], big[70001:]):     # chained: crc32(b, crc32(a)) == crc32(a + b)
        value = twin.crc32(piece, value)
    assert value == zlib.crc32(big)
    for _ in range(200):
        n = rr.randint(64, 20000)
        buf = rr.randbytes(n)
        assert twin.crc32(buf) == zlib.crc32(buf), n
    assert twin.crc32(b"\xff" * 4096) == zlib.crc32(b"\xff" * 4096)
    assert twin.crc32(bytes(4096)) == zlib.crc32(bytes(4096))


def test_compiled_crc32_says_which_path_it_takes():
    """On x86-64 with PCLMULQDQ the compiled core uses its folding code, else zlib's function
    itself; either way the name in use is ``crc32``."""
    import platform

    from mysqlddl.binlog import speedups

    try:
        mod = speedups.load_compiled()
    except ImportError as e:
        pytest.skip(f"compiled core not built: {e}")
    if mod.CRC32_CLMUL:
        assert mod.crc32 is mod._crc32_clmul and platform.machine() in ("x86_64", "AMD64")
    else:
        assert mod.crc32 is zlib.crc32
