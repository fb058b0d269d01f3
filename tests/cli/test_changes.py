"""`mysqlddl changes` / `mysqlddl history`: as a function (main(argv)) and as a subprocess (run
from a temporary cwd, so the installed package is what runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mysqlddl.cli import main

GO_MYSQL_DDL = """
CREATE TABLE decodedecimal (
    id     int(11) not null auto_increment,
    v4_2 decimal(4,2), v5_0 decimal(5,0), v7_3 decimal(7,3), v10_2 decimal(10,2),
    v10_3 decimal(10,3), v13_2 decimal(13,2), v15_14 decimal(15,14), v20_10 decimal(20,10),
    v30_5 decimal(30,5), v30_20 decimal(30,20), v30_25 decimal(30,25),
    prec   int(11), scale  int(11), PRIMARY KEY(id)
) engine=InnoDB;
"""  # the CREATE TABLE of go-mysql's _expected/ddsql.sql (Percona Server 5.6.16)


def lines(text):
    return [json.loads(x) for x in text.splitlines() if x.strip()]


@pytest.fixture
def go_mysql(shared_path):
    return str(shared_path / "binlogs/go-mysql/tcb-eval002c-bin.003320")


def test_changes_to_a_file_with_a_json_summary(shared_path, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    rc = main(["changes", str(shared_path / "binlogs/maxwell/binlog.000004"), "-o", str(out),
               "--summary", "json"])
    assert rc == 0
    events = lines(out.read_text())
    rows = [e for e in events if "op" in e]
    assert len(rows) == 28 and {e["op"] for e in rows} == {"c", "u"}
    assert sum(1 for e in events if e.get("status") == "BEGIN") == 5
    assert sum(1 for e in events if "ddl" in e) == 16
    summary = json.loads(capsys.readouterr().err)
    assert summary["dml_rows"] == 28 and summary["ddl"] == 16
    assert summary["rows"]["bac_schema.bac_schema"] == {"c": 10, "u": 9}
    assert summary["first_event_ts"] <= summary["last_event_ts"]


def test_baseline_schema_names_the_columns(go_mysql, tmp_path, capsys):
    ddl = tmp_path / "schema.sql"
    ddl.write_text(GO_MYSQL_DDL)
    assert main(["changes", go_mysql, "--summary", "none"]) == 0
    bare = [e for e in lines(capsys.readouterr().out) if "op" in e]
    assert bare[0]["mysqlddl"] == {"naming": "positional"} and "col_2" in bare[0]["after"]
    assert main(["changes", go_mysql, "--schema", str(ddl), "--schema-database", "test",
                 "--summary", "none", "--no-transactions"]) == 0
    rows = lines(capsys.readouterr().out)
    assert len(rows) == 17 and "mysqlddl" not in rows[0]
    # first row of ddsql.sql: "-10.55" into every column, (prec, scale) = (4, 2)
    assert rows[0]["after"]["v4_2"] == "-10.55" and rows[0]["after"]["v5_0"] == "-11"
    assert rows[0]["after"]["v30_25"] == "-10.5500000000000000000000000"
    assert (rows[0]["after"]["prec"], rows[0]["after"]["scale"]) == (4, 2)


def test_mismatch_exit_code_and_flag_mode(go_mysql, tmp_path, capsys):
    ddl = tmp_path / "stale.sql"
    ddl.write_text(GO_MYSQL_DDL.replace("v4_2 decimal(4,2)", "v4_2 decimal(4,3)"))
    assert main(["changes", go_mysql, "--schema", str(ddl), "--schema-database", "test"]) == 3
    err = capsys.readouterr().err
    assert "decimal(4,3)" in err and "--on-mismatch flag" in err
    assert main(["changes", go_mysql, "--schema", str(ddl), "--schema-database", "test",
                 "--on-mismatch", "flag", "--summary", "json"]) == 0
    captured = capsys.readouterr()
    rows = [e for e in lines(captured.out) if "op" in e]
    assert len(rows) == 17 and "decimal(4,3)" in rows[0]["mysqlddl"]["mismatch"][0]
    assert json.loads(captured.err)["mismatches_flagged"] == 1


def test_filters(shared_path, capsys):
    path = str(shared_path / "binlogs/maxwell/binlog.000004")
    assert main(["changes", path, "--table", "bac_history", "--no-transactions",
                 "--no-schema-changes", "--summary", "none"]) == 0
    rows = lines(capsys.readouterr().out)
    assert len(rows) == 9 and {e["source"]["table"] for e in rows} == {"bac_history"}
    assert main(["changes", path, "--exclude-database", "bac_schema", "--summary", "none"]) == 0
    assert not [e for e in lines(capsys.readouterr().out) if "op" in e]
    # the updates happened last: a start time after the inserts keeps only them
    assert main(["changes", path, "--no-transactions", "--no-schema-changes", "--summary", "none"]) == 0
    every = lines(capsys.readouterr().out)
    t_upd = min(e["ts_ms"] for e in every if e["op"] == "u") // 1000
    assert main(["changes", path, "--start-datetime", f"@{t_upd}", "--no-transactions",
                 "--no-schema-changes", "--summary", "none"]) == 0
    later = lines(capsys.readouterr().out)
    assert later and {e["op"] for e in later} == {"u"}
    # GTID include set: the transaction of the first update only
    gtid = next(e for e in every if e["op"] == "u")["source"]["gtid"]
    assert main(["changes", path, "--include-gtids", gtid, "--no-transactions", "--no-schema-changes",
                 "--summary", "none"]) == 0
    only = lines(capsys.readouterr().out)
    assert only and {e["source"]["gtid"] for e in only} == {gtid}
    # stop position: nothing at or after it is read
    pos = next(e for e in every if e["op"] == "u")["source"]["pos"]
    assert main(["changes", path, "--stop-position", str(pos), "--summary", "none",
                 "--no-transactions", "--no-schema-changes"]) == 0
    before = lines(capsys.readouterr().out)
    assert before and all(e["source"]["pos"] < pos for e in before)


def test_history_subcommand(shared_path, tmp_path, capsys):
    out = tmp_path / "h.jsonl"
    assert main(["history", str(shared_path / "binlogs/maxwell/binlog.000004"), "-o", str(out)]) == 0
    recs = lines(out.read_text())
    assert recs[0]["mysqlddl_history"] == 1 and len(recs) == 17
    assert all(r["position"]["file"] == "binlog.000004" for r in recs[1:])
    positions = [(r["position"]["file_seq"], r["position"]["pos"]) for r in recs[1:]]
    assert positions == sorted(positions)


def test_ddl_errors_policy(shared_path, tmp_path, capsys):
    path = str(shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000003")
    bad = tmp_path / "b.sql"
    bad.write_text("CREATE TABLE wanshao.wanshao_test (id INT, col1 BIGINT);")
    assert main(["changes", path, "--schema", str(bad), "--summary", "none"]) == 1
    assert "col1" in capsys.readouterr().err
    assert main(["changes", path, "--schema", str(bad), "--ddl-errors", "skip", "--summary", "json",
                 "--on-mismatch", "flag"]) == 0
    assert json.loads(capsys.readouterr().err)["ddl_errors"] >= 1


def test_progress_only_when_asked_or_a_tty(shared_path, capsys):
    path = str(shared_path / "binlogs/maxwell/binlog.000004")
    assert main(["changes", path, "--summary", "none"]) == 0
    assert capsys.readouterr().err == ""          # stderr is not a TTY here
    assert main(["changes", path, "--summary", "none", "--progress", "always"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\r[") and "100.0%" in err


def test_subprocess_from_a_temporary_cwd(shared_path, tmp_path, run_cli):
    path = str(shared_path / "binlogs/maxwell/binlog.000004")
    proc = run_cli("changes", path, "--summary", "text")
    assert proc.returncode == 0, proc.stderr
    assert len([e for e in lines(proc.stdout) if "op" in e]) == 28
    assert "DML rows 28" in proc.stderr and "bac_schema.bac_history: c=5, u=4" in proc.stderr
    bad = run_cli("changes", tmp_path / "nope.000001")
    assert bad.returncode == 1 and "no such file" in bad.stderr
    usage = run_cli("changes", path, "--on-mismatch", "x")
    assert usage.returncode == 2


def _history_positions(text):
    return [r["position"]["pos"] for r in lines(text)[1:]]


def test_history_takes_the_mysqlbinlog_filters(shared_path, capsys):
    path = str(shared_path / "binlogs/maxwell/binlog.000004")
    assert main(["history", path]) == 0
    out = capsys.readouterr().out
    every = _history_positions(out)
    assert len(every) == 16
    header = lines(out)[0]

    def history(*args):
        assert main(["history", path, *args]) == 0
        text = capsys.readouterr().out
        assert lines(text)[0] == header          # the header (baseline) is always there
        return _history_positions(text)

    assert history("--table", "bac_history") == [9417]
    no_bac = history("--exclude-database", "bac_schema")
    assert no_bac == [p for p in every if p not in (1112, 9417, 10627)]   # CREATE DATABASE bac_schema too
    assert history("--start-position", "2363") == [p for p in every if p > 2363]  # (a record: its event's end)
    assert history("--stop-datetime", "@1") == []
    assert history("--start-datetime", "@1") == every
    gtid = "a7b5f5a3-3a3d-11ed-9b4b-0242ac110002"  # not this log's server: nothing matches
    assert history("--include-gtids", f"{gtid}:1-100") == []


def test_help_documents_the_exit_codes(run_cli):
    for sub in ("changes", "history"):
        proc = run_cli(sub, "--help")
        assert proc.returncode == 0
        assert "exit codes:" in proc.stdout and "  3  a TABLE_MAP does not match" in proc.stdout


def test_progress_auto_draws_on_a_terminal(shared_path, capsys, monkeypatch):
    import sys

    path = str(shared_path / "binlogs/maxwell/binlog.000004")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["changes", path, "--summary", "none", "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\r[") and err.endswith("100.0% 0.0/0.0 MB\n")
    assert main(["changes", path, "--summary", "none", "--progress", "never", "-o", "/dev/null"]) == 0
    assert capsys.readouterr().err == ""


def test_text_summary_names_truncates(tmp_path, capsys):
    from pathlib import Path

    data = Path(__file__).resolve().parent.parent / "data"
    # the sample has no TRUNCATE: the line is absent
    assert main(["changes", str(data / "shop-bin.000001"), "--schema", str(data / "shop-baseline.sql"),
                 "-o", str(tmp_path / "o.jsonl"), "--truncate-events"]) == 0
    err = capsys.readouterr().err
    assert "truncated:" not in err and "DML rows 8" in err


def test_schema_errors_name_the_option_and_count_file_lines(shared_path, tmp_path, run_cli):
    path = shared_path / "binlogs/maxwell/binlog.000004"
    ddl = tmp_path / "base.sql"
    ddl.write_text("USE shop;\n\nCREATE TABLE a (id INT,\n  x FOOBAR);\n")
    p = run_cli("changes", path, "--schema", ddl)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"mysqlddl changes: --schema {ddl}, statement 2, line 4:4: unexpected 'FOOBAR'")
    ddl.write_text("-- no USE\nCREATE TABLE a (id INT);\n")
    p = run_cli("changes", path, "--schema", ddl)
    assert p.returncode == 1
    assert f"--schema {ddl}, statement 1, line 2:0: No database selected" in p.stderr
    assert "--schema-database" in p.stderr.splitlines()[0]
    assert run_cli("changes", path, "--schema", ddl, "--schema-database", "shop", "-o", tmp_path / "o").returncode == 0


def test_schema_changes_of_unknown_tables_are_reported_once(shared_path, run_cli):
    # canal tsdb: six ALTER TABLE of a table created before the file (test_changes_shared)
    path = shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000003"
    for summary in ("text", "json", "none"):
        p = run_cli("changes", path, "--summary", summary)
        assert p.returncode == 0, p.stderr
        notes = [line for line in p.stderr.splitlines() if "left out" in line]
        assert len(notes) == 1
        assert notes[0].startswith("mysqlddl changes: 6 schema changes left out") and "--schema" in notes[0]
    quiet = run_cli("changes", shared_path / "binlogs/maxwell/binlog.000004")
    assert quiet.returncode == 0 and "left out" not in quiet.stderr


SHOP = Path(__file__).resolve().parent.parent / "data" / "shop-bin.000001"
SHOP_BASELINE = SHOP.with_name("shop-baseline.sql")
UNTYPED = {"shop.customers": 2, "shop.orders": 6}     # every row of the sample (shop-bin.PROVENANCE.md)


def test_rows_without_a_table_definition_are_counted_and_said(run_cli):
    # no baseline: the tables were created before the binlog, so their rows are written positionally
    # (col_1..n, ENUM as its index); said once at the first such table, counted per table
    proc = run_cli("changes", SHOP, "-o", "out.jsonl")
    assert proc.returncode == 0, proc.stderr
    warnings = [x for x in proc.stderr.splitlines() if "no table definition" in x]
    assert len(warnings) == 1 and warnings[0].startswith("mysqlddl changes: shop.orders has no table definition")
    assert "--schema" in warnings[0] and "--snapshot" in warnings[0]
    assert "rows without a table definition: shop.customers=2, shop.orders=6" in proc.stderr.splitlines()
    proc = run_cli("changes", SHOP, "-o", "out.jsonl", "--summary", "json")
    assert json.loads(proc.stderr.splitlines()[-1])["rows_without_schema"] == UNTYPED
    # with the baseline: nothing to say
    proc = run_cli("changes", SHOP, "--schema", SHOP_BASELINE, "-o", "out.jsonl", "--summary", "json")
    assert proc.returncode == 0 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert json.loads(proc.stderr)["rows_without_schema"] == {}


# ------------------------------------------------------------------------ clear messages (#30 item 14)


@pytest.mark.parametrize("uri", ["postgres://u@h:5432/db?sslmode=disable", "http://example.invalid/x.bin"])
def test_an_input_of_an_unsupported_scheme_is_named(uri, run_cli, input_error):
    scheme = uri.split(":")[0]
    for sub in ("changes", "history", "events"):
        line = input_error(run_cli(sub, uri), f"unsupported source scheme '{scheme}'",
                           "(supported: file, mysql, mariadb)")
        assert "matches no files" not in line and "no such file" not in line


def test_a_file_uri_input_is_its_path(shared_path, tmp_path, run_cli):
    path = shared_path / "binlogs/maxwell/binlog.000004"
    by_uri = run_cli("changes", f"file://{path}", "--summary", "none")
    assert by_uri.returncode == 0, by_uri.stderr
    assert by_uri.stdout == run_cli("changes", path, "--summary", "none").stdout


def test_a_server_uri_without_a_user_says_how_to_give_one(run_cli, input_error):
    # (port 1: nothing listens; the missing user is said before any connection is tried)
    line = input_error(run_cli("changes", "mysql://127.0.0.1:1/?server-id=5", env={"USER": "", "MYSQL_PWD": "x"}),
                       "no user to log in as", "mysql://USER@127.0.0.1:1", "--defaults-file")
    assert "None" not in line


def test_a_full_device_is_named_with_the_os_error(shared_path, run_cli, input_error):
    path = shared_path / "binlogs/maxwell/binlog.000004"
    for sub in ("changes", "history"):
        line = input_error(run_cli(sub, path, "-o", "/dev/full"), "--output /dev/full", "ENOSPC",
                           "no space left on device")
        assert "(no file name)" not in line


def test_a_warning_is_one_plain_line(shared_path, tmp_path, run_cli):
    # (#30 item 14: warnings.warn's own format printed a Python file path, a line number and the
    # source line of the call)
    bad = tmp_path / "b.sql"
    bad.write_text("CREATE TABLE wanshao.wanshao_test (id INT, col1 BIGINT);")
    proc = run_cli("changes", shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000003", "--schema", bad,
                   "--ddl-errors", "warn", "--on-mismatch", "flag", "--summary", "none")
    assert proc.returncode == 0, proc.stderr
    warned = [x for x in proc.stderr.splitlines() if "warning" in x.lower()]
    assert warned and all(x.startswith("mysqlddl: warning: ") for x in warned), proc.stderr
    assert "Warning:" not in proc.stderr and ".py:" not in proc.stderr and "warnings.warn" not in proc.stderr
