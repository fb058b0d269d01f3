"""``setStatement`` -> :class:`~mysqlddl.commands.SetVariable` (MySQL 8.4 manual 15.7.6.1
"SET Syntax for Variable Assignment", 15.7.6.2 "SET CHARACTER SET", 15.7.6.3 "SET NAMES").

System variables become assignments (the model applies those that change how later DDL resolves
and records the rest); user variables (``SET @x = ...``) become assignments of scope ``user``
(mysqldump saves variables in them and restores from them: ``SET SQL_MODE=@OLD_SQL_MODE``);
``SET TRANSACTION`` changes no schema and produces nothing. ``SET STATEMENT ... FOR stmt``
(MariaDB) is handled by the dispatcher, which builds the inner statement.
"""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import Assignment, SetVariable
from ...commands.variables import user_name
from .identifiers import charset_name, unquote
from .source import StatementSource

_SCOPES = {"global": "global", "session": "session", "local": "session", "persist": "persist",
           "persist_only": "persist"}


def _system_name(text: str) -> tuple[str, str]:
    """(scope, name) of ``@@[scope.]name`` or ``[scope] name``."""
    n = text[2:] if text.startswith("@@") else text
    head, dot, rest = n.partition(".")
    if dot and head.lower() in _SCOPES:
        return _SCOPES[head.lower()], unquote(rest).lower()
    return "session", unquote(n).lower()


def assignment(a: P.SetAssignmentContext, src: StatementSource) -> Assignment | None:
    if a.AT_ID() is not None:  # a user variable: name without @ (quotes removed), value as written
        return Assignment(user_name(a.AT_ID().getText()), src.text_of(a.expression()), "user")
    if a.NAMES() is not None:
        coll = a.collationName()
        return Assignment("names", charset_name(a.charsetName(), src),
                          collation=charset_name(coll, src) if coll is not None else None)
    if a.charsetName() is not None:  # SET CHARACTER SET cs / SET CHARSET cs
        return Assignment("character set", charset_name(a.charsetName(), src))
    value = src.text_of(a.setValue())
    if a.GLOBAL_ID() is not None:
        scope, n = _system_name(a.GLOBAL_ID().getText())
        return Assignment(n, value, scope)
    scope = "session"
    first = a.getChild(0)
    if not isinstance(first, P.QualifiedNameContext):
        scope = _SCOPES[first.getText().lower()]
    n = ".".join(unquote(i.getText()) for i in a.qualifiedName().identifier()).lower()
    return Assignment(n, value, scope)


def build(ctx: P.SetVariablesContext, src: StatementSource) -> SetVariable | None:
    items = [x for x in (assignment(a, src) for a in ctx.setAssignment()) if x is not None]
    return SetVariable(tuple(items)) if items else None
