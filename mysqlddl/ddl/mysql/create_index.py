"""``createIndex`` -> :class:`~mysqlddl.commands.CreateIndex` (MySQL 8.4 manual 15.1.15
"CREATE INDEX"; MariaDB OR REPLACE / IF NOT EXISTS). ALGORITHM, LOCK and WAIT change nothing.

MariaDB's ``CREATE OR REPLACE INDEX`` is ``DROP INDEX IF EXISTS`` followed by ``CREATE INDEX``
(MariaDB KB "CREATE INDEX"), and becomes those two commands.
"""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import CreateIndex, DropIndex
from ...model.spec import KeySpec
from ...model.table import IndexKind
from .identifiers import name, table_id
from .key_definition import index_options, key_parts
from .source import StatementSource


def build(ctx: P.CreateIndexContext, src: StatementSource) -> list:
    if ctx.UNIQUE() is not None:
        kind = IndexKind.UNIQUE
    elif ctx.FULLTEXT() is not None:
        kind = IndexKind.FULLTEXT
    elif ctx.SPATIAL() is not None:
        kind = IndexKind.SPATIAL
    else:
        kind = IndexKind.INDEX
    table = table_id(ctx.tableName())
    iname = name(ctx.indexName())
    key = KeySpec(kind, key_parts(ctx.keyPartList(), src), name=iname,
                  **index_options(ctx.indexOption(), ctx.indexType(), src))
    out = []
    if ctx.orReplace() is not None:
        out.append(DropIndex(table, iname, if_exists=True))
    out.append(CreateIndex(table, key, if_not_exists=ctx.ifNotExists() is not None))
    return out
