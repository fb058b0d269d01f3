"""The server stream's source contract (mysqlddl/sources/server/stream.py): identity, events from a
checkpoint, what the reader asks to decode, on the private MariaDB of tests/sources/conftest.py.
Reconnection and resumption: test_faults.py, test_huge_transaction.py, test_server_shutdown.py,
test_failover.py; where a stream resumes: test_resume_point.py."""

from __future__ import annotations

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent, RowsEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import BinlogPurgedError, GtidPositionError
from mysqlddl.positions import BinlogPosition, file_seq
from mysqlddl.sources import SourceOptions, open_source

from .test_server import norm

pytestmark = pytest.mark.mariadb


def test_identity_then_events_from_a_checkpoint(live):
    live.server.flush_logs()
    want = [norm(e) for e in BinlogReader(live.files())]
    src = open_source(live.uri(111), SourceOptions(), lazy=True)
    assert src.control is None                          # (lazy: nothing asked before the first use)
    ident, fingerprint = src.identity(None)
    assert ident == f"server:mariadb;server_id={src.settings['server_id']}" and fingerprint is None
    # a checkpoint: the end of a transaction in the middle of the binlogs
    xids = [e for e in want if isinstance(e, XidEvent)]
    end = xids[len(xids) // 2]
    ckpt = BinlogPosition.of(end.file, end.header.log_pos)
    assert src.identity(ckpt) == (ident, None)
    got = [norm(e) for e in src.events(ckpt)]
    # the file's FDE first (resent by the server: log_pos 0), at 4 where it is in the file
    assert isinstance(got[0], FormatDescriptionEvent) and (got[0].file, got[0].pos) == (end.file, 4)
    rest = [e for e in want if ckpt.key <= (file_seq(e.file), e.pos) < src.stop.key]
    assert got[1:] == rest and len(rest) > 100
    assert src.control is None                          # (the reading ends with the source closed)


def test_a_checkpoint_file_the_server_lacks_still_has_an_identity(live):
    with open_source(live.uri(112), SourceOptions()) as src:
        ident, _ = src.identity(None)
        gone = BinlogPosition.of("no-such-bin.000001", 1234)
        assert src.identity(gone) == (ident, None)
        with pytest.raises(BinlogPurgedError, match="no-such-bin.000001 is not among the server's binlogs"):
            src.events(gone)


def test_events_decode_what_the_reader_asks_for(live):
    live.server.flush_logs()
    want = [norm(e) for e in BinlogReader(live.files()) if isinstance(e, XidEvent)]
    src = open_source(live.uri(113), SourceOptions())
    got = [norm(e) for e in src.events(only_types=("XID",))]
    # (a FORMAT_DESCRIPTION is always decoded, as the file reader does: each file's says how to read it)
    assert isinstance(got[0], FormatDescriptionEvent) and {type(e) for e in got} == {FormatDescriptionEvent, XidEvent}
    assert [e for e in got if isinstance(e, XidEvent)] == [e for e in want if (file_seq(e.file), e.pos) < src.stop.key]


def test_restart_at_gtid_streams_after_the_set(live):
    """A failover's path (pipeline/failover.py): the stream planned at a file position goes after a
    GTID set instead (after a probe dump asked the server whether it has it)."""
    live.server.flush_logs()
    want = [norm(e) for e in BinlogReader(live.files())]
    gtids = [e for e in want if type(e).__name__ == "MariadbGtidEvent"]
    mid = gtids[len(gtids) // 2]
    src = open_source(live.uri(114), SourceOptions(), lazy=True)
    src.identity(BinlogPosition.of(want[0].file, 4))
    src.restart_at_gtid(mid.gtid)
    assert src.start is None and src.start_gtid == mid.gtid
    rows = [e for e in src.events() if isinstance(e, RowsEvent)]
    nxt = gtids[gtids.index(mid) + 1]
    assert rows and rows == [e for e in want[want.index(nxt):] if isinstance(e, RowsEvent)
                             and (file_seq(e.file), e.pos) < src.stop.key]


def test_restart_at_a_gtid_the_server_lacks_is_refused(live):
    with open_source(live.uri(115), SourceOptions()) as src:
        with pytest.raises(GtidPositionError):
            src.restart_at_gtid("0-1-999999999")
