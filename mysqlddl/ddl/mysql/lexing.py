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

from antlr4.Token import CommonToken

from ...options import DEFAULT, Dialect, Options

# What a statement needs scanned for: quoted runs, comments, versioned-comment markers. Only the
# string alternatives depend on NO_BACKSLASH_ESCAPES (whether a backslash escapes the next
# character); backtick identifiers and comments scan the same either way.
_SCAN_REST = (
    r"""|(?P<bq>`(?:[^`]|``)*(?:`|\Z))"""
    r"""|(?P<line>(?:\#|--(?=[ \t\r\n]|\Z))[^\n]*)"""
    r"""|(?P<vopen>/\*M?!\d*)"""
    r"""|(?P<block>/\*.*?(?:\*/|\Z))"""
    r"""|(?P<vclose>\*/)"""
)
_SCAN_BS = re.compile(
    r"""(?P<sq>'(?:[^'\\]|\\.|'')*(?:'|\Z))"""
    r"""|(?P<dq>"(?:[^"\\]|\\.|"")*(?:"|\Z))""" + _SCAN_REST,
    re.S,
)
_SCAN_NOBS = re.compile(
    r"""(?P<sq>'(?:[^']|'')*(?:'|\Z))"""
    r"""|(?P<dq>"(?:[^"]|"")*(?:"|\Z))""" + _SCAN_REST,
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
            # "/*!\C utf8mb4 */" (mysqlbinlog) holds a mysql client command, not SQL: a comment.
            if comment_applies(marker, options) and not sql.startswith("\\", m.end()):
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


# ------------------------------------------------------------------------------ fast tokenizer
#
# The Python ANTLR lexer walks its ATN one character at a time and costs about half of a warm
# parse (tools/bench_ddl.py). FastTokenizer produces the same tokens as MySqlLexer.g4 — same types,
# channels, start/stop offsets, lines and columns — with Python's C regex engine. It follows the
# grammar's rules exactly, including ANTLR's longest-match-then-first-rule choice between
# keywords, numbers, hex/bit literals, charset introducers and identifiers. Anything it does not
# model (NO-BREAK SPACE, which the grammar lets both WS and ID match) makes it decline, and the
# ANTLR lexer is used. tests/ddl/test_ddl_fast_lexer.py compares both on the whole corpus.

_WORD_CHARS = "A-Za-z0-9_$\u0080-\U0010ffff"
_FAST = re.compile(
    r"(?P<ws>[ \t\r\n\f\v]+)"
    r"|(?P<vcomment>/\*M?!.*?\*/)"
    r"|(?P<hint>/\*\+.*?\*/)"
    r"|(?P<block>/\*.*?\*/)"
    r"|(?P<line>\#[^\r\n]*|--[ \t][^\r\n]*|--[\r\n]|--\Z)"
    r"|(?P<nstring>[Nn]'(?:\\.|''|[^'\\])*')"
    r"|(?P<xhex>[Xx]'[0-9A-Fa-f]*')"
    r"|(?P<xbit>[Bb]'[01]*')"
    r"|(?P<string>'(?:\\.|''|[^'\\])*')"
    r"|(?P<dqstring>\"(?:\\.|\"\"|[^\"\\])*\")"
    r"|(?P<bq>`(?:[^`]|``)*`)"
    r"|(?P<real>[0-9]+\.[0-9]*(?:[Ee][+-]?[0-9]+)?|\.[0-9]+(?:[Ee][+-]?[0-9]+)?|[0-9]+[Ee][+-]?[0-9]+)"
    r"|(?P<word>[" + _WORD_CHARS + r"]+)"
    r"|(?P<global>@@(?:[A-Za-z0-9._$]+|`(?:[^`]|``)*`))"
    r"|(?P<at>@(?:[A-Za-z0-9._$\u0080-\uffff]+|'(?:\\.|''|[^'\\])*'|\"(?:\\.|\"\"|[^\"\\])*\"|`(?:[^`]|``)*`))"
    r"|(?P<nullesc>\\[Nn])"
    r"|(?P<op><=>|->>|:=|<>|!=|<=|>=|<<|>>|&&|\|\||->|[=<>+\-*/%&|^~!(){},.;:?])"
    r"|(?P<err>.)",
    re.S,
)
_WORD_RUN = re.compile("[" + _WORD_CHARS + "]+")
# The visible token kinds whose text can span lines (the hidden ones are whitespace and comments).
_MULTILINE = frozenset(("nstring", "string", "dqstring", "bq", "at", "global", "err"))
_HEX_NUM = re.compile(r"0[xX][0-9A-Fa-f]+\Z")
_BIT_NUM = re.compile(r"0[bB][01]+\Z")


class FastTokenizer:
    """Tokens for one statement, identical to MySqlLexer's, built with regular expressions."""

    def __init__(self, lexer_cls, parser_cls):
        self._CommonToken = CommonToken
        t = lexer_cls
        self.eof = -1
        self.simple = {
            "ws": (t.WS, 1), "vcomment": (t.VERSIONED_COMMENT, 1), "hint": (t.HINT_COMMENT, 1),
            "block": (t.BLOCK_COMMENT, 1), "line": (t.LINE_COMMENT, 1),
            "nstring": (t.NATIONAL_STRING, 0), "xhex": (t.HEX_LITERAL, 0), "xbit": (t.BIT_LITERAL, 0),
            "string": (t.STRING, 0), "dqstring": (t.DQ_STRING, 0), "bq": (t.BACKTICK_ID, 0),
            "global": (t.GLOBAL_ID, 0), "at": (t.AT_ID, 0), "nullesc": (t.NULL_ESCAPE, 0),
            "err": (t.ERROR_CHAR, 0),
        }
        self.real, self.decimal, self.ident = t.REAL_LITERAL, t.DECIMAL_LITERAL, t.ID
        self.hex, self.bit, self.charset = t.HEX_LITERAL, t.BIT_LITERAL, t.UNDERSCORE_CHARSET
        self.keywords: dict[str, int] = {}
        self.ops: dict[str, int] = {}
        for ttype, lit in enumerate(parser_cls.literalNames):
            if len(lit) >= 3 and lit[0] == "'" and lit[-1] == "'":
                text = lit[1:-1]
                if text[0].isalpha():
                    self.keywords[text.upper()] = ttype
                else:
                    self.ops[text] = ttype
        # alternatives of NE ('<>' | '!=') have no single literal name
        self.ops.setdefault("<>", t.NE)
        self.ops.setdefault("!=", t.NE)
        self.charsets = UNDERSCORE_CHARSETS

    def tokens(self, text: str, source, hidden: bool = True) -> list | None:
        """The token list (EOF last), or None when declining. ``hidden=False`` leaves out the
        hidden-channel tokens (whitespace, comments), which the parser never looks at."""
        if "\u00a0" in text:
            return None
        CommonToken = self._CommonToken
        new = object.__new__
        out = []
        pos = 0
        n = len(text)
        line = 1
        line_start = 0
        match = _FAST.match
        simple = self.simple
        keywords = self.keywords
        while pos < n:
            m = match(text, pos)
            kind = m.lastgroup
            end = m.end()
            channel = 0
            if kind == "word" or kind == "real":
                # a word's group is already the whole run of word characters; a real literal
                # yields to a longer run (1e5x is an identifier)
                if kind == "word":
                    run_end = end
                else:
                    run = _WORD_RUN.match(text, pos)
                    run_end = run.end() if run else pos
                if kind == "real" and end >= run_end:
                    ttype = self.real
                else:
                    end = run_end
                    word = text[pos:end]
                    if word.isdigit() and word.isascii():
                        ttype = self.decimal
                    elif word.isascii() and (kt := keywords.get(word.upper())) is not None:
                        ttype = kt
                    elif _HEX_NUM.match(word):
                        ttype = self.hex
                    elif _BIT_NUM.match(word):
                        ttype = self.bit
                    elif word[0] == "_" and word[1:].lower() in self.charsets:
                        ttype = self.charset
                    else:
                        ttype = self.ident  # also 1e5x: the identifier run outgrows the number
            elif kind == "op":
                ttype = self.ops[m.group()]
            else:
                ttype, channel = simple[kind]
            if hidden or not channel:
                # CommonToken's fields set once each (its __init__ sets most of them twice)
                tok = new(CommonToken)
                tok.source = source
                tok.type = ttype
                tok.channel = channel
                tok.start = pos
                tok.stop = end - 1
                tok.tokenIndex = len(out)
                tok.line = line
                tok.column = pos - line_start
                tok._text = None
                out.append(tok)
            if channel or kind in _MULTILINE:     # only these can hold a line break
                nl = text.count("\n", pos, end)
                if nl:
                    line += nl
                    line_start = text.rfind("\n", pos, end) + 1
            pos = end
        eof = CommonToken(source, self.eof, 0, n, n - 1)
        eof.line = line
        eof.column = n - line_start
        eof.tokenIndex = len(out)
        out.append(eof)
        return out


class TextSource:
    """The minimal input-stream face CommonToken needs to produce its text."""

    __slots__ = ("strdata", "size")

    def __init__(self, text: str):
        self.strdata = text
        self.size = len(text)

    def getText(self, start: int, stop: int) -> str:
        return self.strdata[start:stop + 1]


# The names of MySqlLexer's UNDERSCORE_CHARSET rule (a test checks they match the grammar).
UNDERSCORE_CHARSETS = frozenset("""
    armscii8 ascii big5 binary cp1250 cp1251 cp1256 cp1257 cp850 cp852 cp866 cp932 dec8 eucjpms
    euckr filename gb18030 gb2312 gbk geostd8 greek hebrew hp8 keybcs2 koi8r koi8u latin1 latin2
    latin5 latin7 macce macroman sjis swe7 tis620 ucs2 ujis utf16 utf16le utf32 utf8 utf8mb3 utf8mb4
""".split())
