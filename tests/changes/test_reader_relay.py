"""Change records read from a replica's relay logs equal those read from its primary's binlogs:
same rows, same schema changes, same sources (the source's binlog file and position, as a replica's
position means), the relay log's own place only in ``relay_file``/``relay_pos``. Real relay logs
from the ``relay_workload`` fixture (tests/conftest.py: tools/workload.py every phase on the
primary, then a 120-INSERT transaction replicated while the relay log rotates every 4 KiB),
MariaDB 10.11.19, GTID replication."""

from __future__ import annotations

import dataclasses

import pytest

from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange, SchemaChange, TransactionMark

pytestmark = pytest.mark.mariadb


def _records(files):
    out, relay = [], []
    reader = ChangeReader(files, ChangeOptions(transactions=True))
    for rec in reader.changes():
        src = rec.source
        relay.append((src.relay_file, src.relay_pos))
        plain = dataclasses.replace(src, relay_file=None, relay_pos=None)
        if isinstance(rec, RowChange):
            out.append(("row", rec.op, plain, rec.before, rec.after, rec.columns, rec.transaction))
        elif isinstance(rec, SchemaChange):
            out.append(("ddl", plain, rec.ddl, rec.position.key, tuple(t for _, t in rec.record.tables)))
        elif isinstance(rec, TransactionMark):
            out.append(("txn", rec.status, rec.id, plain, rec.counts))
    return out, relay, reader


def test_relay_log_records_equal_the_primary_binlog_records(relay_workload):
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    from_relay, places, reader = _records(replica.relay_log_files())
    from_binlog, binlog_places, _ = _records(replica.primary.binlog_files())
    assert len(from_relay) == len(from_binlog) > 1000
    for a, b in zip(from_relay, from_binlog, strict=True):
        assert a == b
    assert reader.stats.ddl_errors == 0 and reader.stats.mismatches == 0
    assert set(binlog_places) == {(None, None)}
    # each record's relay place holds the event its source names
    relays = {p.name: p for p in replica.relay_log_files()}
    for rec, (rfile, rpos) in list(zip(from_relay, places, strict=True))[::97]:
        assert rfile in relays
        ev = next(iter(BinlogReader(relays[rfile], start=rpos)))
        src = rec[2] if rec[0] == "row" else rec[1] if rec[0] == "ddl" else rec[3]
        # (started inside the relay file, the reader has not seen the ROTATE naming the source file)
        assert ev.pos == rpos and ev.origin.pos == src.pos and ev.origin.file in (None, src.file)


def test_transaction_across_relay_files_reads_whole(relay_workload):
    """The relay log rotated inside the transaction (its TABLE_MAPs and rows in different relay
    files): every row, in one transaction, from two or more relay files."""
    replica, _truth, gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    rows = [c for c in ChangeReader(replica.relay_log_files()).changes()
            if isinstance(c, RowChange) and c.source.table == "spanning"]
    assert [r.after["id"] for r in rows] == list(range(120))     # SPANNING_ROWS in tests/conftest.py
    assert {r.transaction for r in rows} == {gtid} and {r.op for r in rows} == {"c"}
    assert len({r.source.relay_file for r in rows}) >= 2
    assert len({r.source.file for r in rows}) == 1


def test_history_only_reading_still_names_the_source_files(relay_workload):
    """Without rows the reader skips every type but the DDL's (ROTATE included): the source's
    ROTATEs are still decoded for the file names they give, not yielded."""
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)

    def ddl(files):
        reader = ChangeReader(files, ChangeOptions(rows=False))
        return [(c.source.file, c.source.pos, c.ddl, c.position.key) for c in reader
                if isinstance(c, SchemaChange)], reader

    from_relay, reader = ddl(replica.relay_log_files())
    from_binlog, _ = ddl(replica.primary.binlog_files())
    assert from_relay == from_binlog and len(from_relay) > 30
    assert reader.reader.only_types is not None and reader.reader.relay_log
    files = {f for f, *_ in from_relay}
    assert len(files) >= 2 and all(f.startswith("mariadb-bin.") for f in files)
