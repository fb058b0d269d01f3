"""The immutable schema model: tables, columns, keys, databases and the catalog.

Dialect-neutral: MySQL/MariaDB specifics are rows of :mod:`.dialects` and tables of
:mod:`.types` / :mod:`.charsets`. Nothing here imports the commands, the parser or the binlog code.
"""

from .catalog import Catalog, Database, Session, View
from .column import Column, Default, DefaultKind, Generated, GeneratedKind
from .dialects import DialectRules, rules_for
from .ids import TableId
from .spec import CheckSpec, ColumnSpec, DataTypeSpec, ForeignKeySpec, KeySpec, col
from .table import (
    Check,
    ForeignKey,
    Index,
    IndexKind,
    IndexPart,
    Partitioning,
    Period,
    Sequence,
    Table,
    TableEditor,
)
from .types import TypeFamily

__all__ = [
    "Catalog", "Check", "CheckSpec", "Column", "ColumnSpec", "DataTypeSpec", "Database", "Default",
    "DefaultKind", "DialectRules", "ForeignKey", "ForeignKeySpec", "Generated", "GeneratedKind",
    "Index", "IndexKind", "IndexPart", "KeySpec", "Partitioning", "Period", "Sequence", "Session",
    "Table", "TableEditor",
    "TableId", "TypeFamily", "View", "col", "rules_for",
]
