"""The handler pipeline: transform, drop and inject events over the reader."""

from __future__ import annotations

import dataclasses

import pytest

from mysqlddl.binlog.handlers import ContentHandler, DropTypes, KeepTypes, Pipeline, run
from mysqlddl.binlog.reader import BinlogReader

FILE = "binlogs/mysql-cdc-rs/5.7/16_xid/log.bin"   # GTID:3 QUERY:3 PGTIDS:1 TM:1 W2:1 XID:1 ROTATE:1


def _types(evs):
    return [e.type_name for e in evs]


def test_keep_and_drop(shared_path):
    src = shared_path / FILE
    assert _types(run(BinlogReader(src), KeepTypes("XID", "ROTATE"))) == ["XID", "ROTATE"]
    all_types = _types(BinlogReader(src))
    dropped = _types(run(BinlogReader(src), DropTypes("GTID")))
    assert dropped == [t for t in all_types if t != "GTID"]


def test_transform_inject_and_finish(shared_path):
    class Counter(ContentHandler):
        def __init__(self):
            super().__init__()
            self.xids = 0

        def on_xid(self, ev):
            self.xids += 1
            self.inject(dataclasses.replace(ev, xid=-ev.xid))   # an extra event after this one
            return ev

        def on_query(self, ev):
            return dataclasses.replace(ev, query=ev.query.lower())

        def finish(self):
            return [self._last] if hasattr(self, "_last") else []

        def on_rotate(self, ev):
            self._last = ev
            return None          # held back, emitted at the end

    c = Counter()
    out = list(Pipeline([c, KeepTypes("XID", "QUERY", "ROTATE")]).run(BinlogReader(shared_path / FILE)))
    xids = [e.xid for e in out if e.type_name == "XID"]
    assert c.xids == 1 and xids[1] == -xids[0]
    assert all(e.query == e.query.lower() for e in out if e.type_name == "QUERY")
    assert out[-1].type_name == "ROTATE"       # finish() output still went through KeepTypes


def test_callables_and_bad_results(shared_path):
    evs = list(run(BinlogReader(shared_path / FILE), lambda e: [e, e] if e.type_name == "XID" else e))
    assert _types(evs).count("XID") == 2
    with pytest.raises(TypeError, match="must return an Event"):
        list(run(BinlogReader(shared_path / FILE), lambda e: 42))
