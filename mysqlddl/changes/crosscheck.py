"""The TABLE_MAP cross-check (ARCHITECTURE.md "Key decisions": Cross-check every TABLE_MAP): does
a TABLE_MAP's column list fit the table version in force, and what the schema tells the row
decoder about each column."""

from __future__ import annotations

from ..binlog import rows as rows_mod
from ..binlog.coltypes import CHARACTER_TYPES, signedness_columns
from ..binlog.coltypes import ColumnType as CT
from ..binlog.events import TableMapEvent
from ..binlog.values import charsets as bl_charsets
from ..errors import MysqlddlError
from ..model import charsets as model_charsets
from ..model.column import Column
from ..model.table import Table
from ..model.types import TypeFamily

F = TypeFamily

_INT_TYPES = {"tinyint": CT.TINY, "smallint": CT.SHORT, "mediumint": CT.INT24, "int": CT.LONG,
              "bigint": CT.LONGLONG}
_BLOB_WIDTH = {"tinytext": 1, "tinyblob": 1, "text": 2, "blob": 2, "mediumtext": 3, "mediumblob": 3,
               "longtext": 4, "longblob": 4}
BINARY_FAMILIES = frozenset({F.BINARY, F.VARBINARY, F.BLOB, F.GEOMETRY, F.INET4, F.INET6, F.UUID,
                              F.VECTOR, F.BIT})


def _set_pack_length(n: int) -> int:
    # Field_set::pack_length via get_set_pack_length: (n + 7) / 8, 3 -> 4, 5..8 -> 8.
    b = (n + 7) // 8
    return 4 if b == 3 else 8 if b > 4 else b


def check_column(col: Column, t: int, meta: int, *, charset_known: bool = True) -> str | None:
    """Why TABLE_MAP type ``t`` with metadata ``meta`` cannot be column ``col``, or None.

    ``charset_known=False``: the column's charset was inherited from a database the history never
    saw created, so the model's charset is the server default, not a fact; a CHAR/VARCHAR byte
    length is then accepted for any 1-4 bytes per character.

    Expected encodings: sql/field.h ``Field::binlog_type`` and each Field's
    ``do_save_field_metadata`` (see :func:`mysqlddl.binlog.rows.parse_column_metadata`)."""
    fam, name = col.family, col.type_name

    def text_bytes(nbytes: int) -> bool:
        if charset_known or fam not in (F.CHAR, F.VARCHAR) or not col.length:
            return nbytes == col.length * (model_charsets.maxlen(col.charset) if fam in (F.CHAR, F.VARCHAR)
                                           else 1)
        return nbytes % col.length == 0 and 1 <= nbytes // col.length <= 4

    def byte_length(logged: int, text: bool) -> str | None:
        # the bytes a CHAR/VARCHAR/BINARY/VARBINARY(N) holds: N characters of its charset's widest
        if col.length is None or text_bytes(logged):
            return None
        nbytes = col.length * (model_charsets.maxlen(col.charset) if text else 1)
        return None if logged == nbytes else f"{col.column_type} holds {nbytes} bytes, the TABLE_MAP says {logged}"

    def want(codes, what=None):
        names = "/".join(CT(c).name for c in codes)
        return f"{what or name} is logged as {names}, the TABLE_MAP has {_tname(t)}"

    if fam is F.UNKNOWN:
        return None
    if fam is F.INTEGER:
        code = _INT_TYPES.get(name)
        return None if t == code else want([code])
    if fam is F.DECIMAL:
        if t == CT.DECIMAL:
            return None
        if t != CT.NEWDECIMAL:
            return want([CT.NEWDECIMAL])
        p, s = meta >> 8, meta & 0xFF
        if (p, s) != (col.length, col.scale or 0):
            return f"decimal({col.length},{col.scale or 0}) but the TABLE_MAP says decimal({p},{s})"
        return None
    if fam is F.FLOAT:
        code = CT.DOUBLE if name == "double" else CT.FLOAT
        return None if t == code else want([code])
    if fam is F.BIT:
        if t != CT.BIT:
            return want([CT.BIT])
        bits = (meta >> 8) * 8 + (meta & 0xFF)
        return None if bits == (col.length or 1) else f"bit({col.length}) but the TABLE_MAP says bit({bits})"
    if fam is F.YEAR:
        return None if t == CT.YEAR else want([CT.YEAR])
    if fam is F.DATE:
        return None if t in (CT.DATE, CT.NEWDATE) else want([CT.DATE])
    if fam in (F.TIME, F.DATETIME, F.TIMESTAMP):
        new, old = {F.TIME: (CT.TIME2, CT.TIME), F.DATETIME: (CT.DATETIME2, CT.DATETIME),
                    F.TIMESTAMP: (CT.TIMESTAMP2, CT.TIMESTAMP)}[fam]
        if t == old:
            return None
        if t != new:
            return want([new, old])
        return None if meta == (col.fsp or 0) else f"{col.column_type} but the TABLE_MAP says fsp {meta}"
    if fam in (F.ENUM, F.SET):
        if t not in (CT.STRING, CT.VAR_STRING):
            return want([CT.STRING])
        rt, size = rows_mod.string_real_type(meta)
        code = CT.ENUM if fam is F.ENUM else CT.SET
        if rt != code:
            return f"{name} but the TABLE_MAP says {_tname(rt)}"
        n = len(col.values)
        expect = (1 if n < 256 else 2) if fam is F.ENUM else _set_pack_length(n)
        if n and size != expect:
            return f"{name} of {n} members packs in {expect} bytes, the TABLE_MAP says {size}"
        return None
    if fam in (F.CHAR, F.BINARY, F.INET4, F.INET6, F.UUID):
        if t not in (CT.STRING, CT.VAR_STRING):
            return want([CT.STRING])
        rt, size = rows_mod.string_real_type(meta)
        if rt in (CT.ENUM, CT.SET):
            return f"{name} but the TABLE_MAP says {_tname(rt)}"
        return byte_length(size, fam is F.CHAR) if fam in (F.CHAR, F.BINARY) else None
    if fam in (F.VARCHAR, F.VARBINARY):
        if t == CT.VARCHAR_COMPRESSED:
            return None
        if t not in (CT.VARCHAR, CT.VAR_STRING):
            return want([CT.VARCHAR])
        return byte_length(meta, fam is F.VARCHAR)
    if fam in (F.TEXT, F.BLOB):
        if t == CT.BLOB_COMPRESSED:
            return None
        if t not in (CT.BLOB, CT.TINY_BLOB, CT.MEDIUM_BLOB, CT.LONG_BLOB):
            return want([CT.BLOB])
        w = _BLOB_WIDTH.get(name)
        return None if w is None or meta == w else \
            f"{name} has a {w}-byte length prefix, the TABLE_MAP says {meta}"
    if fam is F.JSON:
        # MySQL: binary JSON; MariaDB: JSON is LONGTEXT (a 4-byte length-prefixed BLOB).
        return None if t in (CT.JSON, CT.BLOB, CT.BLOB_COMPRESSED) else want([CT.JSON, CT.BLOB])
    if fam is F.GEOMETRY:
        return None if t == CT.GEOMETRY else want([CT.GEOMETRY])
    if fam is F.VECTOR:
        return None if t in (CT.VECTOR, CT.VARCHAR, CT.STRING, CT.BLOB) else want([CT.VECTOR])
    return None


def _tname(code: int) -> str:
    try:
        return CT(code).name
    except ValueError:
        return f"type {code}"


def _character_indexes(tm: TableMapEvent, count: int | None) -> list[int]:
    real = []
    for t, m in zip(tm.column_types, tm.column_metadata, strict=True):
        if t in (CT.STRING, CT.VAR_STRING) and rows_mod.string_real_type(m)[0] in (CT.ENUM, CT.SET):
            real.append(CT.ENUM)
        else:
            real.append(t)
    chars = [i for i, t in enumerate(real) if t in CHARACTER_TYPES]
    with_geo = [i for i, t in enumerate(real) if t in CHARACTER_TYPES or t == CT.GEOMETRY]
    # MariaDB counts GEOMETRY among the character columns (see rows._build_plan).
    return with_geo if count is not None and count == len(with_geo) != len(chars) else chars


def cross_check(tm: TableMapEvent, table: Table, *, charset_known: bool = True,
                mariadb: bool = False) -> list[str]:
    """Every disagreement between a TABLE_MAP and the table version in force: column count, type
    codes and metadata; names, signedness and charsets when the map carries them. Empty when they
    agree. ``charset_known=False``: see :func:`check_column` (charsets are then not compared: the
    TABLE_MAP's are the only facts)."""
    cols = table.columns
    if tm.column_count != len(cols):
        return [f"the TABLE_MAP has {tm.column_count} columns, {table.id} has {len(cols)} "
                f"({', '.join(c.name for c in cols)})"]
    out = []
    metas = tm.column_metadata or (0,) * tm.column_count
    for i, (col, t, m) in enumerate(zip(cols, tm.column_types, metas, strict=True)):
        why = check_column(col, t, m, charset_known=charset_known)
        if why:
            out.append(f"column {i + 1} `{col.name}`: {why}")
    if out:
        return out
    if tm.column_names is not None:
        for i, (col, n) in enumerate(zip(cols, tm.column_names, strict=False)):
            if col.name.lower() != n.lower():
                out.append(f"column {i + 1} is `{col.name}` in the schema, `{n}` in the TABLE_MAP")
    if tm.signedness is not None:
        # MariaDB's bitmap also has a bit for YEAR columns (coltypes.signedness_columns)
        numeric = signedness_columns(tm.column_types, mariadb)
        for i, unsigned in zip(numeric, tm.signedness, strict=False):
            col = cols[i]
            if col.family in (F.INTEGER, F.DECIMAL, F.FLOAT) and col.unsigned != unsigned:
                out.append(f"column {i + 1} `{col.name}` is {'un' if col.unsigned else ''}signed in the "
                           f"schema, {'un' if unsigned else ''}signed in the TABLE_MAP")
    try:
        collations = tm.charsets
    except (MysqlddlError, ValueError, IndexError):
        collations = None
    if collations is not None and charset_known:
        for i, coll in zip(_character_indexes(tm, len(collations)), collations, strict=False):
            col = cols[i]
            logged = bl_charsets.charset_of_collation(coll)
            if logged is None or col.family in (F.JSON, F.GEOMETRY, F.UNKNOWN):
                continue
            expect = "binary" if col.family in BINARY_FAMILIES else col.charset
            if expect is None:
                continue
            if model_charsets.canonical_charset(expect) != model_charsets.canonical_charset(logged):
                out.append(f"column {i + 1} `{col.name}` is {expect} in the schema, {logged} "
                           f"(collation {coll}) in the TABLE_MAP")
    return out


#: A text column's charset by bytes per character, when only the TABLE_MAP's byte length says
#: (the unambiguous widths only: 2 could be ucs2, gbk, big5...).
_CHARSET_BY_WIDTH = {1: "latin1", 3: "utf8mb3", 4: "utf8mb4"}


def plan_columns(tm: TableMapEvent, version: Table, *, charset_known: bool = True) -> list[dict]:
    """:func:`column_spec` of each column of the table version ``version`` against the TABLE_MAP
    ``tm`` that maps it (rows.build_plan ``columns=``)."""
    has_cs = tm.column_charsets is not None or tm.default_charset is not None
    return [column_spec(c, m, charset_known=charset_known, tm_has_charsets=has_cs)
            for c, m in zip(version.columns, tm.column_metadata, strict=True)]

def column_spec(col: Column, tm_meta: int | None = None, *, charset_known: bool = True,
                tm_has_charsets: bool = False) -> dict:
    """What the schema tells the row decoder about a column (rows.build_plan ``columns=``).
    With ``charset_known=False`` the text charset comes from the TABLE_MAP (its charset metadata
    when present, else the byte width of a CHAR/VARCHAR), not from the model's assumed default."""
    fam = col.family
    spec: dict = {"unsigned": col.unsigned}
    if fam in BINARY_FAMILIES:
        spec["charset"] = "binary"
    elif fam is F.JSON:
        spec["charset"] = col.charset or "utf8mb4"
    elif not charset_known and fam in (F.CHAR, F.VARCHAR, F.TEXT):
        if not tm_has_charsets:
            width = None
            if fam is F.VARCHAR and col.length and tm_meta:
                width = tm_meta // col.length
            elif fam is F.CHAR and col.length and tm_meta:
                width = rows_mod.string_real_type(tm_meta)[1] // col.length
            cs = _CHARSET_BY_WIDTH.get(width) if width else None
            spec["charset"] = cs or model_charsets.canonical_charset(col.charset or "utf8mb4")
    elif col.charset:
        spec["charset"] = model_charsets.canonical_charset(col.charset)
    if fam in (F.TIME, F.DATETIME, F.TIMESTAMP):
        spec["fsp"] = col.fsp or 0
    if fam is F.ENUM:
        spec["enum_values"] = col.values
    elif fam is F.SET:
        spec["set_values"] = col.values
    if fam is F.DECIMAL and col.length:
        spec["length"] = col.length
    return spec



__all__ = ["BINARY_FAMILIES", "check_column", "column_spec", "cross_check", "plan_columns"]
