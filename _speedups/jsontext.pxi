# JSON text in a growing C buffer (JBuf), for the JSON Lines renderer (jsonl.pxi): each writer
# appends the JSON text of one value's parts as read by its type's reader (values/*.pxi), giving
# the bytes the reference gives:
#   json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode(envelope value)
# with the envelope's value choices (envelope.py json_value): int as decimal digits, float as
# float.__repr__, Decimal as number_text (plain digits), datetime/date isoformat (UTC TIMESTAMP
# + "Z"), TIME as [-]HH:MM:SS[.ffffff], bytes as base64, str escaped as json's ensure_ascii encoder does
# (RFC 8259 section 7; CPython Modules/_json.c ``ascii_escape_unichar``: '"' '\\' and \b \f \n \r
# \t get their short escapes, every other code point outside ' '..'~' becomes \u00XX with lowercase
# hex, and one outside the BMP a \uXXXX\uXXXX surrogate pair).

from libc.stdlib cimport realloc
from libc.string cimport memcpy, strlen
from cpython.unicode cimport PyUnicode_AsUTF8AndSize

cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    char *PyOS_double_to_string(double val, char format_code, int precision, int flags, int *ptype) except NULL
    void PyMem_Free(void *p)
    int Py_DTSF_ADD_DOT_0
    int Py_IS_FINITE(double x)


cdef struct JBuf:
    char *data
    Py_ssize_t n
    Py_ssize_t cap


cdef int _jb_grow(JBuf *b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = b.cap * 2
    cdef char *q
    if cap < b.n + extra + 4096:
        cap = b.n + extra + 4096
    q = <char *>realloc(b.data, cap)
    if q == NULL:
        raise MemoryError()
    b.data = q
    b.cap = cap
    return 0


cdef inline int jb_reserve(JBuf *b, Py_ssize_t extra) except -1:
    if b.n + extra > b.cap:
        _jb_grow(b, extra)
    return 0


cdef inline int jb_put(JBuf *b, const char *s, Py_ssize_t n) except -1:
    jb_reserve(b, n)
    memcpy(b.data + b.n, s, n)
    b.n += n
    return 0


cdef inline int jb_putc(JBuf *b, char ch) except -1:
    jb_reserve(b, 1)
    b.data[b.n] = ch
    b.n += 1
    return 0


cdef int jb_put_str(JBuf *b, str s) except -1:
    """An ASCII str (already JSON text) as its bytes."""
    cdef Py_ssize_t n
    cdef const char *p = PyUnicode_AsUTF8AndSize(s, &n)
    return jb_put(b, p, n)


cdef char *_PAIRS = (b"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                     b"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                     b"8081828384858687888990919293949596979899")


cdef inline int jb_put_u64(JBuf *b, uint64_t v) except -1:
    """Decimal digits of v (int.__repr__), two at a time."""
    cdef char tmp[24]
    cdef int k = 24
    cdef uint64_t r
    while v >= 100:
        r = v % 100
        v //= 100
        k -= 2
        tmp[k] = _PAIRS[2 * r]
        tmp[k + 1] = _PAIRS[2 * r + 1]
    if v >= 10:
        k -= 2
        tmp[k] = _PAIRS[2 * v]
        tmp[k + 1] = _PAIRS[2 * v + 1]
    else:
        k -= 1
        tmp[k] = <char>(48 + v)
    return jb_put(b, tmp + k, 24 - k)


cdef inline int jb_put_i64(JBuf *b, int64_t v) except -1:
    if v < 0:
        jb_putc(b, 45)   # '-'
        return jb_put_u64(b, <uint64_t>0 - <uint64_t>v)
    return jb_put_u64(b, <uint64_t>v)


cdef inline void _two(char *o, int v):
    o[0] = <char>(48 + v // 10)
    o[1] = <char>(48 + v % 10)


cdef int jb_put_date(JBuf *b, int y, int mo, int d) except -1:
    """YYYY-MM-DD (date.isoformat: the year zero-padded to 4 digits; 1..9999 here)."""
    jb_reserve(b, 10)
    cdef char *o = b.data + b.n
    _digits(o, <uint32_t>y, 4)
    o[4] = 45
    _two(o + 5, mo)
    o[7] = 45
    _two(o + 8, d)
    b.n += 10
    return 0


cdef int jb_put_hms_frac(JBuf *b, int h, int mi, int s, int us) except -1:
    """HH:MM:SS[.ffffff] (time part of datetime.isoformat: the fraction only when not zero)."""
    jb_reserve(b, 15)
    cdef char *o = b.data + b.n
    _two(o, h)
    o[2] = 58
    _two(o + 3, mi)
    o[5] = 58
    _two(o + 6, s)
    b.n += 8
    if us:
        o[8] = 46
        _digits(o + 9, <uint32_t>us, 6)
        b.n += 7
    return 0


cdef char *_HEX = b"0123456789abcdef"


cdef inline int _put_u_escape(JBuf *b, uint32_t cp) except -1:
    jb_reserve(b, 6)
    cdef char *o = b.data + b.n
    o[0] = 92
    o[1] = 117
    o[2] = _HEX[(cp >> 12) & 15]
    o[3] = _HEX[(cp >> 8) & 15]
    o[4] = _HEX[(cp >> 4) & 15]
    o[5] = _HEX[cp & 15]
    b.n += 6
    return 0


cdef inline int _put_cp(JBuf *b, uint32_t cp) except -1:
    """One code point as json's ensure_ascii encoder writes it (Modules/_json.c ascii_escape_unichar)."""
    if 32 <= cp <= 126:
        if cp == 34 or cp == 92:
            jb_reserve(b, 2)
            b.data[b.n] = 92
            b.data[b.n + 1] = <char>cp
            b.n += 2
        else:
            jb_putc(b, <char>cp)
        return 0
    if cp == 8:
        return jb_put(b, b"\\b", 2)
    if cp == 12:
        return jb_put(b, b"\\f", 2)
    if cp == 10:
        return jb_put(b, b"\\n", 2)
    if cp == 13:
        return jb_put(b, b"\\r", 2)
    if cp == 9:
        return jb_put(b, b"\\t", 2)
    if cp >= 0x10000:
        cp -= 0x10000
        _put_u_escape(b, 0xD800 | ((cp >> 10) & 0x3FF))
        return _put_u_escape(b, 0xDC00 | (cp & 0x3FF))
    return _put_u_escape(b, cp)


cdef int jb_put_json_str(JBuf *b, str s) except -1:
    """A str as a JSON string literal (quotes included), escaped as above; lone surrogates (text
    decoded with surrogateescape) come out as their own \\udcXX escape, as json writes them."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(s)
    jb_putc(b, 34)
    for i in range(n):
        _put_cp(b, PyUnicode_READ(kind, data, i))
    return jb_putc(b, 34)


cdef inline bint _plain8(const uint8_t *p):
    """The 8 bytes at p are ASCII and none is below ' ', '"', '\\' or DEL (the bytes json escapes):
    word-at-a-time tests (a byte x < n sets bit 7 of x - n when x and n are below 0x80; a byte
    equal to c is a zero byte of x ^ c), exact as a whole-word yes/no."""
    cdef uint64_t w, ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL
    memcpy(&w, p, 8)
    if w & high:
        return False
    if ((w - ones * 0x20) | ((w ^ (ones * 0x22)) - ones) | ((w ^ (ones * 0x5C)) - ones)
            | ((w ^ (ones * 0x7F)) - ones)) & high:
        return False
    return True


cdef bint _utf8_json(JBuf *b, const uint8_t *p, Py_ssize_t n) except -1:
    """Well-formed UTF-8 bytes written as a JSON string literal in one pass (decode and escape);
    False, with nothing written, when they are not well-formed (then the caller decodes them with
    the column's error handler as decode_rows does). Well-formedness is values/strings.pxi
    ``_utf8_seq``, the test the decoder's ``_utf8`` applies (Unicode 15 table 3-7)."""
    cdef Py_ssize_t i = 0, mark = b.n
    cdef uint8_t b0
    cdef uint32_t cp = 0
    cdef int m
    jb_reserve(b, n + 2)
    b.data[b.n] = 34
    b.n += 1
    while i < n:
        if i + 8 <= n and _plain8(p + i):
            # 8 ASCII bytes none of which needs an escape (the common case): copied as they are
            jb_reserve(b, 8)
            memcpy(b.data + b.n, p + i, 8)
            b.n += 8
            i += 8
            continue
        b0 = p[i]
        if b0 < 0x80:
            if 32 <= b0 <= 126 and b0 != 34 and b0 != 92:
                # needs no escape (the tail of an ASCII run): written here, not through a call
                if b.n >= b.cap:
                    _jb_grow(b, 1)
                b.data[b.n] = <char>b0
                b.n += 1
            else:
                _put_cp(b, b0)
            i += 1
            continue
        m = _utf8_seq(p, i, n, &cp)
        if m == 0:
            b.n = mark
            return False
        i += m
        _put_cp(b, cp)
    jb_putc(b, 34)
    return True


cdef char *_B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


cdef int jb_put_base64(JBuf *b, const uint8_t *p, Py_ssize_t n, Py_ssize_t padded) except -1:
    """The JSON string of base64.b64encode (RFC 4648 section 4, '=' padding) of p[:n] followed by
    padded - n zero bytes (BINARY(N) values the server stored without their trailing 0x00)."""
    cdef Py_ssize_t total = padded if padded > n else n, i = 0, k
    cdef uint32_t v
    cdef uint8_t t[3]
    cdef char *o
    jb_reserve(b, (total + 2) // 3 * 4 + 2)
    o = b.data + b.n
    o[0] = 34
    k = 1
    while i + 3 <= n:
        v = (<uint32_t>p[i] << 16) | (<uint32_t>p[i + 1] << 8) | p[i + 2]
        o[k] = _B64[v >> 18]
        o[k + 1] = _B64[(v >> 12) & 63]
        o[k + 2] = _B64[(v >> 6) & 63]
        o[k + 3] = _B64[v & 63]
        k += 4
        i += 3
    while i < total:
        # the last (partial) groups, reading zero pad bytes past n
        t[0] = p[i] if i < n else 0
        t[1] = (p[i + 1] if i + 1 < n else 0) if i + 1 < total else 0
        t[2] = (p[i + 2] if i + 2 < n else 0) if i + 2 < total else 0
        v = (<uint32_t>t[0] << 16) | (<uint32_t>t[1] << 8) | t[2]
        o[k] = _B64[v >> 18]
        o[k + 1] = _B64[(v >> 12) & 63]
        o[k + 2] = _B64[(v >> 6) & 63] if i + 1 < total else 61   # '='
        o[k + 3] = _B64[v & 63] if i + 2 < total else 61
        k += 4
        i += 3
    o[k] = 34
    b.n += k + 1
    return 0


cdef int jb_put_double(JBuf *b, double d) except -1:
    """float.__repr__ (Objects/floatobject.c float_repr: PyOS_double_to_string 'r' with
    Py_DTSF_ADD_DOT_0), which is what json writes for a finite float: Ryu when its self-check
    passed (floatrepr.pxi), else CPython's own conversion."""
    if RYU_OK:
        jb_reserve(b, 40)
        b.n += _repr_double(d, b.data + b.n)
        return 0
    cdef char *s = PyOS_double_to_string(d, 114, 0, Py_DTSF_ADD_DOT_0, NULL)   # 'r'
    try:
        jb_put(b, s, strlen(s))
    finally:
        PyMem_Free(s)
    return 0


cdef int jb_put_decimal(JBuf *b, Step *s, const Digits *g) except -1:
    """The JSON string of a NEWDECIMAL: its exact text in plain notation with the column's scale
    (_decimal_chars: "-0.0000000001", "0.00000000"), as the pure path's number_text writes it
    (mysqlddl/binlog/values/jsonb.py); never str(Decimal)'s exponent form ("-1E-10", "0E-8")."""
    cdef char text[160]
    cdef int t = _decimal_chars(text, g)
    jb_putc(b, 34)
    jb_put(b, text, t)
    return jb_putc(b, 34)


cdef int jb_put_date_str(JBuf *b, const Civil *t) except -1:
    """The JSON string of date.isoformat() of a valid date (y, mo, d)."""
    jb_putc(b, 34)
    jb_put_date(b, <int>t.y, <int>t.mo, <int>t.d)
    return jb_putc(b, 34)


cdef int jb_put_datetime_str(JBuf *b, const Civil *t, bint utc) except -1:
    """The JSON string of datetime.isoformat() of a valid datetime, with "Z" for a UTC one
    (envelope.py json_value writes an aware UTC datetime so)."""
    jb_putc(b, 34)
    jb_put_date(b, <int>t.y, <int>t.mo, <int>t.d)
    jb_putc(b, 84)   # 'T'
    jb_put_hms_frac(b, <int>t.h, <int>t.mi, <int>t.s, <int>t.us)
    if utc:
        return jb_put(b, b"Z\"", 2)
    return jb_putc(b, 34)


cdef int jb_put_duration_str(JBuf *b, const Duration *t) except -1:
    """The JSON string of envelope._td_text of timedelta(seconds=+-secs, microseconds=+-us):
    [-]H:MM:SS[.ffffff] with at least two hour digits, from the total microseconds (so
    out-of-range minute/second fields normalise exactly as timedelta does)."""
    cdef int64_t total = t.secs * 1000000 + t.us, s, frac, h, m, sec
    jb_putc(b, 34)
    if t.negative and total:
        jb_putc(b, 45)
    s = total // 1000000
    frac = total % 1000000
    h = s // 3600
    m = (s % 3600) // 60
    sec = s % 60
    if h < 10:
        jb_putc(b, 48)
    jb_put_u64(b, <uint64_t>h)
    jb_reserve(b, 6)
    b.data[b.n] = 58
    _two(b.data + b.n + 1, <int>m)
    b.data[b.n + 3] = 58
    _two(b.data + b.n + 4, <int>sec)
    b.n += 6
    if frac:
        jb_reserve(b, 7)
        b.data[b.n] = 46
        _digits(b.data + b.n + 1, <uint32_t>frac, 6)
        b.n += 7
    return jb_putc(b, 34)
