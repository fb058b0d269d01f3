"""What every ALTER TABLE clause shares: the operation base class and the statement's state.

:class:`AlterOperation` is one clause of ALTER TABLE (a frozen, JSON-tagged dataclass made by
:func:`_op`); :class:`_AlterState` is what the clauses of one statement learn about each other
while :class:`~mysqlddl.commands.alter_table.AlterTable` applies them in the server's phases
(which original columns a clause already claimed, which it redefined, the charset CONVERT TO
leaves). The clauses themselves are grouped by what they change: :mod:`.alter_columns`,
:mod:`.alter_keys`, :mod:`.alter_whole_table`.
"""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError
from ..model import codec
from ..model.catalog import Catalog
from ..model.ids import TableId, column_key
from ..model.resolve import Context, ResolvedColumn, add_column_extras, first_timestamp_before, resolve_column
from ..model.spec import ColumnSpec
from ..model.table import TableEditor
from ..options import Options


class AlterOperation:
    """One clause of ALTER TABLE. ``apply_to(editor, state)`` edits the table being built."""

    __slots__ = ()

    def apply_to(self, ed: TableEditor, st: _AlterState) -> None:
        raise NotImplementedError


def _op(cls):
    return codec.polymorphic(dataclasses.dataclass(frozen=True, slots=True)(cls))


class _AlterState:
    def __init__(self, catalog: Catalog, options: Options, ctx: Context):
        self.catalog = catalog
        self.options = options
        self.ctx = ctx
        self.new_id: TableId | None = None
        self.dropped: list[str] = []  # columns dropped by this statement
        self.original: set[str] = set()  # column keys of the table before the statement
        self.consumed: set[str] = set()  # original columns already changed by a clause
        self.changed: set[str] = set()  # new names of columns redefined by CHANGE/MODIFY/ADD
        self.convert: tuple[str, str] | None = None  # CONVERT TO CHARACTER SET, applied last
        self.binary: set[str] = set()  # columns this statement defines with the BINARY attribute
        self.consumed_in_place: set[str] = set()  # original columns redefined without FIRST/AFTER
        self.new_defs: set[str] = set()  # column names (re)defined by ADD or positioned CHANGE/MODIFY
        self.altered: set[str] = set()  # columns an ALTER COLUMN clause already changed

    def defined(self, ed: TableEditor, rc: ResolvedColumn, spec: ColumnSpec) -> None:
        """ADD/CHANGE/MODIFY put ``rc`` in the table: remember it was redefined (and with the
        BINARY attribute, for CONVERT TO later in the statement) and add its keys and checks."""
        name = rc.column.name.lower()
        self.changed.add(name)
        if spec.type.binary:
            self.binary.add(name)
        add_column_extras(ed, rc, self.ctx)

    def claim_alter(self, name: str, ed: TableEditor) -> None:
        """ALTER COLUMN c SET/DROP DEFAULT | SET [IN]VISIBLE applies to an original column no
        CHANGE/MODIFY/RENAME redefined in place, or to a column the statement (re)defines in its
        second pass (ADD, positioned CHANGE/MODIFY), once (MariaDB 10.11: "MODIFY c ..., ALTER c
        SET DEFAULT 1" and two ALTERs of one column fail with "Unknown column", "ALTER c SET
        DEFAULT 1, MODIFY c ... FIRST" works)."""
        k = column_key(name)
        ok = k in self.new_defs or (k in self.original and k not in self.consumed_in_place)
        if not ok or k in self.altered:
            raise DdlSemanticError(f"Unknown column '{name}' in '{ed.id.name}'")
        self.altered.add(k)

    def claim(self, name: str, ed: TableEditor, in_place: bool = True) -> None:
        """CHANGE/MODIFY/RENAME COLUMN name an original column, and only once per statement:
        the server looks them up in the old definition ("Unknown column" otherwise)."""
        k = column_key(name)
        if k not in self.original or k in self.consumed:
            raise DdlSemanticError(f"Unknown column '{name}' in '{ed.id.name}'")
        self.consumed.add(k)
        if in_place:
            self.consumed_in_place.add(k)


def _position(ed: TableEditor, first: bool, after: str | None, exclude: str | None) -> int:
    cols = [c for c in ed.columns if exclude is None or column_key(c.name) != column_key(exclude)]
    if first:
        return 0
    if after is not None:
        for i, c in enumerate(cols):
            if column_key(c.name) == column_key(after):
                return i + 1
        raise DdlSemanticError(f"Unknown column '{after}' in '{ed.id.name}'")
    if exclude is not None:
        for i, c in enumerate(ed.columns):
            if column_key(c.name) == column_key(exclude):
                return i
    return len(cols)


def _resolve_at(ed: TableEditor, spec: ColumnSpec, st: _AlterState, first: bool, after: str | None,
                exclude: str | None) -> ResolvedColumn:
    cols = [c for c in ed.columns if exclude is None or column_key(c.name) != column_key(exclude)]
    idx = _position(ed, first, after, exclude)
    return resolve_column(spec, st.ctx, first_timestamp=first_timestamp_before(cols, idx))
