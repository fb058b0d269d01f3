"""ALTER TABLE's column clauses: ADD, DROP, CHANGE, MODIFY, RENAME COLUMN and ALTER COLUMN.

Each claims the original column it names through the statement's :class:`~.alter_base._AlterState`
(the server looks CHANGE/MODIFY/RENAME up in the old definition, once per statement);
:class:`~mysqlddl.commands.alter_table.AlterTable` runs them in two passes (in place, then new
columns and FIRST/AFTER moves).
"""

from __future__ import annotations

from ..errors import DdlSemanticError
from ..model import literals
from ..model.column import Default, DefaultKind
from ..model.ids import column_key
from ..model.resolve import first_timestamp_before
from ..model.spec import ColumnSpec
from ..model.types import TypeFamily
from .alter_base import AlterOperation, _op, _resolve_at


@_op
class AddColumn(AlterOperation):
    """ADD [COLUMN] [IF NOT EXISTS] col_def [FIRST | AFTER col]."""

    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        if self.if_not_exists and ed.has_column(self.column.name):
            return
        rc = _resolve_at(ed, self.column, st, self.first, self.after, None)
        ed.add_column(rc.column, first=self.first, after=self.after)
        st.defined(ed, rc, self.column)


@_op
class DropColumn(AlterOperation):
    """DROP [COLUMN] [IF EXISTS] col."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st, keep_keys: bool = False):
        if self.if_exists and not ed.has_column(self.name):
            return
        if column_key(self.name) not in st.original:
            raise DdlSemanticError(f"Can't DROP COLUMN `{self.name}`; check that it exists")
        st.dropped.append(self.name)
        ed.drop_column(self.name, keep_keys=keep_keys)


@_op
class ChangeColumn(AlterOperation):
    """CHANGE [COLUMN] [IF EXISTS] old new_col_def [FIRST | AFTER col]: replaces the whole
    definition (attributes not repeated are lost) and may rename."""

    old_name: str
    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_exists: bool = False

    def apply_to(self, ed, st, in_place: bool = False):
        """``in_place``: leave FIRST/AFTER to a later move (AlterTable.apply), but still resolve
        the column for its final position (the first-TIMESTAMP rule depends on it)."""
        if self.if_exists and not ed.has_column(self.old_name):
            return
        ed.column(self.old_name)
        st.claim(self.old_name, ed, in_place=not (self.first or self.after is not None))
        try:
            rc = _resolve_at(ed, self.column, st, self.first, self.after, self.old_name)
        except DdlSemanticError:
            if not in_place:
                raise
            rc = _resolve_at(ed, self.column, st, False, None, self.old_name)  # AFTER a column added later
        if in_place:
            ed.replace_column(self.old_name, rc.column)
        else:
            ed.replace_column(self.old_name, rc.column, first=self.first, after=self.after)
        st.defined(ed, rc, self.column)


@_op
class ModifyColumn(AlterOperation):
    """MODIFY [COLUMN] [IF EXISTS] col_def [FIRST | AFTER col]: CHANGE without a rename."""

    column: ColumnSpec
    first: bool = False
    after: str | None = None
    if_exists: bool = False

    def apply_to(self, ed, st, in_place: bool = False):
        ChangeColumn(self.column.name, self.column, self.first, self.after,
                     self.if_exists).apply_to(ed, st, in_place)


@_op
class RenameColumn(AlterOperation):
    """RENAME COLUMN old TO new (definition kept)."""

    old_name: str
    new_name: str

    def apply_to(self, ed, st):
        st.claim(self.old_name, ed)
        ed.rename_column(self.old_name, self.new_name)


@_op
class AlterColumnDefault(AlterOperation):
    """ALTER [COLUMN] col SET DEFAULT value (``default``: its SQL text) or DROP DEFAULT
    (``default=None``)."""

    name: str
    default: str | None = None

    def apply_to(self, ed, st):
        c = ed.column(self.name)
        if c.on_update is not None and st.ctx.rules.set_default_drops_on_update:
            ed.set_column(self.name, on_update=None)
        if self.default is None and c.family is TypeFamily.TIMESTAMP and not c.nullable \
                and not st.ctx.explicit_defaults_for_timestamp:
            # explicit_defaults_for_timestamp=OFF: a NOT NULL TIMESTAMP without default gets the
            # implicit one again (auto-init when it is the first TIMESTAMP; MariaDB 10.11 checked)
            i = next(j for j, x in enumerate(ed.columns) if column_key(x.name) == column_key(c.name))
            fsp = c.fsp or 0
            if first_timestamp_before(ed.columns, i):
                ed.set_column(self.name, default=Default.current_timestamp(fsp),
                              on_update=Default.current_timestamp(fsp))
            else:
                ed.set_column(self.name, default=Default.literal(
                    "0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else "")))
            return
        if self.default is None:
            # DROP DEFAULT leaves a nullable column with DEFAULT NULL (MariaDB 10.11 checked).
            ed.set_column(self.name, default=Default.null() if c.nullable and not c.auto_increment
                          and c.family not in st.ctx.rules.no_implicit_null_default else None)
            return
        d = literals.normalise_default(literals.classify(self.default, st.ctx.no_backslash_escapes),
                                       c.family, scale=c.scale, fsp=c.fsp or 0, values=c.values,
                                       length=c.length, zerofill=c.zerofill)
        if d.kind is DefaultKind.NULL and not c.nullable:
            raise DdlSemanticError(f"Invalid default value for '{c.name}'")
        ed.set_column(self.name, default=d)


@_op
class AlterColumnVisibility(AlterOperation):
    """ALTER [COLUMN] col SET VISIBLE | INVISIBLE (MySQL 8.0.23)."""

    name: str
    visible: bool

    def apply_to(self, ed, st):
        ed.column(self.name)
        ed.set_column(self.name, visible=self.visible)
