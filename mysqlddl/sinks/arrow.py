"""The Arrow sink: change records as Arrow tables in the Spark job's columns (:data:`COLUMNS`),
each event as ``mysqlddl changes`` renders it, written as Parquet (:mod:`.parquet`).

Rows events come whole when their images can be rendered in C (``rows.render_images``, the JSON
Lines renderer's own formats); every other record goes through the JSON Lines envelope, whose parts
become the columns. numpy and pyarrow are imported where they are used: they are optional
dependencies (the ``spark`` extra).
"""

from __future__ import annotations

from ..binlog import rows as rows_mod
from ..changes.records import Boundary, Naming, Record, RowBatch, RowChange
from .base import Sink
from .jsonl import LineRenderer, dumps, envelope, json_image, kind_of
from .parquet import BATCH_BYTES, BATCH_ROWS, PENDING_BATCH_ROWS, PartWriter, TypedSink, utf8_text

# (name, type) of the decode tasks' output; types: "string", "long", "int".
COLUMNS = (
    ("kind", "string"),            # row | transaction | schema
    ("op", "string"),              # c | u | d (rows)
    ("db", "string"), ("table", "string"),
    ("file", "string"), ("file_seq", "long"), ("pos", "long"), ("row", "int"),
    ("ts_ms", "long"), ("gtid", "string"), ("server_id", "long"), ("thread", "long"),
    ("query", "string"), ("connector", "string"),
    ("before", "string"), ("after", "string"),     # JSON text of the CLI's rendering
    ("transaction_id", "string"), ("total_order", "long"), ("data_collection_order", "long"),
    ("headers", "string"), ("mysqlddl", "string"),  # JSON, null when the envelope has none
    ("status", "string"), ("event_count", "long"), ("data_collections", "string"),
    ("ddl", "string"), ("table_changes", "string"), ("position_file", "string"),
    ("position_pos", "long"),
    ("extra", "string"),           # JSON: envelope keys not in a column of their own (none today)
)
#: The partition columns: directory names, not columns of the files.
PARTITION_COLUMNS = ("db", "table")


def arrow_schema(*, files: bool = False):
    """The output's Arrow schema; ``files``: as in the files, without the partition columns."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import pyarrow as pa

    types = {"string": pa.string(), "long": pa.int64(), "int": pa.int32()}
    return pa.schema([(n, types[t]) for n, t in COLUMNS if not (files and n in PARTITION_COLUMNS)])


# envelope key -> column, per kind (every other key goes to the ``extra`` column, so an output row
# always turns back into the exact envelope, whatever keys the envelope gains)
_SOURCE_COLS = ("connector", "db", "table", "server_id", "gtid", "file", "pos", "row", "thread", "query", "ts_ms")
_SOURCE_CONST = ("version", "name", "snapshot")      # the same in every event of a run: in summary.json
_JSON_COLS = frozenset({"before", "after", "headers", "mysqlddl", "data_collections", "table_changes", "extra"})


# the columns after data_collection_order, all null for a row change; the per-row columns of a
# rendered rows event (the rest repeat the event's values)
_NONE_TAIL = (None,) * (len(COLUMNS) - 19)
_PER_ROW = frozenset(i for i, (n, _) in enumerate(COLUMNS)
                     if n in ("row", "before", "after", "total_order", "data_collection_order"))
_PER_ROW_FLAGS = tuple(i in _PER_ROW for i in range(len(COLUMNS)))
_STATUS = [n for n, _ in COLUMNS].index("status")


# the most text an Arrow string array holds (int32 offsets)
_OFFSETS_MAX = 0x7FFFFFFF
# the most text one side of a rows event's images may render to: each event's images become an
# Arrow string chunk of their own (_rendered_fields)
IMAGES_LIMIT = _OFFSETS_MAX


def render_images(renderer, batch):
    """A RowBatch's before and after images as two columns of JSON text with their Arrow offsets
    (``rows.render_images``: the compiled core renders them in C, byte for byte the images of the
    lines ``changes`` prints), with ``renderer.rows_format`` (a :class:`~mysqlddl.sinks.jsonl.LineRenderer`)
    giving the per-column formats. None for rows the CLI renders with extras (naming, mismatches)
    or whose images pass :data:`IMAGES_LIMIT`: those go row by row (:meth:`RowBatch.changes`)."""
    m = batch.mapping
    if m.naming is not Naming.SCHEMA or m.mismatch:
        return None
    fmt = renderer.rows_format(m)
    if fmt is None:
        return None
    ev = batch.event
    try:
        with m.decoding(ev):
            images = rows_mod.render_images(m.plan, fmt, ev.body, ev.rows_start, ev.rows_end, ev.present1,
                                            ev.present2, base=ev.body_offset or 0, op=batch.op, limit=IMAGES_LIMIT)
    except OverflowError:
        return None
    batch.note_count(images.rows)
    return images


class _Part:
    """One partition's pending changes as column lists (:data:`COLUMNS` order): the columns
    hold a value per change, repeated over its ``reps`` rows when flushed (by Arrow, not per row
    in Python); the per-row columns (:data:`_PER_ROW`) hold a value per row, except in a part of
    rendered rows events, which keeps per event its images (``rows.RenderedImages``) and the
    order numbers of its first row (``firsts``: total0, table0), made into the per-row columns at
    the flush (no Python object per row)."""

    __slots__ = ("cols", "reps", "n", "images", "firsts", "bytes")

    def __init__(self):
        self.cols: list[list] = [[] for _ in COLUMNS]
        self.reps: list[int] = []
        self.n = 0
        self.images: list = []
        self.firsts: list[tuple[int, int]] = []
        self.bytes = 0


class ChangeBatches:
    """Changes kept per (db, table) (:class:`_Part`: a partition's batch needs no splitting, and
    its per-change columns are often one value), each flushed as an Arrow table at
    :data:`BATCH_ROWS` rows, and counted per (kind, status, db, table, op) for the
    summary (so the driver never reads the output back to count it). Each change is rendered as
    ``mysqlddl changes`` renders it: whole rows events by the CLI's compiled renderer
    (:func:`render_images`, :meth:`add_images`), other plain row changes by the envelope's value
    rendering on a short path, everything else through ``mysqlddl.sinks.jsonl.envelope`` itself,
    whose parts are stored (JSON parts as JSON text)."""

    def __init__(self, name: str, include_query: bool):
        self.name, self.include_query = name, include_query
        self._envelope, self._kind_of, self._dumps, self._image = envelope, kind_of, dumps, json_image
        self._row_change, self._schema_naming = RowChange, Naming.SCHEMA
        self.parts: dict[tuple, _Part] = {}
        self.n = 0
        self.counts: dict[tuple, int] = {}
        self._schema = arrow_schema(files=True)

    def _count(self, key: tuple, n: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def _part(self, key: tuple) -> _Part:
        p = self.parts.get(key)
        if p is None:
            p = self.parts[key] = _Part()
        return p

    def _full(self, p: _Part, key: tuple):
        if p.n >= BATCH_ROWS or p.bytes >= BATCH_BYTES:
            return key
        if self.n >= PENDING_BATCH_ROWS:
            return max(self.parts, key=lambda k: self.parts[k].n)
        return None

    def add(self, ch) -> tuple | None:
        """Adds a change (not a RowBatch); returns the key of a partition to :meth:`flush` now, if any."""
        if type(ch) is self._row_change and not ch.headers and not ch.mismatch and ch.naming is self._schema_naming:
            # what envelope.row_envelope / source_dict make of it, without the dicts
            s = ch.source
            dumps, image = self._dumps, self._image
            txn = ch.transaction is not None
            row = ("row", ch.op, s.db, s.table, s.file, s.file_seq, s.pos, s.row, s.ts * 1000, s.gtid, s.server_id,
                   s.thread, s.query if self.include_query else None, s.connector,
                   dumps(image(ch.before)), dumps(image(ch.after)), ch.transaction,
                   ch.total_order if txn else None, ch.table_order if txn else None) + _NONE_TAIL
        else:
            row = self._general(ch)
        self._count((row[0], row[_STATUS], row[2], row[3], row[1]), 1)
        key = (row[2], row[3], False)
        p = self._part(key)
        for col, v in zip(p.cols, row, strict=True):
            col.append(v)
        p.reps.append(1)
        p.n += 1
        self.n += 1
        return self._full(p, key)

    def add_images(self, batch, images) -> tuple | None:
        """A RowBatch whose images :func:`~mysqlddl.sinks.arrow.render_images` rendered: one output row per row, the
        event's own fields once (repeated at the flush), its rows' fields as the rendered text
        (split by Arrow at the flush), in a part of rendered events of their own."""
        s = batch.source
        n = images.rows
        self._count(("row", None, s.db, s.table, batch.op), n)
        if not n:
            return None
        total0, table0 = batch.total0, batch.table0
        values = ("row", batch.op, s.db, s.table, s.file, s.file_seq, s.pos, None, s.ts * 1000, s.gtid,
                  s.server_id, s.thread, s.query if self.include_query else None, s.connector, None, None,
                  batch.transaction, None, None) + _NONE_TAIL
        key = (s.db, s.table, True)
        p = self._part(key)
        for per_row, col, v in zip(_PER_ROW_FLAGS, p.cols, values, strict=True):
            if not per_row:
                col.append(v)
        p.images.append(images)
        p.firsts.append((total0, table0))
        p.bytes += max(len(images.before), len(images.after))
        p.reps.append(n)
        p.n += n
        self.n += n
        return self._full(p, key)

    def _general(self, ch) -> tuple:
        dumps = self._dumps
        env = dict(self._envelope(ch, name=self.name, include_query=self.include_query))
        kind = self._kind_of(ch)
        row = {"kind": kind, "file": ch.source.file, "file_seq": ch.source.file_seq, "pos": ch.source.pos,
               "gtid": ch.source.gtid}
        extra: dict = {}
        if kind == "transaction":
            row.update(status=env.pop("status"), transaction_id=env.pop("id"), ts_ms=env.pop("ts_ms"),
                       event_count=env.pop("event_count"), data_collections=dumps(env.pop("data_collections")))
        else:
            src = dict(env.pop("source"))
            for k in _SOURCE_COLS:
                row[k] = src.pop(k)
            for k in _SOURCE_CONST:
                src.pop(k, None)
            if env.pop("ts_ms") != row["ts_ms"]:
                raise AssertionError("envelope ts_ms differs from source.ts_ms")
            if src:
                extra["source"] = src
            if kind == "schema":
                pos = env.pop("position")
                row.update(ddl=env.pop("ddl"), table_changes=dumps(env.pop("tableChanges")),
                           position_file=pos["file"], position_pos=pos["pos"])
                if env["databaseName"] == row["db"] and env["schemaName"] is None:
                    del env["databaseName"], env["schemaName"]    # (else kept in extra)
            else:
                txn = env.pop("transaction")
                row.update(op=env.pop("op"), before=dumps(env.pop("before")), after=dumps(env.pop("after")))
                if txn is not None:
                    row.update(transaction_id=txn["id"], total_order=txn["total_order"],
                               data_collection_order=txn["data_collection_order"])
                if "headers" in env:
                    row["headers"] = dumps(env.pop("headers"))
                if "mysqlddl" in env:
                    row["mysqlddl"] = dumps(env.pop("mysqlddl"))
        extra.update(env)
        if extra:
            row["extra"] = dumps(extra)
        return tuple(row.get(n) for n, _ in COLUMNS)

    def flush(self, key: tuple):
        """The partition's pending rows as an Arrow table without the partition columns (the
        images of rendered rows events one chunk per event)."""
        # lazy: pyarrow and numpy are the [spark] extra (module docstring)
        import numpy as np
        import pyarrow as pa

        p = self.parts.pop(key)
        self.n -= p.n
        # the row -> change index repeating the per-change columns (None: a row per change)
        expand = None if len(p.reps) == p.n else _ints(
            np.repeat(np.arange(len(p.reps), dtype=np.int32), np.fromiter(p.reps, np.int64, len(p.reps))),
            pa.int32())
        rendered = _rendered_fields(p) if key[2] else {}
        arrays = []
        fields = iter(self._schema)
        for per_row, (name, _), values in zip(_PER_ROW_FLAGS, COLUMNS, p.cols, strict=True):
            if name in PARTITION_COLUMNS:
                continue
            field = next(fields)
            if name in rendered:
                arrays.append(rendered[name])          # (of the field's type: from_arrays checks)
                continue
            try:
                arrays.append(_column(values, field.type, per_row, p, expand))
            except (UnicodeEncodeError, pa.ArrowInvalid):
                values = [utf8_text(v) if isinstance(v, str) else v for v in values]
                arrays.append(_column(values, field.type, per_row, p, expand))
        return pa.Table.from_arrays(arrays, schema=self._schema)

    def keys(self) -> list[tuple]:
        return list(self.parts)


def _rendered_fields(p: _Part) -> dict:
    """The per-row columns of a part of rendered rows events as Arrow arrays: each side's images
    one chunk per event over the renderer's own text and offsets (no copy: each event's offsets
    start at 0); row = the index in the event, total_order / data_collection_order = the event's
    total0 / table0 + the 1-based index (as render_rows' holes, sinks.jsonl.LineRenderer)."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import numpy as np
    import pyarrow as pa

    reps = np.fromiter(p.reps, np.int64, len(p.reps))
    starts = np.repeat(np.cumsum(reps) - reps, reps)              # each row's event's first row
    out = {}
    string, buffer, chunk = pa.string(), pa.py_buffer, pa.Array.from_buffers
    for name, text, offsets in (("before", 0, 1), ("after", 2, 3)):
        out[name] = pa.chunked_array([chunk(string, n, [None, buffer(im[offsets]), buffer(im[text])])
                                      for im, n in zip(p.images, p.reps, strict=True)], string)
    k = np.arange(p.n, dtype=np.int64) - starts
    firsts = np.array(p.firsts, np.int64).reshape(-1, 2)
    out["row"] = _ints(k.astype(np.int32), pa.int32())
    out["total_order"] = _ints(np.repeat(firsts[:, 0], reps) + k + 1, pa.int64())
    out["data_collection_order"] = _ints(np.repeat(firsts[:, 1], reps) + k + 1, pa.int64())
    return out


def _column(values: list, type_, per_row: bool, p: _Part, expand):
    if per_row:
        return _array(values, type_)
    first = values[0]
    if values.count(first) == len(values):          # one value for the whole batch
        return _repeat(first, type_, p.n)
    a = _array(values, type_)
    return a if expand is None else a.take(expand)


# pyarrow's pa.array and pa.scalar first ask whether their input is a pandas object, and the first
# such question imports pandas (pyarrow's pandas shim): ~0.3 s in every Python worker here, in a
# job that never holds a pandas object. The columns are made from their buffers instead
# (Array.from_buffers over the Arrow columnar format's validity bitmap, offsets and data); only
# what that cannot hold (text past int32 offsets, integers out of range) goes to pa.array, for
# its chunking or its error.
def _ints(a, type_, valid=None):
    """An int32 / int64 Arrow array over the numpy array ``a`` of that type (no copy); ``valid``:
    its validity bitmap, None for no nulls."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import pyarrow as pa

    return pa.Array.from_buffers(type_, len(a), [valid, pa.py_buffer(a)])


def _np_int(type_):
    """The numpy type of the Arrow integer type ``type_`` (int32 or int64: the output's)."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import numpy as np
    import pyarrow as pa

    return np.int32 if type_ == pa.int32() else np.int64


def _array(values: list, type_):
    """``pa.array(values, type_)`` for a list of str / int / None of the output's types."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import numpy as np
    import pyarrow as pa

    n = len(values)
    nulls = None in values
    valid = None if not nulls else pa.py_buffer(np.packbits(np.fromiter((v is not None for v in values), np.bool_, n),
                                                            bitorder="little"))
    if type_ == pa.string():
        data = [b"" if v is None else v.encode("utf-8") for v in values] if nulls else \
            [v.encode("utf-8") for v in values]
        ends = np.cumsum(np.fromiter(map(len, data), np.int64, n))
        if n and ends[-1] > _OFFSETS_MAX:
            return pa.array(values, type_)
        offsets = np.zeros(n + 1, np.int32)
        offsets[1:] = ends
        return pa.Array.from_buffers(type_, n, [valid, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])
    try:
        a = np.fromiter((0 if v is None else v for v in values), _np_int(type_), n)
    except (OverflowError, TypeError, ValueError):
        return pa.array(values, type_)
    return _ints(a, type_, valid)


def _repeat(value, type_, n: int):
    """``value`` (str / int / None) ``n`` times as an Arrow array of ``type_``."""
    # lazy: pyarrow and numpy are the [spark] extra (module docstring)
    import numpy as np
    import pyarrow as pa

    if value is None:
        return pa.nulls(n, type_)
    if type_ == pa.string():
        text = value.encode("utf-8")
        if len(text) * n > _OFFSETS_MAX:
            return pa.array([value] * n, type_)
        offsets = (np.arange(n + 1, dtype=np.int64) * len(text)).astype(np.int32)
        return pa.Array.from_buffers(type_, n, [None, pa.py_buffer(offsets), pa.py_buffer(text * n)])
    try:
        a = np.full(n, value, _np_int(type_))
    except (OverflowError, TypeError, ValueError):
        return pa.array([value] * n, type_)
    return _ints(a, type_)


class ArrowSink(Sink):
    """A decode task's change records as Parquet under ``root`` (:class:`ChangeBatches` batched per
    ``db=/table=`` partition, written by :class:`~mysqlddl.sinks.parquet.PartWriter`; file names
    from ``index``, the task's range), and with ``tables`` (a directory) and ``history`` the typed
    datasets there too (:class:`~mysqlddl.sinks.parquet.TypedSink`). ``name``/``include_query`` as
    for the JSON Lines sink. ``commit`` does nothing: a task's files are published whole at
    :meth:`close` (a retried task overwrites them); :meth:`abort` removes the unpublished ones.
    After closing: :attr:`counts` (per kind, status, db, table and op), :attr:`files`, and
    :meth:`typed_summary`."""

    def __init__(self, root: str, index: int, *, name: str = "mysqlddl", include_query: bool = True,
                 tables: str | None = None, history=None):
        self.root, self.index, self.tables, self.history = root, index, tables, history
        self.renderer = LineRenderer(name=name, include_query=include_query)
        self.batches = ChangeBatches(name, include_query)
        self.writer = None
        self.typed = None
        self._aborted = False

    def open(self) -> None:
        self.writer = PartWriter(self.root, self.index)
        if self.tables is not None:
            self.typed = TypedSink(self.history, self.tables, self.index)

    def write(self, record: Record) -> None:
        out, writer, typed = self.batches, self.writer, self.typed
        if isinstance(record, RowBatch):
            images = render_images(self.renderer, record)
            if images is not None:
                key = out.add_images(record, images)
                if key is not None:
                    writer.add(key[:2], out.flush(key))
                if typed is not None:
                    typed.batch(record)
                return
            changes = record.changes()
        elif type(record) is Boundary:
            return          # (not a change: nothing to write)
        else:
            changes = (record,)
        for ch in changes:
            key = out.add(ch)
            if key is not None:
                writer.add(key[:2], out.flush(key))
            if typed is not None:
                typed.change(ch)

    def close(self) -> None:
        if self._aborted:
            return
        out = self.batches
        for key in out.keys():
            self.writer.add(key[:2], out.flush(key))
        self.writer.close()
        if self.typed is not None:
            self.typed.close()

    def abort(self) -> None:
        self._aborted = True
        if self.writer is not None:
            self.writer.abort()
        if self.typed is not None:
            self.typed.abort()

    @property
    def counts(self) -> dict:
        return self.batches.counts

    @property
    def files(self) -> list[str]:
        return self.writer.files

    def typed_summary(self) -> dict | None:
        return None if self.typed is None else self.typed.summary()


__all__ = ["COLUMNS", "IMAGES_LIMIT", "PARTITION_COLUMNS", "ArrowSink", "ChangeBatches", "arrow_schema",
           "render_images"]
