"""A running MariaDB streamed as a replica (mysqlddl.sources.server) against its own binlog files:
the same events, event by event, and the same change records; start/stop; every start-up refusal;
faults made by a TCP proxy on loopback (cuts and stalls mid-transaction, a server restart), each
checked to lose and repeat nothing."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
import time

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent, RowsEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange
from mysqlddl.cli.main import main
from mysqlddl.errors import (
    BinlogPurgedError,
    GtidPositionError,
    ReplicaIdConflictError,
    ServerConnectError,
    ServerSettingError,
    SourceError,
)
from mysqlddl.positions import file_seq
from mysqlddl.sources import SourceOptions, open_source

pytestmark = pytest.mark.mariadb


def norm(ev):
    """An event as compared: the file's base name; an FDE without LOG_EVENT_BINLOG_IN_USE_F (set in
    the file while the server writes it, cleared by the sender)."""
    ev = dataclasses.replace(ev, file=os.path.basename(ev.file))
    if isinstance(ev, FormatDescriptionEvent):
        ev = dataclasses.replace(ev, header=dataclasses.replace(ev.header, flags=ev.header.flags & ~1))
    return ev


def file_events(live, **kw):
    return [norm(e) for e in BinlogReader(live.files(), **kw)]


def stream(uri, **opts):
    with open_source(uri, SourceOptions(**opts)) as src:
        return [norm(e) for e in src], src


def test_stream_equals_the_files_event_by_event(live):
    live.server.flush_logs()
    got, src = stream(live.uri(101))
    # (up to the end the server reported at the start: after a FLUSH, MariaDB may add a second
    # Binlog_checkpoint event to the new file a moment later, when the engine has durably committed
    # the previous file's transactions -- seen at 344 with the end taken at 344)
    want = [e for e in file_events(live) if (file_seq(e.file), e.pos) < src.stop.key]
    assert src.flavor == "mariadb" and src.stop == src.end
    assert len(got) == len(want) > 500
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"event {i}: {a.type_name} at {a.file}:{a.pos} differs from the file's"
    assert sum(isinstance(e, RowsEvent) for e in got) > 100
    # the position API: the end the server reported
    assert src.position.key == src.end.key


def test_change_records_equal_those_of_the_files(live, tmp_path):
    live.server.flush_logs()
    files = [str(f) for f in live.files()]
    a, b = tmp_path / "server.jsonl", tmp_path / "files.jsonl"
    assert main(["changes", live.uri(102), "-o", str(a), "--summary", "none"]) == 0
    assert main(["changes", *files, "-o", str(b), "--summary", "none"]) == 0
    server_lines, file_lines = a.read_text().splitlines(), b.read_text().splitlines()
    assert len(server_lines) == len(file_lines) > 1000
    for i, (x, y) in enumerate(zip(server_lines, file_lines, strict=True)):
        assert x == y, f"record {i} differs"


def test_change_reader_takes_a_source(live):
    with open_source(live.uri(103), SourceOptions()) as src:
        n = sum(1 for ch in ChangeReader(src, ChangeOptions()).changes() if isinstance(ch, RowChange))
    assert n == sum(1 for ch in ChangeReader(open_source([str(f) for f in live.files()]), ChangeOptions()).changes()
                    if isinstance(ch, RowChange))
    assert n > 1000


def test_start_and_stop_positions(live):
    want = [e for e in file_events(live) if not isinstance(e, FormatDescriptionEvent)]
    xids = [e for e in want if isinstance(e, XidEvent)]
    first, last = xids[len(xids) // 3], xids[2 * len(xids) // 3]
    start, stop = f"{first.file}:{first.next_pos}", f"{last.file}:{last.next_pos}"
    got, src = stream(live.uri(104), start=start, stop=stop)
    expected = [e for e in want if (first.file, first.next_pos) <= (e.file, e.pos) < (last.file, last.next_pos)
                or e.file != first.file and e.file < last.file and (e.file, e.pos) >= (first.file, 0)]
    # the server sends the file's FDE first (at 4, where it is in the file), then the span
    assert isinstance(got[0], FormatDescriptionEvent) and got[0].pos == 4 and got[0].file == first.file
    body = [e for e in got if not isinstance(e, FormatDescriptionEvent) or e.pos != 4 or e.file != first.file]
    expected = [e for e in want if (int(e.file.rsplit(".", 1)[1]), e.pos) >= (int(first.file.rsplit(".", 1)[1]),
                first.next_pos) and (int(e.file.rsplit(".", 1)[1]), e.pos) < (int(last.file.rsplit(".", 1)[1]),
                last.next_pos)]
    assert [x for x in body if not isinstance(x, FormatDescriptionEvent)] == expected
    assert src.position.key == (int(last.file.rsplit(".", 1)[1]), last.next_pos)


def test_from_now_on_a_quiet_server_ends_at_once(live, tmp_path):
    got, src = stream(live.uri(105), from_now=True)
    assert [type(e) for e in got] == [FormatDescriptionEvent]
    assert src.start == src.end
    out = tmp_path / "now.jsonl"
    assert main(["changes", live.uri(105), "--from-now", "-o", str(out), "--summary", "none"]) == 0
    assert out.read_text() == ""


def test_follow_survives_idle_past_the_read_timeout(live):
    """heartbeat 0.3 s -> read timeout 0.9 s: 2 s idle must not count as a dead connection."""
    got, errors = [], []
    with open_source(live.uri(106, heartbeat=0.3), SourceOptions(from_now=True, follow=True)) as src:
        def run():
            try:
                for ev in src:
                    got.append(ev)
                    if isinstance(ev, XidEvent):
                        return
            except Exception as e:   # noqa: BLE001 -- reported by the assertion below
                errors.append(e)
        t = threading.Thread(target=run)
        t.start()
        time.sleep(2.0)
        live.server.execute("CREATE TABLE IF NOT EXISTS lab.live_idle (id INT PRIMARY KEY)",
                            "INSERT INTO lab.live_idle VALUES (1)")
        t.join(30)
        assert not t.is_alive() and not errors
        assert src.reconnects == 0
    assert any(isinstance(e, RowsEvent) and e.table_map.table == "live_idle" for e in got)


# ------------------------------------------------------------------------------- start-up refusals

def test_wrong_password(live, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", "not-the-password")
    with pytest.raises(ServerConnectError) as e:
        open_source(live.uri(110))
    assert e.value.code == 1045 and "password" in str(e.value)


def test_password_from_an_option_file(live, monkeypatch, tmp_path):
    monkeypatch.delenv("MYSQL_PWD")
    cnf = tmp_path / "my.cnf"
    cnf.write_text("[mysqld]\npassword=wrong\n[client]\nuser=repl\npassword=\"live-pw\"\n")
    uri = live.uri(111).replace("repl@", "")
    with open_source(uri, SourceOptions(from_now=True, defaults_file=str(cnf))) as src:
        assert src.flavor == "mariadb"


def test_tls_required_but_not_offered(live):
    with pytest.raises(ServerConnectError, match="(?i)ssl|tls"):
        open_source(live.uri(112, ssl_mode="required"))


def test_missing_privilege(live):
    with pytest.raises(ServerSettingError) as e:
        open_source(live.uri(113, user="norepl"))
    assert "REPLICATION SLAVE" in e.value.setting and "GRANT" in e.value.fix


def test_start_file_not_on_the_server(live):
    with pytest.raises(BinlogPurgedError) as e:
        open_source(live.uri(114), SourceOptions(start="mariadb-bin.000000:4"))
    assert e.value.files and "mariadb-bin.000001" in str(e.value)


def test_purged_start_file(live):
    """The file exists when we start planning but is purged before the dump: the server's 1236."""
    live.server.flush_logs()
    names = [f.name for f in live.files()]
    src = open_source(live.uri(115), SourceOptions(start=f"{names[0]}:4"))
    try:
        live.server.execute(f"PURGE BINARY LOGS TO '{names[1]}'")
        with pytest.raises(BinlogPurgedError) as e:
            list(src)
        assert e.value.code == 1236 and names[1] in str(e.value) and names[0] not in e.value.files
    finally:
        src.close()


def test_start_inside_an_event(live):
    f = live.files()[-2].name
    with pytest.raises(SourceError) as e:
        list(open_source(live.uri(116), SourceOptions(start=f"{f}:5")))
    assert e.value.code == 1236 and e.value.setting == "--start-position"


def test_gtid_not_in_the_binlog(live):
    with pytest.raises(GtidPositionError):
        open_source(live.uri(117), SourceOptions(start_gtid="0-1-999999999"))


def test_gtid_start(live):
    """A MariaDB GTID start (@slave_connect_state): the transactions after it, each event equal to
    the file's at the same place."""
    want = file_events(live)
    at = {(e.file, e.pos, e.payload_offset): e for e in want}
    gtids = [e for e in want if type(e).__name__ == "MariadbGtidEvent"]
    mid = gtids[len(gtids) // 2]
    got, _ = stream(live.uri(118), start_gtid=mid.gtid)
    body = [e for e in got if not isinstance(e, FormatDescriptionEvent)]
    assert body and all(e == at[(e.file, e.pos, e.payload_offset)] for e in body)
    nxt = gtids[gtids.index(mid) + 1]
    rows = [e for e in body if isinstance(e, RowsEvent)]
    assert rows == [e for e in want[want.index(nxt):] if isinstance(e, RowsEvent)]
    assert not any(isinstance(e, RowsEvent) for e in body if (e.file, e.pos) < (mid.file, mid.pos))


def test_row_format_and_image_checked(live):
    try:
        live.server.execute("SET GLOBAL binlog_format = 'STATEMENT'")
        with pytest.raises(ServerSettingError) as e:
            open_source(live.uri(119))
        assert e.value.setting == "binlog_format" and "ROW" in e.value.fix
        live.server.execute("SET GLOBAL binlog_format = 'ROW'", "SET GLOBAL binlog_row_image = 'MINIMAL'")
        with pytest.raises(ServerSettingError) as e:
            open_source(live.uri(119))
        assert e.value.setting == "binlog_row_image"
        open_source(live.uri(119), SourceOptions(allow_minimal=True, from_now=True)).close()
    finally:
        live.server.execute("SET GLOBAL binlog_format = 'ROW'", "SET GLOBAL binlog_row_image = 'FULL'")


def test_server_id_used_by_another_replica(live):
    ready, stop = threading.Event(), threading.Event()
    first = open_source(live.uri(120), SourceOptions(from_now=True, follow=True))

    def follow():
        for _ in first:
            ready.set()
            if stop.is_set():
                return

    t = threading.Thread(target=follow, daemon=True)
    t.start()
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
                int(r[0]) == 120 for r in live.server.query("SHOW SLAVE HOSTS")):
            time.sleep(0.05)
        with pytest.raises(ReplicaIdConflictError) as e:
            open_source(live.uri(120, heartbeat=1))      # (a live one: refused after two heartbeats)
        assert e.value.setting == "server-id"
        assert open_source(live.uri(121), SourceOptions(from_now=True)) is not None
    finally:
        stop.set()
        live.server.execute("FLUSH BINARY LOGS")       # an event wakes the follower so it returns
        t.join(10)
        first.close()


def test_events_command_streams_a_server(live, tmp_path, capsys):
    assert main(["events", live.uri(130), "--type", "format_description"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len([f for f in live.files()])      # one FDE per binlog the server has


def test_start_hook_moves_the_start(live):
    """The hook point a schema capture / snapshot uses: it runs before the dump with a session of its
    own, and the stream starts at the position it returns."""
    seen = {}
    live.server.execute("CREATE TABLE IF NOT EXISTS lab.live_hook (id INT PRIMARY KEY)")

    def hook(src):
        live.server.execute("INSERT INTO lab.live_hook VALUES (1)")      # before the captured position
        conn = src.new_connection()
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW MASTER STATUS")
                f, p = cur.fetchone()[:2]
        finally:
            conn.close()
        seen["at"] = (f, int(p))
        live.server.execute("INSERT INTO lab.live_hook VALUES (2)")      # after it
        return (f, int(p))

    with open_source(live.uri(131), SourceOptions(from_now=True), start_hook=hook) as src:
        events = list(src)
        assert (src.start.file, src.start.pos) == seen["at"] and src.stop.key == src.start.key
    assert [type(e) for e in events] == [FormatDescriptionEvent]       # the default stop moved with it
    with open_source(live.uri(132), SourceOptions(start=f"{seen['at'][0]}:{seen['at'][1]}")) as src:
        rows = [e for e in src if isinstance(e, RowsEvent)]
    assert len(rows) == 1 and rows[0].table_map.table == "live_hook" and rows[0].rows() == [(2,)]


def test_follow_on_the_command_line_writes_each_transaction_as_it_commits(live, tmp_path):
    """`mysqlddl changes URI --from-now --follow -o FILE` as a subprocess: a row committed while it
    runs is in the file within seconds (flushed at the commit, not held in a buffer)."""
    out = tmp_path / "follow.jsonl"
    env = dict(os.environ, MYSQL_PWD="live-pw")
    proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "changes", live.uri(133), "--from-now", "--follow",
                             "-o", str(out), "--summary", "none"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while not any(int(r[0]) == 133 for r in live.server.query("SHOW SLAVE HOSTS")):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read() if proc.poll() else ""
            time.sleep(0.05)
        live.server.execute("CREATE TABLE IF NOT EXISTS lab.live_follow (id INT PRIMARY KEY)",
                            "INSERT INTO lab.live_follow VALUES (7)")
        deadline = time.monotonic() + 10
        while '"after":{"id":7}' not in (out.read_text() if out.exists() else ""):
            assert time.monotonic() < deadline, out.read_text() if out.exists() else "(no file)"
            time.sleep(0.05)
        assert proc.poll() is None           # still following
    finally:
        proc.terminate()
        proc.wait(10)
