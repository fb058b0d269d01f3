"""What differs between a binlog's records and OLR output's for the PostgreSQL sink
(mysqlddl/sinks/pg/rows.py): the table's schema, a row's place, the source time."""

from __future__ import annotations

from mysqlddl.changes.records import Source
from mysqlddl.olr.records import OracleSource
from mysqlddl.sinks.pg.rows import commit_source, source_table, source_ts, source_where


def test_by_source_kind():
    b = Source("mysql", "8.4.0", 7, "binlog.000003", 3, 120, 0, 1_700_000_000, db="shop", table="orders")
    o = OracleSource("/out/olr-1.json", 12, 400, scn=5, ts_ms=1_700_000_000_250, db="FREE", owner="APP", table="T")
    assert (source_table(b), source_table(o)) == (("shop", "orders"), ("APP", "T"))
    assert (source_where(b), source_where(o)) == ("binlog.000003:120", "/out/olr-1.json line 12")
    assert (source_ts(b), source_ts(o)) == (1_700_000_000, 1_700_000_000.25)
    assert source_ts(OracleSource("f", 1, 0)) is None
    assert commit_source(b) == ("mysql:7", 1_700_000_000) and commit_source(o) == ("olr", 1_700_000_000)
