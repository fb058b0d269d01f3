"""Names and literals as the statement spelled them, turned into plain values.

- identifiers: ```we``ird``` -> ``we`ird``; ``"a""b"`` (ANSI_QUOTES) -> ``a"b``; plain names and
  keywords used as names as written (MySQL 8.4 manual 11.2 "Schema Object Names");
- string literals (manual 11.1.1): ``'it''s'``, ``'a\\'b'``, ``_utf8mb4'x'``, ``N'x'``,
  ``'a' 'b'`` (adjacent literals concatenate) -> their value.
"""

from __future__ import annotations

from ...model import literals
from ...model.ids import TableId
from .source import StatementSource


def unquote(text: str) -> str:
    """An identifier token's name: backtick and double-quote quoting removed, doubled quote
    characters undone. Bare names are returned unchanged."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "`\"":
        q = t[0]
        return t[1:-1].replace(q + q, q)
    return t


def name(ctx) -> str | None:
    """The unquoted name of an ``identifier`` / ``columnName`` / ``indexName`` context (None
    passes through)."""
    if ctx is None:
        return None
    return unquote(ctx.getText())


def table_id(ctx) -> TableId:
    """``tableName``: ``db.t`` or ``t`` (database None: the session's default database)."""
    parts = ctx.identifier()
    if len(parts) == 2:
        return TableId(name(parts[0]), name(parts[1]))
    return TableId(None, name(parts[0]))


def string_value(ctx, src: StatementSource) -> str:
    """The value of a ``textLiteral`` context (escapes per the statement's sql_mode)."""
    text = src.text_of(ctx)
    v = literals.string_value(text, src.options.no_backslash_escapes)
    return v if v is not None else text


def charset_name(ctx, src: StatementSource) -> str:
    """``charsetName`` / ``collationName``: identifier, string literal or keyword
    (``BINARY``, ``ASCII``, ``DEFAULT``) -> the name as a plain string."""
    lit = ctx.textLiteral() if hasattr(ctx, "textLiteral") else None
    if lit is not None:
        return string_value(lit, src)
    return unquote(ctx.getText())


def has(ctx, rule: str) -> bool:
    """Whether ``ctx`` holds the optional sub-rule or token ``rule``. Labelled alternatives only
    have accessors for their own parts, so a builder shared between alternatives asks this way."""
    f = getattr(ctx, rule, None)
    return f is not None and f() is not None
