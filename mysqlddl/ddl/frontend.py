"""The one table of dialect front ends, ``{Dialect: Frontend}`` (STYLE.md point 5: dialects extend
tables, not code paths).

A :class:`Frontend` names what one grammar brings: its parse engine, its script splitter, its
statement classifier and its listener dispatcher (with the statement source the listeners read).
The dialect-neutral functions of :mod:`mysqlddl.ddl` look the options' dialect up in
:data:`FRONTENDS` and never branch on the dialect themselves. MySQL and MariaDB share one front
end (one grammar; their differences are the model's dialect rules and the lexing options).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING

from ..options import DEFAULT, Dialect, Options
from .parse_engine import ParseEngine, ParseResult
from .statement import Statement, StatementClass

if TYPE_CHECKING:
    from ..commands import Command


@dataclasses.dataclass(frozen=True, slots=True)
class Frontend:
    """One dialect's parsing pieces.

    ``engine_class``: the :class:`ParseEngine` subclass of its grammar;
    ``split_script(script, options, *, source, compound_bodies)``: its statement splitter;
    ``classify(sql, options)``: whether a statement may change the schema;
    ``listeners``: the module of its listener dispatcher, with ``build_commands(tree, source)``
    (a ``singleStatement`` tree in, commands out) and ``StatementSource`` (the ``source`` the
    listeners read, made from the statement text, options, statement index and input name). It
    is named, not imported, because the listeners bring the commands and the schema model
    (~0.15 s) that a syntax check (phase 1, ``mysqlddl parse``) never uses: :meth:`commands`
    imports it on first use."""

    name: str
    engine_class: type[ParseEngine]
    split_script: Callable[..., Iterator[Statement]]
    classify: Callable[[str, Options], StatementClass]
    listeners: str

    def engine(self, options: Options = DEFAULT) -> ParseEngine:
        """This thread's engine of the dialect (lexer and parser reused, DFA warm)."""
        return self.engine_class.for_this_thread(options)

    def commands(self, result: ParseResult, options: Options, statement_index: int | None,
                 source: str | None) -> list[Command]:
        """The commands of a cleanly parsed statement (phase 2: the listeners)."""
        listeners = _listeners(self.listeners)
        return listeners.build_commands(result.tree,
                                        listeners.StatementSource(result.text, options, statement_index, source))


_LISTENERS: dict[str, ModuleType] = {}


def _listeners(module: str) -> ModuleType:
    hit = _LISTENERS.get(module)
    if hit is None:
        hit = _LISTENERS[module] = importlib.import_module(module)
    return hit


# Dialect -> the module whose FRONTEND serves it. A front end is imported on first use: its
# generated parser and lexer take 0.1-0.3 s to import (ANTLR-NOTES.md) and a run reads one
# dialect, so a MySQL run never loads the Oracle grammar (and an Oracle run never needs MySQL's).
_MODULES: dict[Dialect, str] = {
    Dialect.MYSQL: "mysqlddl.ddl.mysql.frontend",
    Dialect.MARIADB: "mysqlddl.ddl.mysql.frontend",
    Dialect.ORACLE: "mysqlddl.ddl.oracle.frontend",
}


class _Frontends(Mapping):
    """``{Dialect: Frontend}``, each front end imported when first looked up."""

    __slots__ = ("_loaded",)

    def __init__(self):
        self._loaded: dict[Dialect, Frontend] = {}

    def __getitem__(self, dialect: Dialect | str) -> Frontend:
        try:
            return self._loaded[dialect]
        except KeyError:
            pass
        dialect = Dialect(dialect)
        fe = self._loaded[dialect] = importlib.import_module(_MODULES[dialect]).FRONTEND
        return fe

    def __iter__(self):
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)


FRONTENDS: Mapping[Dialect, Frontend] = _Frontends()


def frontend_for(options: Options = DEFAULT) -> Frontend:
    """The front end of ``options.dialect``."""
    return FRONTENDS[options.dialect]


__all__ = ["FRONTENDS", "Frontend", "frontend_for"]
