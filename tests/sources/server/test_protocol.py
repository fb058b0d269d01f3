"""The replica commands byte by byte, each against a layout or an example from the documentation
(cited per test), and the GTID set helpers."""

from __future__ import annotations

import pytest

from mysqlddl.binlog.packets import frame
from mysqlddl.errors import SourceUriError
from mysqlddl.sources.server import protocol


def test_com_binlog_dump_matches_the_mariadb_kb_example():
    # MariaDB KB "COM_BINLOG_DUMP", "Example of COM_BINLOG_DUMP": position 0x0634, flags 2
    # (BINLOG_SEND_ANNOTATE_ROWS_EVENT), server_id 10101, file mysql-bin.000034, sequence 0
    example = bytes.fromhex("1b 00 00 00 12 34 06 00 00 02 00 75 27 00 00 6d"
                            "79 73 71 6c 2d 62 69 6e 2e 30 30 30 30 33 34")
    payload = protocol.binlog_dump(10101, "mysql-bin.000034", 0x634, flags=protocol.BINLOG_SEND_ANNOTATE_ROWS_EVENT)
    assert frame(payload, 0) == example


def test_com_binlog_dump_gtid_layout():
    # MySQL internals manual "COM_BINLOG_DUMP_GTID" (sql/rpl_source.cc com_binlog_dump_gtid):
    # 1e | flags 2 | server-id 4 | name len 4 | name | pos 8 | data-size 4 | data (Gtid_set::encode,
    # sql/rpl_gtid_set.cc: n_sids 8 | sid 16 | n_intervals 8 | start 8 | end 8, end exclusive).
    # The set is the MySQL Reference Manual's example source UUID ("GTID Format and Storage") with 1-5.
    gtids = protocol.parse_mysql_gtid_set("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5")
    data = protocol.encode_gtid_set(gtids)
    assert data == bytes.fromhex(
        "0100000000000000"                          # n_sids = 1
        "3e11fa4771ca11e19e33c80aa9429562"          # sid, the UUID's 16 bytes in text order
        "0100000000000000"                          # n_intervals = 1
        "0100000000000000" "0600000000000000")      # [1, 6): GNOs 1..5
    payload = protocol.binlog_dump_gtid(7, data, flags=protocol.BINLOG_DUMP_NON_BLOCK)
    assert payload == bytes.fromhex(
        "1e"
        "0500"                                      # NON_BLOCK | BINLOG_THROUGH_GTID
        "07000000"                                  # server-id 7
        "00000000"                                  # binlog-filename-len 0: from the first binlog
        "0400000000000000"                          # binlog-pos 4
        "30000000") + data                          # data-size 48


def test_com_binlog_dump_gtid_by_position():
    payload = protocol.binlog_dump_gtid(9, None, file="binlog.000042", pos=1 << 33)
    assert payload[:3] == b"\x1e\x02\x00"           # BINLOG_THROUGH_POSITION
    assert payload[7:11] == (13).to_bytes(4, "little") and payload[11:24] == b"binlog.000042"
    assert payload[24:] == (1 << 33).to_bytes(8, "little")   # 8 bytes: positions past 4 GiB


def test_gtid_sets_sorted_and_merged():
    text = ("ffffffff-0000-0000-0000-000000000001:7:1-3:4-5, "
            "00000000-0000-0000-0000-00000000000a:2")
    g = protocol.parse_mysql_gtid_set(text)
    assert g["ffffffff-0000-0000-0000-000000000001"] == [(1, 5), (7, 7)]
    data = protocol.encode_gtid_set(g)
    # sids in the order of their bytes (Gtid_set::encode walks the sid map in sidno order, which
    # gtid_executed keeps sorted): 00.. before ff..
    assert data[8:24] == bytes.fromhex("0000000000000000000000000000000a")
    assert protocol.mysql_gtid_contains(g, protocol.parse_mysql_gtid_set("ffffffff-0000-0000-0000-000000000001:2-4"))
    assert not protocol.mysql_gtid_contains(g, protocol.parse_mysql_gtid_set("ffffffff-0000-0000-0000-000000000001:6"))


@pytest.mark.parametrize("bad", ["3E11FA47-71CA-11E1-9E33-C80AA9429562", "3E11FA47-71CA-11E1-9E33-C80AA9429562:5-1",
                                 "3E11FA47-71CA-11E1-9E33-C80AA9429562:9tag:1", "0-1-5"])
def test_bad_mysql_gtid_sets(bad):
    with pytest.raises(SourceUriError):
        protocol.parse_mysql_gtid_set(bad)


def test_mariadb_gtid_state():
    assert protocol.parse_mariadb_gtid_state("0-1-100, 2-5-7") == {0: (1, 100), 2: (5, 7)}
    assert protocol.format_mariadb_gtid_state({2: (5, 7), 0: (1, 100)}) == "0-1-100,2-5-7"
    with pytest.raises(SourceUriError, match="two GTIDs for replication domain 0"):
        protocol.parse_mariadb_gtid_state("0-1-100,0-2-5")


def test_register_slave_layout():
    # MySQL internals manual "COM_REGISTER_SLAVE": 15 | server-id 4 | host len+host | user len+user |
    # password len+password | port 2 | rank 4 | master-id 4
    p = protocol.register_slave(4242, host="h", user="u", port=3306)
    assert p == bytes.fromhex("15 92100000 0168 0175 00 ea0c 00000000 00000000")
    with pytest.raises(SourceUriError):
        protocol.register_slave(1, host="x" * 256)
