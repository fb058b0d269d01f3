"""Source values -> values PostgreSQL accepts, under the value policy.

The row decoders give Python values (:mod:`mysqlddl.binlog.values`): int, Decimal, float, date,
datetime (TIMESTAMP in UTC), timedelta (TIME), str/bytes, ENUM/SET member names, JSON documents,
Geometry(srid, wkb), a tuple of floats (VECTOR). They pass to the driver as they are, except where
the target type wants another form (SET -> list, BIT -> '0101', JSON -> its text, GEOMETRY -> WKB).

What PostgreSQL cannot hold, and what each policy does with it (counted per table, column, reason
and action in :class:`PolicyCounts`)::

    reason          value                                   null     clamp                     error
    zero-date       '0000-00-00', '2020-00-15', TIMESTAMP 0 NULL     month/day 0 -> 1, year 0  stop
                    (the server's text: Python has no such          -> 1 ('0001-01-01'), the
                    date)                                           time of day kept
    nul-in-text     a NUL character in text or a JSON string NULL    NUL removed              stop
                    (PostgreSQL text cannot hold U+0000, manual 8.3; jsonb neither, manual 8.14)
    invalid-text    undecodable bytes kept as surrogate      NULL     each replaced by U+FFFD   stop
                    escapes (not UTF-8)
    out-of-range    an integer beyond the target type (an    NULL     the type's bound          stop
                    overridden type, TINYINT(1) as boolean   (boolean: non-zero -> true)
                    holding 2..127)
                    a JSON number numeric cannot hold        NULL     the number as a JSON      stop
                    (1e200000: valid JSON for MariaDB)                string ("1E+200000")

A NOT NULL column under ``null`` is clamped instead (its NULL would be refused), counted as clamp.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from decimal import Decimal

from ...binlog.values.jsonb import to_text
from ...errors import ValuePolicyError
from .types import PgType, ValuePolicy

UTC = datetime.timezone.utc
_ZERO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$")


class PolicyCounts(Counter):
    """(``db.table``, column, reason, action) -> number of values."""

    def table(self) -> list[tuple[str, str, str, str, int]]:
        """The counts as sorted rows (table, column, reason, action, count)."""
        return sorted((*k, n) for k, n in self.items())


class ValueProblem(Exception):
    """A value the target cannot hold: ``reason`` and its ``clamped`` replacement (raised by the
    converter functions, turned into the policy's action by :class:`ValueConverter`)."""

    def __init__(self, reason: str, clamped):
        self.reason, self.clamped = reason, clamped


def _clamp_date_text(text: str):
    m = _ZERO_DATE.match(text.strip())
    if not m:
        return None
    y, mo, d = (max(1, int(g)) for g in m.group(1, 2, 3))
    mo = min(mo, 12)
    for day in range(min(d, 31), 0, -1):
        try:
            base = datetime.date(y, mo, day)
            break
        except ValueError:
            continue
    if m.group(4) is None:
        return base
    frac = m.group(7) or ""
    return datetime.datetime(base.year, base.month, base.day, int(m.group(4)), int(m.group(5)), int(m.group(6)),
                             int(frac.ljust(6, "0")) if frac else 0)


def _text(v):
    if isinstance(v, bytes):
        try:
            v = v.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueProblem("invalid-text", v.decode("utf-8", "replace")) from None
    elif not isinstance(v, str):
        v = str(v)
    if "\x00" in v:
        raise ValueProblem("nul-in-text", v.replace("\x00", ""))
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueProblem("invalid-text", v.encode("utf-8", "surrogateescape").decode("utf-8", "replace")) from None
    return v


def _date(v):
    if isinstance(v, str):
        raise ValueProblem("zero-date", _clamp_date_text(v))
    if isinstance(v, datetime.datetime):
        return v.date()
    return v


def _clamped_datetime(text: str):
    """A zero or invalid DATETIME/TIMESTAMP text clamped (:func:`_clamp_date_text`), as a datetime."""
    c = _clamp_date_text(text)
    if isinstance(c, datetime.date) and not isinstance(c, datetime.datetime):
        c = datetime.datetime(c.year, c.month, c.day)
    return c


def _timestamp(v):
    if isinstance(v, str):
        raise ValueProblem("zero-date", _clamped_datetime(v))
    return v


def _timestamptz(v):
    if isinstance(v, str):
        c = _clamped_datetime(v)
        raise ValueProblem("zero-date", c.replace(tzinfo=UTC) if c is not None else None)
    if isinstance(v, datetime.datetime) and v.tzinfo is None:
        return v.replace(tzinfo=UTC)        # the binlog's TIMESTAMP is UTC epoch seconds
    return v


# What numeric holds (src/backend/utils/adt/numeric.c ``make_result_opt_error``: NUMERIC_WEIGHT_MAX
# base-10000 digits before the point, NUMERIC_DSCALE_MAX after it; manual 8.1.2 "up to 131072
# digits before the decimal point; up to 16383 digits after"); jsonb keeps its numbers as numeric.
_NUMERIC_INT_DIGITS, _NUMERIC_SCALE = 131072, 16383


def _numeric_fits(d: Decimal) -> bool:
    return not d.is_finite() or (d.adjusted() < _NUMERIC_INT_DIGITS and -d.as_tuple().exponent <= _NUMERIC_SCALE)


def _unfit_numbers(doc):
    """``doc`` with every number numeric cannot hold as its text, or None when it has none."""
    if isinstance(doc, Decimal):
        # (str: the scientific form, short whatever the exponent: 1E-20000, not 20000 digits)
        return None if _numeric_fits(doc) else str(doc)
    if isinstance(doc, dict):
        found = {k: _unfit_numbers(x) for k, x in doc.items()}
        if all(f is None for f in found.values()):
            return None
        return {k: (doc[k] if f is None else f) for k, f in found.items()}
    if isinstance(doc, list):
        found = [_unfit_numbers(x) for x in doc]
        if all(f is None for f in found):
            return None
        return [x if f is None else f for x, f in zip(doc, found, strict=True)]
    return None


def _jsonb(v):
    """A JSON document as the text of its jsonb value: its numbers exactly (jsonb keeps a number as
    numeric, manual 8.14.1: a double would round ``12345678901234567890.123`` and could not hold
    ``1e400``), the document ``null`` (JSON_NULL) as jsonb ``'null'`` (SQL NULL never gets here).
    A number numeric cannot hold (``1e200000``, valid JSON for MariaDB) is out-of-range: clamped to
    its exact text as a JSON string."""
    if not isinstance(v, (bytes, bytearray)):
        unfit = _unfit_numbers(v)
        if unfit is not None:
            raise ValueProblem("out-of-range", to_text(unfit))
    text = to_text(v) if not isinstance(v, (bytes, bytearray)) else json.dumps(
        bytes(v).decode("utf-8", "replace"))
    if "\\u0000" in text:
        raise ValueProblem("nul-in-text", text.replace("\\u0000", ""))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueProblem("invalid-text", text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")) from None
    return text


def _jsonb_text(v):
    """A JSON value that arrives as its document's text (``json_as="text"``): stored as it is (a
    text that is not JSON is left to PostgreSQL's jsonb input to refuse)."""
    if not isinstance(v, str):
        return _jsonb(v)
    if "\\u0000" in v or "\x00" in v:
        raise ValueProblem("nul-in-text", v.replace("\\u0000", "").replace("\x00", ""))
    return v


def _set(v):
    if isinstance(v, int):
        return [str(v)]
    if isinstance(v, (list, tuple, frozenset, set)):
        return [_text(x) for x in v]
    s = _text(v)
    return s.split(",") if s else []


def _bytea(v):
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    return bytes(v)


def _geometry(v):
    wkb = getattr(v, "wkb", None)
    return bytes(wkb) if wkb is not None else _bytea(v)


def _ewkb(v):
    """A Geometry(srid, wkb) as hex EWKB, the text form PostGIS's geometry input takes: the WKB with
    the SRID flag (0x20000000) in its type word and the SRID after it, in the WKB's byte order
    (PostGIS doc/ZMSgeoms.txt "EWKB"); SRID 0 stays plain WKB."""
    wkb, srid = getattr(v, "wkb", None), getattr(v, "srid", 0)
    if wkb is None:
        return _bytea(v).hex()
    wkb = bytes(wkb)
    if not srid or len(wkb) < 5:
        return wkb.hex()
    order = "little" if wkb[0] == 1 else "big"
    kind = int.from_bytes(wkb[1:5], order) | 0x20000000
    return (wkb[:1] + kind.to_bytes(4, order) + srid.to_bytes(4, order) + wkb[5:]).hex()


def _interval(v):
    return v if isinstance(v, datetime.timedelta) else _text(v)


def _float(v):
    return float(v)


def _vector(v):
    return [float(x) for x in v]


def _plain(v):
    return v


def _str(v):
    return _text(v) if isinstance(v, (str, bytes)) else str(v)


CONVERTERS = {
    "numeric": _plain, "float": _float, "date": _date, "timestamp": _timestamp, "timestamptz": _timestamptz,
    "interval": _interval, "text": _text, "enum": _text, "bytea": _bytea, "jsonb": _jsonb, "set": _set,
    "geometry": _geometry, "postgis": _ewkb, "vector": _vector, "inet": _str, "uuid": _str, "override": _plain,
}


def _int(v, t: PgType):
    if isinstance(v, bool):
        v = int(v)
    lo, hi = t.limit
    if lo <= v <= hi:
        return v
    raise ValueProblem("out-of-range", hi if v > hi else lo)


def _bool(v):
    if isinstance(v, bool):
        return v
    if v in (0, 1):
        return bool(v)
    raise ValueProblem("out-of-range", bool(v))


def _bit(v, t: PgType):
    if isinstance(v, (bytes, bytearray)):
        v = int.from_bytes(v, "big")
    return format(v, f"0{t.bits}b")[-t.bits:]


class ValueConverter:
    """Converts the values of one target column. ``counts``: the shared :class:`PolicyCounts`;
    ``where``: (``db.table``, column) for the counts and errors; ``nullable``: whether the
    target column takes NULL (else ``null`` clamps)."""

    __slots__ = ("fn", "policy", "counts", "where", "nullable", "t")

    def __init__(self, t: PgType, policy: ValuePolicy, counts: PolicyCounts, where: tuple[str, str],
                 nullable: bool = True, json_text: bool = False):
        self.t, self.policy, self.counts, self.where, self.nullable = t, policy, counts, where, nullable
        if t.kind == "jsonb" and json_text:
            self.fn = _jsonb_text
        elif t.kind == "int":
            self.fn = lambda v, _t=t: _int(v, _t)
        elif t.kind == "bit":
            self.fn = lambda v, _t=t: _bit(v, _t)
        elif t.kind == "bool":
            self.fn = _bool
        else:
            self.fn = CONVERTERS.get(t.kind, _plain)

    def __call__(self, v, position=None):
        if v is None:
            return None
        try:
            return self.fn(v)
        except ValueProblem as p:
            return self._policy(p, v, position)

    def _policy(self, p: ValueProblem, v, position):
        policy = self.policy
        if policy is ValuePolicy.ERROR:
            raise ValuePolicyError(f"{self.where[0]}.{self.where[1]}: {p.reason} value {v!r:.80} cannot be stored "
                                   f"in {self.t.sql} (value_policy=error)", position=position, table=self.where[0],
                                   what=p.reason)
        if policy is ValuePolicy.NULL and self.nullable:
            self.counts[(self.where[0], self.where[1], p.reason, "null")] += 1
            return None
        self.counts[(self.where[0], self.where[1], p.reason, "clamp")] += 1
        return p.clamped


__all__ = ["CONVERTERS", "PolicyCounts", "ValueConverter", "ValueProblem"]
