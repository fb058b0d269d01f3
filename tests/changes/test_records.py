"""The record protocol (mysqlddl.changes.records): a RowBatch stands for exactly the RowChanges
its changes() gives, and the transaction counts and stats are the same whoever walks its rows."""

from __future__ import annotations

from pathlib import Path

from mysqlddl.changes import Boundary, ChangeOptions, ChangeReader, RowBatch, RowChange, TransactionMark, iter_changes
from mysqlddl.options import Options
from mysqlddl.sinks import JsonLinesSink, Sink, boundary, write_records
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA / "shop-bin.000001"


def _reader(**kw):
    return ChangeReader(open_source(SAMPLE), ChangeOptions(decode=Options(json_as="text"), **kw),
                        schema=(DATA / "shop-baseline.sql").read_text())


def test_batches_stand_for_their_rows():
    walked = _reader()
    records = list(walked)                  # nobody walks a batch: the reader counts it itself
    batches = [r for r in records if isinstance(r, RowBatch)]
    assert batches and all(b.counted for b in batches)
    per_row = list(_reader().changes())
    assert [c for c in iter_changes(records)] == per_row
    assert walked.stats.as_dict() == _reader_stats()
    for b in batches:
        rows = list(b)
        assert len(rows) == b.count and rows[0].source == b.source
        assert [r.total_order for r in rows] == list(range(b.total0 + 1, b.total0 + b.count + 1))
        assert [r.table_order for r in rows] == list(range(b.table0 + 1, b.table0 + b.count + 1))
        assert {r.transaction for r in rows} == {b.transaction}


def _reader_stats():
    r = _reader()
    for _ in r.changes():
        pass
    return r.stats.as_dict()


def test_end_marks_count_the_batches_rows():
    records = list(_reader())
    ends = [r for r in records if isinstance(r, TransactionMark) and r.status == "END"]
    rows = [c for c in iter_changes(records) if isinstance(c, RowChange)]
    assert sum(m.event_count for m in ends) == len(rows)


def test_split_primary_key_changes_come_row_by_row():
    # (each update of a table with a primary key may become a delete and a create: row by row)
    records = list(_reader(pk_change="split"))
    assert any(isinstance(r, RowChange) and r.op == "u" for r in records)
    assert not any(isinstance(r, RowBatch) and r.op == "u" and r.mapping.pk for r in records)
    assert any(isinstance(r, RowBatch) for r in records)


class _Recorder(Sink):
    def __init__(self):
        self.log = []

    def write(self, record):
        self.log.append(type(record).__name__)

    def commit(self, position):
        self.log.append("commit")


def test_write_records_commits_at_each_boundary():
    records = list(_reader())
    sink = _Recorder()
    with sink:
        write_records(records, sink)
    # at each Boundary that delivered something: after its END mark or SchemaChange (the shop
    # binlog has no TRUNCATE, whose t changes would come between), the Boundary itself not written
    assert sink.log.count("commit") == sum(boundary(r) is not None for r in records) > 0
    assert sink.log.count("commit") == sum(type(r) is Boundary and r.delivered for r in records)
    assert "Boundary" not in sink.log
    ends = [i for i, x in enumerate(sink.log) if x == "commit"]
    assert all(sink.log[i - 1] in ("TransactionMark", "SchemaChange") for i in ends)


def test_json_lines_sink_to_a_path(tmp_path):
    with JsonLinesSink(tmp_path / "out.jsonl") as sink:
        write_records(_reader(), sink)
    assert sink.position is not None
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(lines) > 10 and all(line.startswith("{") for line in lines)
