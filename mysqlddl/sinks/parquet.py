"""Parquet files of a decode task (the Spark job's output): its change events per ``db=/table=``
partition, and the typed datasets per table version (:mod:`mysqlddl.sinks.typed`). Every file is
written under a hidden temporary name and published by an atomic rename, so a retried task
overwrites what a failed attempt published (ARCHITECTURE.md "Key decisions": Spark).

pyarrow is imported where it is used: it is an optional dependency (the ``spark`` extra).
"""

from __future__ import annotations

import os
import uuid

from ..changes.records import Naming, RowChange
from ..model.ids import TableId
from . import typed

#: Rows per Arrow batch a decode task builds per (db, table), and over all of them (bound a task's
#: memory in Python objects: beyond, the biggest partition's are turned into a batch early).
BATCH_ROWS = 4096
PENDING_BATCH_ROWS = 8 * BATCH_ROWS
#: Rendered text a partition's batch holds at most (a few rows can be large).
BATCH_BYTES = 64 << 20
#: Rows a decode task keeps per (db, table) before writing them as one Parquet row group; rows
#: over all its partitions before it writes the biggest early; rows per file before the
#: partition's next file; open files per task (beyond, the least recently written one is
#: finished and its partition's next rows start a new file).
GROUP_ROWS = 1 << 16
PENDING_ROWS = 1 << 18
FILE_ROWS = 1 << 20
MAX_OPEN = 64


def utf8_text(v: str) -> str:
    """Text as written: undecodable bytes kept as lone surrogates (DDL text, names) are not
    UTF-8, so they are written with backslash escapes (row values are JSON text, escaped already)."""
    try:
        v.encode("utf-8")
        return v
    except UnicodeEncodeError:
        return v.encode("utf-8", "backslashreplace").decode("utf-8")


_HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
# what Spark escapes in a partition value (ExternalCatalogUtils.escapePathName, off Windows) as
# %XX, and Spark and pyarrow (segment_encoding="uri") unescape: the names read back as written
_ESCAPE = frozenset([chr(c) for c in range(1, 32)] + list("\"#%'*/:=?\\\x7f{[]^"))


def partition_dir(db: str | None, table: str | None) -> str:
    """``db=<db>/table=<table>``, as Spark names a partition (null or empty: the Hive default)."""
    def seg(col, v):
        if v is None or v == "":
            return f"{col}={_HIVE_NULL}"
        return col + "=" + "".join(f"%{ord(c):02X}" if c in _ESCAPE else c for c in utf8_text(v))

    return os.path.join(seg("db", db), seg("table", table))


# dictionaries for the few columns of a few values only (measured: hashing every value of the
# others cost more than it saved), min/max statistics for the ordering key and time (filters)
_DICT_COLUMNS = ["kind", "op", "file", "connector", "status", "position_file"]
_STATS_COLUMNS = ["file_seq", "pos", "ts_ms"]


def _changes_parquet_options(schema) -> dict:
    return {"use_dictionary": _DICT_COLUMNS, "write_statistics": _STATS_COLUMNS}


class PartWriter:
    """One decode task's Parquet files under ``changes/``: per (db, table), batches kept until
    :data:`GROUP_ROWS` rows, then written as a row group to the partition's open file; a file is
    finished at :data:`FILE_ROWS` rows, when :data:`MAX_OPEN` others are open, or at the end.
    File names are deterministic (range index, chunk number per partition) and each file is
    written under a hidden temporary name in its directory, then published by ``os.replace``
    (atomic): another attempt at the same range overwrites it with the same rows."""

    def __init__(self, root: str, index: int, *, dirname=None, parquet_options=None):
        self.root, self.index = root, index
        # a key's directory under root, and the ParquetWriter keywords of a file of a schema: the
        # change events' (db=/table= partitions) unless given (the typed datasets)
        self.dirname = dirname or (lambda key: partition_dir(*key))
        self.parquet_options = parquet_options or _changes_parquet_options
        self.pending: dict[tuple, list] = {}      # key -> [batches, rows]
        self.pending_rows = 0
        self.open: dict[tuple, list] = {}         # key -> [writer, tmp, final, rows], least recently written first
        self.chunks: dict[tuple, int] = {}
        self.files: list[str] = []
        self.token = uuid.uuid4().hex[:12]        # this attempt's temporary names

    def add(self, key: tuple, batch) -> None:
        p = self.pending.get(key)
        if p is None:
            p = self.pending[key] = [[], 0]
        p[0].append(batch)
        p[1] += batch.num_rows
        self.pending_rows += batch.num_rows
        if p[1] >= GROUP_ROWS:
            self._write(key)
        while self.pending_rows > PENDING_ROWS:
            self._write(max(self.pending, key=lambda k: self.pending[k][1]))

    def _write(self, key: tuple) -> None:
        # lazy: pyarrow is the [spark] extra (module docstring)
        import pyarrow as pa
        import pyarrow.parquet as pq

        batches, n = self.pending.pop(key)
        self.pending_rows -= n
        f = self.open.pop(key, None)
        if f is None:
            if len(self.open) >= MAX_OPEN:
                self._finish(next(iter(self.open)))
            chunk = self.chunks.get(key, 0)
            self.chunks[key] = chunk + 1
            d = os.path.join(self.root, self.dirname(key))
            os.makedirs(d, exist_ok=True)
            name = f"part-{self.index:05d}-{chunk:04d}.parquet"
            tmp = os.path.join(d, f".{name}.{self.token}.tmp")
            schema = batches[0].schema
            f = [pq.ParquetWriter(tmp, schema, compression="snappy", **self.parquet_options(schema)), tmp,
                 os.path.join(d, name), 0]
        f[0].write_table(pa.concat_tables(batches), row_group_size=n)
        f[3] += n
        self.open[key] = f
        if f[3] >= FILE_ROWS:
            self._finish(key)

    def _finish(self, key: tuple) -> None:
        w, tmp, final, _ = self.open.pop(key)
        w.close()
        os.replace(tmp, final)
        self.files.append(os.path.relpath(final, self.root))

    def close(self) -> None:
        for key in list(self.pending):
            self._write(key)
        for key in list(self.open):
            self._finish(key)

    def abort(self) -> None:
        """A failed attempt: its unpublished files removed (published ones are complete, and the
        next attempt overwrites them)."""
        for w, tmp, _, _ in self.open.values():
            try:
                w.close()
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        self.open.clear()
        self.pending.clear()


def _typed_dir(key: tuple) -> str:
    """``db=<db>/table=<table>/version=<file_seq>-<pos>`` of a typed dataset's key."""
    return os.path.join(partition_dir(key[0], key[1]), f"version={key[2]}")


class TypedSink:
    """A decode task's typed datasets (:mod:`mysqlddl.sinks.typed`): each row change the reader names by
    a table version of the history (Naming.SCHEMA), keyed by (db, table, version) where version is
    ``<file_seq>-<pos>``, the position from which the version is in force (``0-0``: the baseline's,
    the schema given with --schema). Rows named otherwise (no version known: --on-mismatch flag,
    TABLE_MAP naming) are counted as skipped. The values are ChangeReader's: rendered rows events
    are decoded once more here, for their typed values (the decoder's tuples as they are, or
    ``TableMapping.image`` of them where the version retypes a column)."""

    def __init__(self, history, root: str, index: int):
        self.history = history
        self.writer = PartWriter(root, index, dirname=_typed_dir,
                                  parquet_options=lambda schema: {"use_dictionary": typed.dictionary_columns(schema)})
        self.rows = typed.TypedRows()
        self._values = typed.image_values
        self._row_change, self._schema = RowChange, Naming.SCHEMA
        self._table_id = TableId
        self._versions: dict[int, tuple] = {}       # id(table version) -> (version, its key)
        self.skipped: dict[str, int] = {}

    def _version(self, db: str, table: str, version) -> str:
        got = self._versions.get(id(version))
        if got is None or got[0] is not version:
            key = "0-0"
            for (seq, pos), t in self.history.versions(self._table_id(db, table)):
                if t is version:
                    key = f"{seq}-{pos}"
            got = self._versions[id(version)] = (version, key)
        return got[1]

    def _extend(self, version, src, metas: list, values: list) -> None:
        key = (src.db, src.table, self._version(src.db, src.table, version))
        n = self.rows.extend(key, version, metas, values)
        if n >= BATCH_ROWS:
            self.writer.add(key, self.rows.flush(key))
        elif len(self.rows) >= PENDING_BATCH_ROWS:
            biggest = max(self.rows.pending, key=lambda k: self.rows.pending[k].n)
            self.writer.add(biggest, self.rows.flush(biggest))

    def batch(self, batch) -> None:
        """A RowBatch rendered whole (:func:`~mysqlddl.sinks.arrow.render_images`): its rows decoded to
        values once more."""
        mapped, op, src = batch.mapping, batch.op, batch.source
        decoded = mapped.decode(batch.event)
        if op == "u":
            decoded = [after for _, after in decoded]
        if mapped.retypes:         # values the schema types better (INET, UUID...): as TableMapping.image does
            decoded = [self._values(mapped.version, mapped.image(row)) for row in decoded]
        head, ts = (op, src.file_seq, src.pos), src.ts * 1000
        self._extend(mapped.version, src, [(*head, i, ts, src.gtid) for i in range(len(decoded))], decoded)

    def change(self, ch) -> None:
        """A change of the reader's: a row change not rendered as part of a whole event."""
        if type(ch) is not self._row_change or ch.op not in ("c", "u", "d"):
            return
        if ch.naming is not self._schema or ch.table_version is None or ch.mismatch:
            t = f"{ch.source.db}.{ch.source.table}"     # (made UTF-8 text in _typed_summary)
            self.skipped[t] = self.skipped.get(t, 0) + 1
            return
        s, image = ch.source, ch.before if ch.op == "d" else ch.after
        self._extend(ch.table_version, s, [(ch.op, s.file_seq, s.pos, s.row, s.ts * 1000, s.gtid)],
                     [self._values(ch.table_version, image)])

    def close(self) -> None:
        for key in self.rows.keys():
            self.writer.add(key, self.rows.flush(key))
        self.writer.close()

    def abort(self) -> None:
        self.writer.abort()

    def summary(self) -> dict:
        return {"rows": [[list(k), n] for k, n in self.rows.rows.items()], "skipped": self.skipped,
                "nulled": self.rows.nulled, "absent": self.rows.absent, "files": self.writer.files}


__all__ = ["BATCH_BYTES", "BATCH_ROWS", "FILE_ROWS", "GROUP_ROWS", "MAX_OPEN", "PENDING_BATCH_ROWS", "PENDING_ROWS",
           "PartWriter", "TypedSink", "partition_dir", "utf8_text"]
