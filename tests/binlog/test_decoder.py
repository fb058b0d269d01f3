"""EventDecoder on its own: an event's bytes in, the typed event (or the typed error) out -- CRC32
checks, error policies, ``only_types``, the consumed-bytes check, TRANSACTION_PAYLOAD expansion and
the relay-log rules, without a file or a server around it."""

from __future__ import annotations

import struct

import pytest

from mysqlddl.binlog.decoder import (
    BinlogDecodeWarning,
    EventDecoder,
    UndecodableEvent,
    check_log_pos,
    parse_header,
)
from mysqlddl.binlog.events import FormatDescriptionEvent, IgnoredEvent, TransactionPayloadEvent
from mysqlddl.binlog.events.registry import DEFAULT_REGISTRY
from mysqlddl.binlog.events.types import EventHeader, OpaqueEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import ChecksumError, CorruptEventError
from mysqlddl.options import Options

QUERY, ROTATE, FDE, XID, PAYLOAD = 2, 4, 15, 16, 40


def _split(data: bytes) -> list[tuple[int, bytes]]:
    """(offset, bytes) of each event of a binlog file's bytes (after the magic number)."""
    out, pos = [], 4
    while pos < len(data):
        size = int.from_bytes(data[pos + 9:pos + 13], "little")
        out.append((pos, data[pos:pos + size]))
        pos += size
    return out


def _file(bl, *events, crc=True, fde_flags=0) -> list[tuple[int, bytes]]:
    b = bl.Builder(crc=crc, fde_flags=fde_flags)
    for type_code, body in events:
        b.event(type_code, body)
    return _split(b.build())


def _decode_all(dec: EventDecoder, name: str, framed) -> list:
    out = []
    for pos, data in framed:
        ev = dec.decode(name, pos, data)
        if ev is not None:
            out.append(ev)
            if isinstance(ev, TransactionPayloadEvent):
                out.extend(dec.payload_events(ev))
    return out


def _flip(data: bytes, at: int) -> bytes:
    b = bytearray(data)
    b[at] ^= 0xFF
    return bytes(b)


@pytest.mark.parametrize("rel", ["boxercrab/bin_files/binlog.bin", "canal/binlog/mysql-bin.000002",
                                 "mysql-binlog-connector-java/mysql-bin.compressed"])
def test_decoding_event_by_event_gives_what_the_reader_gives(shared_path, rel):
    """The server stream's way in (whole events, one at a time) and the file reader's agree."""
    path = shared_path / "binlogs" / rel
    reader = BinlogReader(path, check_log_pos=False)
    want = list(reader)
    dec = EventDecoder()
    got = _decode_all(dec, str(path), _split(path.read_bytes()))
    assert got == want and dec.events_read == reader.events_read == len(want)
    assert [e.payload_offset for e in got] == [e.payload_offset for e in want]


# ----------------------------------------------------------------------------------- CRC32 and policies
def test_the_fde_crc_is_checked_with_binlog_in_use_cleared(bl):
    """The server sets LOG_EVENT_BINLOG_IN_USE_F in the open file after computing the FDE's CRC."""
    (pos, fde), = _file(bl, fde_flags=0x01)
    ev = EventDecoder().decode("f", pos, fde)
    assert isinstance(ev, FormatDescriptionEvent) and ev.header.flags == 0x01 and ev.uses_crc32
    with pytest.raises(ChecksumError) as ei:
        EventDecoder().decode("f", pos, _flip(fde, len(fde) - 1))
    assert (ei.value.file, ei.value.log_pos, ei.value.offset) == ("f", pos, pos + len(fde) - 4)


def _bad_query(bl):
    fde, query, xid = _file(bl, (QUERY, bl.query_body(b"")), (XID, bytes(8)))
    return fde, (query[0], _flip(query[1], len(query[1]) - 1)), xid


def test_a_crc_mismatch_raises_positioned(bl):
    fde, (pos, bad), xid = _bad_query(bl)
    dec = EventDecoder()
    dec.decode("f", *fde)
    with pytest.raises(ChecksumError, match="CRC32 mismatch") as ei:
        dec.decode("f", pos, bad)
    assert (ei.value.file, ei.value.log_pos, ei.value.offset, ei.value.event_type) == (
        "f", pos, pos + len(bad) - 4, "QUERY")
    assert dec.events_read == 1 and dec.errors == []


@pytest.mark.parametrize("policy", ["collect", "warn", "skip"])
def test_an_error_policy_keeps_the_bad_event_and_goes_on(bl, policy):
    fde, (pos, bad), xid = _bad_query(bl)
    dec = EventDecoder(options=Options(error_policy=policy))
    dec.decode("f", *fde)
    if policy == "warn":
        with pytest.warns(BinlogDecodeWarning, match="CRC32 mismatch"):
            ev = dec.decode("f", pos, bad)
    else:
        ev = dec.decode("f", pos, bad)
    assert len(dec.errors) == 1 and isinstance(dec.errors[0], ChecksumError) and dec.errors[0].log_pos == pos
    if policy == "skip":
        assert ev is None and dec.events_read == 1
    else:
        assert isinstance(ev, UndecodableEvent) and ev.body == bad[19:] and ev.error is dec.errors[0]
        assert (ev.pos, ev.next_pos, ev.type_name) == (pos, pos + len(bad), "QUERY") and dec.events_read == 2
    assert dec.decode("f", *xid).type_name == "XID"


def test_a_bad_fde_raises_whatever_the_policy(bl):
    (pos, fde), = _file(bl)
    with pytest.raises(ChecksumError):
        EventDecoder(options=Options(error_policy="collect")).decode("f", pos, _flip(fde, len(fde) - 1))


def test_only_types_leaves_events_undecoded_but_checks_their_crc(bl):
    fde, (pos, bad), xid = _bad_query(bl)
    dec = EventDecoder(only_types=["XID"])
    assert dec.decode("f", *fde) is not None            # the FDE always: it defines the framing
    assert dec.decode("f", xid[0], xid[1]).type_name == "XID"
    with pytest.raises(ChecksumError):
        dec.decode("f", pos, bad)
    good = _file(bl, (QUERY, bl.query_body(b"")))[1]
    assert dec.decode("f", *good) is None and dec.events_read == 2
    assert EventDecoder(only_types=["XID"], options=Options(verify_checksums=False)).skipped(QUERY)


# -------------------------------------------------------------------------------- bodies and headers
def test_a_body_not_consumed_whole_is_corrupt(bl):
    def lazy_query(header, cur, ctx):
        cur.pos += 3                                     # reads less than its body
        return IgnoredEvent(**ctx.base(header))

    registry = DEFAULT_REGISTRY.copy()
    registry.register(QUERY, lazy_query)
    fde, (pos, query) = _file(bl, (QUERY, bl.query_body(b"")))
    dec = EventDecoder(registry=registry)
    dec.decode("f", *fde)
    with pytest.raises(CorruptEventError, match="were not consumed") as ei:
        dec.decode("f", pos, query)
    assert (ei.value.file, ei.value.log_pos, ei.value.event_type) == ("f", pos, "QUERY")


def test_a_type_without_decoder_is_ignored_if_ignorable_else_kept_opaque(bl):
    b = bl.Builder().event(100, b"abc", flags=0x80).event(101, b"xyz")
    fde, ignorable, unknown = _split(b.build())
    dec = EventDecoder()
    dec.decode("f", *fde)
    assert isinstance(dec.decode("f", *ignorable), IgnoredEvent)
    opaque = dec.decode("f", *unknown)
    assert isinstance(opaque, OpaqueEvent) and opaque.body == b"xyz"


def test_headers_and_sizes(bl):
    with pytest.raises(CorruptEventError, match="shorter than its 19-byte header"):
        EventDecoder.header(b"\0" * 18)
    (pos, fde), = _file(bl)
    assert EventDecoder.header(fde) == parse_header(fde) and parse_header(fde).type_code == FDE
    assert parse_header(struct.pack("<IBII", 7, 1, 3, 60), 13) == EventHeader(7, 1, 3, 60, 0, 0, 13)
    with pytest.raises(CorruptEventError, match="bytes received"):
        EventDecoder().decode("f", pos, fde + b"\0")


def test_log_pos_is_compared_modulo_2_32():
    """log_pos is a 4-byte field: past 4 GiB (one huge transaction) it wraps."""
    offset = (1 << 32) - 10
    check_log_pos("f", offset, EventHeader(0, 2, 1, 100, 90, 0))
    with pytest.raises(CorruptEventError):
        check_log_pos("f", offset, EventHeader(0, 2, 1, 100, offset + 100, 0))


def test_an_artificial_event_is_verified_and_stripped(bl):
    rotate = bl.frame(0, ROTATE, struct.pack("<Q", 4) + b"binlog.000001", log_pos=0, flags=0x20)
    header = EventDecoder.header(rotate)
    assert EventDecoder(checksum=True).verify_artificial("", 0, header, rotate) == rotate[19:-4]
    assert EventDecoder(checksum=False).verify_artificial("", 0, header, rotate) == rotate[19:]
    with pytest.raises(ChecksumError):
        EventDecoder(checksum=True).verify_artificial("", 0, header, _flip(rotate, len(rotate) - 1))


def test_a_stream_fde_starts_a_new_table_map_cache(bl):
    tm = bl.table_map(5, ncols_types=[3], meta=b"")
    fde, table_map = _file(bl, (19, tm))
    dec = EventDecoder()
    dec.decode("a", *fde)
    dec.decode("a", *table_map)
    assert dec.tables.get(5) is not None
    dec.decode("b", *fde)
    assert dec.tables.get(5) is None


# --------------------------------------------------------------------------------- TRANSACTION_PAYLOAD
def _payload_body(inner: bytes) -> bytes:
    """An uncompressed payload's fields (compression NONE, 255; control_events.h
    ``Transaction_payload_event``): size, compression type, end mark, then the events."""
    size = bytes([len(inner)]) if len(inner) < 251 else b"\xfc" + len(inner).to_bytes(2, "little")
    return b"\x01" + bytes([len(size)]) + size + b"\x02\x03\xfc\xff\x00" + b"\x00" + inner


def test_payload_events_follow_at_the_payload_position(bl):
    inner = bl.frame(0, QUERY, bl.query_body(b""), log_pos=0, crc=False)
    inner += bl.frame(0, XID, bytes(8), log_pos=0, crc=False)
    fde, (pos, payload) = _file(bl, (PAYLOAD, _payload_body(inner)))
    dec = EventDecoder()
    dec.decode("f", *fde)
    outer = dec.decode("f", pos, payload)
    assert isinstance(outer, TransactionPayloadEvent) and outer.payload == inner
    evs = dec.payload_events(outer)
    assert [(e.type_name, e.pos, e.next_pos, e.payload_offset) for e in evs] == [
        ("QUERY", pos, outer.next_pos, 0), ("XID", pos, outer.next_pos, len(inner) - 27)]
    assert dec.events_read == 4


@pytest.mark.parametrize("inner,match", [
    (b"\0" * 10, "payload ends inside an event header"),
    (struct.pack("<IBIIIH", 0, QUERY, 1, 500, 0, 0), "does not fit"),
    (struct.pack("<IBIIIH", 0, FDE, 1, 19, 0, 0), "cannot appear inside a payload"),
])
def test_a_damaged_payload_is_the_payload_events_error(bl, inner, match):
    fde, (pos, payload) = _file(bl, (PAYLOAD, _payload_body(inner)))
    dec = EventDecoder()
    dec.decode("f", *fde)
    outer = dec.decode("f", pos, payload)
    with pytest.raises(CorruptEventError, match=match) as ei:
        dec.payload_events(outer)
    assert "inside the TRANSACTION_PAYLOAD" in str(ei.value)
    assert (ei.value.file, ei.value.log_pos, ei.value.offset, ei.value.event_type) == (
        "f", pos, pos, "TRANSACTION_PAYLOAD")


# ---------------------------------------------------------------------------------------- relay logs
def _read(dec: EventDecoder, name: str, data: bytes) -> list:
    """A file's events through the file reader's steps (new_file, frame, first, take)."""
    dec.new_file()
    out = []
    for n, (pos, raw) in enumerate(_split(data)):
        header = parse_header(raw)
        crc = dec.frame(name, pos, header)
        ev = dec.first(name, pos, header, raw, crc) if n == 0 else dec.take(name, pos, header, raw, crc)
        if ev is not None:
            out.append(ev)
    return out


class _Relay:
    def __init__(self, bl):
        self.bl = bl
        self.fde = bl.Builder(server_version="8.0.36").fde_body()
        self.data = bytearray(b"\xfebin")

    def add(self, type_code, body, **kw):
        self.data += self.bl.frame(len(self.data), type_code, body, **kw)
        return self

    def rotate(self, name, position=4, **kw):
        return self.add(ROTATE, struct.pack("<Q", position) + name.encode(), **kw)

    def query(self, sql, **kw):
        return self.add(QUERY, self.bl.query_body(b"", b"db", sql.encode()), **kw)


def test_a_relay_log_is_recognised_and_its_source_events_get_their_origin(bl):
    f = _Relay(bl)
    f.add(FDE, f.fde, server_id=2)                                       # the replica's FDE
    f.rotate("binlog.000007", server_id=1, log_pos=0, flags=0x20)        # artificial, from the source
    f.add(FDE, f.fde, server_id=1, log_pos=0)                            # the source's FDE (copy)
    f.query("CREATE TABLE a (x INT)", server_id=1, log_pos=5000)         # the source's position
    f.rotate("relay.000002", server_id=2)                                # the replica's own
    dec = EventDecoder(check_log_pos=True)
    evs = _read(dec, "relay.000001", bytes(f.data))
    assert dec.relay_log and dec.source_file == "binlog.000007" and evs[0].origin is None
    q = evs[3]
    assert (q.origin.file, q.origin.pos, q.origin.next_pos) == ("binlog.000007", 5000 - q.size, 5000)
    assert evs[1].origin.pos is None and evs[4].origin.own
    # the next file of the set is a relay log from its first event, and keeps the source's name
    g = _Relay(bl)
    g.add(FDE, g.fde, server_id=2)
    g.query("CREATE TABLE b (x INT)", server_id=1, log_pos=6000)
    q2 = _read(dec, "relay.000002", bytes(g.data))[1]
    assert q2.origin.file == "binlog.000007" and q2.origin.next_pos == 6000


def test_the_relay_flag_marks_a_relay_log_from_its_first_event(bl):
    f = _Relay(bl)
    f.add(FDE, f.fde, server_id=2, flags=0x40)                           # LOG_EVENT_RELAY_LOG_F
    f.query("CREATE TABLE a (x INT)", server_id=1, log_pos=777)
    dec = EventDecoder(check_log_pos=True)
    evs = _read(dec, "r", bytes(f.data))
    assert dec.relay_log and evs[0].origin.own and evs[1].origin.next_pos == 777


def test_a_source_rotate_naming_a_later_position_is_the_replicas(bl):
    """MariaDB's I/O thread, after a reconnect inside a transaction: source server_id, relay log_pos."""
    f = _Relay(bl)
    f.add(FDE, f.fde, server_id=2, flags=0x40)
    f.rotate("binlog.000003", position=1234, server_id=1, log_pos=400)
    dec = EventDecoder(check_log_pos=True)
    rot = _read(dec, "r", bytes(f.data))[1]
    assert dec.source_file == "binlog.000003" and (rot.origin.file, rot.origin.pos) == ("binlog.000003", None)


def test_a_skipped_source_rotate_still_names_the_source_file(bl):
    f = _Relay(bl)
    f.add(FDE, f.fde, server_id=2)
    f.rotate("binlog.000008", server_id=1, log_pos=899)                 # a foreign ROTATE: a relay log
    dec = EventDecoder(only_types=["QUERY"], check_log_pos=True)
    assert len(_read(dec, "r", bytes(f.data))) == 1
    assert dec.relay_log and dec.source_file == "binlog.000008"


def test_a_binlog_keeps_the_position_check(bl):
    """Not a relay log (a replica's own binlog holds the source's server_id with its own positions):
    a wrong next position is damage."""
    f = _Relay(bl)
    f.add(FDE, f.fde, server_id=2)
    f.query("CREATE TABLE a (x INT)", server_id=1)
    f.query("CREATE TABLE b (x INT)", server_id=1, log_pos=5000)
    dec = EventDecoder(check_log_pos=True)
    with pytest.raises(CorruptEventError, match="log_pos") as ei:
        _read(dec, "b", bytes(f.data))
    assert not dec.relay_log and ei.value.file == "b"
    assert len(_read(EventDecoder(), "b", bytes(f.data))) == 3           # the check is the reader's choice


def test_a_files_first_event_must_be_a_format_description(bl):
    """Whatever the error policy: nothing after it can be framed without it."""
    f = _Relay(bl).add(XID, bytes(8), crc=False)          # (no FDE yet to say there is a CRC)
    dec = EventDecoder(options=Options(error_policy="collect"))
    with pytest.raises(CorruptEventError, match="the first event is XID, not a FORMAT_DESCRIPTION_EVENT"):
        _read(dec, "f", bytes(f.data))
    with pytest.raises(CorruptEventError):            # (a QUERY cannot even be decoded without an FDE)
        _read(dec, "f", bytes(_Relay(bl).query("SELECT 1").data))
    assert dec.errors == [] and dec.events_read == 0
