"""``dataType`` -> :class:`~mysqlddl.model.spec.DataTypeSpec` (SQL Ref. 2.1 "Data Types").

The listener records the spelling (keywords joined by single spaces: ``TIMESTAMP WITH LOCAL TIME
ZONE``, ``INTERVAL DAY TO SECOND``, ``NATIONAL CHAR VARYING``; a named type as written, quoted
parts keeping their case) and the numbers as written: ``length`` the first (precision, length,
fsp of TIMESTAMP, leading precision of an INTERVAL; None for NUMBER(*, s)), ``scale`` the
second (scale; an INTERVAL DAY TO SECOND's fractional seconds), ``length_semantics`` BYTE/CHAR
when written. What a spelling means is the model's table (:data:`mysqlddl.model.types.
ORACLE_TYPES`).
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.oracle.OracleParser import OracleParser as P
from ...model.spec import DataTypeSpec
from .source import StatementSource

_PUNCT = frozenset({P.LPAREN, P.RPAREN, P.COMMA, P.INTEGER_LITERAL, P.STAR, P.MINUS})


def _terminals(ctx):
    for ch in ctx.getChildren():
        if isinstance(ch, P.TypeArgContext):
            yield from ch.getChildren()
        elif isinstance(ch, TerminalNode):
            yield ch


def _args(ctx) -> tuple[int | None, int | None, str | None]:
    """(first number, second number, BYTE|CHAR) of numericArgs / charLength / typeArgs; ``*``
    gives None, a word (VECTOR's FLOAT32) is left out (the declared text keeps it)."""
    if ctx is None:
        return None, None, None
    first = second = None
    comma = negative = False
    for ch in _terminals(ctx):
        t = ch.getSymbol().type
        if t == P.COMMA:
            comma = True
        elif t == P.MINUS:
            negative = True
        elif t == P.INTEGER_LITERAL:
            v = int(ch.getText())
            if comma:
                second = -v if negative else v
            else:
                first = v
    sem = ctx.lengthSemantics()
    return first, second, sem.getText().upper() if sem is not None else None


def data_type_spec(ctx: P.DataTypeContext, src: StatementSource) -> DataTypeSpec:
    text = src.text_of(ctx)
    if isinstance(ctx, P.NamedTypeContext):
        parts = []
        for t in ctx.typeName().getChildren():
            if isinstance(t, TerminalNode) and t.getSymbol().type != P.DOT:
                s = t.getText()
                parts.append(s[1:-1] if t.getSymbol().type == P.QUOTED_ID else s.upper())
        length, scale, sem = _args(ctx.typeArgs())
        return DataTypeSpec(".".join(parts), length, scale, length_semantics=sem, text=text)
    words: list[str] = []
    numbers: list[int] = []
    length = scale = sem = None
    for child in ctx.getChildren():
        if isinstance(child, TerminalNode):
            t = child.getSymbol().type
            if t == P.INTEGER_LITERAL:
                numbers.append(int(child.getText()))
            elif t not in _PUNCT:
                words.append(child.getText().upper())
                if t == P.TO and isinstance(ctx, P.IntervalDayTypeContext) and not numbers:
                    numbers.append(None)  # no leading precision: the next number is the fsp
        elif isinstance(child, (P.NumericArgsContext, P.CharLengthContext)):
            length, scale, sem = _args(child)
    if numbers:
        length = numbers[0]
        scale = numbers[1] if len(numbers) > 1 else None
    return DataTypeSpec(" ".join(words), length, scale, length_semantics=sem, text=text)
