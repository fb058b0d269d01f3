"""Typed per-table datasets: a row change as one Arrow column per column of its table version.

The change events (``spark_job``'s ``changes/``) keep every value as the CLI renders it, JSON text
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

from .model.column import Column
from .model.table import Table
from .model.types import TypeFamily as F

#: The columns every typed dataset starts with (named so that they cannot be a MySQL column of the
#: table as the CLI names it: a column named like them is an error, see :func:`arrow_schema`).
META_COLUMNS = (("__op", "string"), ("__file_seq", "int64"), ("__pos", "int64"), ("__row", "int32"),
                ("__ts_ms", "int64"), ("__gtid", "string"))

_INT_BITS = {"tinyint": 8, "smallint": 16, "mediumint": 32, "int": 32, "bigint": 64}
_TEXT = frozenset({F.CHAR, F.VARCHAR, F.TEXT, F.ENUM, F.SET, F.JSON, F.INET4, F.INET6, F.UUID})
_BINARY = frozenset({F.BINARY, F.VARBINARY, F.BLOB})


def _is_int(v) -> bool:
    return type(v) is int


def _is_date(v) -> bool:
    return type(v) is datetime.date


def _is_naive(v) -> bool:
    return isinstance(v, datetime.datetime) and v.tzinfo is None


def _is_aware(v) -> bool:
    return isinstance(v, datetime.datetime) and v.tzinfo is not None


def _is_geometry(v) -> bool:
    return isinstance(v, tuple) and hasattr(v, "srid") and hasattr(v, "wkb")


def _is_vector(v) -> bool:
    return isinstance(v, (tuple, list)) and all(type(x) is float for x in v)


def _rendered(v) -> str:
    """A value of a column the types above do not cover: the CLI's JSON rendering of it."""
    from .envelope import json_value

    j = json_value(v)
    return j if isinstance(j, str) else json.dumps(j, ensure_ascii=False, separators=(",", ":"))


def column_type(col: Column):
    """(Arrow type, accepts(value) -> bool, convert(value) or None) of a column's values."""
    import pyarrow as pa

    fam = col.family
    if fam is F.INTEGER and col.type_name in _INT_BITS:
        bits = _INT_BITS[col.type_name]
        return getattr(pa, f"{'u' if col.unsigned else ''}int{bits}")(), _is_int, None
    if fam is F.DECIMAL:
        p, s = col.length or 10, col.scale or 0
        t = pa.decimal128(p, s) if p <= 38 else pa.decimal256(p, s)
        return t, lambda v: isinstance(v, decimal.Decimal) and v.is_finite(), None
    if fam is F.FLOAT:
        t = pa.float32() if col.type_name == "float" else pa.float64()
        return t, lambda v: type(v) is float, None
    if fam is F.BIT:
        return pa.uint64(), _is_int, None
    if fam is F.YEAR:
        return pa.int16(), _is_int, None
    if fam is F.DATE:
        return pa.date32(), _is_date, None
    if fam is F.DATETIME:
        return pa.timestamp("us"), _is_naive, None
    if fam is F.TIMESTAMP:
        return pa.timestamp("us", tz="UTC"), _is_aware, None
    if fam is F.TIME:
        return pa.duration("us"), lambda v: isinstance(v, datetime.timedelta), None
    if fam in _TEXT:
        return pa.string(), lambda v: type(v) is str, None
    if fam in _BINARY:
        return pa.binary(), lambda v: type(v) is bytes, None
    if fam is F.GEOMETRY:
        t = pa.struct([("srid", pa.uint32()), ("wkb", pa.binary())])
        return t, _is_geometry, lambda v: {"srid": v.srid, "wkb": bytes(v.wkb)}
    if fam is F.VECTOR:
        return pa.list_(pa.float32()), _is_vector, list
    return pa.string(), lambda v: True, _rendered


def arrow_schema(table: Table):
    """The Arrow schema of a table version's typed dataset: :data:`META_COLUMNS`, then its columns."""
    import pyarrow as pa

    names = {n for n, _ in META_COLUMNS}
    fields = [pa.field(n, getattr(pa, t)()) for n, t in META_COLUMNS]
    for col in table.columns:
        if col.name in names:
            from .errors import ConfigError

            raise ConfigError(f"table {str(table.id)!r} has a column named {col.name!r}, which its typed dataset "
                              f"uses for the change's own fields ({', '.join(n for n, _ in META_COLUMNS)})")
        fields.append(pa.field(col.name, column_type(col)[0]))
    return pa.schema(fields)


class _Pending:
    __slots__ = ("table", "meta", "values", "n")

    def __init__(self, table: Table):
        self.table = table
        self.meta: list[list] = [[] for _ in META_COLUMNS]
        self.values: list[list] = [[] for _ in table.columns]
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
        self.schemas: dict[int, tuple] = {}       # id(table) -> (table, schema, per-column types)
        self.rows: dict[tuple, int] = {}
        self.nulled: dict[str, int] = {}
        self.absent: dict[str, int] = {}

    def _types(self, table: Table):
        got = self.schemas.get(id(table))
        if got is None or got[0] is not table:
            got = self.schemas[id(table)] = (table, arrow_schema(table), [column_type(c) for c in table.columns])
        return got

    def add(self, key: tuple, table: Table, op: str, file_seq: int, pos: int, row: int, ts_ms: int,
            gtid: str | None, values: dict) -> int:
        """One row change: ``values`` the row's state after it (before it, for a delete) by column
        name, as ChangeReader gives it (an absent column has no key). Returns the key's pending rows."""
        p = self.pending.get(key)
        if p is None:
            self._types(table)
            p = self.pending[key] = _Pending(table)
        for col, v in zip(p.meta, (op, file_seq, pos, row, ts_ms, gtid), strict=True):
            col.append(v)
        for c, col in zip(table.columns, p.values, strict=True):
            col.append(values.get(c.name, _ABSENT))
        p.n += 1
        return p.n

    def keys(self) -> list[tuple]:
        return list(self.pending)

    def __len__(self) -> int:
        return sum(p.n for p in self.pending.values())

    def flush(self, key: tuple):
        """The key's pending rows as an Arrow table of its version's schema."""
        import pyarrow as pa

        p = self.pending.pop(key)
        table, schema, types = self._types(p.table)
        self.rows[key] = self.rows.get(key, 0) + p.n
        prefix = f"{key[0]}.{key[1]}."
        arrays = [pa.array(vals, schema.field(i).type) for i, vals in enumerate(p.meta)]
        for col, (type_, accepts, convert), vals in zip(table.columns, types, p.values, strict=True):
            bad = absent = 0
            out = []
            for v in vals:
                if v is None:
                    out.append(None)
                elif v is _ABSENT:
                    absent += 1
                    out.append(None)
                elif not accepts(v):
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


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT = _Absent()
