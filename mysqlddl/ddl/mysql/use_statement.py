"""``useStatement`` -> :class:`~mysqlddl.commands.UseDatabase` (MySQL 8.4 manual 15.8.4 "USE")."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import UseDatabase
from .identifiers import name
from .source import StatementSource


def build(ctx: P.UseStatementContext, src: StatementSource) -> UseDatabase:
    return UseDatabase(name(ctx.identifier()))
