"""The PostgreSQL sink's row buffer: changes are kept per *run* (consecutive changes of one kind on
one table with one image shape) and a run is written as a whole when it ends (set-based: one COPY,
then one statement). A run ends where the next change differs in table, kind, columns or in going
row by row, where a key repeats in it (a set-based UPDATE/DELETE changes a row once), at
:data:`RUN_ROWS` rows, and before DDL or a commit (the sink calls :meth:`RunBuffer.flush`)."""

from __future__ import annotations

import dataclasses

RUN_ROWS = 50000        # rows of one run buffered before it is written


@dataclasses.dataclass
class Run:
    """Buffered changes of one kind on one table (written when the run ends)."""

    tt: object          # the TargetTable
    op: str
    cols: tuple        # the TargetColumns present
    rows: list
    keys: set
    rowwise: bool


class RunBuffer:
    """The current run; ``write(run)`` (the sink's) writes one that ended."""

    def __init__(self, write):
        self.run: Run | None = None
        self._write = write

    def flush(self) -> None:
        run, self.run = self.run, None
        if run is not None and run.rows:
            self._write(run)

    def clear(self) -> None:
        self.run = None

    def add(self, tt, op: str, cols, payload, key, rowwise: bool) -> None:
        run = self.run
        if run is not None and (run.tt is not tt or run.op != op or run.cols != cols or run.rowwise != rowwise
                                or (key is not None and key in run.keys) or len(run.rows) >= RUN_ROWS):
            self.flush()
            run = None
        if run is None:
            run = self.run = Run(tt, op, cols, [], set(), rowwise)
        run.rows.append(payload)
        if key is not None:
            run.keys.add(key)

    def add_keyed(self, tt, op: str, cols, payloads: list, keys: list, moves: list) -> None:
        """:meth:`add` of each (payload, key, rowwise) of a rows event, inline while a row joins
        the current run (a call per row saved)."""
        run = self.run
        for payload, key, mv in zip(payloads, keys, moves, strict=True):
            if (run is None or run.tt is not tt or run.op != op or run.cols != cols or run.rowwise != mv
                    or key in run.keys or len(run.rows) >= RUN_ROWS):
                self.add(tt, op, cols, payload, key, mv)
                run = self.run
            else:
                run.rows.append(payload)
                run.keys.add(key)

    def extend(self, tt, cols, rows: list) -> None:
        """Inserts of one image shape (as :meth:`add` one by one would)."""
        while rows:
            run = self.run
            if run is None or run.tt is not tt or run.op != "c" or run.cols != cols or run.rowwise:
                self.flush()
                run = self.run = Run(tt, "c", cols, [], set(), False)
            room = RUN_ROWS - len(run.rows)
            if room <= 0:
                self.flush()
                continue
            run.rows += rows[:room]
            rows = rows[room:]


__all__ = ["RUN_ROWS", "Run", "RunBuffer"]
