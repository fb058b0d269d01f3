"""Server settings of the session that ran a DDL, as the binlog carries them (changes/schema.py
``statement_options``): a lab MariaDB (10.11.19) runs ``SET SESSION <setting>`` and then the DDL
below in one session; the schema history ChangeReader builds from that binlog alone (no baseline,
no options but those the FDE and the QUERY events give) must render the server's own
``SHOW CREATE TABLE`` text. default_storage_engine is not in the binlog: there the model follows
the input (Options), and the test shows both sides of that."""

from __future__ import annotations

import pytest

from mysqlddl.binlog.events import EventHeader, QueryEvent, QueryStatus
from mysqlddl.changes import ChangeOptions, ChangeReader
from mysqlddl.changes.schema import statement_options
from mysqlddl.model import render
from mysqlddl.model.ids import TableId
from mysqlddl.options import Dialect, Options
from mysqlddl.sources import open_source

pytestmark = pytest.mark.mariadb

TS_TABLE = "CREATE TABLE t (id INT PRIMARY KEY, a TIMESTAMP, b TIMESTAMP, c TIMESTAMP NULL)"
CASES = {
    # MariaDB 10.10+ default ON: the flags2 bit (clear) must turn it OFF for this statement only
    "explicit_defaults_off": ("SET SESSION explicit_defaults_for_timestamp = OFF", TS_TABLE),
    "explicit_defaults_on": ("SET SESSION explicit_defaults_for_timestamp = ON", TS_TABLE),
    "sql_mode": ("SET SESSION sql_mode = 'ANSI_QUOTES,REAL_AS_FLOAT'",
                 'CREATE TABLE "t" ("id" INT PRIMARY KEY, "r" REAL, "s" VARCHAR(3))'),
    # CREATE DATABASE without a charset inherits the session's collation_server (Q_CHARSET_CODE)
    "collation_server": ("SET SESSION collation_server = utf8mb3_bin",
                         "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(3), x TEXT)"),
    "character_set_server": ("SET SESSION character_set_server = utf8mb4",
                             "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(3))"),
}


@pytest.fixture(scope="module")
def logged(mariadb_server):
    """Every case run on the server in its own session and database; the binlog span they wrote."""
    srv = mariadb_server
    srv.flush_logs()
    start = srv.current_binlog()
    shown = {}
    for name, (setting, ddl) in CASES.items():
        db = f"sset_{name}"
        conn = srv.connect()
        try:
            with conn.cursor() as cur:
                cur.execute(f"DROP DATABASE IF EXISTS {db}")
                cur.execute(setting)
                # (the database's charset comes from collation_server too, except where stated)
                cur.execute(f"CREATE DATABASE {db}" if "server" in name else
                            f"CREATE DATABASE {db} CHARACTER SET latin1")
                cur.execute(f"USE {db}")
                cur.execute(ddl)
                cur.execute("SET SESSION sql_mode = DEFAULT")     # (SHOW CREATE TABLE quotes by it)
                cur.execute("SHOW CREATE TABLE t")
                shown[name] = cur.fetchone()[1]
        finally:
            conn.close()
    srv.flush_logs()
    return srv, (start[0].name, start[1]), shown


def _history_table(srv, span, name, options=None):
    cfg = ChangeOptions(span=(span, None)) if options is None else ChangeOptions(span=(span, None), decode=options)
    reader = ChangeReader(open_source(srv.binlog_files()[:-1]), cfg)
    for _ in reader:
        pass
    assert reader.stats.ddl_errors == 0
    table = reader.history.catalog.table(TableId(f"sset_{name}", "t"))
    return table, reader.options


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_from_binlog_equals_show_create_table(logged, name):
    srv, span, shown = logged
    table, options = _history_table(srv, span, name)
    assert options.dialect is Dialect.MARIADB and options.server_version[:2] == (10, 11)
    assert render.create_table_sql(table, options) == shown[name]


def test_default_storage_engine_is_an_input_not_in_the_binlog(mariadb_server):
    srv = mariadb_server
    srv.flush_logs()
    start = srv.current_binlog()
    srv.execute("DROP DATABASE IF EXISTS sset_engine", "CREATE DATABASE sset_engine CHARACTER SET latin1",
                "SET SESSION default_storage_engine = MyISAM", "CREATE TABLE sset_engine.t (id INT)")
    shown = srv.query("SHOW CREATE TABLE sset_engine.t")[0][1]
    srv.flush_logs()
    span = (start[0].name, start[1])
    cfg = ChangeOptions(span=(span, None))
    reader = ChangeReader(open_source(srv.binlog_files()[:-1]), cfg)
    list(reader)
    t = reader.history.catalog.table(TableId("sset_engine", "t"))
    assert "ENGINE=MyISAM" in shown and t.engine == "InnoDB"     # the binlog does not say
    given = Options(default_storage_engine="MyISAM")
    reader = ChangeReader(open_source(srv.binlog_files()[:-1]), ChangeOptions(span=(span, None), decode=given))
    list(reader)
    t = reader.history.catalog.table(TableId("sset_engine", "t"))
    assert render.create_table_sql(t, reader.options) == shown


def _query(status):
    return QueryEvent(header=EventHeader(0, 2, 1, 0, 0, 0), file=None, pos=0, next_pos=0, thread_id=1,
                      exec_time=0, error_code=0, database="d", query="CREATE TABLE t (a TIMESTAMP)", status=status)


def test_mysql_explicit_defaults_status_var_wins_over_the_version_default():
    """MySQL 8.0.x writes Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP (code 16, statement_events.h) for
    CREATE/ALTER of a table with a TIMESTAMP column; 8.0.2+ defaults to ON."""
    mysql8 = Options(dialect=Dialect.MYSQL, server_version=(8, 0, 40))
    assert statement_options(_query(QueryStatus(explicit_defaults_ts=False)), mysql8) \
        .explicit_defaults_for_timestamp is False
    assert statement_options(_query(QueryStatus()), mysql8).explicit_defaults_for_timestamp is None
    # MySQL's flags2 has no such bit: bit 24 there is not read as the setting
    assert statement_options(_query(QueryStatus(flags2=1 << 24)), mysql8).explicit_defaults_for_timestamp is None
    # MariaDB's flags2 bit: set is ON; clear is OFF only from 10.10 (before, the inputs decide)
    for version, flags2, want in (((10, 11, 0), 0, False), ((10, 11, 0), 1 << 24, True),
                                  ((10, 6, 0), 0, None), ((10, 6, 0), 1 << 24, True)):
        mariadb = Options(dialect=Dialect.MARIADB, server_version=version)
        assert statement_options(_query(QueryStatus(flags2=flags2)), mariadb).explicit_defaults_for_timestamp is want
    # a collation id without a known name still gives its charset (MySQL 8's utf8mb4_ja_0900_as_cs, 303)
    got = statement_options(_query(QueryStatus(charset_client=45, collation_connection=45, collation_server=303)),
                            mysql8)
    assert (got.character_set_server, got.collation_server) == ("utf8mb4", None)


def test_lower_case_table_names_is_an_input_not_in_the_binlog(tool, tmp_path):
    """lower_case_table_names is a server setting (read-only at run time) that the binlog does not
    carry: the DDL text is logged as written. A lab server started with it at 1 stores names in
    lower case; the model built from its binlog names the table as the server does when given the
    same input, and as written without it."""
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        pytest.skip(lab.INSTALL_HINT)
    srv = lab.MariaDBServer(tmp_path / "lc1", extra_args=("--lower-case-table-names=1",)).start()
    try:
        assert srv.query("SELECT @@lower_case_table_names") == [(1,)]
        srv.flush_logs()
        start = srv.current_binlog()
        srv.execute("CREATE DATABASE MixedDb CHARACTER SET latin1",
                    "CREATE TABLE MixedDb.MixedTbl (Id INT PRIMARY KEY, Val VARCHAR(4))",
                    "ALTER TABLE MIXEDDB.MIXEDTBL ADD COLUMN Extra INT")
        server_names = srv.query("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES "
                                 "WHERE TABLE_SCHEMA = 'mixeddb'")
        shown = srv.query("SHOW CREATE TABLE mixeddb.mixedtbl")[0][1]
        srv.flush_logs()
        files = srv.binlog_files()[:-1]
        span = (start[0].name, start[1])
        given = ChangeReader(open_source(files),
                             ChangeOptions(span=(span, None), decode=Options(lower_case_table_names=1)))
        list(given)
        assert given.stats.ddl_errors == 0 and given.stats.ddl_unknown_tables == 0
        tables = given.history.catalog.all_tables()
        assert [(t.id.database, t.id.name) for t in tables] == server_names == [("mixeddb", "mixedtbl")]
        assert render.create_table_sql(tables[0], given.options) == shown
        # without the input, the ALTER's other spelling names a table the model does not know
        plain = ChangeReader(open_source(files), ChangeOptions(span=(span, None)))
        list(plain)
        assert [(t.id.database, t.id.name) for t in plain.history.catalog.all_tables()] == [("MixedDb", "MixedTbl")]
    finally:
        srv.destroy()
