"""Converted rows -> COPY text lines, for the common value types, without the driver's per-value
adaptation (the sink's hottest loop after the conversion itself).

COPY's text format (PostgreSQL manual "COPY", "Text Format"): one line per row, columns separated
by a tab, ``\\N`` for NULL, and a backslash, tab, newline or carriage return inside a value written
as ``\\\\``, ``\\t``, ``\\n``, ``\\r``; each value is then read by its column type's input function, as
a literal would be. What is written here is what the driver's text dumpers write for the same
values: ``str`` of an int or a finite Decimal (numeric input takes its exponent form), ``repr`` of
a finite float (the shortest text that reads back to the same double), ISO 8601 for date and
datetime (an aware one with its offset; the session's TimeZone is UTC), ``t``/``f`` for bool, and
bytea's hex form (manual 8.4.1: ``\\x`` then hex digits, its backslash doubled for COPY).

A row with any other value (a list, a timedelta, an infinite float...) makes :func:`formatter`'s
function raise :class:`Unformatted`; the caller then writes the rows through the driver.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from math import isfinite

# per converter kind (:mod:`.values`): (the class the fast form needs, its text as source over v)
_FORMS = {
    "int": ("_int", "str(v)"),
    "float": ("_float", "(repr(v) if _isfinite(v) else _bad(v))"),
    "text": ("_str", "(_esc(v) if (_BS in v or _TAB in v or _LF in v or _CR in v) else v)"),
    "enum": ("_str", "(_esc(v) if (_BS in v or _TAB in v or _LF in v or _CR in v) else v)"),
    "bytea": ("_bytes", "(_HEX + v.hex())"),
    "date": ("_date", "v.isoformat()"),
    "timestamp": ("_datetime", "(v.isoformat() if v.tzinfo is None else _bad(v))"),
    "timestamptz": ("_datetime", "v.isoformat()"),
    "bool": ("_bool", "(_T if v else _F)"),
}


class Unformatted(Exception):
    """A value :func:`formatter`'s function does not write (the driver adapts the rows instead)."""


def _bad(v):
    raise Unformatted(type(v).__name__)


def _esc(v: str) -> str:
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _numeric(v):
    if v.__class__ is int or (v.__class__ is Decimal and v.is_finite()):
        return str(v)
    raise Unformatted(type(v).__name__)


_NS = {"_int": int, "_str": str, "_bytes": bytes, "_float": float, "_date": datetime.date, "_bool": bool,
       "_datetime": datetime.datetime, "_isfinite": isfinite, "_bad": _bad, "_esc": _esc, "_numeric": _numeric,
       "_BS": "\\", "_TAB": "\t", "_LF": "\n", "_CR": "\r", "_HEX": "\\\\x", "_T": "t", "_F": "f", "_NULL": "\\N"}

_cache: dict[tuple, object] = {}


def formatter(kinds: tuple[str, ...]):
    """A function: a list of rows (tuples of converted values for columns of converter ``kinds``)
    -> their COPY text, as bytes; None when a kind has no text form here (the driver writes)."""
    fn = _cache.get(kinds)
    if fn is not None or kinds in _cache:
        return fn
    parts = []
    for i, kind in enumerate(kinds):
        if kind == "numeric":
            parts.append(f"(str(v) if (v := r[{i}]).__class__ is _int else (_NULL if v is None else _numeric(v)))")
            continue
        form = _FORMS.get(kind)
        if form is None:
            _cache[kinds] = None
            return None
        cls, text = form
        parts.append(f"({text} if (v := r[{i}]).__class__ is {cls} else (_NULL if v is None else _bad(v)))")
    line = ' + "\\t" + '.join(parts) + ' + "\\n"'
    src = f"def copy_text(rows):\n    return ''.join([{line} for r in rows]).encode()\n"
    ns = dict(_NS)
    exec(compile(src, "<mysqlddl.sinks.pg.copytext>", "exec"), ns)      # noqa: S102 (our own text)
    fn = _cache[kinds] = ns["copy_text"]
    return fn


__all__ = ["Unformatted", "formatter"]
