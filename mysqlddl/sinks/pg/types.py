"""The PostgreSQL sink's options and its type map: source column -> PostgreSQL type.

MySQL / MariaDB (PostgreSQL manual chapter 8 "Data Types" for the targets)::

    source type                       PostgreSQL                 notes
    TINYINT                           smallint                   TINYINT(1) -> boolean with tinyint1_boolean
    TINYINT UNSIGNED, SMALLINT        smallint / integer         (unsigned widens: 0..255 / 0..65535)
    SMALLINT UNSIGNED, MEDIUMINT[ U]  integer
    INT                               integer
    INT UNSIGNED                      bigint
    BIGINT                            bigint
    BIGINT UNSIGNED                   numeric(20)                0..18446744073709551615
    DECIMAL(p,s) [UNSIGNED]           numeric(p,s)
    FLOAT / DOUBLE                    real / double precision
    BIT(n)                            bit varying(n)             the value's n low bits
    DATE                              date                       zero / invalid dates: value policy
    DATETIME(fsp)                     timestamp(fsp)             (without time zone)
    TIMESTAMP(fsp)                    timestamptz(fsp)           stored as UTC, as the binlog holds it
    TIME(fsp)                         interval                   -838:59:59..838:59:59 does not fit `time`
    YEAR                              smallint                   YEAR 0 stays 0
    CHAR(n) / VARCHAR(n)              char(n) / varchar(n)       characters, as MySQL counts them
    TINYTEXT..LONGTEXT                text                       NUL characters: value policy
    BINARY/VARBINARY/BLOBs            bytea                      (also CHAR/VARCHAR/TEXT with charset binary)
    ENUM(...)                         text + CHECK (col IN ...)  or an enum type (enum_mode="type", in state_schema)
    SET(...)                          text[]                     members in definition order
    JSON (and MariaDB's JSON LONGTEXT) jsonb                     \\u0000 in a document: value policy
    GEOMETRY and its subtypes         bytea                      the WKB (the SRID is the column's)
                                      or PostGIS geometry(T[,S]) when the target database has the
                                      postgis extension (geometry="auto"): T the subtype (Point...),
                                      S the column's SRID attribute (SRID n / REF_SYSTEM_ID=n); each
                                      value keeps its own SRID (sent as hex EWKB)
    VECTOR (MySQL 9)                  real[]
    INET4 / INET6 (MariaDB)           inet
    UUID (MariaDB)                    uuid

Oracle (through OpenLogReplicator; SQL Reference 2.1 "Data Types")::

    NUMBER(p,s) / NUMBER(p) / NUMBER  numeric(p,s) / numeric(p) / numeric   (negative s: PostgreSQL 15+)
    FLOAT(b)                          numeric                    a NUMBER subtype: decimal values
    BINARY_FLOAT / BINARY_DOUBLE      real / double precision
    VARCHAR2(n) / NVARCHAR2(n)        varchar(n)
    CHAR(n) / NCHAR(n)                char(n)
    LONG, CLOB, NCLOB                 text
    RAW, LONG RAW, BLOB               bytea
    DATE                              timestamp(0)               Oracle's DATE has a time of day
    TIMESTAMP(f)                      timestamp(f)               f > 6 -> 6 (PostgreSQL keeps microseconds)
    TIMESTAMP(f) WITH [LOCAL] TIME ZONE  timestamptz(f)
    INTERVAL ...                      text                       as OLR prints it (its form is an OLR option)
    BOOLEAN                           boolean
    JSON                              jsonb
    ROWID, UROWID, XMLTYPE, BFILE     text
    VECTOR                            real[]

A mapping rule may override any column's type (the value is then cast to it in the target).
AUTO_INCREMENT and ON UPDATE CURRENT_TIMESTAMP become plain columns: their values come in every row
image, so the target stores what the source computed (but for the rows an ALTER numbers: the
binlog has only the statement, :mod:`.order` numbers them in the source's order).

Generated columns (``AS (expr) VIRTUAL | STORED | PERSISTENT``) become ``GENERATED ALWAYS AS
(expr) STORED`` with the expression translated (:mod:`.generated` lists what is): VIRTUAL ones too,
as PostgreSQL 15 has only STORED generated columns; the target computes them, rows never write them.
An expression without a same-meaning PostgreSQL form follows ``generated_fallback``: ``error``
(default: the DDL is not converted, under the pipeline's error strategy) or ``plain`` (a plain
column of the type above, filled with the values the row images carry).
"""

from __future__ import annotations

import dataclasses
import enum

from ...changes.values import value_family
from ...errors import ConfigError
from ...model.column import Column
from ...model.table import Table
from ...model.types import TypeFamily

F = TypeFamily


class ValuePolicy(str, enum.Enum):
    """What happens to a value PostgreSQL cannot hold (zero dates, NUL in text, out of range):
    NULL it (a NOT NULL column is clamped instead), CLAMP it to the nearest value the target holds,
    or stop with an ERROR. Each case is counted (:class:`~mysqlddl.sinks.pg.values.PolicyCounts`)."""

    NULL = "null"
    CLAMP = "clamp"
    ERROR = "error"


class EnumMode(str, enum.Enum):
    CHECK = "check"      # text with a CHECK (col IN (members))
    TYPE = "type"        # a PostgreSQL enum type per column (CREATE TYPE ... AS ENUM)
    TEXT = "text"        # plain text


@dataclasses.dataclass(frozen=True, slots=True)
class PgOptions:
    """How the PostgreSQL sink converts and applies.

    pipeline: the checkpoint row's key (one per pipeline). state_schema: the schema of our own
    tables (``mysqlddl_checkpoint``, ``mysqlddl_tables``). value_policy: :class:`ValuePolicy`.
    enum_mode: :class:`EnumMode`. tinyint1_boolean: TINYINT(1) -> boolean. commit_every: source
    transactions per target transaction; commit_ms: or this many milliseconds, whichever first.
    on_ddl_error: ``error`` (stop with what was not converted) or ``skip`` (count it, warn, go on:
    the pipeline's error strategy decides which).
    """

    pipeline: str = "default"
    state_schema: str = "mysqlddl"
    value_policy: ValuePolicy = ValuePolicy.NULL
    enum_mode: EnumMode = EnumMode.CHECK
    tinyint1_boolean: bool = False
    commit_every: int = 1000
    commit_ms: int = 2000
    on_ddl_error: str = "error"
    #: JSON values arrive as their document's text (the change reader decoding with
    #: ``json_as="text"``, as ``mysqlddl changes`` does): stored as that text, not encoded again
    json_text: bool = False
    #: a generated column whose expression :mod:`.generated` cannot translate: ``error`` (an
    #: UnconvertibleDdlError naming the column and expression, under the pipeline's error strategy)
    #: or ``plain`` (a plain column the row images fill with the source's computed values)
    generated_fallback: str = "error"
    #: GEOMETRY columns: ``auto`` (PostGIS geometry when the target database has the postgis
    #: extension, checked in pg_extension when the sink connects, else bytea WKB), ``wkb`` or
    #: ``postgis``; decided per target table at its CREATE: install the extension before the first run
    geometry: str = "auto"
    #: the schema of the PostGIS types (the sink reads it from pg_extension under ``auto``)
    postgis_schema: str = "public"

    def __post_init__(self) -> None:
        for f, cls in (("value_policy", ValuePolicy), ("enum_mode", EnumMode)):
            try:
                object.__setattr__(self, f, cls(getattr(self, f)))
            except ValueError:
                allowed = " or ".join(repr(m.value) for m in cls)
                raise ConfigError(f"sink.{f} must be {allowed}, not {getattr(self, f)!r}") from None
        if self.geometry not in ("auto", "wkb", "postgis"):
            raise ConfigError(f"sink.geometry must be 'auto', 'wkb' or 'postgis', not {self.geometry!r}")
        if self.generated_fallback not in ("error", "plain"):
            raise ConfigError(f"sink.generated_fallback must be 'error' or 'plain', not {self.generated_fallback!r}")
        if self.on_ddl_error not in ("error", "skip"):
            raise ConfigError(f"sink.on_ddl_error must be 'error' or 'skip', not {self.on_ddl_error!r}")
        for f in ("commit_every", "commit_ms"):
            v = getattr(self, f)
            if not isinstance(v, int) or v < 1:
                raise ConfigError(f"sink.{f} must be a positive integer, not {v!r}")
        if not self.pipeline or not self.state_schema:
            raise ConfigError("sink.pipeline and sink.state_schema must be non-empty")


    @classmethod
    def from_config(cls, section: dict) -> PgOptions:
        """The options in a pipeline file's ``[sink]`` section (``uri`` and ``type`` are the
        sink's, not options); an unknown key is a ConfigError naming it."""
        fields = {f.name for f in dataclasses.fields(cls)}
        kw = {}
        for k, v in section.items():
            if k in ("uri", "type"):
                continue
            if k not in fields:
                raise ConfigError(f"sink.{k}: unknown option of the PostgreSQL sink (known: "
                                  f"{', '.join(sorted(fields))})")
            kw[k] = v
        return cls(**kw)


@dataclasses.dataclass(frozen=True, slots=True)
class PgType:
    """A target type: ``sql`` (its text in DDL) and ``kind`` (how values are converted, see
    :mod:`.values`): int, bool, numeric, float, bit, date, timestamp, timestamptz, interval, text,
    bytea, jsonb, set, vector, inet, uuid, enum. ``bits``: BIT's width. ``limit``: integer bounds."""

    sql: str
    kind: str
    bits: int | None = None
    limit: tuple[int, int] | None = None


INT_LIMITS = {"smallint": (-(1 << 15), (1 << 15) - 1), "integer": (-(1 << 31), (1 << 31) - 1),
              "bigint": (-(1 << 63), (1 << 63) - 1)}

# MySQL integer type -> (signed target, unsigned target)
_INTS = {"tinyint": ("smallint", "smallint"), "smallint": ("smallint", "integer"),
         "mediumint": ("integer", "integer"), "int": ("integer", "bigint"), "bigint": ("bigint", "numeric(20)")}


def _int(name: str) -> PgType:
    if name.startswith("numeric"):
        return PgType(name, "numeric")
    return PgType(name, "int", limit=INT_LIMITS[name])


def _fsp(fsp: int | None) -> str:
    return f"({min(fsp, 6)})" if fsp is not None else ""


def _len(n: int | None) -> str:
    return f"({n})" if n else ""


def oracle_type(col: Column) -> PgType | None:
    t = col.type_name
    if t == "NUMBER":
        if col.length is None:
            return PgType("numeric", "numeric")
        return PgType(f"numeric({col.length},{col.scale or 0})", "numeric")
    if t == "FLOAT":
        return PgType("numeric", "numeric")
    simple = {"BINARY_FLOAT": PgType("real", "float"), "BINARY_DOUBLE": PgType("double precision", "float"),
              "LONG": PgType("text", "text"), "CLOB": PgType("text", "text"), "NCLOB": PgType("text", "text"),
              "RAW": PgType("bytea", "bytea"), "LONG RAW": PgType("bytea", "bytea"), "BLOB": PgType("bytea", "bytea"),
              "DATE": PgType("timestamp(0)", "timestamp"), "BOOLEAN": PgType("boolean", "bool"),
              "JSON": PgType("jsonb", "jsonb"), "ROWID": PgType("text", "text"), "UROWID": PgType("text", "text"),
              "XMLTYPE": PgType("text", "text"), "BFILE": PgType("text", "text"),
              "INTERVAL YEAR TO MONTH": PgType("text", "text"), "INTERVAL DAY TO SECOND": PgType("text", "text"),
              "VECTOR": PgType("real[]", "vector")}
    if t in simple:
        return simple[t]
    if t in ("VARCHAR2", "NVARCHAR2"):
        return PgType(f"varchar{_len(col.length)}", "text")
    if t in ("CHAR", "NCHAR"):
        return PgType(f"char{_len(col.length)}", "text")
    if t == "TIMESTAMP":
        return PgType(f"timestamp{_fsp(col.fsp)}", "timestamp")
    if t in ("TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH LOCAL TIME ZONE"):
        return PgType(f"timestamptz{_fsp(col.fsp)}", "timestamptz")
    return None


# MySQL spatial type -> PostGIS geometry subtype (PostGIS manual 4.1.1 "Geometry Data Type")
_POSTGIS = {"point": "Point", "linestring": "LineString", "polygon": "Polygon", "multipoint": "MultiPoint",
            "multilinestring": "MultiLineString", "multipolygon": "MultiPolygon",
            "geometrycollection": "GeometryCollection", "geomcollection": "GeometryCollection"}


def pg_type(col: Column, table: Table, options: PgOptions, enum_type: str | None = None) -> PgType:
    """The target type of ``col`` (see the module docstring). ``enum_type``: the name of the
    column's enum type under EnumMode.TYPE."""
    if col.type_name[:1].isupper():
        o = oracle_type(col)
        if o is not None:
            return o
        return PgType("text", "text")      # a user-defined Oracle type: kept as its text
    fam = value_family(col, table)
    t = col.type_name
    if fam is F.INTEGER:
        if t == "tinyint" and col.length == 1 and options.tinyint1_boolean:
            return PgType("boolean", "bool")
        return _int(_INTS[t][1 if col.unsigned else 0])
    if fam is F.DECIMAL:
        return PgType(f"numeric({col.length},{col.scale or 0})" if col.length else "numeric", "numeric")
    if fam is F.FLOAT:
        return PgType("real" if t == "float" else "double precision", "float")
    if fam is F.BIT:
        return PgType(f"bit varying({col.length or 1})", "bit", bits=col.length or 1)
    if fam is F.DATE:
        return PgType("date", "date")
    if fam is F.DATETIME:
        return PgType(f"timestamp{_fsp(col.fsp)}", "timestamp")
    if fam is F.TIMESTAMP:
        return PgType(f"timestamptz{_fsp(col.fsp)}", "timestamptz")
    if fam is F.TIME:
        return PgType("interval", "interval")
    if fam is F.YEAR:
        return _int("smallint")
    binary = col.charset in (None, "binary")
    if fam in (F.CHAR, F.VARCHAR, F.TEXT) and col.charset == "binary":
        return PgType("bytea", "bytea")
    if fam is F.CHAR:
        return PgType(f"char({col.length or 1})", "text")
    if fam is F.VARCHAR:
        return PgType(f"varchar({col.length})" if col.length else "varchar", "text")
    if fam is F.TEXT:
        return PgType("text", "text")
    if fam in (F.BINARY, F.VARBINARY, F.BLOB) or (fam is F.UNKNOWN and binary):
        return PgType("bytea", "bytea")
    if fam is F.ENUM:
        if options.enum_mode is EnumMode.TYPE and enum_type:
            return PgType(enum_type, "enum")
        return PgType("text", "text")
    if fam is F.SET:
        return PgType("text[]", "set")
    if fam is F.JSON:
        return PgType("jsonb", "jsonb")
    if fam is F.GEOMETRY:
        if options.geometry == "postgis":
            sub = _POSTGIS.get(t, "Geometry")
            mod = f"({sub},{col.srid})" if col.srid is not None else (f"({sub})" if sub != "Geometry" else "")
            return PgType(f'"{options.postgis_schema}".geometry{mod}', "postgis")
        return PgType("bytea", "geometry")
    if fam is F.VECTOR:
        return PgType("real[]", "vector")
    if fam in (F.INET4, F.INET6):
        return PgType("inet", "inet")
    if fam is F.UUID:
        return PgType("uuid", "uuid")
    if fam is F.BOOLEAN:
        return PgType("boolean", "bool")
    return PgType("text", "text")


def postgis_options(cur, options: PgOptions) -> PgOptions:
    """``options`` with ``geometry="auto"`` decided by the target database (a cursor on it): PostGIS
    when the postgis extension is installed there (pg_extension), in the schema it was installed in."""
    cur.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                "WHERE e.extname = 'postgis'")
    row = cur.fetchone()
    if row is None:
        return dataclasses.replace(options, geometry="wkb")
    return dataclasses.replace(options, geometry="postgis", postgis_schema=row[0])


def override(sql: str) -> PgType:
    """A mapping rule's type: values go as text and the target casts them."""
    return PgType(sql, "override")


__all__ = ["INT_LIMITS", "EnumMode", "PgOptions", "PgType", "ValuePolicy", "oracle_type", "override", "pg_type",
           "postgis_options"]
