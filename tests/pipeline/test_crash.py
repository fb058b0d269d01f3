"""Crash anywhere: `mysqlddl run --once` over the lab workload's binlog files (tools/workload.py,
every phase, rotated every 64 KiB), killed with SIGKILL at random moments and at the named fault
points (mysqlddl/faults.py), restarted each time; the final segments must equal one uninterrupted
run's, line for line (sequence numbers included): nothing lost, nothing repeated."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

# small batches and segments, so commits and renames happen all the time
TUNING = "every_transactions = 3\n"


def _pipeline(tmp_path, name, lab_binlogs, write):
    d = tmp_path / name
    d.mkdir()
    p = d / "p.toml"
    p.write_text(f'[source]\nuri = "file://{lab_binlogs}"\n[sink]\nuri = "jsonl://{d}/out"\n'
                 'segment_bytes = 40000\nsequence = "line"\n'
                 f'[checkpoint]\nuri = "sqlite://{d}/state.db"\n{TUNING}', encoding="utf-8")
    return d, p


def _cmd(p):
    return [sys.executable, "-m", "mysqlddl", "run", str(p), "--once", "--summary", "none"]


def _popen(p, cwd, env=None):
    full = dict(os.environ)
    full.pop("MYSQLDDL_FAULT", None)
    full.update(env or {})
    return subprocess.Popen(_cmd(p), cwd=cwd, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(p, cwd, env=None, timeout=300):
    proc = _popen(p, cwd, env)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


@pytest.fixture(scope="module")
def reference(lab_binlogs, tmp_path_factory, read_segments):
    """One uninterrupted run: (its output, its duration in seconds)."""
    tmp = tmp_path_factory.mktemp("ref")
    d, p = _pipeline(tmp, "ref", lab_binlogs, None)
    t0 = time.monotonic()
    rc, err = _finish(p, d)
    assert rc == 0, err[-3000:]
    text = read_segments(d / "out")
    assert text.count("\n") > 1000
    return text, time.monotonic() - t0


def test_the_reference_run_is_the_plain_change_stream(reference, lab_binlogs, tmp_path, run_cli):
    # the pipeline's lines are `mysqlddl changes`'s, each with its sequence number in front
    files = sorted(p for p in lab_binlogs.iterdir() if p.name[-1].isdigit())
    out = tmp_path / "plain.jsonl"
    proc = run_cli("changes", *files, "-o", out, "--summary", "none")
    assert proc.returncode == 0, proc.stderr[-2000:]
    plain = out.read_text().splitlines()
    piped = reference[0].splitlines()
    assert len(piped) == len(plain)
    for i, (a, b) in enumerate(zip(piped, plain, strict=True)):
        assert a == f'{{"seq":{i},' + b[1:]


def _crash_loop(tmp_path, lab_binlogs, reference, read_segments, kills: int, seed: int):
    text, secs = reference
    d, p = _pipeline(tmp_path, "crash", lab_binlogs, None)
    rng = random.Random(seed)
    killed = 0
    for _ in range(kills):
        proc = _popen(p, d)
        # each run gets a random slice of at most 1/kills of the uninterrupted run's time (a run
        # resumes where the last checkpoint was, so what is left shrinks run by run: longer
        # slices let the later runs finish before their kill, as a CI machine without other load
        # showed); a kill during start-up is a kill too
        time.sleep(rng.uniform(0.2, 0.2 + max(0.2, secs / kills)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate()
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.read() if proc.stderr else ""
    rc, err = _finish(p, d)
    assert rc == 0, err[-3000:]
    assert killed >= kills // 2          # most kills landed while it ran
    got = read_segments(d / "out")
    assert got == text


def test_sigkill_at_random_moments(tmp_path, lab_binlogs, reference, read_segments):
    _crash_loop(tmp_path, lab_binlogs, reference, read_segments, kills=8, seed=1)


@pytest.mark.slow
def test_sigkill_at_fifty_random_moments(tmp_path, lab_binlogs, reference, read_segments):
    _crash_loop(tmp_path, lab_binlogs, reference, read_segments, kills=50, seed=2)


@pytest.mark.parametrize("point", ["before-rename@2", "after-rename@2", "after-sink-commit@7",
                                   "in-checkpoint-commit@5", "huge-transaction@3"])
def test_kill_at_a_fault_point(point, tmp_path, lab_binlogs, reference, read_segments):
    d, p = _pipeline(tmp_path, "fault", lab_binlogs, None)
    rc, err = _finish(p, d, env={"MYSQLDDL_FAULT": point})
    assert rc == -signal.SIGKILL, f"the fault point {point} was not reached: rc={rc} {err[-2000:]}"
    if point.startswith("huge-transaction"):
        # the huge transaction was being streamed to the open segment, past its committed length
        db = sqlite3.connect(d / "state.db")
        state = json.loads(db.execute("SELECT data FROM checkpoint").fetchone()[0])["sink_state"]
        db.close()
        tmp = next((d / "out").glob("*.tmp"))
        assert tmp.stat().st_size > state["length"] + 100_000
    rc, err = _finish(p, d)
    assert rc == 0, err[-3000:]
    assert read_segments(d / "out") == reference[0]
