"""Changes on third-party binlogs with known DDL (../shared/binlogs, see PROVENANCE.md), and the
pure helpers of the join (query classification, sql_mode bits, XA ids, GTID sets)."""

from __future__ import annotations

import dataclasses
import datetime
import decimal

import pytest

from mysqlddl.binlog.events import TableMapEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import (
    ChangeReader,
    GtidSet,
    Naming,
    QueryKind,
    RowChange,
    SchemaChange,
    classify_query,
    cross_check,
    parse_xid,
    sql_mode_names,
)
from mysqlddl.ddl import StatementClass
from mysqlddl.ddl import classify as ddl_classify
from mysqlddl.errors import ConfigError, DdlSemanticError
from mysqlddl.sources import open_source


def row_changes(path, **kw):
    reader = ChangeReader(open_source(path), **kw)
    return reader, [c for c in reader.changes() if isinstance(c, RowChange)]


def test_maxwell_mysql8_rows_named_by_the_logged_ddl(shared_path):
    # MySQL 8.0.29, DEFAULT_CHARSET + SIGNEDNESS optional metadata; the DDL of
    # _expected/mysql-test-replay.sql is in the file itself.
    reader, rows = row_changes(shared_path / "binlogs/maxwell/binlog.000004")
    assert reader.stats.ddl == 16 and reader.stats.ddl_errors == 0
    assert reader.stats.rows == {("bac_schema.bac_history", "c"): 5, ("bac_schema.bac_history", "u"): 4,
                                 ("bac_schema.bac_schema", "c"): 10, ("bac_schema.bac_schema", "u"): 9}
    assert {r.naming for r in rows} == {Naming.SCHEMA}
    first = rows[0]
    assert first.source.connector == "mysql" and first.source.file == "binlog.000004"
    assert first.after == {"id": 1, "name": "a27df4c7-1147-11ed-95d7-0242ac130003",
                           "desc": "a27df4d8-1147-11ed-95d7-0242ac130003", "status": 1}
    upd = next(r for r in rows if r.op == "u")
    assert upd.before["id"] == upd.after["id"] == 2 and upd.before["name"] != upd.after["name"]
    assert upd.source.gtid is not None and ":" in upd.source.gtid
    # each row carries its transaction's GTID and the thread of its BEGIN
    assert upd.transaction == upd.source.gtid and upd.source.thread is not None


def test_tiflow_timestamps_and_positional_names_for_unknown_tables(shared_path):
    reader, rows = row_changes(shared_path / "binlogs/tiflow/mysql-bin.000001")
    by_table = {(r.source.db, r.source.table) for r in rows}
    assert ("mysql", "user") in by_table
    user = [r for r in rows if r.source.table == "user"]
    # mysql.user was never created in this file and the map has no names: positional, and said so
    assert len(user) == 4 and all(r.naming is Naming.POSITIONAL for r in user)
    assert user[0].before["col_2"] == "root"
    t = next(r for r in rows if r.source.table == "t")
    assert t.naming is Naming.SCHEMA
    assert t.after == {"id": 1, "d": datetime.datetime(2022, 5, 16, 14, 53, 10, tzinfo=datetime.timezone.utc)}
    assert reader.stats.queries["commit"] == 1


def test_charset_of_an_unseen_database_comes_from_the_table_map(shared_path):
    # MySQL 8: CREATE TABLE in database `test`, created before this file with utf8mb3
    # (DEFAULT_CHARSET 33): VARCHAR(128) is 384 bytes, not the 512 of the assumed utf8mb4.
    path = shared_path / "binlogs/mysql-cdc-rs/8.0/02_query_bigger/binlog.000733"
    _, rows = row_changes(path)
    assert len(rows) == 14 and rows[0].naming is Naming.SCHEMA
    assert rows[0].after["L_RETURNFLAG"] == "code" and rows[0].after["L_QUANTITY"] == decimal.Decimal("99.911")


def test_ddl_on_tables_before_the_archive_is_left_out_and_counted(shared_path):
    # canal tsdb: ALTER TABLE wanshao_test (created before this file) six times, rows between
    reader, rows = row_changes(shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000003")
    assert reader.stats.ddl_unknown_tables == 6 and reader.stats.ddl == 6
    assert rows and {r.naming for r in rows if r.source.table == "wanshao_test"} == {Naming.POSITIONAL}


def test_the_same_table_known_from_a_baseline_is_checked(shared_path):
    path = shared_path / "binlogs/canal/binlog_tsdb/mysql-bin.000003"
    with pytest.raises(DdlSemanticError):
        # a baseline that already has col1, which the first ALTER adds: a real inconsistency
        list(ChangeReader(open_source(path),
                          schema="CREATE TABLE wanshao.wanshao_test (id INT, col1 BIGINT)").changes())


def test_every_shared_binlog_joins_without_error(shared_path):
    # exact row totals: a regression in naming, decoding or XA/transaction handling shows here
    expect = {"boxercrab/bin_files/binlog.bin": 4, "canal/binlog/mysql-bin.000001": 95,
              "go-mysql/tcb-eval002c-bin.003320": 17, "mysql-binlog-connector-java/mysql-bin.sakila.gz": 47273,
              "mysql-cdc-rs/8.0/folder/binlog.000693": 10099, "zalora-binlog-parser/fixtures/mysql-bin.02": 1,
              "zalora-binlog-parser/gtid-fixtures/mysql-bin.01": 10}
    for rel, n in expect.items():
        reader, rows = row_changes(shared_path / "binlogs" / rel)
        assert len(rows) == n, rel
        assert sum(reader.stats.rows.values()) == n


def test_statement_based_mariadb_log_is_counted_not_parsed(shared_path):
    reader = ChangeReader(open_source(shared_path / "binlogs/mariadb-poc/domain_id_0/mariadb-repl-bin.000002"))
    assert not [c for c in reader.changes() if isinstance(c, RowChange)]
    assert reader.stats.queries["dml"] == 17724 and reader.stats.ddl == 0


def test_table_map_cross_check_reports_each_disagreement(shared_path):
    reader = ChangeReader(open_source(shared_path / "binlogs/maxwell/binlog.000004"))
    list(reader.changes())
    tm = next(ev for ev in BinlogReader(shared_path / "binlogs/maxwell/binlog.000004")
              if isinstance(ev, TableMapEvent) and ev.table == "bac_history")
    table = reader.history.catalog.table("bac_schema", "bac_history")
    assert cross_check(tm, table) == []
    cols = list(table.columns)
    cols[0] = dataclasses.replace(cols[0], unsigned=not cols[0].unsigned)
    assert "signed" in cross_check(tm, dataclasses.replace(table, columns=tuple(cols)))[0]
    cols = list(table.columns)
    cols[1] = dataclasses.replace(cols[1], length=(cols[1].length or 1) + 1)
    assert "bytes" in cross_check(tm, dataclasses.replace(table, columns=tuple(cols)))[0]
    cols = list(table.columns)
    cols[3] = dataclasses.replace(cols[3], type_name="bigint")
    assert "LONGLONG" in cross_check(tm, dataclasses.replace(table, columns=tuple(cols)))[0]
    assert "columns" in cross_check(tm, dataclasses.replace(table, columns=table.columns[:-1]))[0]


def test_schema_changes_carry_positions_and_tables(shared_path):
    schema = [c for c in ChangeReader(open_source(shared_path / "binlogs/maxwell/binlog.000004"))
              if isinstance(c, SchemaChange)]
    creates = [s for s in schema if "CREATE" in s.kinds]
    assert creates and all(s.position.pos > s.source.pos for s in schema)
    tid, table = creates[0].record.tables[0]
    assert table is not None and table.columns


@pytest.mark.parametrize(("sql", "kind"), [
    ("BEGIN", QueryKind.BEGIN), ("COMMIT", QueryKind.COMMIT), ("ROLLBACK", QueryKind.ROLLBACK),
    ("ROLLBACK TO SAVEPOINT a", QueryKind.SAVEPOINT), ("SAVEPOINT a", QueryKind.SAVEPOINT),
    ("XA START X'31',X'',1", QueryKind.XA), ("insert into t values (1)", QueryKind.DML),
    ("/* c */ UPDATE t SET a = 1", QueryKind.DML), ("REPLACE INTO t VALUES (1)", QueryKind.DML),
    ("DROP TEMPORARY TABLE IF EXISTS `t` /* generated by server */", QueryKind.GENERATED_DROP_TEMPORARY),
    ("DROP /*!40005 TEMPORARY */ TABLE IF EXISTS `a`.`t` /* generated by server */",
     QueryKind.GENERATED_DROP_TEMPORARY),
    ("DROP TABLE `t` /* generated by server */", QueryKind.DDL),
    ("/*!40000 ALTER TABLE t DISABLE KEYS */", QueryKind.DDL), ("ALTER TABLE t ADD c INT", QueryKind.DDL),
    ("START TRANSACTION", QueryKind.BEGIN), ("GRANT SELECT ON *.* TO u", QueryKind.DDL),
    # the case the old regex classifier read against ddl.classify's rule: a MariaDB compound
    # statement (it may hold DDL) is not a transaction's BEGIN
    ("BEGIN NOT ATOMIC CREATE TABLE t (a INT); END", QueryKind.DDL),
])
def test_classify_query(sql, kind):
    assert classify_query(sql) is kind
    # one rule: what classify_query keeps from the DDL parser, the DDL classifier calls OTHER too
    # (but the server's own DROP of a session's temporary tables, which the model never holds)
    if kind not in (QueryKind.DDL, QueryKind.GENERATED_DROP_TEMPORARY):
        assert ddl_classify(sql) is not StatementClass.SCHEMA
    if ddl_classify(sql) is StatementClass.SCHEMA:
        assert kind in (QueryKind.DDL, QueryKind.GENERATED_DROP_TEMPORARY)


def test_sql_mode_bits():
    # 1411383296: MariaDB 10.11's default as logged (STRICT_TRANS_TABLES, ERROR_FOR_DIVISION_BY_ZERO,
    # NO_AUTO_CREATE_USER, NO_ENGINE_SUBSTITUTION)
    assert sql_mode_names(1411383296) == {"STRICT_TRANS_TABLES", "ERROR_FOR_DIVISION_BY_ZERO",
                                          "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"}
    assert sql_mode_names(4 | 1 << 20) == {"ANSI_QUOTES", "NO_BACKSLASH_ESCAPES"}


def test_parse_xid():
    assert parse_xid("XA COMMIT X'7831',X'',1") == (1, b"x1", b"")
    assert parse_xid("XA ROLLBACK X'6162',X'63',7") == (7, b"ab", b"c")
    assert parse_xid("XA COMMIT 'it''s'") == (1, b"it's", b"")


def test_gtid_sets():
    s = GtidSet("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:11, 0-1-7, 0-2:3-4")
    assert "3e11fa47-71ca-11e1-9e33-c80aa9429562:5" in s
    assert "3E11FA47-71CA-11E1-9E33-C80AA9429562:6" not in s
    assert "0-1-7" in s and "0-1-8" not in s and "0-2-4" in s and "0-2-5" not in s
    assert None not in s
    with pytest.raises(ConfigError):
        GtidSet("0-1:9-3")


def test_gtid_sets_with_tags():
    # MySQL 8.4's tagged form: untagged intervals first, then each tag with the intervals after it
    u = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
    s = GtidSet(f"{u}:1-2:Alpha:5-6:8:beta:3")
    assert f"{u}:2" in s and f"{u}:5" not in s
    assert f"{u}:alpha:5" in s and f"{u}:alpha:8" in s and f"{u}:alpha:7" not in s and f"{u}:alpha:1" not in s
    assert f"{u}:beta:3" in s and f"{u}:beta:5" not in s and f"{u}:gamma:3" not in s
    assert f"{u}:abc:3" in GtidSet(f"{u}:abc:1-5") and f"{u}:3" not in GtidSet(f"{u}:abc:1-5")
    for bad in (f"{u}:1-2:abc", f"{u}:a:b:1", f"{u}:1:9abc:2", f"{u}:{'t' * 33}:1", u):
        with pytest.raises(ConfigError):
            GtidSet(bad)
