"""``renameTable`` -> :class:`~mysqlddl.commands.RenameTable` (MySQL 8.4 manual 15.1.36
"RENAME TABLE"): pairs in order, so ``a TO tmp, b TO a, tmp TO b`` swaps."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import RenameTable
from .identifiers import table_id
from .source import StatementSource


def build(ctx: P.RenameTableContext, src: StatementSource) -> RenameTable:
    """MariaDB 10.5.2+ ``RENAME TABLE IF EXISTS`` skips pairs whose table is missing."""
    pairs = []
    for p in ctx.renamePair():
        old, new = p.tableName()
        pairs.append((table_id(old), table_id(new)))
    return RenameTable(tuple(pairs), if_exists=ctx.ifExists() is not None)
