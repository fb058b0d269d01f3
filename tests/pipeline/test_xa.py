"""XA transactions and checkpoints, on the lab server (MariaDB). The reader holds an XA transaction's
rows from its XA PREPARE to its XA COMMIT; a checkpoint written in between records where the
prepared transactions start (``reader_state.xa_replay``), and a restart reads again from there,
delivering nothing before the checkpoint, so it sees their rows when their COMMIT comes. Checked:
the file cut right before the XA COMMIT then whole; an XA transaction left prepared while many
transactions pass (the checkpoint moves past it; a restart delivers nothing again; its later COMMIT
is delivered once); SIGKILL at checkpoints taken while it is prepared. Each time the output equals
one uninterrupted run over the whole file."""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import subprocess
import sys

import pytest

from mysqlddl.binlog.events import MariadbGtidEvent, QueryEvent, XaPrepareEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import PipelineError
from mysqlddl.pipeline import Pipeline, run_pipeline
from mysqlddl.pipeline.checkpoint import SqliteCheckpointStore


def _reference(tmp_path, path, pipeline_file, read_segments):
    whole = tmp_path / "whole"
    whole.mkdir()
    shutil.copyfile(path, whole / path.name)
    q = pipeline_file(tmp_path / "q.toml", source=whole, sink=f"jsonl://{tmp_path}/ref", store=tmp_path / "r.db")
    ref = run_pipeline(q, once=True)
    return read_segments(tmp_path / "ref"), ref


def _xa_start(events, gtrid: str):
    """The GTID event that starts the XA transaction ``gtrid``: MariaDB logs its prepared part as a
    GTID event (flag FL_PREPARED_XA), the rows and the XA_PREPARE event."""
    prepare = next(i for i, e in enumerate(events)
                   if isinstance(e, XaPrepareEvent) and bytes(e.gtrid) == gtrid.encode())
    return next(e for e in reversed(events[:prepare]) if isinstance(e, MariadbGtidEvent))


def test_a_checkpoint_while_an_xa_transaction_is_prepared_reads_it_again(lab_server, tmp_path, pipeline_file,
                                                                          read_segments, prepare_xa):
    srv = lab_server
    srv.execute("CREATE DATABASE IF NOT EXISTS xat", "CREATE TABLE IF NOT EXISTS xat.t (id INT PRIMARY KEY)")
    srv.flush_logs()
    a = prepare_xa(srv, "x1", "INSERT INTO xat.t VALUES (1), (2)")
    try:
        srv.execute("INSERT INTO xat.t VALUES (10)")
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'x1'")
        srv.execute("INSERT INTO xat.t VALUES (11)")
    finally:
        a.close()
    path, _ = srv.current_binlog()
    srv.flush_logs()
    events = list(BinlogReader(path))
    prepare = next(e for e in events if isinstance(e, XaPrepareEvent))
    commit = next(e for e in events if isinstance(e, QueryEvent) and e.query.upper().startswith("XA COMMIT"))
    data = path.read_bytes()

    src = tmp_path / "src"
    src.mkdir()
    (src / path.name).write_bytes(data[:commit.pos])       # up to the XA COMMIT (excluded)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "s.db",
                      extra="every_transactions = 1\n")
    first = run_pipeline(p, once=True)
    # the other transaction (id 10) ended after the PREPARE: the checkpoint is past it, and says
    # where the prepared transaction starts
    ck = first.checkpoint
    assert ck.position.pos > prepare.pos
    replay = ck.reader_state["xa_replay"]
    assert (replay["file"], replay["pos"], replay["pending"]) == (path.name, _xa_start(events, "x1").pos, 1)
    shutil.copyfile(path, src / path.name)
    run_pipeline(p, once=True)
    out = read_segments(tmp_path / "out")
    ref_text, ref = _reference(tmp_path, path, pipeline_file, read_segments)
    assert out == ref_text
    assert out.count('"table":"t"') == 4 and ref.stats["dml"]["xat.t"] == {"c": 4}


def _prepared_stretch(srv, prepare_xa, others: int):
    """XA 'x2' prepared, then ``others`` transactions committed; returns (open connection, binlog)."""
    srv.execute("CREATE DATABASE IF NOT EXISTS xat2", "CREATE TABLE IF NOT EXISTS xat2.t (id INT PRIMARY KEY)",
                "CREATE TABLE IF NOT EXISTS xat2.o (id INT PRIMARY KEY)", "DELETE FROM xat2.t", "DELETE FROM xat2.o")
    srv.flush_logs()
    a = prepare_xa(srv, "x2", "INSERT INTO xat2.t VALUES (1), (2), (3)")
    srv.execute(*(f"INSERT INTO xat2.o VALUES ({i})" for i in range(others)))
    path, _ = srv.current_binlog()
    return a, path


def test_an_xa_transaction_left_prepared_does_not_stop_the_checkpoints(lab_server, tmp_path, pipeline_file,
                                                                       read_segments, run_cli, prepare_xa):
    srv = lab_server
    a, path = _prepared_stretch(srv, prepare_xa, 30)
    try:
        src = tmp_path / "src"
        src.mkdir()
        shutil.copyfile(path, src / path.name)          # (x2 prepared, never resolved in this copy)
        p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out",
                          store=tmp_path / "s.db", extra="every_transactions = 5\n")
        first = run_pipeline(p, once=True)
        ck = first.checkpoint
        size = (src / path.name).stat().st_size
        assert ck.position.pos == size and first.stats["transactions"] == 30      # past every transaction
        assert ck.reader_state["xa_replay"]["pending"] == 1
        status = run_cli("status", p)
        assert status.returncode == 0, status.stderr
        assert "XA transactions prepared, not resolved: 1 (a restart reads again from " \
               f"{path.name}:{ck.reader_state['xa_replay']['pos']})" in status.stdout
        out1 = read_segments(tmp_path / "out")
        assert out1.count('"table":"o"') == 30 and '"table":"t"' not in out1
        # a restart reads x2 again from its start, and delivers nothing again
        again = Pipeline(p)
        r2 = again.run(once=True)
        assert read_segments(tmp_path / "out") == out1 and r2.checkpoint.position == ck.position
        assert again.reader.stats.xa_pending == 1
        # x2 committed later: delivered once, after the restart
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'x2'")
        srv.execute("INSERT INTO xat2.o VALUES (1000)")
    finally:
        a.close()
    srv.flush_logs()
    shutil.copyfile(path, src / path.name)
    r3 = run_pipeline(p, once=True)
    out = read_segments(tmp_path / "out")
    ref_text, _ = _reference(tmp_path, path, pipeline_file, read_segments)
    assert out == ref_text and out.count('"table":"t"') == 3
    assert "xa_replay" not in (r3.checkpoint.reader_state or {})


def test_a_replay_that_misses_the_prepared_transactions_stops(lab_server, tmp_path, pipeline_file, read_segments,
                                                              prepare_xa):
    """A source read again from the checkpoint's ``xa_replay`` that gives fewer prepared XA
    transactions than the checkpoint had open (the replay start moved here to the checkpoint itself,
    past x2's start: what a stream opened at the wrong place gave over a server) would release
    nothing at their COMMIT; the run stops with a PipelineError naming both positions, before
    delivering anything, and leaves the checkpoint as it was."""
    srv = lab_server
    a, path = _prepared_stretch(srv, prepare_xa, 3)
    try:
        src = tmp_path / "src"
        src.mkdir()
        shutil.copyfile(path, src / path.name)
        p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out",
                          store=tmp_path / "s.db", extra="every_transactions = 1\n")
        ck = run_pipeline(p, once=True).checkpoint
        replay = ck.reader_state["xa_replay"]
        assert replay["pending"] == 1 and replay["pos"] < ck.position.pos
        store = SqliteCheckpointStore(tmp_path / "s.db", "p")
        try:
            wrong = dict(replay, pos=ck.position.pos)
            store.save(dataclasses.replace(ck, reader_state={"xa_replay": wrong}), store.load_history(ck))
        finally:
            store.close()
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'x2'")
        srv.execute("INSERT INTO xat2.o VALUES (1000)")
    finally:
        a.close()
    srv.flush_logs()
    before = read_segments(tmp_path / "out")
    shutil.copyfile(path, src / path.name)          # (now with x2's COMMIT)
    with pytest.raises(PipelineError, match=rf"gave 0 of the 1 XA transactions .*{ck.position.pos}"):
        run_pipeline(p, once=True)
    assert read_segments(tmp_path / "out") == before and '"table":"t"' not in before
    store = SqliteCheckpointStore(tmp_path / "s.db", "p", readonly=True)
    try:
        assert store.load().position == ck.position
    finally:
        store.close()


@pytest.mark.parametrize("nth", [2, 4, 6])
def test_sigkill_after_a_checkpoint_taken_while_prepared(nth, lab_server, tmp_path, pipeline_file, read_segments,
                                                         prepare_xa):
    srv = lab_server
    a, path = _prepared_stretch(srv, prepare_xa, 8)
    try:
        with a.cursor() as ca:
            ca.execute("XA COMMIT 'x2'")
        srv.execute("INSERT INTO xat2.o VALUES (2000)")
    finally:
        a.close()
    srv.flush_logs()
    src = tmp_path / "src"
    src.mkdir()
    shutil.copyfile(path, src / path.name)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "s.db",
                      extra="every_transactions = 1\n")
    env = dict(os.environ, MYSQLDDL_FAULT=f"after-sink-commit@{nth}")
    cmd = [sys.executable, "-m", "mysqlddl", "run", str(p), "--once", "--summary", "none"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    env.pop("MYSQLDDL_FAULT")
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    ref_text, _ = _reference(tmp_path, path, pipeline_file, read_segments)
    out = read_segments(tmp_path / "out")
    assert out == ref_text and out.count('"table":"t"') == 3 and out.count('"table":"o"') == 9
