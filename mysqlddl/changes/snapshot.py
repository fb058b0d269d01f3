"""The rows of an initial data snapshot as change records: ``op "r"`` RowChange records of every
table a :class:`~mysqlddl.sources.server.snapshot.SchemaCapture` included, read in the consistent-
snapshot transaction the capture left open on its connection, so they are the tables' contents at
the capture's binlog position exactly (issue #20, "Schema at the start position").

The capture (position, schema, lock) is the source's business and lives in
``mysqlddl/sources/server/snapshot.py``; turning rows into change records is this layer's, as for
the binlog's rows (ARCHITECTURE.md "Layers": changes above sources), so the row reader lives here.

    snapshot_rows(conn, capture, *, catalog=None, options=None, chunk_rows=10000) -> iterator
        RowChange records (op "r", before None) of every included table. Tables in the capture's
        order; rows in primary-key order, read in chunks of ``chunk_rows`` by keyset pagination on
        the key (``WHERE k > last ORDER BY k LIMIT n``); a table without a primary key uses its
        first UNIQUE key over NOT NULL columns the same way, and without one is read in one scan
        through a server-side cursor (``SSCursor``: bounded memory; InnoDB gives such a table's
        rows in its hidden row-id order). The values are the ones the binlog path gives for the
        same column (see :func:`column_reader`); the source carries the snapshot position, db,
        table and ``snapshot`` "true" ("last" on the very last record), as Debezium marks snapshot
        reads. ``catalog``: the model to type the rows with (the stream's baseline: the history's
        catalog at ``capture.position``); default: the capture's own DDL applied to an empty
        catalog. The transaction is committed when the iterator is exhausted, and rolled back when
        it is closed early. ``stats``: a ChangeStats whose ``snapshot`` counts each row yielded,
        per ``db.table`` (a summary's "snapshot rows": they are not the binlog's DML rows).

The connection is used through PyMySQL's public API only (``cursor()``, ``execute``, ``fetch*``,
``pymysql.cursors.SSCursor``, ``pymysql.err.MySQLError``).
"""

from __future__ import annotations

import dataclasses
import re
import struct
from collections.abc import Iterator
from decimal import Decimal

import pymysql.cursors
import pymysql.err

from ..binlog.values import enum_set, temporal
from ..binlog.values.charsets import codec_for_charset_name, decode_text
from ..binlog.values.geometry import Geometry
from ..binlog.values.meta import ColumnMeta
from ..errors import ConfigError, SnapshotError
from ..model import charsets as model_charsets
from ..model.catalog import Catalog
from ..model.column import Column
from ..model.ids import TableId
from ..model.table import Table
from ..model.types import TypeFamily
from ..options import Options
from ..sources.server.snapshot import CHANGED_UNDER_SNAPSHOT, SchemaCapture
from .records import ChangeStats, Naming, RowChange, Source
from .values import typed_value, value_family

F = TypeFamily
_FLOAT32 = struct.Struct("<f")
_MASK64 = (1 << 64) - 1


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _meta(opts: Options, fsp: int | None) -> ColumnMeta:
    # the binlog decoders' temporal helpers read only these two fields of a ColumnMeta
    return ColumnMeta(type=0, binlog_type=0, fsp=fsp, invalid_as_none=opts.invalid_temporal_as == "none")


_DATETIME = re.compile(rb"(\d+)-(\d+)-(\d+)(?: (\d+):(\d+):(\d+)(?:\.(\d+))?)?$")
_TIME = re.compile(rb"(-?)(\d+):(\d+):(\d+)(?:\.(\d+))?$")


def _micro(frac: bytes | None) -> int:
    return int((frac or b"0").ljust(6, b"0")[:6])


def column_reader(col: Column, table: Table, opts: Options) -> tuple[str, object]:
    """(select expression, converter) for one column: the expression yields a binary string
    (so the server converts no charset and PyMySQL no type: the converter sees the server's bytes,
    or None for NULL) and the converter gives the value the binlog path gives for the column
    (mysqlddl.binlog.values, then the schema's retyping of mysqlddl.changes.values):

        integers, YEAR        the decimal text -> int (YEAR 0 stays 0)
        BIT                   the value's big-endian bytes -> int
        FLOAT                 ``col + 0E0`` (a DOUBLE, exact for a float32) text -> float32 value
        DOUBLE                the server's shortest round-trip text -> float
        DECIMAL               the exact digits -> Decimal (or str, Options.decimal_as)
        DATE/DATETIME/TIME    the server's text -> date/datetime/timedelta; zero and invalid
                              dates as the binlog path gives them (text or None)
        TIMESTAMP             UNIX_TIMESTAMP() (UTC epoch, as the row image; independent of the
                              session time zone) -> aware UTC datetime; 0 is the zero timestamp
        CHAR/VARCHAR/TEXT     the stored bytes decoded with the column's charset, as the binlog's
                              (MySQL latin1 is cp1252; CHAR padded back with Options.pad_char)
        BINARY/BLOB           bytes (BINARY(N) comes back padded, as the binlog path restores it)
        ENUM/SET              the index / bitmask (``col+0``) -> member names by the model
        JSON                  the document text -> dict/list (MariaDB JSON is LONGTEXT)
        GEOMETRY              the stored SRID + WKB -> Geometry(srid, wkb)
        INET4/INET6           the stored address bytes -> the address text (ipaddress)
        UUID                  the 16 bytes in canonical order -> the text form
    """
    name = _q(col.name)
    fam = col.family
    family = value_family(col, table)
    raw = f"CAST({name} AS BINARY)"
    if family is F.JSON and opts.json_as != "text":
        codec = _codec(col.charset or "utf8mb4", opts)
        return raw, lambda b: typed_value(F.JSON, decode_text(b, codec, opts.charset_errors))
    if fam is F.INTEGER or fam is F.YEAR:
        return raw, int
    if fam is F.BIT:
        return raw, lambda b: int.from_bytes(b, "big")
    if fam is F.FLOAT:
        if col.type_name == "double":
            return raw, float
        # (col + 0E0: a DOUBLE of the float32 value, exact; CAST AS DOUBLE is missing before MySQL
        # 8.0.17 and MariaDB 10.4)
        return f"CAST({name} + 0E0 AS BINARY)", lambda b: _FLOAT32.unpack(_FLOAT32.pack(float(b)))[0]
    if fam is F.DECIMAL:
        if opts.decimal_as == "str":
            return raw, lambda b: b.decode("ascii")
        return raw, lambda b: Decimal(b.decode("ascii"))
    if fam in (F.DATE, F.DATETIME):
        meta = _meta(opts, col.fsp or 0)
        return raw, (lambda b: _date(b, meta)) if fam is F.DATE else (lambda b: _datetime(b, meta))
    if fam is F.TIME:
        return raw, _time
    if fam is F.TIMESTAMP:
        meta = _meta(opts, col.fsp or 0)
        return f"CAST(UNIX_TIMESTAMP({name}) AS BINARY)", lambda b: _timestamp(b, meta)
    if fam in (F.ENUM, F.SET):
        names = col.values or None
        if fam is F.ENUM:
            return f"CAST({name}+0 AS BINARY)", lambda b: int(b) if names is None else enum_set.enum_name(int(b), names)
        # a 64-member SET's bitmask comes back signed (``col+0`` is a signed BIGINT)
        return f"CAST({name}+0 AS BINARY)", lambda b: (int(b) & _MASK64) if names is None else \
            enum_set.set_names(int(b) & _MASK64, names)
    if fam is F.GEOMETRY:
        return raw, lambda b: Geometry(int.from_bytes(b[:4], "little"), bytes(b[4:]))
    if fam in (F.INET4, F.INET6):
        width = 4 if fam is F.INET4 else 16
        return f"CAST({name} AS BINARY({width}))", lambda b: typed_value(fam, b)
    if fam is F.UUID:
        return f"CAST({name} AS BINARY(16))", _uuid_text
    if fam in (F.CHAR, F.VARCHAR, F.TEXT, F.JSON, F.ENUM) and not opts.strings_as_bytes:
        cs = col.charset or opts.charset_fallback
        codec = _codec(cs, opts)
        if codec is None:
            return raw, bytes
        pad = col.length if fam is F.CHAR and opts.pad_char and col.length else 0
        errors = opts.charset_errors
        if pad:
            return raw, lambda b: decode_text(b, codec, errors).ljust(pad)
        return raw, lambda b: decode_text(b, codec, errors)
    return raw, bytes


def _codec(charset: str, opts: Options):
    entry = codec_for_charset_name(model_charsets.canonical_charset(charset))
    if entry is False:
        entry = codec_for_charset_name(opts.charset_fallback)
    return entry[0] if entry else None


def _date(b: bytes, meta: ColumnMeta):
    m = _DATETIME.match(b)
    return temporal.make_date(meta, int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _datetime(b: bytes, meta: ColumnMeta):
    m = _DATETIME.match(b)
    return temporal.make_datetime(meta, *(int(m.group(i)) for i in range(1, 7)), _micro(m.group(7)))


def _time(b: bytes):
    m = _TIME.match(b)
    return temporal.make_time(m.group(1) == b"-", int(m.group(2)), int(m.group(3)), int(m.group(4)),
                              _micro(m.group(5)))


def _timestamp(b: bytes, meta: ColumnMeta):
    secs, _, frac = b.partition(b".")
    return temporal.make_timestamp(meta, int(secs), _micro(frac))


def _uuid_text(b: bytes) -> str:
    h = bytes(b).hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _chunk_key(table: Table) -> tuple[str, ...]:
    """The columns that order the rows: the primary key, else the first UNIQUE key whose columns
    are all NOT NULL (InnoDB's clustered index in that case), else () (an unordered scan)."""
    if table.primary_key is not None and all(p.column for p in table.primary_key.parts):
        return table.primary_key.columns
    cols = {c.name.lower(): c for c in table.columns}
    for key in table.unique_keys:
        if all(p.column and p.length is None and p.column.lower() in cols and not cols[p.column.lower()].nullable
               for p in key.parts):
            return key.columns
    return ()


def _after_clause(key: tuple[str, ...]) -> str:
    """``k1 > %s OR (k1 = %s AND k2 > %s) ...``: the keyset condition expanded (a row-value
    comparison is not used as an index range by every server version)."""
    ors = []
    for i in range(len(key)):
        eqs = [f"{_q(k)} = %s" for k in key[:i]]
        ors.append("(" + " AND ".join([*eqs, f"{_q(key[i])} > %s"]) + ")")
    return " OR ".join(ors)


def _after_args(last: tuple) -> list:
    out: list = []
    for i in range(len(last)):
        out.extend(last[:i])
        out.append(last[i])
    return out


def _table_rows(conn, table: Table, opts: Options, chunk_rows: int) -> Iterator[dict]:
    readers = [column_reader(c, table, opts) for c in table.columns]
    names = [c.name for c in table.columns]
    convs = [r[1] for r in readers]
    key = _chunk_key(table)
    select = ", ".join(r[0] for r in readers)
    source = f"{_q(table.id.database)}.{_q(table.id.name)}"

    def image(row) -> dict:
        return {n: None if v is None else conv(v) for n, conv, v in zip(names, convs, row, strict=False)}

    if not key:
        cur = conn.cursor(pymysql.cursors.SSCursor)
        try:
            cur.execute(f"SELECT {select} FROM {source}")
            while True:
                batch = cur.fetchmany(chunk_rows)
                if not batch:
                    break
                for row in batch:
                    yield image(row)
        finally:
            cur.close()
        return
    # the key columns also come back as PyMySQL types, to be sent back as the next chunk's bound
    order = ", ".join(_q(k) for k in key)
    n = len(readers)
    first = f"SELECT {select}, {order} FROM {source} ORDER BY {order} LIMIT {int(chunk_rows)}"
    nxt = f"SELECT {select}, {order} FROM {source} WHERE {_after_clause(key)} ORDER BY {order} LIMIT {int(chunk_rows)}"
    last = None
    cur = conn.cursor()
    try:
        while True:
            cur.execute(first if last is None else nxt, None if last is None else _after_args(last))
            rows = cur.fetchall()
            for row in rows:
                yield image(row[:n])
            if len(rows) < chunk_rows:
                return
            last = tuple(rows[-1][n:])
    finally:
        cur.close()


def _qualified(change: RowChange) -> str:
    return f"{change.source.db}.{change.source.table}"


def snapshot_rows(conn, capture: SchemaCapture, *, catalog: Catalog | None = None,
                  options: Options | None = None, chunk_rows: int = 10000,
                  stats: ChangeStats | None = None) -> Iterator[RowChange]:
    """See the module docstring."""
    if not capture.in_snapshot:
        raise SnapshotError("the capture left no consistent-snapshot transaction open: call "
                            "capture_schema(conn, with_rows=True) on this connection")
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise ConfigError(f"chunk_rows must be a positive int, not {chunk_rows!r}")
    opts = capture.options(options)
    cat = catalog if catalog is not None else capture.catalog(opts)
    pos = capture.position
    base = Source(connector="mariadb" if capture.mariadb else "mysql", server_version=capture.server_version,
                  server_id=capture.server_id, file=pos.file, file_seq=pos.file_seq, pos=pos.pos, row=0,
                  ts=capture.ts, snapshot="true")
    held: RowChange | None = None
    counts = stats.snapshot if stats is not None else None
    done = False
    try:
        for db, name in capture.tables:
            table = cat.table(TableId(db, name))
            if table is None:
                raise SnapshotError(f"table {db}.{name} of the capture is not in the catalog given")
            names = tuple(c.name for c in table.columns)
            src = dataclasses.replace(base, db=db, table=name)
            try:
                for after in _table_rows(conn, table, opts, chunk_rows):
                    if held is not None:
                        if counts is not None:
                            counts[_qualified(held)] += 1
                        yield held
                    held = RowChange("r", src, None, after, names, Naming.SCHEMA, table)
            except pymysql.err.MySQLError as e:
                code = e.args[0] if e.args else None
                if code not in CHANGED_UNDER_SNAPSHOT:
                    raise
                raise SnapshotError(f"{db}.{name} was changed by a DDL during the snapshot ({e.args[1]}, server "
                                    f"error {code}): capture again, with hold_tables=True to make DDL wait") from e
        done = True
    finally:
        if not done:
            # closed early or failed: end the snapshot transaction (it only read) so the
            # connection is usable again
            conn.rollback()
    conn.commit()
    if held is not None:
        if counts is not None:
            counts[_qualified(held)] += 1
        yield dataclasses.replace(held, source=dataclasses.replace(held.source, snapshot="last"))


__all__ = ["column_reader", "snapshot_rows"]
