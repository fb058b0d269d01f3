# float.__repr__ without dtoa (used by jsonl.pxi for FLOAT/DOUBLE columns).
#
# Python prints a float as the shortest digit string that reads back to the same double, the one
# nearest the exact value when several are that short (Python/dtoa.c ``_Py_dg_dtoa`` mode 0, via
# Python/pystrtod.c ``format_float_short``). dtoa finds it with bignum arithmetic, ~0.4 us for the
# 17-digit values a DOUBLE column holds: the largest single cost of a rendered row. Ryu (Ulf Adams,
# "Ryu: fast float-to-string conversion", PLDI 2018; github.com/ulfjack/ryu d2s.c ``d2d``) finds
# the same digits with two 64x128-bit products per value. The tables of 5^i are computed here from
# Python ints (the generator's formulas, PrintDoubleLookupTable.java), not copied.
#
# The digits are then laid out as format_float_short does for repr ('r', Py_DTSF_ADD_DOT_0):
# with decpt the decimal point's place (value = 0.DIGITS x 10^decpt), exponent notation when
# decpt <= -4 or decpt > 16 ("1e+16", "1e-05": sign and at least two exponent digits), else
# positional with ".0" added to an integer ("1000000000000000.0", "0.0001").
#
# RYU_OK is set only when the C compiler has 128-bit integers and a self-check against repr()
# passes (tests/binlog/test_render_rows.py compares many more values); otherwise jsonl.pxi calls
# PyOS_double_to_string as float.__repr__ does.

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #ifdef __SIZEOF_INT128__
    #define __MYSQLDDL_RYU 1
    static uint64_t __mysqlddl_pow5_inv[342][2];
    static uint64_t __mysqlddl_pow5[326][2];

    static inline uint32_t __ryu_pow5bits(int32_t e) { return (uint32_t)(((e * 1217359) >> 19) + 1); }
    static inline uint32_t __ryu_log10pow2(int32_t e) { return (((uint32_t)e) * 78913) >> 18; }
    static inline uint32_t __ryu_log10pow5(int32_t e) { return (((uint32_t)e) * 732923) >> 20; }
    static inline uint32_t __ryu_pow5factor(uint64_t v) {
        uint32_t n = 0;
        while (v % 5 == 0) { v /= 5; n++; }
        return n;
    }
    static inline int __ryu_mulpow5(uint64_t v, uint32_t p) { return __ryu_pow5factor(v) >= p; }
    static inline int __ryu_mulpow2(uint64_t v, uint32_t p) { return (v & ((1ull << p) - 1)) == 0; }
    static inline uint64_t __ryu_mulshift(uint64_t m, const uint64_t *mul, int32_t j) {
        unsigned __int128 b0 = ((unsigned __int128)m) * mul[0];
        unsigned __int128 b2 = ((unsigned __int128)m) * mul[1];
        return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
    }

    /* d2d: the shortest, nearest decimal (*digits x 10^*exp10) of a finite non-zero double */
    static void __mysqlddl_d2d(uint64_t ieee_m, uint32_t ieee_e, uint64_t *digits, int32_t *exp10) {
        int32_t e2;
        uint64_t m2;
        if (ieee_e == 0) { e2 = 1 - 1023 - 52 - 2; m2 = ieee_m; }
        else { e2 = (int32_t)ieee_e - 1023 - 52 - 2; m2 = (1ull << 52) | ieee_m; }
        const int even = (m2 & 1) == 0;
        const uint64_t mv = 4 * m2;
        const uint32_t mmshift = ieee_m != 0 || ieee_e <= 1;
        uint64_t vr, vp, vm;
        int32_t e10;
        int vm_tz = 0, vr_tz = 0;
        if (e2 >= 0) {
            const uint32_t q = __ryu_log10pow2(e2) - (e2 > 3);
            e10 = (int32_t)q;
            const int32_t k = 125 + (int32_t)__ryu_pow5bits((int32_t)q) - 1;
            const int32_t i = -e2 + (int32_t)q + k;
            vr = __ryu_mulshift(4 * m2, __mysqlddl_pow5_inv[q], i);
            vp = __ryu_mulshift(4 * m2 + 2, __mysqlddl_pow5_inv[q], i);
            vm = __ryu_mulshift(4 * m2 - 1 - mmshift, __mysqlddl_pow5_inv[q], i);
            if (q <= 21) {
                if (mv % 5 == 0) vr_tz = __ryu_mulpow5(mv, q);
                else if (even) vm_tz = __ryu_mulpow5(mv - 1 - mmshift, q);
                else vp -= __ryu_mulpow5(mv + 2, q);
            }
        } else {
            const uint32_t q = __ryu_log10pow5(-e2) - (-e2 > 1);
            e10 = (int32_t)q + e2;
            const int32_t i = -e2 - (int32_t)q;
            const int32_t k = (int32_t)__ryu_pow5bits(i) - 125;
            const int32_t j = (int32_t)q - k;
            vr = __ryu_mulshift(4 * m2, __mysqlddl_pow5[i], j);
            vp = __ryu_mulshift(4 * m2 + 2, __mysqlddl_pow5[i], j);
            vm = __ryu_mulshift(4 * m2 - 1 - mmshift, __mysqlddl_pow5[i], j);
            if (q <= 1) {
                vr_tz = 1;
                if (even) vm_tz = mmshift == 1;
                else --vp;
            } else if (q < 63) {
                vr_tz = __ryu_mulpow2(mv, q);
            }
        }
        int32_t removed = 0;
        uint8_t last = 0;
        uint64_t out;
        if (vm_tz || vr_tz) {
            for (;;) {
                const uint64_t vp10 = vp / 10, vm10 = vm / 10;
                if (vp10 <= vm10) break;
                const uint32_t vm_mod = (uint32_t)(vm - 10 * vm10);
                const uint64_t vr10 = vr / 10;
                const uint32_t vr_mod = (uint32_t)(vr - 10 * vr10);
                vm_tz &= vm_mod == 0;
                vr_tz &= last == 0;
                last = (uint8_t)vr_mod;
                vr = vr10; vp = vp10; vm = vm10;
                ++removed;
            }
            if (vm_tz) {
                for (;;) {
                    const uint64_t vm10 = vm / 10;
                    const uint32_t vm_mod = (uint32_t)(vm - 10 * vm10);
                    if (vm_mod != 0) break;
                    const uint64_t vp10 = vp / 10, vr10 = vr / 10;
                    const uint32_t vr_mod = (uint32_t)(vr - 10 * vr10);
                    vr_tz &= last == 0;
                    last = (uint8_t)vr_mod;
                    vr = vr10; vp = vp10; vm = vm10;
                    ++removed;
                }
            }
            if (vr_tz && last == 5 && vr % 2 == 0) last = 4;   /* round half to even */
            out = vr + ((vr == vm && (!even || !vm_tz)) || last >= 5);
        } else {
            int round_up = 0;
            const uint64_t vp100 = vp / 100, vm100 = vm / 100;
            if (vp100 > vm100) {
                const uint64_t vr100 = vr / 100;
                const uint32_t vr_mod = (uint32_t)(vr - 100 * vr100);
                round_up = vr_mod >= 50;
                vr = vr100; vp = vp100; vm = vm100;
                removed += 2;
            }
            for (;;) {
                const uint64_t vp10 = vp / 10, vm10 = vm / 10;
                if (vp10 <= vm10) break;
                const uint64_t vr10 = vr / 10;
                const uint32_t vr_mod = (uint32_t)(vr - 10 * vr10);
                round_up = vr_mod >= 5;
                vr = vr10; vp = vp10; vm = vm10;
                ++removed;
            }
            out = vr + (vr == vm || round_up);
        }
        *digits = out;
        *exp10 = e10 + removed;
    }

    /* repr() of a finite double into buf (at least 32 bytes); returns the length. */
    static int __mysqlddl_repr_double(double d, char *buf) {
        uint64_t bits, digits;
        int32_t exp10;
        char tmp[24];
        int n = 0, len = 0, decpt, i;
        memcpy(&bits, &d, 8);
        const uint64_t ieee_m = bits & ((1ull << 52) - 1);
        const uint32_t ieee_e = (uint32_t)((bits >> 52) & 0x7FF);
        if (bits >> 63) buf[len++] = '-';
        if (ieee_m == 0 && ieee_e == 0) { memcpy(buf + len, "0.0", 3); return len + 3; }
        __mysqlddl_d2d(ieee_m, ieee_e, &digits, &exp10);
        while (digits) { tmp[n++] = (char)('0' + digits % 10); digits /= 10; }   /* reversed */
        decpt = exp10 + n;
        if (decpt <= -4 || decpt > 16) {
            int e = decpt - 1, ae;
            buf[len++] = tmp[n - 1];
            if (n > 1) { buf[len++] = '.'; for (i = n - 2; i >= 0; i--) buf[len++] = tmp[i]; }
            buf[len++] = 'e';
            buf[len++] = e < 0 ? '-' : '+';
            ae = e < 0 ? -e : e;
            if (ae >= 100) { buf[len++] = (char)('0' + ae / 100); ae %= 100; buf[len++] = (char)('0' + ae / 10); }
            else buf[len++] = (char)('0' + ae / 10);
            buf[len++] = (char)('0' + ae % 10);
        } else if (decpt <= 0) {
            buf[len++] = '0'; buf[len++] = '.';
            for (i = 0; i < -decpt; i++) buf[len++] = '0';
            for (i = n - 1; i >= 0; i--) buf[len++] = tmp[i];
        } else if (decpt >= n) {
            for (i = n - 1; i >= 0; i--) buf[len++] = tmp[i];
            for (i = n; i < decpt; i++) buf[len++] = '0';
            buf[len++] = '.'; buf[len++] = '0';
        } else {
            for (i = n - 1; i >= n - decpt; i--) buf[len++] = tmp[i];
            buf[len++] = '.';
            for (; i >= 0; i--) buf[len++] = tmp[i];
        }
        return len;
    }
    static void __mysqlddl_ryu_set(int inv, int i, uint64_t lo, uint64_t hi) {
        uint64_t *row = inv ? __mysqlddl_pow5_inv[i] : __mysqlddl_pow5[i];
        row[0] = lo;
        row[1] = hi;
    }
    #else
    #define __MYSQLDDL_RYU 0
    static void __mysqlddl_ryu_set(int inv, int i, uint64_t lo, uint64_t hi) { }
    static int __mysqlddl_repr_double(double d, char *buf) { (void)d; (void)buf; return -1; }
    #endif
    """
    int _RYU_AVAILABLE "__MYSQLDDL_RYU"
    void _ryu_set "__mysqlddl_ryu_set"(int inv, int i, uint64_t lo, uint64_t hi)
    int _repr_double "__mysqlddl_repr_double"(double d, char *buf)

cdef bint RYU_OK = False


def _ryu_setup():
    """Fill the tables (ryu's generator: POW5[i] = 5^i scaled to 125 bits, truncated;
    POW5_INV[i] = floor(2^(bitlength(5^i) - 1 + 125) / 5^i) + 1), then check a sample against repr()."""
    global RYU_OK
    RYU_OK = False
    if not _RYU_AVAILABLE:
        return False
    cdef char buf[40]
    mask = (1 << 64) - 1
    for i in range(342):
        pow5 = 5 ** i            # i is a Python int here: exact big-integer powers
        inv = (1 << (pow5.bit_length() - 1 + 125)) // pow5 + 1
        _ryu_set(1, i, inv & mask, inv >> 64)
        if i < 326:
            shift = pow5.bit_length() - 125
            split = pow5 >> shift if shift >= 0 else pow5 << -shift
            _ryu_set(0, i, split & mask, split >> 64)
    import random
    import struct
    rnd = random.Random(20240611)
    # from text: Cython merges equal constants, so a literal 0.0 here could become the int 0
    samples = [float(t) for t in ("0.0 -0.0 1.0 -1.5 0.1 0.3333333333333333 1e16 1e15 1e-4 1e-5 5e-324 "
                                  "2.2250738585072014e-308 1.7976931348623157e308 9007199254740993.0 "
                                  "123456789.0 0.30000000000000004 161582.34966680896").split()]
    samples += [struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0] for _ in range(2000)]
    samples += [struct.unpack("<f", struct.pack("<I", rnd.getrandbits(32)))[0] for _ in range(2000)]
    for x in samples:
        if x != x or x in (float("inf"), float("-inf")):
            continue
        n = _repr_double(x, buf)
        if n < 0 or buf[:n].decode("ascii") != repr(x):
            return False
    RYU_OK = True
    return True


_ryu_setup()


def _repr_float(double x, bint ryu=True):
    """The repr() of a finite float as jsonl.pxi writes it (tests; ryu=False: Ryu even when the
    self-check failed, to see why)."""
    cdef char buf[40]
    if ryu and not RYU_OK:
        return repr(x)
    return buf[:_repr_double(x, buf)].decode("ascii")


def _ryu_enabled():
    return RYU_OK
