"""The segment sink on its own: lines with sequence numbers, segments named by positions, rotation
by size and time, and recovery to a checkpoint's state (cut, renamed back, removed)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from mysqlddl.changes import ChangeReader
from mysqlddl.changes.records import SchemaChange, TransactionMark
from mysqlddl.errors import SinkError, SinkOwnershipError
from mysqlddl.positions import BinlogPosition
from mysqlddl.sinks.base import boundary
from mysqlddl.sinks.jsonl import JsonLinesSink
from mysqlddl.sinks.segments import FORMATS, OWNER_FILE, SegmentSink, StreamSink
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"


@pytest.fixture(scope="module")
def records():
    return list(ChangeReader(open_source(SHOP), schema=(DATA / "shop-baseline.sql").read_text()))


def _feed(sink, records, *, upto=None):
    """Write records, committing at each transaction end; the states returned by commit."""
    states = []
    for rec in records[:upto]:
        sink.write(rec)
        pos = boundary(rec)
        if pos is not None:
            states.append(sink.commit(pos))
    return states


def _text(d: Path) -> str:
    names = sorted(p.name for p in d.iterdir() if p.suffix == ".jsonl") + \
        sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp"))
    return "".join((d / n).read_text() for n in names)


def test_commit_positions_are_transaction_ends(records):
    ends = [boundary(r) for r in records if boundary(r) is not None]
    assert all(isinstance(p, BinlogPosition) for p in ends)
    marks = [r for r in records if type(r) is TransactionMark and r.status == "END"]
    # the end of the XID event, not its start
    assert all(m.end.pos > m.source.pos and m.end.pos - m.source.pos == 31 for m in marks)
    ddl = [r for r in records if type(r) is SchemaChange]
    assert [boundary(r) for r in ddl] == [r.position for r in ddl]


_NAME = re.compile(r"changes-(\d+\.\d+)-(\d+\.\d+)\.seq(\d+)\.jsonl")


@pytest.mark.parametrize("sequence", ["segment", "line"])
def test_segments_are_named_by_positions_and_number_their_lines(tmp_path, records, sequence):
    sink = SegmentSink(tmp_path, segment_bytes=2000, sequence=sequence)
    sink.open()
    sink.recover(None)
    states = _feed(sink, records)
    sink.close()
    closed = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert len(closed) >= 2
    spans = [_NAME.fullmatch(n).groups() for n in closed]
    # consecutive: each segment starts where the previous one ended, its first number after the last's
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    counts = [(tmp_path / n).read_text().count("\n") for n in closed]
    assert [int(x[2]) for x in spans] == [sum(counts[:i]) for i in range(len(counts))]
    lines = [json.loads(x) for x in _text(tmp_path).splitlines()]
    assert len(lines) == 19 and states[-1]["seq"] == 19
    if sequence == "line":
        assert [x["seq"] for x in lines] == list(range(19))
    else:
        assert not any("seq" in x for x in lines)
    # the lines are the JSON Lines sink's (with "seq" first when per line)
    buf = io.BytesIO()
    with JsonLinesSink(buf, include_query=False) as plain:
        for rec in records:
            plain.write(rec)
    assert [{k: v for k, v in x.items() if k != "seq"} for x in lines] == \
        [json.loads(x) for x in buf.getvalue().splitlines()]


def test_rotation_by_time(tmp_path, records):
    sink = SegmentSink(tmp_path, segment_seconds=0)
    sink.open()
    sink.recover(None)
    _feed(sink, records)
    sink.close()
    assert not list(tmp_path.glob("*.tmp"))
    assert len(list(tmp_path.glob("*.jsonl"))) == 6          # a segment per commit


def test_recover_cuts_the_open_segment_and_removes_what_is_past_the_checkpoint(tmp_path, records):
    whole = tmp_path / "whole"
    s = SegmentSink(whole, segment_bytes=2500, sequence="line")
    s.open()
    s.recover(None)
    _feed(s, records)
    s.close()
    expected = _text(whole)

    d = tmp_path / "crash"
    s = SegmentSink(d, segment_bytes=2500, sequence="line")
    s.open()
    s.recover(None)
    states = _feed(s, records, upto=12)
    checkpoint = states[1]                 # the checkpoint lags: later commits never made it
    s._f.flush()                           # (what a crash leaves: written, not committed)
    (d / "changes-000009.000000000004.seq000000000000.jsonl.tmp").write_text("stray\n")
    s2 = SegmentSink(d, segment_bytes=2500, sequence="line")
    s2.open()
    s2.recover(checkpoint)
    assert not (d / "changes-000009.000000000004.seq000000000000.jsonl.tmp").exists()
    cut = _text(d)
    assert expected.startswith(cut) and cut.count("\n") == checkpoint["seq"]
    # going on from the checkpoint's records gives the uninterrupted output
    n = 0
    ends = 0
    for i, rec in enumerate(records):
        if boundary(rec) is not None:
            ends += 1
            if ends == 2:
                n = i + 1
                break
    _feed(s2, records[n:])
    s2.close()
    assert _text(d) == expected


def test_a_segment_renamed_after_the_checkpoint_is_opened_again(tmp_path, records):
    s = SegmentSink(tmp_path, segment_bytes=10 ** 9)
    s.open()
    s.recover(None)
    states = _feed(s, records)
    s.close()
    tmp = next(tmp_path.glob("*.tmp"))
    first, seq0 = tmp.name[len("changes-"):-len(".jsonl.tmp")].split(".seq")
    # a crash between the rename and the checkpoint commit
    tmp.rename(tmp_path / f"changes-{first}-000002.000000000004.seq{seq0}.jsonl")
    s2 = SegmentSink(tmp_path)
    s2.open()
    s2.recover(states[2])
    assert [p.name for p in tmp_path.iterdir()] == [tmp.name]
    assert tmp.read_text().count("\n") == states[2]["seq"]
    s2.close()


def test_a_missing_open_segment_is_an_error(tmp_path):
    s = SegmentSink(tmp_path)
    s.open()
    with pytest.raises(SinkError, match="missing"):
        s.recover({"seq": 3, "position": [1, 500], "segment": [1, 4], "segment_seq": 0, "length": 120})


def test_abort_takes_back_what_was_not_committed(tmp_path, records):
    s = SegmentSink(tmp_path)
    s.open()
    s.recover(None)
    states = _feed(s, records, upto=5)
    s.write(records[5])
    s.abort()
    s.close()
    assert _text(tmp_path).count("\n") == states[-1]["seq"]


def test_stream_sink_lines_and_unknown_format(tmp_path, records):
    buf = io.BytesIO()
    s = StreamSink(buf)
    s.open()
    s.recover({"seq": 100})
    _feed(s, records[:3])
    seqs = [json.loads(x)["seq"] for x in buf.getvalue().splitlines()]
    assert len(seqs) >= 3 and seqs == list(range(100, 100 + len(seqs))) and s.seq == 100 + len(seqs)
    assert "native" in FORMATS
    with pytest.raises(SinkError, match="unknown output format"):
        SegmentSink(tmp_path, format="avro")
    with pytest.raises(SinkError, match="sequence must be"):
        SegmentSink(tmp_path, sequence="row")


def test_a_segment_is_closed_by_age_across_runs(tmp_path, records):
    s = SegmentSink(tmp_path, segment_seconds=3600)
    s.open()
    s.recover(None)
    states = _feed(s, records, upto=5)
    s.close()
    assert list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob("*.jsonl"))
    state = dict(states[-1], opened=states[-1]["opened"] - 7200)     # the next run, two hours later
    s2 = SegmentSink(tmp_path, segment_seconds=3600)
    s2.open()
    s2.recover(state)
    _feed(s2, records[5:])
    s2.close()
    assert len(list(tmp_path.glob("*.jsonl"))) == 1


# ------------------------------------------------------------------------ the directory's owner (#30 item 2)

A = {"pipeline": "a", "store": "/s/a.db", "store_id": "1" * 32, "pipeline_file": "/p/a.toml"}
B = {"pipeline": "b", "store": "/s/b.db", "store_id": "2" * 32, "pipeline_file": "/p/b.toml"}


def _open_segment(tmp_path, records) -> dict:
    """A directory with an open segment, as a killed run left it: the last state."""
    sink = SegmentSink(tmp_path)
    sink.open()
    sink.recover(None)
    state = _feed(sink, records)[-1]
    sink._f.close()                 # (as a kill leaves it: no close(), the open segment stays .tmp)
    assert state["segment"] is not None and any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
    return state


def test_an_unowned_directory_with_an_open_segment_is_adopted_by_the_checkpoint_that_names_it(tmp_path, records):
    state = _open_segment(tmp_path, records)
    before = _text(tmp_path)
    with pytest.raises(SinkOwnershipError, match="no owner recorded"):
        SegmentSink(tmp_path).claim(B, None)
    with pytest.raises(SinkOwnershipError, match="no owner recorded"):
        SegmentSink(tmp_path).claim(B, {**state, "segment_seq": state["segment_seq"] + 1})
    assert _text(tmp_path) == before and not (tmp_path / OWNER_FILE).exists()
    sink = SegmentSink(tmp_path)
    sink.claim(A, state)
    sink.recover(state)
    assert _text(tmp_path) == before
    owner = json.loads((tmp_path / OWNER_FILE).read_text())
    assert {k: owner[k] for k in A} == A and owner["created"] > 0
    # the owner again, its store moved (the same store id): its own
    SegmentSink(tmp_path).claim({**A, "store": "/elsewhere/a.db"}, state)
    with pytest.raises(SinkOwnershipError, match="belongs to pipeline 'a'.*this is pipeline 'b'"):
        SegmentSink(tmp_path).claim(B, state)


def test_an_empty_directory_is_claimed_by_the_first_pipeline(tmp_path):
    SegmentSink(tmp_path).claim(A, None)
    with pytest.raises(SinkOwnershipError, match="/s/a.db"):
        SegmentSink(tmp_path).claim(B, None)
    (tmp_path / OWNER_FILE).write_text("{not json")
    with pytest.raises(SinkOwnershipError, match="cannot read the directory's owner"):
        SegmentSink(tmp_path).claim(A, None)
    assert sorted(p.name for p in tmp_path.iterdir()) == [OWNER_FILE]      # (no temporary file left)
