"""ALTER TABLE's key and constraint clauses: ADD/DROP/RENAME INDEX and KEY, PRIMARY KEY,
FOREIGN KEY, CHECK and CONSTRAINT, and ALTER INDEX/CHECK (visibility, enforcement).

The drops and renames name keys of the old definition; the adds are resolved against the new
columns (:class:`~mysqlddl.commands.alter_table.AlterTable` orders the phases).
"""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError
from ..model.ids import column_key
from ..model.resolve import add_check_spec, add_foreign_key_spec, add_key_spec
from ..model.spec import CheckSpec, ForeignKeySpec, KeySpec
from ..model.table import IndexKind, TableEditor
from .alter_base import AlterOperation, _op


@_op
class AddIndex(AlterOperation):
    """ADD {INDEX|KEY|UNIQUE|PRIMARY KEY|FULLTEXT|SPATIAL} [IF NOT EXISTS] ... (``key.kind``)."""

    key: KeySpec
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_not_exists and self.key.kind is not IndexKind.PRIMARY and \
                (self.key.name or self.key.constraint_name) and \
                ed.has_index(self.key.name or self.key.constraint_name):
            return
        add_key_spec(ed, self.key, st.ctx)


@_op
class AddForeignKey(AlterOperation):
    """ADD [CONSTRAINT [name]] FOREIGN KEY [IF NOT EXISTS] ..."""

    foreign_key: ForeignKeySpec
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        n = self.foreign_key.name
        if self.if_not_exists and n and any(column_key(f.name) == column_key(n) for f in ed.foreign_keys):
            return
        add_foreign_key_spec(ed, self.foreign_key, st.ctx)


@_op
class AddCheck(AlterOperation):
    """ADD [CONSTRAINT [name]] CHECK (expr)."""

    check: CheckSpec

    def apply_to(self, ed, st):
        add_check_spec(ed, self.check, st.ctx)


@_op
class DropKey(AlterOperation):
    """DROP {INDEX|KEY} [IF EXISTS] name."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_exists and not ed.has_index(self.name):
            return
        ed.drop_index(self.name)


@_op
class DropPrimaryKey(AlterOperation):
    """DROP PRIMARY KEY (its columns stay NOT NULL)."""

    def apply_to(self, ed, st):
        ed.drop_primary_key()


@_op
class DropForeignKey(AlterOperation):
    """DROP FOREIGN KEY [IF EXISTS] name (the index it created stays)."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_exists and not any(column_key(f.name) == column_key(self.name) for f in ed.foreign_keys):
            return
        ed.drop_foreign_key(self.name)


@_op
class DropCheck(AlterOperation):
    """DROP CHECK [IF EXISTS] name."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        table_checks = [c for c in ed.checks if c.column is None]
        if not any(column_key(c.name) == column_key(self.name) for c in table_checks):
            if self.if_exists:
                return
            raise DdlSemanticError(f"Can't DROP CONSTRAINT `{self.name}`; check that it exists")
        ed.drop_check(self.name)


@_op
class DropConstraint(AlterOperation):
    """DROP CONSTRAINT [IF EXISTS] name: whichever of foreign key, check or unique key has it."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        k = column_key(self.name)
        if any(column_key(f.name) == k for f in ed.foreign_keys):
            ed.drop_foreign_key(self.name)
        elif any(column_key(c.name) == k and c.column is None for c in ed.checks):
            ed.drop_check(self.name)  # (a MariaDB column-level CHECK cannot be dropped by name)
        elif any(column_key(i.name) == k for i in ed.unique_keys) or (k == "primary" and ed.primary_key):
            ed.drop_index(self.name)
        elif not self.if_exists:
            raise DdlSemanticError(f"Can't DROP CONSTRAINT `{self.name}`; check that it exists")


@_op
class RenameIndex(AlterOperation):
    """RENAME {INDEX|KEY} old TO new."""

    old_name: str
    new_name: str

    def apply_to(self, ed, st):
        ed.rename_index(self.old_name, self.new_name)


def _rename_indexes(ed: TableEditor, renames: list[RenameIndex]) -> None:
    """RENAME KEY clauses name keys of the old definition (minus the ones this statement drops),
    each at most once, and the new names must be unique only at the end: MariaDB 10.11 accepts
    "RENAME KEY a TO b, RENAME KEY b TO c" and "RENAME KEY a TO b, DROP KEY b", and refuses
    "RENAME KEY q TO c, RENAME KEY c TO d" (c is not an old key) and "RENAME KEY a TO a2, DROP
    KEY a2" (checked on 10.11.19; mysql_prepare_alter_table() looks renames up in the old keys)."""
    if not renames:
        return
    keys = ed.unique_keys + ed.indexes
    new_names: dict[int, str] = {}
    for op in renames:
        k = column_key(op.old_name)
        hit = next((i for i, ix in enumerate(keys) if column_key(ix.name) == k and i not in new_names), None)
        if hit is None:
            raise DdlSemanticError(f"Key '{op.old_name}' doesn't exist in table '{ed.id.name}'")
        new_names[hit] = op.new_name
    renamed = [dataclasses.replace(ix, name=new_names[i]) if i in new_names else ix for i, ix in enumerate(keys)]
    ed.unique_keys, ed.indexes = renamed[:len(ed.unique_keys)], renamed[len(ed.unique_keys):]
    seen: set[str] = {"primary"} if ed.primary_key is not None else set()
    for ix in renamed:
        if column_key(ix.name) in seen:
            raise DdlSemanticError(f"Duplicate key name '{ix.name}'")
        seen.add(column_key(ix.name))


@_op
class AlterIndexVisibility(AlterOperation):
    """ALTER {INDEX|KEY} name VISIBLE | INVISIBLE (MySQL 8.0, manual 10.3.12 "Invisible Indexes")
    and MariaDB's [NOT] IGNORED (10.6+, KB "Ignored Indexes"): ``visible`` False for INVISIBLE /
    IGNORED. A primary key, explicit or implicit, cannot be hidden (validated at the end)."""

    name: str
    visible: bool

    def apply_to(self, ed, st):
        k = column_key(self.name)
        for lst in (ed.unique_keys, ed.indexes):
            for i, ix in enumerate(lst):
                if column_key(ix.name) == k:
                    lst[i] = dataclasses.replace(ix, visible=self.visible)
                    return
        if k == "primary" and ed.primary_key is not None:
            raise DdlSemanticError("A primary key index cannot be invisible")
        raise DdlSemanticError(f"Key '{self.name}' doesn't exist in table '{ed.id.name}'")


@_op
class AlterCheckEnforcement(AlterOperation):
    """ALTER {CHECK|CONSTRAINT} name [NOT] ENFORCED (MySQL 8.0.16 / 8.0.19, manual 15.1.9 "ALTER
    TABLE"); MariaDB has no such clause (DialectRules.check_enforcement)."""

    name: str
    enforced: bool

    def apply_to(self, ed, st):
        if not st.ctx.rules.check_enforcement:
            raise DdlSemanticError("ALTER CHECK ... ENFORCED is not supported by this server")
        k = column_key(self.name)
        for i, c in enumerate(ed.checks):
            if column_key(c.name) == k:
                ed.checks[i] = dataclasses.replace(c, enforced=self.enforced)
                return
        raise DdlSemanticError(f"Check constraint '{self.name}' is not found in the table.")
