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
import json
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import ConfigError, ScriptError
from ..options import DEFAULT, Dialect, ErrorPolicy, Options
from .engine import Engine, ParseResult
from .script import Statement, split_script

__all__ = [
    "Engine", "ParseResult", "ParsedStatement", "Statement", "check_inputs", "default_engine", "format_rejection",
    "iter_statements", "parse_statement", "split_script",
]

_local = threading.local()


def default_engine(options: Options = DEFAULT) -> Engine:
    """This thread's engine (created on first use); the Oracle dialect has its own grammar and
    engine (:class:`mysqlddl.ddl.oracle.OracleEngine`, same interface)."""
    if options.dialect is Dialect.ORACLE:
        eng = getattr(_local, "oracle_engine", None)
        if eng is None:
            from .oracle.engine import OracleEngine
            eng = _local.oracle_engine = OracleEngine(options)
        return eng
    eng = getattr(_local, "engine", None)
    if eng is None:
        eng = _local.engine = Engine(options)
    return eng


def script_splitter(options: Options = DEFAULT) -> Callable[..., Iterator[Statement]]:
    """The statement splitter of the options' dialect (Oracle: SQL*Plus rules, ``/`` lines and
    PL/SQL units, :func:`mysqlddl.ddl.oracle.script.split_script`)."""
    if options.dialect is Dialect.ORACLE:
        from .oracle.script import split_script as oracle_split_script
        return oracle_split_script
    return split_script


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


def parse_statement(sql: str, options: Options = DEFAULT, *, engine: Engine | None = None):
    """Parse one statement; return its ``singleStatement`` tree or raise :class:`DdlSyntaxError`."""
    result = (engine or default_engine(options)).parse(sql, options)
    if result.errors:
        raise result.error()
    return result.tree


def iter_statements(script: str, options: Options = DEFAULT, *, source: str | None = None,
                    engine: Engine | None = None, lenient: bool = False) -> Iterator[ParsedStatement]:
    """Split ``script`` and parse every statement, applying ``options.error_policy``:
    RAISE stops at the first invalid statement; COLLECT yields it with its errors; WARN also
    issues a warning; SKIP leaves it out. ``lenient=True`` parses only the statements that can
    change the schema (:mod:`mysqlddl.ddl.classify`) and yields the others unparsed
    (``skimmed``); the default, strict, syntax-checks every statement."""
    from .classify import StatementClass, classify

    eng = engine or default_engine(options)
    policy = options.error_policy
    if options.dialect is Dialect.ORACLE:
        from .oracle.classify import classify
    for stmt in script_splitter(options)(script, options, source=source):
        if lenient and classify(stmt.text, options) is not StatementClass.SCHEMA:
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



def _scripts_of(path: Path) -> Iterator[tuple[int | None, str | ConfigError]]:
    """(row number or None, script) for a .sql file or a .jsonl file with a "sql" field per row; a
    row that is not such an object comes as its error, so the rows after it are still checked."""
    if path.suffix == ".jsonl":
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as e:
                    yield n, ConfigError(f"not a JSON object ({e})")
                    continue
                if not isinstance(row, dict) or not isinstance(row.get("sql"), str):
                    yield n, ConfigError("row has no string field \"sql\"")
                    continue
                yield n, row["sql"]
    else:
        yield None, path.read_text(encoding="utf-8", errors="replace")


def check_inputs(paths: Iterable[str | Path], options: Options = DEFAULT, *, compound_bodies: bool = False,
                 on_rejection: Callable[[dict], None] | None = None, engine: Engine | None = None) -> dict:
    """Syntax-check every statement of every input (``.sql`` script or ``.jsonl`` rows with a
    ``"sql"`` script) and return the summary: ``total``, ``accepted``, ``rejected``, ``fallbacks``
    and ``rejections`` (one dict per rejected statement with input, row, statement_index (0-based),
    line/column in its script, token, expected, message and the statement text).
    ``on_rejection`` is called with each rejection as it is found."""
    eng = engine or (default_engine(options) if options.dialect is Dialect.ORACLE else Engine(options))
    total = accepted = 0
    rejections: list[dict] = []

    def reject(rec: dict) -> None:
        rejections.append(rec)
        if on_rejection is not None:
            on_rejection(rec)

    before = eng.fallbacks
    for p in paths:
        path = Path(p)
        for row, script in _scripts_of(path):
            if isinstance(script, ConfigError):
                total += 1
                reject({"input": str(path), "row": row, "statement_index": None, "line": 1, "column": 0,
                        "token": None, "expected": None, "message": str(script), "errors": 1, "sql": None})
                continue
            try:
                for stmt in script_splitter(options)(script, options, source=str(path),
                                                     compound_bodies=compound_bodies):
                    total += 1
                    res = eng.parse(stmt.text, options, statement_index=stmt.index, source=str(path))
                    if res.ok:
                        accepted += 1
                        continue
                    err = res.errors[0]
                    line = stmt.line + (err.line or 1) - 1
                    col = (err.column or 0) + (stmt.column if (err.line or 1) == 1 else 0)
                    reject({"input": str(path), "row": row, "statement_index": stmt.index, "line": line,
                            "column": col, "token": err.token, "expected": err.expected,
                            "message": err.message, "errors": len(res.errors), "sql": stmt.text})
            except ScriptError as e:
                total += 1
                reject({"input": str(path), "row": row, "statement_index": e.statement_index, "line": e.line,
                        "column": e.column, "token": None, "expected": None, "message": e.message,
                        "errors": 1, "sql": e.statement})
    return {"total": total, "accepted": accepted, "rejected": len(rejections),
            "fallbacks": eng.fallbacks - before, "rejections": rejections}


def format_rejection(rec: dict) -> str:
    """One line per rejection: where, the offending token and what was expected."""
    where = rec["input"] + (f":row {rec['row']}" if rec.get("row") is not None else "")
    idx = rec.get("statement_index")
    stmt = f"statement {idx + 1}" if idx is not None else "script"
    return f"{where}: {stmt}: line {rec['line']}:{rec['column']}: {rec['message']}"
