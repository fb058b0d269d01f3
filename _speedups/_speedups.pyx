# cython: language_level=3
"""mysqlddl._speedups: the compiled core. Only mysqlddl.binlog imports it.

One compilation unit: per-topic .pxi files are included here so `cdef inline` helpers inline
across them (as far as the C compiler's inlining budget for the unit goes: a reader's raise is kept
out of line, see cursor.pxi, so that the readers stay small enough to be inlined):

- cursor.pxi: the bounded read cursor;
- plan.pxi: compile_plan, the decode plan in C (a Step per column, with the size of its values);
- values/numeric.pxi, values/temporal.pxi, values/strings.pxi: one reader per column type, which
  reads a value through the cursor into its raw parts (an integer's bits, a NEWDECIMAL's digit
  groups, a temporal's calendar fields, a string's bytes), shared by the two consumers below;
- decimal.pxi: Decimal objects built from digit groups;
- rows.pxi: decode_rows, the row images as Python objects (consumer 1);
- floatrepr.pxi: float repr by Ryu; jsontext.pxi: JSON text of the readers' parts;
- jsonl.pxi: render_rows, rows events straight to JSON Lines (consumer 2);
- crc32.pxi: event checksums;
- packets.pxi: client/server packet framing for a server source (PacketFramer, classify).

mysqlddl/binlog/_twin.py is the pure-Python twin; both must give identical results
(tests/binlog/test_twin_parity.py, test_twin_fuzz.py, and the `twin` fixture everywhere).
"""

from mysqlddl.errors import TruncatedError, CorruptEventError, ProtocolError

include "cursor.pxi"

IMPLEMENTATION = "compiled"


def read_lenenc_int(const unsigned char[::1] buf, Py_ssize_t offset):
    """Length-encoded ("packed") integer at buf[offset:] -> (value or None, new offset).

    Layout (sql-common/pack.c net_field_length_ll; binlog rows events use it for the column count):
    first byte < 251: the value; 251: NULL; 252: 2-byte LE value follows; 253: 3-byte; 254: 8-byte.
    255 is not a valid first byte.
    """
    cdef Cursor c
    if offset < 0 or offset > buf.shape[0]:
        raise CorruptEventError(f"offset {offset} outside buffer of {buf.shape[0]} bytes", offset=offset)
    c.base = &buf[0] if buf.shape[0] else NULL
    c.p = c.base + offset
    c.end = c.base + buf.shape[0]
    cdef uint64_t first = cur_uint_le(&c, 1, "length-encoded integer")
    if first < 251:
        return first, c.p - c.base
    if first == 251:
        return None, c.p - c.base
    if first == 252:
        return cur_uint_le(&c, 2, "length-encoded integer (2 bytes)"), c.p - c.base
    if first == 253:
        return cur_uint_le(&c, 3, "length-encoded integer (3 bytes)"), c.p - c.base
    if first == 254:
        return cur_uint_le(&c, 8, "length-encoded integer (8 bytes)"), c.p - c.base
    raise CorruptEventError("length-encoded integer with first byte 0xff", offset=offset)

include "plan.pxi"
include "values/numeric.pxi"
include "values/temporal.pxi"
include "values/strings.pxi"
include "decimal.pxi"
include "rows.pxi"
include "floatrepr.pxi"
include "jsontext.pxi"
include "jsonl.pxi"
include "crc32.pxi"
include "packets.pxi"
