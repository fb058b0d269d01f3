"""SQL literal text: unquoting strings (MySQL manual 11.1.1 "String Literals"), classifying a
DEFAULT clause, and normalising a literal default to its column's type the way
information_schema.COLUMNS shows it."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from ..errors import DdlSemanticError
from .column import Default, DefaultKind
from .types import TypeFamily

# Backslash escapes of MySQL string literals. \% and \_ keep their backslash (they are LIKE
# escapes); any other \x is x. NO_BACKSLASH_ESCAPES turns all of this off.
_ESCAPES = {"0": "\0", "'": "'", '"': '"', "b": "\b", "n": "\n", "r": "\r", "t": "\t",
            "Z": "\x1a", "\\": "\\", "%": "\\%", "_": "\\_"}

_INTRODUCER = re.compile(r"^(?:_[A-Za-z0-9]+\s*|[Nn](?='))")
_STRING = re.compile(r"'(?:[^'\\]|''|\\.)*'|\"(?:[^\"\\]|\"\"|\\.)*\"", re.S)
_NUMBER = re.compile(r"^[+-]?\s*(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_NOW = re.compile(r"^(?:current_timestamp|now|localtime|localtimestamp)\s*(?:\(\s*(\d*)\s*\))?$", re.I)


def unescape(body: str, quote: str = "'", no_backslash_escapes: bool = False) -> str:
    """The value of a string literal's body (the text between its quotes)."""
    out = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and not no_backslash_escapes and i + 1 < n:
            nxt = body[i + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
        elif ch == quote and i + 1 < n and body[i + 1] == quote:
            out.append(quote)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def string_value(text: str, no_backslash_escapes: bool = False) -> str | None:
    """The value of a (possibly introduced, possibly concatenated) string literal such as
    ``'it''s'``, ``_utf8mb4'x'``, ``N'x'`` or ``'a' 'b'``; None if ``text`` is not one."""
    s = _INTRODUCER.sub("", text.strip(), count=1)
    if not s or s[0] not in "'\"":
        return None
    parts, pos = [], 0
    while pos < len(s):
        m = _STRING.match(s, pos)
        if not m:
            return None
        lit = m.group(0)
        parts.append(unescape(lit[1:-1], lit[0], no_backslash_escapes))
        pos = m.end()
        while pos < len(s) and s[pos].isspace():
            pos += 1
    return "".join(parts)


def unquote_identifier(text: str) -> str:
    """`a``b` -> a`b; "a""b" -> a"b (ANSI_QUOTES); bare names unchanged."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "`\"":
        return t[1:-1].replace(t[0] * 2, t[0])
    return t


def _hex_or_bits(text: str) -> bytes | int | None:
    t = text.strip()
    m = re.fullmatch(r"[xX]'([0-9a-fA-F]*)'|0x([0-9a-fA-F]+)", t)
    if m:
        h = m.group(1) if m.group(1) is not None else m.group(2)
        return bytes.fromhex(h if len(h) % 2 == 0 else "0" + h)
    m = re.fullmatch(r"[bB]'([01]*)'|0b([01]+)", t)
    if m:
        b = m.group(1) if m.group(1) is not None else m.group(2)
        return int(b or "0", 2)
    return None


def _strip_parens(text: str) -> str | None:
    """``(expr)`` -> ``expr`` when the parentheses enclose the whole text, else None."""
    t = text.strip()
    if not (t.startswith("(") and t.endswith(")")):
        return None
    depth = 0
    for i, ch in enumerate(t):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i != len(t) - 1:
            return None
    return t[1:-1].strip()


class RawDefault:
    """A DEFAULT clause classified but not yet normalised to a column type."""

    __slots__ = ("kind", "value", "fsp")

    def __init__(self, kind: str, value=None, fsp: int | None = None):
        self.kind = kind        # null | string | number | bits | hex | now | expression
        self.value = value
        self.fsp = fsp


def classify(text: str, no_backslash_escapes: bool = False) -> RawDefault:
    t = text.strip()
    inner = _strip_parens(t)
    if inner is not None:
        # MySQL 8.0.13 DEFAULT (expr). A parenthesised literal is still an expression there;
        # CURRENT_TIMESTAMP in parentheses is the same as without.
        m = _NOW.match(inner)
        if m:
            return RawDefault("now", fsp=int(m.group(1) or 0))
        return RawDefault("expression", t)
    u = t.upper()
    if u == "NULL":
        return RawDefault("null")
    if u in ("TRUE", "FALSE"):
        return RawDefault("number", Decimal(1 if u == "TRUE" else 0))
    m = _NOW.match(t)
    if m:
        return RawDefault("now", fsp=int(m.group(1) or 0))
    s = string_value(t, no_backslash_escapes)
    if s is not None:
        return RawDefault("string", s)
    hb = _hex_or_bits(t)
    if isinstance(hb, bytes):
        return RawDefault("hex", hb)
    if isinstance(hb, int):
        return RawDefault("bits", hb)
    if _NUMBER.match(t):
        try:
            return RawDefault("number", Decimal(t.replace(" ", "")))
        except InvalidOperation:
            pass
    return RawDefault("expression", t)


def _fsp_suffix(frac: str, fsp: int) -> str:
    return ("." + (frac + "0" * fsp)[:fsp]) if fsp else ""


def _datetime_text(s: str, fsp: int, with_time: bool) -> str:
    if re.fullmatch(r"\s*0+(?:\.0*)?\s*", s):  # DEFAULT 0: the zero date
        s = "0000-00-00 00:00:00"
    m = re.fullmatch(r"\s*(\d{2,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2})(?::(\d{1,2}))?(?::(\d{1,2}))?"
                     r"(?:\.(\d*))?)?\s*", s)
    if not m:
        m2 = re.fullmatch(r"\s*(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})(?:\.(\d*))?)?\s*", s)
        if not m2:
            raise DdlSemanticError(f"Invalid default value '{s}'")
        m = m2
    y, mo, d, hh, mi, ss, frac = m.groups()
    y = int(y)
    if len(m.group(1)) == 2:
        y += 2000 if y < 70 else 1900
    date = f"{y:04d}-{int(mo):02d}-{int(d):02d}"
    if not with_time:
        return date
    return f"{date} {int(hh or 0):02d}:{int(mi or 0):02d}:{int(ss or 0):02d}{_fsp_suffix(frac or '', fsp)}"


def _time_text(s: str, fsp: int) -> str:
    m = re.fullmatch(r"\s*(-)?(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?\s*", s)
    if m:
        sign, days, h, mi, ss, frac = m.groups()
        h = int(h) + 24 * int(days or 0)
        return f"{sign or ''}{h:02d}:{int(mi):02d}:{int(ss or 0):02d}{_fsp_suffix(frac or '', fsp)}"
    m = re.fullmatch(r"\s*(-)?(\d+)(?:\.(\d*))?\s*", s)
    if m:
        sign, digits, frac = m.groups()
        digits = digits.zfill(6)
        h, mi, ss = int(digits[:-4]), int(digits[-4:-2]), int(digits[-2:])
        return f"{sign or ''}{h:02d}:{mi:02d}:{ss:02d}{_fsp_suffix(frac or '', fsp)}"
    raise DdlSemanticError(f"Invalid default value '{s}'")


def _float_text(d: Decimal) -> str:
    f = float(d)
    if f == int(f) and abs(f) < 1e15:
        return str(int(f))
    r = repr(f)
    return r.replace("e+", "e")


def normalise_default(raw: RawDefault, family: TypeFamily, *, scale: int | None = None,
                      fsp: int = 0, values: tuple[str, ...] = (), type_name: str = "",
                      length: int | None = None, zerofill: bool = False) -> Default:
    """The model's Default for a classified DEFAULT clause on a column of ``family``."""
    k = raw.kind
    if k == "null":
        return Default.null()
    if k == "now":
        return Default.current_timestamp(raw.fsp)
    if k == "expression":
        return Default.expression(raw.value)
    v = raw.value
    F = TypeFamily
    if family is F.BIT:
        # a string is its bytes read as a big-endian number ('1' is 0x31 = 49)
        if k == "string":
            n = int.from_bytes(v.encode("utf-8"), "big")
        elif k == "hex":
            n = int.from_bytes(v, "big")
        else:
            n = int(Decimal(v).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        if n < 0 or (length and n >= 1 << length):
            raise DdlSemanticError(f"Invalid default value for a BIT({length}) column: {text_of(raw)}")
        return Default.literal("b'" + format(n, "b") + "'")
    if family in (F.INTEGER, F.DECIMAL, F.FLOAT, F.YEAR):
        if k == "string":
            try:
                num = Decimal(v.strip() or "0")
            except InvalidOperation:
                raise DdlSemanticError(f"Invalid default value '{v}'") from None
        elif k == "hex":
            num = Decimal(int.from_bytes(v, "big")) if v else Decimal(0)
        else:
            num = Decimal(v)
        if family is F.INTEGER:
            text = str(int(num.quantize(Decimal(1), rounding=ROUND_HALF_UP)))
            # ZEROFILL defaults are stored padded to the display width (MariaDB 10.11: '00007')
            return Default.literal(text.zfill(length) if zerofill and length else text)
        if family is F.DECIMAL:
            q = Decimal(1).scaleb(-(scale or 0))
            return Default.literal(format(num.quantize(q, rounding=ROUND_HALF_UP), "f"))
        if family is F.FLOAT:
            return Default.literal(_float_text(num))
        y = int(num)  # YEAR: 1..69 -> 2001..2069, 70..99 -> 1970..1999 (manual 11.2.4)
        if k == "string" and len(v.strip()) <= 2 or k != "string" and 0 < y < 100:
            y = y + 2000 if y < 70 else (y + 1900 if y < 100 else y)
        return Default.literal(f"{y:04d}" if y else "0000")
    if k in ("number", "bits"):
        s = str(v) if k == "number" else str(v)
    elif k == "hex":
        s = v.decode("latin-1")
    else:
        s = v
    if family in (F.DATETIME, F.TIMESTAMP):
        if k == "number":
            s = format(Decimal(v), "f")
        return Default.literal(_datetime_text(s, fsp, True))
    if family is F.DATE:
        return Default.literal(_datetime_text(s, 0, False))
    if family is F.TIME:
        return Default.literal(_time_text(s, fsp))
    if family is F.CHAR:
        return Default.literal(s.rstrip(" "))
    if family is F.BINARY and length:
        return Default.literal(s.ljust(length, "\0"))  # BINARY(n) pads with 0x00
    if family is F.ENUM and values:
        if k == "number":
            i = int(v)
            return Default.literal(values[i - 1] if 1 <= i <= len(values) else "")
        for val in values:
            if val.lower() == s.lower():
                return Default.literal(val)
        raise DdlSemanticError(f"Invalid default value for ENUM: '{s}'")
    if family is F.SET and values:
        picked = []
        for item in filter(None, s.split(",")):
            for val in values:
                if val.lower() == item.lower():
                    picked.append(val)
                    break
            else:
                raise DdlSemanticError(f"Invalid default value for SET: '{s}'")
        return Default.literal(",".join(v for v in values if v in picked))
    return Default.literal(s)


def text_of(raw: RawDefault) -> str:
    return repr(raw.value)


def is_null(d: Default | None) -> bool:
    return d is not None and d.kind is DefaultKind.NULL
