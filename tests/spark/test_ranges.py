"""mysqlddl.spark.ranges without Spark, on the lab workload's binlogs (every phase: DDL evolution, XA, a
big transaction, bulk files): the history built from the pre-scans is the sequential reader's,
and decoding the set range by range -- cut at every transaction boundary -- gives exactly the
sequential reader's events."""

from __future__ import annotations

import random
import shutil
from collections import Counter

import pytest

from mysqlddl.changes import ChangeOptions, ChangeReader
from mysqlddl.errors import ConfigError
from mysqlddl.history import SchemaHistory
from mysqlddl.sinks.jsonl import dumps, envelope
from mysqlddl.sources import open_source
from mysqlddl.spark import ranges

pytestmark = pytest.mark.mariadb


@pytest.fixture(scope="module")
def scans(lab_binlogs):
    d, _ = lab_binlogs
    return [ranges.prescan(f) for f in ranges.input_files([str(d)])]


def test_prescan_finds_the_ddl_and_boundaries(scans, lab_binlogs):
    _, truth = lab_binlogs
    assert [s.path.rsplit("/", 1)[1] for s in scans] == truth.files
    ddl = [ev for s in scans for ev in s.ddl if hasattr(ev, "query")]
    assert any(ev.query.startswith("CREATE TABLE bulk") for ev in ddl)
    for s in scans:
        offsets = [m[0] for m in s.marks]
        assert offsets == sorted(offsets) and all(4 < o < s.size for o in offsets)
    kinds = Counter(m[1] for s in scans for m in s.marks)
    # phase b: one XA committed, one rolled back -> two PREPAREs, two resolutions
    assert kinds[ranges.XA_OPEN] == 2 and kinds[ranges.XA_CLOSE] == 2
    assert kinds[ranges.CUT] > 50


def test_history_from_prescans_is_the_sequential_one(scans, lab_binlogs):
    d, _ = lab_binlogs
    seq = ChangeReader(open_source(str(d)), ChangeOptions(rows=False, transactions=False))
    for _ in seq:
        pass
    shuffled = list(scans)
    random.Random(7).shuffle(shuffled)      # the driver sorts by integer position, not arrival
    history, stats = ranges.build_history(shuffled)
    assert list(history.lines()) == list(seq.history.lines())
    assert stats.ddl == seq.stats.ddl >= 35


def test_file_order_is_numeric_not_textual(lab_binlogs, tmp_path):
    """Files named .9, .10, ... sort wrongly as text: the history must still apply DDL in log order."""
    d, truth = lab_binlogs
    for i, name in enumerate(truth.files):
        shutil.copyfile(d / name, tmp_path / f"arch.{9 + i}")
    files = ranges.input_files([str(tmp_path)])
    assert [f.rsplit(".", 1)[1] for f in files] == [str(9 + i) for i in range(len(truth.files))]
    scans = sorted((ranges.prescan(f) for f in files), key=lambda s: s.path)     # textual: .10 < .9
    assert scans[-1].path.endswith(".9")
    history, _ = ranges.build_history(scans)
    seq = ChangeReader(open_source(files), ChangeOptions(rows=False, transactions=False))
    for _ in seq:
        pass
    assert list(history.lines()) == list(seq.history.lines())


def test_same_sequence_number_twice_is_refused(lab_binlogs, tmp_path):
    d, truth = lab_binlogs
    (tmp_path / "a").mkdir()
    shutil.copyfile(d / truth.files[0], tmp_path / "a" / "x.000001")
    shutil.copyfile(d / truth.files[1], tmp_path / "y.000001")
    with pytest.raises(ConfigError, match="same sequence number"):
        ranges.input_files([str(tmp_path / "a" / "x.000001"), str(tmp_path / "y.000001")])


def test_ranges_tile_the_set(scans):
    total = sum(s.size for s in scans)
    for size in (1, 4096, 300_000, 10 << 20, 1 << 40):
        rs = ranges.cut_ranges(scans, size)
        assert sum(r.nbytes for r in rs) == total
        assert [r.index for r in rs] == list(range(len(rs)))
        for a, b in zip(rs, rs[1:], strict=False):
            # each range starts exactly where the previous one stopped
            if a.stop is None:
                assert b.start is None and ranges.ordered(scans)[[s.path for s in ranges.ordered(scans)]
                                                                  .index(a.files[-1]) + 1].path == b.files[0]
            else:
                assert (a.files[-1], a.stop) == (b.files[0], b.start)
    assert len(ranges.cut_ranges(scans, 1 << 40)) == 1
    with pytest.raises(ConfigError):
        ranges.cut_ranges(scans, 0)


def test_no_cut_inside_a_prepared_xa(scans):
    points = set(ranges.cut_points(scans))
    order = ranges.ordered(scans)
    for i, s in enumerate(order):
        opened = {m[2]: m[0] for m in s.marks if m[1] == ranges.XA_OPEN}
        for off, kind, xid in s.marks:
            if kind == ranges.XA_CLOSE and xid in opened:
                inside = [p for p in points if p[0] == i and opened[xid] < p[1] < off]
                assert not inside, (s.path, opened[xid], off, inside)
                assert any(m[0] > opened[xid] and m[0] < off and m[1] == ranges.CUT for m in s.marks), \
                    "the workload commits other transactions between PREPARE and COMMIT"


@pytest.mark.parametrize("size", [1, 200_000])
def test_ranges_decode_to_the_sequential_events(scans, lab_binlogs, tmp_path, size):
    d, _ = lab_binlogs
    seq = [dumps(envelope(c)) for c in ChangeReader(open_source(str(d))).changes()]
    history, _ = ranges.build_history(scans)
    history.save(tmp_path / "h.jsonl")
    loaded = SchemaHistory.load(tmp_path / "h.jsonl")      # what executors get: the JSON Lines
    rs = ranges.cut_ranges(scans, size)
    assert len(rs) > len(scans)
    got = [dumps(envelope(c)) for r in rs for c in ranges.read_range(r, loaded).changes()]
    assert Counter(got) == Counter(seq)
    assert len(got) == len(seq)


def test_min_gap_thins_cut_marks_only(scans, lab_binlogs, tmp_path):
    d, _ = lab_binlogs
    gap = 100_000
    thin = [ranges.prescan(s.path, min_gap=gap) for s in scans]
    for full, t in zip(scans, thin, strict=True):
        cuts = [m[0] for m in t.marks if m[1] == ranges.CUT]
        assert set(cuts) <= {m[0] for m in full.marks if m[1] == ranges.CUT}
        assert all(b - a >= gap for a, b in zip([0, *cuts], cuts, strict=False))
        assert [m for m in t.marks if m[1] != ranges.CUT] == [m for m in full.marks if m[1] != ranges.CUT]
        assert t.ddl == full.ddl
    assert sum(len(t.marks) for t in thin) < sum(len(s.marks) for s in scans)
    seq = Counter(dumps(envelope(c)) for c in ChangeReader(open_source(str(d))).changes())
    history, _ = ranges.build_history(thin)
    got = Counter(dumps(envelope(c)) for r in ranges.cut_ranges(thin, gap)
                  for c in ranges.read_range(r, history).changes())
    assert got == seq


_NO_PARSER_PROBE = """
import sys
from mysqlddl.spark import ranges
from mysqlddl.history import SchemaHistory
history = SchemaHistory.load(sys.argv[1])
scans = [ranges.prescan(f) for f in ranges.input_files([sys.argv[2]])]
kinds = [type(c).__name__ for r in ranges.cut_ranges(scans, 1 << 30) for c in ranges.read_range(r, history).changes()]
parser = ("mysqlddl.ddl", "antlr4", "generated")
print(kinds.count("SchemaChange"), sorted(m for m in sys.modules if m.startswith(parser)))
"""


def test_a_range_reader_on_a_built_history_never_loads_the_ddl_parser(scans, lab_binlogs, tmp_path):
    """A decode task (a fresh Python worker) reads its DDL's effect from the broadcast history:
    importing the parser and loading its ATN (~0.3 s a worker) for the DDL it meets would be waste."""
    import subprocess
    import sys

    d, _ = lab_binlogs
    history, _ = ranges.build_history(scans)
    history.save(tmp_path / "h.jsonl")
    # (from a neutral directory: the installed package, not the checkout's bare sources)
    proc = subprocess.run([sys.executable, "-c", _NO_PARSER_PROBE, str(tmp_path / "h.jsonl"), str(d)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout.split(" ", 1)
    assert int(out[0]) > 10, "the set's DDL must be met for this to say anything"
    assert out[1].strip() == "[]"
