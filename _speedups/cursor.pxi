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


# What a value reader (values/*.pxi) found corrupt: _raise_corrupt's codes.
DEF E_STRING_OVERLONG = 1     # a: the length, b: the column's maximum
DEF E_DATETIME2_SIGN = 2
DEF E_TIMESTAMP_FRACTION = 3  # a: the microseconds
DEF E_ENUM_INDEX = 4          # a: the index, b: the member count


cdef int _raise_corrupt(int what, int64_t a=0, int64_t b=0) except -1:
    """The readers' CorruptEventErrors, out of line like _raise_truncated and shared by them all:
    a raise (with its message formatting) inside an inline reader would make it too big for the
    C compiler to inline into both consumers."""
    if what == E_STRING_OVERLONG:
        raise CorruptEventError(f"string of {a} bytes exceeds the column maximum of {b}")
    if what == E_DATETIME2_SIGN:
        raise CorruptEventError("DATETIME2 with the sign bit cleared (negative datetime)")
    if what == E_TIMESTAMP_FRACTION:
        raise CorruptEventError(f"TIMESTAMP fraction {a} is not below one second")
    if what == E_ENUM_INDEX:
        raise CorruptEventError(f"ENUM index {<uint64_t>a} beyond its {b} members")
    raise SystemError(f"unknown reader error {what}")


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
