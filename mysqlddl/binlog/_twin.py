"""Pure-Python twin of mysqlddl._speedups: the same functions, the same results and errors.

Used when MYSQLDDL_PUREPYTHON=1 or when the extension is absent (and not required).
"""

from __future__ import annotations

import array
import zlib

from ..errors import BinlogError, CorruptEventError, RowImageOverrunError, TruncatedError
from ._twin_packets import PacketFramer, classify  # noqa: F401 -- the twin of _speedups/packets.pxi
from .absent import ABSENT
from .coltypes import ColumnType
from .values import decoder_for
from .values.jsonb import decode_json_diff

IMPLEMENTATION = "pure-python"

#: Event checksums: zlib's CRC-32 (the compiled core folds it with PCLMULQDQ where it can).
crc32 = zlib.crc32


def _need(buf, offset: int, n: int, what: str) -> None:
    if len(buf) - offset < n:
        avail = len(buf) - offset
        raise TruncatedError(f"{what}: needs {n} bytes, {avail} remain", needed=n, available=avail,
                             offset=offset)


def read_lenenc_int(buf, offset: int):
    """See mysqlddl._speedups.read_lenenc_int (sql-common/pack.c net_field_length_ll)."""
    if offset < 0 or offset > len(buf):
        raise CorruptEventError(f"offset {offset} outside buffer of {len(buf)} bytes", offset=offset)
    _need(buf, offset, 1, "length-encoded integer")
    first = buf[offset]
    offset += 1
    if first < 251:
        return first, offset
    if first == 251:
        return None, offset
    width = {252: 2, 253: 3, 254: 8}.get(first)
    if width is None:
        raise CorruptEventError("length-encoded integer with first byte 0xff", offset=offset - 1)
    _need(buf, offset, width, f"length-encoded integer ({width} bytes)")
    return int.from_bytes(buf[offset:offset + width], "little"), offset + width


# ------------------------------------------------------------------------------------------ rows
# The pure counterpart of _speedups/rows.pxi: same plan, same values, same error types.


def compile_plan(columns):
    """ColumnMeta tuple -> ((decoder, meta), ...) for decode_rows."""
    return tuple((decoder_for(m.type), m) for m in columns)


def _check_range(buf, start, end, present1, present2, ncols):
    if not 0 <= start <= end <= len(buf):
        raise CorruptEventError(f"row range {start}..{end} outside a buffer of {len(buf)} bytes")
    nb = (ncols + 7) // 8
    for bitmap in (present1, present2):
        if bitmap is not None and len(bitmap) < nb:
            raise TruncatedError(f"columns-present bitmap of {len(bitmap)} bytes for {ncols} columns",
                                 needed=nb, available=len(bitmap))


def _present(bitmap, ncols: int):
    """Indices of the columns set in a columns-present bitmap; padding bits past ncols ignored."""
    return [i for i in range(ncols) if bitmap[i >> 3] >> (i & 7) & 1]


def _prepare(plan, buf, start: int, end: int, present1, present2, base: int):
    """What every rows-event body decoder starts from: the fenced view, the (index, decoder, meta)
    steps of the columns present in each image (None for a one-image event) and a row of ABSENT."""
    ncols = len(plan)
    _check_range(buf, start, end, present1, present2, ncols)
    view = buf if end == len(buf) else memoryview(buf)[:end]
    cols1 = [(i, plan[i][0], plan[i][1]) for i in _present(present1, ncols)]
    cols2 = None if present2 is None else [(i, plan[i][0], plan[i][1]) for i in _present(present2, ncols)]
    if start < end and not cols1 and not cols2:
        raise CorruptEventError(f"{end - start} bytes of rows but no column is present in either image",
                                offset=base + start)
    return view, cols1, cols2, [ABSENT] * ncols


def decode_rows(plan, buf, start: int, end: int, present1, present2, base: int = 0) -> list:
    """See mysqlddl.binlog.rows.decode_rows."""
    view, cols1, cols2, blank = _prepare(plan, buf, start, end, present1, present2, base)
    rows = []
    pos = start
    while pos < end:
        before, pos = _image(view, pos, cols1, blank, base)
        if cols2 is None:
            rows.append(before)
        else:
            after, pos = _image(view, pos, cols2, blank, base)
            rows.append((before, after))
    return rows


def _image(view, pos: int, cols, blank, base: int, partial=()):
    row = list(blank)
    n = len(cols)
    nb = (n + 7) >> 3
    col = cols[0][0] if cols else None
    value_start = pos
    try:
        _need(view, pos, nb, "null bitmap")
        nulls = view[pos:pos + nb]
        pos += nb
        for j, (i, decode, meta) in enumerate(cols):
            col = i
            value_start = pos
            if nulls[j >> 3] >> (j & 7) & 1:
                row[i] = None
            elif i in partial:
                row[i], pos = decode_json_diff(view, pos, meta)
            else:
                row[i], pos = decode(view, pos, meta)
    except TruncatedError as e:
        raise RowImageOverrunError(f"row image runs past the end of the rows event: {e.message}",
                                   needed=e.needed, available=e.available,
                                   offset=base + (e.offset if e.offset is not None else value_start),
                                   column=col) from None
    except BinlogError as e:
        if e.offset is None:
            e.offset = value_start
        e.offset += base
        raise e.with_context(column=col) from None
    return tuple(row), pos


def decode_partial_update_rows(plan, buf, start: int, end: int, present1, present2, base: int = 0) -> list:
    """PARTIAL_UPDATE_ROWS (MySQL 8.0.3+, binlog_row_value_options=PARTIAL_JSON): like an UPDATE, but
    each after image starts with value_options (packed int) and, when its PARTIAL_JSON_UPDATES bit
    (1) is set, a bitmap with one bit per JSON column of the table (present or not, LSB first);
    JSON columns whose bit is set hold a diff vector (sql/rpl_record.cc ``pack_row``;
    sql/log_event.cc ``Rows_log_event::print_verbose_one_row``). The compiled twin is
    _speedups/rows.pxi ``decode_partial_update_rows``."""
    if present2 is None:
        raise CorruptEventError("PARTIAL_UPDATE_ROWS without an after-image columns-present bitmap")
    view, cols1, cols2, blank = _prepare(plan, buf, start, end, present1, present2, base)
    json_cols = [i for i in range(len(plan)) if plan[i][1].binlog_type == ColumnType.JSON]
    rows = []
    pos = start
    while pos < end:
        before, pos = _image(view, pos, cols1, blank, base)
        at = pos
        try:
            options, pos = read_lenenc_int(view, pos)
            if options is None:
                raise CorruptEventError("binlog_row_value_options is NULL", offset=at)
            partial = set()
            if options & 1:
                nb = (len(json_cols) + 7) // 8
                _need(view, pos, nb, "partial JSON bitmap")
                bits = view[pos:pos + nb]
                pos += nb
                partial = {c for k, c in enumerate(json_cols) if bits[k >> 3] >> (k & 7) & 1}
        except TruncatedError as e:
            raise RowImageOverrunError(f"row image runs past the end of the rows event: {e.message}",
                                       needed=e.needed, available=e.available, offset=base + e.offset) from None
        except BinlogError as e:
            e.offset = base + (e.offset if e.offset is not None else at)
            raise
        after, pos = _image(view, pos, cols2, blank, base, partial)
        rows.append((before, after))
    return rows


# ------------------------------------------------------------------------------- rows to JSON text
# The pure counterpart of _speedups/jsonl.pxi: decode_rows, then every value through the format's
# Python callables (the reference rendering); the compiled twin renders most types natively and
# must give the same bytes.


def compile_json_format(plan, fmt):
    """The twin renders from the JsonRowsFormat itself."""
    if len(fmt.keys) != len(plan):
        raise ValueError(f"{len(fmt.keys)} keys for a plan of {len(plan)} columns")
    return fmt


def _json_image(row, keys, value_json, column_json) -> str:
    out = []
    for i, v in enumerate(row):
        if v is ABSENT:
            continue
        if v is None:
            text = "null"
        else:
            fn = column_json[i] if column_json is not None and column_json[i] is not None else value_json
            text = fn(v)
        out.append(f"{keys[i]}:{text}")
    return "{" + ",".join(out) + "}"


def _json_images(plan, fmt, buf, start, end, present1, present2, base, op) -> list[tuple[str, str]]:
    """Each row's (before, after) JSON text, ``null`` for the image the op lacks."""
    if op not in (0, 1, 2) or (op == 2) != (present2 is not None):
        raise ValueError(f"op {op} does not fit the rows event's images")
    rows = decode_rows(plan, buf, start, end, present1, present2, base)
    keys, value_json, column_json = fmt.keys, fmt.value_json, fmt.column_json
    if op == 0:
        return [("null", _json_image(row, keys, value_json, column_json)) for row in rows]
    if op == 1:
        return [(_json_image(row, keys, value_json, column_json), "null") for row in rows]
    return [(_json_image(b, keys, value_json, column_json), _json_image(a, keys, value_json, column_json))
            for b, a in rows]


def render_rows(plan, fmt, buf, start: int, end: int, present1, present2, base: int, op: int, parts,
                total0: int, table0: int):
    """See mysqlddl.binlog.rows.render_rows."""
    if len(parts) != 6:
        raise ValueError("parts must be 6 strings")
    images = _json_images(plan, fmt, buf, start, end, present1, present2, base, op)
    lines = [f"{parts[0]}{before}{parts[1]}{after}{parts[2]}{n}{parts[3]}{total0 + n + 1}"
             f"{parts[4]}{table0 + n + 1}{parts[5]}" for n, (before, after) in enumerate(images)]
    return "".join(lines).encode("ascii"), len(images)


def render_images(plan, fmt, buf, start: int, end: int, present1, present2, base: int, op: int, limit: int):
    """See mysqlddl.binlog.rows.render_images."""
    if not 0 <= limit <= 0x7FFFFFFF:
        raise ValueError(f"limit {limit} is not an int32 offset")
    images = _json_images(plan, fmt, buf, start, end, present1, present2, base, op)
    out = []
    for side in (0, 1):
        texts = [img[side].encode("ascii") for img in images]
        offsets = array.array("i", [0])
        for t in texts:
            if offsets[-1] + len(t) > limit:
                raise OverflowError(f"rendered images of {offsets[-1] + len(t)} bytes pass the limit of {limit}")
            offsets.append(offsets[-1] + len(t))
        out += [b"".join(texts), offsets.tobytes()]
    return (*out, len(images))
