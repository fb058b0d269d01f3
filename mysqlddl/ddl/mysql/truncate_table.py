"""``truncateTable`` -> :class:`~mysqlddl.commands.TruncateTable` (MySQL 8.4 manual 15.1.37):
no schema change, recorded so consumers of the history see it."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import TruncateTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.TruncateTableContext, src: StatementSource) -> TruncateTable:
    return TruncateTable(table_id(ctx.tableName()))
