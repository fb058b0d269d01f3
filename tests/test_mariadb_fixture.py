"""The private MariaDB fixture gives a real server with row-based binlogging in CRC32 files."""

import pytest

pytestmark = pytest.mark.mariadb


def test_server_logs_rows_to_a_binlog(mariadb_server):
    srv = mariadb_server
    fmt, image, checksum = srv.query("SELECT @@binlog_format, @@binlog_row_image, @@binlog_checksum")[0]
    assert (fmt, image, checksum) == ("ROW", "FULL", "CRC32")
    srv.execute("CREATE DATABASE IF NOT EXISTS fixture_check",
                "CREATE TABLE fixture_check.t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO fixture_check.t VALUES (1, 'one')")
    path, pos = srv.current_binlog()
    srv.flush_logs()
    data = path.read_bytes()
    assert data[:4] == b"\xfebin"          # BINLOG_MAGIC (sql/log_event.h)
    assert len(data) >= pos
    assert b"fixture_check" in data         # the TABLE_MAP / Query events name the database
    assert srv.binlog_files()[-1] != path   # FLUSH BINARY LOGS opened the next file
    assert srv.query("SELECT v FROM fixture_check.t WHERE id = 1") == [("one",)]
