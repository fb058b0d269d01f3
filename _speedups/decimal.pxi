# Decimal values without going through text (STYLE.md 8): the row decoder has the digits of a
# NEWDECIMAL as base-10^9 groups; decimal.Decimal(str) would format them, parse them back, take the
# keyword-argument path of Decimal.__new__ and look up the thread's context -- most of the cost of
# a DECIMAL column. Instead the coefficient is converted to libmpdec's base-10^19 words and a
# Decimal object is filled in directly.
#
# That relies on two layouts that are not public API, so it is used only after checking them:
#   CPython Modules/_decimal/_decimal.c  ``PyDecObject`` = PyObject_HEAD, hash, mpd_t, 4 static words
#                                         (``_Py_DEC_MINALLOC``); ``PyDecType_New`` sets the flags
#                                         MPD_STATIC|MPD_STATIC_DATA and points data at the words;
#   libmpdec mpdecimal.h                  ``mpd_t`` = flags(uint8) exp digits len alloc (mpd_ssize_t)
#                                         data; MPD_NEG = 1; 64-bit config: MPD_RADIX 10^19
#                                         (decimal.MAX_PREC == 999999999999999999).
# _decimal_fast_check() verifies the C implementation is in use, the object size, the 64-bit
# configuration and 128-bit arithmetic, then builds sample values both ways and compares them;
# any difference leaves DECIMAL_FAST off and every value goes through Decimal(str), as before.
# 65 digits (DECIMAL's maximum) fit 4 words, so the static words always suffice.

cdef extern from *:
    """
    #include <stdint.h>
    typedef struct {
        uint8_t flags;
        int64_t exp;
        int64_t digits;
        int64_t len;
        int64_t alloc;
        uint64_t *data;
    } __mysqlddl_mpd_t;
    typedef struct {
        PyObject_HEAD
        Py_hash_t hash;
        __mysqlddl_mpd_t dec;
        uint64_t data[4];
    } __mysqlddl_PyDec;
    #define __MYSQLDDL_DEC_SIZE ((Py_ssize_t)sizeof(__mysqlddl_PyDec))
    #ifdef __SIZEOF_INT128__
    #define __MYSQLDDL_HAVE_INT128 1
    /* words (little-endian base 10^19, *n of them) = words * mult + add; returns -1 past 4 words */
    static int __mysqlddl_mul_add(uint64_t *w, int *n, uint64_t mult, uint64_t add) {
        unsigned __int128 carry = add;
        int i;
        for (i = 0; i < *n; i++) {
            unsigned __int128 t = (unsigned __int128)w[i] * mult + carry;
            w[i] = (uint64_t)(t % 10000000000000000000ULL);
            carry = t / 10000000000000000000ULL;
        }
        if (carry) {
            if (*n >= 4) return -1;
            w[(*n)++] = (uint64_t)carry;
        }
        return 0;
    }
    #else
    #define __MYSQLDDL_HAVE_INT128 0
    static int __mysqlddl_mul_add(uint64_t *w, int *n, uint64_t mult, uint64_t add) { return -1; }
    #endif
    static PyObject *__mysqlddl_dec_new(PyObject *type_obj, int negative, const uint64_t *w, int n,
                                        int64_t exp) {
        PyTypeObject *type = (PyTypeObject *)type_obj;
        __mysqlddl_PyDec *d;
        uint64_t top, p = 10;
        int i, digits = 1;
        while (n > 1 && w[n - 1] == 0) n--;
        if (n < 1 || n > 4) { PyErr_SetString(PyExc_SystemError, "decimal coefficient size"); return NULL; }
        d = (__mysqlddl_PyDec *)type->tp_alloc(type, 0);
        if (d == NULL) return NULL;
        d->hash = -1;
        d->dec.flags = 16 | 32 | (negative ? 1 : 0);   /* MPD_STATIC | MPD_STATIC_DATA | MPD_NEG */
        d->dec.exp = exp;
        d->dec.alloc = 4;
        d->dec.data = d->data;
        for (i = 0; i < n; i++) d->data[i] = w[i];
        d->dec.len = n;
        top = w[n - 1];
        while (digits < 19 && top >= p) { digits++; p *= 10; }
        d->dec.digits = (int64_t)(n - 1) * 19 + digits;
        return (PyObject *)d;
    }
    """
    Py_ssize_t _DEC_SIZE "__MYSQLDDL_DEC_SIZE"
    int _HAVE_INT128 "__MYSQLDDL_HAVE_INT128"
    int _mul_add "__mysqlddl_mul_add"(uint64_t *w, int *n, uint64_t mult, uint64_t add)
    object _dec_new "__mysqlddl_dec_new"(object type, int negative, const uint64_t *w, int n, int64_t exp)

import decimal as _decimal_mod
from decimal import Decimal as _Decimal

cdef object _DecimalType = _Decimal   # a C-level reference: no module-dict lookup per value

cdef bint DECIMAL_FAST = False


cdef object _dec_from_groups(bint negative, const uint32_t *groups, const int *widths, int ngroups, int scale):
    """Decimal of the digit groups (most significant first; widths[i] digits each) with ``scale``
    fraction digits; None if they do not fit (never for a valid DECIMAL)."""
    cdef uint64_t w[4]
    cdef int n = 1, i, total = 0
    w[0] = 0
    for i in range(ngroups):
        total += widths[i]
    if total <= 19:
        # one libmpdec word (< MPD_RADIX 10^19 < 2^64): plain 64-bit arithmetic, no 128-bit divisions
        for i in range(ngroups):
            w[0] = w[0] * _POW10[widths[i]] + groups[i]
        return _dec_new(_DecimalType, negative, w, 1, -scale)
    for i in range(ngroups):
        if _mul_add(w, &n, _POW10[widths[i]], groups[i]) < 0:
            return None
    return _dec_new(_DecimalType, negative, w, n, -scale)


def _decimal_fast_check():
    """Enable DECIMAL_FAST when the layouts above hold (see the comment at the top)."""
    global DECIMAL_FAST
    DECIMAL_FAST = False
    try:
        import _decimal
    except ImportError:
        return False
    if (_Decimal is not _decimal.Decimal or _Decimal.__basicsize__ != _DEC_SIZE or not _HAVE_INT128
            or _decimal_mod.MAX_PREC != 999999999999999999 or sizeof(void *) != 8):
        return False
    cdef uint32_t groups[10]   # at most 9: a partial group at each end, 7 full ones (65 digits)
    cdef int widths[10]
    cdef int k, ng
    samples = ["0", "-0", "0.00", "-0.00", "1", "-1", "9", "10", "123456789", "1234567890.5",
               "9999999999999999999", "10000000000000000000", "-12345678901234567890123456789.123456789",
               "9" * 65, "-" + "9" * 35 + "." + "9" * 30, "0." + "0" * 29 + "1", "100000000000000000000000000000000000"]
    for text in samples:
        neg = text.startswith("-")
        digits = text.lstrip("-").replace(".", "")
        scale = len(text.partition(".")[2])
        ng = 0
        while digits:
            head = len(digits) % 9 or 9
            groups[ng] = int(digits[:head])
            widths[ng] = head
            digits = digits[head:]
            ng += 1
        got = _dec_from_groups(neg, groups, widths, ng, scale)
        want = _Decimal(text)
        if (got is None or type(got) is not _Decimal or str(got) != str(want) or got.as_tuple() != want.as_tuple()
                or hash(got) != hash(want) or got != want or got + 1 != want + 1 or got * 3 != want * 3):
            return False
    DECIMAL_FAST = True
    return True


_decimal_fast_check()
