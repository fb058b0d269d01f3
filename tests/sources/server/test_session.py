"""One dump session (mysqlddl/sources/server/session.py) without a server: the packets a server's
dump thread sends (a fake ROTATE naming the file, the file's events exactly as written, HEARTBEATs,
the EOF or ERR that ends it) are written by hand into one end of a socket pair, the session reads
the other. The events equal the file reader's; each way a dump ends is told apart (the end, the
stop position, a lost connection, silence past three heartbeat periods, the waiting hook).
The session over a real MariaDB runs in tests/sources/server/test_server.py and test_faults.py."""

from __future__ import annotations

import socket
import struct
import zlib
from pathlib import Path

import pytest

from mysqlddl.binlog.decoder import EventDecoder
from mysqlddl.binlog.packets import frame
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.positions import BinlogPosition, file_seq
from mysqlddl.sources.server.session import DumpSession, Login, Lost
from mysqlddl.sources.uri import parse_uri

BINLOG = Path(__file__).resolve().parents[2] / "data" / "shop-bin.000001"
NAME = BINLOG.name


def _file_events() -> list[tuple[int, bytes]]:
    """(offset, bytes) of each event of the file (a v4 header's event_size at offset 9)."""
    data = BINLOG.read_bytes()
    pos, out = 4, []
    while pos < len(data):
        size = int.from_bytes(data[pos + 9:pos + 13], "little")
        out.append((pos, data[pos:pos + size]))
        pos += size
    return out


def _artificial(type_code: int, body: bytes) -> bytes:
    """An event the sender makes up (LOG_EVENT_ARTIFICIAL_F, log_pos 0), with its CRC32 (the file's FDE has one)."""
    header = struct.pack("<IBIIIH", 0, type_code, 1, 19 + len(body) + 4, 0, 0x20)
    ev = header + body
    return ev + struct.pack("<I", zlib.crc32(ev))


def _rotate(name: str, pos: int = 4) -> bytes:
    return _artificial(4, pos.to_bytes(8, "little") + name.encode())


def _heartbeat(name: str) -> bytes:
    return _artificial(27, name.encode())


EOF = b"\xfe\x00\x00\x02\x00"


def _err(code: int, message: str) -> bytes:
    return b"\xff" + code.to_bytes(2, "little") + b"#HY000" + message.encode()


def _session(payloads: list[bytes], *, heartbeat: float = 5.0) -> tuple[DumpSession, socket.socket]:
    """A session reading ``payloads`` (each one packet, numbered from 1 as after the dump command)."""
    mine, theirs = socket.socketpair()
    for seq, p in enumerate(payloads, start=1):
        theirs.sendall(frame(p, seq & 0xFF))
    uri = parse_uri(f"mysql://u@127.0.0.1/?server-id=5&heartbeat={heartbeat}")
    s = DumpSession(Login(uri, "u", ""), flavor="mariadb", checksum=True, follow=False, decoder=EventDecoder(),
                    control=None, start=BinlogPosition.of(NAME, 4))
    s._sock = mine              # (what request() sets after the dump command)
    return s, theirs


def _stream(*, heartbeats: bool = False) -> list[bytes]:
    out = [b"\x00" + _rotate(NAME)]
    for _, data in _file_events():
        out.append(b"\x00" + data)
        if heartbeats:
            out.append(b"\x00" + _heartbeat(NAME))
    return out


def _norm(ev) -> tuple:
    return type(ev).__name__, Path(ev.file).name, ev.pos, ev.header.log_pos


def test_the_events_are_the_file_readers_and_an_eof_ends_the_dump():
    s, peer = _session(_stream() + [EOF])
    got = list(s.events())
    assert [(_norm(ev), t, seq, pos) for ev, t, seq, pos, _ in got] == [
        (_norm(ev), ev.header.type_code, file_seq(NAME), ev.pos) for ev in BinlogReader(str(BINLOG))]
    assert s.ended == "eof" and (s.file, s.next_pos) == (NAME, BINLOG.stat().st_size)
    peer.close()


def test_heartbeats_are_not_events():
    s, peer = _session(_stream(heartbeats=True) + [EOF])
    assert [_norm(ev) for ev, *_ in s.events()] == [_norm(ev) for ev in BinlogReader(str(BINLOG))]
    peer.close()


def test_the_stop_position_ends_the_dump_before_the_event_there():
    offsets = [pos for pos, _ in _file_events()]
    stop = offsets[5]
    s, peer = _session(_stream() + [EOF])
    got = [pos for _, _, _, pos, _ in s.events((file_seq(NAME), stop))]
    assert got == offsets[:5] and s.ended == "stop" and s.next_pos == stop
    peer.close()


@pytest.mark.parametrize("code", [1053, 1927, 2013])
def test_an_err_of_a_shutdown_or_a_kill_is_a_lost_connection(code):
    s, peer = _session(_stream()[:4] + [_err(code, "Server shutdown in progress")])
    with pytest.raises(Lost, match="shutdown"):
        list(s.events())
    peer.close()


def test_a_closed_connection_is_lost():
    s, peer = _session(_stream()[:4])
    peer.close()
    with pytest.raises(Lost, match="closed the connection"):
        list(s.events())


def test_silence_for_three_heartbeat_periods_is_a_lost_connection():
    s, peer = _session(_stream()[:4], heartbeat=0.1)
    with pytest.raises(Lost, match=r"nothing received for 0\.3 s"):
        list(s.events())
    peer.close()


def test_the_waiting_hook_is_called_when_caught_up_and_may_end_the_dump():
    calls = []
    s, peer = _session(_stream()[:4])
    got = list(s.events(waiting=lambda: calls.append(1) or True))
    assert len(got) == 3 and s.ended == "asked" and calls == [1]
    peer.close()
