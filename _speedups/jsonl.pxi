# Rows events straight to JSON Lines: the compiled twin of mysqlddl/binlog/_twin.py render_rows.
#
# The `changes` CLI writes every row change as one JSON line (mysqlddl/envelope.py LineRenderer).
# Building a Python value per column, a dict per image and an encoder pass per line costs ~15 us a
# row; here the row images are walked through the same bounded cursor and decode plan as
# decode_rows (rows.pxi), each value is read by the same reader of its type (values/*.pxi), and its
# JSON text is written (jsontext.pxi) into one growing C buffer, together with the line's
# pre-encoded parts (a template with five holes, see render_rows). Values the native code does not
# render (JSON, GEOMETRY, SET names, invalid temporals, non-finite floats, retyped columns) are
# decoded to their Python value as decode_rows would and handed to the format's Python callables.
# tests/binlog/test_render_rows.py and tests/test_changes_render.py hold the two paths to equal bytes.

from libc.stdint cimport int32_t
from libc.stdlib cimport malloc, free
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from cpython.unicode cimport PyUnicode_AsUTF8AndSize


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
    """The JSON text of column i's value at the cursor: its type's reader (values/*.pxi, the ones
    rows.pxi ``_value`` calls: same cursor steps, same errors), then its JSON text."""
    cdef CompiledPlan plan = f.plan
    cdef Step *s = &plan.steps[i]
    cdef const uint8_t *p
    cdef uint64_t u
    cdef int64_t y, us
    cdef Py_ssize_t n
    cdef double dbl
    cdef Civil t
    cdef Duration td
    cdef Digits g
    cdef int kind = s.kind
    if f.mode[i] != R_NATIVE:
        return _put_obj(f, i, _value(plan, i, c, fenced), b)
    if kind == K_INT:
        read_int(s, c, &u)
        if s.b:
            return jb_put_u64(b, u)
        return jb_put_i64(b, <int64_t>u)
    if kind == K_STR:
        read_str(s, c, &p, &n)
        if s.c == S_BYTES:
            return jb_put_base64(b, p, n, s.d)
        if s.c == S_UTF8 and _utf8_json(b, p, n):
            return 0
        return jb_put_json_str(b, _text(s, p, n))
    if kind == K_NEWDEC:
        read_newdecimal(s, c, &g)
        return jb_put_decimal(b, s, &g)
    if kind == K_DATETIME2:
        read_datetime2(s, c, &t)
        return _put_datetime(f, i, &t, b)
    if kind == K_DOUBLE:
        read_double(c, &dbl)
        return _put_double(f, i, dbl, b)
    if kind == K_FLOAT:
        read_float(c, &dbl)
        return _put_double(f, i, dbl, b)
    if kind == K_TIMESTAMP2:
        read_timestamp2(s, c, &u, &us)
        return _put_timestamp(f, i, u, us, b)
    if kind == K_TIME2:
        read_time2(s, c, &td)
        return jb_put_duration_str(b, &td)
    if kind == K_DATE:
        read_date(c, &t)
        if _valid_date(t.y, t.mo, t.d):
            return jb_put_date_str(b, &t)
        return _put_obj(f, i, _invalid_text(plan.metas[i], t.y, t.mo, t.d), b)
    if kind == K_YEAR:
        read_year(c, &y)
        return jb_put_i64(b, y)
    if kind == K_ENUM:
        read_enum(s, c, &u)
        names = f.enum_json[i]
        if names is None:
            return jb_put_u64(b, u)
        if u == 0:
            return jb_put(b, b'""', 2)
        enc = (<list>names)[_enum_member(u, len(<list>names))]
        return jb_put(b, PyBytes_AS_STRING(enc), len(<bytes>enc))
    if kind == K_SET:
        read_set(s, c, &u)
        return jb_put_u64(b, u)
    if kind == K_BIT:
        read_bit(s, c, &u)
        return jb_put_u64(b, u)
    if kind == K_NULL:
        return jb_put(b, b"null", 4)
    if kind == K_TIMESTAMP:
        read_timestamp(c, &u, &us)
        return _put_timestamp(f, i, u, us, b)
    if kind == K_DATETIME:
        read_datetime(c, &t)
        return _put_datetime(f, i, &t, b)
    if kind == K_TIME:
        read_time(c, &td)
        return jb_put_duration_str(b, &td)
    return _put_obj(f, i, _py_value(plan, i, c, fenced), b)


cdef inline int _put_double(JsonFormat f, Py_ssize_t i, double d, JBuf *b) except -1:
    """float.__repr__; a NaN or an infinity (not JSON) through the format's callable."""
    if not Py_IS_FINITE(d):
        return _put_obj(f, i, d, b)
    return jb_put_double(b, d)


cdef int _put_datetime(JsonFormat f, Py_ssize_t i, const Civil *t, JBuf *b) except -1:
    """datetime.isoformat() of a valid naive DATETIME, else the decoder's invalid-date value."""
    if _valid_civil(t):
        return jb_put_datetime_str(b, t, False)
    return _put_obj(f, i, _invalid_text(f.plan.metas[i], t.y, t.mo, t.d, t.h, t.mi, t.s, t.us), b)


cdef int _put_timestamp(JsonFormat f, Py_ssize_t i, uint64_t secs, int64_t us, JBuf *b) except -1:
    """The UTC ISO text of a TIMESTAMP; the zero one (text) through the format's callable."""
    cdef Civil t
    if _epoch_civil(secs, us, &t) == TS_CIVIL:
        return jb_put_datetime_str(b, &t, True)
    return _put_obj(f, i, _timestamp_obj(f.plan.metas[i], secs, us), b)


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
    _check_range(start, end, mv.shape[0])
    _check_bitmap(p1.shape[0], plan.ncols)
    if update:
        p2 = present2
        _check_bitmap(p2.shape[0], plan.ncols)
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
        _check_present(start, end, n1, n2, base)
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
            raise _overrun(e, &at, base) from None
        except BinlogError as e:
            raise _located(e, &at, base)
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
