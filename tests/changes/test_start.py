"""changes/start.py: the one rule for ``auto`` and a snapshot start's record order, without a server
(the capture itself runs against the lab MariaDB in tests/sources/server/test_snapshot*.py and
tests/pipeline/test_start_options.py)."""

from __future__ import annotations

import dataclasses

import pytest

from mysqlddl.changes import Boundary, ChangeOptions
from mysqlddl.changes.start import SnapshotStart, snapshot_mode
from mysqlddl.errors import ConfigError
from mysqlddl.positions import BinlogPosition


@pytest.mark.parametrize("mode, from_now, schema_given, want", [
    ("auto", True, False, "schema-only"),       # a stream from now with no baseline: nothing else names its columns
    ("auto", True, True, "never"),
    ("auto", False, False, "never"),
    ("initial", False, True, "initial"),
    ("never", True, False, "never"),
])
def test_auto_is_decided_by_one_rule(mode, from_now, schema_given, want):
    assert snapshot_mode(mode, from_now=from_now, schema_given=schema_given) == want


def test_a_mode_that_is_not_one_is_refused():
    with pytest.raises(ConfigError, match="snapshot is never, schema-only, initial, not 'full'"):
        SnapshotStart("full")


def test_never_takes_no_capture_and_passes_the_stream_and_baseline_through():
    start = SnapshotStart("never")
    assert start.hook(object()) is None and start.capture is None
    options = ChangeOptions()
    assert start.baseline("CREATE TABLE t (a INT);", options) == ("CREATE TABLE t (a INT);", options)
    stream = ["a", "b"]
    assert list(start.records(stream)) == stream


@dataclasses.dataclass
class _Capture:
    position: BinlogPosition
    ddl: str = "CREATE DATABASE d; USE d; CREATE TABLE t (a INT);"
    ts: int = 1700000000


def test_a_schema_only_capture_is_the_baseline_and_a_boundary_comes_before_the_stream():
    start = SnapshotStart("schema-only")
    at = BinlogPosition(7, 1234, "binlog.000007", "0-1-42")
    start.capture = _Capture(at)
    schema, options = start.baseline(None, ChangeOptions())
    assert schema == start.capture.ddl and options.schema_position == str(at)
    out = list(start.records(["stream"]))
    assert out[1:] == ["stream"]
    b = out[0]
    assert type(b) is Boundary and b.position == at and b.gtid_set == "0-1-42" and b.history_version == 0
    assert b.delivered and b.ts == 1700000000
