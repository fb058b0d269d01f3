"""Typed per-table datasets: a row change as one Arrow column per column of its table version.

The change events (the Spark job's ``changes/``) keep every value as the CLI renders it, JSON text
that holds any table version exactly. This is the other shape users query: per table version, its
own Arrow schema, each row change one row holding the row's state after the change (the deleted
row for a delete; Debezium's ``ExtractNewRecordState`` with ``__op``), plus the ordering key.

Types, from the column of the table version (model.Column) a value was decoded with:

=============================  =====================================================================
INTEGER (tinyint..bigint)      int8/16/32/64, or uint8/16/32/64 when UNSIGNED (mediumint: 32 bits)
DECIMAL(M,D)                   decimal128(M, D); decimal256 past 38 digits (MySQL allows 65)
FLOAT / DOUBLE                 float32 / float64
BIT(M)                         uint64 (the bits as an integer, as the decoder gives them)
YEAR                           int16 (0 for the zero year)
DATE / DATETIME                date32 / timestamp[us] (no time zone: the server's wall clock)
TIMESTAMP                      timestamp[us, UTC] (the binlog holds epoch seconds)
TIME                           duration[us] (-838:59:59 .. 838:59:59 is no time of day)
character, ENUM, SET, JSON     string (SET as its comma-joined members; JSON as the document's text)
binary, BLOB                   binary
GEOMETRY                       struct<srid: uint32, wkb: binary>
VECTOR                         list<float32>
INET4 / INET6 / UUID           string (their text forms, as the CLI prints them)
anything else                  string: the CLI's JSON rendering of the value
=============================  =====================================================================

A value its column's type cannot hold is written as null and counted per column
(:attr:`TypedRows.nulled`): zero and invalid dates, which the decoder gives as text
(``Options.invalid_temporal_as``), and MySQL's partial JSON updates (a diff, not a document). The
change events keep those values as they are. A column absent from a MINIMAL/NOBLOB row image is
null too (counted in :attr:`TypedRows.absent`).

Needs pyarrow (imported when a :class:`TypedRows` is made).
"""

from __future__ import annotations

import datetime
import decimal
import json

from ..binlog.rows import ABSENT  # a column the row image does not hold (MINIMAL/NOBLOB images)
from ..binlog.values.geometry import Geometry
from ..binlog.values.jsonb import JSON_NULL, to_text
from ..errors import ConfigError
from ..model.column import Column
from ..model.table import Table
from ..model.types import TypeFamily as F
from .jsonl import json_value

#: The columns every typed dataset starts with (named so that they cannot be a MySQL column of the
#: table as the CLI names it: a column named like them is an error, see :func:`arrow_schema`).
META_COLUMNS = (("__op", "string"), ("__file_seq", "int64"), ("__pos", "int64"), ("__row", "int32"),
                ("__ts_ms", "int64"), ("__gtid", "string"))

_INT_BITS = {"tinyint": 8, "smallint": 16, "mediumint": 32, "int": 32, "bigint": 64}
_TEXT = frozenset({F.CHAR, F.VARCHAR, F.TEXT, F.ENUM, F.SET, F.JSON, F.INET4, F.INET6, F.UUID})
_BINARY = frozenset({F.BINARY, F.VARBINARY, F.BLOB})
_INT = frozenset({int})


def _rendered(v) -> str:
    """A value of a column the types above do not cover: the CLI's JSON rendering of it."""
    j = json_value(v)
    return j if isinstance(j, str) else json.dumps(j, ensure_ascii=False, separators=(",", ":"))


#: what a JSON column's value may be as a document (text, or decoded: an object, an array, a scalar, the
#: document null); anything else, a partial update (a diff, not a document), is nulled and counted
_JSON_DOCUMENT = frozenset({str, dict, list, int, float, decimal.Decimal, bool, type(JSON_NULL)})


def _json_document(v) -> str:
    """A JSON column's value as text: the document's text as decoded (json_as="text"), or a document
    decoded as an object written back, numbers exact, the document ``null`` (JSON_NULL) as "null"
    (SQL NULL stays null)."""
    return v if isinstance(v, str) else to_text(v, compact=True)


def _geometry(v) -> dict:
    return {"srid": v.srid, "wkb": bytes(v.wkb)}


def column_type(col: Column):
    """(Arrow type, the Python types of the values it holds, convert(value) or None) of a column.
    The Python types are the decoder's (exact types: a bool is no INTEGER value); None: any value,
    converted. DATETIME values come naive and TIMESTAMP values in UTC from the decoder
    (binlog.values.temporal), so a datetime is each one's."""
    # pyarrow: heavy and optional (mysqlddl[spark]), loaded when a typed dataset is built
    import pyarrow as pa

    fam = col.family
    if fam is F.INTEGER and col.type_name in _INT_BITS:
        bits = _INT_BITS[col.type_name]
        return getattr(pa, f"{'u' if col.unsigned else ''}int{bits}")(), _INT, None
    if fam is F.DECIMAL:
        p, s = col.length or 10, col.scale or 0
        return (pa.decimal128(p, s) if p <= 38 else pa.decimal256(p, s)), frozenset({decimal.Decimal}), None
    if fam is F.FLOAT:
        return (pa.float32() if col.type_name == "float" else pa.float64()), frozenset({float}), None
    if fam is F.BIT:
        return pa.uint64(), _INT, None
    if fam is F.YEAR:
        return pa.int16(), _INT, None
    if fam is F.DATE:
        return pa.date32(), frozenset({datetime.date}), None
    if fam is F.DATETIME:
        return pa.timestamp("us"), frozenset({datetime.datetime}), None
    if fam is F.TIMESTAMP:
        return pa.timestamp("us", tz="UTC"), frozenset({datetime.datetime}), None
    if fam is F.TIME:
        return pa.duration("us"), frozenset({datetime.timedelta}), None
    if fam is F.JSON:
        return pa.string(), _JSON_DOCUMENT, _json_document
    if fam in _TEXT:
        return pa.string(), frozenset({str}), None
    if fam in _BINARY:
        return pa.binary(), frozenset({bytes}), None
    if fam is F.GEOMETRY:
        return pa.struct([("srid", pa.uint32()), ("wkb", pa.binary())]), frozenset({Geometry}), _geometry
    if fam is F.VECTOR:
        return pa.list_(pa.float32()), frozenset({tuple}), None
    return pa.string(), None, _rendered


#: Field metadata key holding a column's MySQL type as information_schema prints it
#: (``decimal(12,2) unsigned``, ``enum('a','b')``, ``datetime(6)``).
TYPE_KEY = "mysql_type"


def arrow_schema(table: Table):
    """The Arrow schema of a table version's typed dataset: :data:`META_COLUMNS`, then its columns
    (each with its MySQL type in the field metadata, :data:`TYPE_KEY`)."""
    # pyarrow: heavy and optional (mysqlddl[spark]), loaded when a typed dataset is built
    import pyarrow as pa

    names = {n for n, _ in META_COLUMNS}
    fields = [pa.field(n, getattr(pa, t)()) for n, t in META_COLUMNS]
    for col in table.columns:
        if col.name in names:
            raise ConfigError(f"table {str(table.id)!r} has a column named {col.name!r}, which its typed dataset "
                              f"uses for the change's own fields ({', '.join(n for n, _ in META_COLUMNS)})")
        fields.append(pa.field(col.name, column_type(col)[0], metadata={TYPE_KEY: col.column_type}))
    return pa.schema(fields)


def dictionary_columns(schema) -> list[str]:
    """The columns worth Parquet dictionary encoding: the op, the GTID (one per transaction) and
    ENUM/SET columns. Hashing the values of the others cost more than it saved (a 64 MiB range of
    the lab's bulk table: 1.1 s of 4.6 s writing with dictionaries for all)."""
    out = ["__op", "__gtid"]
    for f in schema:
        t = (f.metadata or {}).get(TYPE_KEY.encode(), b"")
        if t.startswith((b"enum(", b"set(")):
            out.append(f.name)
    return out


def image_values(table: Table, image: dict) -> tuple:
    """A row image by column name, as ChangeReader's images hold it (an absent column has no key),
    as the tuple :meth:`TypedRows.extend` takes."""
    return tuple(image.get(c.name, ABSENT) for c in table.columns)


class _Pending:
    __slots__ = ("table", "meta", "values", "n")

    def __init__(self, table: Table):
        self.table = table
        self.meta: list[tuple] = []           # per row: (op, file_seq, pos, row, ts_ms, gtid)
        self.values: list[tuple] = []         # per row: its values in the table's column order
        self.n = 0


class TypedRows:
    """Row changes gathered per (db, table, version) and turned into Arrow tables of their
    version's schema. ``version`` is any text naming the table version (the Spark job: the
    position from which it is in force). Counts: :attr:`rows` per key, :attr:`nulled` (values the
    column's type cannot hold) and :attr:`absent` (columns not in a MINIMAL row image) per
    "db.table.column"."""

    def __init__(self):
        import pyarrow  # noqa: F401  (fail here, not at the first flush)

        self.pending: dict[tuple, _Pending] = {}
        self.n = 0                                # rows pending over all keys
        self.schemas: dict[int, tuple] = {}       # id(table) -> (table, schema, per-column types)
        self.rows: dict[tuple, int] = {}
        self.nulled: dict[str, int] = {}
        self.absent: dict[str, int] = {}

    def _types(self, table: Table):
        got = self.schemas.get(id(table))
        if got is None or got[0] is not table:
            got = self.schemas[id(table)] = (table, arrow_schema(table), [column_type(c) for c in table.columns])
        return got

    def extend(self, key: tuple, table: Table, metas: list, values: list) -> int:
        """Row changes: per row, ``metas`` (op, file_seq, pos, row, ts_ms, gtid) and ``values``,
        its state after the change (before it, for a delete) as a tuple in the table's column
        order, :data:`ABSENT` for a column the row image does not hold. Returns the key's pending
        rows."""
        p = self.pending.get(key)
        if p is None:
            self._types(table)
            p = self.pending[key] = _Pending(table)
        p.meta.extend(metas)
        p.values.extend(values)
        p.n += len(metas)
        self.n += len(metas)
        return p.n

    def add(self, key: tuple, table: Table, meta: tuple, values: tuple) -> int:
        """One row change (see :meth:`extend`)."""
        return self.extend(key, table, [meta], [values])

    def add_image(self, key: tuple, table: Table, meta: tuple, image: dict) -> int:
        """:meth:`add` with the values by column name (:func:`image_values`)."""
        return self.add(key, table, meta, image_values(table, image))

    def keys(self) -> list[tuple]:
        return list(self.pending)

    def __len__(self) -> int:
        return self.n

    def flush(self, key: tuple):
        """The key's pending rows as an Arrow table of its version's schema."""
        # pyarrow: heavy and optional (mysqlddl[spark]), loaded when a typed dataset is built
        import pyarrow as pa

        p = self.pending.pop(key)
        self.n -= p.n
        table, schema, types = self._types(p.table)
        self.rows[key] = self.rows.get(key, 0) + p.n
        prefix = f"{key[0]}.{key[1]}."
        arrays = [pa.array(vals, schema.field(i).type) for i, vals in enumerate(zip(*p.meta, strict=True))]
        for col, (type_, kinds, convert), vals in zip(table.columns, types, zip(*p.values, strict=True),
                                                      strict=True):
            seen = set(map(type, vals))
            seen.discard(type(None))
            if kinds is not None and seen <= kinds:       # every value fits (the rule): no loop
                out = vals if convert is None else [None if v is None else convert(v) for v in vals]
            else:
                out, bad, absent = [], 0, 0
                for v in vals:
                    if v is None:
                        out.append(None)
                    elif v is ABSENT:
                        absent += 1
                        out.append(None)
                    elif kinds is not None and type(v) not in kinds:
                        bad += 1
                        out.append(None)
                    else:
                        out.append(v if convert is None else convert(v))
                if bad:
                    self.nulled[prefix + col.name] = self.nulled.get(prefix + col.name, 0) + bad
                if absent:
                    self.absent[prefix + col.name] = self.absent.get(prefix + col.name, 0) + absent
            arrays.append(pa.array(out, type_))
        return pa.Table.from_arrays(arrays, schema=schema)
