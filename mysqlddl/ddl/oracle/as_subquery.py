"""``CREATE TABLE ... AS subquery`` -> :class:`~mysqlddl.commands.AsSelect` (SQL Ref. "CREATE
TABLE", AS subquery; "SELECT", select_list and table_reference).

The grammar keeps the subquery as a balanced token run (README decision 4); this module reads
what the model needs from its top level: the select list up to FROM, and the tables of the FROM
clause with their aliases. Each select item becomes a :class:`~mysqlddl.commands.SelectItem`:

- ``*`` and ``t.*``: every column of the FROM tables / of ``t`` (``star``);
- a column reference ``c``, ``t.c``, ``schema.t.c`` [[AS] alias]: the column is copied from its
  table (type, NULL-ability, default);
- any other expression needs an alias (ORA-00998, "must name this expression with a column
  alias"); its type is not inferred: ``unknown``.

A column list before AS, ``CREATE TABLE t (a, b) AS SELECT ...``, renames the items in order
(SQL Ref.: "the number of columns in the table must equal the number of expressions in the
subquery"); with ``*`` the listener cannot count them and says so. A subquery that does not start
with SELECT (WITH ..., a parenthesised set operation) is not modelled.
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import AsSelect, SelectItem
from ...model.ids import TableId
from .source import StatementSource

_FROM_END = frozenset({"WHERE", "GROUP", "ORDER", "CONNECT", "START", "UNION", "MINUS", "INTERSECT",
                       "EXCEPT", "FETCH", "OFFSET", "HAVING", "MODEL", "FOR", "WINDOW", "QUALIFY"})
_NOT_ALIAS = frozenset({"JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ON",
                        "USING", "PARTITION", "SAMPLE", "AS", "OF", "VERSIONS", "APPLY", "LATERAL"})
_NAME_TYPES = frozenset({P.ID, P.QUOTED_ID})
_OPERATORS = frozenset({P.DOT, P.PLUS, P.MINUS, P.STAR, P.SLASH, P.CONCAT, P.POWER})


class _Elem:
    """One top-level element of the subquery: a token or a parenthesised group."""

    __slots__ = ("node", "type", "word")

    def __init__(self, node):
        self.node = node
        if isinstance(node, TerminalNode):
            tok = node.getSymbol()
            self.type = tok.type
            self.word = tok.text.upper() if tok.text[:1].isalpha() and tok.type != P.QUOTED_ID else None
        else:
            self.type, self.word = None, None

    @property
    def is_name(self) -> bool:
        return self.type in _NAME_TYPES or (self.word is not None and self.type != P.STAR)


def _name(e: _Elem, src: StatementSource) -> str:
    text = e.node.getText()
    return src.rules.identifier(text[1:-1], True) if e.type == P.QUOTED_ID else src.rules.identifier(text, False)


def _split(elems: list[_Elem], sep) -> list[list[_Elem]]:
    out: list[list[_Elem]] = [[]]
    for e in elems:
        if sep(e):
            out.append([])
        else:
            out[-1].append(e)
    return [x for x in out if x]


def _dotted(elems: list[_Elem], src: StatementSource) -> list[str] | None:
    """Names of ``a``, ``a.b``, ``a.b.c`` (exactly), else None."""
    if len(elems) % 2 == 0 or not all(e.is_name for e in elems[::2]) or \
            not all(e.type == P.DOT for e in elems[1::2]):
        return None
    return [_name(e, src) for e in elems[::2]]


def _tables(elems: list[_Elem], src: StatementSource) -> tuple[dict[str, TableId], list[TableId]]:
    """Alias (or table name) -> table, and the tables in order, of a FROM clause."""
    by_alias: dict[str, TableId] = {}
    order: list[TableId] = []
    for ref in _split(elems, lambda e: e.type == P.COMMA or e.word == "JOIN"):
        i = 0
        while i < len(ref) and ref[i].word in ("INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL"):
            i += 1
        j = i
        while j + 2 < len(ref) and ref[j + 1].type == P.DOT:
            j += 2
        parts = _dotted(ref[i:j + 1], src) if i < len(ref) else None
        if not parts or len(parts) > 2:
            continue  # a subquery, a table function, ...: not a table the model has
        tid = TableId(parts[0], parts[1]) if len(parts) == 2 else TableId(None, parts[0])
        order.append(tid)
        rest = ref[j + 1:]
        alias = rest[0] if rest and rest[0].is_name and rest[0].word not in _NOT_ALIAS else None
        by_alias[_name(alias, src) if alias is not None else tid.name] = tid
    return by_alias, order


def _item(elems: list[_Elem], tables: dict[str, TableId], order: list[TableId],
          src: StatementSource) -> SelectItem:
    if len(elems) == 1 and elems[0].type == P.STAR:
        return SelectItem("*", star=True, tables=tuple(order))
    if len(elems) == 3 and elems[1].type == P.DOT and elems[2].type == P.STAR and elems[0].is_name:
        alias = _name(elems[0], src)
        return SelectItem(f"{alias}.*", source=tables.get(alias, TableId(None, alias)), star=True)
    alias = None
    body = elems
    if len(elems) >= 2 and elems[-1].is_name and elems[-2].word == "AS":
        alias, body = _name(elems[-1], src), elems[:-2]
    elif len(elems) >= 2 and elems[-1].is_name and elems[-2].type != P.DOT and _dotted(elems[:-1], src):
        alias, body = _name(elems[-1], src), elems[:-1]
    elif len(elems) >= 2 and elems[-1].is_name and elems[-2].type not in _OPERATORS \
            and elems[-2].word not in ("AND", "OR", "NOT", "IS"):
        alias, body = _name(elems[-1], src), elems[:-1]
    parts = _dotted(body, src)
    if parts is not None:
        column = parts[-1]
        if len(parts) == 1:
            source = order[0] if len(order) == 1 else None
        elif len(parts) == 2:
            source = tables.get(parts[0], TableId(None, parts[0]))
        else:
            source = TableId(parts[0], parts[1])
        return SelectItem(alias or column, source, column)
    if alias is None:
        first, last = body[0].node, body[-1].node
        raise src.error(first, "must name this expression with a column alias (ORA-00998): "
                               + src.text_between(first, last))
    return SelectItem(alias)


def as_select(ctx: P.CreateTableContext, names: list[str], src: StatementSource) -> AsSelect:
    """The AsSelect of a CREATE TABLE ... AS subquery; ``names``: the column list before AS."""
    tail = ctx.subqueryTail()
    elems = [_Elem(c) for c in tail.getChildren()]
    if not elems or elems[0].word != "SELECT":
        raise src.error(tail, "CREATE TABLE ... AS subquery is not modelled unless the subquery "
                              "starts with SELECT")
    i = 1
    while i < len(elems) and elems[i].word in ("DISTINCT", "UNIQUE", "ALL"):
        i += 1
    f = next((k for k in range(i, len(elems)) if elems[k].word == "FROM"), len(elems))
    end = next((k for k in range(f + 1, len(elems)) if elems[k].word in _FROM_END), len(elems))
    tables, order = _tables(elems[f + 1:end], src)
    items = [_item(x, tables, order, src) for x in _split(elems[i:f], lambda e: e.type == P.COMMA)]
    if names:
        if any(it.star for it in items):
            raise src.error(ctx.AS(), "CREATE TABLE (columns) AS SELECT * is not modelled: the "
                                      "listener cannot count the columns of *")
        if len(names) != len(items):
            raise src.error(ctx.AS(), "invalid number of column names specified (ORA-01730)")
        items = [SelectItem(n, it.source, it.column) for n, it in zip(names, items, strict=True)]
    return AsSelect(src.text_of(tail), tuple(items))
