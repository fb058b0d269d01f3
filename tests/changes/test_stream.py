"""changes/stream.py: the one reading `mysqlddl changes` and a pipeline run make (over files here; over
a server, with a snapshot start, tests/pipeline/test_start_options.py compares the two)."""

from __future__ import annotations

from pathlib import Path

from mysqlddl.changes import Boundary, ChangeOptions, ChangeReader
from mysqlddl.changes.stream import Stream
from mysqlddl.history import SchemaHistory
from mysqlddl.sources import SourceOptions, open_source

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
BASELINE = (DATA / "shop-baseline.sql").read_text()


def _plain(records):
    return [(type(r).__name__, getattr(r, "op", None), getattr(getattr(r, "source", None), "pos", None),
             getattr(r, "position", None) if type(r) is Boundary else None) for r in records]


def test_a_stream_over_files_gives_the_readers_records():
    stream = Stream([SHOP], SourceOptions(), ChangeOptions())
    stream.read(schema=BASELINE)
    got = list(stream.records())
    want = list(ChangeReader(open_source([SHOP]), ChangeOptions(), schema=BASELINE))
    assert _plain(got) == _plain(want) and any(type(r) is Boundary for r in got)
    stream.close()
    stream.close()          # (idempotent)


def test_a_stream_from_a_start_with_a_history_reads_on_from_there():
    whole = Stream([SHOP], SourceOptions(), ChangeOptions())
    reader = whole.read(schema=BASELINE)
    records = list(whole.records())
    # (the shop binlog's one DDL comes before its last transactions: the whole history is the one at them)
    assert len(reader.history.records) == 1
    at = [r for r in records if type(r) is Boundary and r.delivered][-2]
    assert at.position.key > reader.history.records[0].position.key
    history = SchemaHistory.from_lines(reader.history.lines())
    resumed = Stream([SHOP], SourceOptions(), ChangeOptions())
    # (a history given: the baseline is in it, the schema argument is not applied again)
    resumed.read(schema=BASELINE, history=history, start=at.position)
    after = list(resumed.records())
    assert _plain(after) == _plain(records[records.index(at) + 1:])
