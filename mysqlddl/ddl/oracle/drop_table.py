"""``dropTable`` -> :class:`~mysqlddl.commands.DropTable` (SQL Ref. "DROP TABLE"). CASCADE
CONSTRAINTS (dropping other tables' foreign keys to it) and PURGE (no recycle bin) change no
table that the model keeps apart from the dropped one's references."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import DropTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.DropTableContext, src: StatementSource) -> DropTable:
    return DropTable((table_id(ctx.tableName(), src),), if_exists=ctx.EXISTS() is not None)
