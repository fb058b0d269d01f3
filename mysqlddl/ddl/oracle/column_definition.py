"""``columnDefinition`` / ``modifyColumn`` -> :class:`ColumnParts` (SQL Ref. "CREATE TABLE",
column_definition, virtual_column_definition, identity_clause; "ALTER TABLE",
modify_col_properties).

The attributes are one loop in the grammar; each labelled alternative has one entry in
:data:`_ATTRIBUTES` (None: accepted and not recorded, the reason beside it). What the statement
*said* is kept apart from what it did not say, because ALTER TABLE ... MODIFY changes only what
it says.
"""

from __future__ import annotations

import dataclasses

from ..._generated.oracle.OracleParser import OracleParser as P
from ...model.column import Identity
from ...model.spec import ColumnSpec, DataTypeSpec
from .constraint import Spec, inline
from .data_type import data_type_spec
from .identifiers import name
from .source import StatementSource


@dataclasses.dataclass(slots=True)
class ColumnParts:
    """A column definition as written: ``name``; ``type`` (None when not written); ``said`` the
    ColumnSpec fields the attributes set (nullable, default, default_on_null, identity,
    generated, visible, collation); ``drop_identity``; ``constraints`` the inline key, foreign
    key and check constraints as table-level specs."""

    name: str
    type: DataTypeSpec | None
    said: dict
    drop_identity: bool = False
    constraints: list[Spec] = dataclasses.field(default_factory=list)

    def spec(self) -> ColumnSpec:
        """The ColumnSpec of a new column (CREATE TABLE, ALTER TABLE ADD). A column without a
        type (a virtual column whose type comes from its expression, CREATE TABLE (a, b) AS ...)
        has type ``unknown``."""
        said = dict(self.said)
        collation = said.pop("collation", None)
        t = self.type or DataTypeSpec("unknown")
        if collation is not None:
            t = dataclasses.replace(t, collation=collation)
        return ColumnSpec(self.name, t, **said)


def _default(a, parts, src):
    parts.said["default"] = src.text_of(a.expression())
    parts.said["default_on_null"] = a.ON() is not None


def _identity(a, parts, src):
    pg, words = a.parenGroup(), a.identityOptionToken()
    options = src.inner_text(pg) if pg is not None else (
        src.text_between(words[0], words[-1]) if words else None)
    parts.said["identity"] = Identity(always=a.ALWAYS() is not None, on_null=a.NULL() is not None,
                                      options=options)


def _virtual(a, parts, src):
    parts.said["generated"] = src.inner_text(a.parenGroup())


def _visible(a, parts, src):
    parts.said["visible"] = True


def _invisible(a, parts, src):
    parts.said["visible"] = False


def _collate(a, parts, src):
    parts.said["collation"] = name(a.identifier(), src)


def _drop_identity(a, parts, src):
    parts.drop_identity = True


def _constraint(a, parts, src):
    c = inline(a.inlineConstraint(), parts.name, src)
    if c is True or c is False:
        parts.said["nullable"] = c
    elif c is not None:
        parts.constraints.append(c)


_ATTRIBUTES = {
    P.DefaultAttrContext: _default,
    P.IdentityAttrContext: _identity,
    P.VirtualAttrContext: _virtual,
    P.VisibleAttrContext: _visible,
    P.InvisibleAttrContext: _invisible,
    P.CollateAttrContext: _collate,
    P.DropIdentityAttrContext: _drop_identity,
    P.ConstraintAttrContext: _constraint,
    P.SortAttrContext: None,  # SORT: a load-time promise about row order
    P.EncryptAttrContext: None,  # transparent data encryption: values reach us decrypted
    P.DecryptAttrContext: None,
    P.AnnotationsAttrContext: None,  # 23ai annotations: free-form metadata
}


def column_parts(ctx: P.ColumnDefinitionContext | P.ModifyColumnContext, src: StatementSource) -> ColumnParts:
    dt = ctx.dataType()
    parts = ColumnParts(name(ctx.columnName(), src), data_type_spec(dt, src) if dt is not None else None, {})
    for a in ctx.columnAttribute():
        handler = src.handler(_ATTRIBUTES, a, "column attribute")
        if handler is not None:
            handler(a, parts, src)
    return parts
