"""One run of a pipeline at a time (#30 item 3): real `mysqlddl run` processes on the shop binlog
(tests/data), a second run refused at once with the holder's PID, host and start time while the
first completes; a run killed with SIGKILL leaves nothing that blocks its restart (flock(2) locks
die with the process). The PostgreSQL target's advisory lock is tested in test_postgresql_pipeline.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mysqlddl.errors import PipelineLockedError
from mysqlddl.pipeline import SqliteCheckpointStore, run_pipeline
from mysqlddl.pipeline.lock import PipelineLock

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
BASELINE = DATA / "shop-baseline.sql"
END = 3107              # where the shop binlog's last transaction ends (test_runner.py)


@pytest.fixture
def shop(shop_pipeline):
    return shop_pipeline('[stats]\nprogress = "never"\n')


@pytest.fixture
def reference(tmp_path, run_cli):
    """The shop binlog's change stream as one `mysqlddl changes` (the lines without their seq)."""
    out = run_cli("changes", SHOP, "--schema", BASELINE, "--summary", "none").stdout
    return [json.loads(x) | {"seq": 0} for x in out.splitlines()]


def _lines(text: str) -> list:
    return [json.loads(x) | {"seq": 0} for x in text.splitlines()]


def _follow(shop: Path, tmp_path: Path) -> subprocess.Popen:
    """`mysqlddl run` (following) started, returned once its checkpoint is at the binlog's end."""
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(shop), "--summary", "json"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if (tmp_path / "state.db").exists():
            store = SqliteCheckpointStore(tmp_path / "state.db", "p", readonly=True)
            try:
                ck = store.load()
            finally:
                store.close()
            if ck is not None and ck.position.pos == END:
                return proc
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"the first run did not reach {END}: {proc.communicate()[1][-2000:]}")


def test_a_second_run_is_refused_at_once_while_the_first_completes(shop, tmp_path, run_cli, read_segments,
                                                                   reference):
    first = _follow(shop, tmp_path)
    try:
        t0 = time.monotonic()
        second = run_cli("run", shop, "--once", timeout=60)
        took = time.monotonic() - t0
        assert second.returncode == 1, second.stderr
        assert f"process {first.pid} on host {socket.gethostname()}" in second.stderr
        assert "is running already" in second.stderr and " since 20" in second.stderr
        assert "Traceback" not in second.stderr and took < 30
        # (the Python API: the same refusal, typed, with the holder's fields)
        with pytest.raises(PipelineLockedError) as e:
            run_pipeline(shop, once=True)
        assert e.value.pid == first.pid and e.value.host == socket.gethostname() and e.value.started > 0
        # (status reads the store without the lock, while the run holds it)
        status = run_cli("status", shop)
        assert status.returncode == 0 and f"checkpoint: {SHOP.name}:{END}" in status.stdout
        first.send_signal(signal.SIGTERM)
        _out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err[-3000:]
    assert json.loads(err.strip().splitlines()[-1])["stopped"] is True
    assert _lines(read_segments(tmp_path / "out")) == reference and len(reference) == 19
    # the lock is free again: a new run goes on (delivering nothing again)
    assert run_cli("run", shop, "--once").returncode == 0
    assert _lines(read_segments(tmp_path / "out")) == reference


def test_a_run_killed_with_sigkill_does_not_block_its_restart(shop, tmp_path, run_cli, read_segments, reference):
    first = _follow(shop, tmp_path)
    os.kill(first.pid, signal.SIGKILL)
    first.communicate(timeout=60)
    assert first.returncode == -signal.SIGKILL
    lock = tmp_path / "state.db.p.lock"
    assert json.loads(lock.read_text())["pid"] == first.pid        # (what it wrote stays: no matter)
    proc = run_cli("run", shop, "--once")
    assert proc.returncode == 0, proc.stderr
    assert _lines(read_segments(tmp_path / "out")) == reference


def test_the_lock_file_says_who_holds_it_and_is_emptied_at_release(tmp_path):
    lock = PipelineLock(tmp_path / "s.db.lock", pipeline="p", details={"pipeline_file": "/x/p.toml"})
    lock.acquire()
    try:
        held = json.loads((tmp_path / "s.db.lock").read_text())
        assert (held["pid"], held["host"], held["pipeline"]) == (os.getpid(), socket.gethostname(), "p")
        assert held["pipeline_file"] == "/x/p.toml" and held["started"] > 0
        # another open file description (another run in this process, as in another process) is refused
        with pytest.raises(PipelineLockedError, match=f"process {os.getpid()} on host"):
            PipelineLock(tmp_path / "s.db.lock", pipeline="p").acquire()
    finally:
        lock.release()
    assert (tmp_path / "s.db.lock").read_text() == ""
    again = PipelineLock(tmp_path / "s.db.lock", pipeline="p")
    again.acquire()
    again.release()
