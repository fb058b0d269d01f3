"""``alterDatabase`` -> :class:`~mysqlddl.commands.AlterDatabase` (MySQL 8.4 manual 15.1.2).
The 5.x ``UPGRADE DATA DIRECTORY NAME`` form changes no schema and produces no command."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import AlterDatabase
from .create_database import database_options
from .identifiers import name
from .source import StatementSource


def build(ctx: P.AlterDatabaseContext, src: StatementSource) -> AlterDatabase | None:
    if ctx.UPGRADE() is not None:
        return None
    return AlterDatabase(name(ctx.identifier()), **database_options(ctx.databaseOption(), src))
