"""Batch re-parsing of archived binlogs on Spark: schema-correct change events as Parquet.

    mysqlddl spark INPUT... --out DIR [--master URL] [--schema DDL.sql] [--range-size 64M]
    python -m mysqlddl.spark.job INPUT... --out DIR ...
    spark-submit --master URL $(python -c 'import mysqlddl.spark.job as m; print(m.__file__)') INPUT... --out DIR

The job's driver: its stages, the history's broadcast and the summary. Importing it, as the CLI
does, loads no pyspark (only :func:`run` and :func:`run_args` do); its arguments are
mysqlddl.cli.spark's. Beside it in :mod:`mysqlddl.spark`: the pure parts in :mod:`.ranges`, the
Python tasks in :mod:`.tasks`, the JVM's start and end in :mod:`.launcher`. The stages
(ARCHITECTURE.md, "Key decisions": Spark):

1. **Pre-scan**, one task per file: FDE, QUERY, GTID, XID and XA_PREPARE bodies only (the rest
   skipped by header size) -> the DDL with positions, sql_mode and default database, and the
   offsets where a transaction starts. With an embedded local JVM the CLI's driver pre-scans
   files itself while the JVM starts (:class:`DriverPrescan`); the tasks take the rest.
2. **Driver**: the DDL sorted by integer position (file_seq, pos), applied from the baseline
   through ChangeReader's own DDL path -> the schema history, broadcast as its JSON Lines.
3. **Decode**, one task per byte range (default 64 MiB, cut at transaction boundaries): each task
   opens the files by path (never Spark's ``binaryFile`` source, which stops at 2 GiB a file),
   reads its range with the history read-only (the table version in force at each row's
   position, ``SchemaHistory.table_at``) into Arrow batches (:class:`mysqlddl.sinks.arrow.ArrowSink`),
   and writes them itself with pyarrow as Parquet, straight into DIR's partition directories; the
   JVM only carries each task's summary (counts per table and op, files written), which the
   driver adds up into summary.json. (Handing every row to the JVM to write cost ~2 us a row
   there and did not scale with cores.) Memory in a task is bounded by its range, never by the
   file: one event, the changes not yet in a batch, the rows waiting to become a row group and
   the open files, each bounded by a constant of :mod:`mysqlddl.sinks.parquet`.
   summary.json's ``range_seconds`` gives each range's task time.

Output under DIR. DIR must be a path the driver and every executor see alike (a local disk for
``local[*]``, a shared mount on a cluster), as the decode tasks write their files there
themselves. ``changes/`` is cleared by the driver before stage 2 (a re-run replaces it). A
retried or speculative task attempt leaves no duplicates: a range always decodes to the same
rows, its files have deterministic names (``part-<range>-<chunk>.parquet``, the chunk counted
per partition) and each is written under a hidden temporary name (``.part-...tmp``, which Spark
and pyarrow readers skip) in its directory and published by an atomic ``os.replace``, so a
second attempt overwrites the first's files with the same content.

- ``changes/db=<db>/table=<table>/*.parquet``: every event ``mysqlddl changes`` prints, one row
  each, partitioned by the event's ``source.db`` / ``source.table``; ``kind`` says which: ``row``
  (op c/u/d, or t with --truncate-events), ``schema`` (a DDL recorded in the history, under its
  default database and ``table=__HIVE_DEFAULT_PARTITION__``, i.e. null) or ``transaction``
  (Debezium's BEGIN/END marks, db and table null). Columns: :data:`~mysqlddl.sinks.arrow.COLUMNS`, the envelope's
  fields by name: the ordering key (``file_seq``, ``pos``, ``row``), ``ts_ms``, ``gtid``, ``op``,
  ``before``/``after``... ``before``/``after`` (and the other JSON parts: ``headers``,
  ``mysqlddl``, ``data_collections``, ``table_changes``) are JSON text of the CLI's rendering
  (``mysqlddl.sinks.jsonl``: DECIMAL as exact digits, temporals as ISO-8601 text, binary as base64,
  JSON documents as text...), so every typed value survives exactly as the CLI writes it, whatever
  the table version. Files carry no order: sort by the ordering key. The partition columns are
  not in the files (readers recover them from the path, escaped as Spark escapes them, a null as
  ``__HIVE_DEFAULT_PARTITION__``): read them as text
  (``spark.sql.sources.partitionColumnTypeInference.enabled=false``; in pyarrow.dataset a hive
  partitioning of two strings).
- ``history.jsonl``: the schema history (``SchemaHistory.lines``, what ``mysqlddl history``
  prints); ``summary.json``: the run (counts per table and op, ranges, seconds per stage).
- with ``--typed`` (``run(typed=True)``), ``tables/db=<db>/table=<table>/version=<file_seq>-<pos>/``:
  per table version, its row changes with one typed column per column (:mod:`mysqlddl.sinks.typed`;
  :class:`~mysqlddl.sinks.parquet.TypedSink`), cleared with ``changes/``; summary.json's ``typed`` counts them.

:func:`envelope_of` turns an output row back into the exact object ``mysqlddl changes`` prints.

Inputs are paths the driver (to list them) and every executor (to read them) see alike: a local
disk for ``local[*]``, a shared mount on a cluster. On a cluster the package must be installed
on the executors (``pip install mysqlddl[spark]``): its Cython extension cannot ship in a
``--py-files`` zip.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import sys
import threading
import time

from .. import __version__
from ..errors import ConfigError, SchemaMismatchError
from ..options import change_event_options
from ..sinks.parquet import utf8_text
from . import ranges
from .launcher import context, embedded_local, stop
from .tasks import decode_ranges, options_from, options_kw, prescan_task, typed_error, warm_worker

# ------------------------------------------------------------------------------------ output


def envelope_of(rec: dict, *, name: str = "mysqlddl", version: str | None = None) -> dict:
    """The object ``mysqlddl changes`` prints for an output row (a dict of :data:`~mysqlddl.sinks.arrow.COLUMNS`).
    ``name`` and ``version`` are the run's (summary.json: ``name``, ``mysqlddl``)."""
    def js(k):
        v = rec.get(k)
        return None if v is None else json.loads(v)

    kind = rec["kind"]
    extra = js("extra") or {}
    if kind == "transaction":
        return {"status": rec["status"], "id": rec["transaction_id"], "ts_ms": rec["ts_ms"],
                "event_count": rec["event_count"], "data_collections": js("data_collections"), **extra}
    source = {"version": version or __version__, "connector": rec["connector"], "name": name,
              "ts_ms": rec["ts_ms"], "snapshot": "false", "db": rec["db"],
              "table": rec.get("table"), "server_id": rec["server_id"], "gtid": rec["gtid"], "file": rec["file"],
              "pos": rec["pos"], "row": rec["row"], "thread": rec["thread"], "query": rec["query"],
              **extra.pop("source", {})}
    if kind == "schema":
        return {"source": source, "ts_ms": rec["ts_ms"], "databaseName": rec["db"], "schemaName": None,
                "ddl": rec["ddl"], "tableChanges": js("table_changes"),
                "position": {"file": rec["position_file"], "pos": rec["position_pos"]}, **extra}
    out = {"before": js("before"), "after": js("after"), "source": source, "op": rec["op"],
           "ts_ms": rec["ts_ms"], "transaction": None}
    if rec["transaction_id"] is not None:
        out["transaction"] = {"id": rec["transaction_id"], "total_order": rec["total_order"],
                              "data_collection_order": rec["data_collection_order"]}
    if rec.get("headers") is not None:
        out["headers"] = js("headers")
    if rec.get("mysqlddl") is not None:
        out["mysqlddl"] = js("mysqlddl")
    out.update(extra)
    return out


def _write_text(path: str, text: str) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------- run


def run(spark, inputs, out: str, *, options=None, schema: str | None = None, schema_database: str | None = None,
        schema_position=None, range_size: int = 64 << 20, name: str = "mysqlddl",
        on_mismatch: str = "raise", include_query: bool = False, truncate_events: bool = False,
        pk_change: str = "update", prescanned: DriverPrescan | None = None, typed: bool = False) -> dict:
    """Run the job on ``spark`` (a SparkSession or a SparkContext); returns the summary (also written
    to DIR/summary.json). ``options``: default :func:`~mysqlddl.options.change_event_options`.
    Raises the typed mysqlddl error of a failed task. ``prescanned``: the driver's pre-scans made
    while the JVM started (made with these inputs, options and range size); stage 1 pre-scans the
    other files. ``typed``: also
    write the typed per-table datasets under DIR/tables (:class:`~mysqlddl.sinks.parquet.TypedSink`)."""
    # pyspark (optional, heavy): only when the job runs
    from pyspark import SparkContext

    options = options or change_event_options()
    sc = spark if isinstance(spark, SparkContext) else spark.sparkContext
    t0 = time.monotonic()
    files = ranges.input_files(inputs)
    os.makedirs(out, exist_ok=True)

    # stage 1: pre-scan, one task per file (not pre-scanned by the driver already)
    okw = options_kw(options)
    done = prescanned.take() if prescanned is not None else {}
    for f in files:
        if isinstance(done.get(f), Exception):
            raise done[f]
    todo = [f for f in files if f not in done]
    if todo:
        try:
            gap = ranges.cut_gap(range_size)
            done.update(zip(todo, sc.parallelize(todo, len(todo)).map(lambda f: prescan_task(f, okw, gap)).collect(),
                            strict=True))
        except Exception as e:
            raise (typed_error(e) or e) from None
    scans = [done[f] for f in files]
    t1 = time.monotonic()

    # driver: the history from the DDL in integer position order, then the ranges; with no Spark
    # job run yet, the Python workers start meanwhile (a job of one task per slot): their start
    # and imports (~0.8 s here) overlap the history's build instead of delaying stage 2
    cut = ranges.cut_ranges(scans, range_size)
    warm = None
    if not todo and cut:
        warm = threading.Thread(target=_warm_workers, args=(sc, min(sc.defaultParallelism, len(cut))),
                                name="mysqlddl-warm-workers", daemon=True)
        warm.start()
    try:
        history, hstats = ranges.build_history(scans, options, schema=schema, schema_database=schema_database,
                                               schema_position=schema_position)
    finally:
        if warm is not None:
            warm.join()
    text = "\n".join(history.lines()) + "\n"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    t2 = time.monotonic()

    # stage 2: decode the ranges, one task each
    bc = sc.broadcast(text)
    reader_kw = {"on_mismatch": on_mismatch, "truncate_events": truncate_events, "pk_change": pk_change}
    # Largest first: Spark launches a stage's tasks in partition order, so a large range (one long
    # transaction cannot be cut) left to the end would run alone while the other cores idle
    # (longest-processing-time-first scheduling). The output does not depend on the order: files
    # are named by the range's index, events keyed by position.
    rows = [(r.index, list(r.files), r.start, r.stop, r.nbytes)
            for r in sorted(cut, key=lambda r: (-r.nbytes, r.index))]
    # the tasks write their files themselves (no commit protocol): clear the previous run's
    changes, tables = os.path.join(out, "changes"), os.path.join(out, "tables")
    shutil.rmtree(changes, ignore_errors=True)
    shutil.rmtree(tables, ignore_errors=True)
    os.makedirs(changes)
    if typed:
        os.makedirs(tables)

    def decode(it):
        return decode_ranges(it, changes=changes, history_bc=bc, digest=digest, options=okw,
                              reader_kw=reader_kw, name=name, include_query=include_query,
                              tables=tables if typed else None)

    # One pass: each range decoded once, written by its task; only the tasks' summaries come back.
    try:
        results = sc.parallelize(rows, max(len(rows), 1)).mapPartitions(decode).collect()
    except Exception as e:
        raise (typed_error(e) or e) from None
    finally:
        bc.unpersist()
    t3 = time.monotonic()
    _write_text(os.path.join(changes, "_SUCCESS"), "")
    if typed:
        _write_text(os.path.join(tables, "_SUCCESS"), "")

    # the summary's counts: the tasks' own, added up (the output is never read back)
    per_table: dict = {}
    kinds: dict = {}
    for res in results:
        for (kind, status, db, table, op), n in res["counts"]:
            if kind != "transaction" or status == "END":
                kinds[kind] = kinds.get(kind, 0) + n
            if kind == "row":
                t = per_table.setdefault(f"{utf8_text(db)}.{utf8_text(table)}", {})
                t[op] = t.get(op, 0) + n
    summary = {
        "mysqlddl": __version__, "name": name, "master": sc.master, "inputs": list(inputs), "files": len(files),
        "bytes": sum(s.size for s in scans), "prescanned_by_driver": len(files) - len(todo),
        "ranges": len(cut), "range_size": range_size,
        "ddl": hstats.ddl, "ddl_errors": hstats.ddl_errors, "ddl_unknown_tables": hstats.ddl_unknown_tables,
        "history_records": len(history.records), "dml_rows": kinds.get("row", 0),
        "transactions": kinds.get("transaction", 0), "schema_changes": kinds.get("schema", 0),
        "rows": dict(sorted((k, dict(sorted(v.items()))) for k, v in per_table.items())),
        "parquet_files": sum(len(r["files"]) for r in results),
        "range_seconds": [r["seconds"] for r in sorted(results, key=lambda r: r["index"])],
        "seconds": {"prescan": round(t1 - t0, 3), "history": round(t2 - t1, 3), "decode_write": round(t3 - t2, 3),
                    "summary": round(time.monotonic() - t3, 3), "total": round(time.monotonic() - t0, 3)},
    }
    if typed:
        summary["typed"] = _typed_summary(results)
    history.save(os.path.join(out, "history.jsonl.tmp"))
    os.replace(os.path.join(out, "history.jsonl.tmp"), os.path.join(out, "history.jsonl"))
    _write_text(os.path.join(out, "summary.json"), json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return summary


def _typed_summary(results: list) -> dict:
    """The tasks' typed-dataset counts added up: rows per table version (db.table@version),
    skipped rows per table, nulled and absent values per db.table.column, files."""
    rows: dict = {}
    out: dict = {"skipped": {}, "nulled": {}, "absent": {}}
    files = 0
    for res in results:
        t = res["typed"]
        for (db, table, version), n in t["rows"]:
            k = f"{utf8_text(db)}.{utf8_text(table)}@{version}"
            rows[k] = rows.get(k, 0) + n
        for part in ("skipped", "nulled", "absent"):
            for k, n in t[part].items():
                k = utf8_text(k)
                out[part][k] = out[part].get(k, 0) + n
        files += len(t["files"])
    return {"rows": dict(sorted(rows.items())), "row_count": sum(rows.values()), "parquet_files": files,
            **{k: dict(sorted(v.items())) for k, v in out.items()}}


class DriverPrescan:
    """Pre-scans made by the driver while its embedded local JVM starts (:func:`run_args`): the
    JVM takes ~1.5 s to start, the driver waits for it meanwhile, and with a local master the
    files are on the driver's own disk. A thread pre-scans them in log order (the same
    :func:`ranges.prescan` as stage 1's tasks) until :meth:`take`, when the JVM is up; stage 1
    then pre-scans only the files not done yet, in parallel as before (all of them with a large
    input: months of archives take longer than a JVM's start). An error is kept and raised by
    :func:`run`, which names it as stage 1 would."""

    def __init__(self, inputs, options, range_size: int):
        self._stop = threading.Event()
        self.done: dict = {}
        self._thread = threading.Thread(target=self._scan, args=(list(inputs), options_kw(options), range_size),
                                        name="mysqlddl-prescan", daemon=True)
        self._thread.start()

    def _scan(self, inputs, okw: dict, range_size: int) -> None:
        try:
            files = ranges.input_files(inputs)
        except Exception:               # (run() resolves the inputs again and raises it)
            return
        options, gap = options_from(okw), ranges.cut_gap(range_size)
        for f in files:
            if self._stop.is_set():
                return
            try:
                self.done[f] = ranges.prescan(f, options, min_gap=gap)
            except Exception as e:
                self.done[f] = e
                return

    def take(self) -> dict:
        """Stops after the file in progress: {path: FileScan, or the error its pre-scan met}."""
        self._stop.set()
        self._thread.join()
        return dict(self.done)


def _warm_workers(sc, slots: int) -> None:
    """One task per slot, all at once (each in a worker of its own): see :func:`run`. A failure
    here is left for stage 2 to meet and report."""
    try:
        sc.parallelize(range(slots), slots).map(warm_worker).collect()
    except Exception:
        pass


def _preload() -> None:
    """Import in a thread, while the main thread waits for the JVM to start (a subprocess), what
    the driver imports once it is up: pyspark.testing.utils, which
    pyspark's py4j input converter for numpy arrays imports on the first call into the JVM (and
    with it pandas and pyarrow: ~0.5 s here). A failed import is left for the main thread to meet."""
    def load():
        for name in ("pyspark.testing.utils",):
            try:
                importlib.import_module(name)
            except Exception:
                pass

    threading.Thread(target=load, name="mysqlddl-preload", daemon=True).start()


def run_args(args: argparse.Namespace, *, schema: str | None, options) -> int:
    """The ``spark`` subcommand (mysqlddl.cli.spark), given its arguments and the baseline's text
    and the options read and set exactly as ``mysqlddl changes`` does (JSON columns as text,
    checksums, DDL error policy), so the two outputs agree. Exit codes as ``changes``: 1 a
    positioned input error, 3 a TABLE_MAP that does not match the table version in force."""
    # numpy (pyarrow imports it) loads OpenBLAS, which starts a thread per further CPU that
    # spin-waits for work: 0.06-0.09 s more CPU to import and ~0.04 s spinning after, here, in a
    # driver that only builds index arrays with numpy. pyspark's workers already run with
    # OMP_NUM_THREADS set to their task's cores, which OpenBLAS also obeys; the driver has neither.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        # pyspark (optional): the job's one hard requirement, checked before any work
        import pyspark  # noqa: F401
    except ImportError:
        raise ConfigError("pyspark is not installed: pip install 'mysqlddl[spark]'") from None
    _preload()
    early = DriverPrescan(args.inputs, options, args.range_size) if embedded_local(args.master) else None
    sc = context(args.master, log_level=args.log_level, cds=True)
    try:
        summary = run(sc, args.inputs, args.out, options=options, schema=schema,
                      schema_database=args.schema_database, schema_position=args.schema_position,
                      range_size=args.range_size, name=args.name, on_mismatch=args.on_mismatch,
                      include_query=args.include_query, truncate_events=args.truncate_events,
                      pk_change=args.pk_change, prescanned=early, typed=args.typed)
    except SchemaMismatchError as e:
        print(f"mysqlddl spark: {e}", file=sys.stderr)
        print("mysqlddl spark: give the schema in force before the first event with --schema, or "
              "--on-mismatch flag to decode such rows by the TABLE_MAP alone", file=sys.stderr)
        return 3
    finally:
        archive = stop(sc, exiting=True)
    if archive:
        print(f"mysqlddl spark: wrote the JVM's class-data archive {archive} (later runs start from it)",
              file=sys.stderr)
    print(f"{summary['dml_rows']} row changes, {summary['transactions']} transactions, "
          f"{summary['schema_changes']} schema changes from {summary['files']} files "
          f"({summary['ranges']} ranges) in {summary['seconds']['total']} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    # `python -m mysqlddl.spark.job ARGS` or spark-submit of this file: `mysqlddl spark ARGS`, run by
    # the installed package, so executors unpickle functions of mysqlddl.spark.job (not __main__)
    from mysqlddl.cli import main

    sys.exit(main(["spark", *sys.argv[1:]]))
