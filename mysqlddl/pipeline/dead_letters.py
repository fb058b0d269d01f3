"""The dead-letter file of the ``skip`` error strategy (``[errors] dead_letter``): one JSON line per
record a sink could not take, or DDL that could not be parsed or applied, with its position and
error, so that nothing skipped is skipped without a trace. Opened at the first entry (a run that
skips nothing leaves no file); made durable with each checkpoint (:meth:`DeadLetters.sync`, before
the checkpoint that passes the skipped record is written)."""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

from ..changes.records import RowBatch
from ..errors import MysqlddlError


class DeadLetters:
    """``path``: the dead-letter file (appended to); ``pipeline``: the name each entry carries;
    ``stats``: counts each entry (:meth:`~.stats.Stats.skip`)."""

    def __init__(self, path: Path, pipeline: str, stats):
        self.path = path
        self.pipeline = pipeline
        self.stats = stats
        self._file = None

    def _open(self):
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 -- closed at the end of the run
        return self._file

    def record(self, rec, error: MysqlddlError) -> None:
        """A change record the sink could not take (a rows event: its rows' bytes, base64)."""
        src = rec.source
        entry = {"time": round(time.time(), 3), "pipeline": self.pipeline, "record": type(rec).__name__,
                 "file": src.file, "pos": src.pos, "gtid": getattr(src, "gtid", None), "table": f"{src.db}.{src.table}",
                 "error": str(error), "error_type": type(error).__name__}
        if type(rec) is RowBatch:
            ev = rec.event
            entry.update(op=rec.op, event_type=ev.type_name,
                         rows_b64=base64.b64encode(bytes(ev.body[ev.rows_start:ev.rows_end])).decode("ascii"))
        self._open().write(json.dumps(entry, sort_keys=True) + "\n")
        self.stats.skip()

    def ddl(self, errors) -> None:
        """DDL the history could not parse or apply: ``(position, ddl, message)`` each."""
        f = self._open()
        for pos, ddl, message in errors:
            f.write(json.dumps({"time": round(time.time(), 3), "pipeline": self.pipeline, "record": "DDL",
                                "file": getattr(pos, "file", ""), "pos": pos.pos, "ddl": ddl, "error": message,
                                "error_type": "DdlError"}, sort_keys=True) + "\n")
            self.stats.skip()

    def sync(self) -> None:
        """Durable before the checkpoint past the entries is written."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
