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


def test_replica_applies_what_its_primary_logs(mariadb_replica, relay_workload):
    """The replica pair (tools/mariadb_lab.py "Replication") replicates the lab workload and keeps
    applying after it: its SQL thread applied every GTID of the primary and holds the same rows."""
    replica = mariadb_replica
    primary = replica.primary
    assert (primary.server_id, replica.server_id) == (1, 2)
    assert replica.query("SELECT @@relay_log_purge, @@log_slave_updates") == [(0, 1)]
    replica.wait_caught_up()
    st = replica.replica_status()
    assert (st["Slave_IO_Running"], st["Slave_SQL_Running"], st["Using_Gtid"]) == ("Yes", "Yes", "Slave_Pos")
    assert replica.query("SELECT @@gtid_slave_pos") == primary.query("SELECT @@gtid_binlog_pos")
    sql = "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, v))) FROM relay_lab.spanning"
    assert replica.query(sql) == primary.query(sql) and replica.query(sql)[0][0] == 120
    primary.execute("CREATE TABLE relay_lab.after_workload (id INT PRIMARY KEY)",
                    "INSERT INTO relay_lab.after_workload VALUES (7)")
    replica.wait_caught_up()
    assert replica.query("SELECT id FROM relay_lab.after_workload") == [(7,)]


@pytest.mark.slow     # three servers (~16 s); the failover tests exercise these helpers by default
def test_failover_helpers(tool, tmp_path):
    """tools/mariadb_lab.py's replication helpers re-point a replica to a promoted one (what the
    failover tests build on): a replicates to b and c; b is promoted; c follows b from its own
    gtid_slave_pos and gets what b writes."""
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        pytest.skip(lab.INSTALL_HINT)
    a, b, c = (lab.MariaDBServer(tmp_path / name, server_id=i) for i, name in enumerate("abc", 1))
    try:
        for srv in (a, b, c):
            srv.start()
        a.execute("CREATE DATABASE f", "CREATE TABLE f.t (id INT PRIMARY KEY)", "INSERT INTO f.t VALUES (1)")
        b.start_replica(a)
        c.start_replica(a)
        b.wait_caught_up()
        c.wait_caught_up()
        b.promote()
        assert b.replica_status() == {} and b.primary is None
        c.start_replica(b, gtid_pos=None)
        b.execute("INSERT INTO f.t VALUES (2)")
        c.wait_caught_up()
        assert c.query("SELECT id FROM f.t ORDER BY id") == [(1,), (2,)]
        assert c.replica_status()["Master_Port"] == b.port
    finally:
        for srv in (a, b, c):
            srv.destroy()
