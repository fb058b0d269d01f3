"""The reader's side of the contract with mysqlddl.binlog.rows: every rows event of the shared
fixtures hands rows.decode_rows a body range, bitmaps and a plan cached per TABLE_MAP that decode
to whole row images (the values themselves are tested in test_rows*/test_values*)."""

from __future__ import annotations

import pytest

from mysqlddl.binlog import rows as rows_mod
from mysqlddl.binlog.events import RowsEvent, TableMapEvent
from mysqlddl.binlog.reader import BinlogReader

FILES = [
    "boxercrab/bin_files/binlog.bin", "canal/binlog/mysql-bin.000001", "canal/binlog_tsdb/mysql-bin.000003",
    "go-mysql/tcb-eval002c-bin.003320", "maxwell/binlog.000004",
    "mysql-binlog-connector-java/mysql-bin.checksum-crc32", "mysql-binlog-connector-java/mysql-bin.checksum-none",
    "mysql-binlog-connector-java/mysql-bin.compressed", "mysql-binlog-connector-java/mysql-bin.sakila.gz",
    "mysql-binlog-connector-rust/mysql-bin.000057", "mysql-cdc-rs/8.0/02_query_bigger/binlog.000733",
    "zalora-binlog-parser/fixtures/mysql-bin.07", "zalora-binlog-parser/gtid-fixtures/mysql-bin.01",
    # tiflow's MariaDB 10.0.17 file is left out on purpose: its pre-10.1 TIMESTAMP(n) columns carry
    # no metadata, so their row images cannot be sized without the schema (ARCHITECTURE.md "Binlog facts").
]


def absent_where_not_present(values, bitmap, ncols):
    """A column absent from the columns-present bitmap is rows.ABSENT (not NULL), and only then."""
    assert len(values) == ncols
    for i, v in enumerate(values):
        present = bool(bitmap[i // 8] >> (i % 8) & 1)
        assert (v is rows_mod.ABSENT) == (not present)


@pytest.mark.parametrize("rel", FILES)
def test_rows_events_decode_whole_images(shared_path, rel, twin):
    plans = {}
    n_rows = 0
    for ev in BinlogReader(shared_path / "binlogs" / rel):
        if isinstance(ev, TableMapEvent):
            assert ev.column_metadata is not None and len(ev.column_metadata) == ev.column_count
        if isinstance(ev, RowsEvent):
            assert ev.table_map is not None and ev.table_map.table_id == ev.table_id
            assert ev.column_count == ev.table_map.column_count
            plan = ev.plan()
            assert plan is ev.plan()                  # cached per TABLE_MAP
            plans[id(plan)] = plan
            rows = ev.rows()
            assert rows, "a rows event holds at least one row"
            for r in rows:
                if ev.present2 is not None:
                    absent_where_not_present(r[0], ev.present1, ev.column_count)
                    absent_where_not_present(r[1], ev.present2, ev.column_count)
                else:
                    absent_where_not_present(r, ev.present1, ev.column_count)
            n_rows += len(rows)
    assert n_rows > 0 and plans
