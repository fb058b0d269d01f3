# Row images to Python objects: the compiled twin of mysqlddl/binlog/_twin.py decode_rows
# (STYLE.md 8, 10, 11).
#
# decode_rows() walks the row images through the bounded cursor (cursor.pxi) along the compiled plan
# (plan.pxi) with no per-value Python slicing. Each value of a frequent type is read by its type's
# reader (values/*.pxi, shared with the JSON renderer jsonl.pxi) and made into its Python object
# here; rare ones (JSON, GEOMETRY, VECTOR, MariaDB COMPRESSED and pre-10.1 hires temporals, SET
# names, CHAR padding, pre-5.0 DECIMAL) call the pure decoder of mysqlddl.binlog.values on a view
# fenced at the body end, so both twins return identical values by construction.

from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memset
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeASCII
from cpython.datetime cimport import_datetime, date_new, datetime_new, timedelta_new

import datetime as _datetime
from mysqlddl.errors import BinlogError, RowImageOverrunError
from mysqlddl.binlog.values.jsonb import decode_json_diff as _decode_json_diff
from mysqlddl.binlog.values.temporal import invalid_text as _invalid_text

import_datetime()
cdef object _UTC = _datetime.timezone.utc
cdef object _ABSENT = None   # set on first use (mysqlddl.binlog.rows imports speedups)


# ------------------------------------------------------------------ the object form of each value

cdef inline object _int(Step *s, Cursor *c):
    """K_INT -> int."""
    cdef uint64_t u
    read_int(s, c, &u)
    if s.b:
        return u
    return <int64_t>u


cdef object _datetime_obj(object meta, const Civil *t):
    """A naive datetime, or the server's text for an invalid one (values/temporal.py make_datetime)."""
    if _valid_civil(t):
        return datetime_new(<int>t.y, <int>t.mo, <int>t.d, <int>t.h, <int>t.mi, <int>t.s, <int>t.us, None)
    return _invalid_text(meta, t.y, t.mo, t.d, t.h, t.mi, t.s, t.us)


cdef object _timestamp_obj(object meta, uint64_t secs, int64_t us):
    """A UTC datetime of epoch seconds; 0 is the zero TIMESTAMP (values/temporal.py make_timestamp)."""
    cdef Civil t
    cdef int kind = _epoch_civil(secs, us, &t)
    if kind == TS_ZERO:
        return _invalid_text(meta, 0, 0, 0, 0, 0, 0, 0)
    if kind == TS_WIDE:
        return _datetime.datetime(1970, 1, 1, tzinfo=_UTC) + _datetime.timedelta(seconds=secs, microseconds=us)
    return datetime_new(<int>t.y, <int>t.mo, <int>t.d, <int>t.h, <int>t.mi, <int>t.s, <int>t.us, _UTC)


cdef inline object _time_obj(const Duration *t):
    if t.negative:
        return timedelta_new(0, <int>-t.secs, <int>-t.us)
    return timedelta_new(0, <int>t.secs, <int>t.us)


cdef object _newdecimal(Step *s, Cursor *c):
    """K_NEWDEC -> Decimal built from the digit groups (decimal.pxi), or from the exact text; the
    text itself with decimal_as="str" (s.d)."""
    cdef Digits g
    cdef char text[160]
    read_newdecimal(s, c, &g)
    if DECIMAL_FAST and not s.d:
        out = _dec_from_groups(g.negative, g.groups, g.widths, g.ngroups, g.scale)
        if out is not None:
            return out
    out = PyUnicode_DecodeASCII(text, _decimal_chars(text, &g), NULL)
    return out if s.d else _Decimal(out)


cdef object _value(CompiledPlan plan, Py_ssize_t i, Cursor *c, object fenced):
    """The Python value of column i at the cursor: its type's reader, then the object."""
    cdef Step *s = &plan.steps[i]
    cdef const uint8_t *p
    cdef uint64_t u
    cdef int64_t y, us
    cdef Py_ssize_t n
    cdef double dbl
    cdef Civil t
    cdef Duration td
    cdef int kind = s.kind
    if kind == K_INT:
        return _int(s, c)
    if kind == K_STR:
        read_str(s, c, &p, &n)
        return _text(s, p, n)
    if kind == K_NEWDEC:
        return _newdecimal(s, c)
    if kind == K_DATETIME2:
        read_datetime2(s, c, &t)
        return _datetime_obj(plan.metas[i], &t)
    if kind == K_DOUBLE:
        read_double(c, &dbl)
        return dbl
    if kind == K_FLOAT:
        read_float(c, &dbl)
        return dbl
    if kind == K_TIMESTAMP2:
        read_timestamp2(s, c, &u, &us)
        return _timestamp_obj(plan.metas[i], u, us)
    if kind == K_TIME2:
        read_time2(s, c, &td)
        return _time_obj(&td)
    if kind == K_DATE:
        read_date(c, &t)
        if _valid_date(t.y, t.mo, t.d):
            return date_new(<int>t.y, <int>t.mo, <int>t.d)
        return _invalid_text(plan.metas[i], t.y, t.mo, t.d)
    if kind == K_YEAR:
        read_year(c, &y)
        return y
    if kind == K_ENUM:
        read_enum(s, c, &u)
        return _enum(plan, i, u)
    if kind == K_SET:
        read_set(s, c, &u)
        return u
    if kind == K_BIT:
        read_bit(s, c, &u)
        return u
    if kind == K_NULL:
        return None
    if kind == K_TIMESTAMP:
        read_timestamp(c, &u, &us)
        return _timestamp_obj(plan.metas[i], u, us)
    if kind == K_DATETIME:
        read_datetime(c, &t)
        return _datetime_obj(plan.metas[i], &t)
    if kind == K_TIME:
        read_time(c, &td)
        return _time_obj(&td)
    return _py_value(plan, i, c, fenced)


cdef object _enum(CompiledPlan plan, Py_ssize_t i, uint64_t u):
    """An ENUM index -> its member name ('' for 0), or the index itself without names."""
    names = plan.names[i]
    if names is None:
        return u
    if u == 0:
        return ""
    return names[_enum_member(u, len(names))]


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

    Layout (sql/rpl_record.cc ``pack_row`` / ``unpack_row``; sql/log_event.cc
    ``Rows_log_event::print_verbose_one_row``): a null bitmap of one bit per column present in the
    image (LSB first, (n + 7) / 8 bytes), then the value of each present non-NULL column in table
    order, each as its type's reader (values/*.pxi) reads it.

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


# The checks and error reports of a rows-event body, shared by decode_rows and render_rows
# (jsonl.pxi) and the same as the twin's (_twin._check_range, _prepare, _image).

cdef int _check_range(Py_ssize_t start, Py_ssize_t end, Py_ssize_t size) except -1:
    if start < 0 or end > size or start > end:
        raise CorruptEventError(f"row range {start}..{end} outside a buffer of {size} bytes")
    return 0


cdef int _check_bitmap(Py_ssize_t n, Py_ssize_t ncols) except -1:
    """A columns-present bitmap of n bytes covers the ncols columns."""
    cdef Py_ssize_t nb = (ncols + 7) >> 3
    if n < nb:
        raise TruncatedError(f"columns-present bitmap of {n} bytes for {ncols} columns", needed=nb, available=n)
    return 0


cdef int _check_present(Py_ssize_t start, Py_ssize_t end, int n1, int n2, Py_ssize_t base) except -1:
    if start < end and n1 == 0 and n2 == 0:
        raise CorruptEventError(f"{end - start} bytes of rows but no column is present in either image",
                                offset=base + start)
    return 0


cdef object _overrun(e, ErrAt *at, Py_ssize_t base):
    """A TruncatedError inside the row images: the image runs past the body, at the value (column
    and absolute offset) being read."""
    return RowImageOverrunError(f"row image runs past the end of the rows event: {e.message}",
                                needed=e.needed, available=e.available,
                                offset=base + (e.offset if e.offset is not None else at.value_start),
                                column=at.column if at.column >= 0 else None)


cdef object _located(e, ErrAt *at, Py_ssize_t base):
    """Another BinlogError inside the row images, given the absolute offset and the column."""
    if e.offset is None:
        e.offset = at.value_start
    e.offset += base
    return e.with_context(column=at.column if at.column >= 0 else None)


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
    _check_range(start, end, mv.shape[0])
    _check_bitmap(p1.shape[0], plan.ncols)
    if update:
        p2 = present2
        _check_bitmap(p2.shape[0], plan.ncols)
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
        _check_present(start, end, n1, n2, base)
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
            raise _overrun(e, &at, base) from None
        except BinlogError as e:
            raise _located(e, &at, base)
    finally:
        free(cols1)
        free(cols2)
        free(spans)
        free(partial)
        free(json_cols)
    return rows
