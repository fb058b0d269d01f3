"""``alterTable`` -> :class:`~mysqlddl.commands.AlterTable` with its operations in order
(MySQL 8.4 manual 15.1.9 "ALTER TABLE"; MariaDB "ALTER TABLE": IF [NOT] EXISTS forms).

:data:`_SPECIFICATIONS` maps every labelled alternative of ``alterSpecification`` to its builder;
``None`` marks clauses that change no schema (ALGORITHM, LOCK, FORCE, ORDER BY, ENABLE/DISABLE
KEYS, DISCARD/IMPORT TABLESPACE, WITH/WITHOUT VALIDATION, partition maintenance). Clauses that
change the schema in ways the model cannot represent raise a positioned error instead of being
dropped silently (:data:`_UNMODELLED`).
"""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import (
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
    AlterTable,
    ChangeColumn,
    ConvertCharset,
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
from ...model.spec import ColumnSpec
from ...model.table import Period
from .column_definition import column_spec
from .create_table import period_definition, table_element
from .identifiers import charset_name, has, name, table_id
from .key_definition import KeyElement, index_definition, table_constraint, visibility_keyword
from .source import StatementSource
from .table_options import options_of, partitioning


def _position(ctx) -> dict:
    pos = ctx.columnPosition()
    if pos is None:
        return {}
    if pos.FIRST() is not None:
        return {"first": True}
    return {"after": name(pos.columnName())}


def _key_element(ke: KeyElement):
    if ke.key is not None:
        return AddIndex(ke.key, ke.if_not_exists)
    if ke.foreign_key is not None:
        return AddForeignKey(ke.foreign_key, ke.if_not_exists)
    return AddCheck(ke.check)


def _table_options(c, src):
    opts = options_of(c.tableOption(), src)
    out = [TableOptions(opts)] if opts else []
    if any(isinstance(o, P.SystemVersioningOptionContext) for o in c.tableOption()):
        out.append(AddSystemVersioning())  # ALTER TABLE t WITH SYSTEM VERSIONING
    return out


def _add_column(c, src):
    return [AddColumn(column_spec(c.columnDefinition(), src), if_not_exists=has(c, "ifNotExists"),
                      **_position(c))]


def _add_columns(c, src):
    """ADD [COLUMN] (col_def | key, ...): both servers take keys in the list too."""
    ine = has(c, "ifNotExists")
    out = []
    for el in c.tableElement():
        e = table_element(el, src)
        if isinstance(e, Period):
            out.append(AddPeriod(e))
        else:
            out.append(AddColumn(e, if_not_exists=ine) if isinstance(e, ColumnSpec) else _key_element(e))
    return out


def _add_index(c, src):
    return [_key_element(index_definition(c.indexDefinition(), src))]


def _add_constraint(c, src):
    return [_key_element(table_constraint(c.tableConstraint(), src))]


def _drop_constraint(c, src):
    n = name(c.identifier())
    ie = has(c, "ifExists")
    return [DropCheck(n, ie) if c.CHECK() is not None else DropConstraint(n, ie)]


def _alter_column(c, src):
    col = name(c.columnName())
    act = c.alterColumnAction()
    if act.VISIBLE() is not None or act.INVISIBLE() is not None:
        return [AlterColumnVisibility(col, act.VISIBLE() is not None)]
    if act.DROP() is not None:
        return [AlterColumnDefault(col, None)]
    return [AlterColumnDefault(col, src.text_of(act.defaultValue()))]


def _change_column(c, src):
    return [ChangeColumn(name(c.columnName()), column_spec(c.columnDefinition(), src),
                         if_exists=has(c, "ifExists"), **_position(c))]


def _modify_column(c, src):
    return [ModifyColumn(column_spec(c.columnDefinition(), src), if_exists=has(c, "ifExists"),
                         **_position(c))]


def _convert(c, src):
    coll = c.collationName()
    return [ConvertCharset(charset_name(c.charsetClause().charsetName(), src),
                           charset_name(coll, src) if coll is not None else None)]


def _drop_column(c, src):
    return [DropColumn(name(c.columnName()), has(c, "ifExists"))]


def _drop_index(c, src):
    return [DropKey(name(c.indexName()), has(c, "ifExists"))]


def _drop_primary(c, src):
    return [DropPrimaryKey()]


def _drop_foreign(c, src):
    ids = c.identifier()
    ids = ids if isinstance(ids, list) else [ids]
    # A qualified `db.fk` (accepted by the grammar) names the same constraint: the last part counts.
    return [DropForeignKey(name(ids[-1]), has(c, "ifExists"))]


def _rename_column(c, src):
    old, new = c.columnName()
    return [RenameColumn(name(old), name(new))]


def _rename_index(c, src):
    old, new = c.indexName()
    return [RenameIndex(name(old), name(new))]


def _rename_table(c, src):
    return [RenameTo(table_id(c.tableName()))]


def _partition_names(ids) -> tuple[str, ...]:
    if ids is None:
        return ()
    il = ids.identifierList() if hasattr(ids, "identifierList") else ids
    if il is None:
        return ()  # ALL
    return tuple(name(i) for i in il.identifier())


def _partition_op(action: str, names_of=None):
    def build(c, src):
        names = names_of(c) if names_of is not None else ()
        return [PartitionOp(action, names, text=src.text_of(c))]
    return build


def _add_partition(c, src):
    if c.PARTITIONS() is not None:  # ADD PARTITION PARTITIONS n (HASH/KEY)
        return [PartitionOp("ADD PARTITION", text=src.text_of(c), count=int(c.DECIMAL_LITERAL().getText()))]
    names = tuple(name(d.identifier()) for d in c.partitionDefinition())
    return [PartitionOp("ADD PARTITION", names, text=src.text_of(c))]


def _alter_index(c, src):
    # VISIBLE / INVISIBLE (MySQL) and IGNORED / NOT IGNORED (MariaDB 10.6+)
    if c.IGNORED() is not None:
        visible = visibility_keyword(c, c.NOT() is not None, "IGNORED", src)
    else:
        visible = visibility_keyword(c, c.VISIBLE() is not None, "VISIBLE" if c.VISIBLE() else "INVISIBLE", src)
    return [AlterIndexVisibility(name(c.indexName()), visible)]


def _alter_constraint(c, src):
    return [AlterCheckEnforcement(name(c.identifier()), c.constraintEnforcement().NOT() is None)]


def _add_period(c, src):
    return [AddPeriod(period_definition(c.periodDefinition(), src))]


def _drop_period(c, src):
    return [DropPeriod("SYSTEM_TIME" if c.SYSTEM_TIME() is not None else name(c.identifier()))]


def _coalesce(c, src):
    return [PartitionOp("COALESCE PARTITION", text=src.text_of(c), count=int(c.DECIMAL_LITERAL().getText()))]


def _unmodelled(what: str):
    def build(c, src):
        raise src.error(c, f"{what} is not modelled")
    return build


_UNMODELLED = {
    P.ConvertPartitionToTableContext: "CONVERT PARTITION ... TO TABLE",
    P.ConvertTableToPartitionContext: "CONVERT TABLE ... TO PARTITION",
}

_SPECIFICATIONS = {
    P.AlterTableOptionsContext: _table_options,
    P.AddColumnContext: _add_column,
    P.AddColumnsContext: _add_columns,
    P.AddIndexContext: _add_index,
    P.AddConstraintContext: _add_constraint,
    P.DropConstraintContext: _drop_constraint,
    P.AlterColumnContext: _alter_column,
    P.ChangeColumnContext: _change_column,
    P.ModifyColumnContext: _modify_column,
    P.ConvertToCharsetContext: _convert,
    P.DropColumnContext: _drop_column,
    P.DropIndexSpecContext: _drop_index,
    P.DropPrimaryKeyContext: _drop_primary,
    P.DropForeignKeyContext: _drop_foreign,
    P.RenameColumnContext: _rename_column,
    P.RenameIndexContext: _rename_index,
    P.RenameTableSpecContext: _rename_table,
    P.AddPartitionContext: _add_partition,
    P.DropPartitionContext: _partition_op("DROP PARTITION", lambda c: _partition_names(c.identifierList())),
    P.TruncatePartitionContext: _partition_op("TRUNCATE PARTITION",
                                              lambda c: _partition_names(c.partitionNames())),
    P.CoalescePartitionContext: _coalesce,
    P.AddPeriodContext: _add_period,
    P.DropPeriodContext: _drop_period,
    P.AddSystemVersioningContext: lambda c, src: [AddSystemVersioning()],
    P.DropSystemVersioningContext: lambda c, src: [DropSystemVersioning()],
    P.AlterConstraintContext: _alter_constraint,
    P.AlterIndexVisibilityContext: _alter_index,
    P.ReorganizePartitionContext: _partition_op("REORGANIZE PARTITION",
                                                lambda c: _partition_names(c.identifierList())),
    P.ExchangePartitionContext: _partition_op("EXCHANGE PARTITION", lambda c: (name(c.identifier()),)),
    P.RemovePartitioningContext: _partition_op("REMOVE PARTITIONING"),
    # no schema change
    P.AlterAlgorithmContext: None,
    P.AlterLockContext: None,
    P.ForceRebuildContext: None,
    P.AlterOrderByContext: None,
    P.EnableKeysContext: None,
    P.TablespaceActionContext: None,
    P.ValidationSpecContext: None,
    P.PartitionTablespaceContext: None,
    P.PartitionMaintenanceContext: None,
    P.UpgradePartitioningContext: None,
    **{k: _unmodelled(v) for k, v in _UNMODELLED.items()},
}


def build(ctx: P.AlterTableContext, src: StatementSource) -> AlterTable:
    ops = []
    for spec in ctx.alterSpecification():
        handler = src.handler(_SPECIFICATIONS, spec, "ALTER TABLE clause")
        if handler is not None:
            ops.extend(handler(spec, src))
    pc = ctx.partitionClause()
    if pc is not None:
        ops.append(PartitionOp("PARTITION BY", partitioning=partitioning(pc, src), text=src.text_of(pc)))
    return AlterTable(table_id(ctx.tableName()), tuple(ops), if_exists=ctx.ifExists() is not None)
