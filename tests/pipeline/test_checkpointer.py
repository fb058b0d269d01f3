"""The Checkpointer (pipeline/checkpointer.py) on its own: the batching rule, a Boundary that cannot
be checkpointed, the commit order (the sink durable first, or the checkpoint staged in a sink that
keeps it), the final commit with nothing pending; with a sink and a store that record calls."""

from __future__ import annotations

from types import SimpleNamespace

from mysqlddl.changes.records import Boundary
from mysqlddl.pipeline.checkpoint import Checkpoint
from mysqlddl.pipeline.checkpointer import Checkpointer
from mysqlddl.pipeline.stats import Stats
from mysqlddl.positions import BinlogPosition


class _Calls:
    """A sink and a store in one, each call noted in order."""

    def __init__(self):
        self.calls = []
        self.n = 0

    def commit(self, pos):
        self.n += 1
        self.calls.append(("sink.commit", pos.pos))
        return {"seq": self.n}

    def save(self, ckpt, history):
        self.calls.append(("store.save", ckpt.position.pos))


class _Dead:
    def ddl(self, errors):
        pass

    def sync(self):
        pass


def _checkpointer(tmp_path, *, every=2, keeps=False, checkpoint=None, fresh=False):
    config = SimpleNamespace(name="p", checkpoint=SimpleNamespace(every_transactions=every, every_ms=600_000),
                             errors=SimpleNamespace(strategy="exit"), stats=SimpleNamespace(interval_s=3600),
                             stats_path=tmp_path / "p.stats.json")
    calls = _Calls()
    cp = Checkpointer(config, calls, calls, Stats(), _Dead(), SimpleNamespace(errors=[]), identity="file:x",
                      checkpoint=checkpoint, sink_keeps=keeps, fresh=fresh, file_created=lambda name: 7)
    return cp, calls


def _b(pos, **kw):
    return Boundary(BinlogPosition(1, pos, "/some/where/bin.000001", f"0-1-{pos}"), f"0-1-{pos}", 3, 100, **kw)


def test_a_batch_is_committed_at_its_last_boundary_with_what_it_carries(tmp_path):
    cp, calls = _checkpointer(tmp_path)
    cp.boundary(_b(10))
    assert not cp.due()
    cp.boundary(_b(20, state={"xa_replay": {"pos": 4}}))
    assert cp.due()
    cp.commit()
    ck = cp.checkpoint
    assert calls.calls == [("sink.commit", 20), ("store.save", 20)] and cp.pending == 0
    assert (ck.position.file, ck.position.pos, ck.gtid_set, ck.history_version) == ("bin.000001", 20, "0-1-20", 3)
    assert ck.reader_state == {"xa_replay": {"pos": 4}} and ck.file_created == 7 and ck.sink_state == {"seq": 1}


def test_a_boundary_that_cannot_be_checkpointed_holds_the_batch_until_one_can(tmp_path):
    cp, calls = _checkpointer(tmp_path, every=1)
    cp.boundary(_b(10, checkpointable=False))
    cp.commit()
    assert calls.calls == [] and cp.pending == 1 and cp.checkpoint is None
    cp.boundary(_b(30))
    cp.commit()
    assert calls.calls == [("sink.commit", 30), ("store.save", 30)] and cp.pending == 0


def test_a_sink_that_keeps_the_checkpoint_gets_it_staged_before_its_commit(tmp_path):
    cp, calls = _checkpointer(tmp_path, keeps=True)
    cp.boundary(_b(10))
    cp.commit()
    assert calls.calls == [("store.save", 10), ("sink.commit", 10)]


def test_the_final_commit_with_nothing_pending(tmp_path):
    stored = Checkpoint("p", "file:x", BinlogPosition(1, 50, "bin.000001"), "0-1-5", 2, sink_state={"seq": 0},
                        reader_state={"xa_replay": {"pos": 4}})
    cp, calls = _checkpointer(tmp_path, checkpoint=stored)
    cp.commit(final=True)
    # the stored checkpoint again, with the sink's new state (its rotation)
    assert calls.calls == [("sink.commit", 50), ("store.save", 50)]
    assert (cp.checkpoint.gtid_set, cp.checkpoint.history_version, cp.checkpoint.reader_state) == \
        ("0-1-5", 2, {"xa_replay": {"pos": 4}})
    # a failover followed with nothing read since: the old server's checkpoint stands
    cp, calls = _checkpointer(tmp_path, checkpoint=stored, fresh=True)
    cp.commit(final=True)
    assert calls.calls == [] and cp.checkpoint is stored
