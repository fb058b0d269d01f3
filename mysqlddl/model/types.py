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
