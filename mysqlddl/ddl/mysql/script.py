"""Split SQL scripts (mysqldump output, migration files, binlog-derived text) into statements.

Follows what the ``mysql`` command-line client does (MySQL 8.4 manual 6.5.1.2 "mysql Client
Commands" and 27.1 "Defining Stored Programs"):

- a statement ends at the current delimiter (``;`` unless changed) outside quotes and comments;
- ``DELIMITER xx`` at the start of a statement changes the delimiter (mysqldump writes
  ``DELIMITER ;;`` around triggers and routines); the command itself is not a statement;
- ``'...'``, ``"..."`` and backtick runs may contain the delimiter; ``\\`` escapes inside strings
  unless NO_BACKSLASH_ESCAPES is in force;
- ``# ...``, ``-- ...`` and ``/* ... */`` comments may contain the delimiter. Comments *between*
  statements are dropped; versioned comments ``/*!...*/`` are statement text (mysqldump's
  ``/*!40101 SET ... */;`` lines are statements).

``compound_bodies=True`` is a lenient mode the ``mysql`` client does not have: inside
``CREATE PROCEDURE/FUNCTION/TRIGGER/EVENT`` (and MariaDB's ``BEGIN NOT ATOMIC``) a ``;`` that is
inside a ``BEGIN ... END`` or ``CASE ... END`` block does not end the statement. It exists for
files written for whole-file parsers (test corpora) that define routines without ``DELIMITER``;
real dumps and binlog events never need it.

Every statement keeps its position in the script: 1-based ``line``, 0-based ``column`` and the
character ``offset`` of its first character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...errors import ScriptError
from ...options import DEFAULT, Options
from ..statement import LineIndex, Statement

_WS = re.compile(r"\s*")
_DELIMITER_CMD = re.compile(r"delimiter[ \t]+(\S+)[^\n]*(?:\n|\Z)", re.I)
# A plain comment between statements (not a versioned /*! or /*M! one, which is executable).
_LEADING_COMMENT = re.compile(r"(?:\#|--(?=[ \t\r\n]|\Z))[^\n]*|/\*(?!M?!).*?\*/", re.S)

_STRING_BS = r"""'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*\""""
_STRING_NOBS = r"""'(?:[^']|'')*'|"(?:[^"]|"")*\""""
_BACKTICK = r"""|`(?:[^`]|``)*`"""
_COMMENTS = r"""(?:\#|--(?=[ \t\r\n]|\Z))[^\n]*|/\*.*?\*/"""
_OPENERS = r"""|(?P<open>['"`]|/\*)"""

# Block words for compound_bodies: BEGIN/CASE open, END closes; END IF/WHILE/LOOP/REPEAT close
# blocks that were not counted (manual 15.6 "Compound Statement Syntax").
_BLOCK_WORDS = r"""|(?<![\w$@])(?P<word>begin|case|end(?:\s+(?P<endkind>if|while|loop|repeat|case))?)(?![\w$])"""
_ROUTINE_HEAD = re.compile(
    r"""(?:create|alter)\s+(?:or\s+replace\s+)?"""
    r"""(?:definer\s*=\s*(?:'[^']*'|`[^`]*`|"[^"]*"|[\w.]+)(?:\s*@\s*(?:'[^']*'|`[^`]*`|"[^"]*"|[\w.%-]+))?(?:\s*\(\s*\))?\s+)?"""
    r"""(?:aggregate\s+)?(?:procedure|function|trigger|event)\b|begin\s+not\s+atomic\b""",
    re.I,
)

_scanners: dict[tuple[str, bool, bool], re.Pattern] = {}


def _scanner(delimiter: str, nobs: bool, blocks: bool = False) -> re.Pattern:
    key = (delimiter, nobs, blocks)
    pat = _scanners.get(key)
    if pat is None:
        # Quoted runs first, then the delimiter (before comments: mysqlbinlog's DELIMITER /*!*/;
        # starts like a comment), then comments, then an opener that did not complete (an
        # unterminated quote or comment). The leftmost match wins; the order only breaks ties.
        pat = re.compile(
            "(?:" + (_STRING_NOBS if nobs else _STRING_BS) + _BACKTICK + ")"
            + "|(?P<delim>" + re.escape(delimiter) + ")"
            + "|(?:" + _COMMENTS + ")" + _OPENERS + (_BLOCK_WORDS if blocks else ""),
            re.S | (re.I if blocks else 0),
        )
        _scanners[key] = pat
    return pat


def split_script(script: str, options: Options = DEFAULT, *, source: str | None = None,
                 compound_bodies: bool = False) -> Iterator[Statement]:
    """Yield the statements of ``script`` in order. Raises :class:`ScriptError` for an unterminated
    quote or comment (with its position) and for a DELIMITER command without a delimiter."""
    lines = LineIndex(script)
    n = len(script)
    pos = 0
    delimiter = ";"
    index = 0
    nobs = options.no_backslash_escapes
    while pos < n:
        pos = _WS.match(script, pos).end()
        if pos >= n:
            break
        m = _DELIMITER_CMD.match(script, pos)
        if m:
            delimiter = m.group(1)
            pos = m.end()
            continue
        if script.startswith(("delimiter", "DELIMITER", "Delimiter"), pos) and \
                script[pos + 9:pos + 10] in ("", "\n", "\r"):
            line, col = lines.position(pos)
            raise ScriptError("DELIMITER command without a delimiter", line=line, column=col,
                              offset=pos, source=source)
        m = _LEADING_COMMENT.match(script, pos)
        if m:
            pos = m.end()
            continue
        start = pos
        blocks = compound_bodies and delimiter == ";" and _ROUTINE_HEAD.match(script, pos) is not None
        scan = _scanner(delimiter, nobs, blocks)
        depth = 0
        end = None
        while True:
            m = scan.search(script, pos)
            if m is None:
                break
            if blocks and m.group("word") is not None:
                kind = m.group("endkind")
                word = m.group("word")[:3].lower()
                if word == "beg" or (word == "cas" and not kind):
                    depth += 1
                elif kind is None or kind.lower() == "case":
                    depth = max(0, depth - 1)
                pos = m.end()
                continue
            if m.group("delim") is not None:
                if depth > 0:
                    pos = m.end()
                    continue
                end = m.start()
                pos = m.end()
                break
            if m.group("open") is not None:
                line, col = lines.position(m.start())
                what = "comment" if m.group("open") == "/*" else f"quote {m.group('open')}"
                raise ScriptError(f"unterminated {what}", line=line, column=col, offset=m.start(),
                                  statement=script[start:], statement_index=index, source=source)
            pos = m.end()
        if end is None:
            end = n
            pos = n
        text = script[start:end].rstrip()
        if text:
            line, col = lines.position(start)
            yield Statement(index, text, line, col, start, delimiter)
            index += 1
