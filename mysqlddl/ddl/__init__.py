"""DDL text in, parse trees and schema-change commands out: the one front door of the DDL layer.

Phase 1, parse trees (:mod:`.parse`, :mod:`.check`)::

    parse_statement(sql, options=DEFAULT) -> singleStatement tree
        raises DdlSyntaxError (with .errors holding every error of the statement)
    iter_statements(script, options=DEFAULT, source=None) -> Iterator[ParsedStatement]
        splits a script and parses each statement; Options.error_policy decides what happens
        to a statement with syntax errors (raise / collect / warn / skip)
    split_script(script, options) -> Iterator[Statement]     (no parsing)
    classify(sql, options) -> StatementClass                 (may it change the schema?)
    check_inputs(paths, options) -> summary dict; format_rejection(record) -> str

Phase 2, commands and catalogs (:mod:`.apply`)::

    parse_ddl(sql, dialect="mysql", options=None) -> list[Command]
    iter_commands(sql, options) -> Iterator[StatementCommands]
    statement_commands(sql, options) -> list[Command]
    run_script(catalog, sql, options) -> ApplyResult;  apply_script(...) -> Catalog

Every function serves every dialect: the options' dialect picks its :class:`Frontend` (engine,
splitter, classifier, listeners) from :data:`FRONTENDS`. One engine per thread and dialect is
kept by :func:`default_engine`, so the lexer and parser are reused and the prediction DFA stays
warm. :class:`Engine` is the MySQL/MariaDB engine; the dialect packages :mod:`.mysql` and
:mod:`.oracle` hold the listeners.
"""

from __future__ import annotations

from .check import check_inputs, format_rejection
from .frontend import FRONTENDS, Frontend, frontend_for
from .mysql.engine import Engine
from .parse import ParsedStatement, classify, default_engine, iter_statements, parse_statement, split_script
from .parse_engine import ParseEngine, ParseResult
from .statement import Statement, StatementClass

__all__ = [
    "FRONTENDS", "Engine", "Frontend", "ParseEngine", "ParseResult", "ParsedStatement", "Statement",
    "StatementClass", "StatementCommands", "apply_script", "check_inputs", "classify", "default_engine",
    "format_rejection", "frontend_for", "iter_commands", "iter_statements", "parse_ddl", "parse_statement",
    "run_script", "split_script", "statement_commands",
]

# Phase 2 (:mod:`.apply`) loads on first use of one of its names (PEP 562): it brings the commands,
# the schema model and the listeners (~0.15 s), which a syntax check (phase 1: ``mysqlddl parse``,
# ``check_inputs``) never uses.
_PHASE_2 = frozenset({"StatementCommands", "apply_script", "iter_commands", "parse_ddl", "run_script",
                      "statement_commands"})


def __getattr__(name: str):
    if name in _PHASE_2:
        from . import apply  # lazy: phase 2, see above
        return getattr(apply, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
