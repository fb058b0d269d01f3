"""SET: the session variables that change how later DDL is read or applied."""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError
from ..model import charsets
from ..model.catalog import Catalog
from ..options import DEFAULT, Options
from .base import Command, _command, _option_value


@dataclasses.dataclass(frozen=True, slots=True)
class Assignment:
    """One ``name = value`` of a SET statement. ``name`` lower-case without ``@@``/scope
    (``names`` for SET NAMES, ``character set`` for SET CHARACTER SET); ``value`` the value text
    as written (quotes kept or not); ``scope`` session/global/persist; ``collation`` for
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
    NAMES / CHARACTER SET); others are recorded in ``session.variables``."""

    assignments: tuple[Assignment, ...]

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        s = catalog.session
        for a in self.assignments:
            n = a.name.lower().lstrip("@")
            for p in ("session.", "global.", "local.", "persist.", "persist_only."):
                if n.startswith(p):
                    n = n[len(p):]
            v = a.value
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
                              collation_connection=a.collation)
            else:
                s = s.replace(variables=tuple((k, x) for k, x in s.variables if k != n) + ((n, v),))
        return catalog.evolve(session=s)
