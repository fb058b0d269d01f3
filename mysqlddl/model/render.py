"""Renderings of the model: deterministic JSON (``mysqlddl schema --format json``), canonical
CREATE TABLE text (``--format sql``, in the server's SHOW CREATE TABLE layout) and the
information_schema.COLUMNS presentation of a column (for consumers and the server comparison).
"""

from __future__ import annotations

import json
from typing import Any

from ..options import DEFAULT, Options
from .catalog import Catalog
from .charsets import default_collation
from .column import Column, DefaultKind, GeneratedKind, quote_string
from .dialects import HASH_INDEX_ENGINES, DialectRules, rules_for
from .table import Index, IndexKind, Table
from .types import NUMERIC_FAMILIES, TypeFamily


def quote_identifier(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


# ------------------------------------------------------------------------------ JSON


def _fks(t: Table):
    """Foreign keys in name order: InnoDB keeps them in a set ordered by name, so that is how
    SHOW CREATE TABLE lists them (MariaDB 10.11 checked), whatever order they were added in."""
    return sorted(t.foreign_keys, key=lambda f: f.name.encode())


def _default_json(c: Column) -> dict[str, Any] | None:
    if c.default is None:
        return None
    d: dict[str, Any] = {"kind": c.default.kind.value}
    if c.default.value is not None:
        d["value"] = c.default.value
    if c.default.fsp is not None:
        d["fsp"] = c.default.fsp
    return d


def _checks(t: Table):
    """Column-level checks in column order, then table-level checks in creation order: the order
    SHOW CREATE TABLE prints them in, so a table re-read from that text has the same list."""
    pos = {c.name.lower(): c.position for c in t.columns}
    col = sorted((c for c in t.checks if c.column is not None), key=lambda c: pos.get(c.column.lower(), 0))
    return col + [c for c in t.checks if c.column is None]


def _state_json(st) -> dict[str, Any]:
    return {"enabled": st.enabled, "validated": st.validated, "deferrable": st.deferrable,
            "initially_deferred": st.initially_deferred, "rely": st.rely}


def _oracle_fields(d: dict[str, Any], **fields) -> dict[str, Any]:
    """``d`` plus the Oracle-only ``fields`` that are set (not None/False): they are added only
    when set, so a MySQL or MariaDB table's JSON keeps its fixed key set byte for byte."""
    for k, v in fields.items():
        if v is not None and v is not False:
            d[k] = v
    return d


def column_json(c: Column) -> dict[str, Any]:
    """One column as a JSON-ready dict with a fixed key set (None where not applicable), plus the
    Oracle-only ``length_semantics`` (BYTE/CHAR), ``default_on_null`` and ``identity`` when set."""
    return _oracle_fields({
        "name": c.name, "position": c.position, "type": c.column_type, "type_name": c.type_name,
        "family": c.family.value, "length": c.length, "scale": c.scale, "fsp": c.fsp,
        "unsigned": c.unsigned, "zerofill": c.zerofill, "charset": c.charset,
        "collation": c.collation, "nullable": c.nullable, "default": _default_json(c),
        "on_update": _default_json(c.replace(default=c.on_update)) if c.on_update else None,
        "auto_increment": c.auto_increment,
        "generated": ({"kind": c.generated.kind.value, "expression": c.generated.expression}
                      if c.generated else None),
        "values": list(c.values) if c.values else None, "srid": c.srid, "comment": c.comment,
        "visible": c.visible, "row_period": c.row_period, "hidden": c.hidden, "versioned": c.versioned,
    }, length_semantics=c.length_semantics, default_on_null=c.default_on_null,
        identity=({"always": c.identity.always, "on_null": c.identity.on_null,
                   "options": c.identity.options} if c.identity is not None else None))


def key_json(ix: Index) -> dict[str, Any]:
    """One key; Oracle adds ``constraint_name`` (a named PRIMARY KEY) and ``state`` when set."""
    return _oracle_fields({
        "name": ix.name, "kind": ix.kind.value,
        "parts": [{"column": p.column, "expression": p.expression, "length": p.length,
                   "descending": p.descending} for p in ix.parts],
        "using": ix.using, "comment": ix.comment, "visible": ix.visible,
        "without_overlaps": ix.without_overlaps},
        constraint_name=ix.constraint_name, state=ix.state and _state_json(ix.state))


def table_json(t: Table) -> dict[str, Any]:
    """One table as a JSON-ready dict: database, name, columns, keys (server order), foreign keys,
    checks and table options."""
    return {
        "database": t.database, "name": t.name, "temporary": t.temporary,
        "columns": [column_json(c) for c in t.columns],
        "keys": [key_json(k) for k in t.keys()],
        "foreign_keys": [_oracle_fields({
            "name": f.name, "columns": list(f.columns), "ref_database": f.ref_table.database,
            "ref_table": f.ref_table.name, "ref_columns": list(f.ref_columns), "on_delete": f.on_delete,
            "on_update": f.on_update}, state=f.state and _state_json(f.state)) for f in _fks(t)],
        "checks": [_oracle_fields({"name": c.name, "expression": c.expression, "enforced": c.enforced,
                                   "column": c.column}, state=c.state and _state_json(c.state))
                   for c in _checks(t)],
        "charset": t.charset, "collation": t.collation, "engine": t.engine, "comment": t.comment,
        "options": {k: v for k, v in t.options},
        "partitioning": ({"method": t.partitioning.method, "expression": t.partitioning.expression,
                          "count": t.partitioning.count, "names": list(t.partitioning.names)}
                         if t.partitioning else None),
        "table_type": table_type(t), "system_versioning": t.system_versioning,
        "periods": [{"name": p.name, "start": p.start, "end": p.end} for p in t.periods],
        "sequence": ({"start": t.sequence.start, "minvalue": t.sequence.minvalue,
                      "maxvalue": t.sequence.maxvalue, "increment": t.sequence.increment,
                      "cache": t.sequence.cache, "cycle": t.sequence.cycle}
                     if t.sequence is not None else None),
    }


def catalog_json(catalog: Catalog) -> dict[str, Any]:
    """``{"tables": [...]}``, base tables sorted by (database, name)."""
    return {"tables": [table_json(t) for t in catalog.all_tables()]}


def dumps(obj: Any) -> str:
    """Deterministic JSON text (sorted keys, no ASCII escaping)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, indent=2)


# ------------------------------------------------------------------------------ information_schema


def column_default_text(c: Column, rules: DialectRules) -> str | None:
    """``information_schema.COLUMNS.COLUMN_DEFAULT``. MariaDB (10.2.7+) quotes string and temporal
    literals and says 'NULL' for DEFAULT NULL; MySQL gives the bare value and SQL NULL."""
    d = c.default
    if d is None:
        # MariaDB shows 'NULL' for a nullable generated column (it has no default of its own).
        if c.generated is not None and c.nullable and rules.quoted_column_default:
            return "NULL"
        return None
    if d.kind is DefaultKind.NULL:
        return "NULL" if rules.quoted_column_default else None
    if d.kind is DefaultKind.CURRENT_TIMESTAMP:
        return d.sql(now=rules.now_sql)
    if d.kind is DefaultKind.EXPRESSION:
        return d.value
    if not rules.quoted_column_default:
        return d.value
    if c.family in NUMERIC_FAMILIES or c.family is TypeFamily.YEAR or \
            c.family is TypeFamily.BIT and d.value.startswith("b'"):
        return d.value
    return quote_string(d.value)


def column_extra_text(c: Column, rules: DialectRules) -> str:
    """``information_schema.COLUMNS.EXTRA`` (the parts the model knows)."""
    parts = []
    if c.auto_increment:
        parts.append("auto_increment")
    if rules.default_generated_extra and c.default is not None and c.default.kind in (
            DefaultKind.CURRENT_TIMESTAMP, DefaultKind.EXPRESSION):
        parts.append("DEFAULT_GENERATED")
    if c.on_update is not None:
        parts.append("on update " + c.on_update.sql(now=rules.now_sql))
    if c.generated is not None:
        parts.append("VIRTUAL GENERATED" if c.generated.kind is GeneratedKind.VIRTUAL else "STORED GENERATED")
    if c.row_period is not None:  # ROW START/END columns (MariaDB 10.11 information_schema)
        parts.append("STORED GENERATED")
    text = " ".join(parts)
    if not c.visible:
        text = text + rules.extra_invisible_separator + "INVISIBLE" if text else "INVISIBLE"
    if not c.versioned:
        text = (text + " " if text else "") + "WITHOUT SYSTEM VERSIONING"
    return text


def information_schema_column(c: Column, options: Options = DEFAULT) -> dict[str, Any]:
    """The COLUMNS row the server would show for ``c`` (the fields the model determines)."""
    rules = rules_for(options)
    return {
        "COLUMN_NAME": c.name, "ORDINAL_POSITION": c.position, "COLUMN_TYPE": c.column_type,
        "DATA_TYPE": c.type_name, "IS_NULLABLE": "YES" if c.nullable else "NO",
        "COLUMN_DEFAULT": column_default_text(c, rules), "CHARACTER_SET_NAME": c.charset,
        "COLLATION_NAME": c.collation, "EXTRA": column_extra_text(c, rules),
        "COLUMN_COMMENT": c.comment or "",
    }


def table_type(t: Table) -> str:
    """``information_schema.TABLES.TABLE_TYPE`` of a table (MariaDB: SEQUENCE, SYSTEM VERSIONED)."""
    if t.sequence is not None:
        return "SEQUENCE"
    return "SYSTEM VERSIONED" if t.system_versioning else "BASE TABLE"


def shown_columns(t: Table) -> tuple[Column, ...]:
    """The columns information_schema and SHOW CREATE TABLE show (not MariaDB's hidden
    row_start/row_end)."""
    return tuple(c for c in t.columns if not c.hidden)


def index_columns(ix: Index, t: Table) -> tuple[str | None, ...]:
    """``information_schema.STATISTICS.COLUMN_NAME`` of each key part in order (None for a
    functional part): MariaDB appends the period's end and start columns to a ``WITHOUT OVERLAPS``
    key (checked on 10.11.19)."""
    cols = tuple(p.column for p in ix.parts)
    if ix.without_overlaps is not None:
        for p in t.periods:
            if p.name.lower() == ix.without_overlaps.lower():
                cols += (p.end, p.start)
    return cols


def index_type(ix: Index, t: Table) -> str:
    """``information_schema.STATISTICS.INDEX_TYPE``: FULLTEXT, SPATIAL, the USING clause, else the
    engine's default (HASH for MEMORY, BTREE otherwise)."""
    if ix.kind is IndexKind.FULLTEXT:
        return "FULLTEXT"
    if ix.kind is IndexKind.SPATIAL:
        return "SPATIAL"
    if ix.using:
        return ix.using
    return "HASH" if (t.engine or "").lower() in HASH_INDEX_ENGINES else "BTREE"


# ------------------------------------------------------------------------------ CREATE TABLE


def _column_sql(c: Column, t: Table, rules: DialectRules) -> str:
    s = [quote_identifier(c.name), c.column_type]
    if c.charset is not None and rules.full_column_collation_clause:
        if c.collation != t.collation:
            s.append(f"CHARACTER SET {c.charset} COLLATE {c.collation}")
    elif c.charset is not None:
        if c.charset != t.charset:
            s.append(f"CHARACTER SET {c.charset}")
            if c.collation != _default_collation(c.charset, rules):
                s.append(f"COLLATE {c.collation}")
        elif c.collation != t.collation:
            s.append(f"COLLATE {c.collation}")
    if c.generated is not None:
        s.append(f"GENERATED ALWAYS AS ({c.generated.expression}) "
                 + ("VIRTUAL" if c.generated.kind is GeneratedKind.VIRTUAL else "STORED"))
    if c.row_period is not None:
        # MariaDB 10.11: "`s` timestamp(6) GENERATED ALWAYS AS ROW START [INVISIBLE]", nothing else
        s.append(f"GENERATED ALWAYS AS ROW {c.row_period.upper()}")
        if not c.visible:
            s.append("INVISIBLE")
        return " ".join(s)
    if not c.visible and rules.invisible_before_default:
        s.append("INVISIBLE")
    if not c.nullable:
        s.append("NOT NULL")
    elif c.family is TypeFamily.TIMESTAMP:
        s.append("NULL")
    if c.default is not None:
        s.append("DEFAULT " + c.default.sql(c.family, rules.now_sql))
    if c.auto_increment:
        s.append("AUTO_INCREMENT")
    if c.on_update is not None:
        s.append("ON UPDATE " + c.on_update.sql(now=rules.now_sql))
    if not c.visible and not rules.invisible_before_default:
        s.append("INVISIBLE")
    if c.comment:
        s.append("COMMENT " + quote_string(c.comment))
    for chk in t.checks:
        if chk.column is not None and chk.column.lower() == c.name.lower():
            s.append(f"CHECK ({chk.expression})")
    if not c.versioned:
        # (kept, and printed, after DROP SYSTEM VERSIONING too: MariaDB 10.11 checked)
        s.append("WITHOUT SYSTEM VERSIONING")
    return " ".join(s)


def _key_sql(ix: Index, rules: DialectRules) -> str:
    parts = []
    for p in ix.parts:
        x = quote_identifier(p.column) if p.column is not None else f"({p.expression})"
        if p.length is not None:
            x += f"({p.length})"
        if p.descending:
            x += " DESC"
        parts.append(x)
    if ix.without_overlaps is not None:
        parts.append(f"{quote_identifier(ix.without_overlaps)} WITHOUT OVERLAPS")
    cols = "(" + ",".join(parts) + ")"
    head = {IndexKind.PRIMARY: "PRIMARY KEY", IndexKind.UNIQUE: "UNIQUE KEY", IndexKind.INDEX: "KEY",
            IndexKind.FULLTEXT: "FULLTEXT KEY", IndexKind.SPATIAL: "SPATIAL KEY"}[ix.kind]
    s = f"{head} {cols}" if ix.kind is IndexKind.PRIMARY else f"{head} {quote_identifier(ix.name)} {cols}"
    if ix.using:
        s += f" USING {ix.using}"
    if ix.comment:
        s += f" COMMENT {quote_string(ix.comment)}"
    if not ix.visible:
        s += " " + rules.invisible_index_sql
    return s


def table_statements(t: Table, options: Options = DEFAULT) -> list[str]:
    """The statements that create ``t`` in the dialect's syntax: CREATE TABLE, then (Oracle)
    COMMENT ON statements (``DialectRules.table_sql``)."""
    rules = rules_for(options)
    if rules.table_sql is not None:
        return rules.table_sql(t)
    return [create_table_sql(t, options)]


def create_table_sql(t: Table, options: Options = DEFAULT) -> str:
    """Canonical CREATE TABLE text in the layout of the server's SHOW CREATE TABLE, or in the
    dialect's own syntax where it has one (``DialectRules.table_sql``: Oracle)."""
    rules = rules_for(options)
    if rules.table_sql is not None:
        return rules.table_sql(t)[0]
    lines = [_column_sql(c, t, rules) for c in shown_columns(t)]
    for p in t.periods:
        name = "SYSTEM_TIME" if p.system else quote_identifier(p.name)
        lines.append(f"PERIOD FOR {name} ({quote_identifier(p.start)}, {quote_identifier(p.end)})")
    lines += [_key_sql(k, rules) for k in t.keys()]
    for fk in _fks(t):
        ref = quote_identifier(fk.ref_table.name)
        if fk.ref_table.database and fk.ref_table.database != t.database:
            ref = quote_identifier(fk.ref_table.database) + "." + ref
        s = (f"CONSTRAINT {quote_identifier(fk.name)} FOREIGN KEY ("
             + ", ".join(quote_identifier(c) for c in fk.columns) + f") REFERENCES {ref} ("
             + ", ".join(quote_identifier(c) for c in fk.ref_columns) + ")")
        if fk.on_delete:
            s += f" ON DELETE {fk.on_delete}"
        if fk.on_update:
            s += f" ON UPDATE {fk.on_update}"
        lines.append(s)
    for chk in t.checks:
        if chk.column is None:
            lines.append(f"CONSTRAINT {quote_identifier(chk.name)} CHECK ({chk.expression})"
                         + ("" if chk.enforced else " /*!80016 NOT ENFORCED */"))
    head = "CREATE TEMPORARY TABLE" if t.temporary else "CREATE TABLE"
    tail = []
    if t.engine:
        tail.append(f"ENGINE={t.engine}")
    if t.charset and t.sequence is None:  # (MariaDB prints no charset for a sequence)
        tail.append(f"DEFAULT CHARSET={t.charset}")
        if rules.quoted_column_default or t.collation != _default_collation(t.charset, rules):
            tail.append(f"COLLATE={t.collation}")
    for k, v in t.options:
        tail.append(f"{k}={v}")
    if t.comment:
        tail.append(f"COMMENT={quote_string(t.comment)}")
    if t.system_versioning:
        tail.append("WITH SYSTEM VERSIONING")
    body = ",\n".join("  " + x for x in lines)
    sql = f"{head} {quote_identifier(t.name)} (\n{body}\n)"
    if tail:
        sql += " " + " ".join(tail)
    if t.partitioning is not None:
        p = t.partitioning
        expr = p.expression
        if expr and p.method.split()[-1] == "KEY":  # KEY (a,b): a column list, printed quoted
            expr = ",".join(quote_identifier(n) for n in expr.split(","))
        sql += f"\n PARTITION BY {p.method}" + (f" ({expr})" if expr else "")
        if p.count is not None and not p.names:
            sql += f"\nPARTITIONS {p.count}"
        elif p.names and p.method.split()[-1] in ("HASH", "KEY") and not p.subpartitioning:
            # listed HASH/KEY partitions carry no VALUES: "(PARTITION `a` ENGINE = InnoDB, ...)"
            sql += "\n(" + ",\n ".join(f"PARTITION {quote_identifier(n)} ENGINE = {t.engine}"
                                        for n in p.names) + ")"
    return sql


def create_sequence_sql(t: Table) -> str:
    """SHOW CREATE SEQUENCE text of a MariaDB sequence (10.11 layout: lower-case options, then
    the table options)."""
    q = t.sequence
    s = (f"CREATE SEQUENCE {quote_identifier(t.name)} start with {q.start} minvalue {q.minvalue} "
         f"maxvalue {q.maxvalue} increment by {q.increment} "
         + (f"cache {q.cache}" if q.cache else "nocache") + (" cycle" if q.cycle else " nocycle"))
    if t.engine:
        s += f" ENGINE={t.engine}"
    for k, v in t.options:
        if k != "SEQUENCE":
            s += f" {k}={v}"
    if t.comment:
        s += f" COMMENT={quote_string(t.comment)}"
    return s


def _default_collation(charset: str, rules: DialectRules) -> str | None:
    try:
        return default_collation(charset, rules.collation_column)
    except Exception:  # noqa: BLE001 - unknown charset: always print the collation
        return None


def catalog_sql(catalog: Catalog, options: Options = DEFAULT) -> str:
    """Every base table's CREATE TABLE (and what the dialect adds: Oracle's COMMENT ON), sorted
    by (database, name), each preceded by a ``-- db.table`` line, every statement ended with ``;``."""
    out = []
    for t in catalog.all_tables():
        out.append(f"-- {t.database}.{t.name}\n" + "".join(s + ";\n" for s in table_statements(t, options)))
    return "\n".join(out)
