"""``createTable`` and ``createTableLike`` -> :class:`~mysqlddl.commands.CreateTable`
(MySQL 8.4 manual 15.1.20 "CREATE TABLE", 15.1.20.3 "CREATE TABLE ... LIKE",
15.1.20.4 "CREATE TABLE ... SELECT"; MariaDB OR REPLACE).

CREATE TABLE ... SELECT: the SELECT's columns follow the explicit column definitions. The
listener says what each item is (:class:`~mysqlddl.commands.SelectItem`): a plain column
reference (``t.c``, ``c``, with an alias or not), ``*`` / ``t.*`` (with the FROM tables, which the
model expands from the catalog), a literal, ``CAST``/``CONVERT`` of one of those, or a
current-time function; the model types them (commands/ctas_types.py). Any other expression gets
type ``unknown``. Binlogs are not affected: the server logs a CREATE TABLE ... SELECT as a plain
CREATE TABLE with every column spelled out.
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import AsSelect, CreateTable, SelectItem
from ...model.ids import TableId
from ...model.spec import ColumnSpec, DataTypeSpec
from ...model.table import Period
from .column_definition import column_spec
from .identifiers import name, string_value, table_id
from .key_definition import KeyElement, index_definition, table_constraint
from .source import StatementSource
from .table_options import partitioning, table_options


def period_definition(ctx: P.PeriodDefinitionContext, src: StatementSource) -> Period:
    """``PERIOD FOR {SYSTEM_TIME | name} (start, end)`` (MariaDB)."""
    start, end = ctx.columnName()
    pname = "SYSTEM_TIME" if ctx.SYSTEM_TIME() is not None else name(ctx.identifier())
    return Period(pname, name(start), name(end))


def table_element(el: P.TableElementContext, src: StatementSource) -> ColumnSpec | KeyElement | Period:
    """One ``tableElement``: a column definition, a key/constraint or a MariaDB period (also
    used by ALTER TABLE ... ADD (element, ...))."""
    child = el.getChild(0)
    if isinstance(child, P.ColumnDefinitionContext):
        return column_spec(child, src)
    if isinstance(child, P.PeriodDefinitionContext):
        return period_definition(child, src)
    if isinstance(child, P.IndexDefinitionContext):
        return index_definition(child, src)
    return table_constraint(child, src)


def build(ctx: P.CreateTableContext, src: StatementSource) -> CreateTable:
    columns, keys, fks, checks, periods = [], [], [], [], []
    elements = ctx.tableElementList()
    for el in (elements.tableElement() if elements is not None else ()):
        e = table_element(el, src)
        if isinstance(e, ColumnSpec):
            columns.append(e)
        elif isinstance(e, Period):
            periods.append(e)
        elif e.key is not None:
            keys.append(e.key)
        elif e.foreign_key is not None:
            fks.append(e.foreign_key)
        else:
            checks.append(e.check)
    pc = ctx.partitionClause()
    sel = ctx.createTableSelect()
    opts = ctx.createTableOptions()
    versioning = opts is not None and any(isinstance(o, P.SystemVersioningOptionContext)
                                          for o in opts.tableOption())
    return CreateTable(
        table_id(ctx.tableName()), tuple(columns), tuple(keys), tuple(fks), tuple(checks),
        table_options(ctx.createTableOptions(), src),
        partitioning(pc, src) if pc is not None else None,
        if_not_exists=ctx.ifNotExists() is not None, or_replace=ctx.orReplace() is not None,
        temporary=ctx.TEMPORARY() is not None,
        as_select=as_select(sel.queryExpression(), src) if sel is not None else None,
        periods=tuple(periods), system_versioning=versioning,
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


def _core(expr):
    """The node an expression reduces to through single-child rules and one pair of parentheses."""
    node = expr
    while True:
        if isinstance(node, P.ParenExprContext) and len(node.expression()) == 1:
            node = node.expression(0)
        elif node.getChildCount() == 1 and not isinstance(node.getChild(0), TerminalNode) and not isinstance(
                node, (P.LiteralExprContext, P.FunctionExprContext, P.SpecialFunctionExprContext,
                       P.CurrentTimestampExprContext, P.ColumnRefExprContext)):
            node = node.getChild(0)
        else:
            return node


def _literal_text(node, src: StatementSource) -> str | None:
    """SQL text of a literal the model can type (numbers with their sign, strings, hex/bit
    strings, NULL), else None (TRUE/FALSE and DATE '...' literals are left untyped)."""
    sign = ""
    if isinstance(node, P.UnaryExprContext) and node.MINUS() is not None:
        sign, node = "-", _core(node.simpleExpr())
    if not isinstance(node, P.LiteralExprContext):
        return None
    lit = node.literal()
    if lit.textLiteral() is not None and not sign:
        tl = lit.textLiteral()
        return None if len(tl.STRING()) + len(tl.DQ_STRING()) > 1 else src.text_of(tl)
    if lit.NULL() is not None and not sign:
        return "NULL"
    if lit.DECIMAL_LITERAL() is not None or lit.REAL_LITERAL() is not None:
        return sign + lit.getText()
    if (lit.HEX_LITERAL() is not None or lit.BIT_LITERAL() is not None) and not sign \
            and lit.UNDERSCORE_CHARSET() is None:
        return lit.getText()
    return None


def _cast_target(ct: P.CastTypeContext) -> DataTypeSpec | None:
    kind = ct.getChild(0).getText().upper()
    if ct.castCharsetAttribute():
        return None  # CHAR(n) CHARACTER SET x...: not typed
    fl, pr = ct.fieldLength(), ct.precision()
    length = scale = None
    if fl is not None:
        length = int(fl.DECIMAL_LITERAL().getText())
    elif pr is not None:
        nums = pr.DECIMAL_LITERAL()
        if not nums:
            return None
        length = int(nums[0].getText())
        scale = int(nums[1].getText()) if len(nums) > 1 else None
    return DataTypeSpec(kind, length, scale)


def _select_item(it, tables: dict[str, TableId], src: StatementSource) -> SelectItem:
    only = next(iter(tables.values())) if len(tables) == 1 else None

    def ref_source(ref):
        parts = [name(i) for i in ref.identifier()]
        if len(parts) == 1:
            return only, parts[-1]
        if len(parts) == 2:
            return tables.get(parts[0].lower(), TableId(None, parts[0])), parts[-1]
        return TableId(parts[0], parts[1]), parts[-1]

    node = _core(it.expression())
    fields: dict = {}
    if isinstance(node, P.ColumnRefExprContext) and node.jsonPath() is None:
        fields["source"], fields["column"] = ref_source(node.columnRef())
    elif isinstance(node, P.SpecialFunctionExprContext) and isinstance(
            node.specialFunction(), (P.CastFunctionContext, P.ConvertFunctionContext)):
        f = node.specialFunction()
        array = isinstance(f, P.CastFunctionContext) and f.ARRAY() is not None
        target = None if array else _cast_target(f.castType())
        inner = _core(f.expression())
        lit = _literal_text(inner, src)
        if target is not None and isinstance(inner, P.ColumnRefExprContext) and inner.jsonPath() is None:
            fields["source"], fields["column"] = ref_source(inner.columnRef())
            fields["cast"] = target
        elif target is not None and lit is not None:
            fields["literal"], fields["cast"] = lit, target
    elif isinstance(node, P.CurrentTimestampExprContext):
        ct = node.currentTimestamp()
        n = ct.DECIMAL_LITERAL()
        fields["function"] = ct.getChild(0).getText().upper()
        fields["literal"] = n.getText() if n is not None else None
    elif isinstance(node, P.FunctionExprContext) and node.functionCall().functionName() is not None:
        fc = node.functionCall()
        args = fc.functionArg()
        if len(args) <= 1 and fc.STAR() is None:
            arg = _literal_text(_core(args[0].expression()), src) if args and args[0].expression() else None
            if not args or (arg is not None and arg.isdigit()):
                fields["function"], fields["literal"] = fc.functionName().getText().upper(), arg
    else:
        lit = _literal_text(node, src)
        if lit is not None:
            fields["literal"] = lit
    alias = it.selectAlias()
    if alias is not None:
        n = name(alias.identifier()) if alias.identifier() is not None else string_value(alias.textLiteral(), src)
    elif fields.get("column") is not None and "cast" not in fields:
        n = fields["column"]
    else:
        n = src.text_of(it.expression())  # the server names it after the expression text
    return SelectItem(n, **fields)


def as_select(q: P.QueryExpressionContext, src: StatementSource) -> AsSelect:
    items: list[SelectItem] = []
    spec = _first_specification(q)
    if spec is not None:
        tables = _from_tables(spec, src)
        for it in spec.selectList().selectItem():
            if it.expression() is None:  # * or t.*: expanded by the model from the catalog
                ids = [name(i) for i in it.identifier()]
                if ids:
                    t = TableId(ids[0], ids[1]) if len(ids) == 2 else TableId(None, ids[0])
                    source = tables.get(t.name.lower(), t) if t.database is None else t
                    items.append(SelectItem("*", source=source, star=True))
                else:
                    items.append(SelectItem("*", star=True, tables=tuple(tables.values())))
                continue
            items.append(_select_item(it, tables, src))
    return AsSelect(src.text_of(q), tuple(items))
