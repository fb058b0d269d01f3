"""The segment sink across a failover (SegmentSink.failover): the new server's positions may sort
before the old server's, so every position the sink orders by carries the failover epoch; names
then still sort in log order and a recovery removes only what is past the checkpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mysqlddl.changes import ChangeReader
from mysqlddl.sinks.base import boundary
from mysqlddl.sinks.segments import SegmentSink
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def records():
    return list(ChangeReader(open_source(DATA / "shop-bin.000001"), schema=(DATA / "shop-baseline.sql").read_text()))


def _feed(sink, records):
    states = []
    for rec in records:
        sink.write(rec)
        pos = boundary(rec)
        if pos is not None:
            states.append(sink.commit(pos))
    return states


def _lines(d: Path) -> list[dict]:
    names = sorted(p.name for p in d.iterdir() if p.suffix == ".jsonl") + \
        sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp"))
    return [json.loads(x) for n in names for x in (d / n).read_text().splitlines()]


def _sink(d):
    sink = SegmentSink(d, segment_bytes=1500, sequence="line")
    sink.open()
    return sink


def test_positions_after_a_failover_sort_after_the_old_servers(tmp_path, records):
    old = _sink(tmp_path)
    old.recover(None)
    before = _feed(old, records)
    old.close()
    assert all(len(s["position"]) == 2 for s in before)       # (epoch 0: the state as it always was)
    # the new server: its positions are the same small numbers again (its own binlog.000001)
    new = _sink(tmp_path)
    new.recover(before[-1])
    new.failover(1)
    after = _feed(new, records)
    new.rotate()
    new.commit(boundary([r for r in records if boundary(r) is not None][-1]))
    new.close()
    assert after[0]["position"][0] == 1 and len(after[0]["position"]) == 3
    names = sorted(p.name for p in tmp_path.iterdir())
    epoch1 = [n for n in names if n.startswith("changes-e0001.")]
    assert epoch1 and names[-len(epoch1):] == epoch1 and not any(n.endswith(".tmp") for n in names)
    lines = _lines(tmp_path)
    assert [x["seq"] for x in lines] == list(range(2 * 19))    # in log order, never repeated
    # (the same records from both "servers": the same lines but for their sequence numbers)
    assert [{k: v for k, v in x.items() if k != "seq"} for x in lines[:19]] == \
        [{k: v for k, v in x.items() if k != "seq"} for x in lines[19:]]


def test_a_recovery_after_a_failover_keeps_the_old_servers_segments(tmp_path, records):
    old = _sink(tmp_path)
    old.recover(None)
    before = _feed(old, records)
    old.close()
    kept = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".tmp"))
    new = _sink(tmp_path)
    new.recover(before[-1])
    new.failover(1)
    after = _feed(new, records)
    new.close()
    # a crash: the checkpoint is the one of the first commit on the new server; everything of the
    # new server past it goes, the old server's segments stay (their positions are larger numbers)
    again = _sink(tmp_path)
    again.recover(after[0])
    again.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert all(n in names for n in kept) and len(kept) >= 2
    assert len(_lines(tmp_path)) == after[0]["seq"]
    assert again.epoch == 1
