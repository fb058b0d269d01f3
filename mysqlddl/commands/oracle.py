"""ALTER TABLE operations and commands of the Oracle dialect, where Oracle's statement means
something no MySQL operation does (SQL Ref. "ALTER TABLE", "COMMENT").

- :class:`ReviseColumn`: MODIFY col ... changes only what it says (MySQL's MODIFY replaces the
  whole definition);
- :class:`SetConstraintState`: ENABLE/DISABLE [NO]VALIDATE, MODIFY CONSTRAINT/PRIMARY KEY/UNIQUE;
- :class:`DropNamedConstraint`, :class:`DropUniqueKey`, :class:`RenameConstraint`: constraints by
  name (a primary key too, by its CONSTRAINT name) or by UNIQUE (columns);
- :class:`CommentOn`: COMMENT ON TABLE / COLUMN.

Constraint names the model does not know (NOT NULL constraints and the system-generated
``SYS_Cnnnnnn`` names, which no DDL statement reveals) make the state, drop and rename
operations no-ops rather than errors: the statement was valid on the server, and what it did is
not in the model.
"""

from __future__ import annotations

import dataclasses

from ..model.catalog import Catalog
from ..model.column import Default, DefaultKind, Generated, GeneratedKind, Identity
from ..model.ids import TableId, column_key
from ..model.oracle import default_value, resolve_type
from ..model.spec import DataTypeSpec
from ..model.table import ConstraintState, TableEditor
from ..options import DEFAULT, Options
from .alter_base import AlterOperation, _op
from .base import Command, _command, _put, _require_table

_DEFAULT_STATE = ConstraintState()


@_op
class ReviseColumn(AlterOperation):
    """MODIFY col [type] [DEFAULT [ON NULL] expr] [NULL|NOT NULL] [identity | DROP IDENTITY]
    [AS (expr)] [VISIBLE|INVISIBLE] [COLLATE c]: each field None (False for
    ``drop_identity``) leaves that part of the column as it is."""

    name: str
    type: DataTypeSpec | None = None
    nullable: bool | None = None
    default: str | None = None
    default_on_null: bool = False
    identity: Identity | None = None
    drop_identity: bool = False
    generated: str | None = None
    visible: bool | None = None
    collation: str | None = None

    def apply_to(self, ed: TableEditor, st) -> None:
        old = ed.column(self.name)
        ch: dict = {}
        if self.type is not None:
            ch.update(resolve_type(self.type), declared_type=self.type.text or self.type.name)
        if self.collation is not None:
            ch["collation"] = self.collation
        identity = old.identity
        if self.drop_identity:
            identity = None
        if self.identity is not None:
            identity = self.identity
        nullable = old.nullable if self.nullable is None else self.nullable
        default, on_null = old.default, old.default_on_null
        if self.default is not None:
            default, on_null = default_value(self.default), self.default_on_null
        if identity is not None or on_null:
            nullable = False
        generated = old.generated
        if self.generated is not None:
            generated = Generated(GeneratedKind.VIRTUAL, self.generated)
        if identity is not None or generated is not None:
            default = None
        elif default is None and nullable:
            default = Default.null()
        elif default is not None and default.kind is DefaultKind.NULL and not nullable and self.default is None:
            default = None
        ch.update(nullable=nullable, default=default, default_on_null=on_null, identity=identity,
                  generated=generated)
        if self.visible is not None:
            ch["visible"] = self.visible
        ed.set_column(self.name, **ch)


def _find_constraint(ed: TableEditor, name: str | None, primary_key: bool, unique_columns: tuple[str, ...]):
    """(kind, object) of the constraint named or described, or (None, None)."""
    if primary_key:
        return ("primary", ed.primary_key) if ed.primary_key is not None else (None, None)
    if unique_columns:
        want = [column_key(c) for c in unique_columns]
        for ix in ed.unique_keys:
            if [column_key(c) for c in ix.columns] == want:
                return "unique", ix
        return None, None
    k = column_key(name)
    pk = ed.primary_key
    if pk is not None and pk.constraint_name is not None and column_key(pk.constraint_name) == k:
        return "primary", pk
    for ix in ed.unique_keys:
        if column_key(ix.name) == k:
            return "unique", ix
    for fk in ed.foreign_keys:
        if column_key(fk.name) == k:
            return "foreign", fk
    for chk in ed.checks:
        if column_key(chk.name) == k:
            return "check", chk
    return None, None


def _replace(ed: TableEditor, kind: str, old, new) -> None:
    if kind == "primary":
        ed.primary_key = new
    elif kind == "unique":
        ed.unique_keys = [new if x is old else x for x in ed.unique_keys]
    elif kind == "foreign":
        ed.foreign_keys = [new if x is old else x for x in ed.foreign_keys]
    else:
        ed.checks = [new if x is old else x for x in ed.checks]


@_op
class SetConstraintState(AlterOperation):
    """ENABLE|DISABLE [VALIDATE|NOVALIDATE] {CONSTRAINT c | PRIMARY KEY | UNIQUE (cols)} and
    MODIFY {CONSTRAINT c | PRIMARY KEY | UNIQUE (cols)} state: the target is ``constraint`` (a
    name), ``primary_key`` or ``unique_columns``; each state field None is left as it is
    (DISABLE without VALIDATE also means NOVALIDATE, ENABLE without NOVALIDATE VALIDATE)."""

    constraint: str | None = None
    primary_key: bool = False
    unique_columns: tuple[str, ...] = ()
    enabled: bool | None = None
    validated: bool | None = None
    deferrable: bool | None = None
    initially_deferred: bool | None = None
    rely: bool | None = None

    def apply_to(self, ed: TableEditor, st) -> None:
        kind, obj = _find_constraint(ed, self.constraint, self.primary_key, self.unique_columns)
        if obj is None:
            return
        cur = obj.state or _DEFAULT_STATE
        enabled = cur.enabled if self.enabled is None else self.enabled
        validated = self.validated if self.validated is not None else (
            enabled if self.enabled is not None else cur.validated)
        new = ConstraintState(
            enabled, validated, cur.deferrable if self.deferrable is None else self.deferrable,
            cur.initially_deferred if self.initially_deferred is None else self.initially_deferred,
            cur.rely if self.rely is None else self.rely)
        changes = {"state": None if new == _DEFAULT_STATE else new}
        if kind == "check":
            changes["enforced"] = enabled
        _replace(ed, kind, obj, dataclasses.replace(obj, **changes))


@_op
class DropNamedConstraint(AlterOperation):
    """DROP CONSTRAINT c: the primary key (by its CONSTRAINT name), a unique key, a foreign key
    or a check constraint."""

    name: str

    def apply_to(self, ed: TableEditor, st) -> None:
        kind, obj = _find_constraint(ed, self.name, False, ())
        if kind == "primary":
            ed.drop_primary_key()
        elif kind == "unique":
            ed.drop_index(obj.name)
        elif kind == "foreign":
            ed.drop_foreign_key(obj.name)
        elif kind == "check":
            ed.drop_check(obj.name)


@_op
class DropUniqueKey(AlterOperation):
    """DROP UNIQUE (cols): the unique key on exactly those columns."""

    columns: tuple[str, ...]

    def apply_to(self, ed: TableEditor, st) -> None:
        kind, obj = _find_constraint(ed, None, False, self.columns)
        if obj is not None:
            ed.drop_index(obj.name)


@_op
class RenameConstraint(AlterOperation):
    """RENAME CONSTRAINT old TO new."""

    old_name: str
    new_name: str

    def apply_to(self, ed: TableEditor, st) -> None:
        kind, obj = _find_constraint(ed, self.old_name, False, ())
        if kind == "primary":
            ed.primary_key = dataclasses.replace(obj, constraint_name=self.new_name)
        elif kind == "unique":
            ed.rename_index(obj.name, self.new_name)
        elif kind is not None:
            _replace(ed, kind, obj, dataclasses.replace(obj, name=self.new_name))


@_command
class CommentOn(Command):
    """COMMENT ON TABLE t IS '...' (``column`` None) or COMMENT ON COLUMN t.c IS '...'.
    ``comment`` is the text (None or '' removes it: Oracle stores '' as NULL)."""

    table: TableId
    column: str | None = None
    comment: str | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = _require_table(catalog, self.table)
        ed = t.edit()
        text = self.comment or None
        if self.column is None:
            ed.set(comment=text)
        else:
            ed.set_column(self.column, comment=text)
        return _put(catalog, ed.build(), changed=(t.id,))

