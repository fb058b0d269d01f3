"""Everything about lexing that depends on the server version or the sql_mode.

The ANTLR lexer (grammars/mysql/MySqlLexer.g4) has no predicates and no actions (ANTLR-NOTES
lessons 4 and 6), so three behaviours that MySQL's own lexer switches at run time are done here,
around it, without changing any character offset (line/column/offset of every token and error stay
those of the original statement):

- **Versioned comments** ``/*!NNNNN ... */`` (MySQL 8.4 manual 11.7 "Comments") are executed when
  the server's version is >= NNNNN: :func:`prepare_text` blanks the opening marker and the closing
  ``*/`` to spaces, so the lexer sees the content as ordinary tokens. A comment whose version is
  higher stays a comment (the lexer's hidden ``VERSIONED_COMMENT``). MariaDB's ``/*M!NNNNNN ... */``
  is executed only under the MariaDB dialect (MariaDB "Comment Syntax"); MySQL ignores it.
- **NO_BACKSLASH_ESCAPES** (5.1.11 "Server SQL Modes"): ``\\`` is an ordinary character in strings.
  The lexer always treats ``\\`` as an escape, so backslashes inside quoted strings are replaced by
  a same-length placeholder before lexing, and :func:`restore_texts` puts the original text back
  into the affected tokens.
- **ANSI_QUOTES**: ``"x"`` is an identifier, not a string. The lexer always produces ``DQ_STRING``;
  :func:`retype_tokens` turns those into ``DQ_IDENT``, a token type the lexer declares but never
  produces itself, which the parser's ``identifier`` rule accepts.

Optimizer hints ``/*+ ... */`` are hidden by the lexer (``HINT_COMMENT``): they never change syntax
validity (the server ignores malformed hints with a warning).
"""

from __future__ import annotations

import re

from ..options import DEFAULT, Dialect, Options

# What a statement needs scanned for: quoted runs, comments, versioned-comment markers.
_SCAN_BS = re.compile(
    r"""(?P<sq>'(?:[^'\\]|\\.|'')*(?:'|\Z))"""
    r"""|(?P<dq>"(?:[^"\\]|\\.|"")*(?:"|\Z))"""
    r"""|(?P<bq>`(?:[^`]|``)*(?:`|\Z))"""
    r"""|(?P<line>(?:\#|--(?=[ \t\r\n]|\Z))[^\n]*)"""
    r"""|(?P<vopen>/\*M?!\d*)"""
    r"""|(?P<block>/\*.*?(?:\*/|\Z))"""
    r"""|(?P<vclose>\*/)""",
    re.S,
)
_SCAN_NOBS = re.compile(
    r"""(?P<sq>'(?:[^']|'')*(?:'|\Z))"""
    r"""|(?P<dq>"(?:[^"]|"")*(?:"|\Z))"""
    r"""|(?P<bq>`(?:[^`]|``)*(?:`|\Z))"""
    r"""|(?P<line>(?:\#|--(?=[ \t\r\n]|\Z))[^\n]*)"""
    r"""|(?P<vopen>/\*M?!\d*)"""
    r"""|(?P<block>/\*.*?(?:\*/|\Z))"""
    r"""|(?P<vclose>\*/)""",
    re.S,
)

# Stands in for a backslash inside a string under NO_BACKSLASH_ESCAPES: any character that is
# neither a quote nor a backslash lexes identically inside a string literal.
BACKSLASH_PLACEHOLDER = "\x00"


def comment_version(marker: str) -> tuple[int, int, int] | None:
    """The server version a versioned-comment marker asks for, or None when it has no digits.

    MySQL writes Mmmrr (``/*!50100``: 5.1.0, ``/*!80016``: 8.0.16); 6 digits are MMmmrr
    (``/*!100100`` = 10.1.0, MariaDB's ``/*M!100100`` and MySQL 9+).
    """
    digits = marker.lstrip("/*M!")
    if len(digits) >= 6:
        d = digits[:6]
        return int(d[:2]), int(d[2:4]), int(d[4:6])
    if len(digits) == 5:
        return int(digits[0]), int(digits[1:3]), int(digits[3:5])
    return None


def comment_applies(marker: str, options: Options) -> bool:
    """Whether the versioned comment opened by ``marker`` is executed under ``options``."""
    mariadb_only = marker.startswith("/*M")
    if mariadb_only and options.dialect is not Dialect.MARIADB:
        return False
    version = comment_version(marker)
    return version is None or version <= options.server_version


def needs_preparation(sql: str, options: Options) -> bool:
    return "/*!" in sql or "/*M!" in sql or (options.no_backslash_escapes and "\\" in sql)


def prepare_text(sql: str, options: Options = DEFAULT) -> str:
    """The text the lexer should see for ``sql`` (same length, same line breaks).

    Opens the versioned comments that apply and, under NO_BACKSLASH_ESCAPES, neutralises
    backslashes inside quoted strings. Returns ``sql`` itself when nothing needs changing.
    """
    if not needs_preparation(sql, options):
        return sql
    nobs = options.no_backslash_escapes
    scanner = _SCAN_NOBS if nobs else _SCAN_BS
    out: list[str] = []
    last = 0
    open_marker = False  # inside an opened versioned comment
    for m in scanner.finditer(sql):
        kind = m.lastgroup
        if kind == "vopen":
            marker = m.group()
            if open_marker:
                continue  # MySQL does not nest versioned comments; the inner marker is text
            if comment_applies(marker, options):
                out.append(sql[last:m.start()])
                out.append(" " * len(marker))
                last = m.end()
                open_marker = True
            else:
                # Not executed: skip to its end; the lexer hides it as VERSIONED_COMMENT.
                end = sql.find("*/", m.end())
                if end < 0:
                    break
                # Resume scanning after the comment by recursing on the remainder.
                out.append(sql[last:end + 2])
                last = end + 2
                rest = prepare_text_from(sql, end + 2, options)
                out.append(rest)
                return "".join(out)
        elif kind == "vclose":
            if open_marker:
                out.append(sql[last:m.start()])
                out.append("  ")
                last = m.end()
                open_marker = False
        elif nobs and kind in ("sq", "dq") and "\\" in m.group():
            out.append(sql[last:m.start()])
            out.append(m.group().replace("\\", BACKSLASH_PLACEHOLDER))
            last = m.end()
    out.append(sql[last:])
    return "".join(out)


def prepare_text_from(sql: str, start: int, options: Options) -> str:
    """prepare_text applied to ``sql[start:]`` (used after a skipped versioned comment)."""
    return prepare_text(sql[start:], options)


def retype_tokens(tokens, options: Options, dq_string: int, dq_ident: int) -> None:
    """Token-source filter applied after lexing: ANSI_QUOTES makes ``"x"`` an identifier."""
    if options.ansi_quotes:
        for t in tokens:
            if t.type == dq_string:
                t.type = dq_ident


def retype_qualified_keywords(tokens, dot: int, ident: int, keyword_types: frozenset[int]) -> None:
    """A keyword directly attached to a '.' in a qualified name is an identifier.

    MySQL's lexer does not look a word up as a keyword when a '.' and an identifier character
    follow it immediately, nor when it directly follows such a '.' (sql_lex.cc, MY_LEX_IDENT_SEP;
    manual 11.2.2 "Identifier Qualifiers": "a word that follows a period in a qualified name must
    be an identifier"). So ``default.task`` and ``t.order`` are plain names.
    """
    n = len(tokens)
    for i in range(1, n - 1):
        t = tokens[i]
        if t.type != dot:
            continue
        nxt = tokens[i + 1]
        if nxt.start != t.stop + 1:
            continue
        if nxt.type in keyword_types:
            nxt.type = ident
        prev = tokens[i - 1]
        if prev.type in keyword_types and prev.stop + 1 == t.start:
            prev.type = ident


def restore_texts(tokens, original: str, prepared: str) -> None:
    """Give tokens whose characters were replaced by :func:`prepare_text` their original text."""
    if original is prepared:
        return
    for t in tokens:
        if t.start >= 0 and t.stop >= t.start:
            text = original[t.start:t.stop + 1]
            if text != prepared[t.start:t.stop + 1]:
                t.text = text
