"""Oracle CREATE TABLE text of a model table (the ORACLE dialect's ``DialectRules.table_sql``,
used by :func:`mysqlddl.model.render.create_table_sql` and ``mysqlddl schema --format sql``).

The layout follows DBMS_METADATA.GET_DDL: every name double-quoted and the table qualified by its
schema (quoting the stored name reads back as exactly that name: SQL Ref. 2.8 "Database Object
Names and Qualifiers"), types as the data dictionary spells them, character lengths with their
semantics (``VARCHAR2(20 CHAR)``), then the constraints with their names and states, then the
table properties; comments follow as COMMENT ON statements (Oracle has no COMMENT clause in
CREATE TABLE: SQL Ref. "COMMENT"). Our Oracle grammar reads the text back to the same model
(``tests/ddl/oracle/test_render.py``).

Not rendered, because an Oracle model table does not have them: plain indexes (CREATE INDEX is
recognised, not modelled), storage engines and charsets (``DialectRules.table_engine`` /
``table_charset``). A column whose type is ``unknown`` (a CTAS expression) is rendered as a
user-defined type ``UNKNOWN`` and does not read back to the same column.
"""

from __future__ import annotations

import re

from . import types as T
from .column import Column, DefaultKind
from .table import ConstraintState, IndexKind, Table

# CREATE TABLE's table kinds, which the listener keeps as the first option with an empty value
# (SQL Ref. "CREATE TABLE": GLOBAL TEMPORARY, SHARDED, DUPLICATED, IMMUTABLE, BLOCKCHAIN).
_KINDS = frozenset({"GLOBAL TEMPORARY", "SHARDED", "DUPLICATED", "IMMUTABLE", "BLOCKCHAIN",
                    "IMMUTABLE BLOCKCHAIN"})
_PLAIN_NAME = re.compile(r"[A-Z][A-Z0-9_$#]*")


def quote_name(name: str) -> str:
    """A quoted identifier (SQL Ref. 2.8: a quoted name cannot contain a double quote)."""
    return '"' + name + '"'


def quote_literal(value: str) -> str:
    """A text literal: a quote is doubled, nothing else is escaped (SQL Ref. 2.4.1 "Text
    Literals"; unlike MySQL, a backslash is an ordinary character)."""
    return "'" + value.replace("'", "''") + "'"


def _table_name(t: Table) -> str:
    n = quote_name(t.name)
    return quote_name(t.database) + "." + n if t.database else n


def _user_type(name: str) -> str:
    """A user-defined type name as written: upper-case parts bare, others quoted so they keep
    their case."""
    return ".".join(p if _PLAIN_NAME.fullmatch(p) else quote_name(p) for p in name.split("."))


def type_sql(c: Column) -> str:
    ot = T.ORACLE_TYPES.get(c.type_name)
    if ot is None or ot.name != c.type_name:
        return _user_type(c.type_name)
    if ot.args == "dims":  # VECTOR: the format is only in the declared text
        return c.declared_type or c.column_type
    if ot.semantics == "BYTE" and c.length is not None and c.length_semantics is not None:
        # VARCHAR2/CHAR: the semantics written out, so the text does not depend on the reading
        # session's NLS_LENGTH_SEMANTICS (SQL Ref. 2.1.1, "VARCHAR2 Data Type")
        return f"{c.type_name}({c.length} {c.length_semantics})"
    return c.column_type


def _default_sql(c: Column) -> str:
    d = c.default
    if d.kind is DefaultKind.NULL:
        return "NULL"
    if d.kind is DefaultKind.LITERAL:
        if c.family in T.NUMERIC_FAMILIES and re.fullmatch(r"[-+]?[\d.]+(?:[eE][-+]?\d+)?[fFdD]?", d.value):
            return d.value
        return quote_literal(d.value)
    return d.value  # an expression (SYSDATE, s.NEXTVAL, ...) as written


def state_sql(st: ConstraintState | None) -> str:
    """A constraint state, only its non-default parts (SQL Ref. "constraint", constraint_state:
    DISABLE implies NOVALIDATE, ENABLE implies VALIDATE)."""
    if st is None:
        return ""
    s = []
    if st.deferrable:
        s.append("DEFERRABLE")
    if st.initially_deferred:
        s.append("INITIALLY DEFERRED")
    if st.rely:
        s.append("RELY")
    if not st.enabled:
        s.append("DISABLE")
    if st.validated != st.enabled:
        s.append("VALIDATE" if st.validated else "NOVALIDATE")
    return " " + " ".join(s) if s else ""


def column_sql(c: Column) -> str:
    """column [type] [COLLATE c] [INVISIBLE] [DEFAULT [ON NULL] expr | identity | AS (expr)
    VIRTUAL] [NOT NULL] (SQL Ref. "CREATE TABLE", column_definition and
    virtual_column_definition: the order the syntax diagrams give)."""
    s = [quote_name(c.name)]
    if not (c.generated is not None and c.family is T.TypeFamily.UNKNOWN and c.type_name == "unknown"):
        s.append(type_sql(c))
    if c.collation is not None:
        s.append(f"COLLATE {c.collation}")
    if not c.visible:
        s.append("INVISIBLE")
    if c.identity is not None:
        i = c.identity
        how = "ALWAYS" if i.always else "BY DEFAULT ON NULL" if i.on_null else "BY DEFAULT"
        s.append(f"GENERATED {how} AS IDENTITY" + (f" ({i.options})" if i.options else ""))
    elif c.generated is not None:
        s.append(f"GENERATED ALWAYS AS ({c.generated.expression}) VIRTUAL")
    elif c.default is not None and not (c.default.kind is DefaultKind.NULL and c.nullable
                                        and not c.default_on_null):
        # (a nullable column's implied DEFAULT NULL is not written)
        s.append("DEFAULT " + ("ON NULL " if c.default_on_null else "") + _default_sql(c))
    if not c.nullable:
        s.append("NOT NULL")
    return " ".join(s)


def _columns(names) -> str:
    return "(" + ", ".join(quote_name(n) for n in names) + ")"


def table_sql(t: Table) -> list[str]:
    """The statements that create ``t``: CREATE TABLE, then COMMENT ON TABLE / COLUMN."""
    lines = [column_sql(c) for c in t.columns if not c.hidden]
    pk = t.primary_key
    if pk is not None:
        head = f"CONSTRAINT {quote_name(pk.constraint_name)} " if pk.constraint_name else ""
        lines.append(f"{head}PRIMARY KEY {_columns(pk.columns)}{state_sql(pk.state)}")
    for k in t.unique_keys:
        if k.kind is IndexKind.UNIQUE:
            lines.append(f"CONSTRAINT {quote_name(k.name)} UNIQUE {_columns(k.columns)}{state_sql(k.state)}")
    for fk in sorted(t.foreign_keys, key=lambda f: f.name.encode()):
        ref = quote_name(fk.ref_table.name)
        if fk.ref_table.database:
            ref = quote_name(fk.ref_table.database) + "." + ref
        s = f"CONSTRAINT {quote_name(fk.name)} FOREIGN KEY {_columns(fk.columns)} REFERENCES {ref}"
        if fk.ref_columns:
            s += " " + _columns(fk.ref_columns)
        if fk.on_delete:
            s += f" ON DELETE {fk.on_delete}"
        lines.append(s + state_sql(fk.state))
    for chk in t.checks:
        lines.append(f"CONSTRAINT {quote_name(chk.name)} CHECK ({chk.expression}){state_sql(chk.state)}")
    kinds = [k for k, v in t.options if k in _KINDS and v == ""]
    head = "CREATE " + ("PRIVATE TEMPORARY " if t.temporary else "") + "".join(k + " " for k in kinds[:1])
    sql = f"{head}TABLE {_table_name(t)}"
    sharing = t.option("SHARING")
    if sharing is not None:
        sql += f" SHARING = {sharing}"
    sql += " (\n" + ",\n".join("  " + x for x in lines) + "\n)"
    props = [k + (" " + v if v else "") for k, v in t.options
             if k != "SHARING" and not (k in _KINDS and v == "")]
    if props:
        sql += "\n" + "\n".join(props)
    out = [sql]
    if t.comment is not None:
        out.append(f"COMMENT ON TABLE {_table_name(t)} IS {quote_literal(t.comment)}")
    for c in t.columns:
        if c.comment is not None:
            out.append(f"COMMENT ON COLUMN {_table_name(t)}.{quote_name(c.name)} IS {quote_literal(c.comment)}")
    return out
