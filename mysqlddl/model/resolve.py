"""From what a statement said (:mod:`.spec`) to what the server makes of it (:mod:`.column`).

Every rule here is MySQL's documented behaviour; where MariaDB differs the rule reads a field of
:class:`~.dialects.DialectRules` instead of branching on the dialect name.

A little over ~600 lines, for a reason: the column, key, check and foreign-key rules read one
another (a key promotes its columns to NOT NULL, a generated column's expression names columns, a
charset change refits key lengths) through one :class:`Context`; the value rules that needed no
context already live in :mod:`.resolved` and :mod:`.literals`.
"""

from __future__ import annotations

import dataclasses
import re

from ..errors import DdlSemanticError
from ..options import Options
from . import charsets, literals
from . import types as T
from .column import Column, Default, DefaultKind, Generated, GeneratedKind
from .dialects import MAX_KEY_LENGTH, NO_BLOB_ENGINES, NO_FULLTEXT_ENGINES, DialectRules, rules_for
from .ids import TableId
from .resolved import ResolvedColumn, text_value
from .spec import CheckSpec, ColumnSpec, DataTypeSpec, ForeignKeySpec, KeySpec
from .table import Check, ForeignKey, Index, IndexKind, IndexPart, TableEditor
from .types import TypeFamily

F = TypeFamily


@dataclasses.dataclass(frozen=True, slots=True)
class Context:
    """What resolving a column needs to know about its statement and table."""

    options: Options
    rules: DialectRules
    table: str
    charset: str
    collation: str
    explicit_defaults_for_timestamp: bool
    sql_mode: frozenset[str]

    @classmethod
    def make(cls, options: Options, table: str, charset: str, collation: str, *,
             explicit_defaults_for_timestamp: bool, sql_mode: frozenset[str]) -> Context:
        return cls(options, rules_for(options), table, charset, collation,
                   explicit_defaults_for_timestamp, sql_mode)

    @property
    def no_backslash_escapes(self) -> bool:
        return "NO_BACKSLASH_ESCAPES" in self.sql_mode


def _declared(t: DataTypeSpec) -> str:
    if t.text:
        return t.text
    s = T.normalise_spelling(t.name)
    if t.values:
        s += "(" + ",".join(t.values) + ")"
    elif t.length is not None:
        s += f"({t.length},{t.scale})" if t.scale is not None else f"({t.length})"
    return s + (" UNSIGNED" if t.unsigned else "") + (" ZEROFILL" if t.zerofill else "")


def resolve_type(t: DataTypeSpec, ctx: Context) -> tuple[dict, T.Synonym]:
    """Column fields for a data type (type_name, length, scale, fsp, unsigned, zerofill, charset,
    collation, values) and the synonym used (for SERIAL's implied attributes)."""
    spelling = T.normalise_spelling(t.name)
    syn = T.SYNONYMS.get(spelling)
    if syn is None:
        name = spelling.lower()
        if name not in T.FAMILIES:
            raise DdlSemanticError(f"Unknown data type '{t.name}'")
        syn = T.Synonym(name)
    name = syn.name
    if spelling == "REAL" and "REAL_AS_FLOAT" in ctx.sql_mode:
        name = "float"
    length, scale = t.length, t.scale
    if syn.float_precision and length is not None and scale is None:
        # FLOAT(p): 0..24 -> FLOAT, 25..53 -> DOUBLE, no (M,D) kept (MySQL manual 13.1.4).
        if length > 53:
            raise DdlSemanticError(f"Too-big precision {length} specified for '{t.name}'")
        name, length = ("float" if length <= 24 else "double"), None
    if syn.length is not None and length is None:
        length = syn.length
    fam = T.FAMILIES[name]
    unsigned = t.unsigned or t.zerofill or syn.unsigned
    zerofill = t.zerofill
    out = {"type_name": name, "length": None, "scale": None, "fsp": None, "unsigned": False,
           "zerofill": False, "charset": None, "collation": None, "values": ()}
    cs, coll = None, None
    if fam in T.CHARACTER_FAMILIES:
        explicit_cs = t.charset
        if syn.national and explicit_cs is None:
            explicit_cs = T.NATIONAL_CHARSET
        if explicit_cs is not None and charsets.canonical_charset(explicit_cs) == "binary":
            # CHARACTER SET binary turns character types into their binary twins (manual 10.3.5).
            name = {"char": "binary", "varchar": "varbinary", "tinytext": "tinyblob", "text": "blob",
                    "mediumtext": "mediumblob", "longtext": "longblob"}.get(name, name)
            fam = T.FAMILIES[name]
        else:
            cs, coll = charsets.resolve_pair(explicit_cs, t.collation, (ctx.charset, ctx.collation),
                                             ctx.rules.collation_column)
            if t.binary:
                cs = charsets.canonical_charset(explicit_cs) if explicit_cs else (
                    charsets.charset_of_collation(t.collation) if t.collation else ctx.charset)
                coll = charsets.binary_collation(cs)
    elif fam is F.JSON and ctx.rules.json_as_longtext:
        name, fam = "longtext", F.TEXT
        cs, coll = "utf8mb4", "utf8mb4_bin"
    if fam in (F.TEXT, F.BLOB) and length is not None and name in ("text", "blob"):
        # TEXT(n)/BLOB(n): the smallest type holding n characters (bytes for BLOB).
        if fam is F.TEXT:
            name = T.smallest_size(T.TEXT_SIZES, length * charsets.maxlen(cs))
        else:
            name = T.smallest_size(T.BLOB_SIZES, length)
        length = None
    out.update(type_name=name, charset=cs, collation=coll)
    if fam is F.INTEGER:
        keep = ctx.rules.keeps_int_display_width(ctx.options)
        width = length if length is not None else T.INT_DISPLAY_WIDTH[name][1 if unsigned else 0]
        if keep or zerofill or (name == "tinyint" and length == 1):
            out["length"] = width
        out.update(unsigned=unsigned, zerofill=zerofill)
    elif fam is F.DECIMAL:
        p, s = T.IMPLIED_LENGTH["decimal"]
        out.update(length=length if length is not None else p,
                   scale=scale if scale is not None else (0 if length is not None else s),
                   unsigned=unsigned, zerofill=zerofill)
    elif fam is F.FLOAT:
        out.update(length=length if scale is not None else None,
                   scale=scale, unsigned=unsigned, zerofill=zerofill)
    elif fam in T.FSP_FAMILIES:
        out["fsp"] = length or 0
    elif fam is F.YEAR:
        out["length"] = 4 if ctx.rules.keeps_int_display_width(ctx.options) else None
    elif fam in (F.ENUM, F.SET):
        out["values"] = tuple(_member(v, ctx) for v in t.values)
    elif fam in (F.TEXT, F.BLOB, F.JSON, F.GEOMETRY, F.DATE, F.INET4, F.INET6, F.UUID, F.UNKNOWN):
        pass
    else:  # BIT, CHAR, VARCHAR, BINARY, VARBINARY, VECTOR
        implied = T.IMPLIED_LENGTH.get(name)
        out["length"] = length if length is not None else (implied[0] if implied else None)
    return out, syn


def _member(v: str, ctx: Context) -> str:
    s = literals.string_value(v, ctx.no_backslash_escapes)
    # ENUM/SET members lose trailing spaces (manual 13.3.5: "trailing spaces are stripped").
    return (s if s is not None else v).rstrip(" ")


def resolve_column(spec: ColumnSpec, ctx: Context, *, first_timestamp: bool) -> ResolvedColumn:
    """Resolve one column definition. ``first_timestamp``: no TIMESTAMP column precedes this one in
    the resulting table (the explicit_defaults_for_timestamp=OFF auto-initialisation rule)."""
    if ctx.rules.column_resolver is not None:  # a dialect with its own column rules (Oracle)
        return ctx.rules.column_resolver(spec, ctx)
    fields, syn = resolve_type(spec.type, ctx)
    fam = T.FAMILIES[fields["type_name"]]
    nullable = spec.nullable
    if syn.not_null and nullable is None:
        nullable = False
    auto_inc = spec.auto_increment or syn.auto_increment
    nbe = ctx.no_backslash_escapes
    default = None
    if spec.default is not None:
        default = literals.normalise_default(
            literals.classify(spec.default, nbe), fam, scale=fields["scale"], fsp=fields["fsp"] or 0,
            values=fields["values"], type_name=fields["type_name"], length=fields["length"],
            zerofill=fields["zerofill"])
    on_update = None
    if spec.on_update is not None:
        raw = literals.classify(spec.on_update, nbe)
        if raw.kind != "now":
            raise DdlSemanticError(f"Invalid ON UPDATE clause for '{spec.name}' column")
        on_update = Default.current_timestamp(raw.fsp)
    legacy_ts = fam is F.TIMESTAMP and not ctx.explicit_defaults_for_timestamp
    if nullable is None:
        # Implicit NULL-ability: nullable, except TIMESTAMP under explicit_defaults_for_timestamp
        # OFF (manual 5.1.8, explicit_defaults_for_timestamp).
        nullable = not legacy_ts
    if legacy_ts and not nullable and default is not None and default.kind is DefaultKind.NULL \
            and ctx.rules.legacy_timestamp_default_null_is_zero:
        default = None  # becomes the zero default below
    generated = None
    if spec.generated is not None:
        generated = Generated(GeneratedKind.STORED if spec.stored else GeneratedKind.VIRTUAL,
                              spec.generated)
    if legacy_ts and not nullable and default is None:
        fsp = fields["fsp"] or 0
        # (a DEFAULT NULL turned into "no default" above still auto-initialises, as on 10.11.19)
        if first_timestamp and on_update is None:
            default = Default.current_timestamp(fsp)
            on_update = Default.current_timestamp(fsp)
        else:
            default = Default.literal("0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else ""))
    if default is None and nullable and not auto_inc and generated is None \
            and fam not in ctx.rules.no_implicit_null_default:
        default = Default.null()
    if not nullable and default is not None and default.kind is DefaultKind.NULL:
        raise DdlSemanticError(f"Invalid default value for '{spec.name}'")
    if generated is not None:
        default = None
    row_period = spec.row_period
    if row_period is not None:
        # GENERATED ALWAYS AS ROW START/END: NOT NULL, no default, shown as STORED GENERATED
        # (MariaDB KB "System-Versioned Tables"; information_schema checked on 10.11.19).
        nullable, default = False, None
    column = Column(
        name=spec.name, declared_type=_declared(spec.type), nullable=nullable, default=default,
        on_update=on_update, auto_increment=auto_inc, generated=generated, srid=spec.srid,
        comment=text_value(spec.comment, ctx), visible=spec.visible, row_period=row_period,
        versioned=spec.versioning is not False, **fields)
    checks = []
    if spec.type.name.strip().upper() == "JSON" and ctx.rules.json_as_longtext:
        checks.append(Check(spec.name, f"json_valid(`{spec.name}`)", column=spec.name))
    if spec.check is not None:
        checks.append(_column_check(spec, ctx))
    return ResolvedColumn(column, unique=spec.unique or syn.unique, primary=spec.primary_key,
                          checks=tuple(checks))


def _column_check(spec: ColumnSpec, ctx: Context) -> Check:
    _check_enforcement(spec.check_enforced, ctx)
    if ctx.rules.column_check_named_after_column:
        return Check(spec.check_name or spec.name, spec.check, column=spec.name)
    # MySQL 8.0.16+: a column CHECK is a table constraint, [NOT] ENFORCED included (manual
    # 15.1.20.6 "CHECK Constraints"); named by add_check_spec
    return Check(spec.check_name or "", spec.check, spec.check_enforced)


def _check_enforcement(enforced: bool, ctx: Context) -> None:
    if not enforced and not ctx.rules.check_enforcement:
        # MariaDB 10.11: "CHECK (...) NOT ENFORCED" is a syntax error (DialectRules.check_enforcement)
        raise DdlSemanticError("NOT ENFORCED CHECK constraints are not supported by this server")


def first_timestamp_before(columns, index: int) -> bool:
    """True when no TIMESTAMP column is in ``columns[:index]``."""
    return not any(c.type_name == "timestamp" for c in columns[:index])


def add_column_extras(ed: TableEditor, rc: ResolvedColumn, ctx: Context) -> None:
    """Add the keys and checks an inline column definition implies."""
    name = rc.column.name
    if rc.primary:
        ed.add_index(Index(IndexKind.PRIMARY, "PRIMARY", (IndexPart(name),)))
    if rc.unique:
        ed.add_index(Index(IndexKind.UNIQUE, ed.unique_index_name(name), (IndexPart(name),)))
    for chk in rc.checks:
        if chk.name:
            ed.add_check(chk)
        else:
            add_check_spec(ed, CheckSpec(chk.expression, enforced=chk.enforced), ctx)


def _fit_parts(ed: TableEditor, kind: IndexKind, parts, using: str | None, ctx: Context):
    """Key parts on long columns, per dialect: a BLOB/TEXT part needs a prefix (MySQL: error;
    MariaDB: plain keys get an automatic prefix, unique keys become long unique HASH keys); a
    prefix on a non-string column, or one covering the whole CHAR/VARCHAR, is dropped."""
    if kind not in (IndexKind.PRIMARY, IndexKind.UNIQUE, IndexKind.INDEX):
        return using, parts
    if not ctx.rules.limits_key_length:
        return using, tuple(parts)
    engine = (ed.fields.get("engine") or ed._t.engine or ctx.rules.default_engine).lower()
    limit = MAX_KEY_LENGTH.get(engine, 3072)
    out = []
    for p in parts:
        c = ed.column(p.column) if p.column is not None and ed.has_column(p.column) else None
        if c is None:
            out.append(p)
            continue
        mb = charsets.maxlen(c.charset)
        if p.length is not None and (c.family not in _PREFIXABLE or (
                c.family in (F.CHAR, F.VARCHAR, F.BINARY, F.VARBINARY) and c.length is not None
                and p.length >= c.length)):
            p = dataclasses.replace(p, length=None)
        if p.length is not None and c.family in (F.TEXT, F.BLOB) and p.length > (T.capacity(c.type_name) or p.length):
            p = dataclasses.replace(p, length=T.capacity(c.type_name))  # e.g. TEXT -> TINYTEXT: 255
        if p.length is not None and p.length * mb > limit and kind is IndexKind.INDEX \
                and ctx.rules.auto_key_prefix:
            p = dataclasses.replace(p, length=limit // mb)  # e.g. after CONVERT TO a wider charset
        if p.length is None:
            if c.family in (F.TEXT, F.BLOB, F.JSON):
                if kind is IndexKind.UNIQUE and ctx.rules.long_unique_hash:
                    using = "HASH"
                elif kind is IndexKind.INDEX and ctx.rules.auto_key_prefix:
                    p = dataclasses.replace(p, length=min(limit // mb, T.capacity(c.type_name) or limit))
                else:
                    raise DdlSemanticError(f"BLOB/TEXT column '{c.name}' used in key specification "
                                           "without a key length")
            elif c.family in (F.VARCHAR, F.VARBINARY) and c.length and c.length * mb > limit \
                    and ctx.rules.auto_key_prefix:
                if kind is IndexKind.UNIQUE and ctx.rules.long_unique_hash:
                    using = "HASH"
                elif kind is IndexKind.INDEX:
                    p = dataclasses.replace(p, length=limit // mb)
        out.append(p)
    if len(out) > 1 and using != "HASH" and sum(_part_bytes(ed, p) for p in out) > limit:
        if kind is IndexKind.UNIQUE and ctx.rules.long_unique_hash:
            using = "HASH"
        else:
            raise DdlSemanticError(f"Specified key was too long; max key length is {limit} bytes")
    return using, tuple(out)


# Bytes a key part takes for the key-length limit, for fixed-size types (MySQL manual 13.7).
_FIXED_BYTES = {"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "bigint": 8, "float": 4,
                "double": 8, "date": 3, "year": 1, "time": 3, "datetime": 5, "timestamp": 4,
                "enum": 2, "set": 8, "inet4": 4, "inet6": 16, "uuid": 16}


_DECIMAL_DIGIT_BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)


def storage_bytes(c: Column) -> int:
    """Bytes a value of a fixed-size column takes in a key (MySQL manual 13.7 "Data Type Storage
    Requirements"; DECIMAL packs 9 digits in 4 bytes on each side of the point)."""
    if c.family is F.DECIMAL:
        p, s_ = c.length or 10, c.scale or 0
        whole, frac = p - s_, s_
        return (whole // 9) * 4 + _DECIMAL_DIGIT_BYTES[whole % 9] + (frac // 9) * 4 + _DECIMAL_DIGIT_BYTES[frac % 9]
    if c.family is F.BIT:
        return ((c.length or 1) + 7) // 8
    if c.family is F.ENUM:
        return 1 if len(c.values) < 256 else 2
    if c.family is F.SET:
        n = (len(c.values) + 7) // 8
        return 8 if n > 4 else n
    if c.family in (F.TIME, F.DATETIME, F.TIMESTAMP):
        return {"time": 3, "datetime": 5, "timestamp": 4}[c.type_name] + ((c.fsp or 0) + 1) // 2
    return _FIXED_BYTES.get(c.type_name, 0)


def _part_bytes(ed: TableEditor, p: IndexPart) -> int:
    if p.column is None or not ed.has_column(p.column):
        return 0
    c = ed.column(p.column)
    if c.family in _PREFIXABLE:
        return (p.length or c.length or 0) * charsets.maxlen(c.charset)
    if c.family is F.DECIMAL:
        return (c.length or 10) // 2 + 1
    if c.family is F.BIT:
        return ((c.length or 1) + 7) // 8
    return _FIXED_BYTES.get(c.type_name, 8) + ((c.fsp or 0) + 1) // 2


_PREFIXABLE = frozenset({F.CHAR, F.VARCHAR, F.BINARY, F.VARBINARY, F.TEXT, F.BLOB, F.JSON})


def refit_keys(ed: TableEditor, columns: set[str], ctx: Context) -> None:
    """After CHANGE/MODIFY of ``columns`` (lower-case names), fit the key parts on them to the
    new types again (see :func:`_fit_parts`)."""
    def refit(ix: Index) -> Index:
        if not any(p.column and p.column.lower() in columns for p in ix.parts):
            return ix
        _check_new_parts(ed, ix, prefixes=False)
        using = None if ix.using == "HASH" else ix.using
        using, parts = _fit_parts(ed, ix.kind, ix.parts, using, ctx)
        return dataclasses.replace(ix, parts=parts, using=using)
    if ed.primary_key is not None:
        ed.primary_key = refit(ed.primary_key)
    ed.unique_keys = [refit(x) for x in ed.unique_keys]
    ed.indexes = [refit(x) for x in ed.indexes]


def _check_new_parts(ed: TableEditor, spec: KeySpec | Index, prefixes: bool = True) -> None:
    """What the server refuses in a new key: FULLTEXT on non-character columns
    (ER_BAD_FT_COLUMN), SPATIAL on non-geometry or nullable columns, a prefix on a non-string
    column or longer than the column (ER_WRONG_SUB_KEY)."""
    first_cs = None
    engine = (ed.fields.get("engine") or ed._t.engine or "").lower()
    if spec.kind is IndexKind.FULLTEXT and engine in NO_FULLTEXT_ENGINES:
        raise DdlSemanticError(f"The storage engine {engine.upper()} doesn't support FULLTEXT indexes")
    for p in spec.parts:
        if p.column is None or not ed.has_column(p.column):
            continue
        c = ed.column(p.column)
        if spec.kind is IndexKind.FULLTEXT and (c.family not in (F.CHAR, F.VARCHAR, F.TEXT) or (
                first_cs is not None and c.collation != first_cs)):
            # (all parts of a FULLTEXT key share one collation)
            raise DdlSemanticError(f"Column '{c.name}' cannot be part of FULLTEXT index")
        if first_cs is None:
            first_cs = c.collation
        if spec.kind is IndexKind.SPATIAL and (c.family is not F.GEOMETRY or c.nullable):
            raise DdlSemanticError("All parts of a SPATIAL index must be geometrical and NOT NULL")
        if prefixes and p.length is not None and c.family not in _PREFIXABLE \
                and p.length == storage_bytes(c):
            continue  # a "prefix" as long as the whole value is the whole column (MariaDB 10.11)
        if prefixes and p.length is not None and (
                c.family not in _PREFIXABLE or (
                c.family in (F.CHAR, F.VARCHAR, F.BINARY, F.VARBINARY) and c.length is not None
                and p.length > c.length)):
            raise DdlSemanticError("Incorrect prefix key; the used key part isn't a string, the used "
                                   "length is longer than the key part, or the storage engine doesn't "
                                   "support unique prefix keys")


def add_key_spec(ed: TableEditor, spec: KeySpec, ctx: Context) -> Index:
    """Name a key the way the server does (its name, else its CONSTRAINT name, else its first
    column, made unique with _2, _3...) and add it."""
    comment = text_value(spec.comment, ctx)
    _check_new_parts(ed, spec)
    using, parts = _fit_parts(ed, spec.kind, spec.parts, spec.using, ctx)
    spec = dataclasses.replace(spec, parts=parts)
    if spec.without_overlaps is not None:
        # UNIQUE (..., p WITHOUT OVERLAPS): p must be an application-time period of the table
        # (MariaDB KB "Application-Time Periods"; ER_PERIOD_NOT_FOUND otherwise)
        if not any(p.name.lower() == spec.without_overlaps.lower() and not p.system
                   for p in ed.get("periods")):
            raise DdlSemanticError(f"Period `{spec.without_overlaps}` is not found in table")
    if spec.kind is IndexKind.PRIMARY:
        ix = Index(IndexKind.PRIMARY, "PRIMARY", spec.parts, using, comment, spec.visible,
                   without_overlaps=spec.without_overlaps)
    else:
        name = spec.name or spec.constraint_name
        if name is None:
            first = spec.parts[0]
            name = ed.unique_index_name(first.column if first.column else "functional_index")
        ix = Index(spec.kind, name, spec.parts, using, comment, spec.visible,
                   without_overlaps=spec.without_overlaps)
    if spec.state is not None or (ix.kind is IndexKind.PRIMARY and ctx.rules.keeps_constraint_names):
        ix = dataclasses.replace(ix, state=spec.state, constraint_name=(
            spec.constraint_name if ix.kind is IndexKind.PRIMARY and ctx.rules.keeps_constraint_names
            else ix.constraint_name))
    ed.add_index(ix)
    return ix


def add_foreign_key_spec(ed: TableEditor, spec: ForeignKeySpec, ctx: Context) -> ForeignKey:
    """Add a foreign key and the index the server generates for it, named after the CONSTRAINT
    symbol, else the FOREIGN KEY index name, else the first column (MariaDB 10.11 checked). Call
    :func:`prune_generated_indexes` once the statement's keys are all in: the generated index only
    survives when no other key covers its columns."""
    name = spec.name
    if name is None and spec.index_name is not None and ctx.rules.fk_constraint_named_after_index:
        name = spec.index_name  # MariaDB: FOREIGN KEY ix (a) names the constraint ix
    if name is None:
        used = {fk.name.lower() for fk in ed.foreign_keys}
        n = 1
        while ctx.rules.fk_name_pattern.format(table=ed.id.name, n=n).lower() in used:
            n += 1
        name = ctx.rules.fk_name_pattern.format(table=ed.id.name, n=n)
    ref = spec.ref_table if spec.ref_table.database is not None else TableId(ed.id.database,
                                                                             spec.ref_table.name)
    fk = ForeignKey(name, tuple(spec.columns), ref, tuple(spec.ref_columns), spec.on_delete,
                    spec.on_update, spec.match)
    if spec.state is not None:
        fk = dataclasses.replace(fk, state=spec.state)
    ed.add_foreign_key(fk)
    if not ctx.rules.foreign_key_index:
        return fk
    base = spec.name or spec.index_name or spec.columns[0]
    ed.add_index(Index(IndexKind.INDEX, ed.unique_index_name(base),
                       tuple(IndexPart(c) for c in spec.columns), generated=True))
    return fk


def prune_generated_indexes(ed: TableEditor) -> None:
    """Drop every foreign-key-generated index whose columns another key starts with, in key
    order, so of two equal generated indexes the older goes (MariaDB 10.11: ``ADD CONSTRAINT fkz
    FOREIGN KEY (b)`` next to the generated ``fkx (b)`` leaves ``fkz``; a user key ``kb (b)``
    makes the generated one go; MySQL manual 15.1.20.5 "silently dropped later if you create
    another index that can be used")."""
    for ix in list(ed.all_keys()):
        if not ix.generated:
            continue
        want = [c.lower() for c in ix.columns]
        for other in ed.all_keys():
            if other is not ix and [c.lower() for c in other.columns][:len(want)] == want:
                ed.drop_index(ix.name)
                break


def add_check_spec(ed: TableEditor, spec: CheckSpec, ctx: Context) -> Check:
    _check_enforcement(spec.enforced, ctx)
    name = spec.name
    if name is None:
        used = {c.name.lower() for c in ed.checks}
        n = 1
        while ctx.rules.check_name_pattern.format(table=ed.id.name, n=n).lower() in used:
            n += 1
        name = ctx.rules.check_name_pattern.format(table=ed.id.name, n=n)
    chk = Check(name, spec.expression, spec.enforced)
    if spec.state is not None:
        chk = dataclasses.replace(chk, state=spec.state, enforced=spec.state.enabled and spec.enforced)
    ed.add_check(chk)
    return chk


def promote_primary_key_columns(ed: TableEditor, ctx: Context) -> None:
    """PRIMARY KEY columns become NOT NULL and lose an implied DEFAULT NULL (TableEditor.build
    does this too); a TIMESTAMP promoted this way under explicit_defaults_for_timestamp=OFF gets
    the zero default instead (MariaDB 10.11: "a TIMESTAMP(2) NULL" + ADD PRIMARY KEY (a) ->
    NOT NULL DEFAULT '0000-00-00 00:00:00.00')."""
    if ed.primary_key is None or ctx.explicit_defaults_for_timestamp:
        return
    for name in ed.primary_key.columns:
        if not ed.has_column(name):
            continue
        c = ed.column(name)
        if c.nullable and c.family is F.TIMESTAMP and (c.default is None or c.default.kind is DefaultKind.NULL):
            fsp = c.fsp or 0
            ed.set_column(name, nullable=False,
                          default=Default.literal("0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else "")))


_QUOTED = re.compile(r"`((?:[^`]|``)+)`")


def check_expression_columns(ed: TableEditor) -> None:
    """CHECK and generated-column expressions against the columns the table still has, looking at
    backquoted identifiers (the form the server stores; unquoted names are not examined). A table
    CHECK whose columns were all dropped goes with them; one that still names a dropped column
    next to a remaining one is an error, as is a generated column naming a dropped column
    (MariaDB 10.11: "Unknown column 'a' in 'CHECK'")."""
    have = {c.name.lower() for c in ed.columns}
    old_checks = {c.name.lower() for c in ed._t.checks}
    keep = []
    for chk in ed.checks:
        names = {m.group(1).replace("``", "`").lower() for m in _QUOTED.finditer(chk.expression or "")}
        missing = names - have
        if missing and missing == names and chk.column is None and chk.name.lower() in old_checks:
            continue  # (a CHECK added by this very statement is an error instead)
        if missing:
            raise DdlSemanticError(f"Unknown column '{sorted(missing)[0]}' in 'CHECK'")
        keep.append(chk)
    ed.checks = keep
    for c in ed.columns:
        if c.generated is None:
            continue
        for m in _QUOTED.finditer(c.generated.expression or ""):
            if m.group(1).replace("``", "`").lower() not in have:
                raise DdlSemanticError(f"Unknown column '{m.group(1)}' in 'GENERATED ALWAYS AS'")


def validate_table(ed: TableEditor) -> None:
    """Table-wide rules the server checks once the definition is complete: at most one
    AUTO_INCREMENT column, and it must lead some key (ER_WRONG_AUTO_KEY, 1075); engines without
    BLOB/TEXT support (MEMORY: ER_TABLE_CANT_HANDLE_BLOB)."""
    engine = (ed.fields.get("engine") or ed._t.engine or "").lower()
    if engine in NO_BLOB_ENGINES and any(c.family in (F.TEXT, F.BLOB, F.JSON) for c in ed.columns):
        raise DdlSemanticError(f"Storage engine {engine.upper()} doesn't support BLOB/TEXT columns")
    _validate_visibility(ed)
    _validate_periods(ed)
    autos = [c for c in ed.columns if c.auto_increment]
    if not autos:
        return
    lead = {ix.parts[0].column.lower() for ix in ed.all_keys()
            if ix.parts and ix.parts[0].column and ix.kind is not IndexKind.FULLTEXT}
    if len(autos) > 1 or autos[0].name.lower() not in lead:
        raise DdlSemanticError("Incorrect table definition; there can be only one auto column and it "
                               "must be defined as a key")


def implicit_primary_key(ed: TableEditor) -> Index | None:
    """The key the server treats as the primary key: the PRIMARY KEY, else (no primary key) the
    first UNIQUE key whose parts are all NOT NULL columns (MySQL 8.0/8.4 manual 10.3.12
    "Invisible Indexes": "the first such index places the same constraint on table rows as an
    explicit primary key and that index cannot be made invisible"; MariaDB 10.11 refuses to
    ignore it too, checked on 10.11.19)."""
    if ed.primary_key is not None:
        return ed.primary_key
    nullable = {c.name.lower(): c.nullable for c in ed.columns}
    for ix in ed.unique_keys:
        if ix.using != "HASH" and ix.parts and all(
                p.column is not None and nullable.get(p.column.lower()) is False for p in ix.parts):
            return ix
    return None


def _validate_visibility(ed: TableEditor) -> None:
    """A primary key, explicit or implicit, cannot be invisible/ignored (MySQL
    ER_PK_INDEX_CANT_BE_INVISIBLE, manual 10.3.12 "Invisible Indexes"; MariaDB 10.11
    ER_PK_INDEX_CANT_BE_IGNORED "A primary key cannot be marked as IGNORE", checked on
    10.11.19)."""
    pk = implicit_primary_key(ed)
    if pk is not None and not pk.visible:
        raise DdlSemanticError("A primary key index cannot be invisible")


def _validate_periods(ed: TableEditor) -> None:
    """Period columns exist and have one temporal type (MariaDB 10.11: ER_BAD_FIELD_ERROR,
    ER_PERIOD_FIELD_WRONG_ATTRIBUTES "Fields of PERIOD FOR `p` have different types",
    ER_WRONG_FIELD_SPEC for non-temporal columns, checked on 10.11.19)."""
    for p in ed.get("periods"):
        cols = []
        for n in (p.start, p.end):
            if not ed.has_column(n):
                raise DdlSemanticError(f"Unknown column '{n}' in '{p.name}'")
            cols.append(ed.column(n))
        s, e = cols
        if p.system:
            if s.row_period != "start" or e.row_period != "end":
                raise DdlSemanticError(f"PERIOD FOR SYSTEM_TIME must use columns `{s.name}` and `{e.name}`")
            continue
        if s.family not in (F.DATE, F.DATETIME, F.TIMESTAMP):
            raise DdlSemanticError(f"Incorrect column specifier for column '{s.name}'")
        if s.column_type != e.column_type:
            raise DdlSemanticError(f"Fields of PERIOD FOR `{p.name}` have different types")


def convert_column_charset(c: Column, charset: str, collation: str, promote: bool = True) -> Column:
    """ALTER TABLE ... CONVERT TO CHARACTER SET: a character column takes the new charset and
    collation; a TEXT column is promoted to the smallest TEXT type that still holds as many
    characters (MySQL manual 13.1.9, "Changing the Character Set")."""
    if c.family not in T.CHARACTER_FAMILIES:
        return c
    name = c.type_name
    if c.family is F.TEXT and promote:
        cap = T.capacity(name)
        chars = cap // charsets.maxlen(c.charset)
        need = chars * charsets.maxlen(charset)
        if need > cap:
            name = T.smallest_size(T.TEXT_SIZES, need)
    return c.replace(type_name=name, charset=charset, collation=collation)
