"""Sources (file, list, directory, .index, glob), start/stop positions, the position API and
flat memory."""

from __future__ import annotations

import gc
import shutil
import tracemalloc
from pathlib import Path

import pytest

from mysqlddl.binlog.files import event_around, resolve_sources
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import BinlogError, ChecksumError, TruncatedError
from mysqlddl.positions import BinlogPosition

FOLDER = "binlogs/mysql-cdc-rs/8.0/folder"   # binlog.000688 .. 000706, not contiguous


def test_directory_glob_and_list_order(shared_path):
    d = shared_path / FOLDER
    files = resolve_sources(d)
    assert [f.name for f in files] == sorted(f.name for f in d.iterdir() if f.name.startswith("binlog."))
    assert resolve_sources(str(d / "binlog.0006*")) == [f for f in files if f.name.startswith("binlog.0006")]
    assert resolve_sources([files[2], files[0]]) == [files[2], files[0]]


def test_index_file_order_is_kept(shared_path, tmp_path):
    d = shared_path / FOLDER
    for n in ("binlog.000692", "binlog.000688", "binlog.000689"):
        shutil.copy(d / n, tmp_path / n)
    (tmp_path / "binlog.index").write_text("./binlog.000692\n./binlog.000688\n./binlog.000689\n")
    for src in (tmp_path, tmp_path / "binlog.index"):
        r = BinlogReader(src)
        fdes = [e for e in r if e.type_name == "FORMAT_DESCRIPTION"]
        assert [e.file.rsplit("/", 1)[-1] for e in fdes] == ["binlog.000692", "binlog.000688", "binlog.000689"]
        assert r.position == BinlogPosition.in_file(str(tmp_path / "binlog.000689"), 180)


def test_bad_sources(tmp_path):
    with pytest.raises(BinlogError, match="no such file"):
        BinlogReader(tmp_path / "nope.000001")
    with pytest.raises(BinlogError, match="glob matches no files"):
        BinlogReader(str(tmp_path / "x*.0"))
    with pytest.raises(BinlogError, match="no binlog files"):
        BinlogReader(tmp_path)


def test_start_and_stop_positions(shared_path):
    f = shared_path / "binlogs/mysql-binlog-connector-java/mysql-bin.checksum-crc32"
    everything = list(BinlogReader(f))
    third = everything[5]
    part = list(BinlogReader(f, start=third.pos, stop=everything[9].pos))
    assert [(e.pos, e.type_name) for e in part] == [(e.pos, e.type_name) for e in everything[5:9]]
    r = BinlogReader(f, start=third.pos)
    first = next(iter(r))
    assert first.pos == third.pos and r.fde is not None and r.created_at == everything[0].created_at


def test_start_in_a_later_file(shared_path):
    d = shared_path / FOLDER
    files = resolve_sources(d)
    r = BinlogReader(d, start=(files[-2].name, 4), stop=BinlogPosition.in_file(str(files[-1]), 125))
    evs = list(r)
    assert {e.file for e in evs} == {str(files[-2]), str(files[-1])}
    assert [e.type_name for e in evs] == ["FORMAT_DESCRIPTION", "PREVIOUS_GTIDS", "STOP",
                                          "FORMAT_DESCRIPTION"]
    with pytest.raises(BinlogError, match="not among the sources"):
        BinlogReader(d, start=("other.000001", 4))


def test_file_creation_timestamp_from_the_fde(shared_path):
    # 15_format_desc (5.7.30): created = 1596175634 (mysql-cdc-rs test_5_7.rs line 206)
    r = BinlogReader(shared_path / "binlogs/mysql-cdc-rs/5.7/15_format_desc/log.bin")
    next(iter(r))
    assert r.created_at == 1596175634
    # a rotated-to file has created = 0: the FDE header timestamp is the creation time
    r = BinlogReader(shared_path / "binlogs/maxwell/binlog.000004")
    fde = next(iter(r))
    assert fde.create_timestamp == 0 and r.created_at == fde.header.timestamp > 0


def test_memory_stays_flat_across_files(shared_path):
    f = shared_path / FOLDER / "binlog.000693"    # 2.2 MB, 2900 events
    list(BinlogReader(f))                         # warm imports and caches
    tracemalloc.start()
    try:
        marks = []
        for ev in BinlogReader([f] * 4):
            if ev.type_name == "FORMAT_DESCRIPTION":     # one per file
                gc.collect()
                marks.append(tracemalloc.get_traced_memory()[0])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(marks) == 4
    assert max(marks[1:]) - min(marks[1:]) < 64 * 1024   # no growth from file to file
    assert peak < 4 * 1024 * 1024                     # buffer + one event, not the 2.2 MB file


def test_only_types_skips_the_rest_by_size(shared_path):
    f = shared_path / FOLDER / "binlog.000693"
    everything = [(e.pos, e.type_name) for e in BinlogReader(f)]
    r = BinlogReader(f, only_types=["QUERY", "ROTATE", 33])
    few = [(e.pos, e.type_name) for e in r]
    assert few == [x for x in everything if x[1] in ("FORMAT_DESCRIPTION", "QUERY", "ROTATE", "GTID")]
    assert len(few) == 663 + 1 and r.position.pos == f.stat().st_size


SHOP = Path(__file__).resolve().parents[1] / "data" / "shop-bin.000001"   # tools/make_sample_binlog.py


def test_verify_skipped_false_seeks_past_bodies_it_does_not_decode(tmp_path):
    """The Spark pre-scan's mode: the same events and end position as reading every body, and a
    damaged body it skips is not read (so not noticed); its header and presence still are."""
    keep = ["QUERY", "XID", "MARIADB_GTID"]
    read = [(e.pos, e.type_name) for e in BinlogReader(SHOP, only_types=keep)]
    r = BinlogReader(SHOP, only_types=keep, verify_skipped=False)
    assert [(e.pos, e.type_name) for e in r] == read
    assert r.position.pos == SHOP.stat().st_size
    assert {t for _, t in read} == {"FORMAT_DESCRIPTION", *keep}

    rows_ev = next(e for e in BinlogReader(SHOP) if e.type_name.startswith("WRITE_ROWS"))
    damaged = tmp_path / SHOP.name
    raw = bytearray(SHOP.read_bytes())
    raw[rows_ev.pos + 25] ^= 0xFF                      # inside the body: the CRC no longer matches
    damaged.write_bytes(bytes(raw))
    with pytest.raises(ChecksumError) as e:
        list(BinlogReader(damaged, only_types=keep))
    assert e.value.log_pos == rows_ev.pos
    assert [(e.pos, e.type_name) for e in BinlogReader(damaged, only_types=keep, verify_skipped=False)] == read

    cut = tmp_path / "cut" / SHOP.name                 # the file ends inside a skipped body
    cut.parent.mkdir()
    cut.write_bytes(SHOP.read_bytes()[:rows_ev.pos + 30])
    with pytest.raises(TruncatedError) as e:
        list(BinlogReader(cut, only_types=keep, verify_skipped=False))
    assert e.value.log_pos == rows_ev.pos


def test_event_around_walks_the_headers(shared_path):
    # maxwell's binlog.000004: FORMAT_DESCRIPTION 4..126, PREVIOUS_GTIDS ..197, GTID ..276, QUERY ..502
    path = shared_path / "binlogs/maxwell/binlog.000004"
    assert [event_around(path, p) for p in (0, 4, 126, 197, 276, 502, path.stat().st_size)] == [None] * 7
    assert event_around(path, 2) == (0, 4) and event_around(path, 300) == event_around(path, 501) == (276, 502)
