# CRC-32 of binlog events (ISO-HDLC / zlib's crc32: reflected polynomial 0xEDB88320, initial and
# final value inverted): what a binlog's checksum_alg=1 stores after every event (sql/log_event.cc
# ``Log_event::write_footer``, computed with my_checksum, i.e. zlib crc32).
#
# zlib 1.2's table-driven crc32 runs at ~3.5 GB/s here, ~6% of the row-decoding benchmark. On x86-64
# with PCLMULQDQ the 16-byte blocks are folded by carry-less multiplication instead (Gopal et al.,
# "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel white paper
# 323102, 2009): four 128-bit lanes folded 64 bytes at a time, folded into one, reduced to 64 then
# 32 bits, then a Barrett reduction. The constants are x^k mod P(x) for that polynomial, bit-
# reflected and shifted one place as the paper derives them (the same values appear in every
# implementation of the method). ~11 GB/s here; the tail (< 16 bytes) and short inputs go through
# a byte table. The result must equal zlib.crc32 for every input: tests/binlog/test_crc32.py
# compares them over every length up to 300, random chunks and chained values.

cdef extern from *:
    """
    #include <stdint.h>
    #include <stddef.h>
    static uint32_t __mysqlddl_crc_table[256];

    static void __mysqlddl_crc_init(void) {
        uint32_t i, c;
        int k;
        for (i = 0; i < 256; i++) {
            c = i;
            for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
            __mysqlddl_crc_table[i] = c;
        }
    }

    static uint32_t __mysqlddl_crc_bytes(uint32_t c, const uint8_t *p, size_t n) {
        while (n--) c = __mysqlddl_crc_table[(c ^ *p++) & 0xFFu] ^ (c >> 8);
        return c;
    }

    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    #include <immintrin.h>
    #define __MYSQLDDL_CRC_CLMUL 1
    #define __MYSQLDDL_FOLD(x, k, d) _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128((x), (k), 0x00), \
                                                                _mm_clmulepi64_si128((x), (k), 0x11)), (d))
    /* c: the running (inverted) CRC; n >= 64 and a multiple of 16 */
    __attribute__((target("pclmul,sse4.1")))
    static uint32_t __mysqlddl_crc_fold(uint32_t c, const uint8_t *p, size_t n) {
        const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);   /* 64-byte stride */
        const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);   /* 16-byte stride */
        const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);                 /* 64 -> 32 bits */
        const __m128i poly = _mm_set_epi64x(0x1F7011641LL, 0x1DB710641LL);  /* Barrett: mu, P */
        const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
        __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 0));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 16));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
        __m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
        __m128i t;
        x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)c));
        p += 64;
        n -= 64;
        while (n >= 64) {
            x1 = __MYSQLDDL_FOLD(x1, k1k2, _mm_loadu_si128((const __m128i *)(p + 0)));
            x2 = __MYSQLDDL_FOLD(x2, k1k2, _mm_loadu_si128((const __m128i *)(p + 16)));
            x3 = __MYSQLDDL_FOLD(x3, k1k2, _mm_loadu_si128((const __m128i *)(p + 32)));
            x4 = __MYSQLDDL_FOLD(x4, k1k2, _mm_loadu_si128((const __m128i *)(p + 48)));
            p += 64;
            n -= 64;
        }
        x1 = __MYSQLDDL_FOLD(x1, k3k4, x2);
        x1 = __MYSQLDDL_FOLD(x1, k3k4, x3);
        x1 = __MYSQLDDL_FOLD(x1, k3k4, x4);
        while (n >= 16) {
            x1 = __MYSQLDDL_FOLD(x1, k3k4, _mm_loadu_si128((const __m128i *)p));
            p += 16;
            n -= 16;
        }
        t = _mm_srli_si128(x1, 8);                       /* 128 -> 64 bits */
        x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x10), t);
        t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00);   /* 64 -> 32 bits */
        x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), t);
        t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);  /* Barrett */
        t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly, 0x00);
        x1 = _mm_xor_si128(x1, t);
        return (uint32_t)_mm_extract_epi32(x1, 1);
    }
    static int __mysqlddl_crc_has_clmul(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    }
    #else
    #define __MYSQLDDL_CRC_CLMUL 0
    static uint32_t __mysqlddl_crc_fold(uint32_t c, const uint8_t *p, size_t n) { return c; }
    static int __mysqlddl_crc_has_clmul(void) { return 0; }
    #endif
    """
    void __mysqlddl_crc_init()
    uint32_t __mysqlddl_crc_bytes(uint32_t c, const uint8_t *p, size_t n) nogil
    uint32_t __mysqlddl_crc_fold(uint32_t c, const uint8_t *p, size_t n) nogil
    int __mysqlddl_crc_has_clmul()

__mysqlddl_crc_init()
#: The folding path is in use (x86-64 with PCLMULQDQ and SSE4.1); else crc32 is zlib's.
CRC32_CLMUL = bool(__mysqlddl_crc_has_clmul())


def _crc32_clmul(const unsigned char[::1] data not None, uint32_t value=0):
    """zlib.crc32(data, value), folded with PCLMULQDQ (inputs under 64 bytes: a byte table)."""
    cdef const uint8_t *p = &data[0] if data.shape[0] else NULL
    cdef size_t n = <size_t>data.shape[0], m
    cdef uint32_t c = ~value
    if n >= 64:
        m = n & ~(<size_t>15)
        c = __mysqlddl_crc_fold(c, p, m)
        p += m
        n -= m
    return ~__mysqlddl_crc_bytes(c, p, n)


if CRC32_CLMUL:
    crc32 = _crc32_clmul
else:
    import zlib as _zlib
    crc32 = _zlib.crc32
