"""DATE, TIME, DATETIME, TIMESTAMP (pre-5.6, 5.6+ "2" formats, MariaDB 5.3 hires) and YEAR.

Values: DATE -> datetime.date; DATETIME -> naive datetime.datetime; TIMESTAMP -> datetime.datetime in
UTC (the row image holds UTC epoch seconds: the session time zone never reaches the binlog);
TIME -> datetime.timedelta (may be negative, up to +-838:59:59.999999); YEAR -> int (0 stays 0).
Zero and invalid dates ('0000-00-00', '2020-00-15') -> the server's text form or None
(Options.invalid_temporal_as).
"""

from __future__ import annotations

import datetime

from ...errors import CorruptEventError
from ._common import need, uint_be, uint_le

UTC = datetime.timezone.utc
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
_POW10 = tuple(10 ** i for i in range(7))


def invalid_text(meta, y, mo, d, h=None, mi=0, s=0, us=0):
    """The server's text for a zero/invalid date or datetime (None if Options say so)."""
    if meta.invalid_as_none:
        return None
    text = f"{y:04d}-{mo:02d}-{d:02d}"
    if h is not None:
        text += f" {h:02d}:{mi:02d}:{s:02d}"
        fsp = meta.fsp or 0
        if fsp:
            text += "." + f"{us:06d}"[:fsp]
    return text


def make_date(meta, y, mo, d):
    try:
        return datetime.date(y, mo, d)
    except ValueError:
        return invalid_text(meta, y, mo, d)


def make_datetime(meta, y, mo, d, h, mi, s, us):
    try:
        return datetime.datetime(y, mo, d, h, mi, s, us)
    except ValueError:
        return invalid_text(meta, y, mo, d, h, mi, s, us)


def make_timestamp(meta, seconds: int, us: int):
    """UTC datetime of epoch seconds; 0 seconds is the zero TIMESTAMP '0000-00-00 00:00:00'
    (sql/field.cc ``Field_timestampf::get_date_internal``: tv_sec == 0 is the zero date)."""
    if seconds == 0:
        return invalid_text(meta, 0, 0, 0, 0, 0, 0, 0)
    if us >= 1000000:
        raise CorruptEventError(f"TIMESTAMP fraction {us} is not below one second")
    return _EPOCH + datetime.timedelta(seconds=seconds, microseconds=us)


def make_time(negative: bool, h: int, mi: int, s: int, us: int):
    secs = (h * 60 + mi) * 60 + s
    if negative:
        return datetime.timedelta(seconds=-secs, microseconds=-us)
    return datetime.timedelta(seconds=secs, microseconds=us)


# ------------------------------------------------------------------------------------------ YEAR/DATE


def decode_year(buf, offset, meta):
    """YEAR: 1 byte, years since 1900; 0 is the zero year and stays 0 (sql/field.cc ``Field_year``)."""
    v = uint_le(buf, offset, 1, "YEAR")
    return (1900 + v if v else 0), offset + 1


def decode_date(buf, offset, meta):
    """DATE (and NEWDATE): 3 bytes little-endian (sql/field.cc ``Field_newdate::store_TIME``)::

         23            9 8       5 4      0
        +---------------+---------+--------+
        |  year (15)    |month (4)| day (5)|
        +---------------+---------+--------+
    """
    v = uint_le(buf, offset, 3, "DATE")
    return make_date(meta, v >> 9, (v >> 5) & 15, v & 31), offset + 3


# --------------------------------------------------------------------------------- pre-5.6 formats


def decode_time(buf, offset, meta):
    """TIME (type 11).

    fsp 0/unknown: 3 bytes little-endian signed integer +-HHMMSS (sql/field.cc ``Field_time::store``,
    log_event_print_value ``sint3korr``).

    fsp 1..6 (MariaDB 5.3-10.0 TIME(n), mysql56_temporal_format=OFF; fsp from the schema):
    big-endian unsigned of time_hires_bytes[fsp] = (3, 4, 4, 5, 5, 5, 6)[fsp] bytes holding
    (signed microseconds / 10^(6-fsp)) + zero_point, zero_point = 3020400 s * 10^fsp (MariaDB
    sql/field.cc ``Field_time_hires::store_TIME``, ``sec_part_shift``).
    """
    fsp = meta.fsp or 0
    if not fsp:
        need(buf, offset, 3, "TIME")
        v = int.from_bytes(buf[offset:offset + 3], "little", signed=True)
        a = -v if v < 0 else v
        return make_time(v < 0, a // 10000, (a // 100) % 100, a % 100, 0), offset + 3
    n = (3, 4, 4, 5, 5, 5, 6)[fsp]
    v = uint_be(buf, offset, n, f"TIME({fsp})") - 3020400 * _POW10[fsp]
    us = v * _POW10[6 - fsp]
    a = -us if us < 0 else us
    secs, frac = divmod(a, 1000000)
    return make_time(us < 0, 0, 0, secs, frac), offset + n


def decode_datetime(buf, offset, meta):
    """DATETIME (type 12).

    fsp 0/unknown: 8 bytes little-endian integer YYYYMMDDhhmmss (sql/field.cc ``Field_datetime``).

    fsp 1..6 (MariaDB 5.3-10.0 DATETIME(n)): big-endian unsigned of
    datetime_hires_bytes[fsp] = (5, 6, 6, 7, 7, 7, 8)[fsp] bytes holding pack_time / 10^(6-fsp),
    pack_time = ((((((year*13 + month)*32 + day)*24 + hour)*60 + minute)*60 + second)*10^6 + us
    (MariaDB sql/field.cc ``Field_datetime_hires``, sql-common/my_time.c ``pack_time``).
    """
    fsp = meta.fsp or 0
    if not fsp:
        v = uint_le(buf, offset, 8, "DATETIME")
        d, t = divmod(v, 1000000)
        return make_datetime(meta, d // 10000, (d // 100) % 100, d % 100,
                             t // 10000, (t // 100) % 100, t % 100, 0), offset + 8
    n = (5, 6, 6, 7, 7, 7, 8)[fsp]
    p = uint_be(buf, offset, n, f"DATETIME({fsp})") * _POW10[6 - fsp]
    p, us = divmod(p, 1000000)
    p, s = divmod(p, 60)
    p, mi = divmod(p, 60)
    p, h = divmod(p, 24)
    p, d = divmod(p, 32)
    y, mo = divmod(p, 13)
    return make_datetime(meta, y, mo, d, h, mi, s, us), offset + n


def decode_timestamp(buf, offset, meta):
    """TIMESTAMP (type 7).

    fsp 0/unknown: 4 bytes little-endian epoch seconds (sql/field.cc ``Field_timestamp``).
    fsp 1..6 (MariaDB 5.3-10.0 TIMESTAMP(n)): 4 bytes big-endian seconds, then
    sec_part_bytes[fsp] = (0, 1, 1, 2, 2, 3, 3)[fsp] bytes big-endian of us / 10^(6-fsp)
    (MariaDB sql/field.cc ``Field_timestamp_hires::store_TIMEVAL``).
    """
    fsp = meta.fsp or 0
    if not fsp:
        return make_timestamp(meta, uint_le(buf, offset, 4, "TIMESTAMP"), 0), offset + 4
    n = (0, 1, 1, 2, 2, 3, 3)[fsp]
    need(buf, offset, 4 + n, f"TIMESTAMP({fsp})")
    secs = int.from_bytes(buf[offset:offset + 4], "big")
    frac = int.from_bytes(buf[offset + 4:offset + 4 + n], "big") * _POW10[6 - fsp]
    return make_timestamp(meta, secs, frac), offset + 4 + n


# ---------------------------------------------------------------------- MySQL 5.6.4+ "2" formats
#
# The fraction follows the integer part in (fsp + 1) // 2 big-endian bytes, in units of
# 10^(6 - 2*((fsp+1)//2)) microseconds (sql-common/my_time.c ``my_datetime_packed_to_binary``):
#   fsp 1,2: 1 byte * 10000 | fsp 3,4: 2 bytes * 100 | fsp 5,6: 3 bytes * 1

_FRAC_BYTES = (0, 1, 1, 2, 2, 3, 3)
_FRAC_MULT = (1, 10000, 10000, 100, 100, 1, 1)


def decode_timestamp2(buf, offset, meta):
    """TIMESTAMP2: 4 bytes big-endian epoch seconds + fraction (sql-common/my_time.c
    ``my_timestamp_from_binary``)."""
    fsp = meta.fsp or 0
    n = 4 + _FRAC_BYTES[fsp]
    need(buf, offset, n, f"TIMESTAMP({fsp})")
    secs = int.from_bytes(buf[offset:offset + 4], "big")
    us = int.from_bytes(buf[offset + 4:offset + n], "big") * _FRAC_MULT[fsp]
    return make_timestamp(meta, secs, us), offset + n


def decode_datetime2(buf, offset, meta):
    """DATETIME2: 5 bytes big-endian + fraction (sql-common/my_time.c ``my_datetime_packed_from_binary``,
    ``TIME_from_longlong_datetime_packed``)::

         39  38                 22 21   17 16   12 11     6 5      0
        +---+---------------------+-------+-------+--------+--------+------------------+
        | 1 | year*13 + month (17)|day (5)|hour(5)|min (6) |sec (6) | fraction 0-3 B   |
        +---+---------------------+-------+-------+--------+--------+------------------+
        sign bit: 1 = non-negative (a DATETIME is never negative)

    The server reads the fraction as signed; a valid one never has its top bit set, so it is read
    unsigned here and a cleared sign bit is corruption.
    """
    fsp = meta.fsp or 0
    n = 5 + _FRAC_BYTES[fsp]
    need(buf, offset, n, f"DATETIME({fsp})")
    v = int.from_bytes(buf[offset:offset + 5], "big")
    if not v & 0x8000000000:
        raise CorruptEventError("DATETIME2 with the sign bit cleared (negative datetime)", offset=offset)
    us = int.from_bytes(buf[offset + 5:offset + n], "big") * _FRAC_MULT[fsp]
    ymd = (v >> 17) & 0x3FFFFF
    ym = ymd >> 5
    hms = v & 0x1FFFF
    return make_datetime(meta, ym // 13, ym % 13, ymd & 31, hms >> 12, (hms >> 6) & 63, hms & 63, us), offset + n


def decode_time2(buf, offset, meta):
    """TIME2: 3 bytes big-endian + fraction, offset binary (sql-common/my_time.c
    ``my_time_packed_from_binary``, ``TIME_from_longlong_time_packed``)::

         23  22  21          12 11      6 5       0
        +---+---+--------------+---------+---------+------------------+
        | s | 0 |  hour (10)   | min (6) | sec (6) | fraction 0-3 B   |
        +---+---+--------------+---------+---------+------------------+
        the 3 bytes are the signed value + 0x800000 (s = 1: non-negative)

    Negative values store the integer part rounded down and the fraction as (0x100 - frac) (resp.
    0x10000 - frac), for binary sort order; the server's comment table in
    ``my_time_packed_from_binary`` shows e.g. 7FFFFF.FF = -00:00:00.01. That is undone as the server
    does (intpart += 1, frac -= 0x100); fsp 5,6 store all 6 bytes as one offset number.
    """
    fsp = meta.fsp or 0
    n = 3 + _FRAC_BYTES[fsp]
    need(buf, offset, n, f"TIME({fsp})")
    if fsp >= 5:
        packed = int.from_bytes(buf[offset:offset + 6], "big") - 0x800000000000
    else:
        intpart = int.from_bytes(buf[offset:offset + 3], "big") - 0x800000
        frac = 0
        if fsp:
            k = _FRAC_BYTES[fsp]
            frac = int.from_bytes(buf[offset + 3:offset + 3 + k], "big")
            if intpart < 0 and frac:
                intpart += 1
                frac -= 1 << (8 * k)
            frac *= _FRAC_MULT[fsp]
        packed = (intpart << 24) + frac
    negative = packed < 0
    a = -packed if negative else packed
    hms = a >> 24
    return make_time(negative, (hms >> 12) & 1023, (hms >> 6) & 63, hms & 63, a & 0xFFFFFF), offset + n
