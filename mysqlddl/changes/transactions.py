"""Transaction bookkeeping of the join: ids, BEGIN/END marks with per-table counts, rows outside a
transaction, and XA: rows logged at XA PREPARE are held until the XA COMMIT (emitted) or XA
ROLLBACK (dropped), since a rolled-back XA transaction is still in the log (DESIGN "Binlog facts").
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator

from ..binlog.events import QueryEvent, XaPrepareEvent
from ..positions import BinlogPosition
from .records import Change, RowChange, Source, TransactionMark

_XID_HEX = re.compile(r"X'([0-9A-Fa-f]*)'\s*,\s*X'([0-9A-Fa-f]*)'\s*,\s*(\d+)")
_XID_STR = re.compile(r"'((?:[^']|'')*)'(?:\s*,\s*'((?:[^']|'')*)'(?:\s*,\s*(\d+))?)?")


def parse_xid(sql: str) -> tuple[int, bytes, bytes] | None:
    """(formatID, gtrid, bqual) of an ``XA COMMIT/ROLLBACK`` statement as the server logs it
    (``X'..',X'..',fmt``, sql/xa.cc ``XID::serialize``), or the quoted form a user wrote."""
    m = _XID_HEX.search(sql)
    if m:
        return int(m.group(3)), bytes.fromhex(m.group(1)), bytes.fromhex(m.group(2))
    m = _XID_STR.search(sql)
    if m:
        return (int(m.group(3) or 1), m.group(1).replace("''", "'").encode(),
                (m.group(2) or "").replace("''", "'").encode())
    return None



@dataclasses.dataclass
class OpenTransaction:
    """A transaction being read: its id (the GTID, else ``file:pos`` of its start), the source
    of its start, the session's thread, whether it is an XA transaction (rows held until its
    outcome) and whether BEGIN was emitted; per-table row counts and the running total; held rows;
    ``emit``: whether the GTID filters let it through."""

    id: str | None
    source: Source
    gtid: str | None
    thread: int | None = None
    xa: bool = False
    began: bool = False
    counts: Counter = dataclasses.field(default_factory=Counter)
    total: int = 0
    held: list = dataclasses.field(default_factory=list)
    emit: bool = True



class TransactionBook:
    """The transaction half of :class:`~mysqlddl.changes.reader.ChangeReader` (a base class of
    it): the methods use the reader's ``_txn``, ``_held``, ``_gtid``, ``_gtid_thread``,
    ``_query_text``, ``stats``, ``on_untyped``, ``filters``, ``transactions`` and ``_source``."""

    def _begin(self, ev, *, xa: bool = False, thread: int | None = None) -> None:
        gtid = self._gtid
        src = self._source(ev)
        tid = gtid if gtid is not None else f"{src.file}:{src.pos}"   # (the source's, in a relay log)
        self._txn = OpenTransaction(tid, src, gtid, thread=thread if thread is not None else self._gtid_thread,
                         xa=xa, emit=self.config.filters.gtid_ok(gtid))

    def _end_marks(self, txn: OpenTransaction, ev) -> Iterator[Change]:
        if txn.began and self.config.transactions:
            src = dataclasses.replace(self._source(ev), gtid=txn.gtid, query=None)
            # (inside a TRANSACTION_PAYLOAD, ev.next_pos is the payload event's end: the same place)
            end = BinlogPosition(src.file_seq, ev.next_pos, src.file, txn.gtid)
            yield TransactionMark("END", txn.id, src, tuple(txn.counts.items()), end)

    def _commit(self, ev) -> Iterator[Change]:
        txn = self._txn
        self._txn = None
        self._query_text = None
        self._gtid = None   # every transaction logs its own GTID event before it
        if txn is None:
            return
        self.stats.transactions += 1
        yield from self._end_marks(txn, ev)

    def _emit_row(self, change: RowChange, ev) -> Iterator[Change]:
        txn = self._txn
        if txn is None:
            # rows outside any transaction (non-transactional engines in old logs): a one-event
            # transaction of their own
            self._begin(ev)
            txn = self._txn
        if txn.xa:
            txn.held.append(change)
            return
        if not txn.began:
            txn.began = True
            if self.config.transactions:
                yield TransactionMark("BEGIN", txn.id, txn.source)
        table = f"{change.source.db}.{change.source.table}"
        txn.counts[table] += 1
        txn.total += 1
        self.stats.rows[(table, change.op)] += 1
        if change.table_version is None and not change.mismatch and change.op != "t":
            self._untyped(table, 1)
        # the change was built for this row and nobody holds it yet: fill its transaction fields
        # in place (dataclasses.replace per row cost more than decoding the row)
        setattr_ = object.__setattr__
        setattr_(change, "transaction", txn.id)
        setattr_(change, "total_order", txn.total)
        setattr_(change, "table_order", txn.counts[table])
        yield change

    def _untyped(self, table: str, n: int) -> None:
        """``n`` rows of ``table`` emitted without a table definition (ChangeStats.untyped)."""
        counts = self.stats.untyped
        if not counts and self.on_untyped is not None:
            self.on_untyped(table)
        counts[table] += n

    def _xa_prepare(self, ev: XaPrepareEvent) -> Iterator[Change]:
        txn = self._txn
        self._txn = None
        self._query_text = None
        if txn is None:
            return
        if ev.one_phase or not txn.xa:
            # XA COMMIT ... ONE PHASE: prepared and committed at once.
            txn.xa = False
            yield from self._release(txn, ev)
            return
        self._held[(ev.format_id, bytes(ev.gtrid), bytes(ev.bqual))] = txn

    def _release(self, txn: OpenTransaction, ev) -> Iterator[Change]:
        held, txn.held = txn.held, []
        self._txn = txn
        for ch in held:
            yield from self._emit_row(ch, ev)
        self._txn = None
        self.stats.transactions += 1
        yield from self._end_marks(txn, ev)

    def _xa_end(self, ev: QueryEvent) -> Iterator[Change]:
        words = ev.query.split(None, 2)
        verb = words[1].upper() if len(words) > 1 else ""
        if verb == "START":
            self._begin(ev, xa=True, thread=ev.thread_id)
            return
        if verb not in ("COMMIT", "ROLLBACK"):
            return  # XA END / XA PREPARE text (the XA_PREPARE event closes the transaction)
        xid = parse_xid(ev.query)
        txn = self._held.pop(xid, None) if xid is not None else None
        self._txn = None
        if txn is None:
            # prepared before the first event read: nothing of it was seen (counted, so a reading
            # that started in the middle of an XA transaction's life says so)
            self.stats.xa_unseen += 1
            return
        if verb == "COMMIT":
            self.stats.xa_committed += 1
            txn.xa = False
            txn.id = self._gtid or txn.id
            yield from self._release(txn, ev)
        else:
            self.stats.xa_rolled_back += 1
            self.stats.xa_rows_discarded += len(txn.held)


__all__ = ["OpenTransaction", "TransactionBook", "parse_xid"]
