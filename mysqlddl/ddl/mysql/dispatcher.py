"""The one table of statement families: rule context class -> builder (STYLE.md point 1).

:func:`build_commands` takes a ``singleStatement`` tree and returns the statement's commands in
order: a list, empty for a statement that cannot change the schema (DML, transactions, accounts,
routines, administration, SHOW...). Each family is isolated: whatever goes wrong inside a builder
comes out as a :class:`~mysqlddl.errors.DdlError` positioned in the statement, never as a bare
exception (an unexpected one is wrapped, with the original as ``__cause__``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import Command
from . import (
    alter_database,
    alter_table,
    create_database,
    create_index,
    create_table,
    drop_database,
    drop_index,
    drop_table,
    rename_table,
    sequence,
    set_statement,
    truncate_table,
    use_statement,
    view,
)
from .source import StatementSource

Builder = Callable[..., "Command | list[Command] | None"]

# rule context -> (family name, builder). The family name is the grammar rule.
FAMILIES: dict[type, tuple[str, Builder]] = {
    P.CreateTableContext: ("createTable", create_table.build),
    P.CreateTableLikeContext: ("createTableLike", create_table.build_like),
    P.AlterTableContext: ("alterTable", alter_table.build),
    P.DropTableContext: ("dropTable", drop_table.build),
    P.RenameTableContext: ("renameTable", rename_table.build),
    P.TruncateTableContext: ("truncateTable", truncate_table.build),
    P.CreateDatabaseContext: ("createDatabase", create_database.build),
    P.AlterDatabaseContext: ("alterDatabase", alter_database.build),
    P.DropDatabaseContext: ("dropDatabase", drop_database.build),
    P.CreateIndexContext: ("createIndex", create_index.build),
    P.DropIndexContext: ("dropIndex", drop_index.build),
    P.CreateViewContext: ("createView", view.build_create),
    P.AlterViewContext: ("alterView", view.build_alter),
    P.DropViewContext: ("dropView", view.build_drop),
    P.UseStatementContext: ("useStatement", use_statement.build),
    P.SetVariablesContext: ("setStatement", set_statement.build),
    P.CreateSequenceContext: ("createSequence", sequence.build_create),
    P.AlterSequenceContext: ("alterSequence", sequence.build_alter),
    P.DropSequenceContext: ("dropSequence", sequence.build_drop),
}

# Statements that change a schema the model does not represent: rejected with a positioned error
# so nothing is lost silently (none left; MariaDB sequences are modelled as tables). Tablespaces
# and servers are not part of a table's definition: no command.
UNMODELLED: dict[type, str] = {}


def _statement_node(tree):
    """The rule context that identifies the statement's family, or None (empty statement)."""
    node = tree.sqlStatement() if isinstance(tree, P.SingleStatementContext) else tree
    if node is None:
        return None
    while isinstance(node, (P.SqlStatementContext, P.DdlStatementContext, P.SetStatementContext)) \
            and node.getChildCount() == 1:
        node = node.getChild(0)
    return node


def build_commands(tree, src: StatementSource) -> list[Command]:
    """The commands of one parsed statement (``singleStatement`` or ``sqlStatement`` context)."""
    node = _statement_node(tree)
    if node is None:
        return []
    if isinstance(node, P.SetStatementForContext):
        # SET STATEMENT var=value FOR stmt: the variables apply to stmt only (MariaDB KB
        # "SET STATEMENT"); what stmt does to the schema is what counts.
        return build_commands(node.sqlStatement(), src)
    entry = FAMILIES.get(type(node))
    if entry is None:
        what = UNMODELLED.get(type(node))
        if what is not None:
            raise src.error(node, f"{what} is not modelled")
        return []
    family, builder = entry
    return src.build(family, builder, node)


__all__ = ["FAMILIES", "UNMODELLED", "build_commands", "StatementSource"]
