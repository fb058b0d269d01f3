"""Decoded fields of real events, checked against the values the fixtures' own project asserts.

Expected values come from mysql-cdc-rs's tests/src/binlog/test_5_7.rs (copied to
shared/binlogs/mysql-cdc-rs/_expected/tests_src_binlog_test_5_7.rs.txt), whose 5.7.30 fixture
files were made with the SQL named in each directory (02_query, 05_intvar, ...)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from mysqlddl.binlog.reader import BinlogReader


def _first(shared_path, rel, type_name, index=0):
    evs = [e for e in BinlogReader(shared_path / "binlogs" / rel) if e.type_name == type_name]
    return evs[index]


CDC = "mysql-cdc-rs/5.7/{}/log.bin"

# (fixture dir, event type, occurrence, expected fields) -- each line mirrors an assert_eq! of
# test_5_7.rs (line numbers of that file in the comment).
GOLDEN = [
    ("04_rotate", "ROTATE", 0, {"next_file": "mysql_bin.000002", "position": 4}),           # 84-85
    ("05_intvar", "INTVAR", 0, {"var_type": 1, "var_name": "LAST_INSERT_ID", "value": 0}),  # 99-100
    ("13_rand", "RAND", 0, {"seed1": 694882935, "seed2": 292094996}),                       # 114-115
    ("14_user_var", "USER_VAR", 0, {"name": "val_s", "value_type": 0, "charset": 33,        # 140-142
                                    "value": "test blog"}),
    ("14_user_var", "USER_VAR", 1, {"name": "val_i", "value_type": 2, "charset": 33,        # 162-165
                                    "value": 100}),
    ("14_user_var", "USER_VAR", 2, {"name": "val_d", "value_type": 4, "charset": 33,        # 181-184
                                    "precision": 3, "scale": 2,
                                    "value": Decimal("1.00")}),                 # bytes 03 02 81 00
    ("15_format_desc", "FORMAT_DESCRIPTION", 0, {"binlog_version": 4,                       # 204-206
                                                 "server_version": "5.7.30-log",
                                                 "create_timestamp": 1596175634}),
    ("16_xid", "XID", 0, {"xid": 41}),                                                      # 220
    ("19_table_map", "TABLE_MAP", 0, {"table_id": 110, "table": "boxercrab", "flags": 1,    # 246-251
                                      "column_types": (3, 15), "null_bitmap": b"\x00",
                                      "column_metadata_raw": b"\xa0\x00"}),
    ("29_row_query", "ROWS_QUERY", 0,                                                       # 264-266
     {"query": "INSERT INTO `boxercrab` (`title`) VALUES ('hahhhhhhhhh')"}),
    ("17_18_load", "BEGIN_LOAD_QUERY", 0, {"file_id": 1, "data": b'1,"abc"\n'}),            # 284-285
    ("17_18_load", "EXECUTE_LOAD_QUERY", 0, {"thread_id": 23, "file_id": 1, "start_pos": 9,  # 299-304
                                             "end_pos": 37, "database": "default",
                                             "query": "LOAD DATA INFILE '/tmp/data.txt' INTO TABLE "
                                             "`boxercrab` FIELDS TERMINATED BY ',' OPTIONALLY  "
                                             "ENCLOSED BY '\"' ESCAPED BY '\\\\' LINES TERMINATED "
                                             "BY '\\n' (`i`, `c`)"}),
    ("33_35_gtid_prev_gtid", "GTID", 0, {"flags": 1, "sid": "80549ecc-d2f2-11ea-b790-0242ac130002",  # 437-442
                                         "gno": 1, "last_committed": 0, "sequence_number": 1}),
    ("34_anonymous_gtid", "ANONYMOUS_GTID", 0, {"flags": 1, "gno": 0, "last_committed": 0,  # 465-474
                                                "sequence_number": 1,
                                                "sid": "00000000-0000-0000-0000-000000000000"}),
    ("33_35_gtid_prev_gtid", "PREVIOUS_GTIDS", 0, {"gtid_sets": ()}),                       # 491
]


@pytest.mark.parametrize("d,type_name,index,expected", GOLDEN, ids=[f"{g[0]}-{g[1]}-{g[2]}" for g in GOLDEN])
def test_cdc_rs_golden_fields(shared_path, d, type_name, index, expected):
    ev = _first(shared_path, CDC.format(d), type_name, index)
    got = {k: getattr(ev, k) for k in expected}
    assert got == expected


def test_gtid_text_forms(shared_path):
    g = _first(shared_path, CDC.format("33_35_gtid_prev_gtid"), "GTID")
    assert g.gtid == "80549ecc-d2f2-11ea-b790-0242ac130002:1"
    a = _first(shared_path, CDC.format("34_anonymous_gtid"), "ANONYMOUS_GTID")
    assert a.gtid is None


def test_query_status_variables_of_a_5_7_ddl(shared_path):
    # The CREATE TABLE of 19_table_map (5.7.30): the server logs flags2, sql_mode, catalog,
    # charset (utf8 client 33, connection 33, server utf8mb4_general_ci 45) and updated db names.
    q = [e for e in BinlogReader(shared_path / "binlogs" / CDC.format("19_table_map"))
         if e.type_name == "QUERY" and e.query.upper().startswith("CREATE")][0]
    s = q.status
    assert s.catalog == "std"
    assert (s.charset_client, s.collation_connection) == (33, 33)
    assert s.collation_server == 45
    assert s.auto_increment_increment is None     # only logged when not 1/1
    assert s.sql_mode is not None and s.flags2 is not None
    assert s.updated_db_names == ("default",)
    assert s.unparsed is None


def test_mysql8_table_map_optional_metadata(shared_path):
    # maxwell's 8.0.29 replay: binlog_row_metadata=MINIMAL writes SIGNEDNESS and DEFAULT_CHARSET.
    tms = [e for e in BinlogReader(shared_path / "binlogs/maxwell/binlog.000004") if e.type_name == "TABLE_MAP"]
    assert tms
    for tm in tms:
        numeric = sum(1 for t in tm.column_types if t in (1, 2, 3, 4, 5, 8, 9, 246))
        assert tm.signedness is not None and len(tm.signedness) == numeric
        assert tm.default_charset is not None
        default, exceptions = tm.default_charset
        # _expected/mysql-test-replay.sql creates every table with COLLATE utf8mb4_unicode_ci (224)
        assert default == 224
        assert tm.column_names is None          # MINIMAL: no names
        assert tm.charsets is not None and all(c == default or (i, c) in exceptions
                                               for i, c in enumerate(tm.charsets))


def test_mysql8_gtid_has_commit_timestamps_and_length(shared_path):
    g = _first(shared_path, "maxwell/binlog.000004", "GTID")
    assert g.immediate_commit_timestamp and g.original_commit_timestamp == g.immediate_commit_timestamp
    assert g.transaction_length and g.transaction_length > g.size
    assert g.immediate_server_version == 80029 == g.original_server_version


def test_mariadb_gtid_and_gtid_list(shared_path):
    rel = "zalora-binlog-parser/fixtures/mysql-bin.07"     # 10.0.15-MariaDB-log
    gl = _first(shared_path, rel, "MARIADB_GTID_LIST")
    assert len(gl.gtids) == 1 and gl.gtid_list.count("-") == 2
    g = _first(shared_path, rel, "MARIADB_GTID")
    assert g.gtid == f"{g.domain_id}-{g.header.server_id}-{g.seq_no}"
    cp = _first(shared_path, rel, "MARIADB_BINLOG_CHECKPOINT")
    assert cp.binlog_file.startswith("mysql-bin.")


def test_mariadb_11_gtid_extra_thread_id(shared_path):
    # 11.8.5 writes flags_extra FL_EXTRA_THREAD_ID (0x10) and the thread id after flags2.
    g = _first(shared_path, "mariadb-poc/domain_id_0/mariadb-repl-bin.000004", "MARIADB_GTID")
    assert g.flags_extra == 0x10 and g.thread_id == 0xaa
    assert g.seq_no == 0x040020 and g.domain_id == 0
