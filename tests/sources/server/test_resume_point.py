"""Where a server stream resumes after a lost connection (resume_point.ResumePoint.track): the start of the
open transaction, or the next event between transactions -- over the event sequences each server
writes (MySQL: GTID, BEGIN, rows, XID; GTID then a DDL; pre-GTID BEGIN ... COMMIT; rows of a
non-transactional table without BEGIN; MariaDB: GTID standing for BEGIN, standalone GTID + DDL).
The MariaDB shapes also run against a real server in test_faults.py; the MySQL ones only here."""

from __future__ import annotations

from mysqlddl.binlog.events import MariadbGtidEvent, QueryEvent, RowsEvent, TableMapEvent, XidEvent
from mysqlddl.binlog.events.types import Event
from mysqlddl.sources.server.resume_point import ResumePoint


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
