"""Where the change reader says transactions end (records.Boundary): after every record of each
transaction, silent ends included, with the GTID set, history version and XA replay state there;
on the shop sample binlog (tests/data: a DDL, five row transactions, an XA transaction prepared
then rolled back) and on streams built from its events by hand (a TRUNCATE, an empty transaction,
a relay log)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mysqlddl.binlog.events import QueryEvent, RowsEvent, TableMapEvent, XaPrepareEvent, XidEvent
from mysqlddl.binlog.events.types import RelayOrigin
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, Filters
from mysqlddl.changes.records import Boundary, RowChange, SchemaChange, TransactionMark
from mysqlddl.errors import CheckpointError
from mysqlddl.positions import BinlogPosition, file_seq
from mysqlddl.sources import ReplaySource, open_source

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
BASELINE = (DATA / "shop-baseline.sql").read_text(encoding="utf-8")
SEQ = file_seq(SHOP.name)

# the shop binlog's transaction ends (test_runner.py reads the same file)
XIDS = (960, 1566, 1948, 2252, 2491)
ALTER_END = 1185
XA_GTID, XA_PREPARE_END, XA_ROLLBACK_END = 2491, 2953, 3107


def _records(events=None, **options):
    schema = options.pop("schema", BASELINE)
    kw = {k: options.pop(k) for k in ("gtid_set", "deliver_from", "xa_open") if k in options}
    source = open_source([SHOP]) if events is None else ReplaySource(events, files=[SHOP])
    reader = ChangeReader(source, ChangeOptions(**options), schema=schema, **kw)
    return reader, list(reader)


def _ends(records):
    return [(r.position.pos, r.delivered, r.ddl) for r in records if type(r) is Boundary]


def test_a_boundary_follows_every_transaction_end_of_the_shop_binlog_silent_ones_included():
    reader, records = _records()
    assert _ends(records) == [(960, True, False), (ALTER_END, True, True), *[(p, True, False) for p in XIDS[1:]],
                              (XA_PREPARE_END, False, False), (XA_ROLLBACK_END, False, False)]
    # each after every record of its transaction: an END mark (at the END's own position) or the SchemaChange
    for i, r in enumerate(records):
        if type(r) is Boundary and r.delivered:
            before = records[i - 1]
            if r.ddl:
                assert type(before) is SchemaChange and before.position == r.position
            else:
                assert type(before) is TransactionMark and before.status == "END" and before.end == r.position
                assert r.position.gtid == before.end.gtid and r.position.file == SHOP.name
    bounds = [r for r in records if type(r) is Boundary]
    assert [b.gtid_set.split(",")[-1] for b in bounds] == ["0-1-5", "0-1-6", "0-1-7", "0-1-8", "0-1-9", "0-1-10",
                                                           "0-1-11", "0-1-12"]
    assert [b.history_version for b in bounds] == [0, 1, 1, 1, 1, 1, 1, 1] and len(reader.history.records) == 1
    assert all(b.ts > 0 and b.position.file_seq == SEQ for b in bounds)
    # the XA transaction prepared (its rows held): a checkpoint there names where it is read again from
    prepared = bounds[-2]
    assert prepared.checkpointable and prepared.state == {"xa_replay": {
        "file": SHOP.name, "file_seq": SEQ, "pos": XA_GTID, "history_version": 1, "pending": 1}}
    assert all(b.state is None and b.checkpointable for b in bounds if b is not prepared)


def test_without_transaction_marks_the_boundaries_are_the_same():
    _, marked = _records()
    _, bare = _records(transactions=False)
    assert not any(type(r) is TransactionMark for r in bare)
    strip = [r for r in marked if type(r) is not TransactionMark]
    assert [(type(r), getattr(r, "position", None)) for r in bare] == \
        [(type(r), getattr(r, "position", None)) for r in strip]
    assert [b for b in bare if type(b) is Boundary] == [b for b in marked if type(b) is Boundary]


def test_a_filter_that_lets_nothing_through_leaves_only_silent_boundaries():
    _, records = _records(filters=Filters(databases=("not_written",)))
    assert all(type(r) is Boundary for r in records)
    assert _ends(records) == [(p, False, False) for p in (960, ALTER_END, *XIDS[1:], XA_PREPARE_END,
                                                           XA_ROLLBACK_END)]
    assert [b.position.gtid for b in records] == [f"0-1-{n}" for n in range(5, 13)]


def test_changes_and_the_sinks_never_see_a_boundary():
    reader, records = _records()
    assert sum(type(r) is Boundary for r in records) == 8
    assert not any(type(c) is Boundary for c in ChangeReader(open_source([SHOP]), schema=BASELINE).changes())


def _events():
    return list(BinlogReader(SHOP))


def _at(events, cls, pos):
    return next(i for i, e in enumerate(events) if type(e) is cls and e.pos == pos)


def test_a_truncate_ends_after_its_op_t_changes():
    events = _events()
    i = _at(events, QueryEvent, 1047)
    events[i] = dataclasses.replace(events[i], query="TRUNCATE TABLE customers")
    _, records = _records(events, truncate_events=True, on_mismatch="flag")     # (no phone column now)
    j = next(k for k, r in enumerate(records) if type(r) is SchemaChange)
    assert [type(r) for r in records[j:j + 3]] == [SchemaChange, RowChange, Boundary]
    assert records[j + 1].op == "t" and records[j + 2].ddl and records[j + 2].position.pos == ALTER_END


def test_an_empty_transaction_and_a_statement_end_silently():
    events = _events()
    i = _at(events, QueryEvent, 1047)
    alter = events[i]

    def query(text, pos, end):
        return dataclasses.replace(alter, query=text, pos=pos, next_pos=end)

    # BEGIN ... COMMIT with nothing in it, then a statement outside any transaction
    events[i:i + 1] = [query("BEGIN", 1047, 1080), query("COMMIT", 1080, 1120), query("FLUSH TABLES", 1120, 1185)]
    _, records = _records(events, on_mismatch="flag")       # (no phone column now)
    assert _ends(records)[:3] == [(960, True, False), (1120, False, False), (1185, False, False)]


def test_a_relay_log_holds_back_the_checkpoint_while_an_xa_transaction_is_prepared():
    xa = _events()
    first = next(i for i, e in enumerate(xa) if e.pos == XA_GTID and type(e) is not XidEvent)
    prepare = _at(xa, XaPrepareEvent, 2909)
    other = next(i for i, e in enumerate(xa) if e.pos == 2252 and type(e) is not XidEvent)
    # the XA transaction prepared, then the transaction 0-1-10 read after it, then its rollback
    order = xa[:other] + xa[first:prepare + 1] + xa[other:first] + xa[prepare + 1:]

    def moved(relay: bool):
        out, maps = [], {}
        for e in order:
            e = dataclasses.replace(e, file="relay-bin.000002" if relay else e.file,
                                    origin=RelayOrigin(SHOP.name, e.pos, e.next_pos) if relay else None)
            if isinstance(e, TableMapEvent):
                maps[e.table_id] = e
            elif isinstance(e, RowsEvent) and e.table_map is not None:
                e = dataclasses.replace(e, table_map=maps[e.table_id])     # (the copy's TABLE_MAP)
            out.append(e)
        return out

    _, records = _records(moved(True))
    bounds = [r for r in records if type(r) is Boundary]
    # no silent end in a relay log (its event positions are the relay log's); the end read while
    # the XA transaction is prepared cannot be checkpointed (its start cannot be read again)
    assert [(b.position.pos, b.checkpointable) for b in bounds] == \
        [(960, True), (ALTER_END, True), (1566, True), (1948, True), (2252, True), (2491, False)]
    assert bounds[-1].position.file == SHOP.name and bounds[-1].state is None
    # the same order read from a binlog: a checkpoint there reads the XA transaction again
    _, plain = _records(moved(False))
    held = [b for b in plain if type(b) is Boundary and b.state is not None]
    assert [(b.position.pos, b.delivered) for b in held] == [(XA_PREPARE_END, False), (2491, True)]
    assert all(b.state["xa_replay"]["pos"] == XA_GTID for b in held)


def test_reading_again_from_an_xa_replay_start_delivers_nothing_before_the_checkpoint():
    _, whole = _records()
    at = BinlogPosition(SEQ, XA_PREPARE_END, SHOP.name)
    _, again = _records(deliver_from=at, xa_open=1)
    # (read from the first file's start here: what precedes the checkpoint is read, not delivered)
    assert again == [r for r in whole if type(r) is Boundary][-1:]
    assert again[0].position.pos == XA_ROLLBACK_END


def test_a_replay_that_holds_fewer_xa_transactions_than_the_checkpoint_stops():
    at = BinlogPosition(SEQ, XA_GTID, SHOP.name)       # (before the XA transaction: it was not read)
    with pytest.raises(CheckpointError, match=rf"gave 0 of the 1 XA transactions .*{XA_GTID}"):
        _records(deliver_from=at, xa_open=1)


def test_the_gtid_set_starts_from_the_one_given():
    _, records = _records(gtid_set="0-1-4,1-2-30")
    bounds = [r for r in records if type(r) is Boundary]
    assert bounds[0].gtid_set == "0-1-5,1-2-30" and bounds[-1].gtid_set == "0-1-12,1-2-30"
