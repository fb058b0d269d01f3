# Strings (CHAR/VARCHAR/BINARY/VARBINARY, BLOB/TEXT): the reader of the length-prefixed bytes,
# shared by the Python-object decoder (rows.pxi) and the JSON renderer (jsonl.pxi), and the UTF-8
# well-formedness test both use (_utf8_seq): the decoder builds the str from it (_utf8), the
# renderer writes JSON text straight from the bytes (jsontext.pxi _utf8_json) and falls back to the
# decoded str (_text) when they are not well-formed or not UTF-8. Layout: mysqlddl/binlog/values/strings.py.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from cpython.unicode cimport PyUnicode_DecodeUTF8

cdef extern from "Python.h":
    object PyUnicode_DecodeCharmap(const char *s, Py_ssize_t size, object mapping, const char *errors)
    object PyUnicode_Decode(const char *s, Py_ssize_t size, const char *encoding, const char *errors)

cdef object _LATIN1_TABLE = _charsets.LATIN1_TABLE


cdef inline int read_str(Step *s, Cursor *c, const uint8_t **p, Py_ssize_t *n) except -1:
    """K_STR: a little-endian length of s.a (1-4) bytes, then that many bytes, at most s.b for a
    CHAR/VARCHAR (its maximum byte length; -1 for a BLOB) (sql/field.cc ``Field_string::pack``,
    ``Field_varstring::pack``, ``Field_blob::pack``). Sets the bytes' start and count."""
    cdef Py_ssize_t k
    cur_need(c, s.a, "string length")
    k = <Py_ssize_t>_le(c.p, s.a)
    c.p += s.a
    if s.b >= 0 and k > s.b:
        _raise_corrupt(E_STRING_OVERLONG, k, s.b)
    cur_need(c, k, "string")
    p[0] = c.p
    n[0] = k
    c.p += k
    return 0


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object o)


cdef inline bint _ascii8(const uint8_t *p):
    """The 8 bytes at p are all ASCII (one word test instead of eight byte tests)."""
    cdef uint64_t w
    memcpy(&w, p, 8)
    return (w & <uint64_t>0x8080808080808080) == 0


cdef inline int _utf8_seq(const uint8_t *p, Py_ssize_t i, Py_ssize_t n, uint32_t *cp):
    """Length (2-4) of the well-formed UTF-8 sequence of a non-ASCII lead byte at p[i], its code
    point in *cp; 0 when none starts there (Unicode 15 table 3-7: no overlongs, no surrogates,
    nothing past U+10FFFF; CPython's decoder applies the same table)."""
    cdef uint8_t b0 = p[i], b1
    if 0xC2 <= b0 <= 0xDF:
        if i + 1 >= n or (p[i + 1] & 0xC0) != 0x80:
            return 0
        cp[0] = ((b0 & 0x1F) << 6) | (p[i + 1] & 0x3F)
        return 2
    if 0xE0 <= b0 <= 0xEF:
        if i + 2 >= n:
            return 0
        b1 = p[i + 1]
        if (b1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80 or (b0 == 0xE0 and b1 < 0xA0) \
                or (b0 == 0xED and b1 > 0x9F):
            return 0
        cp[0] = ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (p[i + 2] & 0x3F)
        return 3
    if 0xF0 <= b0 <= 0xF4:
        if i + 3 >= n:
            return 0
        b1 = p[i + 1]
        if (b1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80 or (p[i + 3] & 0xC0) != 0x80 \
                or (b0 == 0xF0 and b1 < 0x90) or (b0 == 0xF4 and b1 > 0x8F):
            return 0
        cp[0] = ((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F)
        return 4
    return 0


DEF _UTF8_STACK = 256


cdef Py_ssize_t _utf8_escaped(const uint8_t *p, Py_ssize_t i, Py_ssize_t n, uint32_t *buf, Py_ssize_t k,
                              uint32_t *maxchar) noexcept:
    """bytes.decode("utf-8", "surrogateescape") of p[i:n] into buf from k (p[i] starts no
    sequence); returns the new k. For arbitrary bytes: an ASCII byte and a byte that can start
    no sequence (a continuation byte, C0, C1, F5-FF) take one branch-free step (itself, or
    U+DC00 + byte); only the possible lead bytes C2-F4 are checked for a sequence. Random binary
    decodes ~35% faster than through :func:`_utf8`'s loop, whose ASCII/non-ASCII test it
    mispredicts about every other byte."""
    cdef uint8_t b
    cdef uint32_t cp = 0, hi = 0
    cdef int m
    while i < n:
        b = p[i]
        if <uint8_t>(b - 0xC2) > 0xF4 - 0xC2:
            m = b >> 7
            buf[k] = b + m * 0xDC00
            hi |= m
            i += 1
        else:
            m = _utf8_seq(p, i, n, &cp)
            if m:
                if cp > maxchar[0]:
                    maxchar[0] = cp
                buf[k] = cp
                i += m
            else:
                buf[k] = 0xDC00 + b
                hi = 1
                i += 1
        k += 1
    if hi and maxchar[0] < 0xDC80:
        maxchar[0] = 0xDC80    # the string's kind (UCS2 or wider) is all PyUnicode_New takes from it
    return k


cdef object _utf8(const uint8_t *p, Py_ssize_t n, bint escape):
    """UTF-8 -> str. An ASCII string (tested 8 bytes at a time) is one copy; other text is decoded
    in one validating pass into a UCS4 scratch buffer, then narrowed into a string of its final
    kind: no over-allocate-and-shrink as in the generic decoder.

    A byte that starts no well-formed sequence is, with ``escape``, the lone surrogate U+DC00+byte:
    exactly bytes.decode("utf-8", "surrogateescape"), whose error ranges (a maximal ill-formed
    subpart, PEP 383) hold only bytes >= 0x80 that each start no sequence, so mapping them one at a
    time gives the same string. Text without charset metadata (binlog_row_metadata=MINIMAL/NO_LOG,
    where a VARBINARY looks like a VARCHAR) takes this path. Without ``escape`` it returns None for
    ill-formed input and the caller lets CPython apply the error handler."""
    cdef Py_ssize_t i = 0, k, count
    cdef uint32_t maxchar = 0x7F, cp = 0
    cdef int m
    cdef uint32_t stack[_UTF8_STACK]
    cdef uint32_t *buf
    cdef object out
    while i + 8 <= n and _ascii8(p + i):
        i += 8
    while i < n and p[i] < 0x80:
        i += 1
    if i == n:
        out = PyUnicode_New(n, 0x7F)
        memcpy(PyUnicode_DATA(out), p, n)
        return out
    buf = &stack[0] if n <= _UTF8_STACK else <uint32_t *>malloc(n * sizeof(uint32_t))
    if buf == NULL:
        raise MemoryError()
    try:
        for k in range(i):          # the ASCII prefix
            buf[k] = p[k]
        k = i
        while i < n:
            if p[i] < 0x80:
                buf[k] = p[i]
                i += 1
            else:
                m = _utf8_seq(p, i, n, &cp)
                if m == 0:
                    if not escape:
                        return None
                    # Not UTF-8: most likely binary (a VARBINARY without charset metadata looks
                    # like a VARCHAR), whose bytes branch at random in this loop: the rest goes
                    # through the one made for such bytes.
                    k = _utf8_escaped(p, i, n, buf, k, &maxchar)
                    break
                if cp > maxchar:
                    maxchar = cp
                buf[k] = cp
                i += m
            k += 1
        count = k
        out = PyUnicode_New(count, maxchar)
        if maxchar < 0x100:
            _narrow1(<uint8_t *>PyUnicode_DATA(out), buf, count)
        elif maxchar < 0x10000:
            _narrow2(<uint16_t *>PyUnicode_DATA(out), buf, count)
        else:
            memcpy(PyUnicode_DATA(out), buf, count * sizeof(uint32_t))
        return out
    finally:
        if buf != &stack[0]:
            free(buf)


cdef inline void _narrow1(uint8_t *o, const uint32_t *b, Py_ssize_t n) noexcept:
    cdef Py_ssize_t k
    for k in range(n):
        o[k] = <uint8_t>b[k]


cdef inline void _narrow2(uint16_t *o, const uint32_t *b, Py_ssize_t n) noexcept:
    cdef Py_ssize_t k
    for k in range(n):
        o[k] = <uint16_t>b[k]


cdef object _text(Step *s, const uint8_t *p, Py_ssize_t n):
    """The value of a K_STR column's bytes p[:n]: bytes (BINARY(N) padded back with 0x00 to s.d), or
    the text decoded with the column's charset and error handler."""
    cdef object out
    if s.c == S_BYTES:
        if s.d > n:
            out = PyBytes_FromStringAndSize(NULL, s.d)
            memcpy(PyBytes_AS_STRING(out), p, n)
            memset(PyBytes_AS_STRING(out) + n, 0, s.d - n)
            return out
        return PyBytes_FromStringAndSize(<const char *>p, n)
    try:
        if s.c == S_UTF8:
            out = _utf8(p, n, s.escape)
            if out is not None:
                return out
            return PyUnicode_DecodeUTF8(<const char *>p, n, s.errors)
        if s.c == S_CHARMAP:
            return PyUnicode_DecodeCharmap(<const char *>p, n, _LATIN1_TABLE, s.errors)
        return PyUnicode_Decode(<const char *>p, n, s.enc, s.errors)
    except UnicodeDecodeError as e:
        if s.c == S_UTF8:
            name = "utf-8"
        elif s.enc != NULL:
            name = (<bytes>s.enc).decode("ascii")
        else:
            name = _charsets.MYSQL_LATIN1
        raise CorruptEventError(f"text not valid in {name}: {e.reason} at byte {e.start}") from None
