"""``createTable`` and ``createTableLike`` -> :class:`~mysqlddl.commands.CreateTable`
(MySQL 8.4 manual 15.1.20 "CREATE TABLE", 15.1.20.3 "CREATE TABLE ... LIKE",
15.1.20.4 "CREATE TABLE ... SELECT"; MariaDB OR REPLACE).

CREATE TABLE ... SELECT: the SELECT's columns follow the explicit column definitions. A column
that is a plain column reference (``t.c``, ``c``, with an alias or not) is copied from its source
table by the model; any other expression gets type ``unknown`` (its type would need the server's
type inference). ``SELECT *`` cannot be expanded without the source table's columns, which a
listener does not have (it never looks at the catalog), so it is rejected with a positioned error
rather than producing a table with missing columns. Binlogs are not affected: the server logs a
CREATE TABLE ... SELECT as a plain CREATE TABLE with every column spelled out.
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import AsSelect, CreateTable, SelectItem
from ...model.ids import TableId
from ...model.spec import ColumnSpec
from .column_definition import column_spec
from .identifiers import name, string_value, table_id
from .key_definition import KeyElement, index_definition, table_constraint
from .source import StatementSource
from .table_options import partitioning, table_options


def table_element(el: P.TableElementContext, src: StatementSource) -> ColumnSpec | KeyElement:
    """One ``tableElement``: a column definition, or a key/constraint (also used by ALTER TABLE
    ... ADD (element, ...))."""
    child = el.getChild(0)
    if isinstance(child, P.ColumnDefinitionContext):
        return column_spec(child, src)
    if isinstance(child, P.PeriodDefinitionContext):
        raise src.error(child, "PERIOD FOR (MariaDB application-time periods) is not modelled")
    if isinstance(child, P.IndexDefinitionContext):
        return index_definition(child, src)
    return table_constraint(child, src)


def build(ctx: P.CreateTableContext, src: StatementSource) -> CreateTable:
    columns, keys, fks, checks = [], [], [], []
    elements = ctx.tableElementList()
    for el in (elements.tableElement() if elements is not None else ()):
        e = table_element(el, src)
        if isinstance(e, ColumnSpec):
            columns.append(e)
        elif e.key is not None:
            keys.append(e.key)
        elif e.foreign_key is not None:
            fks.append(e.foreign_key)
        else:
            checks.append(e.check)
    pc = ctx.partitionClause()
    sel = ctx.createTableSelect()
    return CreateTable(
        table_id(ctx.tableName()), tuple(columns), tuple(keys), tuple(fks), tuple(checks),
        table_options(ctx.createTableOptions(), src),
        partitioning(pc, src) if pc is not None else None,
        if_not_exists=ctx.ifNotExists() is not None, or_replace=ctx.orReplace() is not None,
        temporary=ctx.TEMPORARY() is not None,
        as_select=as_select(sel.queryExpression(), src) if sel is not None else None,
    )


def build_like(ctx: P.CreateTableLikeContext, src: StatementSource) -> CreateTable:
    target, source = ctx.tableName()
    return CreateTable(table_id(target), if_not_exists=ctx.ifNotExists() is not None,
                       or_replace=ctx.orReplace() is not None, temporary=ctx.TEMPORARY() is not None,
                       like=table_id(source))


# ------------------------------------------------------------------------------ AS SELECT


def _first_specification(q: P.QueryExpressionContext):
    """The querySpecification whose select list names the result columns (the first one of a
    UNION, looking through parentheses); None for TABLE t / VALUES, which name no columns here."""
    term = q.queryBody().queryTerm(0)
    while term is not None:
        if term.querySpecification() is not None:
            return term.querySpecification()
        if term.queryExpression() is not None:
            term = term.queryExpression().queryBody().queryTerm(0)
            continue
        return None
    return None


def _from_tables(spec, src: StatementSource) -> dict[str, TableId]:
    """Alias (or table name) -> table, for the plain tables of the FROM clause (joins included)."""
    out: dict[str, TableId] = {}
    fc = spec.fromClause()
    if fc is None or fc.tableReferences() is None:
        return out

    def factor(f):
        if f.tableName() is not None:
            tid = table_id(f.tableName())
            alias = f.tableAlias()
            out[(name(alias.identifier()) if alias is not None else tid.name).lower()] = tid
        elif f.tableReferences() is not None:
            refs(f.tableReferences())

    def refs(trs):
        for tr in trs.tableReference():
            factor(tr.tableFactor())
            for j in tr.joinedTable():
                factor(j.tableFactor())

    refs(fc.tableReferences())
    return out


def _plain_column(expr):
    """The columnRef of an expression that is nothing but a column reference, else None."""
    node = expr
    while not isinstance(node, P.ColumnRefExprContext):
        if node.getChildCount() != 1 or isinstance(node.getChild(0), TerminalNode):
            return None
        node = node.getChild(0)
    return node.columnRef() if node.jsonPath() is None else None


def as_select(q: P.QueryExpressionContext, src: StatementSource) -> AsSelect:
    items: list[SelectItem] = []
    spec = _first_specification(q)
    if spec is not None:
        tables = _from_tables(spec, src)
        only = next(iter(tables.values())) if len(tables) == 1 else None
        for it in spec.selectList().selectItem():
            if it.expression() is None:  # * or t.*
                raise src.error(it, "CREATE TABLE ... SELECT * cannot be modelled: the listener "
                                    "does not know the source table's columns; list the columns")
            alias = it.selectAlias()
            ref = _plain_column(it.expression())
            source = column = None
            if ref is not None:
                parts = [name(i) for i in ref.identifier()]
                column = parts[-1]
                if len(parts) == 1:
                    source = only
                elif len(parts) == 2:
                    source = tables.get(parts[0].lower(), TableId(None, parts[0]))
                else:
                    source = TableId(parts[0], parts[1])
            if alias is not None:
                n = name(alias.identifier()) if alias.identifier() is not None else \
                    string_value(alias.textLiteral(), src)
            elif column is not None:
                n = column
            else:
                n = src.text_of(it.expression())  # the server names it after the expression text
            items.append(SelectItem(n, source, column))
    return AsSelect(src.text_of(q), tuple(items))
