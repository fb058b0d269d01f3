"""Client/server packet framing (mysqlddl.binlog.packets): the compiled core and its pure twin give
the same packets and the same errors, fed in any chunking. Layout: MySQL internals manual "MySQL
Packets" / "Sending More Than 16Mbyte"; sql/net_serv.cc ``my_real_read``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mysqlddl.binlog import _twin_packets
from mysqlddl.binlog.packets import (
    MAX_PACKET_LENGTH,
    PACKET_DATA,
    PACKET_EOF,
    PACKET_ERR,
    PACKET_OK,
    frame,
    parse_err,
)
from mysqlddl.errors import ProtocolError


def feed_all(twin, wire: bytes, chunks=(), seq=0):
    f = twin.PacketFramer(seq)
    out = []
    cuts = sorted({c % (len(wire) + 1) for c in chunks}) + [len(wire)]
    at = 0
    for c in cuts:
        f.feed(wire[at:c])
        at = c
        while (p := f.next_packet()) is not None:
            out.append(p)
    return out, f


def test_one_packet_byte_by_byte(twin):
    wire = b"\x03\x00\x00\x00abc" + b"\x00\x00\x00\x01"      # 'abc' then an empty packet
    out, f = feed_all(twin, wire, chunks=range(len(wire)))
    assert out == [b"abc", b""]
    assert f.seq == 2 and f.buffered == 0 and f.packets == 2


def test_incomplete_waits(twin):
    f = twin.PacketFramer(0)
    f.feed(b"\x05\x00\x00\x00abc")
    assert f.next_packet() is None
    assert f.buffered == 7
    f.feed(b"de")
    assert f.next_packet() == b"abcde"


def test_sequence_checked(twin):
    f = twin.PacketFramer(1)
    f.feed(b"\x01\x00\x00\x02x")
    with pytest.raises(ProtocolError, match="sequence id 2, expected 1"):
        f.next_packet()


def test_sequence_wraps(twin):
    wire = frame(b"a", 255) + frame(b"b", 0)
    out, f = feed_all(twin, wire, seq=255)
    assert out == [b"a", b"b"] and f.seq == 1


def test_reassembly_past_16_mib(twin):
    big = bytes(range(256)) * ((MAX_PACKET_LENGTH + 300) // 256)
    wire = frame(big, 3)
    # three physical packets: 0xFFFFFF, then the rest, sequence 3 and 4
    assert wire[:4] == b"\xff\xff\xff\x03"
    assert wire[4 + MAX_PACKET_LENGTH + 3] == 4
    out, f = feed_all(twin, wire, chunks=(1000, MAX_PACKET_LENGTH, MAX_PACKET_LENGTH + 6), seq=3)
    assert out == [big] and f.seq == 5 and f.packets == 1


def test_exact_multiple_closed_by_empty_packet(twin):
    exact = b"\x07" * MAX_PACKET_LENGTH
    wire = frame(exact, 0)
    assert wire[-4:] == b"\x00\x00\x00\x01"          # the empty closing packet
    out, f = feed_all(twin, wire)
    assert out == [exact] and f.seq == 2


def test_max_size(twin):
    f = twin.PacketFramer(0, 10)
    f.feed(frame(b"x" * 11, 0))
    with pytest.raises(ProtocolError, match="more than 10 bytes"):
        f.next_packet()


def test_reset_refuses_leftovers(twin):
    f = twin.PacketFramer(0)
    f.feed(b"\x01\x00")
    with pytest.raises(ProtocolError, match="2 unread bytes"):
        f.reset(0)


@pytest.mark.parametrize(("payload", "kind"), [
    (b"\x00\x00\x00\x02\x00\x00\x00", PACKET_OK),            # OK_Packet, autocommit status
    (b"\xff\x15\x04#28000Access denied", PACKET_ERR),       # ERR_Packet 1045
    (b"\xfe\x00\x00\x02\x00", PACKET_EOF),                  # EOF_Packet (< 9 bytes)
    (b"\xfe" + b"\x00" * 9, PACKET_DATA),                   # 0xFE of 10 bytes: a row / lenenc, not EOF
    (b"\x03def", PACKET_DATA),
])
def test_classify(twin, payload, kind):
    assert twin.classify(payload) == kind


def test_classify_empty(twin):
    with pytest.raises(ProtocolError):
        twin.classify(b"")


def test_parse_err():
    # ERR_Packet as the manual's example: 0xff, 0x0448 (1096), '#', 'HY000', 'No tables used'
    payload = bytes.fromhex("ff 48 04 23 48 59 30 30 30") + b"No tables used"
    assert parse_err(payload) == (1096, "HY000", "No tables used")
    assert parse_err(b"\xff\x48\x04No sqlstate") == (1096, "", "No sqlstate")


def test_compiled_and_twin_are_different_modules(twin):
    # the fixture really switches: the twin is the pure module, the other the extension
    assert (twin.PacketFramer is _twin_packets.PacketFramer) == (twin.IMPLEMENTATION == "pure-python")


payloads = st.lists(st.binary(max_size=300), min_size=1, max_size=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payloads=payloads, seq=st.integers(0, 255), chunks=st.lists(st.integers(0, 10_000), max_size=12))
def test_fuzz_roundtrip(twin, payloads, seq, chunks):
    wire = b"".join(frame(p, (seq + i) & 0xFF) for i, p in enumerate(payloads))
    out, f = feed_all(twin, wire, chunks, seq)
    assert out == payloads
    assert f.buffered == 0


def _outcome(mod, wire, chunks, seq):
    try:
        return ("ok", feed_all(mod, wire, chunks, seq)[0])
    except ProtocolError as e:
        return ("error", str(e))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payloads=payloads, seq=st.integers(0, 255), chunks=st.lists(st.integers(0, 10_000), max_size=8),
       damage=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=4))
def test_fuzz_damaged_same_outcome(twin, payloads, seq, chunks, damage):
    """Damaged wire bytes: a ProtocolError or packets, never another exception, and the compiled
    core and the twin agree exactly."""
    wire = bytearray(b"".join(frame(p, (seq + i) & 0xFF) for i, p in enumerate(payloads)))
    for at, value in damage:
        wire[at % len(wire)] = value
    got = _outcome(twin, bytes(wire), chunks, seq)
    assert got == _outcome(_twin_packets, bytes(wire), chunks, seq)


def test_next_event_splits_kind_and_body(twin):
    wire = (frame(b"\x00EVENT", 1) + frame(b"\xfe\x00\x00\x02\x00", 2) + frame(b"\xff\x48\x04oops", 3)
            + frame(b"\x00" + b"e" * MAX_PACKET_LENGTH, 4))
    f = twin.PacketFramer(1)
    f.feed(wire)
    assert f.next_event() == (PACKET_OK, b"EVENT")
    assert f.next_event() == (PACKET_EOF, b"\x00\x00\x02\x00")
    assert f.next_event() == (PACKET_ERR, b"\x48\x04oops")
    assert f.next_event() == (PACKET_OK, b"e" * MAX_PACKET_LENGTH)     # reassembled first
    assert f.next_event() is None and f.seq == 6         # the last payload took two packets


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payloads=payloads, seq=st.integers(0, 255), chunks=st.lists(st.integers(0, 10_000), max_size=8),
       damage=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=3))
def test_fuzz_next_event_same_on_both(twin, payloads, seq, chunks, damage):
    wire = bytearray(b"".join(frame(p, (seq + i) & 0xFF) for i, p in enumerate(payloads)))
    for at, value in damage:
        wire[at % len(wire)] = value

    def outcome(mod):
        f, out = mod.PacketFramer(seq), []
        try:
            at = 0
            for c in sorted({c % (len(wire) + 1) for c in chunks}) + [len(wire)]:
                f.feed(bytes(wire[at:c]))
                at = c
                while (got := f.next_event()) is not None:
                    out.append(got)
        except ProtocolError as e:
            out.append(("error", str(e)))
        return out

    assert outcome(twin) == outcome(_twin_packets)


def _reader(wire: bytes, chunks):
    """A socket's ``recv_into`` over ``wire``, handing out at most the next chunk size per call (0 at the end)."""
    state = {"at": 0, "i": 0}

    def recv_into(view, size):
        want = chunks[state["i"] % len(chunks)] if chunks else size
        state["i"] += 1
        n = min(size, len(view), max(want, 1), len(wire) - state["at"])
        view[:n] = wire[state["at"]:state["at"] + n]
        state["at"] += n
        return n

    return recv_into


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payloads=st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=20), seq=st.integers(0, 255),
       chunks=st.lists(st.integers(1, 700), max_size=8), size=st.integers(1, 2000))
def test_fuzz_read_from_same_as_feed(twin, payloads, seq, chunks, size):
    """Bytes received straight into the buffer (read_from, with small buffers that force the unread
    bytes to move to the front and the buffer to grow) give the packets feeding them gives."""
    wire = b"".join(frame(p, (seq + i) & 0xFF) for i, p in enumerate(payloads))
    f, out = twin.PacketFramer(seq), []
    recv_into = _reader(wire, chunks)
    while True:
        while (got := f.next_event()) is not None:
            out.append(got)
        if not f.read_from(recv_into, size):
            break
    assert out == [(twin.classify(p), p[1:]) for p in payloads]
    assert f.buffered == 0 and f.seq == (seq + len(payloads)) & 0xFF


def test_read_from_reassembles_a_huge_packet_and_gives_back_its_buffer(twin):
    big = b"\x00" + b"h" * MAX_PACKET_LENGTH
    wire = frame(big, 1) + frame(b"\x00after", 3)
    f = twin.PacketFramer(1)
    recv_into, got = _reader(wire, [1 << 20]), []
    while f.read_from(recv_into, 1 << 20):
        while (e := f.next_event()) is not None:
            got.append(e)
    assert got == [(PACKET_OK, big[1:]), (PACKET_OK, b"after")]
    assert f.buffered == 0 and f.seq == 4


def test_read_from_rejects_a_count_larger_than_the_buffer(twin):
    f = twin.PacketFramer(0)
    with pytest.raises(ProtocolError, match="recv_into reported"):
        f.read_from(lambda view, size: size + 1, 16)
