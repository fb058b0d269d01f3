"""Phase 2: SQL text in, schema-change commands (and catalogs) out, in any dialect.

::

    parse_ddl(sql, dialect="mysql", options=None) -> list[Command]
    iter_commands(sql, options) -> Iterator[StatementCommands]   (per statement, with positions)
    statement_commands(sql, options) -> list[Command]            (one statement, e.g. a binlog Query)
    run_script(catalog, sql, options) -> ApplyResult             (catalog + errors skipped)
    apply_script(catalog, sql, options) -> Catalog

Scripts are split with :func:`mysqlddl.ddl.split_script`; every statement is parsed on its own
(phase 1: all its syntax errors, positioned) and, when clean, walked by the listeners of its
dialect (phase 2: :mod:`mysqlddl.ddl.mysql`, :mod:`mysqlddl.ddl.oracle`, found through
:data:`~mysqlddl.ddl.frontend.FRONTENDS`). ``options.error_policy`` decides what a failing statement
does: RAISE (default) stops with its positioned error; COLLECT, WARN (one warning each) and SKIP
leave it out and go on (:func:`run_script` returns the errors).

``SET sql_mode`` statements change how the following statements are lexed (ANSI_QUOTES,
NO_BACKSLASH_ESCAPES), as they do on the server: the options used for parsing follow them. A value
the listener cannot know (``SET sql_mode = @OLD_SQL_MODE``, as mysqldump writes at the end of a
dump to restore the mode it saved at the start) restores the mode the script started with.
Statement splitting itself uses the starting sql_mode.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator

from ..commands import ApplyResult, Command, SetVariable
from ..errors import DdlError
from ..model import literals
from ..model.catalog import Catalog
from ..options import DEFAULT, Dialect, ErrorPolicy, Options
from .frontend import frontend_for
from .parse_engine import ParseEngine
from .statement import Statement

__all__ = ["StatementCommands", "apply_script", "iter_commands", "parse_ddl", "run_script",
           "statement_commands"]


@dataclasses.dataclass(frozen=True, slots=True)
class StatementCommands:
    """One statement of a script and what it produced: its ``commands`` (empty for a statement
    that changes no schema), or the ``error`` that stopped it (then ``commands`` is empty)."""

    statement: Statement
    commands: tuple[Command, ...] = ()
    error: DdlError | None = None


def statement_commands(sql: str, options: Options = DEFAULT, *, statement_index: int | None = None,
                       source: str | None = None, engine: ParseEngine | None = None) -> list[Command]:
    """The commands of one statement; raises :class:`~mysqlddl.errors.DdlSyntaxError` or a
    positioned :class:`~mysqlddl.errors.DdlError` from the listeners."""
    fe = frontend_for(options)
    result = (engine or fe.engine(options)).parse(sql, options, statement_index=statement_index, source=source)
    if result.errors:
        raise result.error()
    return fe.commands(result, options, statement_index, source)


def _follow_sql_mode(current: Options, start: Options, commands) -> Options:
    for cmd in commands:
        if not isinstance(cmd, SetVariable):
            continue
        for a in cmd.assignments:
            if a.name.lower() != "sql_mode" or a.scope not in ("session", "global"):
                continue
            text = a.value.strip()
            value = literals.string_value(text, current.no_backslash_escapes)
            if value is None:
                value = text if text.replace("_", "").replace(",", "").isalnum() else None
            if value is None or value.upper() == "DEFAULT":
                current = current.replace(sql_mode=start.sql_mode)
            else:
                current = current.replace(sql_mode=value)
    return current


def iter_commands(sql: str, options: Options = DEFAULT, *, source: str | None = None,
                  engine: ParseEngine | None = None) -> Iterator[StatementCommands]:
    """Each statement of ``sql`` with its commands, in order, under ``options.error_policy``
    (RAISE raises at the first failing statement; the other policies yield it with its error;
    WARN also warns)."""
    fe = frontend_for(options)
    eng = engine or fe.engine(options)
    opts = options
    policy = options.error_policy
    for stmt in fe.split_script(sql, options, source=source):
        try:
            cmds = statement_commands(stmt.text, opts, statement_index=stmt.index, source=source,
                                      engine=eng)
        except DdlError as e:
            e.script_line, e.script_column = stmt.line, stmt.column
            if policy is ErrorPolicy.RAISE:
                raise
            if policy is ErrorPolicy.WARN:
                warnings.warn(str(e), stacklevel=2)
            yield StatementCommands(stmt, (), e)
            continue
        opts = _follow_sql_mode(opts, options, cmds)
        yield StatementCommands(stmt, tuple(cmds))


def _options(dialect: str | Dialect | None, options: Options | None) -> Options:
    if options is None:
        return Options(dialect=dialect or Dialect.MYSQL)
    if dialect is not None and Dialect(dialect) is not Dialect.MYSQL and options.dialect is Dialect.MYSQL:
        return options.replace(dialect=dialect)
    return options


def parse_ddl(sql: str, dialect: str = "mysql", options: Options | None = None, *,
              source: str | None = None) -> list[Command]:
    """The commands of every statement of ``sql``, in order. Strict by default: the first
    statement that fails to parse or build raises its positioned error. ``options`` (when given)
    wins over ``dialect``, except that a non-default ``dialect`` fills in options left at MySQL."""
    opts = _options(dialect, options)
    out: list[Command] = []
    for sc in iter_commands(sql, opts, source=source):
        out.extend(sc.commands)
    return out


def _statement_error(e: DdlError, stmt: Statement, source: str | None) -> DdlError:
    if e.statement is None:
        e.statement = stmt.text
    if e.statement_index is None:
        e.statement_index = stmt.index
    if e.source is None:
        e.source = source
    if e.line is None:
        e.line, e.column, e.offset = 1, 0, 0
    e.script_line, e.script_column = stmt.line, stmt.column
    return e


def run_script(catalog: Catalog, sql: str, options: Options = DEFAULT, *,
               source: str | None = None) -> ApplyResult:
    """Parse ``sql`` and apply it to ``catalog`` statement by statement, lexing under the
    catalog's session sql_mode to start with. A statement's commands apply all or nothing.
    Under RAISE the first failure raises (positioned in its statement); otherwise failing
    statements are left out and returned as ``errors``."""
    errors: list[DdlError] = []
    policy = options.error_policy
    # Lexing starts under the catalog's session sql_mode (a SET sql_mode applied earlier counts).
    parse_options = options.replace(sql_mode=catalog.sql_mode(options))
    for sc in iter_commands(sql, parse_options, source=source):
        if sc.error is not None:
            errors.append(sc.error)
            continue
        cat = catalog
        try:
            for cmd in sc.commands:
                cat = cmd.apply(cat, options)
        except DdlError as e:
            e = _statement_error(e, sc.statement, source)
            if policy is ErrorPolicy.RAISE:
                raise e from None
            if policy is ErrorPolicy.WARN:
                warnings.warn(str(e), stacklevel=2)
            errors.append(e)
            continue
        catalog = cat
    return ApplyResult(catalog, tuple(errors))


def apply_script(catalog: Catalog, sql: str, options: Options = DEFAULT, *,
                 source: str | None = None) -> Catalog:
    """The catalog after applying every statement of ``sql`` (see :func:`run_script`)."""
    return run_script(catalog, sql, options, source=source).catalog
