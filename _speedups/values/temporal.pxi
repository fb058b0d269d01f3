# Temporal values: one reader per type, shared by the Python-object decoder (rows.pxi) and the JSON
# renderer (jsonl.pxi). A reader takes the value's bytes through the bounded cursor, checks what the
# layout itself rules out, and hands back the raw fields (Civil: y..us as stored, not yet checked as
# a calendar date; Duration: sign, seconds, microseconds); each consumer turns them into its form
# (datetime/date/timedelta or the server's invalid-date text; ISO text). The sizes read are the
# W_* table / Step.width (plan.pxi). The layouts, with diagrams, are documented next to the pure
# decoders in mysqlddl/binlog/values/temporal.py; the server symbols are named at each reader.


cdef struct Civil:
    int64_t y
    int64_t mo
    int64_t d
    int64_t h
    int64_t mi
    int64_t s
    int64_t us


cdef struct Duration:
    bint negative
    int64_t secs       # magnitude
    int64_t us         # magnitude


cdef int _DAYS_IN_MONTH[14]
_DAYS_IN_MONTH[:] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0]


cdef inline bint _valid_date(int64_t y, int64_t mo, int64_t d):
    """A date datetime.date accepts (years 1..9999, the proleptic Gregorian calendar)."""
    cdef int dim
    if y < 1 or y > 9999 or mo < 1 or mo > 12 or d < 1:
        return False
    dim = _DAYS_IN_MONTH[mo]
    if mo == 2 and (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)):
        dim = 29
    return d <= dim


cdef inline bint _valid_time(int64_t h, int64_t mi, int64_t s, int64_t us):
    return 0 <= h < 24 and 0 <= mi < 60 and 0 <= s < 60 and 0 <= us < 1000000


cdef inline bint _valid_civil(const Civil *t):
    """The fields make a datetime.datetime (else the consumer falls back to the invalid-date text)."""
    return _valid_date(t.y, t.mo, t.d) and _valid_time(t.h, t.mi, t.s, t.us)


# ------------------------------------------------------------------------------------- readers

cdef inline int read_year(Cursor *c, int64_t *out) except -1:
    """YEAR: 1 byte, years since 1900; 0 is the zero year and stays 0 (sql/field.cc ``Field_year``)."""
    cdef uint64_t u = cur_uint_le(c, W_YEAR, "YEAR")
    out[0] = <int64_t>(1900 + u) if u else 0
    return 0


cdef inline int read_date(Cursor *c, Civil *t) except -1:
    """DATE/NEWDATE: 3 bytes LE, day | month << 5 | year << 9 (sql/field.cc
    ``Field_newdate::store_TIME``). Sets y, mo, d."""
    cdef uint64_t u = cur_uint_le(c, W_DATE, "DATE")
    t.y = <int64_t>(u >> 9)
    t.mo = <int64_t>((u >> 5) & 15)
    t.d = <int64_t>(u & 31)
    return 0


cdef inline int read_datetime(Cursor *c, Civil *t) except -1:
    """Pre-5.6 DATETIME: 8 bytes LE, the integer YYYYMMDDhhmmss (sql/field.cc ``Field_datetime``)."""
    cdef uint64_t u = cur_uint_le(c, W_DATETIME, "DATETIME")
    cdef int64_t a = <int64_t>(u // 1000000), v = <int64_t>(u % 1000000)
    t.y = a // 10000
    t.mo = (a // 100) % 100
    t.d = a % 100
    t.h = v // 10000
    t.mi = (v // 100) % 100
    t.s = v % 100
    t.us = 0
    return 0


cdef inline int read_datetime2(Step *s, Cursor *c, Civil *t) except -1:
    """DATETIME2: 5 bytes BE -- sign (1 = non-negative), year*13+month (17 bits), day (5), hour (5),
    minute (6), second (6) -- then the fraction (sql-common/my_time.cc
    ``my_datetime_packed_from_binary``, ``TIME_from_longlong_datetime_packed``). A DATETIME is
    never negative, so a cleared sign bit is corruption."""
    cdef Py_ssize_t n = s.width
    cdef uint64_t u
    cdef int64_t a, hms
    cur_need(c, n, "DATETIME2")
    u = _be(c.p, W_DATETIME2_INT)
    if not (u >> 39) & 1:      # (a literal 0x8000000000 would be a Python int to Cython)
        _raise_corrupt(E_DATETIME2_SIGN)
    t.us = <int64_t>_be(c.p + W_DATETIME2_INT, <int>n - W_DATETIME2_INT) * _FRAC_MULT[s.a]
    c.p += n
    a = <int64_t>((u >> 17) & 0x3FFFFF)    # year*13+month << 5 | day
    hms = <int64_t>(u & 0x1FFFF)
    t.y = (a >> 5) // 13
    t.mo = (a >> 5) % 13
    t.d = a & 31
    t.h = hms >> 12
    t.mi = (hms >> 6) & 63
    t.s = hms & 63
    return 0


cdef inline int read_timestamp(Cursor *c, uint64_t *secs, int64_t *us) except -1:
    """Pre-5.6 TIMESTAMP: 4 bytes LE epoch seconds (sql/field.cc ``Field_timestamp``)."""
    secs[0] = cur_uint_le(c, W_TIMESTAMP, "TIMESTAMP")
    us[0] = 0
    return 0


cdef inline int read_timestamp2(Step *s, Cursor *c, uint64_t *secs, int64_t *us) except -1:
    """TIMESTAMP2: 4 bytes BE epoch seconds, then the fraction (sql-common/my_time.cc
    ``my_timestamp_from_binary``)."""
    cdef Py_ssize_t n = s.width
    cur_need(c, n, "TIMESTAMP2")
    secs[0] = _be(c.p, W_TIMESTAMP2_INT)
    us[0] = <int64_t>_be(c.p + W_TIMESTAMP2_INT, <int>n - W_TIMESTAMP2_INT) * _FRAC_MULT[s.a]
    c.p += n
    return 0


cdef inline int read_time(Cursor *c, Duration *t) except -1:
    """Pre-5.6 TIME: 3 bytes LE signed, +-HHMMSS as a decimal integer (sql/field.cc
    ``Field_time::store``; sql/log_event.cc ``log_event_print_value`` reads it with sint3korr)."""
    cdef int64_t v = <int64_t>cur_uint_le(c, W_TIME, "TIME"), a
    if v & 0x800000:
        v -= 0x1000000
    a = -v if v < 0 else v
    t.negative = v < 0
    t.secs = (a // 10000) * 3600 + ((a // 100) % 100) * 60 + a % 100
    t.us = 0
    return 0


cdef inline int read_time2(Step *s, Cursor *c, Duration *t) except -1:
    """TIME2: 3 bytes BE offset binary (value + 0x800000: sign, 1 unused bit, hour (10), minute (6),
    second (6)), then the fraction (sql-common/my_time.cc ``my_time_packed_from_binary``,
    ``TIME_from_longlong_time_packed``). A negative value with fsp 1-4 stores its integer part
    rounded down and its fraction as 2^(8k) - fraction, undone here as the server does; fsp 5,6
    store the 6 bytes as one offset number."""
    cdef Py_ssize_t n = s.width
    cdef int k = <int>n - W_TIME2_INT
    cdef int64_t packed, intpart, frac, a, hms
    cur_need(c, n, "TIME2")
    if k == 3:
        packed = <int64_t>_be(c.p, 6) - <int64_t>0x800000000000
    else:
        intpart = <int64_t>_be(c.p, W_TIME2_INT) - 0x800000
        frac = 0
        if k:
            frac = <int64_t>_be(c.p + W_TIME2_INT, k)
            if intpart < 0 and frac:
                intpart += 1
                frac -= (<int64_t>1) << (8 * k)
            frac *= _FRAC_MULT[s.a]
        packed = intpart * (<int64_t>1 << 24) + frac
    c.p += n
    a = -packed if packed < 0 else packed
    hms = a >> 24
    t.negative = packed < 0
    t.secs = (((hms >> 12) & 1023) * 60 + ((hms >> 6) & 63)) * 60 + (hms & 63)
    t.us = a & 0xFFFFFF
    return 0


# ------------------------------------------------------------------------- epoch seconds -> civil

DEF TS_CIVIL = 0     # the fields are set: a UTC datetime in datetime's range
DEF TS_ZERO = 1      # 0 seconds: the zero TIMESTAMP '0000-00-00 00:00:00'
DEF TS_WIDE = 2      # past year 9999 (not from 32-bit seconds; kept for a wider caller)


cdef inline int _epoch_civil(uint64_t secs, int64_t us, Civil *t) except -1:
    """The UTC calendar fields of epoch seconds + microseconds, the one civil-date conversion of the
    module. 0 seconds is the zero TIMESTAMP (sql/field.cc ``Field_timestampf::get_date_internal``:
    tv_sec == 0 is the zero date), checked before the fraction as the pure twin does
    (values/temporal.py make_timestamp).

    The day count is turned into a proleptic Gregorian date with 400-year eras of 146097 days
    counted from 0000-03-01, so that the leap day is the last day of a year (H. Hinnant,
    "chrono-Compatible Low-Level Date Algorithms", ``civil_from_days``)."""
    cdef int64_t z, era, doe, yoe, doy, mp, rem
    if secs == 0:
        return TS_ZERO
    if us >= 1000000:
        _raise_corrupt(E_TIMESTAMP_FRACTION, us)
    z = <int64_t>(secs // 86400) + 719468          # days since 0000-03-01
    rem = <int64_t>(secs % 86400)
    era = z // 146097
    doe = z - era * 146097                         # day of the era, 0..146096
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153                      # month from March, 0..11
    t.d = doy - (153 * mp + 2) // 5 + 1
    t.mo = mp + 3 if mp < 10 else mp - 9
    t.y = yoe + era * 400 + (1 if t.mo <= 2 else 0)
    t.h = rem // 3600
    t.mi = rem // 60 % 60
    t.s = rem % 60
    t.us = us
    return TS_WIDE if t.y > 9999 else TS_CIVIL
