"""``dropTable`` -> :class:`~mysqlddl.commands.DropTable` (SQL Ref. "DROP TABLE"). CASCADE
CONSTRAINTS drops the other tables' foreign keys to the table (without it such keys fail the
statement, ORA-02449); PURGE (no recycle bin) changes nothing the model keeps."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import DropTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.DropTableContext, src: StatementSource) -> DropTable:
    return DropTable((table_id(ctx.tableName(), src),), if_exists=ctx.EXISTS() is not None,
                     cascade_constraints=ctx.CASCADE() is not None)
