"""The one table of Oracle statement families: rule context class -> builder (STYLE.md point 1).

:func:`build_commands` takes a ``singleStatement`` tree and returns the statement's commands: an
empty list for the statements that are recognised and not modelled (``otherStatement``: CREATE
INDEX, sequences, views, grants, DML, PL/SQL...; and ALTER TABLE clauses that change no
definition). A failure inside a builder comes out as a :class:`~mysqlddl.errors.DdlError`
positioned in the statement, never as a bare exception.
"""

from __future__ import annotations

from collections.abc import Callable

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import Command
from . import alter_table, comment_on, create_table, drop_table, rename_object, truncate_table
from .source import StatementSource

Builder = Callable[..., "Command | list[Command] | None"]

# rule context -> (family name, builder). The family name is the grammar rule (or label).
FAMILIES: dict[type, tuple[str, Builder]] = {
    P.CreateTableContext: ("createTable", create_table.build),
    P.AlterTableContext: ("alterTable", alter_table.build),
    P.DropTableContext: ("dropTable", drop_table.build),
    P.TruncateTableContext: ("truncateTable", truncate_table.build),
    P.CommentOnTableContext: ("commentOnTable", comment_on.build_table),
    P.CommentOnColumnContext: ("commentOnColumn", comment_on.build_column),
    P.RenameObjectContext: ("renameObject", rename_object.build),
}


def statement_node(tree):
    """The rule context that identifies the statement's family; None for an empty statement,
    the ``otherStatement`` context for a recognised statement that is not modelled."""
    if tree.otherStatement() is not None:
        return tree.otherStatement()
    s = tree.schemaStatement()
    return s.getChild(0) if s is not None else None


def build_commands(tree: P.SingleStatementContext, src: StatementSource) -> list[Command]:
    node = statement_node(tree)
    entry = FAMILIES.get(type(node)) if node is not None else None
    if entry is None:
        return []
    family, builder = entry
    return src.build(family, builder, node)


__all__ = ["FAMILIES", "build_commands", "statement_node", "StatementSource"]
