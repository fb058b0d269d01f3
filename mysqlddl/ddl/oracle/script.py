"""Split Oracle scripts (SQL*Plus files, OLR/LogMiner DDL text) into statements.

Follows SQL*Plus (SQL*Plus User's Guide, "Entering and Executing Commands"):

- a SQL statement ends at ``;`` outside quotes and comments, or at a line holding only ``/``
  (which runs the buffer);
- a PL/SQL unit (an anonymous block starting with DECLARE or BEGIN, or CREATE [OR REPLACE]
  [EDITIONABLE|NONEDITIONABLE] FUNCTION / PROCEDURE / PACKAGE [BODY] / TRIGGER / TYPE [BODY] /
  LIBRARY / JAVA) holds ``;`` inside and ends only at a ``/`` line (or at the end of the text);
- SQL*Plus commands (REM, PROMPT, SET SERVEROUTPUT..., SPOOL, @file, ...) end at the end of
  their line; they are not SQL and are not yielded;
- ``'...'`` (``''`` inside), ``q'[...]'`` and ``"..."`` may hold ``;`` and newlines; ``--`` and
  ``/* */`` comments too.

Every statement keeps its position (1-based ``line``, 0-based ``column``, character ``offset``)
and comes without its terminator.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...options import DEFAULT, Options
from ..statement import LineIndex, Statement

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<line>--[^\n]*)
  | (?P<block>/\*.*?(?:\*/|\Z))
  | (?P<q>[nN]?[qQ]'(?:\[.*?\]|\{.*?\}|\(.*?\)|<.*?>|(?P<d>[^\s\[{(<]).*?(?P=d))(?:'|\Z))
  | (?P<str>[nN]?'(?:[^']|'')*(?:'|\Z))
  | (?P<qid>"[^"]*(?:"|\Z))
  | (?P<word>[A-Za-z_][\w$#]*)
  | (?P<semi>;)
  | (?P<other>.)
""", re.S | re.X)

_SLASH_LINE = re.compile(r"[ \t]*/[ \t]*(?:\r?\n|\Z)")
_PLSQL_OBJECTS = {"FUNCTION", "PROCEDURE", "PACKAGE", "TRIGGER", "TYPE", "LIBRARY", "JAVA"}
_CREATE_SKIP = {"OR", "REPLACE", "EDITIONABLE", "NONEDITIONABLE", "EDITIONING", "AND", "COMPILE",
                "RESOLVE", "NOFORCE", "FORCE", "SHARING", "=", "METADATA", "NONE"}
# SQL*Plus commands (SQL*Plus User's Guide, "SQL*Plus Command Reference"); SET and COLUMN only
# when not SQL (SET TRANSACTION/ROLE/CONSTRAINT[S]).
_SQLPLUS = {"REM", "REMARK", "PROMPT", "SPOOL", "EXIT", "QUIT", "WHENEVER", "DEFINE", "UNDEFINE",
            "PAUSE", "ACCEPT", "HOST", "SHOW", "DESC", "DESCRIBE", "VARIABLE", "VAR", "PRINT",
            "TTITLE", "BTITLE", "BREAK", "COMPUTE", "CLEAR", "COLUMN", "COL", "CONNECT", "CONN",
            "DISCONNECT", "STARTUP", "SHUTDOWN", "RUN", "EXECUTE", "EXEC", "PASSWORD", "ARCHIVE",
            "RECOVER", "SET", "START", "TIMING", "STORE", "GET", "SAVE", "EDIT", "LIST",
            "INPUT", "APPEND", "CHANGE", "DEL", "SPO", "PRO", "XQUERY", "ATTRIBUTE", "REPHEADER",
            "REPFOOTER", "COPY"}
_SQL_SET = {"TRANSACTION", "ROLE", "CONSTRAINT", "CONSTRAINTS"}


def _at_line_start(text: str, pos: int) -> bool:
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] == "\n"


def split_script(script: str, options: Options = DEFAULT, *, source: str | None = None,
                 compound_bodies: bool = False) -> Iterator[Statement]:
    """The statements of ``script`` in order (``options``, ``source`` and ``compound_bodies`` are
    accepted for the MySQL splitter's signature; Oracle splitting needs none of them)."""
    lines = LineIndex(script)
    n = len(script)
    pos = 0
    index = 0
    while pos < n:
        # skip blanks, comments and stray terminators between statements
        m = _TOKEN.match(script, pos)
        kind = m.lastgroup
        if kind in ("ws", "line", "block", "semi"):
            pos = m.end()
            continue
        if script[pos] == "/" and _at_line_start(script, pos) and _SLASH_LINE.match(script, pos):
            pos = _SLASH_LINE.match(script, pos).end()
            continue
        start = pos
        words: list[str] = []
        plsql = None  # None: undecided; True/False once the leading words tell
        end = None
        stop = None
        first = True
        while pos < n:
            if script[pos] == "/" and _at_line_start(script, pos):
                sm = _SLASH_LINE.match(script, pos)
                if sm:
                    end, stop = pos, sm.end()
                    break
            m = _TOKEN.match(script, pos)
            kind = m.lastgroup
            if kind == "word" and plsql is None:
                w = m.group().upper()
                words.append(w)
                if first and w in _SQLPLUS and (w != "SET" or _set_is_sqlplus(script, m.end())):
                    eol = script.find("\n", pos)
                    stop = n if eol < 0 else eol + 1
                    end = None  # a SQL*Plus command: not yielded
                    break
                first = False
                plsql = _is_plsql(words)
            elif kind == "other" and first and m.group() == "@":
                eol = script.find("\n", pos)
                stop = n if eol < 0 else eol + 1
                end = None
                break
            elif kind not in ("ws", "line", "block"):
                first = False
                if plsql is None and words:
                    plsql = _is_plsql(words, final=True)
            if kind == "semi" and not plsql:
                end, stop = pos, m.end()
                break
            pos = m.end()
        else:
            end, stop = n, n
        if end is None:
            pos = stop
            continue
        text = script[start:end].rstrip()
        pos = stop
        if text.strip():
            line, col = lines.position(start)
            delim = script[end:end + 1] if end < n else ""
            yield Statement(index, text, line, col, start, delim)
            index += 1


def _set_is_sqlplus(script: str, after: int) -> bool:
    m = re.compile(r"\s*([A-Za-z]+)").match(script, after)
    return not (m and m.group(1).upper() in _SQL_SET)


def _is_plsql(words: list[str], final: bool = False) -> bool | None:
    """True when the leading words open a PL/SQL unit, False when they cannot, None when more
    words are needed."""
    w0 = words[0]
    if w0 in ("DECLARE", "BEGIN"):
        return True
    if w0 != "CREATE":
        return False
    for w in words[1:]:
        if w in _PLSQL_OBJECTS:
            return True
        if w not in _CREATE_SKIP:
            return False
    return False if final else None
