"""SET: the session variables that change how later DDL is read or applied, and the user
variables that save and restore them.

mysqldump and mariadb-dump (default options) save every variable they change in a user variable
and restore it at the end (``SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO'``
... ``SET SQL_MODE=@OLD_SQL_MODE``; ``SET @saved_cs_client = @@character_set_client`` around
each CREATE TABLE), so user variables are part of the session state (MySQL 8.4 manual 11.4
"User-Defined Variables"): ``SET @x = @@var`` stores the variable's current value, ``SET var =
@x`` restores it, and an unset ``@x`` is NULL, as on the server. A modelled variable refuses
NULL as the server does (ER_WRONG_VALUE_FOR_VAR, "Variable 'sql_mode' can't be set to the value
of 'NULL'"); variables the model does not use accept any value.
"""

from __future__ import annotations

import dataclasses
import re

from ..errors import DdlSemanticError
from ..model import charsets, literals
from ..model.catalog import Catalog, Session, Unevaluated
from ..options import DEFAULT, Options
from .base import Command, _command, _option_value

# The variables SetVariable applies to the session (the others are recorded in
# Session.variables): they cannot be NULL on the server either.
MODELLED = frozenset({
    "character_set_server", "character_set_database", "collation_server", "collation_database",
    "sql_mode", "explicit_defaults_for_timestamp", "foreign_key_checks", "default_storage_engine",
    "storage_engine"})
# What SET NAMES sets (manual 15.7.6.3 "SET NAMES Statement"), so an earlier plain SET of one of
# them no longer says its value.
_NAMES_SETS = ("character_set_client", "character_set_connection", "character_set_results",
               "collation_connection")
_SYSTEM_REF = re.compile(r"@@(?:(?:global|session|local)\.)?`?([A-Za-z0-9_$]+)`?", re.I)
_USER_REF = re.compile(r"""@(?:([A-Za-z0-9_$.]+)|`((?:[^`]|``)*)`|'((?:[^']|'')*)'|"((?:[^"]|"")*)")""")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def user_name(text: str) -> str:
    """A user variable's name as the session keys it: without ``@`` and quotes, lower case."""
    m = _USER_REF.fullmatch(text.strip()) if text.strip().startswith("@") else None
    if m is None:
        return text.strip().lstrip("@").lower()
    name = next(g for g in m.groups() if g is not None)
    q = {2: "`", 3: "'", 4: '"'}.get(next(i for i, g in enumerate(m.groups(), 1) if g is not None))
    return (name.replace(q * 2, q) if q else name).lower()


def current_value(name: str, s: Session, catalog: Catalog, options: Options) -> str | None:
    """``@@name`` in session ``s``: what the model knows of a system variable's value (None: NULL,
    for a variable the model neither sets nor was told)."""
    cat = catalog.evolve(session=s)
    recorded = dict(s.variables)
    if name == "sql_mode":
        return ",".join(sorted(cat.sql_mode(options)))
    if name == "explicit_defaults_for_timestamp":
        return "1" if cat.explicit_defaults_for_timestamp(options) else "0"
    if name == "foreign_key_checks":
        return "1" if s.foreign_key_checks else "0"
    if name in ("character_set_server", "character_set_database"):
        return cat.server_charset(options)[0]
    if name in ("collation_server", "collation_database"):
        return cat.server_charset(options)[1]
    if name in ("default_storage_engine", "storage_engine"):
        return cat.default_engine(options)
    if name in recorded:
        return recorded[name]
    if name in ("character_set_client", "character_set_connection", "character_set_results"):
        return s.character_set_client
    if name == "collation_connection":
        return s.collation_connection
    return None


def evaluate(text: str, s: Session, catalog: Catalog, options: Options) -> str | Unevaluated | None:
    """The value of a SET right-hand side: ``@@var``, ``@x``, NULL, a string literal (its
    content), a number or a bare word (as written); anything else is :class:`Unevaluated`."""
    t = text.strip()
    m = _SYSTEM_REF.fullmatch(t)
    if m:
        return current_value(m.group(1).lower(), s, catalog, options)
    if t.startswith("@") and _USER_REF.fullmatch(t):
        return dict(s.user_variables).get(user_name(t))
    if t.upper() == "NULL":
        return None
    v = literals.string_value(t)
    if v is not None:
        return v
    if _NUMBER.fullmatch(t) or _WORD.fullmatch(t):
        return t
    return Unevaluated(t)


def _is_reference(text: str) -> bool:
    return text.strip().startswith("@")


@dataclasses.dataclass(frozen=True, slots=True)
class Assignment:
    """One ``name = value`` of a SET statement. ``name`` lower-case without ``@@``/scope
    (``names`` for SET NAMES, ``character set`` for SET CHARACTER SET; a user variable's name
    without ``@``); ``value`` the value text as written (quotes kept or not); ``scope``
    session/global/persist, or ``user`` for ``SET @x = ...``; ``collation`` for
    SET NAMES cs COLLATE c."""

    name: str
    value: str
    scope: str = "session"
    collation: str | None = None


def _bool_value(v: str) -> bool:
    s = v.strip().strip("'\"").upper()
    if s in ("1", "ON", "TRUE"):
        return True
    if s in ("0", "OFF", "FALSE"):
        return False
    raise DdlSemanticError(f"Variable can't be set to the value of '{v}'")


def _default_or(v: str) -> str | None:
    s = _option_value(v).strip()
    return None if s.upper() == "DEFAULT" else s


@_command
class SetVariable(Command):
    """SET ...: the variables that change how later DDL resolves are applied to the session
    (character_set_server, collation_server, character_set_database/collation_database (applied
    to the server defaults, which is how CREATE DATABASE sees them in a replayed binlog),
    sql_mode, explicit_defaults_for_timestamp, foreign_key_checks, default_storage_engine,
    NAMES / CHARACTER SET); others are recorded in ``session.variables``; user variables in
    ``session.user_variables`` (see the module docstring). Assignments apply left to right, so
    ``SET @OLD=@@SQL_MODE, SQL_MODE='...'`` saves the mode before changing it."""

    assignments: tuple[Assignment, ...]

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        s = catalog.session
        for a in self.assignments:
            if a.scope == "user":
                k = user_name(a.name)
                value = evaluate(a.value, s, catalog, options)
                s = s.replace(user_variables=tuple((x, y) for x, y in s.user_variables if x != k) + ((k, value),))
                continue
            n = a.name.lower().lstrip("@")
            for p in ("session.", "global.", "local.", "persist.", "persist_only."):
                if n.startswith(p):
                    n = n[len(p):]
            v = a.value
            if _is_reference(v):  # SET var = @x / = @@other: the value it holds now
                value = evaluate(v, s, catalog, options)
                if isinstance(value, Unevaluated) and n in MODELLED:
                    raise DdlSemanticError(f"Variable '{n}' set from {v.strip()}, which holds an expression "
                                           f"the model does not evaluate: {value.text}")
                if value is None and n in MODELLED:
                    raise DdlSemanticError(f"Variable '{n}' can't be set to the value of 'NULL'")
                # (an unmodelled variable records the value text; NULL as the word)
                v = "NULL" if value is None else value.text if isinstance(value, Unevaluated) else value
            if n in ("character_set_server", "character_set_database"):
                s = s.replace(character_set_server=_default_or(v) and charsets.canonical_charset(_default_or(v)),
                              collation_server=None)
            elif n in ("collation_server", "collation_database"):
                cv = _default_or(v)
                s = s.replace(collation_server=cv and charsets.canonical_collation(cv),
                              character_set_server=cv and charsets.charset_of_collation(cv))
            elif n == "sql_mode":
                mv = _default_or(v)
                s = s.replace(sql_mode=None if mv is None else frozenset(
                    m.strip().upper() for m in mv.split(",") if m.strip()))
            elif n == "explicit_defaults_for_timestamp":
                s = s.replace(explicit_defaults_for_timestamp=None if _default_or(v) is None else _bool_value(v))
            elif n == "foreign_key_checks":
                s = s.replace(foreign_key_checks=True if _default_or(v) is None else _bool_value(v))
            elif n in ("default_storage_engine", "storage_engine"):
                s = s.replace(default_storage_engine=_default_or(v))
            elif n in ("names", "character set", "charset"):
                cs = _default_or(v)
                s = s.replace(character_set_client=cs and charsets.canonical_charset(cs),
                              collation_connection=a.collation,
                              variables=tuple((k, x) for k, x in s.variables if k not in _NAMES_SETS))
            else:
                s = s.replace(variables=tuple((k, x) for k, x in s.variables if k != n) + ((n, v),))
        return catalog.evolve(session=s)
