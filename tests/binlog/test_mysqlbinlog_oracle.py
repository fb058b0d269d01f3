"""Our framing and event fields against the server's own tool: zalora's fixtures ship the
``mysqlbinlog -vv`` text of each file (shared/binlogs/zalora-binlog-parser/*/_expected/
plaintext-mysql-bin.NN; MySQL 5.6.35 / 5.7.32 and MariaDB 10.0.15). Every ``# at N`` block gives
the event's position, end_log_pos, server id, CRC and kind; Query blocks also print the session
state (``SET @@session.sql_mode=...``) that the status variables carry."""

from __future__ import annotations

import re

import pytest

from mysqlddl.binlog.reader import BinlogReader

PAIRS = [("fixtures", n) for n in ("01", "02", "03", "05", "06", "07", "empty")] + [("gtid-fixtures", "01")]

HEAD = re.compile(r"^#\d{6} +\d+:\d\d:\d\d server id (\d+) +end_log_pos (\d+) (?:CRC32 0x([0-9a-f]{8}) )?\t(.*)$")


def parse_plaintext(text: str):
    """[{pos, sid, end, crc, desc, lines}] in file order. MariaDB's mysqlbinlog prints the
    ``# at`` lines of a TABLE_MAP and its rows event together, then both header lines: headers
    are matched to the pending ``# at`` lines in order."""
    blocks = []
    pending = []
    cur = None
    for line in text.splitlines():
        if line.startswith("# at "):
            blk = {"pos": int(line[5:]), "lines": []}
            blocks.append(blk)
            pending.append(blk)
            continue
        m = HEAD.match(line)
        if m and pending:
            cur = pending.pop(0)
            cur.update(sid=int(m.group(1)), end=int(m.group(2)),
                       crc=int(m.group(3), 16) if m.group(3) else None, desc=m.group(4))
        elif cur is not None:
            cur["lines"].append(line)
    return [b for b in blocks if "sid" in b]


KIND = {"Start": "FORMAT_DESCRIPTION", "Query": "QUERY", "Table_map": "TABLE_MAP", "Xid": "XID",
        "Write_rows": "WRITE_ROWS", "Update_rows": "UPDATE_ROWS", "Delete_rows": "DELETE_ROWS",
        "Stop": "STOP", "Previous-GTIDs": "PREVIOUS_GTIDS", "Gtid": "MARIADB_GTID_LIST",
        "Binlog": "MARIADB_BINLOG_CHECKPOINT", "GTID": "GTID", "Rotate": "ROTATE"}


def kind_of(desc: str) -> str:
    word = re.split(r"[\s:]", desc, maxsplit=1)[0]
    return KIND[word]


@pytest.mark.parametrize("sub,n", PAIRS, ids=[f"{s}-{n}" for s, n in PAIRS])
def test_matches_mysqlbinlog(shared_path, sub, n):
    root = shared_path / "binlogs/zalora-binlog-parser" / sub
    path = root / f"mysql-bin.{n}"
    data = path.read_bytes()
    blocks = parse_plaintext((root / "_expected" / f"plaintext-mysql-bin.{n}").read_text())
    events = [e for e in BinlogReader(path) if e.payload_offset is None]
    assert [(b["pos"], b["end"]) for b in blocks] == [(e.pos, e.next_pos) for e in events]
    session = {}
    for b, ev in zip(blocks, events, strict=True):
        assert ev.header.server_id == b["sid"]
        if b["crc"] is not None:
            assert int.from_bytes(data[ev.next_pos - 4:ev.next_pos], "little") == b["crc"]
        kind = kind_of(b["desc"])
        if kind == "GTID" and ev.type_name == "MARIADB_GTID":
            assert b["desc"] == f"GTID {ev.gtid}"
        elif kind.endswith("_ROWS"):
            assert ev.type_name.startswith(kind)   # v1 or v2
            m = re.match(r"\w+: table id (\d+)( flags: STMT_END_F)?", b["desc"])
            assert ev.table_id == int(m.group(1)) and bool(ev.flags & 1) == bool(m.group(2))
        else:
            assert ev.type_name == kind
        if kind == "FORMAT_DESCRIPTION":
            assert f"server v {ev.server_version} created" in b["desc"]
        elif kind == "QUERY":
            m = re.match(r"Query\tthread_id=(\d+)\texec_time=(\d+)\terror_code=(\d+)", b["desc"])
            assert (ev.thread_id, ev.exec_time, ev.error_code) == tuple(map(int, m.groups()))
            body = "\n".join(b["lines"])
            assert f"SET TIMESTAMP={ev.timestamp}" in body
            # mysqlbinlog prints session variables only when they change: track them.
            for name, value in re.findall(r"@@session\.(\w+)=(\d+)", body):
                session[name] = int(value)
            s = ev.status
            if s.sql_mode is not None:
                assert session["sql_mode"] == s.sql_mode
            if s.charset_client is not None:
                assert (session["character_set_client"], session["collation_connection"],
                        session["collation_server"]) == (s.charset_client, s.collation_connection,
                                                         s.collation_server)
            if s.lc_time_names is not None:
                assert session["lc_time_names"] == s.lc_time_names
            assert ev.query.split()[0] in body
        elif kind == "TABLE_MAP":
            assert b["desc"] == f"Table_map: `{ev.database}`.`{ev.table}` mapped to number {ev.table_id}"
        elif kind == "XID":
            assert b["desc"] == f"Xid = {ev.xid}"
        elif kind == "GTID" and ev.type_name == "GTID":
            assert b["desc"].startswith(f"GTID\tlast_committed={ev.last_committed}\t"
                                        f"sequence_number={ev.sequence_number}")
            assert any(ln == f"SET @@SESSION.GTID_NEXT= '{ev.gtid}'/*!*/;" for ln in b["lines"])
        elif kind == "MARIADB_GTID_LIST":
            assert b["desc"] == f"Gtid list [{ev.gtid_list}]"
        elif kind == "MARIADB_BINLOG_CHECKPOINT":
            assert b["desc"] == f"Binlog checkpoint {ev.binlog_file}"
        elif kind == "PREVIOUS_GTIDS":
            assert b["lines"][0] == f"# {ev.gtid_set}" or (not ev.gtid_sets and b["lines"][0] == "# [empty]")
