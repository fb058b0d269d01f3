"""Transactions that deliver nothing (all their tables filtered out) still move the checkpoint,
under the batching, so a restart does not read them again: on the lab workload's binlogs
(tools/workload.py, rotated every 64 KiB) with a filter that lets no table through."""

from __future__ import annotations

import json

from mysqlddl.binlog.events import QueryEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.pipeline import Pipeline, SqliteCheckpointStore


def _files(lab_binlogs):
    return sorted(p for p in lab_binlogs.iterdir() if p.name[-1].isdigit())


def _last_end(files):
    """(file name, end) of the last event that ends a transaction or a DDL in the files."""
    last = None
    for f in files:
        for ev in BinlogReader(f):
            if isinstance(ev, XidEvent) or (isinstance(ev, QueryEvent) and ev.query.upper() not in ("BEGIN",)):
                last = (f.name, ev.next_pos)
    return last


def test_a_fully_filtered_run_checkpoints_at_the_last_transaction_end_and_a_restart_reads_nothing_again(
        lab_binlogs, tmp_path, pipeline_file, read_segments, monkeypatch):
    saves = []
    real_save = SqliteCheckpointStore.save

    def counting_save(self, checkpoint, history):
        saves.append(checkpoint.position)
        return real_save(self, checkpoint, history)

    monkeypatch.setattr(SqliteCheckpointStore, "save", counting_save)
    # the workload writes database pipelab (and pipelab_tmp): let only a database it never writes through
    p = pipeline_file(tmp_path / "p.toml", source=lab_binlogs, sink=f"jsonl://{tmp_path}/out",
                      store=tmp_path / "state.db",
                      extra='every_transactions = 10\nevery_ms = 600000\n[changes]\ndatabases = ["not_written"]\n')
    first = Pipeline(p)
    r1 = first.run(once=True)
    assert read_segments(tmp_path / "out") == ""            # nothing delivered
    read1 = first.reader.stats
    assert read1.transactions + read1.ddl > 100 and r1.stats["transactions"] == 0
    ck = r1.checkpoint
    assert ck is not None and (ck.position.file, ck.position.pos) == _last_end(_files(lab_binlogs))
    # a checkpoint every 10 silent transaction ends (the batching), not one at the end only (an XA
    # transaction prepared holds them back until its outcome)
    assert len(saves) >= (read1.transactions + read1.ddl) // 10 - 2
    assert all(a < b for a, b in zip(saves, saves[1:], strict=False))
    # the restart starts at the last transaction end: no transaction read again
    second = Pipeline(p)
    r2 = second.run(once=True)
    assert second.reader.stats.transactions == 0 and second.reader.stats.events < 10 < read1.events
    assert r2.checkpoint.position == ck.position and r2.checkpoint.gtid_set == ck.gtid_set


def test_filtered_transactions_between_delivered_ones_do_not_change_the_output(lab_binlogs, tmp_path,
                                                                                pipeline_file, read_segments,
                                                                                run_cli):
    # a table filter that drops most transactions: the pipeline's output is `mysqlddl changes`'s with
    # the same filter, though checkpoints now fall at the silent ends too (every 2 ends)
    files = _files(lab_binlogs)
    plain = run_cli("changes", *files, "--table", "pipelab.all_types", "--summary", "none")
    assert plain.returncode == 0, plain.stderr[-2000:]
    p = pipeline_file(tmp_path / "p.toml", source=lab_binlogs, sink=f"jsonl://{tmp_path}/out",
                      store=tmp_path / "state.db",
                      extra='every_transactions = 2\n[changes]\ntables = ["pipelab.all_types"]\n')
    pipe = Pipeline(p)
    r = pipe.run(once=True)
    out = read_segments(tmp_path / "out").splitlines()
    want = plain.stdout.splitlines()
    assert len(want) > 10
    assert [json.loads(x) | {"seq": 0} for x in out] == [json.loads(x) | {"seq": 0} for x in want]
    assert (r.checkpoint.position.file, r.checkpoint.position.pos) == _last_end(files)
    assert r.stats["transactions"] < pipe.reader.stats.transactions
