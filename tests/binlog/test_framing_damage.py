"""Truncated and corrupted real files: every damage ends in a typed, positioned error (or, for a
truncated tail in the opt-in mode, a clean stop that says where)."""

from __future__ import annotations

import pytest

from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import BinlogError, ChecksumError, TruncatedError
from mysqlddl.options import Options

TAIL = Options(stop_at_truncated_tail=True)
NOCK = Options(verify_checksums=False)

# Small real files: 5.7 CRC32 with rows (boxercrab), 8.0.28 with a zstd payload, 5.1 without CRC,
# MariaDB 10.0 without CRC.
FILES = ["boxercrab/bin_files/binlog.bin", "mysql-binlog-connector-java/mysql-bin.compressed",
         "canal/binlog/mysql-bin.000002", "tiflow/mysql-bin.000001"]


def _events(path, **kw):
    r = BinlogReader(path, **kw)
    return r, list(r)


def _boundaries(path):
    _, evs = _events(path)
    return [(e.pos, e.next_pos, e.type_name) for e in evs if e.payload_offset is None]


@pytest.mark.parametrize("rel", FILES)
def test_truncated_at_every_boundary_and_inside_every_event(shared_path, tmp_path, rel):
    data = (shared_path / "binlogs" / rel).read_bytes()
    spans = _boundaries(shared_path / "binlogs" / rel)
    cut_file = tmp_path / "cut.bin"
    for i, (start, end, tname) in enumerate(spans):
        # At the boundary: a shorter but complete file -- exactly the events before it.
        cut_file.write_bytes(data[:start])
        r, evs = _events(cut_file)
        assert len([e for e in evs if e.payload_offset is None]) == i
        assert r.position.pos == start and r.truncated is None
        # Inside the event: inside its header, right after the header, one byte short.
        for cut in sorted({start + 1, start + 18, start + 19, end - 1} - {start, end}):
            if not start < cut < end:
                continue
            cut_file.write_bytes(data[:cut])
            with pytest.raises(TruncatedError) as ei:
                _events(cut_file)
            e = ei.value
            assert e.log_pos == start and e.file == str(cut_file)
            assert e.offset == cut and e.available == cut - start
            assert e.needed == (19 if cut - start < 19 else end - start)
            assert e.event_type == (None if cut - start < 19 else tname)
            # Opt-in: stop cleanly after the last complete event and say where.
            r, evs = _events(cut_file, options=TAIL)
            assert len([e for e in evs if e.payload_offset is None]) == i
            assert r.truncated is not None and r.truncated.pos == start
            assert r.truncated.available == cut - start


def test_truncated_inside_the_magic(shared_path, tmp_path):
    p = tmp_path / "m.bin"
    p.write_bytes(b"\xfebi")
    with pytest.raises(TruncatedError) as ei:
        _events(p)
    assert ei.value.needed == 4 and ei.value.available == 3


CRC_FILES = ["boxercrab/bin_files/binlog.bin", "mysql-binlog-connector-java/mysql-bin.compressed",
             "mysql-cdc-rs/5.7/17_18_load/log.bin"]


@pytest.mark.parametrize("rel", CRC_FILES)
def test_flipped_body_byte_is_a_checksum_error_at_that_event(shared_path, tmp_path, rel):
    data = (shared_path / "binlogs" / rel).read_bytes()
    spans = _boundaries(shared_path / "binlogs" / rel)
    bad = tmp_path / "bad.bin"
    for start, end, tname in spans:
        for at in {start + 19 + (end - start - 23) // 2, end - 1}:   # mid-body, inside the CRC
            flipped = bytearray(data)
            flipped[at] ^= 0x01
            bad.write_bytes(bytes(flipped))
            with pytest.raises(ChecksumError) as ei:
                _events(bad)
            assert ei.value.log_pos == start and ei.value.event_type == tname
            assert ei.value.offset == end - 4
            assert "CRC32 mismatch" in str(ei.value) and str(bad) in str(ei.value)


def test_fde_in_use_flag_is_not_covered_by_its_crc(shared_path, tmp_path):
    # boxercrab's FDE carries LOG_EVENT_BINLOG_IN_USE_F; clearing it must not break the CRC either
    data = bytearray((shared_path / "binlogs/boxercrab/bin_files/binlog.bin").read_bytes())
    assert data[4 + 17] & 1
    data[4 + 17] &= 0xFE
    p = tmp_path / "clean.bin"
    p.write_bytes(bytes(data))
    _, evs = _events(p)
    assert evs[0].header.flags & 1 == 0
    # ... but the in-use flag on any other event is covered.
    spans = _boundaries(p)
    data[spans[1][0] + 17] |= 1
    p.write_bytes(bytes(data))
    with pytest.raises(ChecksumError):
        _events(p)


def test_checksums_can_be_skipped(shared_path, tmp_path):
    data = bytearray((shared_path / "binlogs/boxercrab/bin_files/binlog.bin").read_bytes())
    start, end, _ = _boundaries(shared_path / "binlogs/boxercrab/bin_files/binlog.bin")[3]
    data[end - 1] ^= 0xFF           # only the CRC bytes: the body still decodes
    p = tmp_path / "x.bin"
    p.write_bytes(bytes(data))
    with pytest.raises(ChecksumError):
        _events(p)
    _, evs = _events(p, options=NOCK)
    assert evs[-1].next_pos == len(data)


@pytest.mark.parametrize("rel", FILES)
def test_every_single_byte_flip_gives_a_typed_error_or_decodes(shared_path, tmp_path, rel):
    """No flip anywhere (checksums off, so the decoders see the damage) may escape as anything
    but a BinlogError; the flips are a deterministic sample of every 7th byte."""
    data = (shared_path / "binlogs" / rel).read_bytes()
    p = tmp_path / "f.bin"
    for at in range(0, len(data), 7):
        b = bytearray(data)
        b[at] ^= 0x5A
        p.write_bytes(bytes(b))
        try:
            for _ev in BinlogReader(p, options=NOCK):
                pass
        except BinlogError as e:
            assert e.file == str(p) and e.offset is not None


@pytest.mark.parametrize("policy", ["collect", "warn", "skip"])
def test_error_policy_keeps_going_past_a_bad_event(shared_path, tmp_path, policy):
    from mysqlddl.binlog.reader import BinlogDecodeWarning, UndecodableEvent

    src = shared_path / "binlogs/boxercrab/bin_files/binlog.bin"
    data = bytearray(src.read_bytes())
    spans = _boundaries(src)
    start, end, tname = spans[5]
    data[end - 1] ^= 0xFF                      # CRC of the 6th event
    p = tmp_path / "p.bin"
    p.write_bytes(bytes(data))
    r = BinlogReader(p, options=Options(error_policy=policy))
    if policy == "warn":
        with pytest.warns(BinlogDecodeWarning, match="CRC32 mismatch"):
            evs = list(r)
    else:
        evs = list(r)
    assert len(r.errors) == 1 and isinstance(r.errors[0], ChecksumError) and r.errors[0].log_pos == start
    bad = [e for e in evs if isinstance(e, UndecodableEvent)]
    if policy == "skip":
        assert bad == [] and len(evs) == len(spans) - 1
    else:
        assert [(e.pos, e.type_name) for e in bad] == [(start, tname)] and len(evs) == len(spans)
    assert r.position.pos == len(data)


def test_positions_order_by_file_number_then_offset():
    from mysqlddl.positions import BinlogPosition

    a, b, c = (BinlogPosition.in_file("/x/bin.000009", 900), BinlogPosition.in_file("/x/bin.000010", 4),
               BinlogPosition.in_file("/x/bin.000010", 120))
    assert sorted([c, b, a]) == [a, b, c] and a.key == (9, 900) and a < b <= b


# ----------------------------------------------------------------------- header next-position (log_pos)
def _set_log_pos(data: bytes, pos: int, log_pos: int, crc: bool) -> bytes:
    """Rewrite the log_pos field (header bytes 13..16) of the event at ``pos`` and, if the file
    has CRC32, recompute its checksum so that only the position is wrong."""
    import struct
    import zlib

    out = bytearray(data)
    struct.pack_into("<I", out, pos + 13, log_pos)
    if crc:
        size = struct.unpack_from("<I", out, pos + 9)[0]
        struct.pack_into("<I", out, pos + size - 4, zlib.crc32(out[pos:pos + size - 4]) & 0xFFFFFFFF)
    return bytes(out)


@pytest.mark.parametrize("rel,crc", [("boxercrab/bin_files/binlog.bin", True),
                                     ("canal/binlog/mysql-bin.000002", False)])
def test_log_pos_mismatch_is_a_positioned_corrupt_event(shared_path, tmp_path, rel, crc):
    from mysqlddl.errors import CorruptEventError

    data = (shared_path / "binlogs" / rel).read_bytes()
    spans = _boundaries(shared_path / "binlogs" / rel)
    start, end, tname = spans[2]
    bad = tmp_path / "badpos.bin"
    bad.write_bytes(_set_log_pos(data, start, end + 1, crc))
    with pytest.raises(CorruptEventError, match="log_pos") as ei:
        _events(bad)
    e = ei.value
    assert (e.file, e.log_pos, e.offset, e.event_type) == (str(bad), start, start + 13, tname)
    # the events before it were read; opting out (relay logs keep the source's positions) reads all
    r = BinlogReader(bad)
    got = []
    with pytest.raises(CorruptEventError):
        got.extend(r)
    assert [ev.pos for ev in got] == [s for s, _, _ in spans[:2]]
    assert len(_events(bad, check_log_pos=False)[1]) == len(_events(shared_path / "binlogs" / rel)[1])
    # log_pos 0 (artificial and relay-log events) is accepted
    zero = tmp_path / "zeropos.bin"
    zero.write_bytes(_set_log_pos(data, start, 0, crc))
    assert [ev.pos for ev in _events(zero)[1]] == [ev.pos for ev in _events(shared_path / "binlogs" / rel)[1]]
