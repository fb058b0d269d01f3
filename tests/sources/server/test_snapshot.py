"""mysqlddl.sources.server.snapshot against a private lab MariaDB (tools/mariadb_lab.py, 10.11 here):

- the captured DDL is a baseline the change reader takes at the captured position, and the model it
  builds equals the model the reader builds from the server's own DDL events;
- snapshot rows of every column type of the lab workload (tools/workload.py TYPE_COLS) equal, value
  for value and type for type, the after-images of their INSERT events decoded from the binlog;
- with a writer committing single-row transactions during the capture, the snapshot rows plus the
  binlog changes from the captured position rebuild the table exactly (no gap, no duplicate).
"""

from __future__ import annotations

import dataclasses
import os
import random
import threading
import time

import pymysql
import pytest

from mysqlddl.changes import ChangeReader, RowChange, SchemaChange
from mysqlddl.changes.filters import Filters
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.snapshot import snapshot_rows
from mysqlddl.errors import SnapshotError
from mysqlddl.model.ids import TableId
from mysqlddl.options import Options, change_event_options
from mysqlddl.sources import open_source
from mysqlddl.sources.server import snapshot
from mysqlddl.sources.server.snapshot import capture_schema

DB = "snap"


@pytest.fixture(scope="module")
def server(tmp_path_factory, tool):
    """A server of this module's own: its binlogs hold every DDL of the tables from the start."""
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(lab.INSTALL_HINT)
        pytest.skip(lab.INSTALL_HINT)
    srv = lab.MariaDBServer(tmp_path_factory.mktemp("snap") / "srv")
    srv.start()
    try:
        yield srv
    finally:
        srv.destroy()


@pytest.fixture(scope="module")
def typed(server, tool):
    """Database `snap`: `all_types` (the workload's column table) with lo/hi/zero/odd/NULL/binary
    and 20 seeded random rows, each INSERT its own transaction; `nopk` (no key) and `pk2`
    (composite key) for the chunking paths. Returns the ids of all_types."""
    wl = tool("workload")
    conn = server.connect(max_allowed_packet=1 << 30)
    cur = conn.cursor()
    cur.execute("SET SESSION sql_mode = ''")
    cur.execute(f"CREATE DATABASE {DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci")
    cur.execute(f"USE {DB}")
    body = ",\n  ".join(f"{wl.quote_ident(c.name)} {c.sqltype}" for c in wl.TYPE_COLS)
    cur.execute(f"CREATE TABLE all_types (\n  {body}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4")
    cur.execute("CREATE TABLE nopk (a INT, b VARCHAR(10) CHARACTER SET latin1) ENGINE=InnoDB")
    cur.execute("CREATE TABLE pk2 (a INT NOT NULL, b VARCHAR(20) NOT NULL, v DECIMAL(10,2), "
                "PRIMARY KEY (a, b)) ENGINE=InnoDB DEFAULT CHARSET=latin1")
    cur.execute("CREATE VIEW v_types AS SELECT id, c_i FROM all_types WHERE c_i > 0")
    cur.execute("CREATE SEQUENCE seq1 START WITH 100 INCREMENT BY 7")

    def insert(table, row):
        cols = list(row)
        cur.execute(f"INSERT INTO {table} (" + ",".join(wl.quote_ident(c) for c in cols) + ") VALUES ("
                    + ",".join(wl.literal(row[c]) for c in cols) + ")")

    rows = [{c.name: getattr(c, pick) for c in wl.WRITABLE} for pick in ("lo", "hi", "zero", "odd")]
    rows.append({"c_invis": None})
    rr = random.Random(20240611)
    rows += [{c.name: wl.random_value(c, rr) for c in wl.WRITABLE} for _ in range(20)]
    ids = []
    for i, row in enumerate(rows, 1):
        insert("all_types", {"id": i, **row})
        ids.append(i)
    for i in range(7):
        insert("nopk", {"a": i % 3 if i != 4 else None, "b": f"r{i}€"})
    for a in range(5):
        for b in ("x", "ä", "b", "Z"):
            insert("pk2", {"a": a, "b": b, "v": wl.Sql(f"{a}.{len(b)}")})
    conn.close()
    return ids


def _typed(image: dict) -> dict:
    """Column -> (type name, repr): equal only when the values are equal and of the same type
    (repr tells -0.0 from 0.0 and Decimal('1.0') from Decimal('1.00'))."""
    return {k: (type(v).__name__, repr(v)) for k, v in image.items()}


def _semantic(table):
    """The table version without the two fields that keep the statement's own spelling: a column's
    ``declared_type`` (``INT`` as written, ``int(11)`` as SHOW CREATE TABLE prints it) and a generated
    column's expression text (the server prints it normalized: backquotes, lower-case functions).
    Every other field (types, lengths, charsets, collations, defaults, keys, checks) must be equal."""
    cols = tuple(dataclasses.replace(c, declared_type="", generated=None if c.generated is None
                                     else dataclasses.replace(c.generated, expression=""))
                 for c in table.columns)
    return dataclasses.replace(table, columns=cols)


def _inserts(server, opts: Options, table: str) -> dict:
    server.flush_logs()
    reader = ChangeReader(open_source(server.binlog_files()),
                          ChangeOptions(decode=opts, filters=Filters(tables=(table,))))
    return {c.after["id"] if "id" in c.after else (c.after["a"], c.after["b"]): c.after for c in reader.changes()
            if isinstance(c, RowChange) and c.op == "c" and c.source.db == DB}


@pytest.mark.parametrize("opts", [Options(), change_event_options().replace(pad_char=True, decimal_as="str",
                                                                             invalid_temporal_as="none")],
                         ids=["default", "cli-options"])
def test_snapshot_values_equal_the_binlog_after_images(server, typed, opts, twin):
    """(On the compiled row decoder and on its pure-Python twin.)"""
    conn = server.connect(max_allowed_packet=1 << 30)
    try:
        cap = capture_schema(conn, filters=Filters(databases=(DB,), tables=("all_types",)))
        assert cap.tables == ((DB, "all_types"),) and cap.in_snapshot
        got = list(snapshot_rows(conn, cap, options=opts, chunk_rows=7))
    finally:
        conn.close()
    binlog = _inserts(server, opts, "all_types")
    assert [r.after["id"] for r in got] == typed                       # primary-key order, every row once
    assert {r.op for r in got} == {"r"} and all(r.before is None for r in got)
    for r in got:
        want = binlog[r.after["id"]]
        assert set(r.after) == set(want)
        assert _typed(r.after) == _typed(want), r.after["id"]
    # Debezium's markers and the snapshot position on every record
    assert [r.source.snapshot for r in got] == ["true"] * (len(got) - 1) + ["last"]
    assert {(r.source.file, r.source.pos, r.source.db, r.source.table) for r in got} == \
        {(cap.position.file, cap.position.pos, DB, "all_types")}


def test_chunking_without_and_with_a_composite_key(server, typed):
    conn = server.connect()
    try:
        cap = capture_schema(conn, filters=Filters(databases=(DB,), tables=("nopk", "pk2")), lock="global")
        assert cap.lock == "global" and cap.tables == ((DB, "nopk"), (DB, "pk2"))
        got = list(snapshot_rows(conn, cap, chunk_rows=3))
        order = server.query(f"SELECT a, b FROM {DB}.pk2 ORDER BY a, b")
    finally:
        conn.close()
    nopk = [r.after for r in got if r.source.table == "nopk"]
    assert nopk == [{"a": i % 3 if i != 4 else None, "b": f"r{i}€"} for i in range(7)]    # insertion order
    pk2 = [(r.after["a"], r.after["b"]) for r in got if r.source.table == "pk2"]
    assert pk2 == [tuple(x) for x in order] and len(pk2) == 20     # the server's collation order
    binlog = _inserts(server, Options(), "pk2")
    assert all(_typed(r.after) == _typed(binlog[(r.after["a"], r.after["b"])]) for r in got if r.source.table == "pk2")


@pytest.mark.parametrize("lock", ["snapshot", "global"])
def test_capture_is_a_baseline_equal_to_the_servers_ddl(server, typed, lock, tmp_path, run_cli):
    conn = server.connect()
    try:
        cap = capture_schema(conn, filters=Filters(databases=(DB,)), lock=lock, with_rows=False)
    finally:
        conn.close()
    assert cap.lock == lock and not cap.in_snapshot
    assert cap.position.gtid and cap.position.file.startswith("mariadb-bin.")
    assert [t for _, t in cap.tables] == ["all_types", "nopk", "pk2"]
    assert cap.views == ((DB, "v_types"),) and cap.sequences == ((DB, "seq1"),)
    server.query(f"SELECT NEXTVAL({DB}.seq1)")           # a row event of the sequence after the capture
    server.flush_logs()
    files = server.binlog_files()
    # the model from the server's own DDL events, at the captured position
    full = ChangeReader(open_source(files))
    for _ in full:
        pass
    at = cap.position
    # the capture fed to the reader as its baseline (what --schema / --schema-position give)
    base = ChangeReader(open_source(files), ChangeOptions(schema_position=str(at)), schema=cap.ddl)
    for _ in base:
        pass
    for _, name in cap.tables:
        tid = TableId(DB, name)
        assert _semantic(base.history.table_at(tid, at)) == _semantic(full.history.table_at(tid, at)), name
    assert base.stats.ddl_errors == 0 and base.stats.mismatches == 0
    seq = TableId(DB, "seq1")
    assert _semantic(base.history.table_at(seq, at)) == _semantic(full.history.table_at(seq, at))
    assert base.history.table_at(seq, at).sequence.increment == 7
    assert base.history.catalog_at(at).view(TableId(DB, "v_types")) is not None
    # the same through the CLI's baseline path
    ddl = tmp_path / "baseline.sql"
    ddl.write_text(cap.ddl)
    out = tmp_path / "out.jsonl"
    r = run_cli("changes", "--schema", ddl, "--schema-position", str(at), "--output", out, *files)
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"c_uuid"' in out.read_text()          # rows named by the baseline's columns


def _writer(server, stop: threading.Event, counter: list):
    conn = server.connect()
    cur = conn.cursor()
    rr = random.Random(7)
    n = 0
    while not stop.is_set():
        k = rr.randint(1, 3000)
        op = rr.random()
        if op < 0.4:
            cur.execute(f"INSERT INTO {DB}.race (id, v) VALUES (%s, 0) ON DUPLICATE KEY UPDATE v = v + 1", (k,))
        elif op < 0.8:
            cur.execute(f"UPDATE {DB}.race SET v = v + 1 WHERE id = %s", (k,))
        else:
            cur.execute(f"DELETE FROM {DB}.race WHERE id = %s", (k,))
        n += 1
    counter.append(n)
    conn.close()


@pytest.mark.parametrize("lock", ["snapshot", "global"])
def test_snapshot_plus_stream_rebuilds_the_table_exactly(server, typed, lock):
    server.execute(f"DROP TABLE IF EXISTS {DB}.race",
                   f"CREATE TABLE {DB}.race (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
                   f"INSERT INTO {DB}.race SELECT seq, 0 FROM seq_1_to_2000", database=DB)
    stop, counter = threading.Event(), []
    t = threading.Thread(target=_writer, args=(server, stop, counter))
    t.start()
    try:
        time.sleep(0.2)
        conn = server.connect()
        try:
            cap = capture_schema(conn, filters=Filters(databases=(DB,), tables=("race",)), lock=lock)
            state = {}
            for rec in snapshot_rows(conn, cap, chunk_rows=50):     # ~40 chunks while the writer commits
                assert rec.after["id"] not in state
                state[rec.after["id"]] = rec.after
        finally:
            conn.close()
        time.sleep(0.2)
    finally:
        stop.set()
        t.join()
    assert counter[0] > 20                                          # the writer really raced the capture
    server.flush_logs()
    files = server.binlog_files()
    reader = ChangeReader(open_source(files), ChangeOptions(schema_position=str(cap.position),
                                               span=((str(files[0].parent / cap.position.file), cap.position.pos),
                                                     None),
                                               filters=Filters(tables=("race",))), schema=cap.ddl)
    applied = 0
    for c in reader.changes():
        if not isinstance(c, RowChange):
            continue
        key = (c.before or c.after)["id"]
        if c.op == "c":
            assert key not in state, f"duplicate: {key} inserted at {c.source.file}:{c.source.pos} is in the snapshot"
            state[key] = c.after
        elif c.op == "u":
            assert state.get(key) == c.before, f"gap: update at {c.source.file}:{c.source.pos} of {key}"
            state[c.after["id"]] = c.after
        else:
            assert state.pop(key, None) == c.before, f"gap: delete at {c.source.file}:{c.source.pos} of {key}"
        applied += 1
    assert applied > 0
    final = {i: {"id": i, "v": v} for i, v in server.query(f"SELECT id, v FROM {DB}.race")}
    assert state == final


def test_lock_free_capture_under_concurrent_ddl_matches_the_log(server, typed, monkeypatch):
    """A DDL committed while a lock-free capture reads the schema is found in the binlog window and
    the capture retried (or taken under the global lock): each capture's DDL is the schema in force
    at its own position, as the server's DDL events say. (SHOW BINLOG EVENTS read in pages of 3
    events, so the window check crosses page boundaries.)"""
    monkeypatch.setattr(snapshot, "BINLOG_EVENTS_PAGE", 3)
    server.execute(f"CREATE TABLE {DB}.ddlrace (id INT PRIMARY KEY) ENGINE=InnoDB",
                   f"CREATE TABLE {DB}.ddlfill (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB")
    stop = threading.Event()

    def alter():
        conn = server.connect()
        cur = conn.cursor()
        i = 0
        while not stop.is_set():
            for _ in range(3):          # row events first: the ALTER sits pages deep in the window
                cur.execute(f"INSERT INTO {DB}.ddlfill VALUES ()")
            cur.execute(f"ALTER TABLE {DB}.ddlrace ADD COLUMN c{i} INT")
            i += 1
            altered.append(i)
        conn.close()

    altered: list = []
    t = threading.Thread(target=alter)
    t.start()
    caps = []
    try:
        conn = server.connect()
        try:
            deadline = time.monotonic() + 30
            while not altered and time.monotonic() < deadline:      # the ALTERs have begun
                time.sleep(0.01)
            first = len(altered)
            # at least 15 captures, and on until the ALTERs moved on by 5 (a slow machine)
            while (len(caps) < 15 or len(altered) < first + 5) and time.monotonic() < deadline:
                caps.append(capture_schema(conn, filters=Filters(databases=(DB,), tables=("ddlrace",)),
                                           lock="snapshot", with_rows=False))
        finally:
            conn.close()
    finally:
        stop.set()
        t.join()
    server.flush_logs()
    full = ChangeReader(open_source(server.binlog_files()))
    for _ in full:
        pass
    tid = TableId(DB, "ddlrace")
    widths = set()
    for cap in caps:
        base = ChangeReader(open_source(server.binlog_files()),
                            ChangeOptions(schema_position=str(cap.position), rows=False),
                            schema=cap.ddl)
        table = base.history.table_at(tid, cap.position)
        assert _semantic(table) == _semantic(full.history.table_at(tid, cap.position)), (str(cap.position), cap.lock)
        widths.add(len(table.columns))
    assert len(widths) > 1                  # the ALTERs really ran between the captures


def test_window_check_finds_a_ddl_pages_deep(server, typed, monkeypatch):
    """The lock-free capture's check reads SHOW BINLOG EVENTS page by page: a DDL behind several
    pages of row events is found; a window of row events only has none."""
    monkeypatch.setattr(snapshot, "BINLOG_EVENTS_PAGE", 3)
    server.execute(f"CREATE TABLE {DB}.window_t (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB")
    f0, p0 = server.current_binlog()
    server.execute(*[f"INSERT INTO {DB}.window_t VALUES ()"] * 4)
    f1, p1 = server.current_binlog()
    server.execute(f"ALTER TABLE {DB}.window_t ADD COLUMN x INT", f"INSERT INTO {DB}.window_t VALUES ()")
    f2, p2 = server.current_binlog()
    conn = server.connect()
    try:
        cur = conn.cursor()
        assert snapshot._ddl_between(cur, (f0.name, p0), (f1.name, p1)) is None
        found = snapshot._ddl_between(cur, (f0.name, p0), (f2.name, p2))
        assert found is not None and "ADD COLUMN x" in found
    finally:
        conn.close()


def _replay(server) -> tuple[dict, set]:
    """The tables of database `lab` as the binlog's row changes leave them: (db.table -> {key:
    image}, where key is the primary key or the image's repr for a table without one; the tables
    whose contents the log cannot rebuild: a DDL changed them while they held rows, e.g. an ALTER
    ADD COLUMN fills its default into every row without a row event)."""
    state: dict = {}
    unsure: set = set()
    for c in ChangeReader(open_source(server.binlog_files()), ChangeOptions(truncate_events=True)).changes():
        if isinstance(c, SchemaChange):
            touched = [tid.name for tid, _ in c.record.tables if tid.database == "lab"]
            if any(state.get(n) or n in unsure for n in touched):
                unsure.update(touched)
            for n in touched:
                state[n] = {}
            continue
        if not isinstance(c, RowChange) or c.source.db != "lab" or c.source.table in unsure:
            continue
        rows = state.setdefault(c.source.table, {})
        if c.op == "t":
            rows.clear()
            continue
        pk = c.table_version.primary_key.columns if c.table_version.primary_key else None

        def key(image, pk=pk):
            return tuple(image[k] for k in pk) if pk else repr(sorted(image.items()))

        if c.before is not None:
            rows.pop(key(c.before))
        if c.after is not None:
            rows[key(c.after)] = c.after
    return state, unsure


def test_lab_workload_snapshot_equals_the_binlog_replay(server, typed, tool):
    """The workload's phases a and b (every column type, legacy temporal formats, a table altered
    step by step, quoted identifiers, CTAS, CREATE LIKE, RENAME, XA, a non-transactional table,
    ODKU, REPLACE): the capture's model equals the one built from the DDL events, and the snapshot's
    rows equal the replay of every row change of the binlog, value for value."""
    tool("workload").run(server, phases="ab", scale=0.001, log=lambda *a: None)
    conn = server.connect(max_allowed_packet=1 << 30)
    try:
        cap = capture_schema(conn, filters=Filters(databases=("lab",)))
        got = list(snapshot_rows(conn, cap, chunk_rows=5))
    finally:
        conn.close()
    server.flush_logs()
    files = server.binlog_files()
    full = ChangeReader(open_source(files))
    for _ in full:
        pass
    base = ChangeReader(open_source(files), ChangeOptions(schema_position=str(cap.position),
                                             span=((str(files[0].parent / cap.position.file), cap.position.pos),
                                                   None)), schema=cap.ddl)
    for _ in base:
        pass
    assert len(cap.tables) >= 10
    for db, name in cap.tables:
        mine, theirs = (_semantic(r.history.table_at(TableId(db, name), cap.position)) for r in (base, full))
        # SHOW CREATE TABLE spells out storage options the server defaulted (Aria's PAGE_CHECKSUM=1)
        assert dataclasses.replace(mine, options=()) == dataclasses.replace(theirs, options=()), name
        assert dict(theirs.options).items() <= dict(mine.options).items(), name
    replay, unsure = _replay(server)
    snap: dict = {}
    for r in got:
        pk = r.table_version.primary_key.columns if r.table_version.primary_key else None
        k = tuple(r.after[c] for c in pk) if pk else repr(sorted(r.after.items()))
        snap.setdefault(r.source.table, {})[k] = r.after
    compared = sorted(t for _, t in cap.tables if t not in unsure)
    assert "all_types" in compared and "legacy_temporal" in compared and len(compared) >= 5, compared
    for name in compared:
        assert {k: _typed(v) for k, v in snap.get(name, {}).items()} == \
            {k: _typed(v) for k, v in replay.get(name, {}).items()}, name
    assert sum(len(snap.get(n, ())) for n in compared) > 30, compared


def test_closing_the_rows_early_ends_the_snapshot(server, typed):
    conn = server.connect()
    try:
        cap = capture_schema(conn, filters=Filters(databases=(DB,), tables=("pk2", "nopk")))
        rows = snapshot_rows(conn, cap, chunk_rows=2)
        assert next(rows).op == "r"
        rows.close()
        assert server_query(conn, "SELECT @@in_transaction") == [(0,)]
    finally:
        conn.close()


def server_query(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return list(cur.fetchall())


def test_privileges_named_with_their_fix(server, typed):
    """Without RELOAD a MariaDB capture still runs lock-free; the global lock says RELOAD is what it
    lacks; without BINLOG MONITOR the lock-free capture says so."""
    server.execute("CREATE USER IF NOT EXISTS snapu@localhost IDENTIFIED BY 'pw'",
                   f"GRANT SELECT ON {DB}.* TO snapu@localhost", "GRANT BINLOG MONITOR ON *.* TO snapu@localhost",
                   "CREATE USER IF NOT EXISTS snapv@localhost IDENTIFIED BY 'pw'",
                   f"GRANT SELECT ON {DB}.* TO snapv@localhost")

    def connect(user):
        return pymysql.connect(unix_socket=server.socket, user=user, password="pw", charset="utf8mb4",
                               autocommit=True)

    conn = connect("snapu")
    try:
        cap = capture_schema(conn, filters=Filters(tables=("pk2",)))
        assert cap.lock == "snapshot" and cap.databases == (DB,) and len(list(snapshot_rows(conn, cap))) == 20
        with pytest.raises(SnapshotError, match="RELOAD") as e:
            capture_schema(conn, lock="global")
        assert "lock='snapshot'" in str(e.value)
        assert server_query(conn, "SELECT @@in_transaction") == [(0,)]
    finally:
        conn.close()
    conn = connect("snapv")
    try:
        with pytest.raises(SnapshotError, match="BINLOG MONITOR"):
            capture_schema(conn)
    finally:
        conn.close()


@pytest.mark.parametrize("hold", [True, False])
def test_ddl_during_the_snapshot_waits_or_is_named(server, typed, hold):
    """hold_tables=True: a DDL on an included table waits for the snapshot to end; False: it runs,
    and reading the rebuilt table is a SnapshotError (never rows of the wrong version)."""
    server.execute(f"CREATE TABLE IF NOT EXISTS {DB}.held (id INT PRIMARY KEY)",
                   f"REPLACE INTO {DB}.held VALUES (1), (2)")
    conn, other = server.connect(), server.connect()
    try:
        cap = capture_schema(conn, filters=Filters(databases=(DB,), tables=("held",)), hold_tables=hold)
        with other.cursor() as cur:
            cur.execute("SET SESSION lock_wait_timeout = 1")
            if hold:
                with pytest.raises(pymysql.err.OperationalError) as e:
                    cur.execute(f"ALTER TABLE {DB}.held FORCE")
                assert e.value.args[0] == 1205                  # lock wait timeout: the snapshot holds it
                assert [r.after["id"] for r in snapshot_rows(conn, cap)] == [1, 2]
                cur.execute(f"ALTER TABLE {DB}.held FORCE")    # the snapshot is over: the DDL runs
            else:
                cur.execute(f"ALTER TABLE {DB}.held FORCE")
                with pytest.raises(SnapshotError, match="held was changed by a DDL"):
                    list(snapshot_rows(conn, cap))
    finally:
        conn.close()
        other.close()
