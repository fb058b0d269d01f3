"""``dropTable`` -> :class:`~mysqlddl.commands.DropTable` (MySQL 8.4 manual 15.1.32
"DROP TABLE": several tables, IF EXISTS, TEMPORARY; RESTRICT/CASCADE do nothing)."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import DropTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.DropTableContext, src: StatementSource) -> DropTable:
    return DropTable(tuple(table_id(t) for t in ctx.tableName()), if_exists=ctx.ifExists() is not None,
                     temporary=ctx.TEMPORARY() is not None)
