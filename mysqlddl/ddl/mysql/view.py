"""``createView``, ``alterView`` and ``dropView`` -> view commands (MySQL 8.4 manual 15.1.23,
15.1.11, 15.1.35). Views are recorded, not analysed: the definition is the SELECT text as
written; ALGORITHM, DEFINER, SQL SECURITY and WITH CHECK OPTION are kept as (name, value)."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import AlterView, CreateView, DropView
from .identifiers import name, table_id
from .source import StatementSource


def _clauses(ctx, src: StatementSource) -> tuple[tuple[str, str], ...]:
    out = []
    va = ctx.viewAttributes()
    if va is not None:
        if va.ALGORITHM() is not None:
            out.append(("ALGORITHM", va.getChild(2).getText().upper()))
        if va.definerClause() is not None:
            out.append(("DEFINER", src.text_of(va.definerClause().userName())))
        if va.SECURITY() is not None:
            out.append(("SQL SECURITY", va.getChild(va.getChildCount() - 1).getText().upper()))
    co = ctx.viewCheckOption()
    if co is not None:
        out.append(("CHECK OPTION", "LOCAL" if co.LOCAL() is not None else "CASCADED"))
    return tuple(out)


def _columns(ctx) -> tuple[str, ...]:
    cl = ctx.columnList()
    return tuple(name(c) for c in cl.columnName()) if cl is not None else ()


def build_create(ctx: P.CreateViewContext, src: StatementSource) -> CreateView:
    return CreateView(table_id(ctx.tableName()), src.text_of(ctx.queryExpression()), _columns(ctx),
                      or_replace=ctx.orReplace() is not None, if_not_exists=ctx.ifNotExists() is not None,
                      options=_clauses(ctx, src))


def build_alter(ctx: P.AlterViewContext, src: StatementSource) -> AlterView:
    return AlterView(table_id(ctx.tableName()), src.text_of(ctx.queryExpression()), _columns(ctx),
                     options=_clauses(ctx, src))


def build_drop(ctx: P.DropViewContext, src: StatementSource) -> DropView:
    return DropView(tuple(table_id(t) for t in ctx.tableName()), if_exists=ctx.ifExists() is not None)
