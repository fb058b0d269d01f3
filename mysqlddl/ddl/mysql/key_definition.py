"""Keys and constraints: ``indexDefinition``, ``tableConstraint``, ``keyPartList``,
``indexOption`` and ``referenceDefinition`` (MySQL 8.4 manual 15.1.20 create_definition,
15.1.15 "CREATE INDEX", 15.1.20.5 "FOREIGN KEY Constraints", 15.1.20.6 "CHECK Constraints").

Used by CREATE TABLE, ALTER TABLE ... ADD and CREATE INDEX. Naming of unnamed keys and
constraints is the model's (it depends on the table and the dialect).
"""

from __future__ import annotations

import dataclasses

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...model.dialects import rules_for
from ...model.spec import CheckSpec, ForeignKeySpec, KeySpec
from ...model.table import IndexKind, IndexPart
from .identifiers import has, name, table_id
from .source import StatementSource


@dataclasses.dataclass(frozen=True, slots=True)
class KeyElement:
    """What one key/constraint definition produced: exactly one of ``key``, ``foreign_key``,
    ``check``; ``if_not_exists`` for MariaDB's ``ADD ... IF NOT EXISTS`` forms."""

    key: KeySpec | None = None
    foreign_key: ForeignKeySpec | None = None
    check: CheckSpec | None = None
    if_not_exists: bool = False


def key_parts(ctx: P.KeyPartListContext, src: StatementSource) -> tuple[IndexPart, ...]:
    """``(col[(len)] [ASC|DESC], (expr) [ASC|DESC], ...)``. MariaDB's trailing
    ``period WITHOUT OVERLAPS`` is not a key part: see :func:`without_overlaps`."""
    parts = []
    for kp in ctx.keyPart():
        desc = kp.DESC() is not None
        if kp.columnName() is not None:
            n = kp.DECIMAL_LITERAL()
            parts.append(IndexPart(name(kp.columnName()), int(n.getText()) if n is not None else None, desc))
        else:
            parts.append(IndexPart(None, None, desc, src.text_of(kp.expression())))
    return tuple(parts)


def visibility_keyword(node, visible: bool, keyword: str, src: StatementSource) -> bool:
    """``visible`` after checking the keyword against the dialect: MySQL says [IN]VISIBLE, MariaDB
    10.6+ [NOT] IGNORED, and each server rejects the other's spelling as a syntax error (MariaDB
    10.11 checked; MySQL 8.0/8.4 manual 15.1.20 index_option lists only VISIBLE | INVISIBLE)."""
    want = rules_for(src.options).invisible_index_keyword
    if (keyword == "IGNORED") != (want == "IGNORED"):
        raise src.error(node, f"{keyword} is not {src.options.dialect.value} index syntax (it says {want})")
    return visible


def without_overlaps(ctx: P.KeyPartListContext) -> str | None:
    """The period of MariaDB's ``(..., p WITHOUT OVERLAPS)`` (10.5+), else None."""
    return name(ctx.identifier()) if ctx.identifier() is not None else None


def key_part_columns(ctx: P.KeyPartListContext, src: StatementSource) -> tuple[str, ...]:
    """Column names of a key part list that must name plain columns (REFERENCES t (a, b))."""
    out = []
    for p in key_parts(ctx, src):
        if p.column is None:
            raise src.error(ctx, "a referenced key must list columns, not expressions")
        out.append(p.column)
    return tuple(out)


def index_options(opts, index_type, src: StatementSource) -> dict:
    """KeySpec fields from an ``indexType`` (before the key parts) and ``indexOption``s.
    KEY_BLOCK_SIZE, WITH PARSER, ENGINE_ATTRIBUTE and CLUSTERING are not recorded by the model;
    MariaDB's [NOT] IGNORED is its spelling of [IN]VISIBLE."""
    out: dict = {}
    if index_type is not None:
        out["using"] = index_type.getChild(1).getText().upper()
    for o in opts:
        if o.indexType() is not None:
            out["using"] = o.indexType().getChild(1).getText().upper()
        elif o.COMMENT() is not None:
            out["comment"] = src.text_of(o.textLiteral())
        elif o.VISIBLE() is not None:
            out["visible"] = visibility_keyword(o, True, "VISIBLE", src)
        elif o.INVISIBLE() is not None:
            out["visible"] = visibility_keyword(o, False, "INVISIBLE", src)
        elif o.IGNORED() is not None:
            out["visible"] = visibility_keyword(o, o.NOT() is not None, "IGNORED", src)
    return out


def _constraint_name(ctx) -> str | None:
    cn = ctx.constraintName()
    return name(cn.identifier()) if cn is not None and cn.identifier() is not None else None


def index_definition(ctx, src: StatementSource) -> KeyElement:
    """``{INDEX|KEY} ...`` and ``{FULLTEXT|SPATIAL} [INDEX|KEY] ...``."""
    if isinstance(ctx, P.PlainIndexContext):
        kind = IndexKind.INDEX
        itype = ctx.indexType()
    elif isinstance(ctx, P.FulltextIndexContext):
        kind = IndexKind.FULLTEXT if ctx.FULLTEXT() is not None else IndexKind.SPATIAL
        itype = None
    else:
        raise src.error(ctx, f"index definition {src.text_of(ctx)!r} is not handled")
    key = KeySpec(kind, key_parts(ctx.keyPartList(), src), name=name(ctx.indexName()),
                  without_overlaps=without_overlaps(ctx.keyPartList()),
                  **index_options(ctx.indexOption(), itype, src))
    return KeyElement(key=key, if_not_exists=has(ctx, "ifNotExists"))


def reference(ctx: P.ReferenceDefinitionContext, src: StatementSource) -> dict:
    """ForeignKeySpec fields of ``REFERENCES t (cols) [MATCH ..] [ON DELETE ..] [ON UPDATE ..]``."""
    out: dict = {"ref_table": table_id(ctx.tableName())}
    kpl = ctx.keyPartList()
    out["ref_columns"] = key_part_columns(kpl, src) if kpl is not None else ()
    kids = list(ctx.getChildren())
    for i, kid in enumerate(kids):
        if isinstance(kid, P.ReferenceActionContext):
            # ON {DELETE|UPDATE} action: the keyword just before the action says which.
            action = " ".join(c.getText().upper() for c in kid.getChildren())
            out["on_delete" if kids[i - 1].getText().upper() == "DELETE" else "on_update"] = action
        elif kid is ctx.MATCH():
            out["match"] = kids[i + 1].getText().upper()
    return out


def table_constraint(ctx, src: StatementSource) -> KeyElement:
    """PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK table constraints."""
    cname = _constraint_name(ctx)
    if isinstance(ctx, P.PrimaryKeyConstraintContext):
        key = KeySpec(IndexKind.PRIMARY, key_parts(ctx.keyPartList(), src), constraint_name=cname,
                      without_overlaps=without_overlaps(ctx.keyPartList()),
                      **index_options(ctx.indexOption(), ctx.indexType(), src))
        return KeyElement(key=key, if_not_exists=has(ctx, "ifNotExists"))
    if isinstance(ctx, P.UniqueConstraintContext):
        key = KeySpec(IndexKind.UNIQUE, key_parts(ctx.keyPartList(), src), name=name(ctx.indexName()),
                      constraint_name=cname, without_overlaps=without_overlaps(ctx.keyPartList()),
                      **index_options(ctx.indexOption(), ctx.indexType(), src))
        return KeyElement(key=key, if_not_exists=has(ctx, "ifNotExists"))
    if isinstance(ctx, P.ForeignKeyConstraintContext):
        cols = tuple(name(c) for c in ctx.columnList().columnName())
        fk = ForeignKeySpec(cols, name=cname, index_name=name(ctx.indexName()),
                            **reference(ctx.referenceDefinition(), src))
        return KeyElement(foreign_key=fk, if_not_exists=has(ctx, "ifNotExists"))
    if isinstance(ctx, P.CheckConstraintContext):
        enf = ctx.constraintEnforcement()
        chk = CheckSpec(src.text_of(ctx.expression()), cname,
                        enforced=enf is None or enf.NOT() is None)
        return KeyElement(check=chk)
    raise src.error(ctx, f"constraint {src.text_of(ctx)!r} is not handled")
