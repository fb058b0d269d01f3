"""``renameObject`` -> :class:`~mysqlddl.commands.RenameObject` (SQL Ref. "RENAME")."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import RenameObject
from ...model.ids import TableId
from .identifiers import name
from .source import StatementSource


def build(ctx: P.RenameObjectContext, src: StatementSource) -> RenameObject:
    old, new = ctx.identifier()
    return RenameObject(TableId(None, name(old, src)), TableId(None, name(new, src)))
