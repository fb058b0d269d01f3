"""``identifier``, ``tableName``, ``columnName``, ``constraintName`` -> stored names.

Oracle's case rule (SQL Ref. 2.8) is a dialect rule of the model
(:meth:`~mysqlddl.model.dialects.DialectRules.identifier`): nonquoted names are stored in upper
case, quoted ones as written without the quotes.
"""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...model.ids import TableId
from .source import StatementSource


def name(ctx, src: StatementSource) -> str:
    """The stored name of an ``identifier`` (or of a rule made of one identifier)."""
    tok = ctx.start
    text = tok.text
    if tok.type == P.QUOTED_ID:
        return src.rules.identifier(text[1:-1], True)
    return src.rules.identifier(text, False)


def names(ctxs, src: StatementSource) -> tuple[str, ...]:
    return tuple(name(c, src) for c in ctxs)


def table_id(ctx: P.TableNameContext, src: StatementSource) -> TableId:
    parts = ctx.identifier()
    if len(parts) == 2:
        return TableId(name(parts[0], src), name(parts[1], src))
    return TableId(None, name(parts[0], src))


def constraint_name(ctx: P.ConstraintNameContext | None, src: StatementSource) -> str | None:
    """A constraint name (a schema prefix, which Oracle allows and ignores, is dropped)."""
    if ctx is None:
        return None
    return name(ctx.identifier()[-1], src)


def column_list(ctx: P.ColumnListContext, src: StatementSource) -> tuple[str, ...]:
    return tuple(name(c, src) for c in ctx.columnName())


def string_value(ctx: P.StringLiteralContext, src: StatementSource) -> str:
    """The value of a string literal: '...' unquoted ('' -> '), N'...', q'[...]'."""
    text = src.text_of(ctx)
    if text[:1] in "nN" and text[1:2] in "'qQ":
        text = text[1:]
    if text[:1] in "qQ":
        return text[3:-2]
    return text[1:-1].replace("''", "'")
