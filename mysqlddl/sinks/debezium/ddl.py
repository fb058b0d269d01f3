"""Schema changes as Debezium's MySQL connector publishes them on its schema change topic.

The value is Debezium's ``SchemaChangeValue`` (MySQL connector documentation, "Schema change
topic"): ``source``, ``ts_ms``, ``databaseName``, ``schemaName`` (null for MySQL), ``ddl`` and
``tableChanges``; the key is ``SchemaChangeKey`` ``{databaseName}``. A table change is ``{type,
id, table}`` with the table's ``defaultCharsetName``, ``primaryKeyColumnNames``, ``columns``,
``comment`` and ``attributes``, and each column the fields of Debezium's Connect table-change
serializer (debezium-core ``SchemaFactory.schemaHistoryColumnSchema``): name, jdbcType,
nativeType, typeName, typeExpression, charsetName, length, scale, position, optional,
autoIncremented, generated, comment, defaultValueExpression, enumValues.

How the values are chosen, from Debezium's MySQL DDL parser (facts, not its code):
- ``jdbcType``: the java.sql.Types constant its data type resolver registers for the type's
  keyword (``MySqlAntlrDdlParser.initializeDataTypeResolver``): TINYINT and SMALLINT 5
  (SMALLINT), TEXT family 12 (VARCHAR), BLOB family 2004 (BLOB), FLOAT 6, REAL 7, BOOL/BOOLEAN 16,
  TIMESTAMP 2014, ENUM/SET 1 (CHAR), JSON and spatial types 1111 (OTHER), and so on below.
- ``typeName`` = ``typeExpression``: the type keyword(s) as written, upper case, with UNSIGNED /
  ZEROFILL when written (``INT UNSIGNED``, ``BOOLEAN``, ``JSON``); SERIAL is ``BIGINT UNSIGNED``.
- ``length`` / ``scale``: what the statement wrote in parentheses (fractional seconds for
  TIME/DATETIME/TIMESTAMP), else the resolver's default dimension (DECIMAL 10,0; BIT 1), ENUM 1 and
  SET 2n-1 (``ColumnDefinitionParserListener``); otherwise null.
- ``generated`` is set with ``autoIncremented`` (the AUTO_INCREMENT constraint sets both).
- ``comment`` is null: Debezium reads comments only with ``include.schema.comments`` (default false).
- ``enumValues``: the members as the statement's string literals (quoted).
- A RENAME is an ALTER of the new name; TRUNCATE changes no schema and has no schema change event.
"""

from __future__ import annotations

from ...commands import AlterTable, RenameTable, RenameTo, TruncateTable
from ...model.column import Column, DefaultKind, escape_string
from ...model.table import IndexKind, Table
from ...model.types import TypeFamily
from .values import declared_base, declared_length

F = TypeFamily

# java.sql.Types constants
_T = {"BIT": -7, "TINYINT": -6, "SMALLINT": 5, "INTEGER": 4, "BIGINT": -5, "FLOAT": 6, "REAL": 7, "DOUBLE": 8,
      "NUMERIC": 2, "DECIMAL": 3, "CHAR": 1, "VARCHAR": 12, "LONGVARCHAR": -1, "DATE": 91, "TIME": 92,
      "TIMESTAMP": 93, "BINARY": -2, "VARBINARY": -3, "OTHER": 1111, "BLOB": 2004, "BOOLEAN": 16, "NCHAR": -15,
      "NVARCHAR": -9, "TIMESTAMP_WITH_TIMEZONE": 2014}

#: type keyword(s) as written -> java.sql.Types, per Debezium's MySQL data type resolver
JDBC_TYPES = {
    "CHAR": "CHAR", "CHARACTER": "CHAR", "CHAR VARYING": "VARCHAR", "CHARACTER VARYING": "VARCHAR",
    "VARCHAR": "VARCHAR", "TINYTEXT": "VARCHAR", "TEXT": "VARCHAR", "MEDIUMTEXT": "VARCHAR",
    "LONGTEXT": "VARCHAR", "LONG VARCHAR": "VARCHAR", "LONG": "VARCHAR", "NCHAR": "NCHAR", "NVARCHAR": "NVARCHAR",
    "NCHAR VARYING": "NVARCHAR", "NATIONAL CHAR": "NCHAR", "NATIONAL CHARACTER": "NCHAR",
    "NATIONAL VARCHAR": "NVARCHAR", "NATIONAL CHAR VARYING": "NVARCHAR", "NATIONAL CHARACTER VARYING": "NVARCHAR",
    "TINYINT": "SMALLINT", "INT1": "SMALLINT", "SMALLINT": "SMALLINT", "INT2": "SMALLINT",
    "MEDIUMINT": "INTEGER", "INT3": "INTEGER", "MIDDLEINT": "INTEGER", "INT": "INTEGER", "INTEGER": "INTEGER",
    "INT4": "INTEGER", "BIGINT": "BIGINT", "INT8": "BIGINT", "SERIAL": "BIGINT",
    "REAL": "REAL", "DOUBLE": "DOUBLE", "DOUBLE PRECISION": "DOUBLE", "FLOAT8": "DOUBLE", "FLOAT": "FLOAT",
    "FLOAT4": "FLOAT", "DECIMAL": "DECIMAL", "DEC": "DECIMAL", "FIXED": "DECIMAL", "NUMERIC": "NUMERIC",
    "BIT": "BIT", "TIME": "TIME", "TIMESTAMP": "TIMESTAMP_WITH_TIMEZONE", "DATETIME": "TIMESTAMP",
    "DATE": "DATE", "YEAR": "INTEGER", "BINARY": "BINARY", "VARBINARY": "VARBINARY", "BLOB": "BLOB",
    "TINYBLOB": "BLOB", "MEDIUMBLOB": "BLOB", "LONGBLOB": "BLOB", "LONG VARBINARY": "BLOB",
    "BOOL": "BOOLEAN", "BOOLEAN": "BOOLEAN", "ENUM": "CHAR", "SET": "CHAR", "JSON": "OTHER",
    "GEOMETRY": "OTHER", "POINT": "OTHER", "LINESTRING": "OTHER", "POLYGON": "OTHER", "MULTIPOINT": "OTHER",
    "MULTILINESTRING": "OTHER", "MULTIPOLYGON": "OTHER", "GEOMETRYCOLLECTION": "OTHER", "GEOMCOLLECTION": "OTHER",
}

_NUMERIC = (F.INTEGER, F.DECIMAL, F.FLOAT)


def jdbc_type(col: Column) -> int:
    base = declared_base(col)
    name = JDBC_TYPES.get(base) or JDBC_TYPES.get(col.type_name.upper(), "OTHER")
    return _T[name]


def type_name(col: Column) -> str:
    """Debezium's typeName (= typeExpression) of a column."""
    base = declared_base(col)
    if base == "SERIAL":
        return "BIGINT UNSIGNED"
    declared = (col.declared_type or "").upper().split()
    if col.family in _NUMERIC:
        if col.unsigned or "UNSIGNED" in declared:
            base += " UNSIGNED"
        if col.zerofill or "ZEROFILL" in declared:
            base += " ZEROFILL"
    return base


def length_scale(col: Column) -> tuple[int | None, int | None]:
    written = declared_length(col)
    if col.family is F.ENUM:
        return 1, None
    if col.family is F.SET:
        return max(0, 2 * len(col.values) - 1), None
    if written is None:         # not built from a statement: the model's own values
        if col.family in (F.TIME, F.DATETIME, F.TIMESTAMP):
            return (col.fsp or None), None
        return col.length, col.scale
    length, scale = written
    if length is None:
        if col.family is F.DECIMAL:
            return 10, 0
        if col.family is F.BIT:
            return 1, None
        return None, None
    if col.family is F.DECIMAL and scale is None:
        scale = col.scale if col.scale is not None else 0
    return length, scale


def default_expression(col: Column) -> str | None:
    d = col.default
    if d is None or d.kind is DefaultKind.NULL:
        return None
    if d.kind is DefaultKind.CURRENT_TIMESTAMP:
        return f"CURRENT_TIMESTAMP({d.fsp})" if d.fsp else "CURRENT_TIMESTAMP"
    return d.value


def column_change(col: Column) -> dict:
    length, scale = length_scale(col)
    name = type_name(col)
    enum = ["'" + escape_string(v) + "'" for v in col.values] if col.family in (F.ENUM, F.SET) else None
    return {"name": col.name, "jdbcType": jdbc_type(col), "nativeType": None, "typeName": name,
            "typeExpression": name, "charsetName": col.charset, "length": length, "scale": scale,
            "position": col.position, "optional": col.nullable, "autoIncremented": col.auto_increment,
            "generated": col.auto_increment, "comment": None, "defaultValueExpression": default_expression(col),
            "enumValues": enum}


def primary_key(table: Table) -> list[str]:
    """The key columns: the primary key's, else the first unique key's (Debezium's parser takes a
    unique key as the table's key when there is no primary key; "Change event keys": "the primary
    key, or the unique key if the table does not have a primary key"), else none."""
    pk = table.primary_key
    if pk is not None and pk.kind is IndexKind.PRIMARY:
        return list(pk.columns)
    for uk in table.unique_keys:
        if uk.columns and len(uk.columns) == len(uk.parts):
            return list(uk.columns)
    return []


def table_struct(table: Table) -> dict:
    return {"defaultCharsetName": table.charset, "primaryKeyColumnNames": primary_key(table),
            "columns": [column_change(c) for c in table.columns], "comment": None, "attributes": []}


def quoted_id(database: str | None, name: str) -> str:
    """TableId.toDoubleQuotedString: ``"db"."table"``."""
    return f'"{database}"."{name}"' if database else f'"{name}"'


def _renames(record) -> bool:
    for cmd in record.commands:
        if isinstance(cmd, RenameTable):
            return True
        if isinstance(cmd, AlterTable) and any(isinstance(op, RenameTo) for op in cmd.operations):
            return True
    return False


def table_changes(sc) -> list[tuple[str | None, dict]] | None:
    """(database, table change) per table a SchemaChange changed, as Debezium reports them; None
    when Debezium emits no schema change event for it (a TRUNCATE)."""
    rec = sc.record
    if rec.commands and all(isinstance(c, TruncateTable) for c in rec.commands):
        return None
    rename = _renames(rec)
    out = []
    for (tid, table), kind in zip(rec.tables, sc.kinds, strict=True):
        if rename:
            if table is None:
                continue            # the old name: Debezium reports the rename as an ALTER of the new one
            kind = "ALTER"
        out.append((tid.database, {"type": kind, "id": quoted_id(tid.database, tid.name),
                                   "table": table_struct(table) if table is not None else None}))
    return out


__all__ = ["JDBC_TYPES", "column_change", "default_expression", "jdbc_type", "length_scale", "primary_key",
           "quoted_id", "table_changes", "table_struct", "type_name"]
