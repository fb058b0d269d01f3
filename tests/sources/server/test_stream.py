"""Where a server stream resumes after a lost connection (stream.ResumePoint.track): the start of the
open transaction, or the next event between transactions -- over the event sequences each server
writes (MySQL: GTID, BEGIN, rows, XID; GTID then a DDL; pre-GTID BEGIN ... COMMIT; rows of a
non-transactional table without BEGIN; MariaDB: GTID standing for BEGIN, standalone GTID + DDL).
The MariaDB shapes also run against a real server in test_faults.py; the MySQL ones only here.
Then the source contract of the stream (identity, events from a checkpoint, what to decode) on the
private MariaDB of tests/sources/conftest.py."""

from __future__ import annotations

import dataclasses
import os

import pytest

from mysqlddl.binlog.events import (
    FormatDescriptionEvent,
    MariadbGtidEvent,
    QueryEvent,
    RowsEvent,
    TableMapEvent,
    XidEvent,
)
from mysqlddl.binlog.events.types import Event
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import BinlogPurgedError
from mysqlddl.positions import BinlogPosition, file_seq
from mysqlddl.sources import SourceOptions, open_source
from mysqlddl.sources.server.stream import ResumePoint


def mk(cls, **fields):
    ev = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(ev, k, v)
    return ev


GTID, QUERY, TABLE_MAP, ROWS, XID, MGTID = 33, 2, 19, 30, 16, 162


def walk(events):
    """Feed (type, event, size) in order from position 100; -> the resume point after each."""
    point = ResumePoint()
    pos, out = 100, []
    for t, ev, size in events:
        point.track(ev, t, "binlog.000007", pos, size, pos + size)
        out.append(point.resume[1])
        pos += size
    return out


def q(text):
    return mk(QueryEvent, query=text)


def test_mysql_gtid_transaction():
    seq = [(GTID, mk(Event), 10), (QUERY, q("BEGIN"), 10), (TABLE_MAP, mk(TableMapEvent), 10),
           (ROWS, mk(RowsEvent, flags=1), 10), (XID, mk(XidEvent), 10), (GTID, mk(Event), 10)]
    # inside: back to the GTID at 100; after the XID: 150; the next GTID opens at 150
    assert walk(seq) == [100, 100, 100, 100, 150, 150]


def test_mysql_gtid_ddl_is_one_statement():
    assert walk([(GTID, mk(Event), 10), (QUERY, q("CREATE TABLE t (a INT)"), 20), (GTID, mk(Event), 10)]) == [
        100, 130, 130]


def test_pre_gtid_begin_commit():
    seq = [(QUERY, q("BEGIN"), 10), (TABLE_MAP, mk(TableMapEvent), 10), (ROWS, mk(RowsEvent, flags=1), 10),
           (QUERY, q("COMMIT"), 10), (QUERY, q("DROP TABLE x"), 10)]
    assert walk(seq) == [100, 100, 100, 140, 150]


def test_rows_without_begin_end_at_stmt_end():
    seq = [(TABLE_MAP, mk(TableMapEvent), 10), (ROWS, mk(RowsEvent, flags=0), 10), (ROWS, mk(RowsEvent, flags=1), 10),
           (TABLE_MAP, mk(TableMapEvent), 10)]
    assert walk(seq) == [100, 100, 130, 130]


def test_mariadb_gtid_stands_for_begin():
    seq = [(MGTID, mk(MariadbGtidEvent, flags2=0), 10), (TABLE_MAP, mk(TableMapEvent), 10),
           (ROWS, mk(RowsEvent, flags=1), 10), (QUERY, q("INSERT INTO myisam_t VALUES (1)"), 10),
           (XID, mk(XidEvent), 10),
           (MGTID, mk(MariadbGtidEvent, flags2=1), 10), (QUERY, q("ALTER TABLE t ADD b INT"), 10)]
    # a statement inside the group does not end it; the XID does; a standalone GTID + DDL is one unit
    assert walk(seq) == [100, 100, 100, 100, 150, 150, 170]


def test_event_between_transactions_moves_the_resume_point():
    assert walk([(4, mk(Event), 40), (GTID, mk(Event), 10)]) == [140, 140]


# -- the source contract, against the private MariaDB of tests/sources/conftest.py ----------------------

def _norm(ev):
    """As tests/sources/test_server.py compares: the base name; an FDE without LOG_EVENT_BINLOG_IN_USE_F."""
    ev = dataclasses.replace(ev, file=os.path.basename(ev.file))
    if isinstance(ev, FormatDescriptionEvent):
        ev = dataclasses.replace(ev, header=dataclasses.replace(ev.header, flags=ev.header.flags & ~1))
    return ev


@pytest.mark.mariadb
def test_identity_then_events_from_a_checkpoint(live):
    live.server.flush_logs()
    want = [_norm(e) for e in BinlogReader(live.files())]
    src = open_source(live.uri(111), SourceOptions(), lazy=True)
    assert src.control is None                          # (lazy: nothing asked before the first use)
    ident, fingerprint = src.identity(None)
    assert ident == f"server:mariadb;server_id={src.settings['server_id']}" and fingerprint is None
    # a checkpoint: the end of a transaction in the middle of the binlogs
    xids = [e for e in want if isinstance(e, XidEvent)]
    end = xids[len(xids) // 2]
    ckpt = BinlogPosition.of(end.file, end.header.log_pos)
    assert src.identity(ckpt) == (ident, None)
    got = [_norm(e) for e in src.events(ckpt)]
    # the file's FDE first (resent by the server: log_pos 0), at 4 where it is in the file
    assert isinstance(got[0], FormatDescriptionEvent) and (got[0].file, got[0].pos) == (end.file, 4)
    rest = [e for e in want if ckpt.key <= (file_seq(e.file), e.pos) < src.stop.key]
    assert got[1:] == rest and len(rest) > 100
    assert src.control is None                          # (the reading ends with the source closed)


@pytest.mark.mariadb
def test_a_checkpoint_file_the_server_lacks_still_has_an_identity(live):
    with open_source(live.uri(112), SourceOptions()) as src:
        ident, _ = src.identity(None)
        gone = BinlogPosition.of("no-such-bin.000001", 1234)
        assert src.identity(gone) == (ident, None)
        with pytest.raises(BinlogPurgedError, match="no-such-bin.000001 is not among the server's binlogs"):
            src.events(gone)


@pytest.mark.mariadb
def test_events_decode_what_the_reader_asks_for(live):
    live.server.flush_logs()
    want = [_norm(e) for e in BinlogReader(live.files()) if isinstance(e, XidEvent)]
    src = open_source(live.uri(113), SourceOptions())
    got = [_norm(e) for e in src.events(only_types=("XID",))]
    # (a FORMAT_DESCRIPTION is always decoded, as the file reader does: each file's says how to read it)
    assert isinstance(got[0], FormatDescriptionEvent) and {type(e) for e in got} == {FormatDescriptionEvent, XidEvent}
    assert [e for e in got if isinstance(e, XidEvent)] == [e for e in want if (file_seq(e.file), e.pos) < src.stop.key]
