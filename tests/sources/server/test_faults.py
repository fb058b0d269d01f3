"""Faults on the way from the server, made on loopback by tests/sources/proxy.py (ssl-mode=disabled:
the proxy's plans count connections, and PREFERRED tries TLS first against this server without it): the connection cut
inside a transaction, stalled without a word (only the read timeout notices), the server restarted
mid-stream. In every case the stream resumes at a transaction boundary and the consumer sees every
event exactly once: the events equal the files', and the rows replayed equal the server's table."""

from __future__ import annotations

import dataclasses
import os
import threading
import time

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange
from mysqlddl.errors import BinlogPurgedError, ServerConnectError
from mysqlddl.positions import file_seq
from mysqlddl.sources import SourceOptions, open_source
from mysqlddl.sources.replay import TapSource

pytestmark = pytest.mark.mariadb


def norm(ev):
    ev = dataclasses.replace(ev, file=os.path.basename(ev.file))
    if isinstance(ev, FormatDescriptionEvent):
        ev = dataclasses.replace(ev, header=dataclasses.replace(ev.header, flags=ev.header.flags & ~1))
    return ev


@pytest.fixture(scope="module")
def data(live):
    """Its own binlog file: 120 transactions of 25 rows (inserts, then updates and deletes), ~1 MB."""
    srv = live.server
    srv.flush_logs()
    first = srv.current_binlog()[0].name
    srv.execute("CREATE TABLE lab.live_faults (id INT PRIMARY KEY, v VARCHAR(300), n INT)")
    conn = srv.connect("lab")
    try:
        with conn.cursor() as cur:
            for t in range(120):
                cur.execute("BEGIN")
                rows = ",".join(f"({t * 25 + i}, REPEAT('{chr(97 + i)}', {100 + t}), {t})" for i in range(25))
                cur.execute(f"INSERT INTO live_faults VALUES {rows}")
                if t % 3 == 1:
                    cur.execute(f"UPDATE live_faults SET n = n + 1000, v = CONCAT(v, 'u') WHERE id < {t * 25}"
                                f" AND id >= {(t - 1) * 25}")
                if t % 5 == 4:
                    cur.execute(f"DELETE FROM live_faults WHERE id % 7 = 0 AND id >= {(t - 2) * 25} AND id < {t * 25}")
                cur.execute("COMMIT")
    finally:
        conn.close()
    srv.flush_logs()
    files = [f for f in live.files() if file_seq(f.name) >= file_seq(first)]
    truth = {r[0]: (r[1], r[2]) for r in srv.query("SELECT id, v, n FROM lab.live_faults")}
    return first, files, truth


def run(source):
    """(events, replayed table) of one pass over ``source``, through the change reader."""
    events = []

    def tee(given):
        for ev in given:
            events.append(norm(ev))
            yield ev

    table = {}
    for ch in ChangeReader(TapSource(open_source(source), tee), ChangeOptions()).changes():
        if not isinstance(ch, RowChange) or ch.source.table != "live_faults":
            continue
        if ch.before is not None:
            assert ch.before["id"] in table, f"{ch.op} of a row never seen: {ch.before['id']}"
            del table[ch.before["id"]]
        if ch.after is not None:
            assert ch.after["id"] not in table, f"row {ch.after['id']} created twice"
            table[ch.after["id"]] = (ch.after["v"], ch.after["n"])
    return events, table


def expected(files, src):
    stop = src.stop.key
    return [norm(e) for e in BinlogReader(files) if (file_seq(e.file), e.pos) < stop]


def wire_offset(files, fraction: float) -> int:
    """A byte count of the dump connection that falls inside the stream at ``fraction`` of it
    (the wire adds 5 bytes per event and a few hundred at the start: near enough for the middle of
    a 25-row transaction)."""
    total = sum(f.stat().st_size for f in files)
    return int(total * fraction)


def test_cut_inside_transactions(live, data, proxy):
    first, files, truth = data
    p = proxy({2: ("cut", wire_offset(files, 0.3)), 3: ("cut", wire_offset(files, 0.3)),
               4: ("cut", wire_offset(files, 0.2))})
    opts = SourceOptions(start=f"{first}:4", reconnect_delay=0.05)
    with open_source(live.uri(201, port=p.port, ssl_mode="disabled"), opts) as src:
        events, table = run(src)
        assert src.reconnects == 3 and len(p.faults) == 3
        assert any(inside for _, inside, _ in src.resumes), src.resumes
        assert events == expected(files, src)
    assert table == truth


def test_stall_is_noticed_by_the_read_timeout(live, data, proxy):
    first, files, truth = data
    p = proxy({2: ("stall", wire_offset(files, 0.6))})
    t0 = time.monotonic()
    with open_source(live.uri(202, port=p.port, heartbeat=0.3, ssl_mode="disabled"),
                     SourceOptions(start=f"{first}:4", reconnect_delay=0.05)) as src:
        events, table = run(src)
        assert src.reconnects == 1 and "nothing received" in src.resumes[0][2]
        assert events == expected(files, src)
    assert table == truth
    assert time.monotonic() - t0 < 30


def test_server_restarted_mid_stream(live, data, proxy):
    first, files, truth = data
    p = proxy({2: ("stall", wire_offset(files, 0.5))})
    src = open_source(live.uri(203, port=p.port, heartbeat=0.5, ssl_mode="disabled"),
                      SourceOptions(start=f"{first}:4", reconnect_delay=0.2, reconnect_max_delay=2,
                                    reconnect_attempts=12))
    out, errors = {}, []

    def go():
        try:
            out["events"], out["table"] = run(src)
        except Exception as e:   # noqa: BLE001 -- reported below
            errors.append(e)

    t = threading.Thread(target=go)
    t.start()
    try:
        deadline = time.monotonic() + 30
        while not p.faults and time.monotonic() < deadline:
            time.sleep(0.02)
        assert p.faults
        live.server.stop()
        live.server.start()
        t.join(120)
        assert not t.is_alive() and not errors, errors
        assert src.reconnects >= 1
        assert out["events"] == expected(files, src)
        assert out["table"] == truth
    finally:
        src.close()


def test_reconnection_gives_up(live, data, proxy):
    first, files, _ = data
    # every dump connection is cut after the first 200 bytes of the stream: never any progress
    p = proxy({n: ("cut", 2000) for n in range(2, 10)})
    opts = SourceOptions(start=f"{first}:4", reconnect_attempts=2, reconnect_delay=0.01)
    with open_source(live.uri(204, port=p.port, ssl_mode="disabled"), opts) as src:
        with pytest.raises(ServerConnectError) as e:
            list(src)
        assert "2 reconnection attempts failed" in str(e.value)
        assert src.reconnects == 2


def test_purged_while_disconnected(scratch, proxy):
    """The stream stalls, the binlogs are rotated and purged meanwhile: the reconnection is refused
    with the server's 1236, as BinlogPurgedError naming the binlogs that exist."""
    srv = scratch.server
    srv.execute("CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(500))")
    for t in range(40):
        srv.execute("INSERT INTO d.t VALUES " + ",".join(f"({t * 20 + i}, REPEAT('x', 400))" for i in range(20)))
    first = scratch.files()[0]
    p = proxy({2: ("stall", first.stat().st_size // 2)}, server=srv)
    src = open_source(scratch.uri(205, port=p.port, heartbeat=0.3, ssl_mode="disabled"),
                      SourceOptions(reconnect_delay=0.5))
    errors = []

    def go():
        try:
            for _ in src:
                pass
        except Exception as e:   # noqa: BLE001 -- checked below
            errors.append(e)

    t = threading.Thread(target=go)
    t.start()
    try:
        deadline = time.monotonic() + 30
        while not p.faults and time.monotonic() < deadline:
            time.sleep(0.02)
        # the stalled dump thread still holds its binlog open, and PURGE skips a file in use: end it
        # first, as the server does on its own once it notices the connection is dead
        for row in srv.query("SHOW PROCESSLIST"):
            if str(row[4]).startswith("Binlog Dump"):
                srv.execute(f"KILL {int(row[0])}")
        srv.flush_logs()
        newest = srv.current_binlog()[0].name
        deadline = time.monotonic() + 20
        while [f.name for f in scratch.files()] != [newest] and time.monotonic() < deadline:
            srv.execute(f"PURGE BINARY LOGS TO '{newest}'")    # (the killed thread takes a moment to go)
            time.sleep(0.1)
        assert [f.name for f in scratch.files()] == [newest]
        t.join(60)
        assert not t.is_alive()
        assert len(errors) == 1 and isinstance(errors[0], BinlogPurgedError), errors
        assert errors[0].files == (newest,) and newest in str(errors[0]) and errors[0].code == 1236
    finally:
        src.close()
