"""Column types: families, canonical names, synonyms, implied defaults and display widths.

Everything a dialect may change is a table (dict) here or a field of
:class:`mysqlddl.model.dialects.DialectRules`; the resolver in :mod:`.resolve` only looks things up.

Display widths (the ``(11)`` in ``int(11)``), one place where the servers differ::

    type        default width   MariaDB 10.x, MySQL < 8.0.19     MySQL >= 8.0.19
                signed/unsigned
    tinyint        4 / 3        kept; default filled in          dropped, except TINYINT(1)
    smallint       6 / 5          (int -> int(11),                 and any ZEROFILL column,
    mediumint      9 / 8          int unsigned -> int(10))         which keeps (or gets) its width
    int           11 / 10
    bigint        20 / 20
    year           4            year(4)                          year

(MySQL 8.0.19 release notes: "display width specification for integer data types was deprecated";
``SHOW CREATE TABLE`` and ``COLUMN_TYPE`` omit it.) ``DialectRules.keeps_int_display_width``
selects the column.
"""

from __future__ import annotations

import enum


class TypeFamily(str, enum.Enum):
    """Coarse type family: what a row decoder and a consumer need to know about a column."""

    INTEGER = "integer"
    DECIMAL = "decimal"
    FLOAT = "float"
    BIT = "bit"
    DATE = "date"
    TIME = "time"
    DATETIME = "datetime"
    TIMESTAMP = "timestamp"
    YEAR = "year"
    CHAR = "char"
    VARCHAR = "varchar"
    BINARY = "binary"
    VARBINARY = "varbinary"
    TEXT = "text"
    BLOB = "blob"
    ENUM = "enum"
    SET = "set"
    JSON = "json"
    GEOMETRY = "geometry"
    VECTOR = "vector"
    INET4 = "inet4"
    INET6 = "inet6"
    UUID = "uuid"
    # Oracle (grammars/oracle/README.md "Type mapping"): BOOLEAN (23ai), INTERVAL YEAR TO MONTH /
    # DAY TO SECOND, and TIMESTAMP WITH TIME ZONE (a local date-time plus its zone).
    BOOLEAN = "boolean"
    INTERVAL = "interval"
    TIMESTAMP_TZ = "timestamp_tz"
    UNKNOWN = "unknown"


F = TypeFamily

# canonical (lower-case, as COLUMN_TYPE prints it) type name -> family
FAMILIES: dict[str, TypeFamily] = {
    "tinyint": F.INTEGER, "smallint": F.INTEGER, "mediumint": F.INTEGER, "int": F.INTEGER,
    "bigint": F.INTEGER,
    "decimal": F.DECIMAL, "float": F.FLOAT, "double": F.FLOAT, "bit": F.BIT,
    "date": F.DATE, "time": F.TIME, "datetime": F.DATETIME, "timestamp": F.TIMESTAMP, "year": F.YEAR,
    "char": F.CHAR, "varchar": F.VARCHAR, "binary": F.BINARY, "varbinary": F.VARBINARY,
    "tinytext": F.TEXT, "text": F.TEXT, "mediumtext": F.TEXT, "longtext": F.TEXT,
    "tinyblob": F.BLOB, "blob": F.BLOB, "mediumblob": F.BLOB, "longblob": F.BLOB,
    "enum": F.ENUM, "set": F.SET, "json": F.JSON,
    "geometry": F.GEOMETRY, "point": F.GEOMETRY, "linestring": F.GEOMETRY, "polygon": F.GEOMETRY,
    "multipoint": F.GEOMETRY, "multilinestring": F.GEOMETRY, "multipolygon": F.GEOMETRY,
    "geometrycollection": F.GEOMETRY,
    "vector": F.VECTOR, "inet4": F.INET4, "inet6": F.INET6, "uuid": F.UUID,
    "unknown": F.UNKNOWN,
}

# Families whose values are character strings: they carry a charset and collation.
CHARACTER_FAMILIES = frozenset({F.CHAR, F.VARCHAR, F.TEXT, F.ENUM, F.SET})
TEMPORAL_FAMILIES = frozenset({F.DATE, F.TIME, F.DATETIME, F.TIMESTAMP, F.YEAR})
NUMERIC_FAMILIES = frozenset({F.INTEGER, F.DECIMAL, F.FLOAT})
# Families with fractional seconds precision (fsp) instead of a length.
FSP_FAMILIES = frozenset({F.TIME, F.DATETIME, F.TIMESTAMP})

# Default display width of integer types: name -> (signed, unsigned). See the module docstring.
INT_DISPLAY_WIDTH: dict[str, tuple[int, int]] = {
    "tinyint": (4, 3), "smallint": (6, 5), "mediumint": (9, 8), "int": (11, 10), "bigint": (20, 20),
}

# Storage capacity in bytes of the TEXT/BLOB sizes, smallest first (for TEXT(n), BLOB(n) and the
# type promotion of ALTER TABLE ... CONVERT TO CHARACTER SET, MySQL manual 13.1.9).
TEXT_SIZES: tuple[tuple[str, int], ...] = (
    ("tinytext", 255), ("text", 65535), ("mediumtext", 16777215), ("longtext", 4294967295))
BLOB_SIZES: tuple[tuple[str, int], ...] = (
    ("tinyblob", 255), ("blob", 65535), ("mediumblob", 16777215), ("longblob", 4294967295))

# Types whose length is implied when the statement gives none (DECIMAL -> (10,0), BIT -> (1),
# CHAR/BINARY -> (1)): name -> (length, scale).
IMPLIED_LENGTH: dict[str, tuple[int, int | None]] = {
    "decimal": (10, 0), "bit": (1, None), "char": (1, None), "binary": (1, None),
}


class Synonym:
    """What a type spelling means: the canonical name plus what it implies.

    ``length``: implied length when the statement gives none (BOOL -> 1); ``force_length``: the
    length is part of the synonym (SERIAL); ``unsigned``/``not_null``/``auto_increment``/``unique``:
    SERIAL's implied attributes; ``national``: NATIONAL types use the national charset (utf8mb3);
    ``float_precision``: FLOAT(p) picks float or double by p (MySQL manual 11.1.4).
    """

    __slots__ = ("name", "length", "unsigned", "not_null", "auto_increment", "unique", "national",
                 "float_precision")

    def __init__(self, name: str, *, length: int | None = None, unsigned: bool = False,
                 not_null: bool = False, auto_increment: bool = False, unique: bool = False,
                 national: bool = False, float_precision: bool = False):
        self.name = name
        self.length = length
        self.unsigned = unsigned
        self.not_null = not_null
        self.auto_increment = auto_increment
        self.unique = unique
        self.national = national
        self.float_precision = float_precision


S = Synonym

# Spelling (upper case, single spaces) -> meaning. Every canonical name maps to itself implicitly.
# The REAL -> DOUBLE entry is overridden by sql_mode REAL_AS_FLOAT in the resolver (a mode, not a
# dialect). Dialect-specific spellings live in DialectRules.type_synonyms.
SYNONYMS: dict[str, Synonym] = {
    "BOOL": S("tinyint", length=1), "BOOLEAN": S("tinyint", length=1),
    "INTEGER": S("int"), "INT1": S("tinyint"), "INT2": S("smallint"), "INT3": S("mediumint"),
    "MIDDLEINT": S("mediumint"), "INT4": S("int"), "INT8": S("bigint"),
    "DEC": S("decimal"), "FIXED": S("decimal"), "NUMERIC": S("decimal"),
    "DOUBLE PRECISION": S("double"), "REAL": S("double"), "FLOAT8": S("double"), "FLOAT4": S("float"),
    "FLOAT": S("float", float_precision=True),
    "SERIAL": S("bigint", unsigned=True, not_null=True, auto_increment=True, unique=True),
    "CHARACTER": S("char"), "CHARACTER VARYING": S("varchar"), "CHAR VARYING": S("varchar"),
    "VARCHARACTER": S("varchar"),
    "LONG VARCHAR": S("mediumtext"), "LONG": S("mediumtext"), "LONG CHAR VARYING": S("mediumtext"),
    "LONG CHARACTER VARYING": S("mediumtext"), "LONG VARBINARY": S("mediumblob"),
    "NATIONAL CHAR": S("char", national=True), "NATIONAL CHARACTER": S("char", national=True),
    "NCHAR": S("char", national=True),
    "NVARCHAR": S("varchar", national=True), "NATIONAL VARCHAR": S("varchar", national=True),
    "NCHAR VARCHAR": S("varchar", national=True), "NCHAR VARYING": S("varchar", national=True),
    "NATIONAL CHAR VARYING": S("varchar", national=True),
    "NATIONAL CHARACTER VARYING": S("varchar", national=True),
    "GEOMCOLLECTION": S("geometrycollection"),
}

# The NATIONAL types' charset (MySQL manual 10.3.7: "utf8mb3 as the predefined character set").
NATIONAL_CHARSET = "utf8mb3"


class OracleType:
    """What an Oracle type spelling means (SQL Ref. 2.1 "Data Types"; ANSI spellings: 2.1.2 "ANSI,
    DB2, and SQL/DS Data Types", table "ANSI Data Types Converted to Oracle Data Types").

    ``name``: the canonical name as Oracle's data dictionary spells it (ALL_TAB_COLUMNS.DATA_TYPE,
    upper case: the case keeps these names apart from MySQL's in :data:`FAMILIES`). ``args``: what
    the numbers in parentheses are: ``"precision"`` (p, s), ``"length"`` (n), ``"fsp"`` (fractional
    seconds), ``"interval"`` (leading field precision, then fsp for DAY TO SECOND), ``"dims"``
    (VECTOR's dimension count, None for ``*``) or None.
    ``length``/``scale``/``fsp``: implied when not written; ``fixed``: the spelling fixes them
    (INTEGER is NUMBER(38,0) whatever follows). ``semantics``: the length semantics of a character
    type, ``"BYTE"`` (the NLS_LENGTH_SEMANTICS default, may be overridden by ``n CHAR``) or
    ``"CHAR"`` (national types, always characters). ``spelling``: for the types whose numbers sit
    inside the name, how the data dictionary writes the full type (``{length}``/``{fsp}`` filled
    in), see :func:`oracle_type_text`; None: the name followed by ``(length[,scale])``.
    """

    __slots__ = ("name", "args", "length", "scale", "fsp", "fixed", "semantics", "spelling")

    def __init__(self, name: str, args: str | None = None, *, length: int | None = None,
                 scale: int | None = None, fsp: int | None = None, fixed: bool = False,
                 semantics: str | None = None, spelling: str | None = None):
        self.name, self.args, self.length, self.scale, self.fsp = name, args, length, scale, fsp
        self.fixed, self.semantics, self.spelling = fixed, semantics, spelling


OT = OracleType

# Oracle spelling (upper case, single spaces) -> meaning. Spellings not listed are user-defined
# (object) types: kept by name, family UNKNOWN (opaque).
ORACLE_TYPES: dict[str, OracleType] = {
    "NUMBER": OT("NUMBER", "precision"),
    "FLOAT": OT("FLOAT", "precision", length=126),  # binary precision, a NUMBER subtype
    "REAL": OT("FLOAT", length=63, fixed=True),
    "DOUBLE PRECISION": OT("FLOAT", length=126, fixed=True),
    "DECIMAL": OT("NUMBER", "precision", scale=0), "DEC": OT("NUMBER", "precision", scale=0),
    "NUMERIC": OT("NUMBER", "precision", scale=0),
    "INTEGER": OT("NUMBER", length=38, scale=0, fixed=True), "INT": OT("NUMBER", length=38, scale=0, fixed=True),
    "SMALLINT": OT("NUMBER", length=38, scale=0, fixed=True),
    "BINARY_FLOAT": OT("BINARY_FLOAT"), "BINARY_DOUBLE": OT("BINARY_DOUBLE"),
    "VARCHAR2": OT("VARCHAR2", "length", semantics="BYTE"), "VARCHAR": OT("VARCHAR2", "length", semantics="BYTE"),
    "CHARACTER VARYING": OT("VARCHAR2", "length", semantics="BYTE"),
    "CHAR VARYING": OT("VARCHAR2", "length", semantics="BYTE"),
    "NVARCHAR2": OT("NVARCHAR2", "length", semantics="CHAR"),
    "NATIONAL CHARACTER VARYING": OT("NVARCHAR2", "length", semantics="CHAR"),
    "NATIONAL CHAR VARYING": OT("NVARCHAR2", "length", semantics="CHAR"),
    "NCHAR VARYING": OT("NVARCHAR2", "length", semantics="CHAR"),
    "CHAR": OT("CHAR", "length", length=1, semantics="BYTE"),
    "CHARACTER": OT("CHAR", "length", length=1, semantics="BYTE"),
    "NCHAR": OT("NCHAR", "length", length=1, semantics="CHAR"),
    "NATIONAL CHARACTER": OT("NCHAR", "length", length=1, semantics="CHAR"),
    "NATIONAL CHAR": OT("NCHAR", "length", length=1, semantics="CHAR"),
    "RAW": OT("RAW", "length"), "LONG": OT("LONG"), "LONG RAW": OT("LONG RAW"),
    "DATE": OT("DATE", fsp=0),
    # The precision sits inside the name, as ALL_TAB_COLUMNS.DATA_TYPE and DBMS_METADATA spell it
    # (SQL Ref. 2.1.1 "Oracle Built-in Data Types": TIMESTAMP [(fractional_seconds_precision)]
    # WITH TIME ZONE, INTERVAL DAY [(day_precision)] TO SECOND [(fractional_seconds_precision)]).
    "TIMESTAMP": OT("TIMESTAMP", "fsp", fsp=6, spelling="TIMESTAMP({fsp})"),
    "TIMESTAMP WITH TIME ZONE": OT("TIMESTAMP WITH TIME ZONE", "fsp", fsp=6,
                                   spelling="TIMESTAMP({fsp}) WITH TIME ZONE"),
    "TIMESTAMP WITH LOCAL TIME ZONE": OT("TIMESTAMP WITH LOCAL TIME ZONE", "fsp", fsp=6,
                                         spelling="TIMESTAMP({fsp}) WITH LOCAL TIME ZONE"),
    "INTERVAL YEAR TO MONTH": OT("INTERVAL YEAR TO MONTH", "interval", length=2,
                                 spelling="INTERVAL YEAR({length}) TO MONTH"),
    "INTERVAL DAY TO SECOND": OT("INTERVAL DAY TO SECOND", "interval", length=2, fsp=6,
                                 spelling="INTERVAL DAY({length}) TO SECOND({fsp})"),
    "CLOB": OT("CLOB"), "NCLOB": OT("NCLOB"), "BLOB": OT("BLOB"), "BFILE": OT("BFILE"),
    "ROWID": OT("ROWID"), "UROWID": OT("UROWID", "length", length=4000),
    "XMLTYPE": OT("XMLTYPE"), "SYS.XMLTYPE": OT("XMLTYPE"), "JSON": OT("JSON"),
    "BOOLEAN": OT("BOOLEAN"), "BOOL": OT("BOOLEAN"),
    "VECTOR": OT("VECTOR", "dims"),  # 23ai: dimensions (None for *); the format stays in the text
}

# Oracle canonical names -> family. DATE carries a time of day (to the second), so it is a
# DATETIME, as plain TIMESTAMP is; WITH LOCAL TIME ZONE is an instant normalised to the database
# time zone (MySQL TIMESTAMP's meaning); FLOAT is a NUMBER subtype (decimal values); LONG and the
# LOBs are TEXT/BLOB; ROWID/UROWID values are strings; XMLTYPE and BFILE are opaque.
FAMILIES.update({
    "NUMBER": F.DECIMAL, "FLOAT": F.DECIMAL, "BINARY_FLOAT": F.FLOAT, "BINARY_DOUBLE": F.FLOAT,
    "VARCHAR2": F.VARCHAR, "NVARCHAR2": F.VARCHAR, "CHAR": F.CHAR, "NCHAR": F.CHAR,
    "RAW": F.VARBINARY, "LONG": F.TEXT, "LONG RAW": F.BLOB,
    "DATE": F.DATETIME, "TIMESTAMP": F.DATETIME, "TIMESTAMP WITH TIME ZONE": F.TIMESTAMP_TZ,
    "TIMESTAMP WITH LOCAL TIME ZONE": F.TIMESTAMP,
    "INTERVAL YEAR TO MONTH": F.INTERVAL, "INTERVAL DAY TO SECOND": F.INTERVAL,
    "CLOB": F.TEXT, "NCLOB": F.TEXT, "BLOB": F.BLOB, "BFILE": F.UNKNOWN,
    "ROWID": F.VARCHAR, "UROWID": F.VARCHAR, "XMLTYPE": F.UNKNOWN, "JSON": F.JSON,
    "BOOLEAN": F.BOOLEAN, "VECTOR": F.VECTOR,
})


def oracle_type_text(type_name: str, length: int | None, scale: int | None, fsp: int | None) -> str | None:
    """The full type text of an Oracle canonical type as the data dictionary spells it
    (``TIMESTAMP(6) WITH TIME ZONE``, ``INTERVAL DAY(2) TO SECOND(6)``, ``NUMBER(*,2)``), or None
    when ``type_name`` is not one (a MySQL name: they are lower case; a user-defined type)."""
    ot = ORACLE_TYPES.get(type_name)
    if ot is None or ot.name != type_name:
        return None
    if ot.spelling is not None:
        return ot.spelling.format(length=length, fsp=fsp)
    if ot.args == "precision" and length is None and scale is not None:
        return f"{type_name}(*,{scale})"  # NUMBER(*, s): maximum precision, scale s
    if length is None:
        return type_name
    return f"{type_name}({length},{scale})" if scale is not None else f"{type_name}({length})"


def normalise_spelling(name: str) -> str:
    """Upper-case and single-space a type spelling (``double   precision`` -> ``DOUBLE PRECISION``)."""
    return " ".join(name.upper().split())


def smallest_size(sizes: tuple[tuple[str, int], ...], nbytes: int) -> str:
    """The smallest TEXT/BLOB size that holds ``nbytes`` bytes (the largest if none does)."""
    for name, cap in sizes:
        if nbytes <= cap:
            return name
    return sizes[-1][0]


def capacity(name: str) -> int | None:
    """Byte capacity of a TEXT/BLOB type name, or None for other types."""
    for sizes in (TEXT_SIZES, BLOB_SIZES):
        for n, cap in sizes:
            if n == name:
                return cap
    return None
