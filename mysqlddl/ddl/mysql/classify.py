"""A cheap statement classifier: can this statement change the schema model?

ARCHITECTURE.md "Key decisions", Parsing speed: only schema-changing statements need the full
parse in a lenient run; everything else keeps its full syntax check in strict mode. The
classifier reads the first keyword tokens of the statement — after the same lexing as the parser
(versioned comments opened per server version, ANSI_QUOTES, NO_BACKSLASH_ESCAPES) — and never
guesses from raw text with a regular expression (STYLE "avoid": regex pre-filters that silently
decide what is DDL).

SCHEMA: CREATE/ALTER/DROP of tables, databases/schemas, indexes, views and sequences; RENAME TABLE;
TRUNCATE; USE; SET (it may change sql_mode, the character set or the default collation; SET
STATEMENT ... FOR wraps any statement); MariaDB's BEGIN NOT ATOMIC blocks (they may hold DDL).
OTHER: everything else (DML, accounts, routines, triggers, events, transactions, administration).
EMPTY: only whitespace and comments (or versioned comments that do not apply).
"""

from __future__ import annotations

from antlr4 import CommonTokenStream, InputStream

from ..._generated.mysql.MySqlLexer import MySqlLexer as L
from ...options import DEFAULT, Options
from ..statement import StatementClass
from . import lexing
from .engine import fast_tokenizer

# Object words that decide what a CREATE/ALTER/DROP is about (the first one found wins).
_SCHEMA_OBJECTS = frozenset({L.TABLE, L.TABLES, L.DATABASE, L.SCHEMA, L.INDEX, L.VIEW, L.SEQUENCE})
_OTHER_OBJECTS = frozenset({
    L.PROCEDURE, L.FUNCTION, L.TRIGGER, L.EVENT, L.USER, L.ROLE, L.SERVER, L.TABLESPACE, L.LOGFILE,
    L.DEFINER,  # DEFINER = ... precedes both views and routines: keep looking past it
})
_DDL_VERBS = frozenset({L.CREATE, L.ALTER, L.DROP})
# How far past the verb the object word may be: CREATE OR REPLACE ALGORITHM = MERGE DEFINER =
# `u`@`h` SQL SECURITY INVOKER VIEW is the longest prefix the grammar allows.
_LOOKAHEAD = 16


def _leading_types(sql: str, options: Options) -> list[int]:
    prepared = lexing.prepare_text(sql, options)
    toks = fast_tokenizer().tokens(prepared, (None, lexing.TextSource(prepared)), hidden=False)
    if toks is None:  # text the fast tokenizer declines: the generated lexer decides
        stream = CommonTokenStream(L(InputStream(prepared)))
        stream.fill()
        toks = [t for t in stream.tokens if t.channel == 0]
    return [t.type for t in toks[:_LOOKAHEAD + 2] if t.type != -1]


def classify(sql: str, options: Options = DEFAULT) -> StatementClass:
    """Whether ``sql`` may change the schema model (see the module docstring)."""
    types = _leading_types(sql, options)
    if not types:
        return StatementClass.EMPTY
    first = types[0]
    if first in (L.USE, L.SET, L.TRUNCATE):
        return StatementClass.SCHEMA
    if first == L.BEGIN and len(types) > 1 and types[1] == L.NOT:
        return StatementClass.SCHEMA  # MariaDB BEGIN NOT ATOMIC ... END may hold any DDL
    if first == L.RENAME:
        return StatementClass.SCHEMA if len(types) > 1 and types[1] in (L.TABLE, L.TABLES) else StatementClass.OTHER
    if first in _DDL_VERBS:
        for t in types[1:_LOOKAHEAD + 1]:
            if t in _SCHEMA_OBJECTS:
                return StatementClass.SCHEMA
            if t in _OTHER_OBJECTS and t != L.DEFINER:
                return StatementClass.OTHER
        return StatementClass.OTHER
    return StatementClass.OTHER
