"""The job's Python tasks, run in Spark's Python workers (and their errors, carried back to the
driver): the pre-scan of a file, the decode of byte ranges into Parquet through the Arrow sink,
and the worker warm-up. Each worker loads the broadcast history once and keeps what it holds out
of the per-task garbage collection (:func:`freeze_held`).

Executors unpickle these functions by reference: they must stay importable as
``mysqlddl.spark.tasks`` on every executor (the installed package). No pyspark or pyarrow at
module level: the tasks load them.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import re
import tempfile
import time

from .. import errors
from ..changes import ChangeOptions
from ..errors import MysqlddlError
from ..history import SchemaHistory
from ..options import DEFAULT, Options
from ..sinks import write_records
from ..sinks.arrow import ArrowSink
from . import ranges

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


def options_kw(options) -> dict:
    """The options that differ from the defaults: what tasks rebuild theirs from (a pickled
    Options would tie the workers to the driver's exact class layout)."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(DEFAULT, f.name)}


def options_from(kw: dict) -> Options:
    """The options :func:`options_kw` gave (in a task)."""
    return Options(**kw)


def prescan_task(path: str, options, min_gap: int):
    freeze_held()
    try:
        return ranges.prescan(path, options_from(options), min_gap=min_gap)
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
def freeze_held() -> None:
    gc.freeze()


_HISTORIES: dict = {}


def _history(text: str, digest: str, options):
    """The broadcast history, loaded once per Python worker (workers are reused across tasks)."""
    h = _HISTORIES.get(digest)
    if h is None:
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


def decode_ranges(ranges_, *, changes, history_bc, digest, options, reader_kw, name, include_query, tables=None):
    """mapPartitions body: each element is a byte range (index, files, start, stop, nbytes); its
    changes are written as Parquet under ``changes`` (and, with ``tables``, its row changes as
    typed datasets there); yields the range's summary."""
    # pyspark: loaded only in a Python worker, where Spark has it loaded already
    from pyspark import TaskContext

    freeze_held()
    options = options_from(options)
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


def warm_worker(_) -> int:
    """Starts a Python worker for stage 2 while the driver builds the history: its imports (the
    decoder, pyarrow) and what it holds then kept out of the per-task collection."""
    # pyarrow (heavy, only for the tasks): importing it here is the warm-up
    import pyarrow.parquet  # noqa: F401

    freeze_held()
    return os.getpid()

