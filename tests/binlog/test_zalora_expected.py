"""zalora/binlog-parser ships, next to each of its binlog fixtures, the JSON its parser printed for
it (shared/binlogs/zalora-binlog-parser/*/_expected/NN.json; MySQL 5.6.35, 5.7.32 with GTIDs,
MariaDB 10.0.15; see shared/binlogs/PROVENANCE.md). Our decoded rows and queries must equal it,
entry by entry, on both twins.

How zalora builds an entry (read off its output, checked here for every entry):

- one entry per row of a rows event (Insert / Update with OldData+NewData / Delete) and one per
  Query event other than BEGIN/COMMIT;
- Header: Schema and Table from the TABLE_MAP (Query: its database, Table "(unknown)"),
  BinlogMessageTime = the event's timestamp in UTC, BinlogPosition = the event's end position
  (end_log_pos), XId = the XID event that next follows a rows event (0 for a Query), GTID = the
  MySQL GTID of a row's transaction ("" for a Query, before any GTID event, and for MariaDB's own
  GTIDs);
- Row: column names from the schema zalora was given (test_db.sql, or the tables' CREATE TABLE
  statements in the GTID fixture's own binlog) when the row has as many columns as that table, else
  "(unknown_N)" by position (a table created, or altered, after the schema snapshot);
- values: integers as numbers, text as strings, DATE as YYYY-MM-DD, TIMESTAMP as UTC
  "YYYY-MM-DD hh:mm:ss".
"""

from __future__ import annotations

import datetime
import json
import re

import pytest

from mysqlddl.binlog.events import QueryEvent, RowsEvent
from mysqlddl.binlog.reader import BinlogReader

ROOT = "binlogs/zalora-binlog-parser"
CASES = [("fixtures", "01", "01"), ("fixtures", "01", "01-include-table"), ("fixtures", "02", "02"),
         ("fixtures", "03", "03"), ("fixtures", "05", "05"), ("fixtures", "06", "06"), ("fixtures", "07", "07"),
         ("gtid-fixtures", "01", "01")]
KIND = {"write": "Insert", "update": "Update", "delete": "Delete"}


def json_stream(text: str) -> list:
    """zalora prints indented JSON objects one after another (not JSON Lines)."""
    dec = json.JSONDecoder()
    out, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        out.append(obj)


def create_table_columns(sql: str) -> dict[str, list[str]]:
    """{table: [column, ...]} from CREATE TABLE statements (mysqldump / SHOW CREATE TABLE layout:
    one backquoted column per line, keys after them)."""
    out = {}
    for m in re.finditer(r"CREATE TABLE `(\w+)` \((.*?)\n\)", sql, re.S):
        out[m.group(1)] = re.findall(r"^\s+`(\w+)` ", m.group(2), re.M)
    return out


def value(v):
    if isinstance(v, datetime.datetime):
        return v.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


def named(row, columns):
    if columns is not None and len(columns) == len(row):
        return {c: value(v) for c, v in zip(columns, row, strict=True)}
    return {f"(unknown_{i})": value(v) for i, v in enumerate(row)}


def our_entries(path, schema: dict) -> list:
    events = list(BinlogReader(path))
    out = []
    gtid = ""
    for k, ev in enumerate(events):
        if ev.type_name == "GTID":
            gtid = ev.gtid
        if isinstance(ev, QueryEvent) and ev.query not in ("BEGIN", "COMMIT"):
            out.append({"Header": header(ev, ev.database, "(unknown)", 0, ""), "Type": "Query", "Query": ev.query})
        elif isinstance(ev, RowsEvent):
            xid = next((e.xid for e in events[k:] if e.type_name == "XID"), 0)
            head = header(ev, ev.table_map.database, ev.table_map.table, xid, gtid)
            columns = schema.get(ev.table_map.table)
            for r in ev.rows():
                entry = {"Header": head, "Type": KIND[ev.kind]}
                if ev.kind == "update":
                    entry["OldData"] = {"Row": named(r[0], columns)}
                    entry["NewData"] = {"Row": named(r[1], columns)}
                else:
                    entry["Data"] = {"Row": named(r, columns)}
                out.append(entry)
    return out


def header(ev, schema, table, xid, gtid):
    ts = datetime.datetime.fromtimestamp(ev.timestamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"Schema": schema, "Table": table, "BinlogMessageTime": ts, "BinlogPosition": ev.next_pos,
            "XId": xid, "GTID": gtid}


def comparable(entry: dict) -> dict:
    """An expected entry without MappingNotice (zalora's free-text note on name mapping)."""
    out = dict(entry)
    for k in ("Data", "OldData", "NewData"):
        if k in out:
            out[k] = {"Row": out[k]["Row"]}
    return out


@pytest.mark.parametrize("sub,n,expected", CASES, ids=[f"{s}-{e}" for s, _, e in CASES])
def test_decoded_entries_equal_zalora_expected(shared_path, twin, sub, n, expected):
    root = shared_path / ROOT / sub
    want = [comparable(e) for e in json_stream((root / "_expected" / f"{expected}.json").read_text())]
    path = root / f"mysql-bin.{n}"
    if sub == "fixtures":
        schema = create_table_columns((root / "_expected" / "test_db.sql").read_text())
    else:   # the GTID fixture's binlog creates its tables itself
        schema = create_table_columns("\n".join(e.query for e in BinlogReader(path) if isinstance(e, QueryEvent)))
    got = our_entries(path, schema)
    if expected.endswith("-include-table"):    # zalora run with a table filter
        tables = {e["Header"]["Table"] for e in want}
        got = [e for e in got if e["Header"]["Table"] in tables]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"entry {i}"
    n_values = sum(len(e[k]["Row"]) for e in want for k in ("Data", "OldData", "NewData") if k in e)
    assert want and (n_values > 0 or all(e["Type"] == "Query" for e in want))
