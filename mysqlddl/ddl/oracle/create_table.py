"""``createTable`` -> :class:`~mysqlddl.commands.CreateTable` (SQL Ref. "CREATE TABLE",
relational tables).

Inline constraints join the out-of-line ones as table-level specs (:mod:`.constraint`). GLOBAL
TEMPORARY, SHARDED, DUPLICATED, IMMUTABLE and BLOCKCHAIN tables are permanent schema objects:
the kind is kept as the first option; a PRIVATE TEMPORARY table lives in one session, like
MySQL's temporary tables. Object tables (OF type) are rejected with a positioned error: their
columns come from a type the listener cannot see. CREATE TABLE ... AS subquery: :mod:`.as_subquery`.
"""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import CreateTable
from ...model.spec import CheckSpec, ForeignKeySpec, KeySpec
from .as_subquery import as_select
from .column_definition import column_parts
from .constraint import out_of_line
from .identifiers import table_id
from .source import StatementSource
from .table_properties import table_options


def relational_properties(props, src: StatementSource):
    """(columns, keys, foreign keys, checks) of relational properties (also ALTER TABLE ADD (...))."""
    columns, keys, fks, checks = [], [], [], []

    def place(spec):
        if isinstance(spec, KeySpec):
            keys.append(spec)
        elif isinstance(spec, ForeignKeySpec):
            fks.append(spec)
        elif isinstance(spec, CheckSpec):
            checks.append(spec)

    for prop in props:
        if prop.columnDefinition() is not None:
            parts = column_parts(prop.columnDefinition(), src)
            columns.append(parts.spec())
            for c in parts.constraints:
                place(c)
        elif prop.outOfLineConstraint() is not None:
            place(out_of_line(prop.outOfLineConstraint(), src))
        # supplementalLogging: which columns go to the redo log, not part of the definition
    return columns, keys, fks, checks


def build(ctx: P.CreateTableContext, src: StatementSource) -> CreateTable:
    if ctx.OF() is not None:
        raise src.error(ctx.OF(), "CREATE TABLE ... OF type (object tables) is not modelled")
    columns, keys, fks, checks = relational_properties(ctx.relationalProperty(), src)
    select = None
    if ctx.AS() is not None:  # the column list only names the query's columns
        select = as_select(ctx, [c.name for c in columns], src)
        columns = []
    options, partitioning = table_options(ctx.tableProperties(), src)
    kind = ctx.tableKind()
    if kind is not None and kind.PRIVATE() is None:
        options = ((" ".join(src.text_of(kind).upper().split()), ""),) + options
    if ctx.sharingClause() is not None:
        options = (("SHARING", src.text_of(ctx.sharingClause()).split("=", 1)[1].strip()),) + options
    return CreateTable(table_id(ctx.tableName(), src), tuple(columns), tuple(keys), tuple(fks),
                       tuple(checks), options, partitioning, if_not_exists=ctx.EXISTS() is not None,
                       temporary=kind is not None and kind.PRIVATE() is not None, as_select=select)
