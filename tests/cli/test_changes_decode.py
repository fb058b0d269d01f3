"""How `mysqlddl changes` and `history` decode the events of binlog files is what their options say,
the source's as the reader's (issue #31: the reader takes an opened source, so the decoding options
must reach the source): a CRC32 damaged in a copy of the shop sample fails the reading, and
`--no-verify-checksums` reads it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mysqlddl.binlog.events import XidEvent
from mysqlddl.binlog.reader import BinlogReader

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
BASELINE = DATA / "shop-baseline.sql"


@pytest.fixture
def damaged(tmp_path) -> Path:
    """The shop sample with the last byte of an XID event's CRC32 flipped."""
    copy = tmp_path / SHOP.name
    shutil.copyfile(SHOP, copy)
    xid = next(ev for ev in BinlogReader(SHOP) if isinstance(ev, XidEvent))
    data = bytearray(copy.read_bytes())
    data[xid.next_pos - 1] ^= 0xFF
    copy.write_bytes(bytes(data))
    return copy


@pytest.mark.parametrize("command", ["changes", "history"])
def test_no_verify_checksums_reaches_the_file_source(run_cli, damaged, command):
    strict = run_cli(command, damaged, "--schema", BASELINE)
    assert strict.returncode == 1 and "CRC32 mismatch" in strict.stderr
    lenient = run_cli(command, damaged, "--schema", BASELINE, "--no-verify-checksums")
    assert lenient.returncode == 0, lenient.stderr
    assert lenient.stdout == run_cli(command, SHOP, "--schema", BASELINE).stdout != ""
