"""Column values of OpenLogReplicator JSON -> Python values, by Oracle column type.

OLR decodes the redo itself and prints each value in a form set by its ``format`` options
(OLR documentation, ``json/4.format.adoc``); we only undo that printing:

    NUMBER, FLOAT(b)        an unquoted JSON number with every digit OLR decoded (``12345.67``):
                            the document is parsed with ``parse_float=Decimal`` so no binary
                            rounding happens on the way; -> Decimal
    BINARY_FLOAT/_DOUBLE    printed through C++ ``ostream`` default formatting: 6 significant digits
                            (``2.71828`` where LogMiner has ``2.7182818284590451E+000``) -> float,
                            and the column is listed as *lossy*: the digits past the sixth are gone
    DATE, TIMESTAMP,        ``timestamp`` format 0-7: Unix epoch in ns/us/ms/s, as a number (0-3) or
    TIMESTAMP WITH LOCAL    a digit string (4-7); 8-15: ISO-8601 text. OLR turns the wall-clock
    TIME ZONE               fields into an epoch as if they were UTC, so we return a *naive*
                            datetime of those fields. Python keeps microseconds: nanoseconds beyond
                            them make the value lossy
    TIMESTAMP WITH TIME     ``timestamp-tz`` 0-3: ``"<epoch>,<zone>"``; 4-11: ISO-8601 text, a space,
    ZONE                    the zone -> an aware datetime in that zone
    RAW, LONG RAW, BLOB     lowercase hex text (``"deadbeef"``) -> bytes
    BOOLEAN (23ai)          1/0 -> bool
    CHAR, VARCHAR2, CLOB..  text, as is (``char`` format 0: UTF-8)
    INTERVAL, ROWID, JSON,  as OLR printed them (their form depends on ``interval-dts`` /
    XMLTYPE, BFILE          ``interval-ytm``; nothing is gained by guessing)

``"?"``: OLR prints ``?`` for a value it could not decode (``format.unknown``); for a non-character
column, or one whose type is not known, that is :data:`UNKNOWN`, flagged. For a character column
``?`` is also a legitimate value, so it is kept as text.

Each converter takes ``(value, ctx)`` and returns ``(converted, note)``, ``note`` None or
:data:`LOSSY`; a value that cannot be what its type says raises ``ValueError`` (the reader turns that
into a positioned :class:`~mysqlddl.errors.OlrValueError`, or, when lenient, keeps the value and
flags it). They are dispatched through :data:`CONVERTERS`, keyed by :class:`Kind`.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..model.types import TypeFamily

F = TypeFamily


class Kind(str, enum.Enum):
    """How a column's values are converted (several Oracle types share one)."""

    NUMBER = "number"
    BINARY_FLOAT = "binary_float"
    BINARY_DOUBLE = "binary_double"
    DATE = "date"
    TIMESTAMP = "timestamp"
    TIMESTAMP_TZ = "timestamp_tz"
    RAW = "raw"
    TEXT = "text"
    BOOLEAN = "boolean"
    AS_GIVEN = "as_given"       # INTERVAL, ROWID, JSON, XMLTYPE, BFILE: kept as printed
    UNTYPED = "untyped"         # no type known: kept as printed, flagged


class _Unknown:
    """OLR's ``?``: a value it could not decode. Renders as ``?``; never equal to a real value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __str__(self) -> str:
        return "?"

    def __reduce__(self):
        return "UNKNOWN"


UNKNOWN = _Unknown()
LOSSY = "lossy"

#: Oracle type names as OLR prints them in ``schema.columns[].type`` (lower case; see OLR
#: ``user-manual/3.output-format.adoc``, "payload.schema.columns"), and the same names as written
#: in DDL (``declared_type``), mapped to their conversion.
TYPE_KINDS: dict[str, Kind] = {
    "number": Kind.NUMBER, "float": Kind.NUMBER, "integer": Kind.NUMBER, "int": Kind.NUMBER,
    "smallint": Kind.NUMBER, "decimal": Kind.NUMBER, "numeric": Kind.NUMBER, "dec": Kind.NUMBER,
    "real": Kind.NUMBER, "double precision": Kind.NUMBER,
    "binary_float": Kind.BINARY_FLOAT, "binary_double": Kind.BINARY_DOUBLE,
    "date": Kind.DATE, "timestamp": Kind.TIMESTAMP,
    "timestamp with local time zone": Kind.TIMESTAMP, "timestamp with time zone": Kind.TIMESTAMP_TZ,
    "raw": Kind.RAW, "long raw": Kind.RAW, "blob": Kind.RAW,
    "char": Kind.TEXT, "nchar": Kind.TEXT, "varchar": Kind.TEXT, "varchar2": Kind.TEXT,
    "nvarchar2": Kind.TEXT, "character": Kind.TEXT, "clob": Kind.TEXT, "nclob": Kind.TEXT,
    "long": Kind.TEXT,
    "boolean": Kind.BOOLEAN,
    "interval year to month": Kind.AS_GIVEN, "interval day to second": Kind.AS_GIVEN,
    "rowid": Kind.AS_GIVEN, "urowid": Kind.AS_GIVEN, "json": Kind.AS_GIVEN, "xmltype": Kind.AS_GIVEN,
    "bfile": Kind.AS_GIVEN,
}

# When a model column's declared text is not an Oracle type name (a table built by another
# dialect's DDL): its family decides.
_FAMILY_KINDS: dict[TypeFamily, Kind] = {
    F.INTEGER: Kind.NUMBER, F.DECIMAL: Kind.NUMBER, F.DATE: Kind.DATE, F.DATETIME: Kind.TIMESTAMP,
    F.TIMESTAMP: Kind.TIMESTAMP, F.CHAR: Kind.TEXT, F.VARCHAR: Kind.TEXT, F.TEXT: Kind.TEXT,
    F.ENUM: Kind.TEXT, F.SET: Kind.TEXT, F.BINARY: Kind.RAW, F.VARBINARY: Kind.RAW, F.BLOB: Kind.RAW,
    F.JSON: Kind.AS_GIVEN, F.BIT: Kind.NUMBER, F.YEAR: Kind.NUMBER,
}

_PARENS = re.compile(r"\([^)]*\)")


def type_kind(type_name: str | None) -> Kind:
    """The kind of an Oracle type name: ``NUMBER(15,2)``, ``timestamp(6) with time zone``,
    ``VARCHAR2(10 CHAR)``... (size and precision do not change the conversion)."""
    if not type_name:
        return Kind.UNTYPED
    key = " ".join(_PARENS.sub(" ", type_name).lower().split())
    return TYPE_KINDS.get(key, Kind.UNTYPED)


def column_kind(col) -> Kind:
    """The kind of a model :class:`~mysqlddl.model.column.Column` (a table version in the schema
    history): its declared Oracle type when it reads as one, else its type family."""
    k = type_kind(getattr(col, "declared_type", "") or "")
    if k is Kind.UNTYPED:
        k = type_kind(getattr(col, "type_name", "") or "")
    if k is Kind.UNTYPED:
        fam = col.family
        if fam is F.FLOAT:
            k = Kind.BINARY_DOUBLE if col.type_name == "double" else Kind.BINARY_FLOAT
        else:
            k = _FAMILY_KINDS.get(fam, Kind.UNTYPED)
    return k


# ----------------------------------------------------------------------------------- converters

UNITS = ("s", "ms", "us", "ns")
_US_PER = {"s": 1_000_000, "ms": 1000, "us": 1}
_EPOCH = datetime.datetime(1970, 1, 1)


@dataclasses.dataclass(frozen=True, slots=True)
class ValueContext:
    """What a converter needs besides the value: the epoch unit of temporal values."""

    time_unit: str = "ns"


def _integer(v: Any, what: str) -> int:
    if isinstance(v, bool):
        raise ValueError(f"{what}: not a number: {v!r}")
    if isinstance(v, int):
        return v
    if isinstance(v, Decimal) and v == v.to_integral_value():
        return int(v)
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()):
        return int(v)
    raise ValueError(f"{what}: not an integer epoch: {v!r}")


def epoch_datetime(n: int, unit: str) -> tuple[datetime.datetime, bool]:
    """A Unix epoch count in ``unit`` as a naive datetime, and whether digits were lost (Python keeps
    microseconds; a nanosecond count that is not a whole microsecond loses the rest)."""
    if unit == "ns":
        us, rem = divmod(n, 1000)
    else:
        us, rem = n * _US_PER[unit], 0
    try:
        return _EPOCH + datetime.timedelta(microseconds=us), rem != 0
    except OverflowError:
        raise ValueError(f"epoch {n} {unit} is outside the years 1-9999") from None


_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?")


def iso_datetime(text: str) -> tuple[datetime.datetime, bool]:
    """OLR's ISO-8601 forms (``timestamp`` 8-15): ``2022-05-01T06:00:00.123456789Z`` or
    ``2022-05-01 06:00:00.123``. Returns (datetime, lossy); ``Z`` gives an aware UTC datetime."""
    m = _ISO.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not an ISO-8601 timestamp: {text!r}")
    frac = (m.group(7) or "").ljust(9, "0")
    dt = datetime.datetime(*(int(m.group(i)) for i in range(1, 7)), int(frac[:6]))
    tz = m.group(8)
    if tz == "Z":
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    elif tz:
        sign = -1 if tz[0] == "-" else 1
        hh, mm = int(tz[1:3]), int(tz[-2:])
        dt = dt.replace(tzinfo=datetime.timezone(sign * datetime.timedelta(hours=hh, minutes=mm)))
    return dt, frac[6:] != "000"


def to_datetime(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    """DATE / TIMESTAMP / TIMESTAMP WITH LOCAL TIME ZONE."""
    if isinstance(v, str) and ("-" in v[1:] or ":" in v):
        dt, lost = iso_datetime(v)
    else:
        dt, lost = epoch_datetime(_integer(v, "timestamp"), ctx.time_unit)
    return dt, LOSSY if lost else None


def _zone(name: str) -> datetime.tzinfo:
    m = re.fullmatch(r"([+-])(\d\d):?(\d\d)", name)
    if m:
        off = datetime.timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
        return datetime.timezone(-off if m.group(1) == "-" else off)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}") from None


def to_datetime_tz(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    """TIMESTAMP WITH TIME ZONE: ``"1651384800123456789,Europe/Warsaw"`` (``timestamp-tz`` 0-3, the
    epoch is the UTC instant) or ``"2022-05-01T06:00:00.123Z Europe/Warsaw"`` (4-11)."""
    if not isinstance(v, str):
        raise ValueError(f"timestamp with time zone: not text: {v!r}")
    if "," in v:
        num, zone = v.split(",", 1)
        dt, lost = epoch_datetime(_integer(num, "timestamp with time zone"), ctx.time_unit)
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    else:
        text, _, zone = v.strip().rpartition(" ")
        if not text:
            raise ValueError(f"timestamp with time zone: no zone in {v!r}")
        dt, lost = iso_datetime(text)
        if dt.tzinfo is None:
            # forms 8-11 print the wall clock of the zone without "Z"
            return dt.replace(tzinfo=_zone(zone.strip())), LOSSY if lost else None
    return dt.astimezone(_zone(zone.strip())), LOSSY if lost else None


def to_decimal(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    if isinstance(v, bool):
        raise ValueError(f"number: not a number: {v!r}")
    if isinstance(v, Decimal):
        return v, None
    if isinstance(v, int):
        return Decimal(v), None
    if isinstance(v, str):
        try:
            d = Decimal(v.strip())
        except InvalidOperation:
            raise ValueError(f"number: not a number: {v!r}") from None
        if d.is_finite():
            return d, None
    raise ValueError(f"number: not a number: {v!r}")


def to_float(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    """BINARY_FLOAT/BINARY_DOUBLE: always lossy as OLR prints them (6 significant digits)."""
    if isinstance(v, bool):
        raise ValueError(f"binary float: not a number: {v!r}")
    if isinstance(v, (int, float, Decimal)):
        return float(v), LOSSY
    if isinstance(v, str):
        try:
            return float(v), LOSSY      # "inf", "-inf", "nan" included
        except ValueError:
            pass
    raise ValueError(f"binary float: not a number: {v!r}")


def to_bytes(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    if not isinstance(v, str):
        raise ValueError(f"raw: not hex text: {v!r}")
    try:
        return bytes.fromhex(v), None
    except ValueError:
        raise ValueError(f"raw: not hex text: {v[:40]!r}") from None


_BOOLS = {1: True, 0: False, "1": True, "0": False}


def to_bool(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    """BOOLEAN (Oracle 23ai), printed 1/0 (rophy boolean-type); JSON true/false accepted too."""
    if isinstance(v, bool):
        return v, None
    if type(v) in (int, str) and v in _BOOLS:
        return _BOOLS[v], None
    raise ValueError(f"boolean: not 1/0: {v!r}")


def as_given(v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    return v, None


CONVERTERS: dict[Kind, Callable[[Any, ValueContext], tuple[Any, str | None]]] = {
    Kind.NUMBER: to_decimal,
    Kind.BINARY_FLOAT: to_float,
    Kind.BINARY_DOUBLE: to_float,
    Kind.DATE: to_datetime,
    Kind.TIMESTAMP: to_datetime,
    Kind.TIMESTAMP_TZ: to_datetime_tz,
    Kind.RAW: to_bytes,
    Kind.TEXT: as_given,
    Kind.BOOLEAN: to_bool,
    Kind.AS_GIVEN: as_given,
    Kind.UNTYPED: as_given,
}


def convert(kind: Kind, v: Any, ctx: ValueContext) -> tuple[Any, str | None]:
    """One value: NULL stays None; OLR's ``?`` is :data:`UNKNOWN` except in character columns."""
    if v is None:
        return None, None
    if v == "?" and kind is not Kind.TEXT:
        return UNKNOWN, None
    return CONVERTERS[kind](v, ctx)


__all__ = ["CONVERTERS", "LOSSY", "TYPE_KINDS", "UNITS", "UNKNOWN", "Kind", "ValueContext", "column_kind",
           "convert", "epoch_datetime", "iso_datetime", "type_kind"]
