# Rows events straight to JSON Lines: the compiled twin of mysqlddl/binlog/_twin.py render_rows.
#
# The `changes` CLI writes every row change as one JSON line (mysqlddl/envelope.py LineRenderer).
# Building a Python value per column, a dict per image and an encoder pass per line costs ~15 us a
# row; here the row images are read through the same bounded cursor and decode plan as
# decode_rows (rows.pxi) and each value's JSON text is written into one growing C buffer, together
# with the line's pre-encoded parts (a template with five holes, see render_rows).
#
# Every native rendering below must give the bytes the reference gives:
#   json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode(envelope value)
# with the envelope's value choices (envelope.py json_value): int as decimal digits, float as
# float.__repr__, Decimal as str(Decimal), datetime/date isoformat (UTC TIMESTAMP + "Z"), TIME as
# [-]HH:MM:SS[.ffffff], bytes as base64, str escaped as json's ensure_ascii encoder does
# (RFC 8259 section 7; CPython Modules/_json.c ``ascii_escape_unichar``: '"' '\\' and \b \f \n \r
# \t get their short escapes, every other code point outside ' '..'~' becomes \u00XX with lowercase
# hex, and one outside the BMP a \uXXXX\uXXXX surrogate pair). Values the native code does not
# render (JSON, GEOMETRY, SET names, invalid temporals, non-finite floats, retyped columns) are
# decoded to their Python value as decode_rows would and handed to the format's Python callables.
# tests/binlog/test_render_rows.py and tests/test_changes_render.py hold the two paths to equal bytes.

from libc.stdint cimport int32_t
from libc.stdlib cimport realloc
from libc.string cimport strlen
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
    the column's error handler as decode_rows does). Well-formedness is the test of ``_utf8`` in
    rows.pxi (Unicode 15 table 3-7)."""
    cdef Py_ssize_t i = 0, mark = b.n, k
    cdef uint8_t b0, b1
    cdef uint32_t cp
    cdef char *o
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
            _put_cp(b, b0)
            i += 1
            continue
        if 0xC2 <= b0 <= 0xDF:
            if i + 1 >= n or (p[i + 1] & 0xC0) != 0x80:
                b.n = mark
                return False
            cp = ((b0 & 0x1F) << 6) | (p[i + 1] & 0x3F)
            i += 2
        elif 0xE0 <= b0 <= 0xEF:
            if i + 2 >= n:
                b.n = mark
                return False
            b1 = p[i + 1]
            if (b1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80 or (b0 == 0xE0 and b1 < 0xA0) \
                    or (b0 == 0xED and b1 > 0x9F):
                b.n = mark
                return False
            cp = ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (p[i + 2] & 0x3F)
            i += 3
        elif 0xF0 <= b0 <= 0xF4:
            if i + 3 >= n:
                b.n = mark
                return False
            b1 = p[i + 1]
            if (b1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80 or (p[i + 3] & 0xC0) != 0x80 \
                    or (b0 == 0xF0 and b1 < 0x90) or (b0 == 0xF4 and b1 > 0x8F):
                b.n = mark
                return False
            cp = ((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F)
            i += 4
        else:
            b.n = mark
            return False
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


cdef int jb_put_decimal(JBuf *b, Step *s, bint negative, const uint32_t *groups, const int *widths,
                        int ng) except -1:
    """The JSON string of str(Decimal) for a NEWDECIMAL (or the exact text with decimal_as="str").

    str(Decimal) is the General Decimal Arithmetic to-scientific-string conversion: with the
    coefficient's digits c (no leading zeros, "0" for zero) and exponent e = -scale,
    adjusted = e + len(c) - 1; plain notation when e <= 0 and adjusted >= -6 (the exact text
    _decimal_chars writes), else c[0] ["." c[1:]] "E" adjusted (e.g. DECIMAL(10,8) zero is "0E-8")."""
    cdef char text[160]
    cdef int scale = s.b, intg = s.a - s.b
    cdef int t = _decimal_chars(text, negative, groups, widths, ng, intg // 9 + (1 if intg % 9 else 0), scale)
    cdef int first = 1 if negative else 0, k, nd, adjusted
    cdef char *digits
    jb_putc(b, 34)
    if not s.d and scale > 0:
        # coefficient digits: the text without sign and '.', leading zeros dropped
        k = first
        nd = 0
        digits = text + 80      # scratch after the text (at most 67 characters long)
        for k in range(first, t):
            if text[k] == 46:
                continue
            if nd == 0 and text[k] == 48:
                continue
            digits[nd] = text[k]
            nd += 1
        if nd == 0:
            digits[0] = 48
            nd = 1
        adjusted = -scale + nd - 1
        if adjusted < -6:
            if negative:
                jb_putc(b, 45)
            jb_putc(b, digits[0])
            if nd > 1:
                jb_putc(b, 46)
                jb_put(b, digits + 1, nd - 1)
            jb_put(b, b"E-", 2)
            jb_put_u64(b, <uint64_t>(-adjusted))
            return jb_putc(b, 34)
    jb_put(b, text, t)
    return jb_putc(b, 34)


cdef int jb_put_timedelta(JBuf *b, bint negative, int64_t secs, int64_t us) except -1:
    """envelope._td_text of timedelta(seconds=+-secs, microseconds=+-us): [-]H:MM:SS[.ffffff] with
    at least two hour digits, from the total microseconds (so out-of-range minute/second fields
    normalise exactly as timedelta does)."""
    cdef int64_t total = secs * 1000000 + us, s, frac, h, m, sec
    if negative and total:
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
    return 0


# ------------------------------------------------------------------------------------ the format

DEF R_NATIVE = 0     # rendered here
DEF R_VALUE = 1      # decoded to its Python value, then value_json(value)
DEF R_COLUMN = 2     # decoded to its Python value, then column_json[i](value) (retyped columns)


cdef class JsonFormat:
    """The compiled form of a mysqlddl.binlog.rows.JsonRowsFormat for one CompiledPlan: per column
    its key (the JSON text of its name and ':') and how its values are rendered."""
    cdef CompiledPlan plan
    cdef list keys          # bytes
    cdef list column_json   # callable or None
    cdef object value_json
    cdef list enum_json     # per column: list of bytes (each ENUM name's JSON text) or None
    cdef char *mode
    cdef bytes mode_keep
    cdef const char **key_p  # keys[i] as C data: no list access per value
    cdef Py_ssize_t *key_n
    cdef JBuf out           # the output buffer, kept across calls (no fresh pages per rows event)
    cdef JBuf side[3]       # render_images: the after images, the before and the after offsets
    cdef bint busy

    def __cinit__(self):
        cdef int k
        self.out.data = NULL
        self.out.n = self.out.cap = 0
        for k in range(3):
            self.side[k].data = NULL
            self.side[k].n = self.side[k].cap = 0
        self.busy = False
        self.key_p = NULL
        self.key_n = NULL

    def __dealloc__(self):
        cdef int k
        free(self.out.data)
        for k in range(3):
            free(self.side[k].data)
        free(self.key_p)
        free(self.key_n)


def compile_json_format(CompiledPlan plan, fmt):
    """JsonRowsFormat -> JsonFormat for this plan."""
    cdef JsonFormat f = JsonFormat()
    cdef Py_ssize_t i, n = plan.ncols
    cdef JBuf jb
    if len(fmt.keys) != n:
        raise ValueError(f"{len(fmt.keys)} keys for a plan of {n} columns")
    f.plan = plan
    f.keys = [(k + ":").encode("ascii") for k in fmt.keys]
    f.value_json = fmt.value_json
    f.column_json = list(fmt.column_json) if fmt.column_json is not None else [None] * n
    f.enum_json = [None] * n
    modes = bytearray(n + 1)
    jb.data = NULL
    jb.n = jb.cap = 0
    try:
        for i in range(n):
            kind = plan.steps[i].kind
            if f.column_json[i] is not None:
                modes[i] = R_COLUMN
            elif kind == K_PY:
                modes[i] = R_VALUE
            else:
                modes[i] = R_NATIVE
                if kind == K_ENUM and plan.names[i] is not None:
                    names = []
                    for name in plan.names[i]:
                        jb.n = 0
                        jb_put_json_str(&jb, name)
                        names.append(PyBytes_FromStringAndSize(jb.data, jb.n))
                    f.enum_json[i] = names
    finally:
        free(jb.data)
    f.mode_keep = bytes(modes)
    f.mode = PyBytes_AS_STRING(f.mode_keep)
    f.key_p = <const char **>malloc(sizeof(char *) * (n + 1))
    f.key_n = <Py_ssize_t *>malloc(sizeof(Py_ssize_t) * (n + 1))
    if f.key_p == NULL or f.key_n == NULL:
        raise MemoryError()
    for i in range(n):
        f.key_p[i] = PyBytes_AS_STRING(f.keys[i])      # f.keys holds the bytes objects
        f.key_n[i] = len(f.keys[i])
    return f


cdef int _put_obj(JsonFormat f, Py_ssize_t i, object v, JBuf *b) except -1:
    """A decoded Python value through the format's callables (None is always null)."""
    if v is None:
        return jb_put(b, b"null", 4)
    fn = f.column_json[i] if f.mode[i] == R_COLUMN else f.value_json
    text = fn(v)
    return jb_put_str(b, text)


cdef int _render_value(JsonFormat f, Py_ssize_t i, Cursor *c, object fenced, JBuf *b) except -1:
    """The JSON text of column i's value at the cursor; the reads and checks mirror rows.pxi
    ``_value`` kind by kind (same cursor steps, same errors)."""
    cdef CompiledPlan plan = f.plan
    cdef Step *s = &plan.steps[i]
    cdef const uint8_t *p
    cdef uint64_t u
    cdef int64_t v, intpart, frac, packed, a, hms, y, mo, d, z, era, doe, yoe, doy, mp, rem
    cdef Py_ssize_t n
    cdef int k, fsp, ng = 0
    cdef uint32_t u32
    cdef float fl
    cdef double dbl
    cdef uint32_t groups[10]
    cdef int widths[10]
    cdef bint negative = False
    cdef int kind = s.kind
    if f.mode[i] != R_NATIVE:
        return _put_obj(f, i, _value(plan, i, c, fenced), b)
    if kind == K_INT:
        u = cur_uint_le(c, s.a, "integer")
        if s.b:
            return jb_put_u64(b, u)
        if s.a < 8 and (u >> (8 * s.a - 1)) & 1:
            return jb_put_i64(b, <int64_t>u - (<int64_t>1 << (8 * s.a)))
        return jb_put_i64(b, <int64_t>u)
    if kind == K_STR:
        n = <Py_ssize_t>cur_uint_le(c, s.a, "string length")
        if s.b >= 0 and n > s.b:
            raise CorruptEventError(f"string of {n} bytes exceeds the column maximum of {s.b}")
        cur_need(c, n, "string")
        p = c.p
        c.p += n
        if s.c == S_BYTES:
            return jb_put_base64(b, p, n, s.d)
        if s.c == S_UTF8 and _utf8_json(b, p, n):
            return 0
        return jb_put_json_str(b, _text(s, p, n))
    if kind == K_NEWDEC:
        _newdecimal_groups(s, c, groups, widths, &ng, &negative)
        return jb_put_decimal(b, s, negative, groups, widths, ng)
    if kind == K_DATETIME2:
        fsp = s.a
        n = 5 + _FRAC_BYTES[fsp]
        cur_need(c, n, "DATETIME2")
        u = _be(c.p, 5)
        if not (u & 0x8000000000):
            raise CorruptEventError("DATETIME2 with the sign bit cleared (negative datetime)")
        frac = <int64_t>_be(c.p + 5, _FRAC_BYTES[fsp]) * _FRAC_MULT[fsp]
        c.p += n
        a = <int64_t>((u >> 17) & 0x3FFFFF)    # year*13+month << 5 | day
        hms = <int64_t>(u & 0x1FFFF)
        y = (a >> 5) // 13
        mo = (a >> 5) % 13
        return _put_datetime(f, i, y, mo, a & 31, hms >> 12, (hms >> 6) & 63, hms & 63, frac, b)
    if kind == K_DOUBLE:
        u = cur_uint_le(c, 8, "DOUBLE")
        memcpy(&dbl, &u, 8)
        if not Py_IS_FINITE(dbl):
            return _put_obj(f, i, dbl, b)
        return jb_put_double(b, dbl)
    if kind == K_FLOAT:
        u32 = <uint32_t>cur_uint_le(c, 4, "FLOAT")
        memcpy(&fl, &u32, 4)
        dbl = <double>fl
        if not Py_IS_FINITE(dbl):
            return _put_obj(f, i, dbl, b)
        return jb_put_double(b, dbl)
    if kind == K_TIMESTAMP2 or kind == K_TIMESTAMP:
        if kind == K_TIMESTAMP2:
            fsp = s.a
            n = 4 + _FRAC_BYTES[fsp]
            cur_need(c, n, "TIMESTAMP2")
            u = _be(c.p, 4)
            frac = <int64_t>_be(c.p + 4, _FRAC_BYTES[fsp]) * _FRAC_MULT[fsp]
            c.p += n
        else:
            u = cur_uint_le(c, 4, "TIMESTAMP")
            frac = 0
        if u == 0 or frac >= 1000000:
            # the zero TIMESTAMP (text) or a corrupt fraction (the decoder's error)
            return _put_obj(f, i, _timestamp(plan.metas[i], u, frac), b)
        # civil date of a day count since 1970-01-01, as rows.pxi _timestamp (32-bit seconds: the
        # year is at most 2106, so the datetime it builds is always in range)
        z = <int64_t>(u // 86400)
        rem = <int64_t>(u % 86400)
        z += 719468
        era = z // 146097
        doe = z - era * 146097
        yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
        y = yoe + era * 400
        doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
        mp = (5 * doy + 2) // 153
        d = doy - (153 * mp + 2) // 5 + 1
        mo = mp + 3 if mp < 10 else mp - 9
        if mo <= 2:
            y += 1
        if y > 9999:
            return _put_obj(f, i, _timestamp(plan.metas[i], u, frac), b)
        jb_putc(b, 34)
        jb_put_date(b, <int>y, <int>mo, <int>d)
        jb_putc(b, 84)   # 'T'
        jb_put_hms_frac(b, <int>(rem // 3600), <int>(rem // 60 % 60), <int>(rem % 60), <int>frac)
        return jb_put(b, b"Z\"", 2)
    if kind == K_TIME2:
        fsp = s.a
        n = 3 + _FRAC_BYTES[fsp]
        cur_need(c, n, "TIME2")
        if fsp >= 5:
            packed = <int64_t>_be(c.p, 6) - <int64_t>0x800000000000
        else:
            intpart = <int64_t>_be(c.p, 3) - 0x800000
            frac = 0
            if fsp:
                k = _FRAC_BYTES[fsp]
                frac = <int64_t>_be(c.p + 3, k)
                if intpart < 0 and frac:
                    intpart += 1
                    frac -= (<int64_t>1) << (8 * k)
                frac *= _FRAC_MULT[fsp]
            packed = intpart * (<int64_t>1 << 24) + frac
        c.p += n
        a = -packed if packed < 0 else packed
        hms = a >> 24
        jb_putc(b, 34)
        jb_put_timedelta(b, packed < 0, (((hms >> 12) & 1023) * 60 + ((hms >> 6) & 63)) * 60 + (hms & 63),
                         a & 0xFFFFFF)
        return jb_putc(b, 34)
    if kind == K_DATE:
        u = cur_uint_le(c, 3, "DATE")
        y = <int64_t>(u >> 9)
        mo = <int64_t>((u >> 5) & 15)
        d = <int64_t>(u & 31)
        if _valid_date(y, mo, d):
            jb_putc(b, 34)
            jb_put_date(b, <int>y, <int>mo, <int>d)
            return jb_putc(b, 34)
        return _put_obj(f, i, _invalid_text(plan.metas[i], y, mo, d), b)
    if kind == K_YEAR:
        u = cur_uint_le(c, 1, "YEAR")
        return jb_put_u64(b, 1900 + u if u else 0)
    if kind == K_ENUM:
        u = cur_uint_le(c, s.a, "ENUM")
        names = f.enum_json[i]
        if names is None:
            return jb_put_u64(b, u)
        if u == 0:
            return jb_put(b, b'""', 2)
        if u > <uint64_t>len(<list>names):
            raise CorruptEventError(f"ENUM index {u} beyond its {len(names)} members")
        enc = (<list>names)[u - 1]
        return jb_put(b, PyBytes_AS_STRING(enc), len(<bytes>enc))
    if kind == K_SET:
        return jb_put_u64(b, cur_uint_le(c, s.a, "SET"))
    if kind == K_BIT:
        cur_need(c, s.a, "BIT")
        u = _be(c.p, s.a)
        c.p += s.a
        return jb_put_u64(b, u)
    if kind == K_NULL:
        return jb_put(b, b"null", 4)
    if kind == K_DATETIME:
        u = cur_uint_le(c, 8, "DATETIME")
        a = <int64_t>(u // 1000000)
        v = <int64_t>(u % 1000000)
        return _put_datetime(f, i, a // 10000, (a // 100) % 100, a % 100, v // 10000, (v // 100) % 100, v % 100,
                             0, b)
    if kind == K_TIME:
        u = cur_uint_le(c, 3, "TIME")
        v = <int64_t>u
        if v & 0x800000:
            v -= 0x1000000
        a = -v if v < 0 else v
        jb_putc(b, 34)
        jb_put_timedelta(b, v < 0, (a // 10000) * 3600 + ((a // 100) % 100) * 60 + a % 100, 0)
        return jb_putc(b, 34)
    return _put_obj(f, i, _py_value(plan, i, c, fenced), b)


cdef int _put_datetime(JsonFormat f, Py_ssize_t i, int64_t y, int64_t mo, int64_t d, int64_t h, int64_t mi,
                       int64_t s, int64_t us, JBuf *b) except -1:
    """datetime.isoformat() of a valid naive DATETIME, else the decoder's invalid-date value."""
    if _valid_date(y, mo, d) and _valid_time(h, mi, s, us):
        jb_putc(b, 34)
        jb_put_date(b, <int>y, <int>mo, <int>d)
        jb_putc(b, 84)   # 'T'
        jb_put_hms_frac(b, <int>h, <int>mi, <int>s, <int>us)
        return jb_putc(b, 34)
    return _put_obj(f, i, _invalid_text(f.plan.metas[i], y, mo, d, h, mi, s, us), b)


cdef int _render_image(JsonFormat f, Cursor *c, int *cols, Py_ssize_t n, object fenced, ErrAt *at,
                       JBuf *b) except -1:
    """One row image as a JSON object of its present columns in table order (rows.pxi ``_image``:
    the same null bitmap read and per-column error position)."""
    cdef Py_ssize_t nb = (n + 7) >> 3, j, i
    cdef const uint8_t *nulls
    at.column = cols[0] if n else -1
    at.value_start = c.p - c.base
    cur_need(c, nb, "null bitmap")
    nulls = c.p
    c.p += nb
    jb_putc(b, 123)   # '{'
    for j in range(n):
        i = cols[j]
        if j:
            jb_putc(b, 44)
        jb_put(b, f.key_p[i], f.key_n[i])
        if (nulls[j >> 3] >> (j & 7)) & 1:
            jb_put(b, b"null", 4)
        else:
            at.column = i
            at.value_start = c.p - c.base
            _render_value(f, i, c, fenced, b)
    return jb_putc(b, 125)   # '}'


cdef Py_ssize_t _render_run(CompiledPlan plan, JsonFormat fmt, buf, Py_ssize_t start, Py_ssize_t end, present1,
                            present2, Py_ssize_t base, int op, const char **part, Py_ssize_t *plen,
                            Py_ssize_t total0, Py_ssize_t table0, bint split, Py_ssize_t limit) except -1:
    """The rows of a rows event rendered into fmt's buffers: with ``split`` each image's JSON text
    into its own buffer (fmt.out: before, fmt.side[0]: after) and each image's start as int32 into
    fmt.side[1] / side[2] (a row per entry, then the end: Arrow's string offsets), else whole lines
    of the template ``part`` into fmt.out. Returns the row count. The checks, the cursor and the
    error positions are decode_rows' (rows.pxi). The caller has checked :func:`_idle` first: its
    ``finally`` takes the buffers out, which must not happen under a run in progress."""
    cdef const unsigned char[::1] mv = buf
    cdef const unsigned char[::1] p1 = present1
    cdef const unsigned char[::1] p2
    cdef Cursor c
    cdef ErrAt at
    cdef JBuf *jb = &fmt.out
    cdef JBuf *img2 = &fmt.side[0] if split else &fmt.out
    cdef int *cols1 = NULL
    cdef int *cols2 = NULL
    cdef int n1, n2 = 0
    cdef bint update = present2 is not None
    cdef Py_ssize_t nrows = 0
    if fmt.plan is not plan:
        raise ValueError("the JSON format was compiled for another plan")
    if op < 0 or op > 2 or (op == 2) != update:
        raise ValueError(f"op {op} does not fit the rows event's images")
    cdef Py_ssize_t nb = (plan.ncols + 7) >> 3
    if start < 0 or end > mv.shape[0] or start > end:
        raise CorruptEventError(f"row range {start}..{end} outside a buffer of {mv.shape[0]} bytes")
    if p1.shape[0] < nb:
        raise TruncatedError(f"columns-present bitmap of {p1.shape[0]} bytes for {plan.ncols} columns",
                             needed=nb, available=p1.shape[0])
    if update:
        p2 = present2
        if p2.shape[0] < nb:
            raise TruncatedError(f"columns-present bitmap of {p2.shape[0]} bytes for {plan.ncols} columns",
                                 needed=nb, available=p2.shape[0])
    fenced = None
    if plan.has_py:
        fenced = buf if end == mv.shape[0] else memoryview(buf)[:end]
    c.base = &mv[0] if mv.shape[0] else NULL
    c.p = c.base + start
    c.end = c.base + end
    at.column = -1
    at.value_start = start
    jb.n = fmt.side[0].n = fmt.side[1].n = fmt.side[2].n = 0
    cols1 = <int *>malloc(sizeof(int) * (plan.ncols + 1))
    cols2 = <int *>malloc(sizeof(int) * (plan.ncols + 1))
    if cols1 == NULL or cols2 == NULL:
        free(cols1)
        free(cols2)
        raise MemoryError()
    fmt.busy = True
    try:
        n1 = _present(p1, plan.ncols, cols1)
        if update:
            n2 = _present(p2, plan.ncols, cols2)
        if start < end and n1 == 0 and n2 == 0:
            raise CorruptEventError(f"{end - start} bytes of rows but no column is present in either image",
                                    offset=base + start)
        # a guess (a line is a few times its row image); the buffer grows on demand
        jb_reserve(jb, (end - start) * 2 + 4096)
        try:
            while c.p < c.end:
                # {"before": B ,"after": A ,"source":...row: N ...total_order: N ,...order: N }\n
                if split:
                    _put_offset(&fmt.side[1], jb.n, limit)
                    _put_offset(&fmt.side[2], img2.n, limit)
                else:
                    jb_put(jb, part[0], plen[0])
                if op == 0:
                    jb_put(jb, b"null", 4)
                else:
                    _render_image(fmt, &c, cols1, n1, fenced, &at, jb)
                if not split:
                    jb_put(jb, part[1], plen[1])
                if op == 1:
                    jb_put(img2, b"null", 4)
                else:
                    _render_image(fmt, &c, cols2 if update else cols1, n2 if update else n1, fenced, &at, img2)
                if not split:
                    jb_put(jb, part[2], plen[2])
                    jb_put_u64(jb, <uint64_t>nrows)
                    jb_put(jb, part[3], plen[3])
                    jb_put_u64(jb, <uint64_t>(total0 + nrows + 1))
                    jb_put(jb, part[4], plen[4])
                    jb_put_u64(jb, <uint64_t>(table0 + nrows + 1))
                    jb_put(jb, part[5], plen[5])
                nrows += 1
            if split:
                _put_offset(&fmt.side[1], jb.n, limit)
                _put_offset(&fmt.side[2], img2.n, limit)
        except TruncatedError as e:
            raise RowImageOverrunError(f"row image runs past the end of the rows event: {e.message}",
                                       needed=e.needed, available=e.available,
                                       offset=base + (e.offset if e.offset is not None else at.value_start),
                                       column=at.column if at.column >= 0 else None) from None
        except BinlogError as e:
            if e.offset is None:
                e.offset = at.value_start
            e.offset += base
            raise e.with_context(column=at.column if at.column >= 0 else None)
        return nrows
    finally:
        fmt.busy = False
        free(cols1)
        free(cols2)


cdef int _idle(JsonFormat fmt) except -1:
    """A value callable may call back into the renderer: a format's buffers serve one run at a time."""
    if fmt.busy:
        raise RuntimeError("render_rows re-entered with the same format")
    return 0


cdef int _put_offset(JBuf *b, Py_ssize_t v, Py_ssize_t limit) except -1:
    """An Arrow string offset: int32 in the machine's byte order, as Arrow's buffers are."""
    cdef int32_t o
    if v > limit:
        raise OverflowError(f"rendered images of {v} bytes pass the limit of {limit}")
    o = <int32_t>v
    return jb_put(b, <const char *>&o, 4)


cdef object _take_out(JBuf *b):
    """The buffer's bytes; a huge rows event (blobs) does not keep its buffer: memory stays flat."""
    out = PyBytes_FromStringAndSize(b.data, b.n)
    if b.cap > (1 << 22):
        free(b.data)
        b.data = NULL
        b.n = b.cap = 0
    return out


def render_rows(CompiledPlan plan, JsonFormat fmt, buf, Py_ssize_t start, Py_ssize_t end, present1, present2,
                Py_ssize_t base, int op, tuple parts, Py_ssize_t total0, Py_ssize_t table0):
    """See mysqlddl.binlog.rows.render_rows (op: 0 insert, 1 delete, 2 update). Returns (bytes, rows):
    the text is ASCII (every part and every value's JSON text is), so it goes out as it is."""
    cdef const char *part[6]
    cdef Py_ssize_t plen[6]
    cdef Py_ssize_t k, n
    if len(parts) != 6:
        raise ValueError("parts must be 6 strings")
    for k in range(6):
        part[k] = PyUnicode_AsUTF8AndSize(<str>parts[k], &plen[k])
    _idle(fmt)
    try:
        n = _render_run(plan, fmt, buf, start, end, present1, present2, base, op, part, plen, total0, table0,
                        False, 0)
    finally:
        text = _take_out(&fmt.out)
    return text, n


def render_images(CompiledPlan plan, JsonFormat fmt, buf, Py_ssize_t start, Py_ssize_t end, present1, present2,
                  Py_ssize_t base, int op, Py_ssize_t limit):
    """See mysqlddl.binlog.rows.render_images. Returns (before, before_offsets, after, after_offsets,
    rows)."""
    cdef Py_ssize_t n
    if limit < 0 or limit > 0x7FFFFFFF:
        raise ValueError(f"limit {limit} is not an int32 offset")
    _idle(fmt)
    try:
        n = _render_run(plan, fmt, buf, start, end, present1, present2, base, op, NULL, NULL, 0, 0, True, limit)
    finally:
        before, after = _take_out(&fmt.out), _take_out(&fmt.side[0])
        boffs, aoffs = _take_out(&fmt.side[1]), _take_out(&fmt.side[2])
    return before, boffs, after, aoffs, n
