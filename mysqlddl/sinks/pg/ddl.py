"""The DDL converter: model table versions -> PostgreSQL DDL (never the source text).

:func:`resolve` turns a source :class:`~mysqlddl.model.table.Table` into a :class:`TargetTable`
through the mapping and the type map; :func:`create_table`, :func:`alter_table` (a diff of two
versions), :func:`rename_table`, :func:`drop_table` and the schema statements give the SQL.

What PostgreSQL has no counterpart for is left out and said (``notes``, which the sink counts and
logs): FULLTEXT and SPATIAL keys, functional key parts, default expressions in MySQL syntax,
foreign keys and CHECK constraints (the target receives rows the source already checked, in the
source's order), partitioning, column order (FIRST/AFTER: PostgreSQL cannot reorder columns,
manual "ALTER TABLE": new columns go last). Generated columns become ``GENERATED ALWAYS AS (expr)
STORED`` where :mod:`.generated` translates the expression; one it cannot follows
``generated_fallback`` (an UnconvertibleDdlError naming the column and expression, or a plain
column the row images fill). Prefix key parts become ``left(col, n)``
(``substring`` for bytea) expression keys: the same uniqueness as MySQL's prefix. DESC parts
(MariaDB 10.8+ keeps them) stay in indexes and UNIQUE indexes; a primary key constraint takes no
ordering in PostgreSQL, so it is the same key without DESC (:func:`target_indexes`).

Names: a PostgreSQL index name is unique in its schema (manual "CREATE INDEX"), MySQL's only in its
table, so every index is named ``<table>_<index>`` (``<table>_pkey`` for the primary key) and
renamed with its table; names over 63 bytes (NAMEDATALEN - 1) are cut and given a hash suffix.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re

from ...errors import UnconvertibleDdlError
from ...mapping.rules import ColumnTarget, Mapping
from ...model.column import Column, DefaultKind
from ...model.ids import column_key
from ...model.table import IndexKind, Table
from . import order as O
from .generated import Untranslatable, target_expression
from .quote import qi, ql
from .types import EnumMode, PgOptions, PgType, pg_type

NAMEDATALEN = 63


def pg_name(*parts: str) -> str:
    """``parts`` joined by ``_``, cut to 63 bytes with a hash suffix when longer."""
    name = "_".join(parts)
    if len(name.encode()) <= NAMEDATALEN:
        return name
    h = hashlib.sha1(name.encode()).hexdigest()[:8]
    cut = name.encode()[:NAMEDATALEN - 9].decode("utf-8", "ignore")
    return f"{cut}_{h}"


@dataclasses.dataclass(frozen=True, slots=True)
class TargetColumn:
    """A source column in the target: ``source`` (its Column), ``target`` (the mapping's
    ColumnTarget), ``natural`` (the type map's PgType: how values are converted and staged),
    ``sql_type`` (the column's type in the target: an override, or ``natural.sql``).
    ``generated``: the PostgreSQL generation expression of a generated source column (the target
    computes it: rows never write it), None otherwise; ``plain_reason``: why a generated source
    column is a plain column instead (generated_fallback="plain"), else None."""

    source: Column
    target: ColumnTarget
    natural: PgType
    sql_type: str
    generated: str | None = None
    plain_reason: str | None = None

    @property
    def name(self) -> str:
        return self.target.name

    @property
    def nullable(self) -> bool:
        return self.source.nullable

    @property
    def overridden(self) -> bool:
        return self.target.type is not None

    def value_expr(self, ref: str) -> str:
        """The target-side expression of a staged natural value at ``ref``: transform, then a cast
        to an overridden type."""
        e = self.target.expression(ref)
        return f"CAST({e} AS {self.sql_type})" if self.overridden else e


@dataclasses.dataclass(frozen=True, slots=True)
class TargetTable:
    """A source table in the target. ``key``: the columns rows are found by (primary key, else
    the first unique key of NOT NULL columns without prefixes, else ``()``: every column)."""

    source: Table
    schema: str
    name: str
    columns: tuple[TargetColumn, ...]
    key: tuple[TargetColumn, ...]

    @property
    def qualified(self) -> str:
        return f"{qi(self.schema)}.{qi(self.name)}"

    def column(self, source_name: str) -> TargetColumn | None:
        k = column_key(source_name)
        for c in self.columns:
            if column_key(c.source.name) == k:
                return c
        return None

    @property
    def source_name(self) -> str:
        return f"{self.source.database}.{self.source.name}"


def enum_type_name(col: Column) -> str:
    """An ENUM column's PostgreSQL enum type under EnumMode.TYPE: named by a hash of its members
    and kept in the sink's own schema, so a table or schema rename never orphans it and columns with
    the same members share it."""
    return "enum_" + hashlib.sha1("\x00".join(col.values).encode()).hexdigest()[:16]


def resolve(table: Table, mapping: Mapping, options: PgOptions) -> TargetTable | None:
    """``table`` through ``mapping`` (None: excluded) and the type map."""
    db, name = table.database, table.name
    if not mapping.table_included(db, name):
        return None
    schema, tname = mapping.table_for(db, name)
    cols = []
    for c in table.columns:
        ct = mapping.column_for(db, name, c.name)
        if ct is None:
            continue
        et = (qi(options.state_schema) + "." + qi(enum_type_name(c))) if c.values and c.family.value == "enum" \
            else None
        nat = pg_type(c, table, options, et)
        cols.append(TargetColumn(c, ct, nat, ct.type or nat.sql))
    by = {column_key(c.source.name): c for c in cols}
    if any(c.source.generated is not None for c in cols):
        cols = [_generated(table, c, by, options) if c.source.generated is not None else c for c in cols]
        by = {column_key(c.source.name): c for c in cols}
    key: tuple[TargetColumn, ...] = ()
    candidates = ([table.primary_key] if table.primary_key else []) + [
        u for u in table.unique_keys if all(
            p.column and p.length is None and table.column(p.column) is not None
            and not table.column(p.column).nullable for p in u.parts)]
    for ix in candidates:
        parts = [by.get(column_key(p.column)) if p.column else None for p in ix.parts]
        # (a key with a column the target generates is not one: rows do not carry its value)
        if parts and all(p is not None and p.generated is None for p in parts) \
                and all(p.length is None for p in ix.parts):
            key = tuple(parts)
            break
    return TargetTable(table, schema, tname, tuple(cols), key)


def _generated(table: Table, tc: TargetColumn, by: dict, options: PgOptions) -> TargetColumn:
    """A generated source column in the target: its translated expression, or the fallback."""
    expr = tc.source.generated.expression
    try:
        if tc.source.type_name[:1].isupper():
            raise Untranslatable("an Oracle virtual column (only MySQL/MariaDB expressions are translated)")
        return dataclasses.replace(tc, generated=target_expression(table, tc, by))
    except Untranslatable as e:
        if options.generated_fallback == "plain":
            return dataclasses.replace(tc, plain_reason=str(e))
        raise UnconvertibleDdlError(
            f"cannot convert the generated column {table.database}.{table.name}.{tc.source.name} AS ({expr}): {e} "
            "(sink.generated_fallback = \"plain\" keeps it as a plain column filled with the source's values)",
            table=f"{table.database}.{table.name}", what=f"generated column {tc.source.name} AS ({expr})") from None


# ------------------------------------------------------------------------------------ defaults
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def default_sql(tc: TargetColumn, notes: list[str], fill_ts: float | None = None) -> str | None:
    """The target DEFAULT of a column, None for none. ``fill_ts``: for CURRENT_TIMESTAMP, the
    source statement's time instead (the value MySQL gave the rows that existed at an ADD COLUMN)."""
    d = tc.source.default
    if d is None or d.kind is DefaultKind.NULL or tc.source.generated is not None or tc.source.auto_increment:
        return None
    kind = tc.natural.kind
    if d.kind is DefaultKind.CURRENT_TIMESTAMP:
        if fill_ts is not None:
            return f"to_timestamp({fill_ts!r})" + ("" if kind == "timestamptz" else " AT TIME ZONE 'UTC'")
        return "CURRENT_TIMESTAMP" if kind == "timestamptz" else "LOCALTIMESTAMP"
    if d.kind is DefaultKind.EXPRESSION:
        notes.append(f"{tc.name}: default expression {d.value} not converted")
        return None
    v = d.value
    lit = literal_sql(tc, v)
    if lit is None:
        notes.append(f"{tc.name}: default {v!r} has no {tc.sql_type} value; left out")
    return lit


def literal_sql(tc: TargetColumn, v: str) -> str | None:
    """A source literal's text (as the model normalises defaults) as a target literal, or None."""
    kind = tc.natural.kind
    if kind in ("int", "numeric", "float"):
        return v if _NUM.match(v) else None
    if kind == "bool":
        return "true" if v not in ("0", "") else "false"
    if kind == "bit":
        if v.startswith("b'"):
            bits = v[2:-1]
        elif v.isdigit():
            bits = format(int(v), "b")
        else:
            return None
        n = tc.natural.bits or len(bits)
        return f"B'{bits.zfill(n)[-n:]}'"
    if kind in ("date", "timestamp", "timestamptz"):
        if v.startswith("0000") or "-00" in v[:10]:
            return None
        return f"{ql(v)}::{tc.natural.sql}"
    if kind == "set":
        items = [x for x in v.split(",") if x]
        return "ARRAY[" + ",".join(ql(x) for x in items) + "]::text[]" if items else "'{}'::text[]"
    if kind == "bytea":
        return f"{ql(chr(92) + 'x' + v.encode('utf-8', 'surrogateescape').hex())}::bytea"
    if "\x00" in v:
        return None
    if kind == "enum":
        return f"{ql(v)}::{tc.natural.sql}"
    return f"{ql(v)}::{tc.sql_type}" if kind not in ("text",) else ql(v)


def implicit_sql(tc: TargetColumn) -> str | None:
    """The value MySQL gives existing rows of a NOT NULL column without a default (manual 13.6
    "Data Type Default Values": 0, '', the first ENUM member, the zero date, clamped to its
    nearest PostgreSQL value)."""
    kind = tc.natural.kind
    if kind in ("int", "numeric", "float"):
        return "0"
    if kind == "bool":
        return "false"
    if kind == "bit":
        return f"B'{'0' * (tc.natural.bits or 1)}'"
    if kind == "date":
        return "'0001-01-01'::date"
    if kind in ("timestamp", "timestamptz"):
        return f"'0001-01-01 00:00:00'::{tc.natural.sql}"
    if kind == "interval":
        return "'0'::interval"
    if kind == "set":
        return "'{}'::text[]"
    if kind == "bytea":
        return "''::bytea"
    if kind == "jsonb":
        return "'null'::jsonb"
    if tc.source.values:
        return ql(tc.source.values[0]) + (f"::{tc.natural.sql}" if kind == "enum" else "")
    if kind in ("text", "enum"):
        return "''"
    return None


# ------------------------------------------------------------------------------------ columns
def column_sql(tc: TargetColumn, notes: list[str], *, with_default: bool = True) -> str:
    parts = [qi(tc.name), tc.sql_type]
    if tc.generated is not None:
        parts.append(f"GENERATED ALWAYS AS ({tc.generated}) STORED")
    elif tc.plain_reason is not None:
        notes.append(f"{tc.name}: generated column kept as a plain column ({tc.plain_reason})")
    if with_default and tc.generated is None:
        d = default_sql(tc, notes)
        if d is not None:
            parts.append(f"DEFAULT {d}")
    if not tc.nullable:
        parts.append("NOT NULL")
    return " ".join(parts)


def enum_check(tc: TargetColumn) -> str | None:
    """CHECK (col IN (members)) of an ENUM column under EnumMode.CHECK ('' is MySQL's error
    value for an invalid member, stored in non-strict mode: manual 13.3.5 "The ENUM Type")."""
    if tc.natural.kind != "text" or not tc.source.values or tc.source.family.value != "enum" or tc.overridden:
        return None
    members = ",".join(ql(m) for m in ("", *tc.source.values))
    return f"CONSTRAINT {qi(pg_name(tc.name, 'enum'))} CHECK ({qi(tc.name)} IN ({members}))"


def enum_type_sql(tt: TargetTable) -> list[str]:
    """CREATE TYPE of every enum column under EnumMode.TYPE (created once: a type with the same
    name has the same members, its name holds their hash)."""
    out = []
    for c in tt.columns:
        if c.natural.kind == "enum":
            labels = ",".join(ql(m) for m in ("", *c.source.values))
            out.append(f"DO $$ BEGIN CREATE TYPE {c.natural.sql} AS ENUM ({labels}); "
                       "EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    return out


# ------------------------------------------------------------------------------------ indexes
@dataclasses.dataclass(frozen=True, slots=True)
class TargetIndex:
    name: str          # the PostgreSQL index name
    unique: bool
    primary: bool
    parts: tuple[str, ...]      # SQL of each part

    def create_sql(self, tt: TargetTable) -> str:
        if self.primary:
            return (f"ALTER TABLE {tt.qualified} ADD CONSTRAINT {qi(self.name)} PRIMARY KEY "
                    f"({', '.join(self.parts)})")
        u = "UNIQUE " if self.unique else ""
        return f"CREATE {u}INDEX {qi(self.name)} ON {tt.qualified} ({', '.join(self.parts)})"

    def drop_sql(self, tt: TargetTable) -> str:
        if self.primary:
            return f"ALTER TABLE {tt.qualified} DROP CONSTRAINT IF EXISTS {qi(self.name)}"
        return f"DROP INDEX IF EXISTS {qi(tt.schema)}.{qi(self.name)}"


def target_indexes(tt: TargetTable, notes: list[str]) -> list[TargetIndex]:
    out = []
    t = tt.source
    for ix in ([t.primary_key] if t.primary_key else []) + list(t.unique_keys) + list(t.indexes):
        if ix.kind is IndexKind.PRIMARY and any(p.length is not None for p in ix.parts):
            notes.append(f"primary key {ix.name}: prefix parts, kept as a unique index")
            ix = dataclasses.replace(ix, kind=IndexKind.UNIQUE, name="pkey_prefix")
        if ix.kind in (IndexKind.FULLTEXT, IndexKind.SPATIAL):
            notes.append(f"{ix.kind.value} key {ix.name} not converted")
            continue
        parts = []
        for p in ix.parts:
            tc = tt.column(p.column) if p.column else None
            if tc is None:
                parts = None
                if p.column is None:
                    notes.append(f"key {ix.name}: functional part not converted")
                break
            ref = qi(tc.name)
            if p.length is not None:
                ref = (f"substring({ref} from 1 for {p.length})" if tc.natural.kind == "bytea"
                       else f"left({ref}, {p.length})")
                ref = f"({ref})"
            # (a PRIMARY KEY constraint's columns take no ordering: manual "CREATE TABLE", "PRIMARY KEY (
            # column_name [, ... ] )"; nor can it adopt a DESC index: "ALTER TABLE", ADD table_constraint_using_index
            # wants "a b-tree index with default sort ordering". So MariaDB's PRIMARY KEY (a DESC) is PRIMARY KEY
            # (a): the same uniqueness and NOT NULL, a B-tree PostgreSQL reads both ways (manual 11.4 "Indexes and
            # ORDER BY"). UNIQUE keys are unique indexes, where DESC is valid (manual "CREATE INDEX") and kept.)
            desc = p.descending and ix.kind is not IndexKind.PRIMARY
            parts.append(ref + (" DESC" if desc else ""))
        if not parts:
            continue
        primary = ix.kind is IndexKind.PRIMARY
        out.append(TargetIndex(pg_name(tt.name, "pkey" if primary else ix.name), ix.unique, primary, tuple(parts)))
    return out


# ------------------------------------------------------------------------------------ statements
def create_schema(schema: str) -> str:
    return f"CREATE SCHEMA IF NOT EXISTS {qi(schema)}"


def drop_schema(schema: str) -> str:
    return f"DROP SCHEMA IF EXISTS {qi(schema)} CASCADE"


def create_table(tt: TargetTable, options: PgOptions, notes: list[str]) -> list[str]:
    out = [create_schema(tt.schema)]
    if options.enum_mode is EnumMode.TYPE:
        out += enum_type_sql(tt)
    defs = [column_sql(c, notes) for c in tt.columns]
    if O.has_row_column(tt):
        defs.append(O.row_column_sql(options.state_schema))
    if options.enum_mode is EnumMode.CHECK:
        defs += [ck for c in tt.columns if (ck := enum_check(c))]
    if not tt.columns:
        notes.append("no column is included: the table is created empty")
    out.append(f"CREATE TABLE {tt.qualified} ({', '.join(defs)})")
    out += [ix.create_sql(tt) for ix in target_indexes(tt, notes)]
    return out


def drop_table(tt: TargetTable) -> list[str]:
    return [f"DROP TABLE IF EXISTS {tt.qualified}"]


def truncate_table(tt: TargetTable) -> list[str]:
    return [f"TRUNCATE TABLE {tt.qualified}"]


def rename_table(old: TargetTable, new: TargetTable) -> list[str]:
    """Moves ``old`` to ``new``'s schema and name, its indexes renamed to the new table's names
    (the columns are ``old``'s: :func:`alter_table` follows for the rest)."""
    out = []
    q = old.qualified
    if old.schema != new.schema:
        out.append(create_schema(new.schema))
        out.append(f"ALTER TABLE {q} SET SCHEMA {qi(new.schema)}")
        q = f"{qi(new.schema)}.{qi(old.name)}"
    if old.name != new.name:
        out.append(f"ALTER TABLE {q} RENAME TO {qi(new.name)}")
        moved = dataclasses.replace(old, schema=new.schema, name=new.name)
        for a, b in zip(target_indexes(old, []), target_indexes(moved, []), strict=True):
            if a.name != b.name:
                out.append(f"ALTER INDEX {qi(new.schema)}.{qi(a.name)} RENAME TO {qi(b.name)}")
    return out


def cast_expr(ref: str, old: TargetColumn, new: TargetColumn) -> str:
    """USING expression of a column type change (MySQL converts the stored values, manual 15.1.9
    "ALTER TABLE": "the data type conversion ... attempts to convert existing column values")."""
    a, b, t = old.natural.kind, new.natural.kind, new.sql_type
    if new.overridden or old.overridden:
        return f"{ref}::text::{t}" if not new.overridden or a != "text" else f"{ref}::{t}"
    if a == b and a not in ("enum",):
        return f"{ref}::{t}"
    if a == "bytea" and b in ("text", "jsonb", "enum"):
        return f"convert_from({ref}, 'UTF8')::{t}"
    if b == "bytea":
        return f"convert_to({ref}::text, 'UTF8')"
    if b == "set":
        return f"string_to_array({ref}::text, ',')"
    if a == "set":
        return f"array_to_string({ref}, ',')::{t}"
    if {a, b} == {"timestamp", "timestamptz"}:
        return f"({ref} AT TIME ZONE 'UTC')::{t}"
    if a == "int" and b == "bool":
        return f"({ref} <> 0)"
    if a == "bool":
        return f"{ref}::int::{t}"
    if a == "bit" or b == "bit":
        return f"{ref}::text::{t}" if b != "bit" else f"{ref}::bigint::bit({new.natural.bits})::{t}"
    return f"{ref}::text::{t}"


def alter_table(old: TargetTable, new: TargetTable, renames: dict[str, str], options: PgOptions,
                notes: list[str], fill_ts: float | None = None, ai_start: int = 1) -> list[str]:
    """ALTER statements taking the target of ``old`` to that of ``new`` (same schema and name:
    :func:`rename_table` moved it before). ``renames``: source column renames of the statement,
    column_key(old name) -> new name. ``ai_start``: the first number of rows an AUTO_INCREMENT
    column added or made numbers (:func:`.order.alter_starts`)."""
    q = new.qualified
    out: list[str] = []
    back = {column_key(v): k for k, v in renames.items()}
    pairs: list[tuple[TargetColumn, TargetColumn]] = []
    matched_old = set()
    added = []
    for c in new.columns:
        oname = back.get(column_key(c.source.name), column_key(c.source.name))
        oc = old.column(oname)
        if oc is None:
            added.append(c)
        else:
            pairs.append((oc, c))
            matched_old.add(column_key(oc.source.name))
    # generated columns PostgreSQL 15 cannot alter in place (no SET EXPRESSION before 17, and no
    # type change of a column a generation expression uses): dropped first, added again at the end
    # (the target recomputes them); a generated column that becomes plain keeps its values
    # (ALTER COLUMN DROP EXPRESSION, manual "ALTER TABLE")
    retyped = any(o.sql_type != n.sql_type for o, n in pairs)
    moved = bool(renames)
    regen = [(o, n) for o, n in pairs if n.generated is not None and (
        o.generated != n.generated or o.sql_type != n.sql_type or retyped or moved)]
    unexpressed = [o for o, n in pairs if o.generated is not None and n.generated is None]
    if regen:
        gone = {id(o) for o, _n in regen}
        pairs = [(o, n) for o, n in pairs if id(o) not in gone]
        matched_old -= {column_key(o.source.name) for o, _n in regen}
        added = [n for _o, n in regen] + added
    old_ix = {ix.name: ix for ix in target_indexes(old, [])}
    new_ix = {ix.name: ix for ix in target_indexes(new, notes)}
    renamed_cols = {qi(o.name): qi(n.name) for o, n in pairs if o.name != n.name}
    regen_refs = [qi(o.name) for o, _n in regen]

    def same(a: TargetIndex, b: TargetIndex) -> bool:
        parts = tuple(_rename_refs(p, renamed_cols) for p in a.parts)
        return a.unique == b.unique and a.primary == b.primary and parts == b.parts
    changed_type = {column_key(n.source.name) for o, n in pairs if o.sql_type != n.sql_type}
    for name, ix in old_ix.items():
        if name not in new_ix or not same(ix, new_ix[name]) or any(
                column_key(n.source.name) in changed_type for o, n in pairs if qi(o.name) in " ".join(ix.parts)) \
                or any(r in " ".join(ix.parts) for r in regen_refs):
            out.append(ix.drop_sql(old))
            old_ix[name] = None
    if options.enum_mode is EnumMode.CHECK:
        for o, n in pairs:
            if enum_check(o) and (o.source.values != n.source.values or not enum_check(n) or o.sql_type != n.sql_type):
                out.append(f"ALTER TABLE {q} DROP CONSTRAINT IF EXISTS {qi(pg_name(o.name, 'enum'))}")
    for oc in sorted(old.columns, key=lambda c: c.generated is None):      # (generated first: their inputs after)
        if column_key(oc.source.name) not in matched_old:
            out.append(f"ALTER TABLE {q} DROP COLUMN IF EXISTS {qi(oc.name)}")
    for oc in unexpressed:
        out.append(f"ALTER TABLE {q} ALTER COLUMN {qi(oc.name)} DROP EXPRESSION")
    # renames: through temporary names when a new name is an old one still in use (a swap)
    ren = [(o, n) for o, n in pairs if o.name != n.name]
    taken = {c.name for c in old.columns if column_key(c.source.name) in matched_old}
    if ren and any(n.name in taken for _, n in ren):
        for i, (o, _n) in enumerate(ren):
            out.append(f"ALTER TABLE {q} RENAME COLUMN {qi(o.name)} TO {qi(f'__mysqlddl_tmp_{i}')}")
        for i, (_o, n) in enumerate(ren):
            out.append(f"ALTER TABLE {q} RENAME COLUMN {qi(f'__mysqlddl_tmp_{i}')} TO {qi(n.name)}")
    else:
        for o, n in ren:
            out.append(f"ALTER TABLE {q} RENAME COLUMN {qi(o.name)} TO {qi(n.name)}")
    for o, n in ren:
        if enum_check(o) and enum_check(n) and o.source.values == n.source.values and o.sql_type == n.sql_type:
            out.append(f"ALTER TABLE {q} RENAME CONSTRAINT {qi(pg_name(o.name, 'enum'))} TO "
                       f"{qi(pg_name(n.name, 'enum'))}")
    if options.enum_mode is EnumMode.TYPE:
        out += enum_type_sql(new)
    for o, n in pairs:
        ref = qi(n.name)
        od, nd = default_sql(o, []), default_sql(n, notes)
        if o.sql_type != n.sql_type:
            if od is not None:
                out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} DROP DEFAULT")
                od = None
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} TYPE {n.sql_type} USING {cast_expr(ref, o, n)}")
        if o.nullable and not n.nullable:
            fill = nd or implicit_sql(n)
            if fill is not None:
                out.append(f"UPDATE {q} SET {ref} = {fill} WHERE {ref} IS NULL")
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} SET NOT NULL")
        elif n.nullable and not o.nullable:
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} DROP NOT NULL")
        if od != nd:
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} " + (f"SET DEFAULT {nd}" if nd else "DROP DEFAULT"))
    for c in added:
        ref = qi(c.name)
        if c.generated is not None:
            out.append(f"ALTER TABLE {q} ADD COLUMN {column_sql(c, notes)}")
            continue
        declared = default_sql(c, notes)
        fill = default_sql(c, [], fill_ts) if fill_ts is not None else declared
        if fill is None and not c.nullable:
            fill = implicit_sql(c)
        if c.source.generated is not None:
            notes.append(f"{c.name}: generated column added as a plain column ({c.plain_reason}): rows that "
                         "existed keep NULL until they change")
        out.append(f"ALTER TABLE {q} ADD COLUMN {ref} {c.sql_type}" + (f" DEFAULT {fill}" if fill else ""))
        if fill != declared:
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} " + (f"SET DEFAULT {declared}" if declared
                                                                  else "DROP DEFAULT"))
        if not c.nullable:
            out.append(f"ALTER TABLE {q} ALTER COLUMN {ref} SET NOT NULL")
    if options.enum_mode is EnumMode.CHECK:
        have = {column_key(o.source.name) for o, n in pairs if enum_check(o) and enum_check(n)
                and o.source.values == n.source.values and o.sql_type == n.sql_type}
        for c in new.columns:
            ck = enum_check(c)
            if ck and column_key(c.source.name) not in have:
                out.append(f"ALTER TABLE {q} ADD {ck}")
    # AUTO_INCREMENT values for the rows there are (an added column, or one that becomes
    # AUTO_INCREMENT: its 0s and NULLs), in the old table's clustered order: before its hidden
    # insertion order is dropped and before the new keys check them
    out += [O.numbering_sql(old, c, renamed_cols, added=True, start=ai_start) for c in added
            if c.source.auto_increment and c.generated is None]
    out += [O.numbering_sql(old, n, renamed_cols, start=ai_start) for o, n in pairs
            if n.source.auto_increment and not o.source.auto_increment]
    if O.has_row_column(old) and not O.has_row_column(new):
        out += O.drop_row_column(new)
    elif O.has_row_column(new) and not O.has_row_column(old):
        out += O.add_row_column(new, options.state_schema, old, renamed_cols)
    # new keys after the columns they use; primary first
    for name, ix in sorted(new_ix.items(), key=lambda kv: not kv[1].primary):
        if old_ix.get(name) is None:
            out.append(ix.create_sql(new))
    return out


def _rename_refs(part: str, renamed: dict[str, str]) -> str:
    for a, b in renamed.items():
        part = part.replace(a, b)
    return part


__all__ = ["NAMEDATALEN", "TargetColumn", "TargetIndex", "TargetTable", "alter_table", "cast_expr", "column_sql",
           "create_schema", "create_table", "default_sql", "drop_schema", "drop_table", "enum_check",
           "implicit_sql", "literal_sql", "pg_name", "qi", "ql", "rename_table", "resolve", "target_indexes",
           "truncate_table"]
