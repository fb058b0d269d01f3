"""MySQL binary JSON (type 245) -> Python objects or canonical JSON text.

Row image: length in ``meta.len_bytes`` bytes (LE), then the binary document (sql/json_binary.cc,
header comment "JSON binary format"; ``json_binary::parse_binary``)::

    doc     ::= type value
    type    ::= 0x00 small object | 0x01 large object | 0x02 small array | 0x03 large array
              | 0x04 literal | 0x05 int16 | 0x06 uint16 | 0x07 int32 | 0x08 uint32
              | 0x09 int64 | 0x0a uint64 | 0x0b double | 0x0c utf8mb4 string | 0x0f opaque
    object  ::= count size key-entry* value-entry* key* value*      (count/size: 2 bytes small,
    array   ::= count size value-entry* value*                        4 bytes large, LE)
    key-entry   ::= key-offset (2|4) key-length (2)
    value-entry ::= type offset-or-inlined-value (2|4)
    string  ::= data-length utf8mb4-data        data-length: 7 bits per byte, LSB first, high bit
    opaque  ::= field-type data-length binary-data                   set on all but the last byte
    literal ::= 0x00 null | 0x01 true | 0x02 false

Offsets are from the first byte after the container's type byte. Literals and int16/uint16 are
inlined in the value entry (and int32/uint32 too in large containers). An empty value (length 0)
is the JSON null (sql/field.cc ``Field_json::val_json``).

Opaque values carry a MySQL column type: NEWDECIMAL -> Decimal (precision byte, scale byte, binary
decimal: strings/decimal.c ``bin2decimal``); DATE/TIME/DATETIME/TIMESTAMP -> date/timedelta/datetime
from the 8-byte little-endian packed form (sql-common/my_time.c ``TIME_from_longlong_packed``);
anything else -> JsonOpaque(field_type, data), rendered as text the way MySQL does
("base64:type<N>:<base64>").

Every length and offset is checked against the enclosing container; a violation is a
CorruptEventError (the value itself was already fenced by its declared length).

The same document gives the same Python values whether it comes from this binary form or from
MariaDB's JSON text (a LONGTEXT, :func:`parse_text`): int for an integer, Decimal for any other
number (a double here as the shortest decimal that reads back to it, which is the number MySQL
prints; the text's exact digits there, so ``12345678901234567890.123`` or ``1e400`` lose nothing),
and a document that is the JSON ``null`` is :data:`JSON_NULL`, never None, which is SQL NULL (a
``null`` inside a container stays None). :func:`to_text` writes them back exactly.
"""

from __future__ import annotations

import base64
import copy
import datetime
import json
import math
import re
import struct
from decimal import Decimal
from typing import NamedTuple

from ...errors import CorruptEventError
from ._common import length_prefixed
from .numeric import decimal_size, decimal_text

MAX_DEPTH = 150  # the server refuses documents deeper than 100 (JSON_DOCUMENT_MAX_DEPTH)

_DOUBLE = struct.Struct("<d")


class JsonOpaque(NamedTuple):
    """A JSON opaque value of a MySQL type without a JSON counterpart (BLOB, BIT, GEOMETRY...)."""

    field_type: int
    data: bytes


class JsonNull:
    """The type of :data:`JSON_NULL`: a JSON column holding the document ``null``, which is not SQL
    NULL (the column is not null: ``j IS NULL`` is false for it; MariaDB KB "JSON Data Type",
    MySQL manual 13.5 "The JSON Data Type", "JSON null")."""

    __slots__ = ()
    _one = None

    def __new__(cls):
        if cls._one is None:
            cls._one = object.__new__(cls)
        return cls._one

    def __repr__(self) -> str:
        return "JSON_NULL"

    def __reduce__(self):
        return (JsonNull, ())


#: the document ``null`` (see :class:`JsonNull`); one object, compared with ``is``
JSON_NULL = JsonNull()


def _bad(msg: str):
    raise CorruptEventError(f"binary JSON: {msg}")


class _Parser:
    __slots__ = ("data", "decimal_as_str")

    def __init__(self, data: bytes, decimal_as_str: bool):
        self.data = data
        self.decimal_as_str = decimal_as_str

    def uint(self, pos: int, n: int, end: int) -> int:
        if pos + n > end:
            _bad(f"{n}-byte field at {pos} runs past its container end {end}")
        return int.from_bytes(self.data[pos:pos + n], "little")

    def varlen(self, pos: int, end: int):
        """data-length: up to 5 bytes of 7 bits (sql/json_binary.cc ``read_variable_length``)."""
        n = 0
        for i in range(5):
            if pos + i >= end:
                _bad("variable-length integer runs past its container")
            b = self.data[pos + i]
            n |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                if n > 0xFFFFFFFF:
                    _bad("variable-length integer above 2^32")
                return n, pos + i + 1
        _bad("variable-length integer longer than 5 bytes")

    def value(self, t: int, pos: int, end: int, depth: int):
        """The value of type ``t`` whose bytes start at ``pos`` and may extend to ``end``."""
        if t <= 0x03:
            if depth > MAX_DEPTH:
                _bad(f"nesting deeper than {MAX_DEPTH}")
            return self.container(t, pos, end, depth + 1)
        if t == 0x04:
            return self.literal(self.uint(pos, 1, end))
        if t in _INTS:
            n, signed = _INTS[t]
            if pos + n > end:
                _bad(f"integer at {pos} runs past its container")
            return int.from_bytes(self.data[pos:pos + n], "little", signed=signed)
        if t == 0x0B:
            if pos + 8 > end:
                _bad(f"double at {pos} runs past its container")
            d = _DOUBLE.unpack_from(self.data, pos)[0]
            if not math.isfinite(d):
                _bad("double is not finite")
            # the shortest decimal that reads back to the double (repr), as MySQL prints it
            # (sql-common/json_dom.cc ``Json_double`` -> my_gcvt): the value a MariaDB text gives
            return Decimal(repr(d))
        if t == 0x0C:
            n, start = self.varlen(pos, end)
            if start + n > end:
                _bad("string runs past its container")
            try:
                return bytes(self.data[start:start + n]).decode("utf-8")
            except UnicodeDecodeError:
                _bad("string is not valid utf8mb4")
        if t == 0x0F:
            field_type = self.uint(pos, 1, end)
            n, start = self.varlen(pos + 1, end)
            if start + n > end:
                _bad("opaque value runs past its container")
            return self.opaque(field_type, bytes(self.data[start:start + n]))
        _bad(f"unknown value type {t:#04x}")

    @staticmethod
    def literal(v: int):
        if v == 0:
            return None
        if v == 1:
            return True
        if v == 2:
            return False
        _bad(f"unknown literal {v:#04x}")

    def container(self, t: int, base: int, end: int, depth: int):
        large = t in (0x01, 0x03)
        w = 4 if large else 2
        count = self.uint(base, w, end)
        size = self.uint(base + w, w, end)
        if size > end - base:
            _bad(f"container size {size} exceeds the {end - base} bytes available")
        end = base + size
        is_object = t in (0x00, 0x01)
        pos = base + 2 * w
        key_entries = pos
        if is_object:
            pos += count * (w + 2)
        value_entries = pos
        if value_entries + count * (1 + w) > end:
            _bad(f"{count} entries do not fit a container of {size} bytes")
        values = []
        for i in range(count):
            e = value_entries + i * (1 + w)
            vt = self.data[e]
            if vt == 0x04 or vt in (0x05, 0x06) or (large and vt in (0x07, 0x08)):
                values.append(self.value(vt, e + 1, e + 1 + w, depth))  # inlined
            else:
                off = self.uint(e + 1, w, end)
                if off >= size:
                    _bad(f"value offset {off} outside a container of {size} bytes")
                values.append(self.value(vt, base + off, end, depth))
        if not is_object:
            return values
        out = {}
        for i in range(count):
            k = key_entries + i * (w + 2)
            off = self.uint(k, w, end)
            n = self.uint(k + w, 2, end)
            if off + n > size:
                _bad("key runs past its container")
            try:
                key = bytes(self.data[base + off:base + off + n]).decode("utf-8")
            except UnicodeDecodeError:
                _bad("key is not valid utf8mb4")
            out[key] = values[i]
        return out

    def opaque(self, field_type: int, data: bytes):
        if field_type == 246:  # NEWDECIMAL: precision, scale, bin2decimal bytes
            if len(data) < 2:
                _bad("opaque DECIMAL without precision and scale")
            p, s = data[0], data[1]
            if not (1 <= p <= 65 and s <= p) or len(data) != 2 + decimal_size(p, s):
                _bad(f"opaque DECIMAL({p},{s}) of {len(data)} bytes")
            text = decimal_text(data[2:], p, s)
            return text if self.decimal_as_str else Decimal(text)
        if field_type in (10, 11, 12, 7, 14, 17, 18, 19):
            if len(data) != 8:
                _bad(f"opaque temporal value of {len(data)} bytes, not 8")
            return _packed_temporal(field_type, int.from_bytes(data, "little", signed=True))
        return JsonOpaque(field_type, data)


_INTS = {0x05: (2, True), 0x06: (2, False), 0x07: (4, True), 0x08: (4, False), 0x09: (8, True),
         0x0A: (8, False)}


def _packed_temporal(field_type: int, packed: int):
    """sql-common/my_time.c ``TIME_from_longlong_datetime_packed`` / ``_time_packed`` /
    ``_date_packed``: packed = (ymd << 41 | hms << 24) + microseconds, negative for negative TIME::

        ymd = (year*13 + month) << 5 | day       hms = hour << 12 | minute << 6 | second
    """
    negative = packed < 0
    a = -packed if negative else packed
    us = a & 0xFFFFFF
    ymdhms = a >> 24
    hms = ymdhms & 0x1FFFF
    h, mi, s = hms >> 12, (hms >> 6) & 63, hms & 63
    if field_type in (11, 19):  # TIME
        td = datetime.timedelta(hours=(h & 1023), minutes=mi, seconds=s, microseconds=us)
        return -td if negative else td
    ymd = ymdhms >> 17
    y, mo, d = (ymd >> 5) // 13, (ymd >> 5) % 13, ymd & 31
    try:
        if field_type in (10, 14):
            return datetime.date(y, mo, d)
        return datetime.datetime(y, mo, d, h, mi, s, us)
    except ValueError:
        _bad(f"opaque temporal value {y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d} is not a valid date")


def parse(data, decimal_as_str: bool = False):
    """A binary JSON document -> Python value (dict, list, str, int, Decimal, bool, None inside a
    container, JSON_NULL for the document ``null``, date, datetime, timedelta, JsonOpaque)."""
    if len(data) == 0:
        return JSON_NULL
    doc = _Parser(data, decimal_as_str).value(data[0], 1, len(data), 0)
    return JSON_NULL if doc is None else doc


def _text_int(s: str):
    # "-0" is a JSON number whose sign int cannot keep (RFC 8259 section 6 allows it); an integer
    # longer than int() reads from text (sys.get_int_max_str_digits, 4300) keeps its digits as a Decimal
    if s == "-0":
        return Decimal(s)
    try:
        return int(s)
    except ValueError:
        return Decimal(s)


def _no_constant(s: str):
    raise ValueError(f"{s} is not JSON")      # (json.loads takes NaN and Infinity; RFC 8259 does not)


def parse_text(text: str):
    """A JSON document's text (MariaDB's JSON, a LONGTEXT with a json_valid() check) -> the Python
    values :func:`parse` gives for the same document: integers as int, every other number as the
    Decimal of its exact digits (a double would round ``12345678901234567890.123`` and make
    ``1e400`` infinite), the document ``null`` as JSON_NULL. ValueError when it is not JSON."""
    doc = json.loads(text, parse_float=Decimal, parse_int=_text_int, parse_constant=_no_constant)
    return JSON_NULL if doc is None else doc


def number_text(d: Decimal) -> str:
    """The JSON text of an exact number: plain digits when it has no positive exponent (a literal
    ``1.0`` stays ``1.0``, ``0.0000001`` is not written ``1E-7``, ``-0`` keeps its sign), else
    scientific (``1e400`` is ``1E+400``, not 401 digits)."""
    return format(d, "f") if d.as_tuple().exponent <= 0 else str(d)


def to_text(value, compact: bool = False) -> str:
    """Canonical JSON text of a parsed document, spaced as MySQL prints JSON (``", "``, ``": "``;
    none when ``compact``), keys in stored order, numbers exactly (:func:`number_text`), temporal
    values quoted as MySQL renders them inside JSON."""
    if isinstance(value, dict):
        sep, colon = (",", ":") if compact else (", ", ": ")
        return "{" + sep.join(f"{json.dumps(k, ensure_ascii=False)}{colon}{to_text(v, compact)}"
                              for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + (", " if not compact else ",").join(to_text(v, compact) for v in value) + "]"
    if isinstance(value, JsonOpaque):
        return f'"base64:type{value.field_type}:{base64.b64encode(value.data).decode("ascii")}"'
    if isinstance(value, datetime.datetime):
        return '"' + value.strftime("%Y-%m-%d %H:%M:%S.%f") + '"'
    if isinstance(value, datetime.date):
        return '"' + value.isoformat() + '"'
    if isinstance(value, datetime.timedelta):
        neg = value < datetime.timedelta(0)
        a = -value if neg else value
        secs = a.days * 86400 + a.seconds
        return f'"{"-" if neg else ""}{secs // 3600:02d}:{secs // 60 % 60:02d}:{secs % 60:02d}.{a.microseconds:06d}"'
    if isinstance(value, Decimal):
        return number_text(value)
    if isinstance(value, float) and not math.isfinite(value):
        _bad("double is not finite")
    if value is JSON_NULL:
        return "null"
    return json.dumps(value, ensure_ascii=False)


def decode_json(buf, offset, meta):
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "JSON")
    doc = parse(bytes(buf[start:end]), meta.decimal_as_str)
    return (to_text(doc) if meta.json_as_text else doc), end


# ------------------------------------------------------------------------ partial JSON updates
#
# PARTIAL_UPDATE_ROWS after images (binlog_row_value_options=PARTIAL_JSON) carry, for a JSON column
# whose partial bit is set, a Json_diff_vector instead of a whole document (sql/json_diff.cc
# ``Json_diff_vector::write_binary`` / ``read_binary``; printed by sql/log_event.cc
# ``Rows_log_event::print_verbose_one_row`` as JSON_REPLACE/JSON_INSERT/JSON_REMOVE calls):
#
#   length (meta bytes, LE) | diff*
#   diff ::= operation (1 byte: 0 REPLACE, 1 INSERT, 2 REMOVE)
#            path-length (packed int) path (utf8mb4, a JSON path such as $.a[1])
#            [value-length (packed int) value (binary JSON doc)]      -- not for REMOVE
#
# Every diff is kept, in order.

_OPS = ("replace", "insert", "remove")


class JsonDiff(NamedTuple):
    operation: str      # "replace", "insert" or "remove"
    path: str
    value: object       # the new value (None for "remove"; JSON text when json_as="text")


class JsonPartialUpdate(NamedTuple):
    """A JSON column changed in place: ``diffs`` (every one the server logged, in order) turn the
    before image's document into the new one; :meth:`apply` does it."""

    diffs: tuple

    def apply(self, doc):
        """The document after every diff, applied in order to a copy of ``doc`` (the before image's
        value; a str is taken as JSON text and text is returned, as with json_as="text").

        Semantics of sql/json_diff.cc ``apply_json_diffs`` (what a replica does): REPLACE needs the
        path to exist; INSERT needs the parent and, in an object, a new key (an array index past
        the end appends); REMOVE needs the path to exist; the root cannot be a diff's target. A
        diff that does not apply means the before image is not the document the server changed:
        CorruptEventError."""
        as_text = isinstance(doc, str)
        if as_text:
            doc = parse_text(doc)
        doc = copy.deepcopy(doc)
        for k, diff in enumerate(self.diffs):
            value = diff.value
            if as_text and isinstance(value, str):
                value = parse_text(value)
            if value is JSON_NULL:
                value = None            # (the document null, put inside a container)
            legs = parse_path(diff.path)
            if not legs:
                _not_applied(k, diff, "the root cannot be replaced, inserted or removed by a diff")
            parent = _seek(doc, legs[:-1])
            last = legs[-1]
            if diff.operation == "replace":
                slot = _slot(parent, last)
                if slot is None:
                    _not_applied(k, diff, "the path does not exist")
                parent[slot] = copy.deepcopy(value)
            elif diff.operation == "insert":
                if isinstance(parent, dict) and isinstance(last, str):
                    if last in parent:
                        _not_applied(k, diff, "the key exists already")
                    parent[last] = copy.deepcopy(value)
                elif isinstance(parent, list) and isinstance(last, tuple):
                    parent.insert(_index(last, len(parent)), copy.deepcopy(value))
                else:
                    _not_applied(k, diff, "the parent is not a container of the path's kind")
            else:
                slot = _slot(parent, last)
                if slot is None:
                    _not_applied(k, diff, "the path does not exist")
                del parent[slot]
        return to_text(doc) if as_text else doc


def _not_applied(k: int, diff: JsonDiff, why: str):
    raise CorruptEventError(f"JSON diff {k} ({diff.operation} {diff.path}) does not apply to the before "
                            f"image's document: {why}")


# A JSON path as the server writes it into a diff (sql/json_path.cc ``Json_path::to_string``):
# ``$`` then legs ``.member`` / ``."quoted member"`` (JSON string escapes) / ``[n]`` / ``[last]`` /
# ``[last-n]``; diffs never hold wildcards, ellipses or ranges (json_diff.cc ``seek_exact_path``).
_PATH_LEG = re.compile(r'\s*(?:\.\s*(?:([A-Za-z_$\x80-\U0010ffff][\w$\x80-\U0010ffff]*)|("(?:[^"\\]|\\.)*"))'
                       r"|\[\s*(?:(\d+)|last(?:\s*-\s*(\d+))?)\s*\])")


def parse_path(path: str) -> list:
    """A diff's path -> legs: a str per member, ("index", n) or ("last", n) per array cell."""
    if not path.startswith("$"):
        _bad(f"JSON diff path {path!r} does not start with $")
    legs: list = []
    pos = 1
    while pos < len(path):
        m = _PATH_LEG.match(path, pos)
        if m is None:
            if path[pos:].strip():
                _bad(f"JSON diff path {path!r}: cannot read a leg at character {pos}")
            break
        name, quoted, index, back = m.groups()
        if name is not None:
            legs.append(name)
        elif quoted is not None:
            legs.append(json.loads(quoted))
        elif index is not None:
            legs.append(("index", int(index)))
        else:
            legs.append(("last", int(back or 0)))
        pos = m.end()
    return legs


def _index(leg: tuple, size: int) -> int:
    """Json_array_index: [n] clamps to the size, [last-n] counts from the end (0 when before it)."""
    kind, n = leg
    if kind == "index":
        return min(n, size)
    return size - n - 1 if n < size else 0


def _slot(container, leg):
    """The key or index ``leg`` names in ``container`` when it exists there, else None."""
    if isinstance(container, dict) and isinstance(leg, str):
        return leg if leg in container else None
    if isinstance(container, list) and isinstance(leg, tuple):
        i = _index(leg, len(container))
        return i if i < len(container) else None
    return None


def _seek(doc, legs):
    for k, leg in enumerate(legs):
        slot = _slot(doc, leg)
        if slot is None:
            raise CorruptEventError(f"JSON diff path: no value at leg {k} ({leg!r}) of the before image's document")
        doc = doc[slot]
    return doc


def _packed(data: bytes, pos: int, what: str):
    """A packed (length-encoded) integer inside a diff (sql-common/pack.c net_field_length_ll)."""
    if pos >= len(data):
        _bad(f"{what} runs past the diff vector")
    first = data[pos]
    width = {252: 2, 253: 3, 254: 8}.get(first, 0)
    if first >= 251 and not width:
        _bad(f"{what} with first byte {first:#04x}")
    if pos + 1 + width > len(data):
        _bad(f"{what} runs past the diff vector")
    if not width:
        return first, pos + 1
    return int.from_bytes(data[pos + 1:pos + 1 + width], "little"), pos + 1 + width


def parse_diffs(data: bytes, decimal_as_str: bool = False, as_text: bool = False) -> JsonPartialUpdate:
    diffs = []
    pos = 0
    while pos < len(data):
        op = data[pos]
        if op > 2:
            _bad(f"unknown JSON diff operation {op}")
        n, pos = _packed(data, pos + 1, "JSON diff path length")
        if pos + n > len(data):
            _bad("JSON diff path runs past the diff vector")
        try:
            path = data[pos:pos + n].decode("utf-8")
        except UnicodeDecodeError:
            _bad("JSON diff path is not valid utf8mb4")
        pos += n
        value = None
        if op != 2:
            n, pos = _packed(data, pos, "JSON diff value length")
            if pos + n > len(data) or n == 0:
                _bad("JSON diff value runs past the diff vector or is empty")
            value = parse(data[pos:pos + n], decimal_as_str)
            if as_text:
                value = to_text(value)
            pos += n
        diffs.append(JsonDiff(_OPS[op], path, value))
    return JsonPartialUpdate(tuple(diffs))


def decode_json_diff(buf, offset, meta):
    """A partial JSON column value of a PARTIAL_UPDATE_ROWS after image -> JsonPartialUpdate."""
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "JSON diff vector")
    return parse_diffs(bytes(buf[start:end]), meta.decimal_as_str, meta.json_as_text), end
