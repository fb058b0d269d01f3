"""Generated columns: a MySQL/MariaDB generation expression -> a PostgreSQL one.

A small, honest translator: it parses the expression text the model keeps (``Generated.expression``,
as the source statement wrote it) and gives a PostgreSQL expression only where both servers mean
the same thing; anything else is refused with the reason (:class:`Untranslatable`), and the sink
then follows ``generated_fallback`` (an error, or a plain column filled with the row images' values).

PostgreSQL 15 has only STORED generated columns (manual 5.3 "Generated Columns"), so MySQL's VIRTUAL
ones become STORED too: the target computes and stores them at each write, the source at each read;
the values are the same. Its generation expressions may use only immutable functions and may not
refer to another generated column (manual "CREATE TABLE", GENERATED ALWAYS AS): refused here.

What is translated (MySQL manual 12.4 "Operators", 12.8 "String Functions", 12.6 "Numeric Functions")::

    column refs, numbers, strings, NULL, TRUE/FALSE     (a column with a type override or a transform,
                                                         or an excluded one, is refused: its target
                                                         values are not the source's)
    + - * on numbers; / (decimal: MySQL's scale, the dividend's + div_precision_increment 4, rounded);
    DIV; % and MOD (integers and decimals); x / 0, x DIV 0 and x % 0 give NULL, as in MySQL
    = <> != < <= > >= <=> IS [NOT] NULL, [NOT] IN (...), [NOT] BETWEEN, on numbers only
    AND && OR XOR NOT !  (a number as a condition: <> 0; a condition as a value: 0/1)
    CONCAT -> ||  (NULL if any argument is: as MySQL; numbers cast to text: same digits)
    IF, CASE, IFNULL, COALESCE, NULLIF, GREATEST/LEAST (NULL if any argument is, as MySQL)
    UPPER/UCASE, LOWER/LCASE, CHAR_LENGTH, LENGTH/OCTET_LENGTH (utf8 text only: bytes),
    LEFT/RIGHT/SUBSTRING/SUBSTR/MID (literal non-negative lengths, positive start), TRIM/LTRIM/RTRIM,
    REPLACE, REVERSE, REPEAT, LPAD/RPAD, ABS, CEIL/CEILING, FLOOR, SIGN, ROUND (exact numbers)

What is refused (the reason says which): string comparisons and LIKE (MySQL compares under the
column's collation, case-insensitively by default), arithmetic on strings (MySQL converts them to
numbers leniently), floats as text (the two servers print them differently), temporal, JSON, ENUM,
SET, BIT and binary operands, ``||`` (OR or concatenation by sql_mode), bit operators, and every
other function (CONCAT_WS, DATE_FORMAT, JSON_EXTRACT...: not immutable in PostgreSQL, or no
same-meaning counterpart).

(Over 600 lines: one parser and the table of functions it translates; each entry sits with the
reason it is translated the way it is, which a split would separate from the grammar using it.)
"""

from __future__ import annotations

import dataclasses
import re

from ...model.ids import column_key
from ...model.literals import string_value
from ...model.types import TypeFamily as F


class Untranslatable(Exception):
    """The expression has no same-meaning PostgreSQL form; ``args[0]`` says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class Ref:
    """What a column reference becomes: its target SQL and its kind, or ``refused`` (the reason)."""

    sql: str = ""
    kind: str = ""
    scale: int = 0
    utf8: bool = True
    refused: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class _N:
    """A translated node: SQL text and kind (int, dec, float, str, bool, null); ``scale`` of a
    dec; ``utf8``: a str whose bytes are UTF-8 (LENGTH counts bytes)."""

    sql: str
    kind: str
    scale: int = 0
    utf8: bool = True


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<bq>`(?:[^`]|``)*`)
  | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<str>(?:_[A-Za-z0-9]+\s*)?(?:'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"))
  | (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<op><=>|<=|>=|<>|!=|\|\||&&|<<|>>|[-+*/%(),=<>!~^&|.])
""", re.VERBOSE | re.DOTALL)

_NUMERIC = ("int", "dec", "float")
_UTF8 = ("utf8", "utf8mb3", "utf8mb4", "ascii")


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise Untranslatable(f"cannot read {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    return out


def ql(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class _Parser:
    """Recursive descent over MySQL's operator precedence (manual 12.4.1), lowest first."""

    def __init__(self, text: str, refs):
        self.toks = _tokens(text)
        self.i = 0
        self.refs = refs

    # -- tokens ---------------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> tuple[str, str]:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def word(self, *words: str) -> bool:
        kind, v = self.peek()
        return kind == "id" and v.upper() in words

    def op(self, *ops: str) -> bool:
        kind, v = self.peek()
        return kind == "op" and v in ops

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expect_op(self, o: str) -> None:
        if not self.op(o):
            raise Untranslatable(f"expected {o!r} at {self.peek()[1]!r}")
        self.i += 1

    def expect_word(self, w: str) -> None:
        if not self.word(w):
            raise Untranslatable(f"expected {w} at {self.peek()[1]!r}")
        self.i += 1

    # -- grammar ----------------------------------------------------------------------------------------
    def parse(self) -> _N:
        n = self.or_()
        if self.peek()[0] != "end":
            raise Untranslatable(f"unexpected {self.peek()[1]!r}")
        return n

    def or_(self) -> _N:
        n = self.xor()
        while self.word("OR") or self.op("||"):
            if self.op("||"):
                raise Untranslatable("|| is OR or concatenation depending on sql_mode (PIPES_AS_CONCAT)")
            self.take()
            n = _N(f"({cond(n)} OR {cond(self.xor())})", "bool")
        return n

    def xor(self) -> _N:
        n = self.and_()
        while self.word("XOR"):
            self.take()
            n = _N(f"({cond(n)} <> {cond(self.and_())})", "bool")
        return n

    def and_(self) -> _N:
        n = self.not_()
        while self.word("AND") or self.op("&&"):
            self.take()
            n = _N(f"({cond(n)} AND {cond(self.not_())})", "bool")
        return n

    def not_(self) -> _N:
        if self.word("NOT"):
            self.take()
            return _N(f"(NOT {cond(self.not_())})", "bool")
        return self.predicate()

    def predicate(self) -> _N:
        n = self.additive()
        while True:
            if self.op("=", "<>", "!=", "<", "<=", ">", ">=", "<=>"):
                o = self.take()[1]
                r = self.additive()
                _comparable(n, r)
                sql = {"!=": "<>", "<=>": "IS NOT DISTINCT FROM"}.get(o, o)
                n = _N(f"({num(n)} {sql} {num(r)})", "bool")
            elif self.word("IS"):
                self.take()
                neg = self.word("NOT")
                if neg:
                    self.take()
                self.expect_word("NULL")
                n = _N(f"({n.sql} IS {'NOT ' if neg else ''}NULL)", "bool")
            elif self.word("NOT") and self.peek(1)[0] == "id" and self.peek(1)[1].upper() in ("IN", "BETWEEN"):
                self.take()
                n = _N(f"(NOT {self.in_between(n).sql})", "bool")
            elif self.word("IN", "BETWEEN"):
                n = self.in_between(n)
            elif self.word("LIKE", "REGEXP", "RLIKE", "SOUNDS"):
                raise Untranslatable(f"{self.peek()[1].upper()} compares under the column's collation")
            else:
                return n

    def in_between(self, n: _N) -> _N:
        if self.take()[1].upper() == "IN":
            self.expect_op("(")
            items = [self.or_()]
            while self.op(","):
                self.take()
                items.append(self.or_())
            self.expect_op(")")
            for it in items:
                _comparable(n, it)
            return _N(f"({num(n)} IN ({', '.join(num(it) for it in items)}))", "bool")
        lo = self.additive()
        self.expect_word("AND")
        hi = self.additive()
        _comparable(n, lo)
        _comparable(n, hi)
        return _N(f"({num(n)} BETWEEN {num(lo)} AND {num(hi)})", "bool")

    def additive(self) -> _N:
        n = self.multiplicative()
        while self.op("+", "-"):
            o = self.take()[1]
            r = self.multiplicative()
            n = _arith(n, o, r)
        if self.op("|", "&", "<<", ">>", "^", "~"):
            raise Untranslatable("bit operators work on unsigned 64-bit integers in MySQL")
        return n

    def multiplicative(self) -> _N:
        n = self.unary()
        while self.op("*", "/", "%") or self.word("DIV", "MOD"):
            o = self.take()[1].upper()
            r = self.unary()
            n = _arith(n, o, r)
        return n

    def unary(self) -> _N:
        if self.op("-"):
            self.take()
            n = self.unary()
            _need_number(n, "-")
            if n.kind in ("int", "bool"):
                return _N(f"(- CAST({num(n)} AS bigint))", "int")
            return _N(f"(- {num(n)})", n.kind, n.scale)
        if self.op("+"):
            self.take()
            return self.unary()
        if self.op("!"):
            self.take()
            return _N(f"(NOT {cond(self.unary())})", "bool")
        if self.op("~"):
            raise Untranslatable("bit operators work on unsigned 64-bit integers in MySQL")
        return self.primary()

    def primary(self) -> _N:
        kind, v = self.take()
        if kind == "op" and v == "(":
            n = self.or_()
            self.expect_op(")")
            return n
        if kind == "num":
            if "e" in v.lower():
                return _N(f"CAST({v} AS double precision)", "float")
            if "." in v:
                return _N(v if not v.startswith(".") else "0" + v, "dec", len(v.split(".", 1)[1]))
            return _N(v, "int") if int(v) < 1 << 63 else _N(v, "dec")       # (MySQL: DECIMAL past BIGINT)
        if kind == "str":
            s = string_value(v)
            if "\x00" in s:
                raise Untranslatable("a NUL character in a string (PostgreSQL text cannot hold it)")
            return _N(ql(s), "str")
        if kind == "bq":
            return self.column(v[1:-1].replace("``", "`"))
        if kind == "id":
            u = v.upper()
            if self.op("("):
                return self.function(u)
            if u == "NULL":
                return _N("NULL", "null")
            if u in ("TRUE", "FALSE"):
                return _N("1" if u == "TRUE" else "0", "int")
            if u == "CASE":
                return self.case()
            if self.op("."):
                raise Untranslatable("a qualified column name")
            return self.column(v)
        raise Untranslatable(f"unexpected {v!r}" if v else "the expression ends early")

    def column(self, name: str) -> _N:
        r = self.refs(name)
        if r.refused:
            raise Untranslatable(r.refused)
        return _N(r.sql, r.kind, r.scale, r.utf8)

    def case(self) -> _N:
        subject = None
        if not self.word("WHEN"):
            subject = self.or_()
        arms = []
        while self.word("WHEN"):
            self.take()
            w = self.or_()
            self.expect_word("THEN")
            arms.append((w, self.or_()))
        other = None
        if self.word("ELSE"):
            self.take()
            other = self.or_()
        self.expect_word("END")
        if not arms:
            raise Untranslatable("CASE without WHEN")
        results = _unify([t for _w, t in arms] + ([other] if other is not None else []))
        parts = []
        for (w, _t), t in zip(arms, results, strict=False):
            if subject is not None:
                _comparable(subject, w)
                parts.append(f"WHEN {num(subject)} = {num(w)} THEN {t.sql}")
            else:
                parts.append(f"WHEN {cond(w)} THEN {t.sql}")
        tail = f" ELSE {results[-1].sql}" if other is not None else ""
        r = results[0]
        return _N(f"(CASE {' '.join(parts)}{tail} END)", r.kind, max(x.scale for x in results),
                  all(x.utf8 for x in results))

    def args(self) -> list[_N]:
        self.expect_op("(")
        out = []
        if not self.op(")"):
            out.append(self.or_())
            while self.op(","):
                self.take()
                out.append(self.or_())
        self.expect_op(")")
        return out

    def function(self, name: str) -> _N:
        a = self.args()
        fn = _FUNCTIONS.get(name)
        if fn is None:
            raise Untranslatable(f"{name}() has no same-meaning immutable PostgreSQL function here")
        return fn(a)


# ------------------------------------------------------------------------------------ helpers
def cond(n: _N) -> str:
    """``n`` as a PostgreSQL condition (MySQL: a number is true when not 0)."""
    if n.kind == "bool":
        return n.sql
    if n.kind == "null":
        return "CAST(NULL AS boolean)"
    if n.kind in _NUMERIC:
        return f"({n.sql} <> 0)"
    raise Untranslatable("a string as a condition (MySQL converts it to a number)")


def num(n: _N) -> str:
    """``n`` as a value (MySQL: a condition is 1 or 0)."""
    return f"CAST({n.sql} AS integer)" if n.kind == "bool" else n.sql


def _need_number(n: _N, what: str) -> None:
    if n.kind not in (*_NUMERIC, "bool", "null"):
        raise Untranslatable(f"{what} on a {n.kind} (MySQL converts strings to numbers leniently)")


def _comparable(a: _N, b: _N) -> None:
    for n in (a, b):
        if n.kind not in (*_NUMERIC, "bool", "null"):
            raise Untranslatable("a string comparison (MySQL compares under the column's collation)")


def _arith(a: _N, o: str, b: _N) -> _N:
    _need_number(a, o)
    _need_number(b, o)
    kinds = {a.kind, b.kind}
    x, y = num(a), num(b)
    if "float" in kinds:
        if o in ("%", "MOD", "DIV"):
            raise Untranslatable(f"{o} on a float")
        x, y = f"CAST({x} AS double precision)", f"CAST({y} AS double precision)"
        if o == "/":
            return _N(f"({x} / NULLIF({y}, 0))", "float")
        return _N(f"({x} {o} {y})", "float")
    dec = "dec" in kinds
    # MySQL computes integers in 64 bits (manual 12.6.1: an INT * 2 past 2^31 is a BIGINT); a
    # PostgreSQL integer * integer would overflow where MySQL does not
    if a.kind in ("int", "bool"):
        x = f"CAST({x} AS bigint)"
    if b.kind in ("int", "bool"):
        y = f"CAST({y} AS bigint)"
    if o in ("+", "-"):
        return _N(f"({x} {o} {y})", "dec" if dec else "int", max(a.scale, b.scale))
    if o == "*":
        return _N(f"({x} * {y})", "dec" if dec else "int", a.scale + b.scale)
    if o == "/":
        # MySQL: exact division has the dividend's scale + div_precision_increment (default 4),
        # rounded (manual 12.6.1 "Arithmetic Operators", 5.1.8 div_precision_increment)
        s = min(a.scale + 4, 30)
        return _N(f"round(CAST({num(a)} AS numeric) / NULLIF({num(b)}, 0), {s})", "dec", s)
    if o == "DIV":
        if dec:
            return _N(f"trunc(CAST({x} AS numeric) / NULLIF({y}, 0))", "int")
        return _N(f"({x} / NULLIF({y}, 0))", "int")
    # % and MOD: the sign of the dividend in both (PostgreSQL manual 9.3)
    return _N(f"({x} % NULLIF({y}, 0))", "dec" if dec else "int", max(a.scale, b.scale))


def text_of(n: _N) -> str:
    """``n`` as text, as MySQL turns it into a string (CONCAT's arguments, a text column)."""
    if n.kind == "str":
        return n.sql
    if n.kind == "null":
        return "CAST(NULL AS text)"
    if n.kind in ("int", "dec"):
        return f"CAST({n.sql} AS text)"
    if n.kind == "bool":
        return f"CAST(CAST({n.sql} AS integer) AS text)"
    raise Untranslatable(f"a {n.kind} as text (the two servers print it differently)")


def _unify(ns: list[_N]) -> list[_N]:
    """Arguments of one result (IF, CASE, COALESCE): all text when one is a string (MySQL's result
    is then a string), else numbers of the widest kind."""
    kinds = {n.kind for n in ns} - {"null"}
    if "str" in kinds:
        return [_N(text_of(n), "str", 0, n.utf8) for n in ns]
    if kinds and kinds <= {"bool"}:
        return ns
    for n in ns:
        _need_number(n, "a mixed result")
    kind = "float" if "float" in kinds else "dec" if "dec" in kinds else "int"
    scale = max((n.scale for n in ns), default=0)
    return [_N(num(n), kind, scale) for n in ns]


def _arity(a: list, lo: int, hi: int, name: str) -> None:
    if not lo <= len(a) <= hi:
        raise Untranslatable(f"{name}() with {len(a)} argument(s)")


def _strfn(pg: str, n_args: int = 1):
    def f(a):
        _arity(a, n_args, n_args, pg)
        for x in a:
            if x.kind != "str" and x.kind != "null":
                raise Untranslatable(f"{pg}() of a {x.kind}")
        return _N(f"{pg}({', '.join(x.sql for x in a)})", "str", 0, all(x.utf8 for x in a))
    return f


def _literal_int(n: _N, what: str, lo: int) -> str:
    if n.kind != "int" or not re.fullmatch(r"\d+", n.sql) or int(n.sql) < lo:
        raise Untranslatable(f"{what} must be an integer literal >= {lo} (MySQL and PostgreSQL differ otherwise)")
    return n.sql


def _concat(a):
    if not a:
        raise Untranslatable("CONCAT() without arguments")
    return _N("(" + " || ".join(text_of(x) for x in a) + ")", "str", 0, all(x.utf8 for x in a))


def _if(a):
    _arity(a, 3, 3, "IF")
    t, e = _unify(a[1:])
    return _N(f"(CASE WHEN {cond(a[0])} THEN {t.sql} ELSE {e.sql} END)", t.kind, max(t.scale, e.scale),
              t.utf8 and e.utf8)


def _coalesce(a):
    if len(a) < 1:
        raise Untranslatable("COALESCE() without arguments")
    u = _unify(a)
    return _N(f"COALESCE({', '.join(x.sql for x in u)})", u[0].kind, max(x.scale for x in u),
              all(x.utf8 for x in u))


def _ifnull(a):
    _arity(a, 2, 2, "IFNULL")
    return _coalesce(a)


def _nullif(a):
    _arity(a, 2, 2, "NULLIF")
    _comparable(*a)
    return _N(f"NULLIF({num(a[0])}, {num(a[1])})", "int" if a[0].kind == "bool" else a[0].kind, a[0].scale)


def _extreme(pg: str):
    def f(a):
        if len(a) < 2:
            raise Untranslatable(f"{pg}() with {len(a)} argument(s)")
        for x in a:
            _comparable(x, x)
        u = _unify(a)
        # MySQL: NULL when any argument is NULL; PostgreSQL's ignores NULLs (manual 9.18.4)
        nulls = " OR ".join(f"{x.sql} IS NULL" for x in u)
        return _N(f"(CASE WHEN {nulls} THEN NULL ELSE {pg}({', '.join(x.sql for x in u)}) END)", u[0].kind,
                  max(x.scale for x in u))
    return f


def _length(a):
    _arity(a, 1, 1, "LENGTH")
    x = a[0]
    if x.kind not in ("str", "null") or not x.utf8:
        raise Untranslatable("LENGTH() counts bytes in the column's character set (not UTF-8 here)")
    return _N(f"octet_length({x.sql})", "int")


def _char_length(a):
    _arity(a, 1, 1, "CHAR_LENGTH")
    if a[0].kind not in ("str", "null"):
        raise Untranslatable(f"CHAR_LENGTH() of a {a[0].kind}")
    return _N(f"char_length({a[0].sql})", "int")


def _leftright(pg: str):
    def f(a):
        _arity(a, 2, 2, pg)
        if a[0].kind not in ("str", "null"):
            raise Untranslatable(f"{pg}() of a {a[0].kind}")
        return _N(f"{pg}({a[0].sql}, {_literal_int(a[1], 'the length', 0)})", "str", 0, a[0].utf8)
    return f


def _substr(a):
    _arity(a, 2, 3, "SUBSTRING")
    if a[0].kind not in ("str", "null"):
        raise Untranslatable(f"SUBSTRING() of a {a[0].kind}")
    parts = [a[0].sql, _literal_int(a[1], "the start", 1)]
    if len(a) == 3:
        parts.append(_literal_int(a[2], "the length", 0))
    return _N(f"substr({', '.join(parts)})", "str", 0, a[0].utf8)


def _repeat(a):
    _arity(a, 2, 2, "REPEAT")
    if a[0].kind not in ("str", "null"):
        raise Untranslatable(f"REPEAT() of a {a[0].kind}")
    return _N(f"repeat({a[0].sql}, {_literal_int(a[1], 'the count', 0)})", "str", 0, a[0].utf8)


def _pad(pg: str):
    def f(a):
        _arity(a, 3, 3, pg)
        if a[0].kind not in ("str", "null") or a[2].kind != "str" or a[2].sql == "''":
            raise Untranslatable(f"{pg}() of a non-string or with an empty pad")
        return _N(f"{pg}({a[0].sql}, {_literal_int(a[1], 'the length', 0)}, {a[2].sql})", "str", 0, a[0].utf8)
    return f


def _numfn(pg: str, keep_kind: bool = True):
    def f(a):
        _arity(a, 1, 1, pg)
        _need_number(a[0], pg)
        x = a[0]
        kind = "int" if x.kind == "bool" else x.kind
        if pg in ("ceil", "floor"):
            if kind == "float":
                raise Untranslatable(f"{pg}() of a float")
            return _N(f"{pg}({num(x)})", "int")
        if pg == "sign":
            return _N(f"sign({num(x)})", "int") if kind != "float" else _N(f"CAST(sign({x.sql}) AS integer)", "int")
        return _N(f"{pg}({num(x)})", kind, x.scale)
    return f


def _round(a):
    _arity(a, 1, 2, "ROUND")
    x = a[0]
    _need_number(x, "ROUND")
    if x.kind == "float":
        raise Untranslatable("ROUND() of a float (MySQL's rounding of approximate values follows the C library)")
    d = _literal_int(a[1], "the number of decimals", 0) if len(a) == 2 else "0"
    # exact values: half away from zero in both (MySQL manual 12.25.4, PostgreSQL 9.3 round(numeric))
    return _N(f"round(CAST({num(x)} AS numeric), {d})", "dec" if int(d) else "int", int(d))


_FUNCTIONS = {
    "CONCAT": _concat, "IF": _if, "IFNULL": _ifnull, "COALESCE": _coalesce, "NULLIF": _nullif,
    "GREATEST": _extreme("GREATEST"), "LEAST": _extreme("LEAST"),
    "UPPER": _strfn("upper"), "UCASE": _strfn("upper"), "LOWER": _strfn("lower"), "LCASE": _strfn("lower"),
    "TRIM": _strfn("btrim"), "LTRIM": _strfn("ltrim"), "RTRIM": _strfn("rtrim"), "REVERSE": _strfn("reverse"),
    "REPLACE": _strfn("replace", 3),
    "LENGTH": _length, "OCTET_LENGTH": _length, "CHAR_LENGTH": _char_length, "CHARACTER_LENGTH": _char_length,
    "LEFT": _leftright("left"), "RIGHT": _leftright("right"),
    "SUBSTRING": _substr, "SUBSTR": _substr, "MID": _substr, "REPEAT": _repeat,
    "LPAD": _pad("lpad"), "RPAD": _pad("rpad"),
    "ABS": _numfn("abs"), "CEIL": _numfn("ceil"), "CEILING": _numfn("ceil"), "FLOOR": _numfn("floor"),
    "SIGN": _numfn("sign"), "ROUND": _round,
}


# ------------------------------------------------------------------------------------ columns
def column_kind(col, natural_kind: str) -> tuple[str, int, bool] | str:
    """(kind, scale, utf8) of a source column inside an expression, or the reason it is refused."""
    fam = col.family
    if fam is F.INTEGER and col.unsigned and col.type_name == "bigint":
        return f"column {col.name} is BIGINT UNSIGNED (MySQL's unsigned 64-bit arithmetic)"
    if fam in (F.INTEGER, F.YEAR):
        return ("int", 0, True)
    if fam is F.DECIMAL:
        return ("dec", col.scale or 0, True)
    if fam is F.FLOAT:
        return ("float", 0, True)
    if fam in (F.CHAR, F.VARCHAR, F.TEXT) and natural_kind == "text":
        cs = (col.charset or "").lower()
        return ("str", 0, cs in _UTF8)
    return f"column {col.name} is {col.type_name} (no same-meaning operations in PostgreSQL here)"


def translate(expression: str, refs) -> _N:
    """The PostgreSQL form of a MySQL generation ``expression``; ``refs(name)`` gives a column
    reference's :class:`Ref`. Raises :class:`Untranslatable`."""
    return _Parser(expression, refs).parse()


def as_column(n: _N, sql_type: str, kind: str) -> str:
    """The translated expression stored into a target column of ``sql_type`` (its type map
    ``kind``), as MySQL converts a generated value into the column's type."""
    if kind in ("int", "numeric", "float"):
        if n.kind == "str":
            raise Untranslatable("a string stored into a number column (MySQL converts it leniently)")
        return f"CAST({num(n)} AS {sql_type})"
    if kind == "text":
        return f"CAST({text_of(n)} AS {sql_type})"
    if kind == "bool" and n.kind == "bool":
        return n.sql
    raise Untranslatable(f"a {n.kind} value stored into {sql_type}")


def target_expression(table, tcol, columns_by_key: dict) -> str:
    """The PostgreSQL generation expression of target column ``tcol`` (a TargetColumn whose source
    is generated) of ``table``; ``columns_by_key``: column_key(source name) -> TargetColumn of the
    table's included columns. Raises :class:`Untranslatable`."""
    if tcol.target.transform is not None or tcol.target.function is not None:
        raise Untranslatable("a mapping transform on a generated column (its values are transformed)")

    def refs(name: str) -> Ref:
        src = table.column(name)
        if src is None:
            return Ref(refused=f"no column {name}")
        tc = columns_by_key.get(column_key(name))
        if tc is None:
            return Ref(refused=f"column {name} is excluded by the mapping")
        if src.generated is not None:
            return Ref(refused=f"column {name} is generated (PostgreSQL refuses a generated column in a generation "
                       "expression)")
        if tc.overridden or tc.target.transform is not None or tc.target.function is not None:
            return Ref(refused=f"column {name} has a mapping type or transform (its target values differ)")
        k = column_kind(src, tc.natural.kind if tc.natural.kind != "bool" else "int")
        if isinstance(k, str):
            return Ref(refused=k)
        ref = '"' + tc.name.replace('"', '""') + '"'
        if tc.natural.kind == "bool":           # TINYINT(1) as boolean: MySQL computes with the number
            ref = f"CAST({ref} AS integer)"
        return Ref(ref, *k)

    n = translate(tcol.source.generated.expression, refs)
    return as_column(n, tcol.sql_type, tcol.natural.kind if not tcol.overridden else _override_kind(tcol.sql_type))


def _override_kind(sql_type: str) -> str:
    t = sql_type.lower()
    if t.startswith(("smallint", "integer", "int", "bigint", "numeric", "decimal", "real", "double")):
        return "numeric"
    if t.startswith(("text", "varchar", "char", "character")):
        return "text"
    return "other"


__all__ = ["Ref", "Untranslatable", "as_column", "column_kind", "target_expression", "translate"]
