"""``dropDatabase`` -> :class:`~mysqlddl.commands.DropDatabase` (MySQL 8.4 manual 15.1.24)."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import DropDatabase
from .identifiers import name
from .source import StatementSource


def build(ctx: P.DropDatabaseContext, src: StatementSource) -> DropDatabase:
    return DropDatabase(name(ctx.identifier()), if_exists=ctx.ifExists() is not None)
