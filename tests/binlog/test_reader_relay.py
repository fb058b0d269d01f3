"""Relay logs read by BinlogReader: real ones, written by a lab replica (the ``relay_workload``
fixture, tests/conftest.py: tools/workload.py every phase on the replica's primary, then a
transaction of 120 single-row INSERTs replicated with ``max_relay_log_size=4096`` so the relay log
rotates inside it). Produced by MariaDB 10.11.19 (primary server_id 1, replica server_id 2, GTID
replication ``MASTER_USE_GTID=slave_pos``, ``relay_log_purge=OFF``); the test asserts the version
family it ran on.

The oracle is the primary's own binlog: every source event of the relay log carries, as ``origin``,
the source binlog and position, and the bytes there are exactly the relay log's copy.
"""

from __future__ import annotations

import shutil
import struct
import time
from pathlib import Path

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent, MariadbGtidEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import ChecksumError, CorruptEventError
from mysqlddl.options import Dialect, Options

pytestmark = pytest.mark.mariadb

OPTIONS = Options(dialect=Dialect.MARIADB)


def test_every_relay_event_is_the_source_event_at_its_origin(relay_workload):
    replica, _truth, _gtid = relay_workload
    # what the primary holds now, then the replica caught up with it: the primary's binlog background
    # thread may still add an event (a BINLOG_CHECKPOINT, once a rotated binlog's transactions are
    # durable) after the wait, which the relay log then has or has not yet
    primary_places = {(Path(ev.file).name, ev.pos) for ev in BinlogReader(replica.primary.binlog_files(),
                                                                            options=OPTIONS)}
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    relays = replica.relay_log_files()
    assert len(relays) >= 4
    primary_bytes = {p.name: p.read_bytes() for p in replica.primary.binlog_files()}

    def primary_slice(name: str, start: int, end: int) -> bytes:
        # (an event the primary wrote after its files were read, a BINLOG_CHECKPOINT, may be in the
        # relay log already: read the file again, a few times, until it is there)
        for _ in range(50):
            data = primary_bytes.get(name, b"")
            if len(data) >= end:
                return data[start:end]
            time.sleep(0.1)
            primary_bytes[name] = (replica.primary.binlog_dir / name).read_bytes()
        return primary_bytes[name][start:end]
    cache: dict[str, bytes] = {}

    def relay_bytes(path: str) -> bytes:
        if path not in cache:
            cache[path] = open(path, "rb").read()
        return cache[path]

    reader = BinlogReader(relays, options=OPTIONS)        # check_log_pos on: no flag for relay logs
    ends: dict[str, int] = {}
    copies = own = 0
    placed: set[tuple[str, int]] = set()
    for ev in reader:
        assert ev.pos == ends.get(ev.file, 4), f"{ev.file}: gap or overlap at {ev.pos}"
        ends[ev.file] = ev.next_pos
        o = ev.origin
        # MariaDB flags the relay log's own events LOG_EVENT_RELAY_LOG_F: known from the first event
        assert o is not None, (ev.file, ev.pos, ev.type_name)
        if o.own:
            own += 1
            assert ev.header.server_id == replica.server_id and ev.header.log_pos == ev.next_pos
            continue
        assert ev.header.server_id == replica.primary.server_id
        if o.pos is None:
            # the artificial ROTATE and the source FDE's copy (log_pos 0); after a reconnect also an
            # artificial GTID_LIST and the replica's ROTATE to the position to go on from
            assert ev.header.log_pos == 0 or ev.header.flags & 0x20 or (
                ev.type_name == "ROTATE" and ev.position != 4), (ev.file, ev.pos, ev.type_name)
            continue
        relay = bytearray(relay_bytes(ev.file)[ev.pos:ev.next_pos])
        source = bytearray(primary_slice(o.file, o.pos, o.next_pos))
        if isinstance(ev, FormatDescriptionEvent):
            # LOG_EVENT_BINLOG_IN_USE_F: set in the source's file while it is open, not in the copy
            relay[17] &= 0xFE
            source[17] &= 0xFE
        assert source == relay, (ev.file, ev.pos, ev.type_name, o)
        copies += 1
        placed.add((o.file, o.pos))
    assert reader.relay_log and copies > 500 and own >= 2 * len(relays) - 1
    assert {f: e for f, e in ends.items()} == {str(p): p.stat().st_size for p in relays}
    # every event of every source binlog reached the relay log (some more than once after a
    # reconnect: the source sends its binlog's first events again), and nothing else did but what
    # the primary wrote after it was read (each such copy checked byte for byte above)
    assert primary_places <= placed
    last = {}
    for f, pos in primary_places:
        last[f] = max(last.get(f, 0), pos)
    assert all(pos > last.get(f, -1) for f, pos in placed - primary_places), sorted(placed - primary_places)
    fde = next(iter(BinlogReader(relays[0])))
    assert "MariaDB" in fde.server_version and fde.server_version.startswith("10.")


def test_a_binlog_is_not_taken_for_a_relay_log(relay_workload):
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    reader = BinlogReader(replica.primary.binlog_files(), options=OPTIONS)
    assert all(ev.origin is None for ev in reader) and not reader.relay_log


def test_relay_log_rotated_inside_a_transaction(relay_workload):
    replica, _truth, gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    files = {}
    for ev in BinlogReader(replica.relay_log_files(), options=OPTIONS):
        if isinstance(ev, MariadbGtidEvent) and ev.gtid == gtid:
            files["begin"] = ev.file
            inside = True
        elif isinstance(ev, XidEvent) and files.get("begin") and "end" not in files:
            files["end"] = ev.file
        elif isinstance(ev, FormatDescriptionEvent) and ev.origin is not None and not ev.origin.own \
                and "begin" in files and "end" not in files:
            # the source FDE's copy the replica writes into each new relay file: log_pos 0
            assert ev.origin.pos is None and ev.origin.file
            files.setdefault("copies", 0)
            files["copies"] += 1
    assert inside and files["begin"] != files["end"]
    assert files["copies"] >= 1


def test_a_renamed_relay_log_is_still_recognised(relay_workload, tmp_path):
    """Recognised by its content, not its name."""
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    copies = []
    for i, p in enumerate(replica.relay_log_files(), 1):
        copies.append(tmp_path / f"archive.{i:06d}")
        shutil.copy(p, copies[-1])
    reader = BinlogReader(copies, options=OPTIONS)
    n = sum(1 for ev in reader if ev.origin is not None and ev.origin.pos is not None)
    assert reader.relay_log and n > 500


def test_errors_name_the_relay_file_and_offset(relay_workload, tmp_path):
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    relays = replica.relay_log_files()
    src = next(p for p in relays if p.stat().st_size > 2000)
    events = [ev for ev in BinlogReader(src, options=OPTIONS)]
    victim = next(ev for ev in events if ev.origin is not None and ev.origin.pos is not None
                  and ev.type_name == "TABLE_MAP")
    data = bytearray(src.read_bytes())
    data[victim.pos + 25] ^= 0xFF                 # a body byte: the CRC no longer matches
    bad = tmp_path / src.name
    bad.write_bytes(bytes(data))
    with pytest.raises(ChecksumError) as e:
        list(BinlogReader(bad, options=OPTIONS))
    assert e.value.file == str(bad) and e.value.log_pos == victim.pos
    assert victim.pos < e.value.offset < victim.next_pos
    # the replica's own ROTATE keeps the next-position check against relay offsets
    rot = events[-1]
    assert rot.origin.own and rot.type_name == "ROTATE"
    data = bytearray(src.read_bytes())
    data[rot.pos + 13:rot.pos + 17] = (rot.next_pos + 1).to_bytes(4, "little")
    bad.write_bytes(bytes(data))
    with pytest.raises(CorruptEventError) as e:
        list(BinlogReader(bad, options=Options(dialect=Dialect.MARIADB, verify_checksums=False)))
    assert e.value.file == str(bad) and e.value.log_pos == rot.pos and "log_pos" in str(e.value)


# ----------------------------------------------------------------------------- synthetic relay logs
#
# The signs other than LOG_EVENT_RELAY_LOG_F (which MariaDB 10.11 sets on its relay log's own
# events), on relay logs laid out as the module docstring of mysqlddl/binlog/reader.py draws them,
# built here without that flag.

class _File:
    def __init__(self, bl):
        self.fde = bl.Builder(server_version="8.0.36").fde_body()
        self.bl = bl
        self.data = bytearray(b"\xfebin")

    def add(self, type_code, body, **kw):
        self.data += self.bl.frame(len(self.data), type_code, body, **kw)
        return self

    def rotate(self, name: str, **kw):
        return self.add(4, struct.pack("<Q", 4) + name.encode(), **kw)

    def query(self, sql: str, **kw):
        return self.add(2, self.bl.query_body(b"", b"db", sql.encode()), **kw)


def test_relay_log_recognised_without_the_relay_flag(bl, tmp_path):
    first = _File(bl)
    first.add(15, first.fde, server_id=2)                                   # the replica's FDE
    first.rotate("binlog.000007", server_id=1, log_pos=0, flags=0x20)       # artificial, from the source
    first.add(15, first.fde, server_id=1, log_pos=4 + 19 + len(first.fde) + 4)   # the source's FDE
    first.query("CREATE TABLE a (x INT)", server_id=1, log_pos=5000)
    first.rotate("relay.000002", server_id=2)                               # the replica's own
    second = _File(bl)
    second.add(15, second.fde, server_id=2)
    second.add(15, second.fde, server_id=1, log_pos=0)                      # the source FDE's copy
    second.query("CREATE TABLE b (x INT)", server_id=1, log_pos=6000)
    paths = [tmp_path / "relay.000001", tmp_path / "relay.000002"]
    paths[0].write_bytes(bytes(first.data))
    paths[1].write_bytes(bytes(second.data))
    reader = BinlogReader(paths)
    evs = list(reader)
    assert reader.relay_log and evs[0].origin is None      # read before the signs (no relay flag)
    queries = [e for e in evs if e.type_name == "QUERY"]
    size_a, size_b = queries[0].size, queries[1].size
    assert [(q.origin.file, q.origin.pos, q.origin.next_pos) for q in queries] == [
        ("binlog.000007", 5000 - size_a, 5000), ("binlog.000007", 6000 - size_b, 6000)]
    assert [e.origin.own for e in evs[1:] if e.header.server_id == 2] == [True, True]


def test_a_foreign_rotate_alone_marks_a_relay_log(bl, tmp_path):
    """A relay file holding only the source's ROTATE (the end of a source binlog): its log_pos is
    the source's, so without recognition the next-position check would fail."""
    f = _File(bl)
    f.add(15, f.fde, server_id=2)
    f.rotate("binlog.000008", server_id=1, log_pos=899)
    f.rotate("relay.000004", server_id=2)
    p = tmp_path / "relay.000003"
    p.write_bytes(bytes(f.data))
    reader = BinlogReader(p)
    evs = list(reader)
    assert reader.relay_log and reader.source_file == "binlog.000008"
    assert evs[1].origin.next_pos == 899 and evs[2].origin.own


def test_a_binlog_event_of_another_server_keeps_the_position_check(bl, tmp_path):
    """A replica's own binlog (log_slave_updates) holds events with the source's server_id but its
    own positions: a wrong log_pos there is damage, not a relay log."""
    f = _File(bl)
    f.add(15, f.fde, server_id=2)
    f.query("CREATE TABLE a (x INT)", server_id=1)
    f.query("CREATE TABLE b (x INT)", server_id=1, log_pos=5000)
    p = tmp_path / "binlog.000001"
    p.write_bytes(bytes(f.data))
    with pytest.raises(CorruptEventError) as e:
        list(BinlogReader(p))
    assert "log_pos" in str(e.value) and e.value.file == str(p)


@pytest.mark.parametrize("verify_skipped", [True, False])
def test_a_prescan_keeps_source_positions(relay_workload, verify_skipped):
    """``only_types`` (and bodies passed by seeking): the QUERY events keep the origins a full read
    gives, source file names included (the source's ROTATEs are read, not yielded)."""
    replica, _truth, _gtid = relay_workload
    replica.wait_caught_up(applied=False)    # (other tests of the session may write on the primary)
    relays = replica.relay_log_files()
    full = [(e.file, e.pos, e.origin) for e in BinlogReader(relays, options=OPTIONS) if e.type_name == "QUERY"]
    scan = BinlogReader(relays, options=OPTIONS, only_types=["QUERY"], verify_skipped=verify_skipped)
    got = [(e.file, e.pos, e.origin) for e in scan if e.type_name == "QUERY"]   # (FDEs always come)
    assert got == full and len(got) > 30 and all(o.file for _, _, o in got)
    assert scan.relay_log
