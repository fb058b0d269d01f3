"""Transaction bookkeeping of the join: ids, BEGIN/END marks with per-table counts, rows outside a
transaction, the GTID set executed so far, and XA: rows logged at XA PREPARE are held until the XA
COMMIT (emitted) or XA ROLLBACK (dropped), since a rolled-back XA transaction is still in the log
(ARCHITECTURE.md "Binlog facts"). A held transaction remembers where it is read again from (its
GTID event, or its XA START, with the schema history version there): a checkpoint taken while it
is prepared names the first such start (``xa_replay``), so a restart reads it again and holds its
rows again.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator

from ..binlog.events import QueryEvent, XaPrepareEvent
from ..positions import BinlogPosition
from .gtids import GtidTracker
from .options import ChangeOptions
from .places import Places
from .records import Change, ChangeStats, RowBatch, RowChange, Source, TableMapping, TransactionMark

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



@dataclasses.dataclass(slots=True)
class OpenTransaction:
    """A transaction being read: its id (the GTID, else ``file:pos`` of its start), the source
    of its start, the session's thread, whether it is an XA transaction (rows held until its
    outcome) and whether BEGIN was emitted; per-table row counts and the running total; held rows;
    ``emit``: whether the GTID filters let it through; ``start``: (position, schema history
    version) where it is read again from, None when it cannot be (a relay log's)."""

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
    start: tuple | None = None


class Transactions:
    """The transaction state of one reading: the open transaction (``current``), the XA
    transactions prepared and held (``held``: XID -> OpenTransaction), the GTID of the transaction
    being read (``gtid``, ``gtid_thread``), the statement text of its rows (``query_text``), the
    GTID set executed so far (``gtids``), and where a transaction starting now is read again from.

    ``untyped(table, n)``: told of rows emitted without a table definition; ``history_version()``:
    the schema history's record count now. ``delivered``: the end of the last transaction that
    emitted records, until the reader takes it (sets it back to None)."""

    def __init__(self, config: ChangeOptions, stats: ChangeStats, places: Places, *, untyped, history_version,
                 gtid_set: str = ""):
        self.config = config
        self.stats = stats
        self.places = places
        self._untyped = untyped
        self._history_version = history_version
        self.current: OpenTransaction | None = None
        self.held: dict[tuple, OpenTransaction] = {}
        self.gtid: str | None = None
        self.gtid_thread: int | None = None
        self.query_text: str | None = None
        self.gtids = GtidTracker(gtid_set)
        self.delivered: BinlogPosition | None = None
        self._start = None      # the event the transaction starting is read again from (GTID, XA START)
        # (once per transaction: without GTID filters every transaction is emitted, no call needed)
        filters = config.filters
        self._gtid_ok = filters.gtid_ok if filters.include_gtids is not None or filters.exclude_gtids is not None \
            else None
        self._marks = config.transactions

    # -- what the log says between transactions ---------------------------------------------------
    def gtid_event(self, ev, gtid: str, thread: int | None) -> None:
        """A GTID event: the next transaction's GTID, in the executed set from now, and where that
        transaction is read again from (the GTID event; unknown in a relay log)."""
        self.gtid, self.gtid_thread = gtid, thread
        self.gtids.add(gtid)
        self._start = ev

    def _start_at(self) -> tuple | None:
        """(position, schema history version) where the XA transaction beginning now is read again
        from: its GTID event or XA START (taken when it begins: no DDL comes between the two, so
        the version is the same; the place of an ordinary transaction is never needed)."""
        ev = self._start
        if ev is None or ev.origin is not None:
            return None         # (a relay log: its events cannot be read again by the source's position)
        name, seq = self.places.file(ev.file or "")
        return BinlogPosition(seq, ev.pos, name), self._history_version()

    def source(self, ev, *, row: int = 0, db=None, table=None, pos=None) -> Source:
        """The Source of ``ev`` in the transaction being read."""
        txn = self.current
        thread = txn.thread if txn is not None else None
        return self.places.source(ev, self.gtid, thread if thread is not None else self.gtid_thread, self.query_text,
                                  row=row, db=db, table=table, pos=pos)

    def begin(self, ev, *, xa: bool = False, thread: int | None = None) -> None:
        gtid = self.gtid
        src = self.source(ev)
        tid = gtid if gtid is not None else f"{src.file}:{src.pos}"   # (the source's, in a relay log)
        gtid_ok = self._gtid_ok
        self.current = OpenTransaction(tid, src, gtid, thread if thread is not None else self.gtid_thread, xa,
                                       False, Counter(), 0, [], gtid_ok is None or gtid_ok(gtid),
                                       self._start_at() if xa else None)

    def begin_statement(self, ev: QueryEvent) -> None:
        """A BEGIN QUERY event: a transaction starts, unless a MariaDB GTID event began it already
        (then it gives the session's thread)."""
        txn = self.current
        if txn is None or txn.began or txn.xa:
            self.begin(ev, thread=ev.thread_id)
        else:
            txn.thread = ev.thread_id

    def replay_state(self) -> tuple[bool, dict | None]:
        """(checkpointable, state) here: with XA transactions prepared and held, the place the
        first of them is read again from (``{"xa_replay": {...}}``), or not checkpointable when one
        cannot be read again (a relay log's)."""
        if not self.held:
            return True, None
        starts = [t.start for t in self.held.values()]
        if any(s is None for s in starts):
            return False, None
        first, version = min(starts, key=lambda s: s[0].key)
        return True, {"xa_replay": {"file": first.file, "file_seq": first.file_seq, "pos": first.pos,
                                    "history_version": version, "pending": len(starts)}}

    # -- ends -------------------------------------------------------------------------------------
    def _end_mark(self, txn: OpenTransaction, ev) -> TransactionMark | None:
        """The end of ``txn`` (its commit event ``ev``), when it delivered records: kept in
        :attr:`delivered`, and its END mark (when marks are asked for)."""
        if not txn.began:
            return None
        end = self.delivered = self.places.end_of(ev, txn.gtid)
        if not self._marks:
            return None
        thread = txn.thread
        # (the source of the commit event with the transaction's GTID and no statement text, built
        # once: a dataclasses.replace of source(ev) cost more than the rest of the transaction end)
        src = self.places.source(ev, txn.gtid, thread if thread is not None else self.gtid_thread, None)
        return TransactionMark("END", txn.id, src, tuple(txn.counts.items()), end)

    def commit(self, ev) -> TransactionMark | None:
        """An XID, or a COMMIT / ROLLBACK QUERY event: the transaction's END mark, if it has one."""
        txn = self.current
        self.current = None
        self.query_text = None
        self.gtid = None   # every transaction logs its own GTID event before it
        self._start = None
        if txn is None:
            return None
        self.stats.transactions += 1
        return self._end_mark(txn, ev)

    # -- rows -------------------------------------------------------------------------------------
    def emit_row(self, change: RowChange, ev) -> Iterator[Change]:
        txn = self.current
        if txn is None:
            # rows outside any transaction (non-transactional engines in old logs): a one-event
            # transaction of their own
            self.begin(ev)
            txn = self.current
        if txn.xa:
            txn.held.append(change)
            return
        if not txn.began:
            txn.began = True
            if self._marks:
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

    def batch(self, ev, m: TableMapping, op: str, src: Source) -> tuple[TransactionMark | None, RowBatch]:
        """The RowBatch of a rows event, and the BEGIN mark to go before it when it is the
        transaction's first (else None); :meth:`batch_done` does :meth:`emit_row`'s bookkeeping for
        all its rows when the consumer hands control back (it walked the rows, or the batch walks
        them). (Two calls, not a generator: once per rows event, on the reader's hot path.)"""
        txn = self.current
        if txn is None:
            # rows outside any transaction (non-transactional engines in old logs): a one-event
            # transaction of their own
            self.begin(ev)
            txn = self.current
        mark = None
        if not txn.began:
            txn.began = True
            if self._marks:
                mark = TransactionMark("BEGIN", txn.id, txn.source)
        return mark, RowBatch(ev, m, op, src, txn.id, txn.total, txn.counts[m.qualified_name])

    def batch_done(self, batch: RowBatch) -> None:
        """The bookkeeping of a RowBatch given out (:meth:`batch`): its rows counted."""
        n = batch.count
        txn = self.current
        m = batch.mapping
        table = m.qualified_name
        txn.counts[table] += n
        txn.total += n
        self.stats.rows[(table, batch.op)] += n
        if m.version is None and not m.mismatch:
            self._untyped(table, n)

    # -- XA ---------------------------------------------------------------------------------------
    def xa_prepare(self, ev: XaPrepareEvent) -> Iterator[Change]:
        txn = self.current
        self.current = None
        self.query_text = None
        self._start = None
        if txn is None:
            return
        if ev.one_phase or not txn.xa:
            # XA COMMIT ... ONE PHASE: prepared and committed at once.
            txn.xa = False
            yield from self._release(txn, ev)
            return
        self.held[(ev.format_id, bytes(ev.gtrid), bytes(ev.bqual))] = txn

    def _release(self, txn: OpenTransaction, ev) -> Iterator[Change]:
        held, txn.held = txn.held, []
        self.current = txn
        for ch in held:
            yield from self.emit_row(ch, ev)
        self.current = None
        self.stats.transactions += 1
        mark = self._end_mark(txn, ev)
        if mark is not None:
            yield mark

    def xa_statement(self, ev: QueryEvent) -> Iterator[Change]:
        """An XA QUERY event: XA START begins a transaction (read again from its GTID event, or
        from here without one), XA COMMIT / ROLLBACK resolves a held one."""
        words = ev.query.split(None, 2)
        verb = words[1].upper() if len(words) > 1 else ""
        if verb == "START":
            if self._start is None:
                self._start = ev        # (no GTID event before it)
            self.begin(ev, xa=True, thread=ev.thread_id)
            return
        if verb not in ("COMMIT", "ROLLBACK"):
            return  # XA END / XA PREPARE text (the XA_PREPARE event closes the transaction)
        xid = parse_xid(ev.query)
        txn = self.held.pop(xid, None) if xid is not None else None
        self.current = None
        if txn is None:
            # prepared before the first event read: nothing of it was seen (counted, so a reading
            # that started in the middle of an XA transaction's life says so)
            self.stats.xa_unseen += 1
            return
        if verb == "COMMIT":
            self.stats.xa_committed += 1
            txn.xa = False
            txn.id = self.gtid or txn.id
            yield from self._release(txn, ev)
        else:
            self.stats.xa_rolled_back += 1
            self.stats.xa_rows_discarded += len(txn.held)


__all__ = ["OpenTransaction", "Transactions", "parse_xid"]
