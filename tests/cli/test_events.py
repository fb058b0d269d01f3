"""``mysqlddl events``: one JSON object per event; positioned errors and a non-zero exit on bad
input. Run as a function (cli.main) and as a subprocess (python -m mysqlddl)."""

from __future__ import annotations

import json

from mysqlddl import cli

COMPRESSED = "binlogs/mysql-binlog-connector-java/mysql-bin.compressed"


def _lines(text):
    return [json.loads(line) for line in text.splitlines()]


def test_events_as_a_function(shared_path, capsys):
    rc = cli.main(["events", str(shared_path / COMPRESSED)])
    out = capsys.readouterr().out
    assert rc == 0
    evs = _lines(out)
    assert [e["type"] for e in evs] == ["FORMAT_DESCRIPTION", "PREVIOUS_GTIDS", "ANONYMOUS_GTID",
                                        "TRANSACTION_PAYLOAD", "QUERY", "TABLE_MAP", "UPDATE_ROWS", "XID",
                                        "ROTATE"]
    fde = evs[0]
    assert (fde["pos"], fde["next_pos"], fde["size"]) == (4, 126, 122)
    assert fde["server_version"] == "8.0.28" and fde["checksum_alg"] == 1
    tm = evs[5]
    assert tm["payload_offset"] == 76 and tm["table"] == "movies" and tm["database"] == "demo"
    assert tm["column_metadata_raw"] == bytes.fromhex(tm["column_metadata_raw"]).hex()  # bytes as hex
    for a, b in zip(evs, evs[1:], strict=False):
        if "payload_offset" not in b:
            assert b["pos"] == a["next_pos"]
    assert evs[-1]["next_file"] == "mysql-bin.000005"


def test_events_rows_and_type_filter(shared_path, capsys):
    rc = cli.main(["events", "--rows", "--type", "update_rows", str(shared_path / COMPRESSED)])
    evs = _lines(capsys.readouterr().out)
    assert rc == 0 and [e["type"] for e in evs] == ["UPDATE_ROWS"]
    (row,) = evs[0]["rows"]
    assert len(row["before"]) == len(row["after"]) == 11


def test_events_bad_input_is_a_positioned_error(shared_path, capsys):
    rc = cli.main(["events", str(shared_path / "binlogs/mysql-binlog-connector-rust/non-binlog")])
    err = capsys.readouterr().err
    assert rc == 1
    assert "non-binlog" in err and "byte offset 0" in err and "not a binlog" in err


def test_events_truncated_tail(shared_path, tmp_path, capsys):
    data = (shared_path / COMPRESSED).read_bytes()
    p = tmp_path / "tail.000001"
    p.write_bytes(data[:-10])
    assert cli.main(["events", str(p)]) == 1
    err = capsys.readouterr().err
    assert "event at 724" in err and "ROTATE" in err
    assert cli.main(["events", "--stop-at-truncated-tail", str(p)]) == 0
    cap = capsys.readouterr()
    assert _lines(cap.out)[-1]["type"] == "TRANSACTION_PAYLOAD" or _lines(cap.out)[-1]["next_pos"] == 724
    assert "stopped at 724" in cap.err


def test_events_as_a_subprocess(shared_path, run_cli):
    ok = run_cli("events", "--start-position", "157", "--stop-position", "724", shared_path / COMPRESSED,
                 timeout=120)
    assert ok.returncode == 0, ok.stderr
    evs = _lines(ok.stdout)
    assert evs[0]["type"] == "ANONYMOUS_GTID" and evs[0]["pos"] == 157
    assert evs[-1]["type"] == "XID" and all(e["type"] != "ROTATE" for e in evs)
    bad = run_cli("events", shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000001", timeout=120)
    assert bad.returncode == 1 and "byte offset 0" in bad.stderr and bad.stdout == ""


def test_unknown_event_type_is_a_usage_error(shared_path, run_cli, usage_error):
    err = usage_error(run_cli("events", "--type", "NOPE", shared_path / COMPRESSED), "argument --type",
                      "unknown event type 'NOPE'")
    assert "query" in err and "write_rows" in err            # the valid names are listed
    ok = run_cli("events", "--type", "Query", "--type", "TYPE_100", shared_path / COMPRESSED)
    assert ok.returncode == 0, ok.stderr
    assert {e["type"] for e in _lines(ok.stdout)} == {"QUERY"}
