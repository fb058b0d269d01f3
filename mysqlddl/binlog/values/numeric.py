"""Integers, FLOAT/DOUBLE, NEWDECIMAL and pre-5.0 DECIMAL.

Integers are little-endian two's complement of 1/2/3/4/8 bytes (sql/field.cc ``Field_tiny::pack`` ..
``Field_longlong``; sql/log_event.cc ``log_event_print_value`` reads them with ``sint2korr``,
``sint3korr``, ``sint4korr``, ``sint8korr``); whether the column is unsigned is not in the row image.
FLOAT/DOUBLE are IEEE-754 little-endian (``float4get``/``float8get``).
"""

from __future__ import annotations

import struct
from decimal import Decimal

from ...errors import CorruptEventError, UnsupportedError
from ._common import need

_FLOAT = struct.Struct("<f")
_DOUBLE = struct.Struct("<d")


def _int(size: int):
    what = f"{size}-byte integer"

    def decode(buf, offset, meta):
        need(buf, offset, size, what)
        return int.from_bytes(buf[offset:offset + size], "little", signed=not meta.unsigned), offset + size

    decode.__name__ = f"decode_int{size * 8}"
    return decode


decode_tiny = _int(1)
decode_short = _int(2)
decode_int24 = _int(3)
decode_long = _int(4)
decode_longlong = _int(8)


def decode_float(buf, offset, meta):
    need(buf, offset, 4, "FLOAT")
    return _FLOAT.unpack_from(buf, offset)[0], offset + 4


def decode_double(buf, offset, meta):
    need(buf, offset, 8, "DOUBLE")
    return _DOUBLE.unpack_from(buf, offset)[0], offset + 8


# ----------------------------------------------------------------------------------------- NEWDECIMAL
#
# strings/decimal.c ``decimal2bin`` / ``bin2decimal``. Digits are grouped in 9s ("decimal_digit_t"),
# each full group stored as a 4-byte big-endian integer; a partial group of k digits takes
# dig2bytes[k] bytes. The integer part's partial group comes first, the fraction's last:
#
#   DECIMAL(14,4) = 1234567890.1234:
#   +--------+-------------+---------+
#   | 1 digit|  9 digits   | 4 digits|      intg = 10 = 1 + 9, frac = 4
#   | 1 byte |  4 bytes BE | 2 bytes |
#   +--------+-------------+---------+
#
# The first byte's top bit is inverted (set = non-negative); a negative number has every byte
# inverted (one's complement), so the stored form sorts as a byte string.

DIG2BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
_POW10 = tuple(10 ** i for i in range(10))


def decimal_size(precision: int, scale: int) -> int:
    """Bytes of DECIMAL(precision, scale) (strings/decimal.c ``decimal_bin_size``)."""
    intg = precision - scale
    return (intg // 9) * 4 + DIG2BYTES[intg % 9] + (scale // 9) * 4 + DIG2BYTES[scale % 9]


def decimal_text(raw, precision: int, scale: int) -> str:
    """The exact digits of a binary DECIMAL as text: '-12.50', '0.001', '123'."""
    b = bytearray(raw)
    negative = not (b[0] & 0x80)
    b[0] ^= 0x80
    if negative:
        for i in range(len(b)):
            b[i] ^= 0xFF
    intg = precision - scale
    pos = 0
    parts = []

    def group(nbytes: int, ndigits: int) -> int:
        nonlocal pos
        v = int.from_bytes(b[pos:pos + nbytes], "big")
        pos += nbytes
        if v >= _POW10[ndigits]:
            raise CorruptEventError(f"DECIMAL({precision},{scale}) digit group {v} has more than {ndigits} digits")
        return v

    lead = intg % 9
    if lead:
        parts.append(str(group(DIG2BYTES[lead], lead)))
    for _ in range(intg // 9):
        parts.append(f"{group(4, 9):09d}")
    int_digits = "".join(parts).lstrip("0") or "0"
    frac = []
    for _ in range(scale // 9):
        frac.append(f"{group(4, 9):09d}")
    tail = scale % 9
    if tail:
        frac.append(f"{group(DIG2BYTES[tail], tail):0{tail}d}")
    text = int_digits + ("." + "".join(frac) if scale else "")
    return "-" + text if negative else text


def decode_newdecimal(buf, offset, meta):
    n = meta.length
    need(buf, offset, n, f"DECIMAL({meta.precision},{meta.scale})")
    text = decimal_text(buf[offset:offset + n], meta.precision, meta.scale)
    return (text if meta.decimal_as_str else Decimal(text)), offset + n


def decode_old_decimal(buf, offset, meta):
    """Pre-5.0 DECIMAL: the number as ASCII text, space-padded on the left, in ``length`` bytes
    (sql/field.cc ``Field_decimal::store``). The TABLE_MAP carries no length for it
    (sql/log_event.cc ``log_event_print_value`` cannot print it either): only the schema can."""
    n = meta.length
    if not n:
        raise UnsupportedError("pre-5.0 DECIMAL column: its length must come from the schema")
    need(buf, offset, n, "DECIMAL (pre-5.0)")
    text = bytes(buf[offset:offset + n]).decode("ascii", "replace").strip()
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise CorruptEventError(f"pre-5.0 DECIMAL is not a number: {text!r}", offset=offset) from None
    return (text if meta.decimal_as_str else value), offset + n
