"""Changes on binlogs written by a private MariaDB (the `mariadb_server` fixture; recorded with
MariaDB 10.11.19, ROW format, FULL row image, CRC32, binlog_row_metadata=MINIMAL unless a test
switches it): DDL evolution with rows between every statement, so a row logged after an ALTER must
carry the new column names; baselines; TABLE_MAP cross-check; XA commit vs rollback.

Each scenario runs its SQL between two FLUSH BINARY LOGS and reads only the files written in
between, so it sees exactly its own statements.
"""

from __future__ import annotations

import decimal

import pytest

from mysqlddl.changes import (
    ChangeOptions,
    ChangeReader,
    Filters,
    GtidSet,
    Naming,
    RowChange,
    SchemaChange,
    TransactionMark,
)
from mysqlddl.errors import SchemaMismatchError
from mysqlddl.sources import open_source


def capture(srv, *statements, database=None):
    """Run statements (one session) between two FLUSH BINARY LOGS; the binlog files written
    meanwhile."""
    srv.flush_logs()
    first = srv.current_binlog()[0]
    srv.execute(*statements, database=database)
    srv.flush_logs()
    files = srv.binlog_files()
    return files[files.index(first):-1]


def rows(changes):
    return [(c.source.table, c.op, c.before, c.after) for c in changes if isinstance(c, RowChange)]


EVOLUTION = [
    "DROP DATABASE IF EXISTS chg_evo",
    "CREATE DATABASE chg_evo CHARACTER SET utf8mb4",
    "CREATE TABLE chg_evo.t (id INT PRIMARY KEY, a VARCHAR(20), b INT)",
    "INSERT INTO chg_evo.t VALUES (1, 'one', 10)",
    "ALTER TABLE chg_evo.t ADD COLUMN c INT FIRST",
    "INSERT INTO chg_evo.t (id, a, b, c) VALUES (2, 'two', 20, 200)",
    "ALTER TABLE chg_evo.t ADD COLUMN d VARCHAR(5) AFTER id",
    "INSERT INTO chg_evo.t (c, id, d, a, b) VALUES (300, 3, 'dd', 'three', 30)",
    "ALTER TABLE chg_evo.t DROP COLUMN b",
    "UPDATE chg_evo.t SET a = 'uno' WHERE id = 1",
    "ALTER TABLE chg_evo.t MODIFY a VARCHAR(50) CHARACTER SET latin1",
    "INSERT INTO chg_evo.t (id, a) VALUES (4, 'caf\u00e9')",
    "ALTER TABLE chg_evo.t CHANGE d dee VARCHAR(5)",
    "INSERT INTO chg_evo.t (id, dee) VALUES (5, 'x')",
    "RENAME TABLE chg_evo.t TO chg_evo.t2",
    "INSERT INTO chg_evo.t2 (id) VALUES (6)",
    "CREATE TABLE chg_evo.u (x INT, y VARCHAR(3))",
    "INSERT INTO chg_evo.u VALUES (7, 'u')",
    # swap rename: the classic online-schema-change cut-over
    "RENAME TABLE chg_evo.t2 TO chg_evo.tmp, chg_evo.u TO chg_evo.t2, chg_evo.tmp TO chg_evo.u",
    "INSERT INTO chg_evo.t2 VALUES (8, 'v')",
    "INSERT INTO chg_evo.u (id, a) VALUES (9, 'nine')",
    # column swap in one statement
    "ALTER TABLE chg_evo.t2 CHANGE x y2 INT, CHANGE y x VARCHAR(3)",
    "INSERT INTO chg_evo.t2 VALUES (10, 'w')",
    "ALTER TABLE chg_evo.u CONVERT TO CHARACTER SET utf8mb4",
    "INSERT INTO chg_evo.u (id, a) VALUES (11, '\u00fc\u20ac')",
    "DELETE FROM chg_evo.u WHERE id = 2",
]

EXPECTED_ROWS = [
    ("t", "c", None, {"id": 1, "a": "one", "b": 10}),
    ("t", "c", None, {"c": 200, "id": 2, "a": "two", "b": 20}),
    ("t", "c", None, {"c": 300, "id": 3, "d": "dd", "a": "three", "b": 30}),
    ("t", "u", {"c": None, "id": 1, "d": None, "a": "one"}, {"c": None, "id": 1, "d": None, "a": "uno"}),
    ("t", "c", None, {"c": None, "id": 4, "d": None, "a": "caf\u00e9"}),
    ("t", "c", None, {"c": None, "id": 5, "dee": "x", "a": None}),
    ("t2", "c", None, {"c": None, "id": 6, "dee": None, "a": None}),
    ("u", "c", None, {"x": 7, "y": "u"}),
    ("t2", "c", None, {"x": 8, "y": "v"}),
    ("u", "c", None, {"c": None, "id": 9, "dee": None, "a": "nine"}),
    ("t2", "c", None, {"y2": 10, "x": "w"}),
    ("u", "c", None, {"c": None, "id": 11, "dee": None, "a": "\u00fc\u20ac"}),
    ("u", "d", {"c": 200, "id": 2, "dee": None, "a": "two"}, None),
]


@pytest.fixture(scope="module")
def evolution(mariadb_server):
    return capture(mariadb_server, *EVOLUTION)


def test_rows_after_every_alter_carry_the_new_names(evolution):
    changes = list(ChangeReader(open_source(evolution)).changes())
    assert rows(changes) == EXPECTED_ROWS
    assert {c.naming for c in changes if isinstance(c, RowChange)} == {Naming.SCHEMA}
    assert all(c.source.connector == "mariadb" and c.source.db == "chg_evo"
               for c in changes if isinstance(c, RowChange))


def test_history_has_every_ddl_at_its_end_position(evolution):
    reader = ChangeReader(open_source(evolution))
    schema = [c for c in reader.changes() if isinstance(c, SchemaChange)]
    ddl = [s for s in EVOLUTION if not s.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert [s.ddl for s in schema] == ddl
    assert [r.ddl for r in reader.history.records] == ddl
    for sc in schema:
        # recorded at the end of its QUERY event, after the event's start
        assert sc.position.pos > sc.source.pos and sc.position.file == sc.source.file
    u = reader.history.catalog.table("chg_evo", "u")
    assert [c.name for c in u.columns] == ["c", "id", "dee", "a"]
    assert u.column("a").charset == "utf8mb4"
    assert reader.stats.ddl == len(ddl) and reader.stats.ddl_errors == 0
    assert reader.stats.rows[("chg_evo.u", "d")] == 1


def test_swap_rename_and_column_swap_kinds(evolution):
    schema = {c.ddl: c for c in ChangeReader(open_source(evolution)).changes() if isinstance(c, SchemaChange)}
    swap = schema[EVOLUTION[18]]
    kinds = {(tid.name, kind) for (tid, _), kind in zip(swap.record.tables, swap.kinds, strict=True)}
    assert ("t2", "ALTER") in kinds and ("u", "ALTER") in kinds
    col_swap = schema[EVOLUTION[21]]
    (tid, table), = col_swap.record.tables
    assert [c.name for c in table.columns] == ["y2", "x"]
    assert table.column("x").type_name == "varchar"


def test_transactions_count_rows_per_table(evolution):
    marks = [c for c in ChangeReader(open_source(evolution)).changes() if isinstance(c, TransactionMark)]
    begins = [m for m in marks if m.status == "BEGIN"]
    ends = [m for m in marks if m.status == "END"]
    assert len(begins) == len(ends) == len(EXPECTED_ROWS)
    assert ends[-1].counts == (("chg_evo.u", 1),) and ends[-1].id == begins[-1].id
    assert all(m.id.startswith("0-1-") for m in marks)   # MariaDB GTIDs


def test_baseline_from_show_create_table(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS chg_base", "CREATE DATABASE chg_base",
                "CREATE TABLE chg_base.p (id BIGINT UNSIGNED PRIMARY KEY, price DECIMAL(9,3), "
                "note TEXT, at DATETIME(3))",
                "ALTER TABLE chg_base.p ADD COLUMN qty SMALLINT UNSIGNED AFTER id")
    ddl = srv.query("SHOW CREATE TABLE chg_base.p")[0][1]
    files = capture(srv, "INSERT INTO chg_base.p VALUES (18446744073709551615, 65535, 1.5, 'n', "
                         "'2024-02-29 10:11:12.345')")
    # without a baseline: MINIMAL metadata has no names, so the columns are positional
    bare = [c for c in ChangeReader(open_source(files)).changes() if isinstance(c, RowChange)]
    assert bare[0].naming is Naming.POSITIONAL
    assert list(bare[0].after) == ["col_1", "col_2", "col_3", "col_4", "col_5"]
    # with the server's own SHOW CREATE TABLE as the baseline: names and typed values
    got = [c for c in ChangeReader(open_source(files), ChangeOptions(schema_database="chg_base"), schema=ddl).changes()
           if isinstance(c, RowChange)]
    assert got[0].naming is Naming.SCHEMA
    after = got[0].after
    assert after["id"] == 18446744073709551615 and after["qty"] == 65535
    assert after["price"] == decimal.Decimal("1.500") and after["note"] == "n"
    assert after["at"].isoformat() == "2024-02-29T10:11:12.345000"


def test_wrong_baseline_is_a_mismatch_error_or_flagged(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS chg_mis", "CREATE DATABASE chg_mis",
                "CREATE TABLE chg_mis.m (id INT PRIMARY KEY, a VARCHAR(10))",
                "ALTER TABLE chg_mis.m MODIFY a VARCHAR(30)")
    files = capture(srv, "INSERT INTO chg_mis.m VALUES (1, 'abc')")
    stale = "CREATE TABLE chg_mis.m (id INT PRIMARY KEY, a VARCHAR(10))"
    with pytest.raises(SchemaMismatchError) as ei:
        list(ChangeReader(open_source(files), schema=stale).changes())
    assert "varchar(10)" in str(ei.value) and ei.value.table == "chg_mis.m"
    assert ei.value.log_pos is not None and ei.value.event_type == "TABLE_MAP"
    reader = ChangeReader(open_source(files), ChangeOptions(on_mismatch="flag"), schema=stale)
    flagged = [c for c in reader.changes() if isinstance(c, RowChange)]
    assert flagged[0].mismatch and "30" in flagged[0].mismatch[0]
    assert flagged[0].naming is Naming.POSITIONAL and flagged[0].after == {"col_1": 1, "col_2": "abc"}
    assert reader.stats.mismatches == 1
    # a wrong column count and a wrong signedness are caught too
    with pytest.raises(SchemaMismatchError, match="2 columns"):
        list(ChangeReader(open_source(files), schema="CREATE TABLE chg_mis.m (id INT PRIMARY KEY)").changes())
    with pytest.raises(SchemaMismatchError, match="unsigned in the schema"):
        list(ChangeReader(open_source(files),
                          schema="CREATE TABLE chg_mis.m (id INT UNSIGNED, a VARCHAR(30))").changes())


def test_full_row_metadata_names_without_baseline(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS chg_full", "CREATE DATABASE chg_full",
                "CREATE TABLE chg_full.f (id INT PRIMARY KEY, label VARCHAR(10))")
    srv.execute("SET GLOBAL binlog_row_metadata = FULL")
    try:
        files = capture(srv, "INSERT INTO chg_full.f VALUES (1, 'L')")
    finally:
        srv.execute("SET GLOBAL binlog_row_metadata = MINIMAL")
    got = [c for c in ChangeReader(open_source(files)).changes() if isinstance(c, RowChange)]
    assert got[0].naming is Naming.TABLE_MAP and got[0].after == {"id": 1, "label": "L"}
    # names are cross-checked too: a baseline that calls the column otherwise is a mismatch
    with pytest.raises(SchemaMismatchError, match="`other`"):
        list(ChangeReader(open_source(files),
                          schema="CREATE TABLE chg_full.f (id INT PRIMARY KEY, other VARCHAR(10))").changes())


def test_xa_rollback_never_surfaces_and_commit_does(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS chg_xa", "CREATE DATABASE chg_xa")
    files = capture(
        srv, "CREATE TABLE chg_xa.x (id INT PRIMARY KEY)",
        "XA START 'rb'", "INSERT INTO chg_xa.x VALUES (1)", "XA END 'rb'", "XA PREPARE 'rb'",
        "XA ROLLBACK 'rb'",
        "XA START 'ok'", "INSERT INTO chg_xa.x VALUES (2)", "XA END 'ok'", "XA PREPARE 'ok'",
        "XA COMMIT 'ok'",
        "XA START 'one'", "INSERT INTO chg_xa.x VALUES (3)", "XA END 'one'", "XA COMMIT 'one' ONE PHASE",
        database="chg_xa")
    reader = ChangeReader(open_source(files))
    changes = list(reader.changes())
    assert [c.after for c in changes if isinstance(c, RowChange)] == [{"id": 2}, {"id": 3}]
    assert reader.stats.xa_rolled_back == 1 and reader.stats.xa_rows_discarded == 1
    assert reader.stats.xa_committed == 1 and reader.stats.xa_pending == 0
    assert srv.query("SELECT id FROM chg_xa.x ORDER BY id") == [(2,), (3,)]


def test_xa_prepared_but_unfinished_is_pending(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS chg_xp", "CREATE DATABASE chg_xp",
                "CREATE TABLE chg_xp.x (id INT PRIMARY KEY)")
    files = capture(srv, "XA START 'p'", "INSERT INTO chg_xp.x VALUES (1)", "XA END 'p'",
                    "XA PREPARE 'p'", database="chg_xp")
    srv.execute("XA ROLLBACK 'p'")
    reader = ChangeReader(open_source(files))
    assert not [c for c in reader.changes() if isinstance(c, RowChange)]
    assert reader.stats.xa_pending == 1


def test_filters_keep_the_history_whole(evolution):
    # only u, only from the swap on: rows of u still get the names of the renamed table
    every = list(ChangeReader(open_source(evolution)).changes())
    swap = next(c for c in every if isinstance(c, SchemaChange) and c.ddl == EVOLUTION[18])
    start = f"{swap.source.file}:{swap.source.pos}"
    got = rows(ChangeReader(open_source(evolution),
                            ChangeOptions(filters=Filters(start_position=start, tables=("u",)))).changes())
    assert got == [r for r in EXPECTED_ROWS[9:] if r[0] == "u"]
    excl = rows(ChangeReader(open_source(evolution),
                             ChangeOptions(filters=Filters(exclude_tables=("chg_evo.u", "t")))).changes())
    assert {r[0] for r in excl} == {"t2"}
    assert rows(ChangeReader(open_source(evolution),
                             ChangeOptions(filters=Filters(databases=("other",)))).changes()) == []
    # GTID ranges: MariaDB domain-server:seq intervals
    gtids = [c.source.gtid for c in every if isinstance(c, RowChange)]
    one = rows(ChangeReader(open_source(evolution),
                            ChangeOptions(filters=Filters(include_gtids=GtidSet(gtids[2])))).changes())
    assert one == [EXPECTED_ROWS[2]]


TYPES = [
    "DROP DATABASE IF EXISTS chg_types",
    "CREATE DATABASE chg_types CHARACTER SET utf8mb4",
    "CREATE TABLE chg_types.v (id INT UNSIGNED PRIMARY KEY, big BIGINT UNSIGNED, tiny TINYINT, "
    "d DECIMAL(20,6), f DOUBLE, dt DATETIME(6), ts TIMESTAMP(3) NULL, dd DATE, tm TIME(2), y YEAR, "
    "c CHAR(4) CHARACTER SET latin1, vb VARBINARY(8), bl BLOB, tx TEXT, e ENUM('x','y','z'), "
    "s SET('a','b','c'), j JSON, b BIT(10))",
    "INSERT INTO chg_types.v VALUES (1, 18446744073709551615, -128, -12345678901234.123456, 1.25, "
    "'2024-02-29 23:59:59.999999', '2038-01-19 03:14:07.123', '1000-01-01', '-838:59:59.99', 2155, "
    "'\u00e9a', X'00ff00', X'deadbeef', 'long text \u20ac', 'z', 'a,c', '{\"k\": [1, 2.5, null]}', b'1000000001')",
    "INSERT INTO chg_types.v (id) VALUES (2)",
    "UPDATE chg_types.v SET tx = 'changed', big = 0, e = 'x', s = '' WHERE id = 1",
    "ALTER TABLE chg_types.v ADD COLUMN extra VARCHAR(10) DEFAULT 'dflt' AFTER big, DROP COLUMN f",
    "INSERT INTO chg_types.v (id, extra, j) VALUES (3, 'new', '[]')",
    "UPDATE chg_types.v SET extra = 'upd' WHERE id = 2",
    "DELETE FROM chg_types.v WHERE id = 3",
    "INSERT INTO chg_types.v (id, y, tm) VALUES (4, 0, '00:00:00')",
]


def _replay(srv, changes, src_db: str, dst_db: str) -> None:
    """Apply the DDL and the row changes of `src_db` to `dst_db`: INSERT for c, UPDATE/DELETE
    matching the whole before image (NULL-safe) for u/d."""
    from mysqlddl.binlog.values.jsonb import to_text

    def val(v):
        # a JSON document as its text, numbers exact (2.5 is a Decimal: json.dumps cannot write it)
        return to_text(v) if isinstance(v, (dict, list)) else v

    conn = srv.connect()
    try:
        with conn.cursor() as cur:
            cur.execute("SET time_zone = '+00:00'")
            for ch in changes:
                if isinstance(ch, SchemaChange):
                    if ch.ddl.startswith(("DROP DATABASE", "CREATE DATABASE")):
                        continue
                    cur.execute(ch.ddl.replace(f"{src_db}.", f"{dst_db}."))
                    continue
                if not isinstance(ch, RowChange):
                    continue
                table = f"`{dst_db}`.`{ch.source.table}`"
                if ch.op == "c":
                    cols = ", ".join(f"`{k}`" for k in ch.after)
                    cur.execute(f"INSERT INTO {table} ({cols}) VALUES ({', '.join(['%s'] * len(ch.after))})",
                                [val(v) for v in ch.after.values()])
                    continue
                where = " AND ".join(f"`{k}` <=> %s" for k in ch.before)
                args = [val(v) for v in ch.before.values()]
                if ch.op == "u":
                    sets = ", ".join(f"`{k}` = %s" for k in ch.after)
                    n = cur.execute(f"UPDATE {table} SET {sets} WHERE {where} LIMIT 1",
                                    [val(v) for v in ch.after.values()] + args)
                else:
                    n = cur.execute(f"DELETE FROM {table} WHERE {where} LIMIT 1", args)
                assert n == 1, (ch.op, ch.before)
    finally:
        conn.close()


def test_replayed_changes_reproduce_the_table_contents(mariadb_server):
    srv = mariadb_server
    files = capture(srv, *TYPES)
    changes = list(ChangeReader(open_source(files)).changes())
    assert {c.naming for c in changes if isinstance(c, RowChange)} == {Naming.SCHEMA}
    srv.execute("DROP DATABASE IF EXISTS chg_replay", "CREATE DATABASE chg_replay CHARACTER SET utf8mb4")
    _replay(srv, changes, "chg_types", "chg_replay")

    def contents(db):
        conn = srv.connect()
        try:
            with conn.cursor() as cur:
                cur.execute("SET time_zone = '+00:00'")
                cur.execute(f"SELECT * FROM `{db}`.v ORDER BY id")
                return list(cur.fetchall())
        finally:
            conn.close()

    original = contents("chg_types")
    assert len(original) == 3 and contents("chg_replay") == original
    first = next(c for c in changes if isinstance(c, RowChange))
    after = first.after
    assert after["big"] == 18446744073709551615 and after["d"] == decimal.Decimal("-12345678901234.123456")
    assert after["c"] == "\u00e9a" and after["vb"] == b"\x00\xff\x00" and after["e"] == "z"
    assert after["j"] == {"k": [1, 2.5, None]} and after["b"] == 0b1000000001
    assert after["tm"].total_seconds() == -(838 * 3600 + 59 * 60 + 59.99)


def test_primary_key_change_split_truncate_events_and_threads(mariadb_server):
    """pk_change="split": an UPDATE of the primary key becomes a delete + create pair with
    Debezium's key headers; truncate_events: one op "t" after the TRUNCATE's schema change;
    source.thread: a DDL's QUERY event carries its session's thread id."""
    files = capture(mariadb_server,
                    "DROP DATABASE IF EXISTS chg_pk", "CREATE DATABASE chg_pk",
                    "CREATE TABLE chg_pk.t (id INT, k2 CHAR(2), v INT, PRIMARY KEY (id, k2))",
                    "INSERT INTO chg_pk.t VALUES (1, 'a', 10), (2, 'b', 20)",
                    "UPDATE chg_pk.t SET id = 11 WHERE id = 1",
                    "UPDATE chg_pk.t SET v = 21 WHERE id = 2",
                    "TRUNCATE TABLE chg_pk.t")
    split = [c for c in ChangeReader(open_source(files),
                                     ChangeOptions(pk_change="split", truncate_events=True)).changes()
             if isinstance(c, (RowChange, SchemaChange))]
    ops = [c.op if isinstance(c, RowChange) else "ddl" for c in split]
    assert ops == ["ddl", "ddl", "ddl", "c", "c", "d", "c", "u", "ddl", "t"]
    d, c = split[5], split[6]
    assert d.before == {"id": 1, "k2": "a", "v": 10} and d.headers == {"__debezium.newkey": {"id": 11, "k2": "a"}}
    assert c.after == {"id": 11, "k2": "a", "v": 10} and c.headers == {"__debezium.oldkey": {"id": 1, "k2": "a"}}
    assert d.source.key == c.source.key and (d.total_order, c.total_order) == (1, 2)
    assert split[7].headers is None        # the key did not change: one update
    t = split[9]
    assert (t.before, t.after, t.source.table, t.columns) == (None, None, "t", ("id", "k2", "v"))
    threads = {ch.source.thread for ch in split if isinstance(ch, SchemaChange)}
    assert len(threads) == 1 and isinstance(threads.pop(), int)
    # the defaults: one "u" for the key change, no truncate event
    plain = [c.op for c in ChangeReader(open_source(files)).changes() if isinstance(c, RowChange)]
    assert plain == ["c", "c", "u", "u"]
