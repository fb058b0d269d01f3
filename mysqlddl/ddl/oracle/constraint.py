"""``inlineConstraint``, ``outOfLineConstraint``, ``referencesClause``, ``constraintState`` ->
key, foreign key and check specs (SQL Ref. "constraint").

Inline PRIMARY KEY, UNIQUE, REFERENCES and CHECK constraints mean exactly what their
out-of-line forms mean (a one-column key, a foreign key: unlike MySQL, Oracle enforces an inline
REFERENCES), so the listener turns them into table-level specs; only [NOT] NULL stays on the
column. A constraint state (ENABLE/DISABLE, [NO]VALIDATE, [NOT] DEFERRABLE, INITIALLY ..., RELY)
becomes a :class:`~mysqlddl.model.table.ConstraintState` (None when the statement says nothing
but the defaults). USING INDEX and EXCEPTIONS INTO are accepted and not recorded.
"""

from __future__ import annotations

from ..._generated.oracle.OracleParser import OracleParser as P
from ...model.spec import CheckSpec, ForeignKeySpec, KeySpec
from ...model.table import ConstraintState, IndexKind, IndexPart
from .identifiers import column_list, constraint_name, table_id
from .source import StatementSource

Spec = KeySpec | ForeignKeySpec | CheckSpec

_DEFAULT_STATE = ConstraintState()


def state(ctxs, src: StatementSource, enabled: bool | None = None,
          validated: bool | None = None) -> ConstraintState | None:
    """The state said by ``constraintState`` contexts (plus an ENABLE/DISABLE and
    [NO]VALIDATE given before them, as in ALTER TABLE ENABLE NOVALIDATE CONSTRAINT c). DISABLE
    implies NOVALIDATE and ENABLE implies VALIDATE unless said otherwise."""
    deferrable = deferred = rely = None
    for c in ctxs:
        if isinstance(c, P.EnableStateContext):
            enabled = True
        elif isinstance(c, P.DisableStateContext):
            enabled = False
        elif isinstance(c, P.ValidateStateContext):
            validated = True
        elif isinstance(c, P.NovalidateStateContext):
            validated = False
        elif isinstance(c, P.DeferrableStateContext):
            deferrable = c.NOT() is None
        elif isinstance(c, P.InitiallyStateContext):
            deferred = c.DEFERRED() is not None
        elif isinstance(c, P.RelyStateContext):
            rely = True
        elif isinstance(c, P.NorelyStateContext):
            rely = False
    if enabled is None and validated is None and deferrable is None and deferred is None and rely is None:
        return None
    en = True if enabled is None else enabled
    st = ConstraintState(
        enabled=en, validated=en if validated is None else validated,
        deferrable=bool(deferrable) or bool(deferred), initially_deferred=bool(deferred),
        rely=bool(rely))
    return None if st == _DEFAULT_STATE else st


def references(ctx: P.ReferencesClauseContext, src: StatementSource):
    """(referenced table, referenced columns (empty: its primary key), ON DELETE action)."""
    cols = column_list(ctx.columnList(), src) if ctx.columnList() is not None else ()
    on_delete = None
    if ctx.DELETE() is not None:
        on_delete = "CASCADE" if ctx.CASCADE() is not None else "SET NULL"
    return table_id(ctx.tableName(), src), cols, on_delete


def out_of_line(ctx: P.OutOfLineConstraintContext, src: StatementSource) -> Spec:
    cname = constraint_name(ctx.constraintName(), src)
    st = state(ctx.constraintState(), src)
    body = ctx.outOfLineConstraintBody()
    if isinstance(body, P.PrimaryKeyConstraintContext):
        return KeySpec(IndexKind.PRIMARY, _parts(column_list(body.columnList(), src)),
                       constraint_name=cname, state=st)
    if isinstance(body, P.UniqueConstraintContext):
        return KeySpec(IndexKind.UNIQUE, _parts(column_list(body.columnList(), src)),
                       constraint_name=cname, state=st)
    if isinstance(body, P.ForeignKeyConstraintContext):
        ref, ref_cols, on_delete = references(body.referencesClause(), src)
        return ForeignKeySpec(column_list(body.columnList(), src), ref, ref_cols, name=cname,
                              on_delete=on_delete, state=st)
    return CheckSpec(src.inner_text(body.parenGroup()), name=cname, state=st)


def inline(ctx: P.InlineConstraintContext, column: str, src: StatementSource) -> Spec | bool | None:
    """An inline constraint of ``column``: a spec, or for [NOT] NULL the column's NULL-ability
    (None for a disabled NOT NULL, which the column does not enforce)."""
    cname = constraint_name(ctx.constraintName(), src)
    st = state(ctx.constraintState(), src)
    body = ctx.inlineConstraintBody()
    if isinstance(body, P.NotNullConstraintContext):
        return None if st is not None and not st.enabled else False
    if isinstance(body, P.NullConstraintContext):
        return True
    if isinstance(body, (P.PrimaryKeyInlineContext, P.UniqueInlineContext)):
        kind = IndexKind.PRIMARY if isinstance(body, P.PrimaryKeyInlineContext) else IndexKind.UNIQUE
        return KeySpec(kind, _parts((column,)), constraint_name=cname, state=st)
    if isinstance(body, P.ReferencesInlineContext):
        ref, ref_cols, on_delete = references(body.referencesClause(), src)
        return ForeignKeySpec((column,), ref, ref_cols, name=cname, on_delete=on_delete, state=st)
    return CheckSpec(src.inner_text(body.parenGroup()), name=cname, state=st)


def _parts(columns) -> tuple[IndexPart, ...]:
    return tuple(IndexPart(c) for c in columns)
