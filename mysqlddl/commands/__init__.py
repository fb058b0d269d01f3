"""Schema-change commands: one small frozen dataclass per statement family (one module each).

Listeners build commands from parse trees; ``command.apply(catalog, options)`` is the only thing
that changes schema state and returns a new :class:`~mysqlddl.model.Catalog` version. Commands hold
what the statement *said* (:class:`ColumnSpec`, :class:`KeySpec`...); ``apply`` resolves what the
server makes of it (implicit NULL-ability, TIMESTAMP defaults, charset inheritance, synonyms...).

``apply`` raises :class:`~mysqlddl.errors.DdlSemanticError` when the server would refuse the
statement (unknown table, duplicate column...); :func:`apply_all` applies a list of commands under
``options.error_policy``. Every command round-trips through ``to_json()`` / ``Command.from_json()``.

Identifiers in commands are unquoted names; a TableId with ``database=None`` means "the session's
default database" (set by :class:`UseDatabase` or by the history from the binlog event).

Building commands (what a listener does)::

    CreateTable(TableId(None, "t"),
                columns=(ColumnSpec("id", DataTypeSpec("INT", unsigned=True), nullable=False,
                                    auto_increment=True),
                         ColumnSpec("s", DataTypeSpec("VARCHAR", 20, charset="latin1"),
                                    default="'x'", comment="'note'")),
                keys=(KeySpec(IndexKind.PRIMARY, (IndexPart("id"),)),),
                options=(("ENGINE", "InnoDB"), ("DEFAULT CHARSET", "utf8mb4")))
    AlterTable(TableId("db", "t"), (AddColumn(ColumnSpec(...), after="id"), DropColumn("s")))
    SetVariable((Assignment("sql_mode", "'ANSI_QUOTES'"),))

Text fields keep SQL as written (literals with their quotes, expressions verbatim); names are
unquoted. ``col(name, type, length, scale, **kw)`` is a shorthand for tests.
"""

from ..model.ids import TableId
from ..model.spec import CheckSpec, ColumnSpec, DataTypeSpec, ForeignKeySpec, KeySpec, col
from ..model.table import IndexKind, IndexPart, Partitioning, Period, Sequence
from .alter_table import (
    AddCheck,
    AddColumn,
    AddForeignKey,
    AddIndex,
    AddPeriod,
    AddSystemVersioning,
    AlterCheckEnforcement,
    AlterColumnDefault,
    AlterColumnVisibility,
    AlterIndexVisibility,
    AlterOperation,
    AlterTable,
    ChangeColumn,
    ConvertCharset,
    DefaultCharset,
    DropCheck,
    DropColumn,
    DropConstraint,
    DropForeignKey,
    DropKey,
    DropPeriod,
    DropPrimaryKey,
    DropSystemVersioning,
    ModifyColumn,
    PartitionOp,
    RenameColumn,
    RenameIndex,
    RenameTo,
    TableOptions,
)
from .base import ApplyResult, Command, apply_all
from .create_table import AsSelect, CreateTable, SelectItem
from .databases import AlterDatabase, CreateDatabase, DropDatabase, UseDatabase
from .oracle import (  # the Oracle dialect's operations and commands
    CommentOn,
    DropNamedConstraint,
    DropUniqueKey,
    RenameConstraint,
    ReviseColumn,
    SetConstraintState,
)
from .sequences import AlterSequence, CreateSequence, DropSequence
from .table_ddl import CreateIndex, DropIndex, DropTable, RenameTable, TruncateTable
from .variables import Assignment, SetVariable
from .views import AlterView, CreateView, DropView

__all__ = [
    "AddPeriod", "AddSystemVersioning", "AlterCheckEnforcement", "AlterIndexVisibility",
    "AlterSequence", "CreateSequence", "DropPeriod", "DropSequence", "DropSystemVersioning",
    "Period", "Sequence",
    "AddCheck", "AddColumn", "AddForeignKey", "AddIndex", "AlterColumnDefault",
    "AlterColumnVisibility", "AlterDatabase", "AlterOperation", "AlterTable", "AlterView",
    "ApplyResult", "AsSelect", "Assignment", "ChangeColumn", "CheckSpec", "ColumnSpec", "Command",
    "ConvertCharset", "CreateDatabase", "CreateIndex", "CreateTable", "CreateView", "DataTypeSpec",
    "DefaultCharset", "DropCheck", "DropColumn", "DropConstraint", "DropDatabase", "DropForeignKey",
    "DropIndex", "DropKey", "DropPrimaryKey", "DropTable", "DropView", "ForeignKeySpec",
    "IndexKind", "IndexPart", "KeySpec", "ModifyColumn", "PartitionOp", "Partitioning",
    "RenameColumn", "RenameIndex", "RenameTable", "RenameTo", "SelectItem", "SetVariable",
    "TableId", "TableOptions", "TruncateTable", "UseDatabase", "apply_all", "col",
]

__all__ += ["CommentOn", "DropNamedConstraint", "DropUniqueKey", "RenameConstraint", "ReviseColumn",
            "SetConstraintState"]
