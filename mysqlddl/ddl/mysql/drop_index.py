"""``dropIndex`` -> :class:`~mysqlddl.commands.DropIndex` (MySQL 8.4 manual 15.1.27
"DROP INDEX"; ``DROP INDEX `PRIMARY` ON t`` drops the primary key)."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import DropIndex
from .identifiers import name, table_id
from .source import StatementSource


def build(ctx: P.DropIndexContext, src: StatementSource) -> DropIndex:
    return DropIndex(table_id(ctx.tableName()), name(ctx.indexName()), if_exists=ctx.ifExists() is not None)
