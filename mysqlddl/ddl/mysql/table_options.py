"""``createTableOptions`` / ``tableOption`` and ``partitionClause`` (MySQL 8.4 manual 15.1.20
table_options and partition_options, 26.2 "Partitioning Types"; MariaDB "CREATE TABLE").

Options become ``(name, value)`` pairs as the commands expect them: the name is the option's
keywords upper-case and single-spaced, exactly as written (``DEFAULT CHARSET``, ``CHARACTER SET``,
``ENGINE``, ``ROW_FORMAT``, ``DATA DIRECTORY``); the value is the text as written (a COMMENT keeps
its quotes), except that names (engine, charset, collation, tablespace) are unquoted.

Options without a value that do not describe the table are dropped, listed in :data:`_SKIPPED`
with the reason.
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...model.table import Partitioning
from .identifiers import charset_name, has, name, unquote
from .source import StatementSource

_SKIPPED = {
    # Atomic CREATE TABLE ... SELECT (MySQL 8.0.21); says nothing about the table.
    P.StartTransactionOptionContext: "START TRANSACTION",
}


def _keywords(ctx) -> str:
    """The option's leading keywords, upper-case, up to its value (or ``=``)."""
    words = []
    for c in ctx.getChildren():
        if not isinstance(c, TerminalNode) or c.getSymbol().type == P.EQ:
            break
        words.append(c.getText().upper())
    return " ".join(words)


def table_option(ctx, src: StatementSource) -> tuple[str, str] | None:
    """One ``tableOption`` as (NAME, value), or None for an option that is not recorded."""
    if type(ctx) in _SKIPPED:
        return None
    if isinstance(ctx, P.EngineOptionContext):
        en = ctx.engineName()
        v = charset_name(en, src) if en.textLiteral() is not None else name(en.identifier())
        return "ENGINE", v
    if isinstance(ctx, P.CharsetOptionContext):
        cc = ctx.charsetClause()
        kw = ("DEFAULT " if ctx.DEFAULT() is not None else "") + _keywords(cc)
        return kw, charset_name(cc.charsetName(), src)
    if isinstance(ctx, P.CollateOptionContext):
        kw = "DEFAULT COLLATE" if ctx.DEFAULT() is not None else "COLLATE"
        return kw, charset_name(ctx.collationName(), src)
    if isinstance(ctx, P.CommentOptionContext):
        return "COMMENT", src.text_of(ctx.textLiteral())
    if isinstance(ctx, P.TablespaceOptionContext):
        return "TABLESPACE", name(ctx.identifier())
    if isinstance(ctx, P.StorageOptionContext):
        return "STORAGE", ctx.getChild(1).getText().upper()
    if isinstance(ctx, P.UnionOptionContext):
        return "UNION", "(" + ",".join(unquote(src.text_of(t)) for t in ctx.tableName()) + ")"
    if isinstance(ctx, P.SystemVersioningOptionContext):
        return None  # not an option: CreateTable.system_versioning (see create_table.build)
    if isinstance(ctx, P.DirectoryOptionContext):
        return _keywords(ctx), src.text_of(ctx.textLiteral())
    # NAME [=] value: numeric, flag, ROW_FORMAT, string, INSERT_METHOD, SECONDARY_ENGINE,
    # engine-defined options and AUTO_INCREMENT (which the commands ignore).
    kw = _keywords(ctx)
    last = ctx.getChild(ctx.getChildCount() - 1)
    value = src.text_of(last)
    if isinstance(last, P.OptionValueContext) and last.identifier() is not None:
        value = name(last.identifier())
    return kw, value


def table_options(ctx, src: StatementSource) -> tuple[tuple[str, str], ...]:
    """All options of a ``createTableOptions`` context (None gives ``()``)."""
    if ctx is None:
        return ()
    return options_of(ctx.tableOption(), src)


def options_of(opts, src: StatementSource) -> tuple[tuple[str, str], ...]:
    out = []
    for o in opts:
        pair = table_option(o, src)
        if pair is not None:
            out.append(pair)
    return tuple(out)


def _method(m, src: StatementSource) -> tuple[str, str | None]:
    """(method, expression text) of a ``partitionMethod`` / ``subpartitionMethod``."""
    linear = "LINEAR " if has(m, "LINEAR") else ""
    if has(m, "HASH"):
        return linear + "HASH", src.text_of(m.expression())
    if has(m, "KEY"):
        return linear + "KEY", ",".join(name(c) for c in m.columnName())
    if isinstance(m, P.PartitionByRangeListContext):
        kind = "RANGE" if m.RANGE() is not None else "LIST"
        if m.COLUMNS() is not None:
            return kind + " COLUMNS", ",".join(name(c) for c in m.columnList().columnName())
        return kind, src.text_of(m.expression())
    if isinstance(m, P.PartitionBySystemTimeContext):
        return "SYSTEM_TIME", None
    raise src.error(m, f"partitioning method {src.text_of(m)!r} is not handled")


def partitioning(ctx: P.PartitionClauseContext, src: StatementSource) -> Partitioning:
    """A summary of PARTITION BY: method, expression text, PARTITIONS n, partition names,
    SUBPARTITION BY text."""
    method, expr = _method(ctx.partitionMethod(), src)
    count = None
    sub = None
    kids = list(ctx.getChildren())
    for i, k in enumerate(kids):
        if isinstance(k, TerminalNode) and k.getSymbol().type == P.PARTITIONS:
            count = int(kids[i + 1].getText())
    if ctx.subpartitionMethod() is not None:
        sm, sexpr = _method(ctx.subpartitionMethod(), src)
        sub = f"{sm} ({sexpr})"
    names = tuple(name(d.identifier()) for d in ctx.partitionDefinition())
    return Partitioning(method, expr, count, names, sub)
