"""``truncateTable`` -> :class:`~mysqlddl.commands.TruncateTable` (SQL Ref. "TRUNCATE TABLE")."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import TruncateTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.TruncateTableContext, src: StatementSource) -> TruncateTable:
    return TruncateTable(table_id(ctx.tableName(), src))
