"""Phase 1 of the two-phase design: scripts -> statements -> parse trees, in any dialect.

Every function here looks the options' dialect up in :data:`~mysqlddl.ddl.frontend.FRONTENDS`
(its engine, splitter and classifier) and is otherwise the same for every dialect.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator

from ..options import DEFAULT, ErrorPolicy, Options
from .frontend import frontend_for
from .parse_engine import ParseEngine, ParseResult
from .statement import Statement, StatementClass


def default_engine(options: Options = DEFAULT) -> ParseEngine:
    """This thread's engine of the options' dialect (created on first use), so the lexer and
    parser are reused and the prediction DFA stays warm. MySQL and MariaDB get a
    :class:`mysqlddl.ddl.mysql.engine.Engine`, Oracle a
    :class:`mysqlddl.ddl.oracle.engine.OracleEngine` (same interface)."""
    return frontend_for(options).engine(options)


def split_script(script: str, options: Options = DEFAULT, *, source: str | None = None,
                 compound_bodies: bool = False) -> Iterator[Statement]:
    """The statements of ``script`` (no parsing), split by the rules of the options' dialect:
    the ``mysql`` client's for MySQL/MariaDB (:mod:`mysqlddl.ddl.mysql.script`), SQL*Plus's for
    Oracle (:mod:`mysqlddl.ddl.oracle.script`). Raises :class:`~mysqlddl.errors.ScriptError`."""
    return frontend_for(options).split_script(script, options, source=source, compound_bodies=compound_bodies)


def classify(sql: str, options: Options = DEFAULT) -> StatementClass:
    """Whether one statement may change the schema model, read from its first tokens by the
    dialect's lexer (never by a regular expression over raw text): SCHEMA, OTHER or EMPTY
    (:mod:`mysqlddl.ddl.mysql.classify`, :mod:`mysqlddl.ddl.oracle.classify`)."""
    return frontend_for(options).classify(sql, options)


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedStatement:
    """A statement of a script with its parse outcome. ``result.tree`` is None when
    ``result.errors`` is not empty; ``result`` itself is None when a lenient run skimmed the
    statement (the classifier found it cannot change the schema, so it was not parsed)."""

    statement: Statement
    result: ParseResult | None

    @property
    def ok(self) -> bool:
        return self.result is None or self.result.ok

    @property
    def skimmed(self) -> bool:
        return self.result is None


def parse_statement(sql: str, options: Options = DEFAULT, *, engine: ParseEngine | None = None):
    """Parse one statement; return its ``singleStatement`` tree or raise :class:`DdlSyntaxError`
    (with ``.errors`` holding every error of the statement)."""
    result = (engine or default_engine(options)).parse(sql, options)
    if result.errors:
        raise result.error()
    return result.tree


def iter_statements(script: str, options: Options = DEFAULT, *, source: str | None = None,
                    engine: ParseEngine | None = None, lenient: bool = False) -> Iterator[ParsedStatement]:
    """Split ``script`` and parse every statement, applying ``options.error_policy``:
    RAISE stops at the first invalid statement; COLLECT yields it with its errors; WARN also
    issues a warning; SKIP leaves it out. ``lenient=True`` parses only the statements that can
    change the schema (:func:`classify`) and yields the others unparsed (``skimmed``); the
    default, strict, syntax-checks every statement."""
    fe = frontend_for(options)
    eng = engine or fe.engine(options)
    policy = options.error_policy
    for stmt in fe.split_script(script, options, source=source):
        if lenient and fe.classify(stmt.text, options) is not StatementClass.SCHEMA:
            yield ParsedStatement(stmt, None)
            continue
        result = eng.parse(stmt.text, options, statement_index=stmt.index, source=source)
        if result.errors:
            if policy is ErrorPolicy.RAISE:
                raise result.error()
            if policy is ErrorPolicy.SKIP:
                continue
            if policy is ErrorPolicy.WARN:
                warnings.warn(str(result.errors[0]), stacklevel=2)
        yield ParsedStatement(stmt, result)


__all__ = ["ParsedStatement", "classify", "default_engine", "iter_statements", "parse_statement", "split_script"]
