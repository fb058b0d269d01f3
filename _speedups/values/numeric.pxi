# Numeric values (integers, FLOAT/DOUBLE, NEWDECIMAL, BIT, ENUM/SET indexes): one reader per type,
# shared by the Python-object decoder (rows.pxi) and the JSON renderer (jsonl.pxi). A reader takes
# the value's bytes through the bounded cursor (Step.width of them: plan.pxi), checks what the
# layout rules out and hands back the raw parts (the integer's 64 bits, the double, a NEWDECIMAL's
# sign and digit groups); each consumer makes its form of them. Layouts with diagrams:
# mysqlddl/binlog/values/numeric.py, bit.py, enum_set.py.

from libc.string cimport memcpy


cdef inline int read_int(Step *s, Cursor *c, uint64_t *out) except -1:
    """K_INT: a little-endian two's complement integer of Step.width (1, 2, 3, 4, 8) bytes
    (sql/field.cc ``Field_tiny::pack`` .. ``Field_longlong``; log_event_print_value reads them with
    sint2korr .. sint8korr). Whether the column is unsigned (s.b) is not in the row image. *out is
    the value's 64 bits: sign-extended for a signed column (read it as int64_t), as stored for an
    unsigned one."""
    cdef int n = s.width
    cdef uint64_t u = cur_uint_le(c, n, "integer")
    if not s.b and n < 8 and (u >> (8 * n - 1)) & 1:
        u -= (<uint64_t>1) << (8 * n)      # modulo 2^64: the 64-bit two's complement
    out[0] = u
    return 0


cdef inline int read_double(Cursor *c, double *out) except -1:
    """DOUBLE: 8 bytes IEEE 754 binary64, little-endian (``float8get``)."""
    cdef uint64_t u = cur_uint_le(c, W_DOUBLE, "DOUBLE")
    memcpy(out, &u, 8)
    return 0


cdef inline int read_float(Cursor *c, double *out) except -1:
    """FLOAT: 4 bytes IEEE 754 binary32, little-endian (``float4get``), widened exactly to double."""
    cdef uint32_t u = <uint32_t>cur_uint_le(c, W_FLOAT, "FLOAT")
    cdef float f
    memcpy(&f, &u, 4)
    out[0] = <double>f
    return 0


cdef inline int read_bit(Step *s, Cursor *c, uint64_t *out) except -1:
    """BIT(M): (M + 7) // 8 bytes, big-endian (sql/field.cc ``Field_bit::pack``)."""
    cdef int n = s.width
    cur_need(c, n, "BIT")
    out[0] = _be(c.p, n)
    c.p += n
    return 0


cdef inline int read_enum(Step *s, Cursor *c, uint64_t *out) except -1:
    """ENUM: the member's 1-based index, 1 or 2 bytes LE; 0 is the '' error value (sql/field.cc
    ``Field_enum::pack``). :func:`_enum_member` checks it against the member names."""
    out[0] = cur_uint_le(c, s.width, "ENUM")
    return 0


cdef inline int read_set(Step *s, Cursor *c, uint64_t *out) except -1:
    """SET: the member bitmask, 1-8 bytes LE (sql/field.cc ``Field_set``, ``Field_enum::pack``)."""
    out[0] = cur_uint_le(c, s.width, "SET")
    return 0


cdef inline int _enum_member(uint64_t u, Py_ssize_t count) except -1:
    """The 0-based member of a non-zero ENUM index among ``count`` names (values/enum_set.py
    enum_name: an index past the members is corruption)."""
    if u > <uint64_t>count:
        _raise_corrupt(E_ENUM_INDEX, <int64_t>u, count)
    return <int>(u - 1)


# ----------------------------------------------------------------------------------- NEWDECIMAL
#
# strings/decimal.c ``decimal2bin`` / ``bin2decimal``: the digits in groups of 9 (base 10^9), each
# full group a 4-byte big-endian integer, a partial group of k digits in dig2bytes[k] bytes; the
# integer part's partial group first, the fraction's last; the whole value with its first bit
# flipped (set = non-negative), and every byte inverted when negative.

cdef int _DIG2BYTES[10]
_DIG2BYTES[:] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
cdef uint32_t _POW10[10]
_POW10[:] = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]


cdef struct Digits:
    bint negative
    int ngroups        # at most 9: a partial group at each end, 7 full ones (65 digits)
    int nint           # the first nint groups are the integer part
    int scale          # digits after the point
    uint32_t groups[10]   # most significant first
    int widths[10]        # digits in each group


cdef int read_newdecimal(Step *s, Cursor *c, Digits *g) except -1:
    """NEWDECIMAL(s.a, s.b) of Step.width (decimal_bin_size) bytes -> its sign and checked digit
    groups (a group with more digits than its width is corruption, as ``bin2decimal`` finds)."""
    cdef uint8_t b[80]
    cdef int size = s.width, prec = s.a, scale = s.b
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
        g.groups[ng] = v
        g.widths[ng] = lead
        ng += 1
    for i in range(intg // 9 + scale // 9):
        v = <uint32_t>_be(b + pos, 4)
        pos += 4
        if v >= 1000000000:
            raise CorruptEventError(f"DECIMAL({prec},{scale}) digit group {v} has more than 9 digits")
        g.groups[ng] = v
        g.widths[ng] = 9
        ng += 1
    tail = scale % 9
    if tail:
        k = _DIG2BYTES[tail]
        v = <uint32_t>_be(b + pos, k)
        pos += k
        if v >= _POW10[tail]:
            raise CorruptEventError(f"DECIMAL({prec},{scale}) digit group {v} has more than {tail} digits")
        g.groups[ng] = v
        g.widths[ng] = tail
        ng += 1
    c.p += size
    g.ngroups = ng
    g.nint = intg // 9 + (1 if intg % 9 else 0)
    g.scale = scale
    g.negative = negative
    return 0


cdef int _digits(char *out, uint32_t v, int width):
    """v as exactly `width` decimal digits (zero-padded) at out."""
    cdef int i
    for i in range(width - 1, -1, -1):
        out[i] = <char>(48 + v % 10)
        v //= 10
    return width


cdef int _decimal_chars(char *text, const Digits *g):
    """The exact text of a NEWDECIMAL into ``text`` (at least 160 bytes); returns its length: sign,
    the integer digits without leading zeros (at least one), then '.' and the scale fraction
    digits (what the server prints, ``decimal2string``)."""
    cdef int t = 0, first, k, i
    if g.negative:
        text[t] = 45  # '-'
        t += 1
    first = t
    for i in range(g.nint):
        t += _digits(text + t, g.groups[i], g.widths[i])
    k = first
    while k < t - 1 and text[k] == 48:
        k += 1
    if k > first:
        memcpy(text + first, text + k, t - k)
        t -= k - first
    if t == first:
        text[t] = 48
        t += 1
    if g.scale:
        text[t] = 46  # '.'
        t += 1
        for i in range(g.nint, g.ngroups):
            t += _digits(text + t, g.groups[i], g.widths[i])
    return t
