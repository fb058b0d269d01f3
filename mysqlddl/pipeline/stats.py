"""The pipeline's stats: what it delivered, counted once.

Counts are kept for the open batch and added to the totals when the batch's checkpoint is
committed, and the totals travel in the checkpoint: so a record re-read after a crash is not
counted twice, and the counts survive restarts. Per batch, three timestamps (Unix seconds): when the
source committed its last transaction (the commit event's header timestamp), when the pipeline read
that event, and when the sink's commit and the checkpoint were done; their differences are the lag.

A sink's own value-policy counts (the PostgreSQL sink's ``policy_counts``: values nulled or clamped,
per table, column, reason and action) are added the same way: what the sink counted by the time a
batch is committed, less what it had counted before, joins the totals (``value_policy``: rows
[table, column, reason, action, count]), so a batch re-read after a crash is counted once.

Rows are counted per table and op (``dml``); ``dml_rows`` is the binlog's DML, and rows of op
``r`` (an initial snapshot's reads) are ``snapshot_rows`` beside it, as ``mysqlddl changes`` counts
them. ``rows_without_schema``: the rows per table written without a table definition (no baseline,
no CREATE in the log: positional columns, values typed by the TABLE_MAP alone), as ``changes`` says.

The stats file (JSON, replaced atomically) is written every ``interval_s`` and at the end; ``mysqlddl
status`` shows it with the checkpoint.
"""

from __future__ import annotations

import collections
import json
import os
import time
from pathlib import Path

#: Batches kept in the stats file (the most recent).
RECENT_BATCHES = 20


class Stats:
    """Counters (see the module docstring). ``totals`` is JSON data (what the checkpoint stores)."""

    def __init__(self, totals: dict | None = None, sink_counts: collections.Counter | None = None):
        """``sink_counts``: the sink's live value-policy Counter ((table, column, reason, action) ->
        values), read at each commit; None for a sink without one."""
        t = totals or {}
        self.value_policy = collections.Counter({tuple(r[:4]): int(r[4]) for r in t.get("value_policy", ())})
        self._sink_counts = sink_counts
        self._sink_seen = collections.Counter(sink_counts or {})     # (counted before this run: not ours)
        self.ddl = int(t.get("ddl", 0))
        self.transactions = int(t.get("transactions", 0))
        self.batches = int(t.get("batches", 0))
        self.skipped = int(t.get("skipped", 0))
        self.retries = int(t.get("retries", 0))
        self.dml: dict[str, collections.Counter] = {k: collections.Counter(v) for k, v in t.get("dml", {}).items()}
        self.untyped = collections.Counter(t.get("rows_without_schema", {}))
        self.recent: collections.deque = collections.deque(t.get("recent", ()), maxlen=RECENT_BATCHES)
        self._reset_batch()

    def _reset_batch(self) -> None:
        self.b_ddl = 0
        self.b_txns = 0
        self.b_skipped = 0
        self.b_dml: collections.Counter = collections.Counter()     # (table, op) -> rows
        self.b_untyped: collections.Counter = collections.Counter()     # table -> rows without a definition
        self.b_source_ts = None
        self.b_read_at = None

    # -- the open batch ---------------------------------------------------------------------------
    def rows(self, table: str, op: str, n: int) -> None:
        self.b_dml[(table, op)] += n

    def rows_without_schema(self, table: str, n: int) -> None:
        self.b_untyped[table] += n

    def boundary(self, source_ts: int, ddl: bool) -> None:
        """A transaction (or a DDL) ended: its commit event's timestamp, read now."""
        if ddl:
            self.b_ddl += 1
        else:
            self.b_txns += 1
        self.b_source_ts = source_ts
        self.b_read_at = time.time()

    def skip(self) -> None:
        self.b_skipped += 1

    def discard_batch(self) -> None:
        """The open batch was not committed (an error, a retry): its counts go."""
        self._reset_batch()

    def committed(self) -> dict:
        """The open batch is committed: add it to the totals; returns the new totals."""
        now = time.time()
        self.ddl += self.b_ddl
        self.transactions += self.b_txns
        self.skipped += self.b_skipped
        for (table, op), n in self.b_dml.items():
            self.dml.setdefault(table, collections.Counter())[op] += n
        self.untyped.update(self.b_untyped)
        if self._sink_counts is not None:
            now_counts = collections.Counter(self._sink_counts)
            self.value_policy.update(now_counts - self._sink_seen)
            self._sink_seen = now_counts
        if self.b_txns or self.b_ddl:
            self.batches += 1
            self.recent.append({"transactions": self.b_txns + self.b_ddl, "source_committed": self.b_source_ts,
                                "read": round(self.b_read_at, 3) if self.b_read_at else None,
                                "sink_committed": round(now, 3)})
        self._reset_batch()
        return self.totals()

    # -- reporting --------------------------------------------------------------------------------
    def totals(self) -> dict:
        return {"ddl": self.ddl, "transactions": self.transactions, "batches": self.batches,
                "skipped": self.skipped, "retries": self.retries,
                "dml": {t: dict(sorted(c.items())) for t, c in sorted(self.dml.items())},
                "rows_without_schema": dict(sorted(self.untyped.items())),
                "recent": list(self.recent),
                "value_policy": [[*k, n] for k, n in sorted(self.value_policy.items()) if n]}

    def report(self) -> dict:
        """The totals with the derived figures (DML by operation, average batch size, lag)."""
        d = self.totals()
        by_op: collections.Counter = collections.Counter()
        for c in self.dml.values():
            by_op.update(c)
        d["dml_by_op"] = dict(sorted(by_op.items()))
        d["snapshot_rows"] = by_op.get("r", 0)
        d["dml_rows"] = sum(by_op.values()) - d["snapshot_rows"]
        d["avg_batch_size"] = round((self.transactions + self.ddl) / self.batches, 2) if self.batches else 0
        last = self.recent[-1] if self.recent else None
        if last and last["source_committed"]:
            d["lag_s"] = round(last["sink_committed"] - last["source_committed"], 3)
        return d


def write_stats_file(path: Path, data: dict) -> None:
    """Replace ``path`` with ``data`` as JSON, atomically (a reader never sees half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


__all__ = ["Stats", "write_stats_file"]
