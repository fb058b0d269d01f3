# Row images: the compiled twin of mysqlddl/binlog/_twin.py decode_rows (STYLE.md 8, 10, 11).
#
# compile_plan() turns the ColumnMeta tuple built by mysqlddl.binlog.rows.build_plan into a C array
# of steps; decode_rows() walks the row images through the bounded cursor (cursor.pxi) with no
# per-value Python slicing. Frequent types are decoded inline here; rare ones (JSON, GEOMETRY,
# VECTOR, MariaDB COMPRESSED and pre-10.1 hires temporals, SET names, CHAR padding, pre-5.0
# DECIMAL) call the pure decoder of mysqlddl.binlog.values on a view fenced at the body end, so
# both twins return identical values by construction. The byte layouts are documented (with the
# server symbols they come from) next to the pure decoders; the comments here only name them.

from libc.stdint cimport int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from cpython.unicode cimport PyUnicode_DecodeUTF8, PyUnicode_DecodeASCII
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.datetime cimport import_datetime, date_new, datetime_new, timedelta_new

cdef extern from "Python.h":
    object PyUnicode_DecodeCharmap(const char *s, Py_ssize_t size, object mapping, const char *errors)
    object PyUnicode_Decode(const char *s, Py_ssize_t size, const char *encoding, const char *errors)

import datetime as _datetime
from decimal import Decimal as _Decimal
from mysqlddl.errors import BinlogError, RowImageOverrunError
from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.binlog.values import decoder_for as _decoder_for
from mysqlddl.binlog.values import charsets as _charsets
from mysqlddl.binlog.values.jsonb import decode_json_diff as _decode_json_diff
from mysqlddl.binlog.values.temporal import invalid_text as _invalid_text

import_datetime()
cdef object _UTC = _datetime.timezone.utc
cdef object _LATIN1_TABLE = _charsets.LATIN1_TABLE
cdef object _ABSENT = None   # set on first use (mysqlddl.binlog.rows imports speedups)

# step kinds
DEF K_PY = 0
DEF K_NULL = 1
DEF K_INT = 2
DEF K_FLOAT = 3
DEF K_DOUBLE = 4
DEF K_NEWDEC = 5
DEF K_YEAR = 6
DEF K_DATE = 7
DEF K_TIME2 = 8
DEF K_DATETIME2 = 9
DEF K_TIMESTAMP2 = 10
DEF K_TIMESTAMP = 11
DEF K_DATETIME = 12
DEF K_TIME = 13
DEF K_STR = 14
DEF K_ENUM = 15
DEF K_SET = 16
DEF K_BIT = 17

# Step.width for values that are not of a fixed size
DEF W_PREFIXED = -1
DEF W_OPAQUE = -2

# text modes of K_STR
DEF S_BYTES = 0
DEF S_UTF8 = 1
DEF S_CHARMAP = 2
DEF S_CODEC = 3

cdef struct Step:
    int kind
    int a          # size / fsp / len_bytes / precision
    int b          # unsigned / scale / max length (-1: none)
    int c          # decimal size / text mode
    int d          # decimal as str / BINARY pad length
    const char *enc
    const char *errors
    bint escape    # text errors="surrogateescape" (decoded in _utf8 itself)
    int width      # bytes of a value: >= 0 fixed; W_PREFIXED: an `a`-byte length, then that many;
                   # W_OPAQUE: known only to its decoder (see _span)


cdef class CompiledPlan:
    """C steps of a DecodePlan (one per column), plus the Python objects some steps need."""
    cdef Step *steps
    cdef Py_ssize_t ncols
    cdef list metas
    cdef list decoders
    cdef list names
    cdef list keep
    cdef bint has_py

    def __cinit__(self):
        self.steps = NULL

    def __dealloc__(self):
        if self.steps != NULL:
            free(self.steps)

    def __len__(self):
        return self.ncols


_INT_SIZES = {T.TINY: 1, T.SHORT: 2, T.INT24: 3, T.LONG: 4, T.LONGLONG: 8}
_STRING_TYPES = frozenset({T.STRING, T.VAR_STRING, T.VARCHAR, T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB, T.BLOB})


cdef int _fsp_of(object m):
    return 0 if m.fsp is None else <int>m.fsp


def compile_plan(columns):
    """ColumnMeta tuple -> CompiledPlan (the C form of the plan)."""
    cdef CompiledPlan p = CompiledPlan()
    cdef Py_ssize_t i, n = len(columns)
    cdef Step *s
    p.ncols = n
    p.steps = <Step *>malloc(sizeof(Step) * (n if n else 1))
    if p.steps == NULL:
        raise MemoryError()
    memset(p.steps, 0, sizeof(Step) * (n if n else 1))
    p.metas = list(columns)
    p.decoders = [_decoder_for(m.type) for m in columns]
    p.names = [m.names for m in columns]
    p.keep = []
    p.has_py = False
    for i in range(n):
        m = columns[i]
        s = &p.steps[i]
        t = m.type
        s.kind = K_PY
        if t in _INT_SIZES:
            s.kind = K_INT
            s.a = _INT_SIZES[t]
            s.b = 1 if m.unsigned else 0
        elif t == T.NULL:
            s.kind = K_NULL
        elif t == T.FLOAT:
            s.kind = K_FLOAT
        elif t == T.DOUBLE:
            s.kind = K_DOUBLE
        elif t == T.NEWDECIMAL:
            s.kind = K_NEWDEC
            s.a = m.precision
            s.b = m.scale
            s.c = m.length
            s.d = 1 if m.decimal_as_str else 0
        elif t == T.YEAR:
            s.kind = K_YEAR
        elif t in (T.DATE, T.NEWDATE):
            s.kind = K_DATE
        elif t == T.TIME2:
            s.kind = K_TIME2
            s.a = _fsp_of(m)
        elif t == T.DATETIME2:
            s.kind = K_DATETIME2
            s.a = _fsp_of(m)
        elif t == T.TIMESTAMP2:
            s.kind = K_TIMESTAMP2
            s.a = _fsp_of(m)
        elif t == T.TIMESTAMP and _fsp_of(m) == 0:
            s.kind = K_TIMESTAMP
        elif t == T.DATETIME and _fsp_of(m) == 0:
            s.kind = K_DATETIME
        elif t == T.TIME and _fsp_of(m) == 0:
            s.kind = K_TIME
        elif t in _STRING_TYPES and not m.pad_chars:
            s.kind = K_STR
            s.a = m.len_bytes
            s.b = m.length if t in (T.STRING, T.VAR_STRING, T.VARCHAR) else -1
            s.d = m.pad_bytes
            if m.encoding is None:
                s.c = S_BYTES
            else:
                if m.encoding == "utf-8":
                    s.c = S_UTF8
                elif m.encoding == _charsets.MYSQL_LATIN1:
                    s.c = S_CHARMAP
                else:
                    s.c = S_CODEC
                    enc = m.encoding.encode("ascii")
                    p.keep.append(enc)
                    s.enc = PyBytes_AS_STRING(enc)
                errs = m.errors.encode("ascii")
                p.keep.append(errs)
                s.errors = PyBytes_AS_STRING(errs)
                s.escape = m.errors == "surrogateescape"
        elif t == T.ENUM:
            s.kind = K_ENUM
            s.a = m.length
        elif t == T.SET and m.names is None:
            s.kind = K_SET
            s.a = m.length
        elif t == T.BIT:
            s.kind = K_BIT
            s.a = m.length
        if s.kind == K_PY:
            p.has_py = True
        s.width = _step_width(s)
    return p


# ----------------------------------------------------------------------------------- primitives

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


cdef int _DAYS_IN_MONTH[14]
_DAYS_IN_MONTH[:] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0]


cdef inline bint _valid_date(int64_t y, int64_t mo, int64_t d):
    cdef int dim
    if y < 1 or y > 9999 or mo < 1 or mo > 12 or d < 1:
        return False
    dim = _DAYS_IN_MONTH[mo]
    if mo == 2 and (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)):
        dim = 29
    return d <= dim


cdef inline bint _valid_time(int64_t h, int64_t mi, int64_t s, int64_t us):
    return 0 <= h < 24 and 0 <= mi < 60 and 0 <= s < 60 and 0 <= us < 1000000


cdef object _datetime_or_text(object meta, int64_t y, int64_t mo, int64_t d, int64_t h, int64_t mi,
                              int64_t s, int64_t us):
    if _valid_date(y, mo, d) and _valid_time(h, mi, s, us):
        return datetime_new(<int>y, <int>mo, <int>d, <int>h, <int>mi, <int>s, <int>us, None)
    return _invalid_text(meta, y, mo, d, h, mi, s, us)


cdef object _timestamp(object meta, uint64_t secs, int64_t us):
    """UTC datetime of epoch seconds; 0 is the zero TIMESTAMP (see values/temporal.py)."""
    cdef int64_t z, era, doe, yoe, y, doy, mp, d, m, rem
    if secs == 0:
        return _invalid_text(meta, 0, 0, 0, 0, 0, 0, 0)
    if us >= 1000000:
        raise CorruptEventError(f"TIMESTAMP fraction {us} is not below one second")
    # civil date of a day count since 1970-01-01 (proleptic Gregorian, 400-year eras)
    z = <int64_t>(secs // 86400)
    rem = <int64_t>(secs % 86400)
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    if m <= 2:
        y += 1
    if y > 9999:
        return _datetime.datetime(1970, 1, 1, tzinfo=_UTC) + _datetime.timedelta(seconds=secs, microseconds=us)
    return datetime_new(<int>y, <int>m, <int>d, <int>(rem // 3600), <int>(rem // 60 % 60), <int>(rem % 60),
                        <int>us, _UTC)


cdef inline object _time(bint negative, int64_t secs, int64_t us):
    if negative:
        return timedelta_new(0, <int>-secs, <int>-us)
    return timedelta_new(0, <int>secs, <int>us)


cdef int _FRAC_BYTES[7]
_FRAC_BYTES[:] = [0, 1, 1, 2, 2, 3, 3]
cdef int _FRAC_MULT[7]
_FRAC_MULT[:] = [1, 10000, 10000, 100, 100, 1, 1]


cdef int _step_width(Step *s):
    """Step.width: the size of a value of this step in the row image (the layouts of _value)."""
    cdef int kind = s.kind
    if kind == K_STR:
        return W_PREFIXED
    if kind == K_INT:
        return s.a
    if kind == K_NEWDEC:
        return s.c
    if kind == K_ENUM or kind == K_SET or kind == K_BIT:
        return s.a
    if kind == K_FLOAT or kind == K_TIMESTAMP:
        return 4
    if kind == K_DOUBLE or kind == K_DATETIME:
        return 8
    if kind == K_DATE or kind == K_TIME:
        return 3
    if kind == K_YEAR:
        return 1
    if kind == K_TIME2:
        return 3 + _FRAC_BYTES[s.a]
    if kind == K_TIMESTAMP2:
        return 4 + _FRAC_BYTES[s.a]
    if kind == K_DATETIME2:
        return 5 + _FRAC_BYTES[s.a]
    return W_OPAQUE   # K_PY (JSON values are mutable: never shared), K_NULL


cdef int _DIG2BYTES[10]
_DIG2BYTES[:] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
cdef uint32_t _POW10[10]
_POW10[:] = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]


cdef int _digits(char *out, uint32_t v, int width):
    """v as exactly `width` decimal digits (zero-padded) at out."""
    cdef int i
    for i in range(width - 1, -1, -1):
        out[i] = <char>(48 + v % 10)
        v //= 10
    return width


cdef object _newdecimal(Step *s, Cursor *c):
    """strings/decimal.c bin2decimal (layout: mysqlddl/binlog/values/numeric.py): the digit groups
    (base 10^9, each checked), then a Decimal built from them (decimal.pxi) or the exact text."""
    cdef uint32_t groups[10]   # at most 9: a partial group at each end, 7 full ones (65 digits)
    cdef int widths[10]
    cdef int ng = 0, scale = s.b, intg = s.a - s.b
    cdef bint negative = False
    _newdecimal_groups(s, c, groups, widths, &ng, &negative)
    if DECIMAL_FAST and not s.d:
        out = _dec_from_groups(negative, groups, widths, ng, scale)
        if out is not None:
            return out
    out = _decimal_text(negative, groups, widths, ng, intg // 9 + (1 if intg % 9 else 0), scale)
    return out if s.d else _Decimal(out)


cdef int _newdecimal_groups(Step *s, Cursor *c, uint32_t *groups, int *widths, int *ngroups,
                            bint *is_negative) except -1:
    """The checked base-10^9 digit groups of a NEWDECIMAL value (most significant first, widths[i]
    digits each) and its sign; shared by the decoder and the JSON renderer (jsonl.pxi)."""
    cdef uint8_t b[80]
    cdef int size = s.c, prec = s.a, scale = s.b
    cdef int intg = prec - scale, i, k, pos = 0, ng = 0, lead, tail
    cdef uint32_t v
    cdef bint negative
    cur_need(c, size, "DECIMAL")
    memcpy(b, c.p, size)
    negative = not (b[0] & 0x80)
    b[0] ^= 0x80
    if negative:
        for i in range(size):
            b[i] ^= 0xFF
    lead = intg % 9
    if lead:
        k = _DIG2BYTES[lead]
        v = <uint32_t>_be(b + pos, k)
        pos += k
        if v >= _POW10[lead]:
            raise CorruptEventError(f"DECIMAL({prec},{scale}) digit group {v} has more than {lead} digits")
        groups[ng] = v
        widths[ng] = lead
        ng += 1
    for i in range(intg // 9 + scale // 9):
        v = <uint32_t>_be(b + pos, 4)
        pos += 4
        if v >= 1000000000:
            raise CorruptEventError(f"DECIMAL({prec},{scale}) digit group {v} has more than 9 digits")
        groups[ng] = v
        widths[ng] = 9
        ng += 1
    tail = scale % 9
    if tail:
        k = _DIG2BYTES[tail]
        v = <uint32_t>_be(b + pos, k)
        pos += k
        if v >= _POW10[tail]:
            raise CorruptEventError(f"DECIMAL({prec},{scale}) digit group {v} has more than {tail} digits")
        groups[ng] = v
        widths[ng] = tail
        ng += 1
    c.p += size
    ngroups[0] = ng
    is_negative[0] = negative
    return 0


cdef object _decimal_text(bint negative, const uint32_t *groups, const int *widths, int ng, int nint, int scale):
    """The exact text: sign, integer digits without leading zeros (at least one), '.', the scale
    fraction digits. ``nint`` of the ``ng`` groups belong to the integer part."""
    cdef char text[160]
    cdef int t = _decimal_chars(text, negative, groups, widths, ng, nint, scale)
    return PyUnicode_DecodeASCII(text, t, NULL)


cdef int _decimal_chars(char *text, bint negative, const uint32_t *groups, const int *widths, int ng, int nint,
                        int scale):
    """_decimal_text into ``text`` (at least 160 bytes); returns the length."""
    cdef int t = 0, first, k, g
    if negative:
        text[t] = 45  # '-'
        t += 1
    first = t
    for g in range(nint):
        t += _digits(text + t, groups[g], widths[g])
    k = first
    while k < t - 1 and text[k] == 48:
        k += 1
    if k > first:
        memcpy(text + first, text + k, t - k)
        t -= k - first
    if t == first:
        text[t] = 48
        t += 1
    if scale:
        text[t] = 46  # '.'
        t += 1
        for g in range(nint, ng):
            t += _digits(text + t, groups[g], widths[g])
    return t


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


cdef inline object _int(Step *s, Cursor *c):
    """K_INT: a little-endian integer of s.a bytes, unsigned when s.b."""
    cdef uint64_t u = cur_uint_le(c, s.a, "integer")
    if s.b:
        return u
    if s.a < 8 and (u >> (8 * s.a - 1)) & 1:
        return <int64_t>u - (<int64_t>1 << (8 * s.a))
    return <int64_t>u


cdef object _value(CompiledPlan plan, Py_ssize_t i, Cursor *c, object fenced):
    cdef Step *s = &plan.steps[i]
    cdef const uint8_t *p
    cdef uint64_t u
    cdef int64_t v, intpart, frac, packed, a, hms, y, mo, d
    cdef Py_ssize_t n
    cdef int k, fsp
    cdef uint32_t u32
    cdef float f
    cdef double dbl
    cdef int kind = s.kind
    if kind == K_INT:
        return _int(s, c)
    if kind == K_STR:
        n = <Py_ssize_t>cur_uint_le(c, s.a, "string length")
        if s.b >= 0 and n > s.b:
            raise CorruptEventError(f"string of {n} bytes exceeds the column maximum of {s.b}")
        cur_need(c, n, "string")
        p = c.p
        c.p += n
        return _text(s, p, n)
    if kind == K_NEWDEC:
        return _newdecimal(s, c)
    if kind == K_DATETIME2:
        fsp = s.a
        n = s.width              # (_step_width: the integer part, then the fraction)
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
        return _datetime_or_text(plan.metas[i], y, mo, a & 31, hms >> 12, (hms >> 6) & 63, hms & 63, frac)
    if kind == K_DOUBLE:
        u = cur_uint_le(c, 8, "DOUBLE")
        memcpy(&dbl, &u, 8)
        return dbl
    if kind == K_FLOAT:
        u32 = <uint32_t>cur_uint_le(c, 4, "FLOAT")
        memcpy(&f, &u32, 4)
        return <double>f
    if kind == K_TIMESTAMP2:
        fsp = s.a
        n = s.width              # (_step_width: the integer part, then the fraction)
        cur_need(c, n, "TIMESTAMP2")
        u = _be(c.p, 4)
        frac = <int64_t>_be(c.p + 4, _FRAC_BYTES[fsp]) * _FRAC_MULT[fsp]
        c.p += n
        return _timestamp(plan.metas[i], u, frac)
    if kind == K_TIME2:
        fsp = s.a
        n = s.width              # (_step_width: the integer part, then the fraction)
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
        return _time(packed < 0, (((hms >> 12) & 1023) * 60 + ((hms >> 6) & 63)) * 60 + (hms & 63), a & 0xFFFFFF)
    if kind == K_DATE:
        u = cur_uint_le(c, 3, "DATE")
        y = <int64_t>(u >> 9)
        mo = <int64_t>((u >> 5) & 15)
        d = <int64_t>(u & 31)
        if _valid_date(y, mo, d):
            return date_new(<int>y, <int>mo, <int>d)
        return _invalid_text(plan.metas[i], y, mo, d)
    if kind == K_YEAR:
        u = cur_uint_le(c, 1, "YEAR")
        return <int64_t>(1900 + u) if u else 0
    if kind == K_ENUM:
        return _enum(plan, i, cur_uint_le(c, s.a, "ENUM"))
    if kind == K_SET:
        return cur_uint_le(c, s.a, "SET")
    if kind == K_BIT:
        cur_need(c, s.a, "BIT")
        u = _be(c.p, s.a)
        c.p += s.a
        return u
    if kind == K_NULL:
        return None
    if kind == K_TIMESTAMP:
        return _timestamp(plan.metas[i], cur_uint_le(c, 4, "TIMESTAMP"), 0)
    if kind == K_DATETIME:
        u = cur_uint_le(c, 8, "DATETIME")
        a = <int64_t>(u // 1000000)
        v = <int64_t>(u % 1000000)
        return _datetime_or_text(plan.metas[i], a // 10000, (a // 100) % 100, a % 100,
                                 v // 10000, (v // 100) % 100, v % 100, 0)
    if kind == K_TIME:
        u = cur_uint_le(c, 3, "TIME")
        v = <int64_t>u
        if v & 0x800000:
            v -= 0x1000000
        a = -v if v < 0 else v
        return _time(v < 0, (a // 10000) * 3600 + ((a // 100) % 100) * 60 + a % 100, 0)
    return _py_value(plan, i, c, fenced)


cdef object _enum(CompiledPlan plan, Py_ssize_t i, uint64_t u):
    names = plan.names[i]
    if names is None:
        return u
    if u == 0:
        return ""
    if u > <uint64_t>len(names):
        raise CorruptEventError(f"ENUM index {u} beyond its {len(names)} members")
    return names[u - 1]


cdef object _py_value(CompiledPlan plan, Py_ssize_t i, Cursor *c, object fenced):
    """K_PY: the pure decoder of mysqlddl.binlog.values on the view fenced at the body end."""
    return _py_call(plan.decoders[i], plan, i, c, fenced)


cdef object _py_call(object decoder, CompiledPlan plan, Py_ssize_t i, Cursor *c, object fenced):
    start = c.p - c.base
    value, new = decoder(fenced, start, plan.metas[i])
    if new < start or new > c.end - c.base:
        raise CorruptEventError(f"decoder for column {i} moved to {new}, outside {start}..{c.end - c.base}")
    c.p = c.base + <Py_ssize_t>new
    return value


cdef struct ErrAt:
    Py_ssize_t column
    Py_ssize_t value_start


cdef struct Span:
    const uint8_t *p    # a before-image value's bytes
    Py_ssize_t n        # their count; -1: the value is NULL, absent or never shared


cdef inline Py_ssize_t _span(Step *s, Cursor *c) noexcept:
    """Bytes of the value of step ``s`` at the cursor, without decoding it; -1 if only its decoder
    can tell or the image ends first (the decoder then reports that)."""
    if s.width >= 0:
        return s.width
    if s.width == W_PREFIXED and c.end - c.p >= s.a:
        return s.a + <Py_ssize_t>_le(c.p, s.a)
    return -1


cdef tuple _image(CompiledPlan plan, Cursor *c, int *cols, Py_ssize_t n, object fenced, ErrAt *at,
                  const char *partial, Span *spans, tuple before):
    """One row image as a tuple of ncols values.

    ``spans`` links an update's two images. Decoding the before image (``before`` is None) records
    where each value's bytes lie. Decoding the after image, a value whose bytes are the same as the
    before image's is that same object: the values are immutable (JSON, whose values are not, is
    never shared), so this only saves building an equal object. In a FULL-image UPDATE most
    columns are unchanged, and their values are most of the objects an update costs."""
    cdef Py_ssize_t nb = (n + 7) >> 3, j, i
    cdef const uint8_t *nulls
    cdef const uint8_t *start
    cdef tuple row = PyTuple_New(plan.ncols)   # slots start NULL; a tuple frees NULL slots safely
    cdef object v
    cdef bint record = spans != NULL and before is None
    cdef bint share = spans != NULL and before is not None
    at.column = cols[0] if n else -1
    at.value_start = c.p - c.base
    if n != plan.ncols:
        # MINIMAL/NOBLOB image: absent columns keep the ABSENT sentinel
        for i in range(plan.ncols):
            Py_INCREF(_ABSENT)
            PyTuple_SET_ITEM(row, i, _ABSENT)
    if record:
        for i in range(plan.ncols):
            spans[i].n = -1
    cur_need(c, nb, "null bitmap")
    nulls = c.p
    c.p += nb
    for j in range(n):
        i = cols[j]
        if (nulls[j >> 3] >> (j & 7)) & 1:
            v = None
        else:
            at.column = i
            start = c.p
            at.value_start = start - c.base
            if partial != NULL and partial[i]:
                v = _py_call(_decode_json_diff, plan, i, c, fenced)
            elif share and spans[i].n >= 0 and _span(&plan.steps[i], c) == spans[i].n \
                    and c.end - start >= spans[i].n and memcmp(start, spans[i].p, spans[i].n) == 0:
                v = <object>PyTuple_GET_ITEM(before, i)
                c.p += spans[i].n
            else:
                # integers are the commonest values: decoded here, not through _value's dispatch
                v = _int(&plan.steps[i], c) if plan.steps[i].kind == K_INT else _value(plan, i, c, fenced)
                if record and plan.steps[i].width != W_OPAQUE:
                    spans[i].p = start
                    spans[i].n = c.p - start
        Py_INCREF(v)
        _put_item(row, i, v)
    return row


cdef extern from *:
    """
    /* Store v (a new reference) in slot i, releasing what was there (NULL or ABSENT). */
    static CYTHON_INLINE void __mysqlddl_put_item(PyObject *t, Py_ssize_t i, PyObject *v) {
        PyObject *old = PyTuple_GET_ITEM(t, i);
        PyTuple_SET_ITEM(t, i, v);
        Py_XDECREF(old);
    }
    """
    void _put_item "__mysqlddl_put_item"(object t, Py_ssize_t i, object v)


cdef int _present(const unsigned char[::1] bitmap, Py_ssize_t ncols, int *out):
    cdef Py_ssize_t i
    cdef int n = 0
    for i in range(ncols):
        if (bitmap[i >> 3] >> (i & 7)) & 1:
            out[n] = <int>i
            n += 1
    return n


def decode_rows(CompiledPlan plan, buf, Py_ssize_t start, Py_ssize_t end, present1, present2,
                Py_ssize_t base=0):
    """See mysqlddl.binlog.rows.decode_rows."""
    return _decode(plan, buf, start, end, present1, present2, base, False)


def decode_partial_update_rows(CompiledPlan plan, buf, Py_ssize_t start, Py_ssize_t end, present1, present2,
                               Py_ssize_t base=0):
    """See mysqlddl.binlog.rows.decode_partial_update_rows (layout: _twin.decode_partial_update_rows)."""
    if present2 is None:
        raise CorruptEventError("PARTIAL_UPDATE_ROWS without an after-image columns-present bitmap")
    return _decode(plan, buf, start, end, present1, present2, base, True)


cdef int _value_options(Cursor *c, char *partial, Py_ssize_t ncols, int *json_cols, Py_ssize_t njson,
                        ErrAt *at) except -1:
    """The head of a PARTIAL_UPDATE_ROWS after image (sql/rpl_record.cc ``pack_row``;
    sql/log_event.cc ``Rows_log_event::print_verbose_one_row``): binlog_row_value_options as a
    packed integer, then, with PARTIAL_JSON_UPDATES (bit 0), one bit per JSON column of the table
    (present in the image or not), LSB first. Sets partial[column] for the columns holding a
    Json_diff_vector."""
    cdef uint64_t first, options
    cdef Py_ssize_t k, nb
    at.column = -1
    at.value_start = c.p - c.base
    memset(partial, 0, ncols)
    first = cur_uint_le(c, 1, "length-encoded integer")
    if first < 251:
        options = first
    elif first == 251:
        raise CorruptEventError("binlog_row_value_options is NULL")
    elif first == 252:
        options = cur_uint_le(c, 2, "length-encoded integer (2 bytes)")
    elif first == 253:
        options = cur_uint_le(c, 3, "length-encoded integer (3 bytes)")
    elif first == 254:
        options = cur_uint_le(c, 8, "length-encoded integer (8 bytes)")
    else:
        raise CorruptEventError("length-encoded integer with first byte 0xff")
    if options & 1:
        nb = (njson + 7) >> 3
        cur_need(c, nb, "partial JSON bitmap")
        for k in range(njson):
            if (c.p[k >> 3] >> (k & 7)) & 1:
                partial[json_cols[k]] = 1
        c.p += nb
    return 0


cdef list _decode(CompiledPlan plan, buf, Py_ssize_t start, Py_ssize_t end, present1, present2,
                  Py_ssize_t base, bint partial_update):
    global _ABSENT
    cdef const unsigned char[::1] mv = buf
    cdef const unsigned char[::1] p1 = present1
    cdef const unsigned char[::1] p2
    cdef Cursor c
    cdef ErrAt at
    cdef int *cols1 = NULL
    cdef int *cols2 = NULL
    cdef Span *spans = NULL
    cdef int n1, n2 = 0
    cdef bint update = present2 is not None
    cdef char *partial = NULL
    cdef int *json_cols = NULL
    cdef Py_ssize_t njson = 0, i
    cdef list rows = []
    if _ABSENT is None:
        from mysqlddl.binlog.rows import ABSENT
        _ABSENT = ABSENT
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
    if plan.has_py or partial_update:
        fenced = buf if end == mv.shape[0] else memoryview(buf)[:end]
    c.base = &mv[0] if mv.shape[0] else NULL
    c.p = c.base + start
    c.end = c.base + end
    at.column = -1
    at.value_start = start
    cols1 = <int *>malloc(sizeof(int) * (plan.ncols + 1))
    cols2 = <int *>malloc(sizeof(int) * (plan.ncols + 1))
    if update:
        spans = <Span *>malloc(sizeof(Span) * (plan.ncols + 1))
    if partial_update:
        partial = <char *>malloc(plan.ncols + 1)
        json_cols = <int *>malloc(sizeof(int) * (plan.ncols + 1))
    if cols1 == NULL or cols2 == NULL or (update and spans == NULL) or (partial_update and (partial == NULL or json_cols == NULL)):
        free(cols1)
        free(cols2)
        free(spans)
        free(partial)
        free(json_cols)
        raise MemoryError()
    if partial_update:
        memset(partial, 0, plan.ncols + 1)
        for i in range(plan.ncols):
            if plan.metas[i].binlog_type == T.JSON:
                json_cols[njson] = <int>i
                njson += 1
    try:
        n1 = _present(p1, plan.ncols, cols1)
        if update:
            n2 = _present(p2, plan.ncols, cols2)
        if start < end and n1 == 0 and n2 == 0:
            raise CorruptEventError(f"{end - start} bytes of rows but no column is present in either image",
                                    offset=base + start)
        try:
            while c.p < c.end:
                before = _image(plan, &c, cols1, n1, fenced, &at, NULL, spans, None)
                if partial_update:
                    _value_options(&c, partial, plan.ncols, json_cols, njson, &at)
                    rows.append((before, _image(plan, &c, cols2, n2, fenced, &at, partial, spans, before)))
                elif update:
                    rows.append((before, _image(plan, &c, cols2, n2, fenced, &at, NULL, spans, before)))
                else:
                    rows.append(before)
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
    finally:
        free(cols1)
        free(cols2)
        free(spans)
        free(partial)
        free(json_cols)
    return rows
