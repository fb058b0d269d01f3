# The decode plan in C (STYLE.md 10): compile_plan() turns the ColumnMeta tuple built by
# mysqlddl.binlog.rows.build_plan into one Step per column -- its kind, the few numbers its reader
# needs and the size of its values -- once per TABLE_MAP. Both consumers of the row images walk it:
# the Python-object decoder (rows.pxi) and the JSON renderer (jsonl.pxi), each calling the same
# per-type readers (values/*.pxi).

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cpython.bytes cimport PyBytes_AS_STRING

from mysqlddl.binlog.coltypes import ColumnType as T
from mysqlddl.binlog.values import decoder_for as _decoder_for
from mysqlddl.binlog.values import charsets as _charsets

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

# The sizes of the fixed-size values in the row image: the one table of them. _step_width gives
# each step its size from here, and each reader (values/*.pxi) reads exactly that many bytes.
#   sql/field.cc ``Field_float::pack_length`` (float4get), ``Field_double`` (float8get),
#   ``Field_year``, ``Field_newdate``, ``Field_time`` (pre-5.6 TIME), ``Field_timestamp``,
#   ``Field_datetime`` (pre-5.6 DATETIME); the 5.6+ "2" formats are an integer part of the size
#   below followed by _FRAC_BYTES[fsp] fraction bytes (sql-common/my_time.cc
#   ``my_time_binary_length``, ``my_datetime_binary_length``, ``my_timestamp_binary_length``).
DEF W_FLOAT = 4
DEF W_DOUBLE = 8
DEF W_YEAR = 1
DEF W_DATE = 3
DEF W_TIME = 3
DEF W_TIMESTAMP = 4
DEF W_DATETIME = 8
DEF W_TIME2_INT = 3
DEF W_TIMESTAMP2_INT = 4
DEF W_DATETIME2_INT = 5

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


# 5.6+ fractional seconds: (fsp + 1) // 2 big-endian bytes in units of 10^(6 - 2*bytes) us
# (sql-common/my_time.cc ``my_datetime_packed_to_binary``: fsp 1,2: 1 byte * 10000; 3,4: 2 * 100;
# 5,6: 3 * 1).
cdef int _FRAC_BYTES[7]
_FRAC_BYTES[:] = [0, 1, 1, 2, 2, 3, 3]
cdef int _FRAC_MULT[7]
_FRAC_MULT[:] = [1, 10000, 10000, 100, 100, 1, 1]


cdef int _step_width(Step *s):
    """Step.width: the size of a value of this step in the row image (the table above; the
    variable-size ones from the column's metadata: an integer's pack length, a NEWDECIMAL's
    decimal_bin_size, an ENUM/SET/BIT's byte count)."""
    cdef int kind = s.kind
    if kind == K_STR:
        return W_PREFIXED
    if kind == K_INT:
        return s.a
    if kind == K_NEWDEC:
        return s.c
    if kind == K_ENUM or kind == K_SET or kind == K_BIT:
        return s.a
    if kind == K_FLOAT:
        return W_FLOAT
    if kind == K_TIMESTAMP:
        return W_TIMESTAMP
    if kind == K_DOUBLE:
        return W_DOUBLE
    if kind == K_DATETIME:
        return W_DATETIME
    if kind == K_DATE:
        return W_DATE
    if kind == K_TIME:
        return W_TIME
    if kind == K_YEAR:
        return W_YEAR
    if kind == K_TIME2:
        return W_TIME2_INT + _FRAC_BYTES[s.a]
    if kind == K_TIMESTAMP2:
        return W_TIMESTAMP2_INT + _FRAC_BYTES[s.a]
    if kind == K_DATETIME2:
        return W_DATETIME2_INT + _FRAC_BYTES[s.a]
    return W_OPAQUE   # K_PY (JSON values are mutable: never shared), K_NULL
