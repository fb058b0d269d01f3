"""``alterTable`` -> :class:`~mysqlddl.commands.AlterTable` (SQL Ref. "ALTER TABLE").

One entry of :data:`_CLAUSES` per labelled alternative of ``alterTableClause``:

| clause | operations |
|---|---|
| ADD col_def / ADD (col_def, constraint, ...) / ADD constraint | AddColumn, AddIndex, AddForeignKey,
  AddCheck |
| MODIFY col ... / MODIFY (col ..., ...) | ReviseColumn (only what is said changes) + inline constraints |
| MODIFY CONSTRAINT c / PRIMARY KEY / UNIQUE (cols) state | SetConstraintState |
| ENABLE / DISABLE [NO]VALIDATE CONSTRAINT c / PRIMARY KEY / UNIQUE (cols) | SetConstraintState |
| DROP COLUMN c / DROP (a, b) | DropColumn |
| SET UNUSED COLUMN c / SET UNUSED (a, b) | DropColumn (an unused column is gone for good) |
| DROP UNUSED COLUMNS, DROP COLUMNS CONTINUE | none (storage only) |
| DROP CONSTRAINT c / DROP PRIMARY KEY / DROP UNIQUE (cols) | DropNamedConstraint, DropPrimaryKey, DropUniqueKey |
| RENAME TO t / RENAME COLUMN a TO b / RENAME CONSTRAINT a TO b | RenameTo, RenameColumn, RenameConstraint |
| anything else (partitions, storage, supplemental logging, SHRINK, MOVE, READ ONLY, ...) | none |

A statement made only of clauses without operations produces no command (it changes no
definition, and the table need not be known).
"""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...commands import (
    AddCheck,
    AddColumn,
    AddForeignKey,
    AddIndex,
    AlterTable,
    DropColumn,
    DropNamedConstraint,
    DropPrimaryKey,
    DropUniqueKey,
    RenameColumn,
    RenameConstraint,
    RenameTo,
    ReviseColumn,
    SetConstraintState,
)
from ...model.spec import CheckSpec, ForeignKeySpec, KeySpec
from .column_definition import column_parts
from .constraint import out_of_line
from .create_table import relational_properties
from .identifiers import column_list, constraint_name, name, table_id
from .source import StatementSource


def _constraint_op(spec):
    if isinstance(spec, KeySpec):
        return AddIndex(spec)
    if isinstance(spec, ForeignKeySpec):
        return AddForeignKey(spec)
    assert isinstance(spec, CheckSpec)
    return AddCheck(spec)


def _add_list(c, src):
    columns, keys, fks, checks = relational_properties(c.relationalProperty(), src)
    return [AddColumn(col) for col in columns] + [_constraint_op(s) for s in (*keys, *fks, *checks)]


def _add_constraint(c, src):
    return [_constraint_op(out_of_line(c.outOfLineConstraint(), src))]


def _add_column(c, src):
    parts = column_parts(c.columnDefinition(), src)
    return [AddColumn(parts.spec())] + [_constraint_op(s) for s in parts.constraints]


def _revise(m, src):
    parts = column_parts(m, src)
    said = parts.said
    op = ReviseColumn(parts.name, parts.type, nullable=said.get("nullable"), default=said.get("default"),
                      default_on_null=said.get("default_on_null", False), identity=said.get("identity"),
                      drop_identity=parts.drop_identity, generated=said.get("generated"),
                      visible=said.get("visible"), collation=said.get("collation"))
    return [op] + [_constraint_op(s) for s in parts.constraints]


def _modify_list(c, src):
    return [op for m in c.modifyColumn() for op in _revise(m, src)]


def _modify_column(c, src):
    return _revise(c.modifyColumn(), src)


def _state_fields(states, enabled=None, validated=None) -> dict:
    """The state fields a clause sets (absent: unchanged)."""
    out = {}
    if enabled is not None:
        out["enabled"] = enabled
    if validated is not None:
        out["validated"] = validated
    for s in states:
        if isinstance(s, P.EnableStateContext):
            out["enabled"] = True
        elif isinstance(s, P.DisableStateContext):
            out["enabled"] = False
        elif isinstance(s, P.ValidateStateContext):
            out["validated"] = True
        elif isinstance(s, P.NovalidateStateContext):
            out["validated"] = False
        elif isinstance(s, P.DeferrableStateContext):
            out["deferrable"] = s.NOT() is None
        elif isinstance(s, P.InitiallyStateContext):
            out["initially_deferred"] = s.DEFERRED() is not None
        elif isinstance(s, P.RelyStateContext):
            out["rely"] = True
        elif isinstance(s, P.NorelyStateContext):
            out["rely"] = False
    return out


def _target(c, src) -> dict:
    cname = c.constraintName() if hasattr(c, "constraintName") else None
    if cname is not None:
        return {"constraint": constraint_name(cname, src)}
    key = c.keyReference()
    if key.PRIMARY() is not None:
        return {"primary_key": True}
    return {"unique_columns": column_list(key.columnList(), src)}


def _modify_constraint(c, src):
    return [SetConstraintState(**_target(c, src), **_state_fields(c.constraintState()))]


def _state_clause(c, src):
    enabled = c.ENABLE() is not None
    validated = True if c.VALIDATE() is not None else (False if c.NOVALIDATE() is not None else None)
    return [SetConstraintState(**_target(c, src), **_state_fields(c.constraintState(), enabled, validated))]


def _drop_column(c, src):
    return [DropColumn(name(c.columnName(), src))]


def _drop_columns(c, src):
    return [DropColumn(name(n, src)) for n in c.columnName()]


def _drop_constraint(c, src):
    return [DropNamedConstraint(constraint_name(c.constraintName(), src))]


def _drop_key(c, src):
    key = c.keyReference()
    if key.PRIMARY() is not None:
        return [DropPrimaryKey()]
    return [DropUniqueKey(column_list(key.columnList(), src))]


def _rename_to(c, src):
    return [RenameTo(table_id(c.tableName(), src))]


def _rename_column(c, src):
    old, new = c.columnName()
    return [RenameColumn(name(old, src), name(new, src))]


def _rename_constraint(c, src):
    old, new = c.constraintName()
    return [RenameConstraint(constraint_name(old, src), constraint_name(new, src))]


def _nothing(c, src):
    return []


_CLAUSES = {
    P.AddListClauseContext: _add_list,
    P.AddConstraintClauseContext: _add_constraint,
    P.AddColumnClauseContext: _add_column,
    P.ModifyListClauseContext: _modify_list,
    P.ModifyColumnClauseContext: _modify_column,
    P.ModifyConstraintClauseContext: _modify_constraint,
    P.ModifyKeyClauseContext: _modify_constraint,
    P.ConstraintStateClauseContext: _state_clause,
    P.DropColumnClauseContext: _drop_column,
    P.DropColumnListClauseContext: _drop_columns,
    P.SetUnusedClauseContext: _drop_columns,
    P.DropUnusedClauseContext: _nothing,
    P.DropColumnsContinueClauseContext: _nothing,
    P.DropConstraintClauseContext: _drop_constraint,
    P.DropKeyClauseContext: _drop_key,
    P.RenameToClauseContext: _rename_to,
    P.RenameColumnClauseContext: _rename_column,
    P.RenameConstraintClauseContext: _rename_constraint,
    P.OtherAlterClauseContext: _nothing,
}


def build(ctx: P.AlterTableContext, src: StatementSource) -> AlterTable | None:
    ops = []
    for clause in ctx.alterTableClause():
        handler = _CLAUSES.get(type(clause))
        if handler is None:
            raise src.error(clause, f"ALTER TABLE clause {src.text_of(clause)!r} is not handled")
        ops.extend(handler(clause, src))
    if not ops:
        return None
    return AlterTable(table_id(ctx.tableName(), src), tuple(ops))
