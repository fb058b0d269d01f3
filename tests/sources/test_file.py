"""The file source: the events of binlog files (a directory) as BinlogReader gives them, from a
position, and followed while the files grow in pieces (events cut in the middle), rotate to a new
file named in the .index, until stopped; its identity. (Following a directory a real server writes
is tests/pipeline/test_follow.py.)"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from mysqlddl.binlog.events import FormatDescriptionEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.positions import BinlogPosition
from mysqlddl.sources import FileSource, SourceOptions

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"


def _sig(events):
    return [(Path(e.file).name, e.pos, e.type_name) for e in events]


def _two_files(d: Path) -> list[Path]:
    files = [d / "b.000001", d / "b.000002"]
    for f in files:
        shutil.copyfile(SHOP, f)
    (d / "b.index").write_text("".join(f"./{f.name}\n" for f in files))
    return files


def test_reads_what_binlog_reader_reads(tmp_path):
    files = _two_files(tmp_path)
    got = _sig(FileSource(tmp_path).events())
    assert got == _sig(BinlogReader(files))
    assert len(got) > 40


def test_starts_at_a_position_with_the_file_fde_first(tmp_path):
    files = _two_files(tmp_path)
    xid_end = next(e.next_pos for e in BinlogReader(files[1]) if e.type_name == "XID")
    evs = list(FileSource(tmp_path).events(BinlogPosition(2, xid_end, "b.000002")))
    assert isinstance(evs[0], FormatDescriptionEvent) and evs[0].pos == 4
    assert evs[1].pos == xid_end and all(e.pos >= xid_end for e in evs[1:])
    assert _sig(evs[1:]) == _sig(BinlogReader(files[1], start=xid_end))


def test_follows_files_written_in_pieces_and_rotation_until_stopped(tmp_path):
    src = tmp_path / "copy"
    src.mkdir()
    files = _two_files(src)
    live = tmp_path / "live"
    live.mkdir()
    done = threading.Event()
    stop = threading.Event()

    def writer():
        index = live / "b.index"
        index.write_text("")
        for f in files:
            data = f.read_bytes()
            out = live / f.name
            out.write_bytes(b"")
            with open(index, "a") as ix:
                ix.write(f"./{f.name}\n")
            for i in range(0, len(data), 97):       # cut anywhere: inside headers and bodies
                with open(out, "ab") as o:
                    o.write(data[i:i + 97])
                time.sleep(0.002)
        done.set()

    idles = []

    def idle():
        idles.append(time.monotonic())
        if done.is_set():
            stop.set()
        return stop.is_set()

    t = threading.Thread(target=writer)
    t.start()
    source = FileSource(live, SourceOptions(follow=True, poll=0.01), on_wait=idle)
    got = _sig(source.events())
    t.join()
    assert got == _sig(BinlogReader(files))
    assert len(idles) > 3                   # it waited for the writer
    assert source.position == BinlogPosition.in_file(str(live / "b.000002"), SHOP.stat().st_size)


def test_a_stop_while_waiting_ends_cleanly(tmp_path):
    _two_files(tmp_path)
    calls = []
    source = FileSource(tmp_path, SourceOptions(follow=True, poll=0.01),
                        on_wait=lambda: calls.append(1) or len(calls) >= 2)
    evs = list(source.events())
    assert _sig(evs) == _sig(BinlogReader(sorted(tmp_path.glob("b.0*"))))
