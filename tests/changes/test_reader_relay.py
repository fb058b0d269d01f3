"""Change records read from a replica's relay logs equal those read from its primary's binlogs:
same rows, same schema changes, same sources (the source's binlog file and position, as a replica's
position means), the relay log's own place only in ``relay_file``/``relay_pos``. Real relay logs
from the ``relay_workload`` fixture (tests/conftest.py: tools/workload.py every phase on the
primary, then a 120-INSERT transaction replicated while the relay log rotates every 4 KiB),
MariaDB 10.11.19, GTID replication."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
import time

import pytest

from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange, SchemaChange, TransactionMark
from mysqlddl.sources import open_source

pytestmark = pytest.mark.mariadb



class _SourceBytes:
    """The primary's binlog bytes, read again when a range is not there yet: the primary writes
    some events (BINLOG_CHECKPOINT after a flush) from a background thread, and a range the relay
    log already holds can reach the file a moment later under load."""

    def __init__(self, primary):
        self.primary = primary
        self.files: dict[str, bytes] = {}

    def read(self, name: str, lo: int, hi: int) -> bytes:
        deadline = time.monotonic() + 10
        while True:
            data = self.files.get(name)
            if data is not None and len(data) >= hi:
                return data[lo:hi]
            if data is not None and time.monotonic() > deadline:
                return data[lo:hi]
            if data is not None:
                time.sleep(0.1)
            self.files[name] = (self.primary.binlog_dir / name).read_bytes()

def _records(files):
    out, relay = [], []
    reader = ChangeReader(open_source(files), ChangeOptions(transactions=True))
    for rec in reader.changes():
        src = rec.source
        relay.append((src.relay_file, src.relay_pos))
        plain = dataclasses.replace(src, relay_file=None, relay_pos=None)
        if isinstance(rec, RowChange):
            out.append(("row", rec.op, plain, rec.before, rec.after, rec.columns, rec.transaction))
        elif isinstance(rec, SchemaChange):
            out.append(("ddl", plain, rec.ddl, rec.position.key, tuple(t for _, t in rec.record.tables)))
        elif isinstance(rec, TransactionMark):
            out.append(("txn", rec.status, rec.id, plain, rec.counts))
    return out, relay, reader


def test_relay_log_records_equal_the_primary_binlog_records(relay_workload):
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    from_relay, places, reader = _records(replica.relay_log_files())
    from_binlog, binlog_places, _ = _records(replica.primary.binlog_files())
    assert len(from_relay) == len(from_binlog) > 1000
    for a, b in zip(from_relay, from_binlog, strict=True):
        assert a == b
    assert reader.stats.ddl_errors == 0 and reader.stats.mismatches == 0
    assert set(binlog_places) == {(None, None)}
    # each record's relay place holds the event its source names
    relays = {p.name: p for p in replica.relay_log_files()}
    for rec, (rfile, rpos) in list(zip(from_relay, places, strict=True))[::97]:
        assert rfile in relays
        ev = next(iter(BinlogReader(relays[rfile], start=rpos)))
        src = rec[2] if rec[0] == "row" else rec[1] if rec[0] == "ddl" else rec[3]
        # (started inside the relay file, the reader has not seen the ROTATE naming the source file)
        assert ev.pos == rpos and ev.origin.pos == src.pos and ev.origin.file in (None, src.file)


def test_transaction_across_relay_files_reads_whole(relay_workload):
    """The relay log rotated inside the transaction (its TABLE_MAPs and rows in different relay
    files): every row, in one transaction, from two or more relay files."""
    replica, _truth, gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    rows = [c for c in ChangeReader(open_source(replica.relay_log_files())).changes()
            if isinstance(c, RowChange) and c.source.table == "spanning"]
    assert [r.after["id"] for r in rows] == list(range(120))     # SPANNING_ROWS in tests/conftest.py
    assert {r.transaction for r in rows} == {gtid} and {r.op for r in rows} == {"c"}
    assert len({r.source.relay_file for r in rows}) >= 2
    assert len({r.source.file for r in rows}) == 1


def test_history_only_reading_still_names_the_source_files(relay_workload):
    """Without rows the reader skips every type but the DDL's (ROTATE included): the source's
    ROTATEs are still decoded for the file names they give, not yielded."""
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)

    def ddl(files):
        reader = ChangeReader(open_source(files), ChangeOptions(rows=False))
        return [(c.source.file, c.source.pos, c.ddl, c.position.key) for c in reader
                if isinstance(c, SchemaChange)], reader

    from_relay, reader = ddl(replica.relay_log_files())
    from_binlog, _ = ddl(replica.primary.binlog_files())
    assert from_relay == from_binlog and len(from_relay) > 30
    assert reader.reader.reader.only_types is not None and reader.reader.reader.relay_log
    files = {f for f, *_ in from_relay}
    assert len(files) >= 2 and all(f.startswith("mariadb-bin.") for f in files)


class _CuttingProxy:
    """127.0.0.1 TCP proxy in front of a server: ``cut_after(n)`` closes the next connection's
    server-to-client direction once ``n`` more bytes went through (half of the last chunk sent),
    once; every other byte is passed as it is. Bounded: daemon threads, closed with the test."""

    def __init__(self, port: int):
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._budget: int | None = None
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_after(self, n: int) -> None:
        self._budget = n

    def close(self) -> None:
        self.listener.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                return
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, src, dst, downstream):
        try:
            while data := src.recv(65536):
                if downstream and self._budget is not None:
                    self._budget -= len(data)
                    if self._budget < 0:
                        self._budget = None
                        self.cuts += 1
                        dst.sendall(data[:len(data) // 2])
                        break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            # (shutdown, not only close: the other direction's thread is blocked in recv on these
            # sockets, and a close alone sends no FIN while it is)
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()


def test_a_reconnect_inside_a_transaction_is_read_once(tool, tmp_path):
    """The replica's connection is cut inside a 2,000-row transaction (after ~60 KB of it, by a
    proxy between replica and primary; MariaDB 10.11.19, GTID replication). The new connection
    starts at the transaction's GTID, but the replica skips what it already had (its relay log goes
    on in a new relay file: its own FDE, the source's artificial ROTATE and FDE, a GTID_LIST and a
    ROTATE to the position where the part ended), so the relay log holds every row once and the
    change records equal the primary's."""
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        pytest.skip(lab.INSTALL_HINT)
    primary = lab.MariaDBServer(tmp_path / "p", server_id=1)
    replica = lab.MariaDBServer(tmp_path / "r", server_id=2)
    proxy = None
    try:
        primary.start()
        replica.start()
        proxy = _CuttingProxy(primary.port)
        primary.execute("CREATE DATABASE cut", "CREATE TABLE cut.t (id INT PRIMARY KEY, v VARCHAR(100))")
        replica.start_replica(primary, via_port=proxy.port)
        replica.wait_caught_up()
        proxy.cut_after(60_000)
        primary.execute("BEGIN", *[f"INSERT INTO cut.t VALUES ({i}, '{'y' * 80}')" for i in range(2000)], "COMMIT")
        replica.wait_caught_up()          # (the I/O thread reconnects: MASTER_CONNECT_RETRY=1)
        assert proxy.cuts == 1 and replica.query("SELECT COUNT(*) FROM cut.t") == [(2000,)]
        primary.flush_logs()
        replica.wait_caught_up(applied=False)
        relays = replica.relay_log_files()
        written = sum(len(ev.rows()) for ev in BinlogReader(relays) if ev.type_name.startswith("WRITE_ROWS"))
        assert written == 2000
        # every event the relay log places in the source's binlog is the source's, byte for byte
        source = _SourceBytes(primary)
        placed = 0
        for ev in BinlogReader(relays):
            o = ev.origin
            if o is None or o.own or o.pos is None or ev.type_name == "FORMAT_DESCRIPTION":
                continue
            with open(ev.file, "rb") as f:
                f.seek(ev.pos)
                assert f.read(ev.size) == source.read(o.file, o.pos, o.next_pos), (ev.file, ev.pos, ev.type_name)
            placed += 1
        assert placed > 2000
        assert len(relays) >= 3           # the cut opened a new relay file inside the transaction
        reader = ChangeReader(open_source(relays), ChangeOptions(transactions=True))
        records = list(reader.changes())
        spread = {r.source.relay_file for r in records if isinstance(r, RowChange) and r.source.table == "t"}
        assert len(spread) == 2           # the cut fell inside the transaction
        from_relay = [_plain(r) for r in records]
        from_binlog = [_plain(r) for r in ChangeReader(open_source(primary.binlog_files()),
                                                       ChangeOptions(transactions=True)).changes()]
        assert from_relay == from_binlog
        assert reader.stats.rows[("cut.t", "c")] == 2000
    finally:
        if proxy is not None:
            proxy.close()
        replica.destroy()
        primary.destroy()


def _plain(rec):
    src = dataclasses.replace(rec.source, relay_file=None, relay_pos=None)
    return (type(rec).__name__, getattr(rec, "op", None), src, getattr(rec, "after", None))


def test_changes_command_on_a_relay_log_directory_prints_the_primary_binlog_output(relay_workload, run_cli):
    """End to end: ``mysqlddl changes RELAY_DIR`` (read through relay-bin.index) prints exactly what
    ``mysqlddl changes BINLOG_DIR`` prints for the primary: the sinks render the source's positions."""
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    relay = run_cli("changes", replica.relay_dir, "--summary", "none", timeout=300)
    binlog = run_cli("changes", replica.primary.binlog_dir, "--summary", "none", timeout=300)
    assert relay.returncode == 0 and binlog.returncode == 0, relay.stderr[-2000:] + binlog.stderr[-2000:]
    lines = relay.stdout.splitlines()
    assert len(lines) > 1000 and lines == binlog.stdout.splitlines()
    assert sum('"file":"mariadb-bin.' in line.replace(" ", "") for line in lines) > 1000
