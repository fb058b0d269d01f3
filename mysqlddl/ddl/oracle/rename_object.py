"""``renameObject`` -> :class:`~mysqlddl.commands.AlterTable` ``IF EXISTS`` with
:class:`~mysqlddl.commands.RenameTo` (SQL Ref. "RENAME"). The statement renames a table, view,
sequence or private synonym of the current schema; the listener cannot tell which, so the
command renames the table when the catalog has one of that name and otherwise changes nothing
(the model keeps no views, sequences or synonyms for Oracle)."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import AlterTable, RenameTo
from ...model.ids import TableId
from .identifiers import name
from .source import StatementSource


def build(ctx: P.RenameObjectContext, src: StatementSource) -> AlterTable:
    old, new = ctx.identifier()
    return AlterTable(TableId(None, name(old, src)), (RenameTo(TableId(None, name(new, src))),), if_exists=True)
