"""The pipeline over OpenLogReplicator output (``olr://``): the rophy fork's prebuilt scenario outputs
(../shared/corpora/olr-json, PROVENANCE.md there) as a directory of numbered OLR files, and the
SynchDB documentation's DDL and DML messages. The segments equal `mysqlddl olr` on the same files;
a restart reads on from the checkpoint's message in the middle of a file; SIGKILL at random moments
and at the fault points gives one uninterrupted run's output; a checkpoint from another source is
refused."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mysqlddl.errors import CheckpointError, OlrJsonError, PipelineError
from mysqlddl.olr.documents import iter_documents
from mysqlddl.pipeline import Pipeline, SqliteCheckpointStore, load_config, pipeline_status, run_pipeline

PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"
SYNCHDB = "corpora/olr-json/synchdb-docs"
SCENARIOS = ["basic-crud", "interleaved-transactions", "large-transaction", "multi-table", "rollback",
             "long-spanning-txn", "special-chars", "null-handling", "rac-interleaved", "number-precision"]
DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def olr_dir(shared_path, tmp_path) -> Path:
    """The scenarios' outputs as OLR's file writer rotates them: olr-1.json, olr-2.json, ..."""
    d = tmp_path / "olr"
    d.mkdir()
    for i, sc in enumerate(SCENARIOS, 1):
        shutil.copyfile(shared_path / PREBUILT / sc / "output.json", d / f"olr-{i}.json")
    return d


def _files(d: Path) -> list[Path]:
    return [d / f"olr-{i}.json" for i in range(1, len(SCENARIOS) + 1)]


def _pipeline(where: Path, source: Path, extra: str = "", name: str = "p", unit: str = "s") -> Path:
    p = where / f"{name}.toml"
    p.write_text(f'[source]\nuri = "olr://{source}"\ntime_unit = "{unit}"\n[sink]\nuri = "jsonl://{where}/out"\n'
                 f'[checkpoint]\nuri = "sqlite://{where}/state.db"\n{extra}', encoding="utf-8")
    return p


def _plain(run_cli, *files, unit: str = "s") -> str:
    proc = run_cli("olr", "--time-unit", unit, *files, "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_the_pipeline_writes_what_mysqlddl_olr_writes_with_a_checkpoint_at_the_last_commit(
        olr_dir, tmp_path, run_cli, read_segments):
    p = _pipeline(tmp_path, olr_dir, "every_transactions = 2\n")
    r = run_pipeline(p, once=True)
    want = _plain(run_cli, *_files(olr_dir))
    assert want.count("\n") > 600
    assert read_segments(tmp_path / "out") == want
    # the checkpoint: the last file's last message (its commit), in OLR terms, and just past it
    last = list(iter_documents(_files(olr_dir)[-1]))[-1]
    assert last.value["payload"][-1]["op"] == "commit"
    ck = r.checkpoint
    pos = ck.position
    assert (pos.file, pos.file_seq, pos.message, pos.pos) == ("olr-10.json", 10, last.offset, last.end)
    assert (pos.c_scn, pos.c_idx, pos.xid) == (last.value["c_scn"], last.value["c_idx"], last.value["xid"])
    assert pos.scn is not None and ck.gtid_set == ""
    assert ck.source_id == "olr:db=?;name=olr"        # (the fork's output names no database)
    assert r.stats["transactions"] == want.count('"status":"END"') and r.stats["dml_rows"] > 500
    # status prints it; a second run reads nothing again
    proc = run_cli("status", p)
    assert proc.returncode == 0, proc.stderr
    assert f"OLR position: c_scn {pos.c_scn} c_idx {pos.c_idx} scn {pos.scn} xid {pos.xid}" in proc.stdout
    assert f"checkpoint: olr-10.json:{last.end} " in proc.stdout and "GTID set" not in proc.stdout
    again = Pipeline(p)
    r2 = again.run(once=True)
    assert again.reader.stats.documents == 0 and r2.checkpoint == ck
    assert read_segments(tmp_path / "out") == want


def test_a_restart_reads_on_from_the_checkpoint_in_the_middle_of_a_file(olr_dir, tmp_path, run_cli,
                                                                          read_segments):
    # one file holding every scenario; the first run sees it cut after a commit in its middle (OLR
    # still writing it), the second the whole file
    whole = b"".join(f.read_bytes() for f in _files(olr_dir))
    lines = whole.splitlines(keepends=True)
    commits = [i for i, line in enumerate(lines) if b'"op":"commit"' in line]
    cut = commits[len(commits) // 2] + 1
    src = tmp_path / "src"
    src.mkdir()
    out_file = src / "olr_output.json"
    out_file.write_bytes(b"".join(lines[:cut]))
    p = _pipeline(tmp_path, out_file, "every_transactions = 5\n")
    first = run_pipeline(p, once=True)
    head = b"".join(lines[:cut])
    assert first.checkpoint.position.pos == len(head) - 1          # (just past the commit, before its newline)
    out_file.write_bytes(whole)
    second = Pipeline(p)
    second.run(once=True)
    assert second.reader.stats.documents == len(lines) - cut     # only what follows the checkpoint
    assert read_segments(tmp_path / "out") == _plain(run_cli, out_file)


def test_a_ddl_is_in_the_stored_history_and_not_read_again(shared_path, tmp_path, read_segments, run_cli):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copyfile(shared_path / SYNCHDB / "ddl_payload.json", src / "olr-1.json")
    p = _pipeline(tmp_path, src, "every_transactions = 1\n", unit="ns")      # (SynchDB's format.timestamp)
    r1 = run_pipeline(p, once=True)
    assert r1.checkpoint.history_version == 1 and r1.stats["ddl"] == 1
    assert r1.checkpoint.source_id == "olr:db=FREE;name=olr"
    # the DML message OLR wrote next (its transaction not committed in these files: not delivered)
    shutil.copyfile(shared_path / SYNCHDB / "dml_payload.json", src / "olr-2.json")
    second = Pipeline(p)
    r2 = second.run(once=True)
    assert second.reader.stats.ddl == 0 and len(second.reader.history.records) == 1     # from the store
    assert r2.checkpoint == r1.checkpoint
    out = read_segments(tmp_path / "out")
    assert out.count("\n") == 1 and '"ddl":"CREATE TABLE test_table' in out
    store = SqliteCheckpointStore(tmp_path / "state.db", "p")
    assert "CREATE TABLE test_table" in store.history_lines(1)[1]
    store.close()


def test_a_checkpoint_from_another_source_is_refused(shared_path, tmp_path, pipeline_file):
    a, b = tmp_path / "a", tmp_path / "b"
    for d, sc in ((a, "basic-crud"), (b, "multi-table")):
        d.mkdir()
        shutil.copyfile(shared_path / PREBUILT / sc / "output.json", d / "output.json")
    p = _pipeline(tmp_path, a / "output.json")
    ck = run_pipeline(p, once=True).checkpoint
    # the same name and no database in either: the message at the checkpoint's offset tells them apart
    _pipeline(tmp_path, b / "output.json")
    with pytest.raises(CheckpointError, match="taken from another source") as e:
        run_pipeline(p, once=True)
    assert f"not the checkpoint's c_scn {ck.position.c_scn}" in str(e.value)
    # a binlog source's checkpoint, and an OLR source on it, and the other way round
    binlogs = tmp_path / "binlogs"
    binlogs.mkdir()
    shutil.copyfile(DATA / "shop-bin.000001", binlogs / "shop-bin.000001")
    pipeline_file(p, source=binlogs, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "state.db")
    with pytest.raises(CheckpointError, match="taken from another source"):
        run_pipeline(p, once=True)
    q = tmp_path / "q"
    q.mkdir()
    pipeline_file(q / "p.toml", source=binlogs, sink=f"jsonl://{q}/out", store=q / "state.db")
    run_pipeline(q / "p.toml", once=True)
    _pipeline(q, a / "output.json")
    with pytest.raises(CheckpointError, match="taken from another source .*a binlog position"):
        run_pipeline(q / "p.toml", once=True)


# ------------------------------------------------------------------------------------------ following

def test_a_followed_olr_output_is_read_as_olr_writes_it(olr_dir, tmp_path, run_cli, read_segments):
    """Without --once the pipeline follows OLR's output directory while it is written: the first
    file's last message arrives in two writes (the pipeline waits for the rest of it), then the next
    files appear one by one, each copied in 4 KiB writes (OLR's rotation). The batches are far
    larger than the output, so the checkpoint reaching the last commit shows the commits made while
    waiting; a stop request ends the run. Its output equals `mysqlddl olr` over the finished files."""
    files = _files(olr_dir)
    live = tmp_path / "live"
    live.mkdir()
    data = files[0].read_bytes()
    last0 = list(iter_documents(files[0]))[-1]
    (live / files[0].name).write_bytes(data[:last0.offset + 10])        # (in the middle of its last message)
    p = _pipeline(tmp_path, live, "every_transactions = 100000\nevery_ms = 600000\n")
    pipe = Pipeline(p)
    outcome: dict = {}

    def run():
        try:
            outcome["result"] = pipe.run()
        except Exception as e:      # noqa: BLE001 -- checked below
            outcome["error"] = e

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    try:
        time.sleep(1.0)
        with open(live / files[0].name, "ab") as f:
            f.write(data[last0.offset + 10:])
        for src in files[1:]:
            with open(live / src.name, "wb") as f:
                body = src.read_bytes()
                for i in range(0, len(body), 4096):
                    f.write(body[i:i + 4096])
                    f.flush()
            time.sleep(0.05)
        last = list(iter_documents(files[-1]))[-1]
        deadline = time.monotonic() + 60
        ck = None
        while time.monotonic() < deadline and "error" not in outcome:
            try:
                ck = pipeline_status(p)["checkpoint"]
            except CheckpointError:
                ck = None
            if ck is not None and (ck["file"], ck["pos"]) == (files[-1].name, last.end):
                break
            time.sleep(0.2)
        assert "error" not in outcome, outcome
        assert ck is not None and (ck["file"], ck["pos"]) == (files[-1].name, last.end), ck
    finally:
        pipe.request_stop()
        runner.join(30)
    assert not runner.is_alive() and outcome["result"].stopped
    assert [(live / f.name).read_bytes() for f in files] == [f.read_bytes() for f in files]
    assert read_segments(tmp_path / "out") == _plain(run_cli, *(live / f.name for f in files))


def test_an_incomplete_message_before_the_next_file_is_an_error(olr_dir, tmp_path):
    """Followed, a file whose last message is not whole is waited for, until OLR has gone on to the
    next file: then it never will be, and the run stops with an OlrJsonError at its byte offset."""
    files = _files(olr_dir)
    live = tmp_path / "live"
    live.mkdir()
    last0 = list(iter_documents(files[0]))[-1]
    (live / files[0].name).write_bytes(files[0].read_bytes()[:last0.offset + 10])
    shutil.copyfile(files[1], live / files[1].name)
    with pytest.raises(OlrJsonError) as e:
        Pipeline(_pipeline(tmp_path, live)).run()
    assert e.value.offset == last0.offset and e.value.file.endswith(files[0].name)
    assert f"gone on to {files[1].name}" in str(e.value)


# ------------------------------------------------------------------------------------------ crashes

def _crash_pipeline(where: Path, olr_dir: Path) -> Path:
    where.mkdir()
    p = where / "p.toml"
    p.write_text(f'[source]\nuri = "olr://{olr_dir}"\ntime_unit = "s"\n[sink]\nuri = "jsonl://{where}/out"\n'
                 'segment_bytes = 20000\nsequence = "line"\n'
                 f'[checkpoint]\nuri = "sqlite://{where}/state.db"\nevery_transactions = 1\n', encoding="utf-8")
    return p


def _popen(p, env=None, once: bool = True):
    full = dict(os.environ)
    full.pop("MYSQLDDL_FAULT", None)
    full.update(env or {})
    return subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(p), "--summary", "none"] +
                            (["--once"] if once else []),
                            cwd=p.parent, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(p, env=None):
    proc = _popen(p, env)
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


@pytest.fixture
def olr_reference(olr_dir, tmp_path, read_segments):
    p = _crash_pipeline(tmp_path / "ref", olr_dir)
    t0 = time.monotonic()
    rc, err = _finish(p)
    assert rc == 0, err[-3000:]
    text = read_segments(p.parent / "out")
    assert len(list((p.parent / "out").glob("*.jsonl"))) > 5        # rotated: renames happened
    return text, time.monotonic() - t0


def _crash_loop(olr_dir, olr_reference, tmp_path, read_segments, kills: int, seed: int, follow: bool = False):
    """``kills`` runs SIGKILLed at random moments (``follow``: runs that follow the output, which
    never end on their own, killed while reading or while waiting), then one --once run to the
    end: the output equals one uninterrupted run's."""
    text, secs = olr_reference
    p = _crash_pipeline(tmp_path / "crash", olr_dir)
    rng = random.Random(seed)
    killed = 0
    for _ in range(kills):
        proc = _popen(p, once=not follow)
        time.sleep(rng.uniform(0.2, 0.2 + max(0.2, secs / kills)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        _, err = proc.communicate()
        assert proc.returncode in (0, -signal.SIGKILL), err[-3000:]
    rc, err = _finish(p)
    assert rc == 0, err[-3000:]
    assert killed >= kills // 2
    assert read_segments(p.parent / "out") == text


def test_sigkill_at_random_moments_gives_one_uninterrupted_runs_output(olr_dir, olr_reference, tmp_path,
                                                                        read_segments):
    _crash_loop(olr_dir, olr_reference, tmp_path, read_segments, kills=6, seed=7)


def test_sigkill_while_following_gives_one_uninterrupted_runs_output(olr_dir, olr_reference, tmp_path,
                                                                      read_segments):
    _crash_loop(olr_dir, olr_reference, tmp_path, read_segments, kills=4, seed=9, follow=True)


@pytest.mark.slow
def test_sigkill_at_fifty_random_moments(olr_dir, olr_reference, tmp_path, read_segments):
    _crash_loop(olr_dir, olr_reference, tmp_path, read_segments, kills=50, seed=8)


@pytest.mark.parametrize("point", ["before-rename@2", "after-rename@2", "after-sink-commit@7",
                                   "in-checkpoint-commit@5"])
def test_kill_at_a_fault_point(point, olr_dir, olr_reference, tmp_path, read_segments):
    p = _crash_pipeline(tmp_path / "fault", olr_dir)
    rc, err = _finish(p, env={"MYSQLDDL_FAULT": point})
    assert rc == -signal.SIGKILL, f"the fault point {point} was not reached: rc={rc} {err[-2000:]}"
    rc, err = _finish(p)
    assert rc == 0, err[-3000:]
    assert read_segments(p.parent / "out") == olr_reference[0]


def test_column_types_olr_sent_before_the_checkpoint_type_the_rows_after_a_restart(shared_path, tmp_path,
                                                                                      read_segments, run_cli):
    # OLR with format.schema 0x0001 sends a table's schema.columns with its first row only: SynchDB's
    # DML message (columns included) in a transaction, then a second transaction on the table whose
    # message carries no columns (as OLR writes it), each with OLR's begin/commit messages
    msg = json.loads((shared_path / SYNCHDB / "dml_payload.json").read_text())
    head = {k: msg[k] for k in ("db",)}

    def txn(xid, c_scn, scn, payload):
        return [dict(head, scn=scn, tm=msg["tm"], c_scn=c_scn, c_idx=1, xid=xid, payload=[{"op": "begin"}]),
                dict(head, c_scn=c_scn, c_idx=2, xid=xid, payload=[payload]),
                dict(head, c_scn=c_scn, c_idx=3, xid=xid, payload=[{"op": "commit"}])]

    first = msg["payload"][0]
    second = dict(first, schema={k: v for k, v in first["schema"].items() if k != "columns"},
                  after=dict(first["after"], ORDER_NUMBER=10014))
    docs = txn("0x0007.01a.000004a1", 3531691, 3531590, first) + txn("0x0007.01b.000004a2", 3531700, 3531699,
                                                                     second)
    src = tmp_path / "src"
    src.mkdir()
    out_file = src / "olr-1.json"
    out_file.write_text("".join(json.dumps(d) + "\n" for d in docs[:3]))
    p = _pipeline(tmp_path, src, "every_transactions = 1\n", unit="ns")
    r1 = run_pipeline(p, once=True)
    assert r1.checkpoint.reader_state["olr_columns"][0][:2] == ["DBZUSER", "ORDERS"]
    out_file.write_text("".join(json.dumps(d) + "\n" for d in docs))
    run_pipeline(p, once=True)
    got = read_segments(tmp_path / "out")
    assert got == _plain(run_cli, out_file, unit="ns")
    rows = [json.loads(x) for x in got.splitlines() if '"op":"c"' in x]
    assert [r["mysqlddl"]["typing"] for r in rows] == ["columns", "columns"]
    assert rows[1]["after"]["ORDER_DATE"] == "2024-01-01T00:00:00"


def test_settings_that_do_not_fit_an_olr_source_are_refused(olr_dir, tmp_path, pipeline_file):
    p = _pipeline(tmp_path, olr_dir, '[changes]\ntables = ["OLR_TEST.T"]\n')
    with pytest.raises(PipelineError, match="filters apply to binlog sources"):
        run_pipeline(p, once=True)
    p = _pipeline(tmp_path, olr_dir, "").read_text().replace("[sink]\n", '[sink]\nformat = "debezium"\n')
    (tmp_path / "d.toml").write_text(p)
    with pytest.raises(PipelineError, match="OLR change envelope"):
        run_pipeline(tmp_path / "d.toml", once=True)
    (tmp_path / "u.toml").write_text(_pipeline(tmp_path, olr_dir).read_text().replace('"s"', '"minutes"'))
    with pytest.raises(PipelineError, match="time_unit must be one of s, ms, us, ns") as e:
        load_config(tmp_path / "u.toml")
    assert e.value.setting == "source.time_unit"
    b = pipeline_file(tmp_path / "b.toml", source=tmp_path, sink=f"jsonl://{tmp_path}/o", store=tmp_path / "b.db")
    b.write_text(b.read_text().replace("[sink]", 'time_unit = "s"\n[sink]'))
    with pytest.raises(PipelineError, match="time_unit is an olr:// source's setting"):
        load_config(b)


def test_a_checkpoint_position_of_an_unknown_kind_is_refused(olr_dir, tmp_path):
    p = _pipeline(tmp_path, olr_dir)
    run_pipeline(p, once=True)
    db = sqlite3.connect(tmp_path / "state.db")
    data = json.loads(db.execute("SELECT data FROM checkpoint").fetchone()[0])
    data["position"]["kind"] = "from-the-future"
    db.execute("UPDATE checkpoint SET data = ?", (json.dumps(data),))
    db.commit()
    db.close()
    with pytest.raises(CheckpointError, match="of kind 'from-the-future', which this mysqlddl") as e:
        run_pipeline(p, once=True)
    assert e.value.path == str(tmp_path / "state.db")
