"""``commentOn`` -> :class:`~mysqlddl.commands.CommentOn` (SQL Ref. "COMMENT"): the comment of
a table or a column; '' removes it. ``schema.table.column`` and ``table.column`` name a column."""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import CommentOn
from ...model.ids import TableId
from .identifiers import name, string_value, table_id
from .source import StatementSource


def build_table(ctx: P.CommentOnTableContext, src: StatementSource) -> CommentOn:
    return CommentOn(table_id(ctx.tableName(), src), None, string_value(ctx.stringLiteral(), src))


def build_column(ctx: P.CommentOnColumnContext, src: StatementSource) -> CommentOn:
    parts = [name(i, src) for i in ctx.columnReference().identifier()]
    table = TableId(parts[0], parts[1]) if len(parts) == 3 else TableId(None, parts[0])
    return CommentOn(table, parts[-1], string_value(ctx.stringLiteral(), src))
