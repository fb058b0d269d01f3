"""DDL parsing: scripts -> statements -> parse trees (phase 1 of the two-phase design).

Public API::

    parse_statement(sql, options=DEFAULT) -> MySqlParser.SingleStatementContext
        raises DdlSyntaxError (with .errors holding every error of the statement)
    iter_statements(script, options=DEFAULT, source=None) -> Iterator[ParsedStatement]
        splits a script and parses each statement; Options.error_policy decides what happens
        to a statement with syntax errors (raise / collect / warn / skip)
    split_script(script, options) -> Iterator[Statement]     (no parsing)

One :class:`Engine` per thread is kept by :func:`default_engine`, so the lexer and parser are
reused and the prediction DFA stays warm.
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from collections.abc import Iterator

from ..options import DEFAULT, ErrorPolicy, Options
from .engine import Engine, ParseResult
from .script import Statement, split_script

__all__ = [
    "Engine", "ParseResult", "ParsedStatement", "Statement", "default_engine", "iter_statements",
    "parse_statement", "split_script",
]

_local = threading.local()


def default_engine(options: Options = DEFAULT) -> Engine:
    """This thread's engine (created on first use)."""
    eng = getattr(_local, "engine", None)
    if eng is None:
        eng = _local.engine = Engine(options)
    return eng


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedStatement:
    """A statement of a script with its parse outcome. ``result.tree`` is None when
    ``result.errors`` is not empty."""

    statement: Statement
    result: ParseResult

    @property
    def ok(self) -> bool:
        return self.result.ok


def parse_statement(sql: str, options: Options = DEFAULT, *, engine: Engine | None = None):
    """Parse one statement; return its ``singleStatement`` tree or raise :class:`DdlSyntaxError`."""
    result = (engine or default_engine(options)).parse(sql, options)
    if result.errors:
        raise result.error()
    return result.tree


def iter_statements(script: str, options: Options = DEFAULT, *, source: str | None = None,
                    engine: Engine | None = None) -> Iterator[ParsedStatement]:
    """Split ``script`` and parse every statement, applying ``options.error_policy``:
    RAISE stops at the first invalid statement; COLLECT yields it with its errors; WARN also
    issues a warning; SKIP leaves it out."""
    eng = engine or default_engine(options)
    policy = options.error_policy
    for stmt in split_script(script, options, source=source):
        result = eng.parse(stmt.text, options, statement_index=stmt.index, source=source)
        if result.errors:
            if policy is ErrorPolicy.RAISE:
                raise result.error()
            if policy is ErrorPolicy.SKIP:
                continue
            if policy is ErrorPolicy.WARN:
                warnings.warn(str(result.errors[0]), stacklevel=2)
        yield ParsedStatement(stmt, result)

