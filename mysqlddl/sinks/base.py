"""The sink interface: where change records go (DESIGN "Wave 2 shape": sources -> changes -> sinks).

A sink is used as a context manager (``open()`` on entry; on exit ``close()``, after ``abort()``
when the block raised)::

    with JsonLinesSink(path) as sink:
        write_records(reader, sink)

``write(record)`` takes every record a :class:`~mysqlddl.changes.reader.ChangeReader` yields (the
protocol of :mod:`mysqlddl.changes.records`). ``commit(position)`` is called at a transaction
boundary, after the record that closes it was written, with the position reached: after a
TransactionMark END (its ``source``: the commit event), and after a SchemaChange (its
``position``, the end of the DDL's QUERY event; a DDL is a transaction of its own, the server
commits implicitly around it: MySQL manual 15.3.3 "Statements That Cause an Implicit Commit").
A reader run without transaction marks gives no END to commit at: the rows are then made durable
only by ``close()``. What ``commit`` guarantees is the sink's to say (a stream: nothing more than
the order; a database: the transaction).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..changes.records import Record, SchemaChange, TransactionMark


class Sink:
    """Base class of the sinks (every method but :meth:`write` does nothing by default)."""

    def open(self) -> None:
        """Acquire what the sink writes to (called once, before the first write)."""

    def write(self, record: Record) -> None:
        """Take one record, in the reader's order."""
        raise NotImplementedError

    def commit(self, position) -> None:
        """Everything written so far ends a transaction at ``position`` (see the module docstring)."""

    def abort(self) -> None:
        """The run failed: what the sink can still undo since the last commit, it undoes."""

    def close(self) -> None:
        """Finish: make everything written durable and release what :meth:`open` acquired."""

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort()
        self.close()


def boundary(record: Record):
    """The position to commit at after ``record``, or None when it does not end a transaction."""
    if type(record) is TransactionMark:
        return record.source if record.status == "END" else None
    if type(record) is SchemaChange:
        return record.position
    return None


def write_records(records: Iterable[Record], sink: Sink) -> None:
    """Every record into ``sink``, committing at each transaction boundary (:func:`boundary`)."""
    write, commit = sink.write, sink.commit
    for rec in records:
        write(rec)
        t = type(rec)           # (boundary, inline: this loop runs once per record)
        if t is TransactionMark:
            if rec.status == "END":
                commit(rec.source)
        elif t is SchemaChange:
            commit(rec.position)


__all__ = ["Sink", "boundary", "write_records"]
