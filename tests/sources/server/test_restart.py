"""A follower killed with SIGKILL (or crashed) and restarted at once with the same server-id: the
server still lists the dead run's registration until a heartbeat to its closed socket fails, so
the restart waits for it to go (up to two heartbeat periods) instead of being refused as a
server-id clash; a live replica with that id is still refused (tests/sources/server/test_server.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.mariadb


def _registered(live, server_id: int) -> bool:
    return any(int(r[0]) == server_id for r in live.server.query("SHOW SLAVE HOSTS"))


def test_a_killed_follower_restarts_with_its_server_id(live, tmp_path):
    uri = live.uri(140, heartbeat=1, ssl_mode="disabled")
    cmd = [sys.executable, "-m", "mysqlddl", "changes", uri, "--from-now", "--follow", "--summary", "none",
           "-o", str(tmp_path / "out.jsonl")]

    def start():
        return subprocess.Popen(cmd, cwd=tmp_path, env=dict(os.environ), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)

    first = start()
    try:
        deadline = time.monotonic() + 20
        while not _registered(live, 140) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _registered(live, 140)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert _registered(live, 140)        # the dead run's registration outlives it
        second = start()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    try:
        time.sleep(5)        # past two heartbeat periods: refused by now if it were going to be
        assert second.poll() is None, second.stderr.read().decode()[-2000:]
        assert _registered(live, 140)
        live.server.execute("CREATE TABLE IF NOT EXISTS lab.live_restart (id INT PRIMARY KEY)",
                            "INSERT INTO lab.live_restart VALUES (1)")
        deadline = time.monotonic() + 20
        out = tmp_path / "out.jsonl"
        while time.monotonic() < deadline and '"table":"live_restart"' not in (out.read_text() if out.exists() else ""):
            time.sleep(0.1)
        assert '"table":"live_restart"' in out.read_text()      # it streams
    finally:
        second.kill()
        second.wait()
