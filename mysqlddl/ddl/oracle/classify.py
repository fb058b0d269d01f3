"""A cheap Oracle statement classifier: can this statement change the schema model?

Reads the statement's first tokens with the Oracle lexer (never a regular expression over raw
text, STYLE "avoid"): SCHEMA for CREATE [GLOBAL TEMPORARY|PRIVATE TEMPORARY|SHARDED|DUPLICATED|
IMMUTABLE|BLOCKCHAIN] TABLE, ALTER TABLE, DROP TABLE, TRUNCATE TABLE and COMMENT ON; EMPTY for
whitespace and comments only; OTHER for everything else (indexes, sequences, views, grants,
DML, PL/SQL, ...), which the grammar recognises and the listeners skip. Lenient runs
(``iter_statements(..., lenient=True)``) parse only SCHEMA statements.
"""

from __future__ import annotations

from ..._generated.oracle.OracleLexer import OracleLexer as L
from ...options import Options
from ..statement import StatementClass
from .engine import OracleEngine

_TABLE_KINDS = frozenset({L.GLOBAL, L.TEMPORARY, L.PRIVATE, L.SHARDED, L.DUPLICATED, L.IMMUTABLE, L.BLOCKCHAIN})
_VERBS = frozenset({L.ALTER, L.DROP, L.TRUNCATE})


_ORACLE = Options(dialect="oracle")


def _engine(engine) -> OracleEngine:
    if engine is None or isinstance(engine, Options):
        return OracleEngine.for_this_thread(_ORACLE)
    return engine


def table_ddl_kind(text: str, engine=None) -> str | None:
    """"CREATE TABLE", "ALTER TABLE", "DROP TABLE", "TRUNCATE TABLE", "COMMENT ON" or None.
    ``engine``: the OracleEngine whose lexer to use (default: this thread's)."""
    toks = _engine(engine).tokenize(text, hidden=False).tokens[:10]
    types = [t.type for t in toks]
    if types and types[0] == L.CREATE:
        i = 1
        while i < len(types) and types[i] in _TABLE_KINDS:
            i += 1
        return "CREATE TABLE" if i < len(types) and types[i] == L.TABLE else None
    if len(types) > 1 and types[0] in _VERBS and types[1] == L.TABLE:
        return toks[0].text.upper() + " TABLE"
    if len(types) > 1 and types[0] == L.COMMENT and types[1] == L.ON:
        return "COMMENT ON"
    return None


def classify(text: str, options_or_engine=None) -> StatementClass:
    """The statement's class; the second argument may be Options (as for the MySQL classifier)
    or an OracleEngine."""
    engine = _engine(options_or_engine)
    if table_ddl_kind(text, engine) is not None:
        return StatementClass.SCHEMA
    toks = engine.tokenize(text, hidden=False).tokens
    return StatementClass.EMPTY if len(toks) <= 1 else StatementClass.OTHER
