# A bounded read cursor over a bytes-like buffer (STYLE.md 8, 9).
#
#   base ......... start of the buffer (for reporting absolute offsets)
#   p ............ next byte to read
#   end .......... one past the last readable byte: every read is fenced against it
#
# Reads are `cdef inline` and check `end - p` first; the raise is out of line so the fast path stays
# small, and it reports how many bytes were requested against how many remained.

from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t, uint64_t


cdef struct Cursor:
    const uint8_t *base
    const uint8_t *p
    const uint8_t *end


cdef int _raise_truncated(Cursor *c, Py_ssize_t need, str what) except -1:
    raise TruncatedError(
        f"{what}: needs {need} bytes, {c.end - c.p} remain",
        needed=need, available=<Py_ssize_t>(c.end - c.p), offset=<Py_ssize_t>(c.p - c.base))


cdef int _raise_corrupt(str what) except -1:
    """Out of line like _raise_truncated, so that the readers' fast paths stay small enough for
    the C compiler to inline them into both consumers."""
    raise CorruptEventError(what)


cdef inline int cur_need(Cursor *c, Py_ssize_t n, str what) except -1:
    if c.end - c.p < n:
        _raise_truncated(c, n, what)
    return 0


cdef inline uint64_t cur_uint_le(Cursor *c, int n, str what) except? 0xFFFFFFFFFFFFFFFF:
    """Little-endian unsigned integer of n (1..8) bytes."""
    cdef uint64_t v = 0
    cdef int i
    cur_need(c, n, what)
    for i in range(n):
        v |= (<uint64_t>c.p[i]) << (8 * i)
    c.p += n
    return v


# Unfenced reads of n (0..8) bytes at p, for a value whose whole size cur_need has already checked
# (a value with several fields: DATETIME2's integer part, then its fraction).

cdef inline uint64_t _be(const uint8_t *p, int n):
    cdef uint64_t v = 0
    cdef int i
    for i in range(n):
        v = (v << 8) | p[i]
    return v


cdef inline uint64_t _le(const uint8_t *p, int n):
    cdef uint64_t v = 0
    cdef int i
    for i in range(n):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v
