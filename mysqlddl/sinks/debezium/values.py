"""Column values as Debezium's MySQL connector encodes them, with the Kafka Connect schema of each.

:func:`column_codec` gives, for one model Column and the :class:`DebeziumOptions`, a
:class:`Codec`: the Connect field schema (a dict as the JSON converter writes it, without the
``field`` name) and the function from our typed row value to the JSON value. The facts, from
Debezium's MySQL connector documentation ("Data type mappings": basic, temporal, decimal, boolean
and spatial types; "Connector properties" for the handling modes) and its value converters:

    BOOLEAN/BOOL, BIT(1)   boolean (a TINYINT(1) declared BOOLEAN: any non-zero is true)
    BIT(n > 1)             bytes io.debezium.data.Bits {length: n}, little-endian, ceil(n/8) bytes
    TINYINT, SMALLINT      int16 (SMALLINT UNSIGNED int32); MEDIUMINT, INT int32 (INT UNSIGNED int64)
    BIGINT                 int64; UNSIGNED: long (wraps past 2^63 - 1) or precise (Decimal, scale 0)
    FLOAT, REAL            float32 (FLOAT(p) with p >= 24 and FLOAT(M,D): float64); DOUBLE float64
    DECIMAL                precise: bytes org.apache.kafka.connect.data.Decimal {scale,
                           connect.decimal.precision}, the unscaled value's big-endian two's
                           complement (Java BigInteger.toByteArray: fewest bytes); double: float64;
                           string: the plain digits (BigDecimal.toPlainString)
    DATE                   int32 io.debezium.time.Date (days since the epoch)
    TIME                   int64 io.debezium.time.MicroTime (microseconds, may be negative)
    DATETIME(0-3)          int64 io.debezium.time.Timestamp (epoch milliseconds, as if UTC)
    DATETIME(4-6)          int64 io.debezium.time.MicroTimestamp (epoch microseconds)
    TIMESTAMP(fsp)         string io.debezium.time.ZonedTimestamp, UTC, exactly fsp fraction digits
    YEAR                   int32 io.debezium.time.Year
    zero dates             null for a nullable column, else the epoch (Temporal types section)
    CHAR...TEXT            string
    BINARY...BLOB          bytes (base64 in JSON), or text per binary.handling.mode
    ENUM / SET             string io.debezium.data.Enum / EnumSet {allowed: "a,b,c"}
    JSON                   string io.debezium.data.Json
    GEOMETRY and kin       struct io.debezium.data.geometry.Geometry {wkb, srid}
    POINT                  struct io.debezium.data.geometry.Point {x, y, wkb, srid}

time.precision.mode=connect uses Kafka Connect's logical types instead (Date int32 days, Time int32
milliseconds, Timestamp int64 milliseconds); isostring gives ISO-8601 strings (io.debezium.time.IsoDate,
IsoTime, IsoTimestamp) as Java's ISO_LOCAL_* formatters print them. MariaDB's INET4/INET6/UUID have no
Debezium mapping: they are their text form (a string), as MariaDB prints them.

A field's schema carries the column's ``default`` when it has a literal one (:func:`default_json`).
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import decimal
import math
import re
import struct
from collections.abc import Callable

from ...binlog.values.jsonb import to_text
from ...model.column import Column, DefaultKind
from ...model.types import TypeFamily
from .options import DebeziumOptions

F = TypeFamily
UTC = datetime.timezone.utc
_EPOCH_DATE = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1)
_F32 = struct.Struct("<f")

DECIMAL_NAME = "org.apache.kafka.connect.data.Decimal"


@dataclasses.dataclass(frozen=True, slots=True)
class Codec:
    """One column's Connect schema (``schema``: the JSON converter's dict, no ``field`` key) and
    ``encode``: typed value (not None) -> JSON value."""

    schema: dict
    encode: Callable


def declared_base(col: Column) -> str:
    """The type as the statement wrote it, upper case, without its (length) and attributes
    (``INTEGER``, ``BOOLEAN``, ``DOUBLE PRECISION``); the canonical name when the column was not built
    from a statement. Debezium's parser names a column's type by the tokens written."""
    text = (col.declared_type or "").strip()
    m = re.match(r"[A-Za-z][A-Za-z0-9 ]*?(?=\s*(\(|\bUNSIGNED\b|\bSIGNED\b|\bZEROFILL\b|\bCHARACTER\b|\bCHARSET\b"
                 r"|\bCOLLATE\b|\bBINARY\b|\bASCII\b|\bUNICODE\b|\bBYTE\b|\bCOMPRESSED\b|$))", text, re.I)
    base = " ".join(m.group(0).split()).upper() if m else ""
    return base or col.type_name.upper()


def declared_length(col: Column) -> tuple[int | None, int | None] | None:
    """The (length, scale) written in the declared type's parentheses, (None, None) when none was
    written, None when the column was not built from a statement (the model's values apply)."""
    text = (col.declared_type or "").strip()
    if not text:
        return None
    if col.family in (F.ENUM, F.SET):
        return (None, None)
    m = re.search(r"\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)", text)
    if not m:
        return (None, None)
    return int(m.group(1)), (int(m.group(2)) if m.group(2) is not None else None)


# ----------------------------------------------------------------------------------- encoders


def _f32(v: float):
    """A float32 as Java prints a float (the shortest decimal that reads back to the same float32),
    so 1.1 stays 1.1 rather than the double 1.100000023841858."""
    if not math.isfinite(v):
        return str(v)
    bits = _F32.pack(v)
    for digits in range(1, 10):
        s = f"{v:.{digits}g}"
        try:
            same = _F32.pack(float(s)) == bits
        except OverflowError:       # rounded past float32's largest finite value
            continue
        if same:
            return float(s)
    return v


def _f64(v):
    v = float(v)
    return v if math.isfinite(v) else str(v)


def unscaled_bytes(v: decimal.Decimal, scale: int) -> bytes:
    """The unscaled value of ``v`` at ``scale`` as Java's BigInteger.toByteArray: big-endian two's
    complement in the fewest bytes that hold the sign."""
    # a context wide enough for DECIMAL(65): the default one (28 digits) would round
    ctx = decimal.Context(prec=len(v.as_tuple().digits) + abs(scale) + 2, rounding=decimal.ROUND_HALF_UP)
    n = int(v.scaleb(scale, context=ctx).to_integral_value(context=ctx))
    size = (n + (n < 0)).bit_length() // 8 + 1
    return n.to_bytes(size, "big", signed=True)


def _b64(b) -> str:
    return base64.b64encode(bytes(b)).decode("ascii")


def binary_encoder(mode: str) -> Callable:
    if mode == "bytes" or mode == "base64":      # bytes: the JSON converter writes BYTES as base64
        return _b64
    if mode == "base64-url-safe":
        return lambda b: base64.urlsafe_b64encode(bytes(b)).decode("ascii")
    return lambda b: bytes(b).hex()               # hex: io.debezium.util.HexConverter (lower case)


def _as_bytes(v) -> bytes:
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    return bytes(v)


def _micros(td: datetime.timedelta) -> int:
    return (td.days * 86_400 + td.seconds) * 1_000_000 + td.microseconds


def _epoch_micros(dt: datetime.datetime) -> int:
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC).replace(tzinfo=None)
    return _micros(dt - _EPOCH)


def zoned_text(dt: datetime.datetime, fsp: int) -> str:
    """A TIMESTAMP as io.debezium.time.ZonedTimestamp: ISO-8601 in UTC, ``Z``, exactly ``fsp``
    fraction digits."""
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    text = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if fsp:
        text += "." + f"{dt.microsecond:06d}"[:fsp]
    return text + "Z"


def _iso_fraction(us: int) -> str:
    """Java's ISO_LOCAL_TIME fraction: none when zero, else the digits without trailing zeros."""
    return "" if not us else "." + f"{us:06d}".rstrip("0")


def _iso_time(td: datetime.timedelta) -> str:
    us = _micros(td)
    sign = "-" if us < 0 else ""
    s, frac = divmod(abs(us), 1_000_000)
    h, rem = divmod(s, 3600)
    return f"{sign}{h:02d}:{rem // 60:02d}:{rem % 60:02d}{_iso_fraction(frac)}"


def _iso_datetime(dt: datetime.datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + _iso_fraction(dt.microsecond)


def _named(kind: str, name: str, version: int = 1, parameters: dict | None = None) -> dict:
    s = {"type": kind, "optional": True, "name": name, "version": version}
    if parameters:
        s["parameters"] = parameters
    return s


def _plain(kind: str) -> dict:
    return {"type": kind, "optional": True}


def _text(v) -> str:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).decode("utf-8", "surrogateescape")
    return str(v)


def _temporal_zero(col: Column, zero):
    """A zero or invalid date (our decoder's text form): null when the column takes NULL, else
    the epoch (the Temporal types section)."""
    return None if col.nullable else zero


# ---------------------------------------------------------------------------------- per family


def _integer(col: Column, opts: DebeziumOptions, base: str) -> Codec:
    t = col.type_name
    if base in ("BOOL", "BOOLEAN"):
        return Codec(_plain("boolean"), lambda v: v != 0)
    if t == "bigint" and col.unsigned:
        if opts.bigint_unsigned_handling_mode == "precise":
            return Codec(_named("bytes", DECIMAL_NAME, 1, {"scale": "0", "connect.decimal.precision": "20"}),
                         lambda v: _b64(unscaled_bytes(decimal.Decimal(v), 0)))
        return Codec(_plain("int64"), lambda v: v - (1 << 64) if v >= 1 << 63 else v)
    kind = {"tinyint": "int16", "smallint": "int32" if col.unsigned else "int16", "mediumint": "int32",
            "int": "int64" if col.unsigned else "int32", "bigint": "int64"}[t]
    return Codec(_plain(kind), int)


def _decimal(col: Column, opts: DebeziumOptions) -> Codec:
    p, s = col.length or 10, col.scale or 0
    mode = opts.decimal_handling_mode
    if mode == "double":
        return Codec(_plain("double"), _f64)
    if mode == "string":
        return Codec(_plain("string"), lambda v: format(decimal.Decimal(v), "f"))
    return Codec(_named("bytes", DECIMAL_NAME, 1, {"scale": str(s), "connect.decimal.precision": str(p)}),
                 lambda v: _b64(unscaled_bytes(decimal.Decimal(v), s)))


def _float(col: Column, base: str) -> Codec:
    single = base in ("REAL", "FLOAT4") or (col.type_name == "float" and col.scale is None)
    return Codec(_plain("float"), _f32) if single else Codec(_plain("double"), _f64)


def _bit(col: Column) -> Codec:
    n = col.length or 1
    if n == 1:
        return Codec(_plain("boolean"), lambda v: v != 0)
    size = (n + 7) // 8
    return Codec(_named("bytes", "io.debezium.data.Bits", 1, {"length": str(n)}),
                 lambda v: _b64(int(v).to_bytes(size, "little")))


def _date(col: Column, opts: DebeziumOptions) -> Codec:
    mode = opts.time_precision_mode
    if mode == "isostring":
        def iso(v):
            return v.isoformat() if isinstance(v, datetime.date) else _temporal_zero(col, "1970-01-01")
        return Codec(_named("string", "io.debezium.time.IsoDate"), iso)

    def days(v):
        return (v - _EPOCH_DATE).days if isinstance(v, datetime.date) else _temporal_zero(col, 0)
    name = "org.apache.kafka.connect.data.Date" if mode == "connect" else "io.debezium.time.Date"
    return Codec(_named("int32", name), days)


def _time(col: Column, opts: DebeziumOptions) -> Codec:
    mode = opts.time_precision_mode
    if mode == "isostring":
        return Codec(_named("string", "io.debezium.time.IsoTime"), _iso_time)
    if mode == "connect":
        return Codec(_named("int32", "org.apache.kafka.connect.data.Time"), lambda v: _micros(v) // 1000)
    return Codec(_named("int64", "io.debezium.time.MicroTime"), _micros)


def _datetime(col: Column, opts: DebeziumOptions) -> Codec:
    mode = opts.time_precision_mode
    if mode == "isostring":
        def iso(v):
            return _iso_datetime(v) if isinstance(v, datetime.datetime) else \
                _temporal_zero(col, "1970-01-01T00:00:00")
        return Codec(_named("string", "io.debezium.time.IsoTimestamp"), iso)
    if mode == "connect" or (col.fsp or 0) <= 3:
        name = "org.apache.kafka.connect.data.Timestamp" if mode == "connect" else "io.debezium.time.Timestamp"

        def millis(v):
            return _epoch_micros(v) // 1000 if isinstance(v, datetime.datetime) else _temporal_zero(col, 0)
        return Codec(_named("int64", name), millis)

    def micros(v):
        return _epoch_micros(v) if isinstance(v, datetime.datetime) else _temporal_zero(col, 0)
    return Codec(_named("int64", "io.debezium.time.MicroTimestamp"), micros)


def _timestamp(col: Column) -> Codec:
    fsp = col.fsp or 0
    zero = zoned_text(datetime.datetime(1970, 1, 1, tzinfo=UTC), fsp)

    def zoned(v):
        return zoned_text(v, fsp) if isinstance(v, datetime.datetime) else _temporal_zero(col, zero)
    return Codec(_named("string", "io.debezium.time.ZonedTimestamp"), zoned)


def _geometry(col: Column, opts: DebeziumOptions) -> Codec:
    wkb = {"type": "bytes", "optional": False, "field": "wkb"}
    srid = {"type": "int32", "optional": True, "field": "srid"}
    if col.type_name == "point":
        schema = {"type": "struct", "fields": [{"type": "double", "optional": False, "field": "x"},
                                               {"type": "double", "optional": False, "field": "y"},
                                               dict(wkb, optional=True), srid],
                  "optional": True, "name": "io.debezium.data.geometry.Point", "version": 1,
                  "doc": "Geometry (POINT)"}

        def point(v):
            x, y = _point_xy(v.wkb)
            return {"x": x, "y": y, "wkb": _b64(v.wkb), "srid": v.srid}
        return Codec(schema, point)
    schema = {"type": "struct", "fields": [wkb, srid], "optional": True,
              "name": "io.debezium.data.geometry.Geometry", "version": 1, "doc": "Geometry"}
    return Codec(schema, lambda v: {"wkb": _b64(v.wkb), "srid": v.srid})


def _point_xy(wkb: bytes) -> tuple[float, float]:
    """x, y of a WKB point: byte order (1: little-endian), uint32 type 1, two doubles (OGC
    Simple Features 8.2.3 "WKBPoint")."""
    order = "<" if wkb[0] == 1 else ">"
    return struct.unpack_from(order + "dd", wkb, 5)


def column_codec(col: Column, family: TypeFamily, opts: DebeziumOptions) -> Codec:
    """The Codec of ``col`` (``family``: the family that types its values, as
    :func:`mysqlddl.changes.values.value_family` gives it: MariaDB's JSON-as-LONGTEXT is JSON)."""
    base = declared_base(col)
    if family is F.INTEGER:
        return _integer(col, opts, base)
    if family is F.DECIMAL:
        return _decimal(col, opts)
    if family is F.FLOAT:
        return _float(col, base)
    if family is F.BIT:
        return _bit(col)
    if family is F.DATE:
        return _date(col, opts)
    if family is F.TIME:
        return _time(col, opts)
    if family is F.DATETIME:
        return _datetime(col, opts)
    if family is F.TIMESTAMP:
        return _timestamp(col)
    if family is F.YEAR:
        return Codec(_named("int32", "io.debezium.time.Year"), int)
    if family in (F.BINARY, F.VARBINARY, F.BLOB):
        enc = binary_encoder(opts.binary_handling_mode)
        kind = "bytes" if opts.binary_handling_mode == "bytes" else "string"
        return Codec(_plain(kind), lambda v: enc(_as_bytes(v)))
    if family in (F.ENUM, F.SET):
        # `allowed`: the members joined by commas, a comma inside a member escaped as "\," (the MySQL
        # DDL parser's extractEnumAndSetOptions / escapeOption)
        allowed = ",".join(v.replace(",", "\\,") for v in col.values)
        name = "io.debezium.data.Enum" if family is F.ENUM else "io.debezium.data.EnumSet"
        return Codec(_named("string", name, 1, {"allowed": allowed}), _text)
    if family is F.JSON:
        return Codec(_named("string", "io.debezium.data.Json"), _json_text)
    if family is F.GEOMETRY:
        return _geometry(col, opts)
    return Codec(_plain("string"), _text)


NO_DEFAULT = object()


def _literal(col: Column, family: TypeFamily, text: str):
    """A literal default (the model's normalised text) as the typed value a row would hold."""
    if family is F.INTEGER or family is F.YEAR:
        return int(text)
    if family is F.DECIMAL:
        return decimal.Decimal(text)
    if family is F.FLOAT:
        return float(text)
    if family is F.BIT:
        return int(text[2:-1] or "0", 2) if text[:2].lower() == "b'" else int(text, 0)
    if family is F.DATE:
        return datetime.date.fromisoformat(text)
    if family is F.DATETIME:
        return datetime.datetime.fromisoformat(text)
    if family is F.TIME:
        neg = text.startswith("-")
        h, m, sec = text.lstrip("-").split(":")
        td = datetime.timedelta(hours=int(h), minutes=int(m), seconds=float(sec))
        return -td if neg else td
    if family in (F.CHAR, F.VARCHAR, F.TEXT, F.ENUM, F.SET):
        return text
    return NO_DEFAULT          # TIMESTAMP literals are in the session's zone; binary, spatial: none


def default_json(col: Column, family: TypeFamily, codec: Codec):
    """The Connect schema ``default`` of a column, or ``NO_DEFAULT``: a literal default as its
    encoded value; CURRENT_TIMESTAMP on a TIMESTAMP or DATETIME as the epoch (Temporal types: "For
    TIMESTAMP columns whose default value is specified as CURRENT_TIMESTAMP or NOW, the value
    1970-01-01 00:00:00 is used as the default value in the Kafka Connect schema")."""
    d = col.default
    if d is None or d.kind in (DefaultKind.NULL, DefaultKind.EXPRESSION):
        return NO_DEFAULT
    try:
        if d.kind is DefaultKind.CURRENT_TIMESTAMP:
            if family is F.TIMESTAMP:
                value = datetime.datetime(1970, 1, 1, tzinfo=UTC)
            elif family is F.DATETIME:
                value = _EPOCH
            else:
                return NO_DEFAULT
        else:
            value = _literal(col, family, d.value)
            if value is NO_DEFAULT:
                return NO_DEFAULT
        return codec.encode(value)
    except (ValueError, ArithmeticError, TypeError, OverflowError):
        return NO_DEFAULT      # a zero date or a value the literal form does not give back


def _json_text(v) -> str:
    """A JSON column's value as io.debezium.data.Json: the document's text. The CLI's decoder gives
    the text (Options(json_as="text")); a document decoded as an object is written compactly, its
    numbers exactly and the document ``null`` (JSON_NULL) as the string "null" (SQL NULL is null)."""
    if isinstance(v, str):
        return v
    return to_text(v, compact=True)


__all__ = ["DECIMAL_NAME", "NO_DEFAULT", "Codec", "binary_encoder", "column_codec", "declared_base",
           "declared_length", "default_json", "unscaled_bytes", "zoned_text"]
