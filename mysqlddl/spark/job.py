"""Batch re-parsing of archived binlogs on Spark: schema-correct change events as Parquet.

    mysqlddl spark INPUT... --out DIR [--master URL] [--schema DDL.sql] [--range-size 64M]
    python -m mysqlddl.spark.job INPUT... --out DIR ...
    spark-submit --master URL $(python -c 'import mysqlddl.spark.job as m; print(m.__file__)') INPUT... --out DIR

The only module that imports pyspark (lazily: importing this module, as the CLI does, loads
no Spark; its arguments are mysqlddl.cli.spark's). The stages (DESIGN, "Key decisions: Spark"; the pure parts are in
:mod:`mysqlddl.spark.ranges`):

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
import json
import os
import re
import shutil
import socket
import sys
import time

from ..sinks.parquet import utf8_text

_MARK, _MARK_END = "MYSQLDDL_TASK_ERROR", "END_MYSQLDDL_TASK_ERROR"
#: Spark local property (tests): "1" makes each decode task's first attempt fail after publishing
#: all its files (the retry must overwrite them, not add to them).
FAIL_FIRST_ATTEMPT = "mysqlddl.test.fail_first_attempt"
_ERROR_ATTRS = ("file", "log_pos", "event_type", "table", "column", "offset", "needed", "available", "line",
                "statement", "statement_index", "source")


# ------------------------------------------------------------------------------- task errors


def _error_data(e: BaseException) -> dict:
    attrs = {k: getattr(e, k) for k in _ERROR_ATTRS if isinstance(getattr(e, k, None), (str, int))}
    return {"type": type(e).__name__, "message": getattr(e, "message", str(e)), "attrs": attrs,
            "text": str(e)}


def _task_error(e: BaseException) -> RuntimeError:
    """What a task raises for a mysqlddl error: its type and fields as one JSON line between
    markers, which survive Spark's wrapping (Py4J, PythonException) into the driver's exception
    text and are rebuilt there by :func:`typed_error`."""
    return RuntimeError(f"{_MARK}{json.dumps(_error_data(e), ensure_ascii=True)}{_MARK_END}")


def typed_error(exc: BaseException):
    """The mysqlddl error a failed Spark job carries in its text (the first failed task's), or None."""
    from .. import errors

    m = re.search(re.escape(_MARK) + r"(\{.*?\})" + re.escape(_MARK_END), str(exc))
    if not m:
        return None
    data = json.loads(m.group(1))
    cls = getattr(errors, data["type"], None)
    if isinstance(cls, type) and issubclass(cls, errors.MysqlddlError):
        try:
            err = cls(data["message"], **data["attrs"])
            if str(err) == data["text"]:
                return err
        except TypeError:
            pass
    err = errors.MysqlddlError(data["text"])
    err.kind = data["type"]
    return err


# ------------------------------------------------------------------------------------- tasks


def _options_kw(options) -> dict:
    """The options that differ from the defaults: what tasks rebuild theirs from (a pickled
    Options would tie the workers to the driver's exact class layout)."""
    import dataclasses

    from ..options import DEFAULT

    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(DEFAULT, f.name)}


def _options(kw: dict):
    from ..options import Options

    return Options(**kw)


def _prescan_task(path: str, options, min_gap: int):
    from ..errors import MysqlddlError
    from . import ranges

    _freeze_held()
    try:
        return ranges.prescan(path, _options(options), min_gap=min_gap)
    except MysqlddlError as e:
        raise _task_error(e) from None


# pyspark's daemon runs a full gc.collect() in a reused worker after each of its tasks
# (pyspark/daemon.py). A full collection walks every container object the worker holds: the
# modules it imported (pyspark, pyarrow, numpy, ours: ~90k objects once a range was decoded) and
# the loaded history; ~30-60 ms a task here, as much as Spark's own cost of a task. A task starts
# right after that collection, so what is alive then is what the worker holds for good: a task
# first moves it out of the collector's reach (gc.freeze, the permanent generation). Frozen
# objects are still freed by reference counting; a replaced history is unfrozen and collected
# first, so that its reference cycles are not kept.
def _freeze_held() -> None:
    import gc

    gc.freeze()


_HISTORIES: dict = {}


def _history(text: str, digest: str, options):
    """The broadcast history, loaded once per Python worker (workers are reused across tasks)."""
    h = _HISTORIES.get(digest)
    if h is None:
        import gc
        import tempfile

        from ..history import SchemaHistory

        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as f:
            f.write(text)
        try:
            h = SchemaHistory.load(f.name, options)
        finally:
            os.unlink(f.name)
        if _HISTORIES:
            _HISTORIES.clear()
            gc.unfreeze()
            gc.collect()
        _HISTORIES[digest] = h
    return h


def _decode_ranges(ranges_, *, changes, history_bc, digest, options, reader_kw, name, include_query, tables=None):
    """mapPartitions body: each element is a byte range (index, files, start, stop, nbytes); its
    changes are written as Parquet under ``changes`` (and, with ``tables``, its row changes as
    typed datasets there); yields the range's summary."""
    from pyspark import TaskContext

    from ..changes import ChangeOptions
    from ..errors import MysqlddlError
    from ..sinks import write_records
    from ..sinks.arrow import ArrowSink
    from . import ranges

    _freeze_held()
    options = _options(options)
    tc = TaskContext.get()
    # test hook: fail each task's first attempt after it published its files (proves a retry
    # overwrites them); set by tests with SparkContext.setLocalProperty
    fail_first = tc is not None and tc.getLocalProperty(FAIL_FIRST_ATTEMPT) == "1" and tc.attemptNumber() == 0
    for index, files, start, stop, nbytes in ranges_:
        t0 = time.monotonic()
        rng = ranges.ByteRange(index, tuple(files), start, stop, nbytes)
        sink = None
        try:
            history = _history(history_bc.value, digest, options)
            sink = ArrowSink(changes, index, name=name, include_query=include_query, tables=tables, history=history)
            config = ChangeOptions(decode=options, name=name, queries=include_query, **reader_kw)
            with sink:
                write_records(ranges.read_range(rng, history, config), sink)
        except MysqlddlError as e:
            raise _task_error(e) from None
        if fail_first:
            raise RuntimeError(f"{FAIL_FIRST_ATTEMPT}: injected failure")
        res = {"index": index, "counts": list(sink.counts.items()), "files": sink.files,
               "seconds": round(time.monotonic() - t0, 3)}
        if tables is not None:
            res["typed"] = sink.typed_summary()
        yield res


# ------------------------------------------------------------------------------------ output


def envelope_of(rec: dict, *, name: str = "mysqlddl", version: str | None = None) -> dict:
    """The object ``mysqlddl changes`` prints for an output row (a dict of :data:`~mysqlddl.sinks.arrow.COLUMNS`).
    ``name`` and ``version`` are the run's (summary.json: ``name``, ``mysqlddl``)."""
    from .. import __version__

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


#: The embedded local JVM's start-up options (see :func:`_conf`).
LOCAL_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
#: The environment variable naming the directory of the embedded JVM's class-data archive
#: (:func:`context` with ``cds=True``), or "off"; default ``$XDG_CACHE_HOME/mysqlddl``.
CDS_ENV = "MYSQLDDL_SPARK_CDS"

# (temporary, final) path of the archive this process's JVM writes as it exits: :func:`stop`
# ends the JVM and publishes it
_CDS_DUMP: list[tuple[str, str]] = []


def _cds_archive(jvm_options: str) -> str | None:
    """Where the embedded JVM's class-data archive for this java, these Spark jars and these
    options lives (a dynamic CDS archive, JDK 13+, holds the classes of one JVM build from one
    class path: it is keyed by all three), or None: no cache directory, no java found, or a path
    that would need quoting in Spark's option string."""
    import hashlib

    import pyspark

    d = os.environ.get(CDS_ENV)
    if d is None:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mysqlddl")
    elif d.strip().lower() in ("", "0", "off", "no", "false"):
        return None
    d = os.path.abspath(d)
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.path.exists(java) or re.search(r"[\s'\"]", d):
        return None
    java = os.path.realpath(java)
    jars = os.path.realpath(os.path.join(os.environ.get("SPARK_HOME") or os.path.dirname(pyspark.__file__), "jars"))
    parts = [pyspark.__version__, jvm_options]
    for p in (java, os.path.join(os.path.dirname(os.path.dirname(java)), "lib", "server", "libjvm.so"), jars):
        try:
            st = os.stat(p)
            parts.append(f"{p}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append(p)
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return os.path.join(d, f"spark-jvm-{key}.jsa")


def _cds_options(archive: str) -> tuple[str, tuple[str, str] | None]:
    """The JVM options that map ``archive``, or, when there is none yet, make the JVM write it
    under a temporary name of this process as it exits (:func:`stop` publishes it); and that
    dump's (temporary, final) paths. An earlier run's leftover temporary (a JVM that exited
    without :func:`stop`) is removed once its process is gone."""
    quiet = " -Xlog:cds*=off"    # the JVM logs CDS warnings (classes it cannot archive) to stdout
    if os.path.exists(archive):
        # a damaged archive crashes the JVM as it maps it: its crash report goes next to the
        # archive, not into the user's working directory
        crash = os.path.join(os.path.dirname(archive), "hs_err_pid%p.log")
        return f"-XX:SharedArchiveFile={archive} -XX:ErrorFile={crash}{quiet}", None
    d = os.path.dirname(archive)
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):
        m = re.fullmatch(r"spark-jvm-[0-9a-f]+\.jsa\.(\d+)\.tmp", name)
        if m and not _alive(int(m.group(1))):
            try:
                os.unlink(os.path.join(d, name))
            except OSError:
                pass
    tmp = f"{archive}.{os.getpid()}.tmp"
    return f"-XX:ArchiveClassesAtExit={tmp}{quiet}", (tmp, archive)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _conf(master: str | None, app: str, *, cds: bool = False):
    """The job's SparkConf: ``master`` when given; under spark-submit (a gateway is already up) the
    one it configured; else an embedded ``local[*]``. With ``cds`` an embedded JVM also maps its
    class-data archive (or writes it); returns (conf, archive path or None, dump or None)."""
    from pyspark import SparkConf

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = SparkConf().setAppName(app)
    if master:
        conf.setMaster(master)
    elif "PYSPARK_GATEWAY_PORT" not in os.environ:
        conf.setMaster("local[*]")
    # no web UI or console progress bar for a batch CLI; partition values are names (db=007 is a
    # database named "007", not a number) when a session reads the output back
    conf.set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false") \
        .set("spark.sql.sources.partitionColumnTypeInference.enabled", "false") \
        .set("spark.executorEnv.PYTHONSAFEPATH", "1")
    # (PYTHONSAFEPATH, Python 3.11+: a worker does not put its start directory first on sys.path,
    # where a source checkout's bare package would shadow the installed one)
    if hasattr(socket, "AF_UNIX"):
        # Spark 4.1+ (SPARK-51688; ignored before): a JVM talks to its Python workers, and the
        # driver to its JVM, over Unix domain sockets instead of loopback TCP. Over TCP every
        # Python task waited ~40 ms here for the end of its input: a small write held back by
        # Nagle's algorithm until the worker's delayed ACK (a trivial task: 56 ms against 13 ms).
        # (Under spark-submit a --conf that turns it off is kept.)
        conf.setIfMissing("spark.python.unix.domain.socket.enabled", "true")
    archive = dump = None
    if _embedded_local(master):
        # An embedded JVM only schedules Python tasks and moves their summaries: its startup is
        # most of what it costs. The client compiler alone and the serial collector start it
        # ~1.3 s sooner here (-XX:TieredStopAtLevel=1: no C2 compiler threads warming up;
        # -XX:+UseSerialGC: no parallel GC threads to create). $MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS
        # replaces them (empty: none, e.g. to keep spark-defaults.conf's).
        jopts = os.environ.get("MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS", LOCAL_JVM_OPTIONS)
        # Class-data sharing (JDK 13+ dynamic archive, JEP 350): the classes Spark loads to start
        # and to run a first job, mapped from an archive the first run wrote instead of read from
        # ~280 jars and verified again: another ~1.2-1.7 s less here.
        archive = _cds_archive(jopts) if cds else None
        if archive:
            try:
                more, dump = _cds_options(archive)
                jopts = f"{jopts} {more}".strip()
            except OSError:             # a cache directory that cannot be made or listed: none
                archive = None
        if jopts:
            conf.set("spark.driver.extraJavaOptions", jopts)
    return conf, archive, dump


def context(master: str | None = None, *, log_level: str = "FATAL", app: str = "mysqlddl", cds: bool = False):
    """A SparkContext (``master`` as :func:`session`): all :func:`run` needs, as the job schedules
    Python tasks and uses no Spark SQL. The CLI runs on it: a SparkSession's start (the JVM's SQL
    session state) cost another 2.7 s here on a 7 s start.

    ``cds`` (the CLI): an embedded local JVM starts from its class-data archive in
    $MYSQLDDL_SPARK_CDS (default ``~/.cache/mysqlddl``; "off": none); the first start writes it,
    and only :func:`stop` publishes it (the JVM writes it as it exits). A damaged archive makes the
    JVM die as it starts: it is then removed and the JVM started without it."""
    from pyspark import SparkContext

    conf, archive, dump = _conf(master, app, cds=cds)
    try:
        sc = SparkContext.getOrCreate(conf)
    except Exception:
        if archive is None or dump is not None:
            raise
        try:
            os.unlink(archive)
        except FileNotFoundError:
            pass
        import warnings

        warnings.warn(f"the JVM died starting from its class-data archive {archive}: removed it, starting "
                      f"without it (the JVM's report is in {os.path.dirname(archive)})", RuntimeWarning,
                      stacklevel=2)
        sc = SparkContext.getOrCreate(_conf(master, app)[0])
    else:
        # (getOrCreate may return a context started earlier, without these options)
        if dump is not None and dump[0] in sc.getConf().get("spark.driver.extraJavaOptions", ""):
            _CDS_DUMP.append(dump)
    sc.setLogLevel(log_level)
    return sc


def stop(sc, *, exiting: bool = False) -> str | None:
    """Stop ``sc``, and end its embedded JVM when it is writing a new class-data archive (the first
    ``context(cds=True)``: the JVM writes it as it exits), then publish the archive (an atomic
    rename, only after the JVM exited cleanly: a partly written archive would crash the next JVM).
    Returns the published archive's path.

    ``exiting`` (the CLI, about to end): an embedded JVM is always ended here, and waited for,
    after stopping the context in it, instead of through pyspark's ``sc.stop()``: that waits for
    its accumulator server, whose request loop polls the JVM's connection with 1 s timeouts (0.9 s
    of a 6 s run here). That connection's end, when the JVM exits, is expected then."""
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    dump = _CDS_DUMP.pop() if _CDS_DUMP else None
    if proc is None or proc.stdin is None:
        sc.stop()
        return None                     # an archive being written is left for a later start to remove
    _end_python_workers(proc.pid)
    server = getattr(sc, "_accumulatorServer", None)
    if exiting and server is not None and getattr(sc, "_jsc", None) is not None:
        sc._jsc.stop()
        server.handle_error = lambda request, client_address: None
        # the rest of what sc.stop() does: this context is done, a later getOrCreate makes another
        sc._jsc = None
        with SparkContext._lock:
            SparkContext._active_spark_context = None
    else:
        sc.stop()
        if dump is None:
            return None
    # The gateway JVM exits at EOF on its stdin (Spark's PythonGatewayServer); a later context in
    # this process starts a new one.
    gateway = SparkContext._gateway
    SparkContext._gateway = SparkContext._jvm = None
    # py4j's threads blocked in socket calls (its server's accept, a read per Python connection)
    # are in native code, and HotSpot's exit waits up to 300 ms at its last safepoint for such
    # threads to stop (VM_Exit::wait_for_threads_in_native_to_block): shutting the gateway down
    # first ends them, and the JVM's exit took 0.07-0.09 s here instead of 0.38-0.39 s.
    try:
        gateway.shutdown()
    except Exception:                   # (a JVM that is gone already: nothing to end)
        pass
    proc.stdin.close()
    try:
        rc = proc.wait(timeout=300)
    except Exception:
        rc = None
    if dump is None:
        return None
    tmp, final = dump
    if rc == 0 and os.path.exists(tmp) and os.path.getsize(tmp) > 0:
        os.replace(tmp, final)
        return final
    if rc is not None and os.path.exists(tmp):
        os.unlink(tmp)
    return None


def _end_python_workers(jvm_pid: int, timeout: float = 2.0) -> None:
    """End the Python worker daemon of the embedded JVM ``jvm_pid`` (its child running
    ``pyspark.daemon``; Linux /proc) the way Spark ends it, SIGTERM: the daemon sends its workers
    SIGHUP, which ends them, and exits. Done before the context stops: stopping it first closes
    the idle workers' sockets and only then ends the daemon, and a worker that saw its socket end
    first reports that, and over a Unix domain socket fails to (EPIPE, where TCP took the write):
    a traceback on stderr. Waits until the daemon is gone (a zombie of the JVM's)."""
    import signal

    try:
        names = os.listdir("/proc")
    except OSError:
        return
    parent = str(jvm_pid).encode()
    for name in names:
        stat = _proc_stat(name) if name.isdigit() else None
        if stat is None or stat[1] != parent:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if b"pyspark.daemon" not in f.read():
                    continue
            os.kill(int(name), signal.SIGTERM)
        except OSError:
            continue
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            stat = _proc_stat(name)
            if stat is None or stat[0] == b"Z":
                break
            time.sleep(0.005)


def _proc_stat(pid: str) -> list[bytes] | None:
    """/proc/PID/stat's fields after the command name (state, ppid, ...), or None: no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def session(master: str | None = None, *, log_level: str = "FATAL", app: str = "mysqlddl"):
    """A SparkSession on :func:`context` (for reading the output back with Spark): ``master`` when
    given; under spark-submit (a gateway is already up) the one it configured; else an embedded
    ``local[*]``. Local workers run this interpreter."""
    from pyspark.sql import SparkSession

    context(master, log_level=log_level, app=app)
    return SparkSession.builder.getOrCreate()


def run(spark, inputs, out: str, *, options=None, schema: str | None = None, schema_database: str | None = None,
        schema_position=None, range_size: int = 64 << 20, name: str = "mysqlddl",
        on_mismatch: str = "raise", include_query: bool = False, truncate_events: bool = False,
        pk_change: str = "update", prescanned: DriverPrescan | None = None, typed: bool = False) -> dict:
    """Run the job on ``spark`` (a SparkSession or a SparkContext); returns the summary (also written
    to DIR/summary.json). ``options``: default :func:`cli_options`. Raises the typed mysqlddl error
    of a failed task. ``prescanned``: the driver's pre-scans made while the JVM started (made
    with these inputs, options and range size); stage 1 pre-scans the other files. ``typed``: also
    write the typed per-table datasets under DIR/tables (:class:`~mysqlddl.sinks.parquet.TypedSink`)."""
    import hashlib

    from pyspark import SparkContext

    from .. import __version__
    from . import ranges

    options = options or cli_options()
    sc = spark if isinstance(spark, SparkContext) else spark.sparkContext
    t0 = time.monotonic()
    files = ranges.input_files(inputs)
    os.makedirs(out, exist_ok=True)

    # stage 1: pre-scan, one task per file (not pre-scanned by the driver already)
    okw = _options_kw(options)
    done = prescanned.take() if prescanned is not None else {}
    for f in files:
        if isinstance(done.get(f), Exception):
            raise done[f]
    todo = [f for f in files if f not in done]
    if todo:
        try:
            gap = ranges.cut_gap(range_size)
            done.update(zip(todo, sc.parallelize(todo, len(todo)).map(lambda f: _prescan_task(f, okw, gap)).collect(),
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
        import threading

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
        return _decode_ranges(it, changes=changes, history_bc=bc, digest=digest, options=okw,
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


def cli_options(*, verify_checksums: bool = True, ddl_errors: str = "raise"):
    """The options ``mysqlddl changes`` decodes with (JSON columns as text), so that the two outputs
    agree: the same as mysqlddl.cli.args.change_options (tests/cli/test_spark.py checks it), built
    here as the CLI sits above this module."""
    from ..options import Options

    return Options(verify_checksums=verify_checksums, error_policy=ddl_errors, json_as="text")


def _embedded_local(master: str | None) -> bool:
    """The job will start its own local JVM (no spark-submit gateway, a local master)."""
    return (master or "local").startswith("local") and "PYSPARK_GATEWAY_PORT" not in os.environ


class DriverPrescan:
    """Pre-scans made by the driver while its embedded local JVM starts (:func:`run_args`): the
    JVM takes ~1.5 s to start, the driver waits for it meanwhile, and with a local master the
    files are on the driver's own disk. A thread pre-scans them in log order (the same
    :func:`ranges.prescan` as stage 1's tasks) until :meth:`take`, when the JVM is up; stage 1
    then pre-scans only the files not done yet, in parallel as before (all of them with a large
    input: months of archives take longer than a JVM's start). An error is kept and raised by
    :func:`run`, which names it as stage 1 would."""

    def __init__(self, inputs, options, range_size: int):
        import threading

        self._stop = threading.Event()
        self.done: dict = {}
        self._thread = threading.Thread(target=self._scan, args=(list(inputs), _options_kw(options), range_size),
                                        name="mysqlddl-prescan", daemon=True)
        self._thread.start()

    def _scan(self, inputs, okw: dict, range_size: int) -> None:
        from . import ranges

        try:
            files = ranges.input_files(inputs)
        except Exception:               # (run() resolves the inputs again and raises it)
            return
        options, gap = _options(okw), ranges.cut_gap(range_size)
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
        sc.parallelize(range(slots), slots).map(_warm_worker).collect()
    except Exception:
        pass


def _warm_worker(_) -> int:
    """Starts a Python worker for stage 2 while the driver builds the history: its imports (the
    decoder, pyarrow) and what it holds then kept out of the per-task collection."""
    import pyarrow.parquet  # noqa: F401

    from ..binlog import rows  # noqa: F401
    from . import ranges  # noqa: F401

    _freeze_held()
    return os.getpid()


def _preload() -> None:
    """Import in a thread, while the main thread waits for the JVM to start (a subprocess), what
    the driver imports once it is up: the job's own modules, and pyspark.testing.utils, which
    pyspark's py4j input converter for numpy arrays imports on the first call into the JVM (and
    with it pandas and pyarrow: ~0.5 s here). A failed import is left for the main thread to meet."""
    import importlib
    import threading

    def load():
        for name in ("mysqlddl.spark.ranges", "mysqlddl.history", "pyspark.testing.utils"):
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
    from ..errors import ConfigError, SchemaMismatchError
    # numpy (pyarrow imports it) loads OpenBLAS, which starts a thread per further CPU that
    # spin-waits for work: 0.06-0.09 s more CPU to import and ~0.04 s spinning after, here, in a
    # driver that only builds index arrays with numpy. pyspark's workers already run with
    # OMP_NUM_THREADS set to their task's cores, which OpenBLAS also obeys; the driver has neither.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise ConfigError("pyspark is not installed: pip install 'mysqlddl[spark]'") from None
    _preload()
    early = DriverPrescan(args.inputs, options, args.range_size) if _embedded_local(args.master) else None
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
