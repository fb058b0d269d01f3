"""A transaction far bigger than the stream may hold in memory, streamed from a running MariaDB by
`python -m mysqlddl changes mysql://... -o FILE` in a child process (issue #20: "a huge
transaction (bigger than memory would allow buffering: it streams)").

The transaction mixes the shapes that could make a replica buffer: tens of thousands of
single-row INSERT statements (one TABLE_MAP each: a source that keeps the maps it yielded since
the transaction's start, for a resume there, would grow with them), one INSERT ... SELECT of
thousands of rows (one statement, many ROWS events), and, in its own test, rows of a LONGBLOB
bigger than 16 MiB, whose events the server sends as several packets that must be reassembled
(MySQL internals manual "Sending More Than 16Mb").

Two checks per run: every row arrives exactly once with its content (each change's values against
``SELECT ... MD5()`` of the server's table), and the child's peak RSS (its VmHWM as it exits)
stays well under the transaction's size: it is compared with the peak of the same command over
a small transaction on the same server, so the interpreter's own footprint cancels out. The
default versions are tens of MB; ``--run-slow`` runs a transaction of ~460 MB (measured: peak
RSS 113 MiB, against 103 MiB for a small one with the same two 17 MiB rows). A cut connection
inside a big transaction resumes at its start and skips what was delivered.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.mariadb

PASSWORD = "huge-pw"
MIB = 1 << 20


@pytest.fixture(scope="module")
def bigsrv(mariadb_server, tool):
    """A private server of this module's own (it writes big binlogs nobody else should stream),
    with the replication account the child logs in with."""
    lab = tool("mariadb_lab")
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbhuge-{os.getpid()}"
    srv = lab.MariaDBServer(base).start()
    try:
        srv.execute(f"CREATE OR REPLACE USER 'repl'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'",
                    "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'repl'@'127.0.0.1'",
                    "GRANT REPLICATION MASTER ADMIN ON *.* TO 'repl'@'127.0.0.1'",
                    "CREATE DATABASE huge",
                    # one single-row INSERT statement per row, inside the caller's transaction
                    "CREATE PROCEDURE huge.fill(lo INT, hi INT, width INT) BEGIN "
                    "DECLARE i INT DEFAULT lo; WHILE i < hi DO "
                    "INSERT INTO huge.t VALUES (i, REPEAT(CHAR(97 + i % 26), width), NULL, i); "
                    "SET i = i + 1; END WHILE; END")
        yield srv
    finally:
        srv.destroy()


def _transaction(srv, table: str, *, statements: int, bulk: int, width: int, blobs: int = 0,
                 blob_bytes: int = 0) -> tuple[str, int]:
    """One transaction on ``huge.<table>`` in a binlog file of its own: ``statements`` single-row
    INSERTs, then one INSERT ... SELECT of ``bulk`` rows, then ``blobs`` rows with a LONGBLOB of
    ``blob_bytes``. Returns (its binlog file, the file's size)."""
    srv.execute(f"DROP TABLE IF EXISTS huge.{table}",
                f"CREATE TABLE huge.{table} (id INT PRIMARY KEY, v TEXT, b LONGBLOB, n INT)",
                "DROP VIEW IF EXISTS huge.t", f"CREATE VIEW huge.t AS SELECT * FROM huge.{table}")
    srv.flush_logs()
    name = srv.current_binlog()[0].name
    conn = srv.connect("huge")
    try:
        with conn.cursor() as cur:
            cur.execute("BEGIN")
            cur.execute("CALL fill(0, %s, %s)", (statements, width))
            cur.execute(f"INSERT INTO {table} SELECT seq, REPEAT(CHAR(65 + seq % 26), {width}), NULL, seq "
                        f"FROM seq_{statements}_to_{statements + bulk - 1}")
            for k in range(blobs):
                i = statements + bulk + k
                # distinct content per row (its MD5 chain), so a row sent twice or cut short shows
                cur.execute(f"INSERT INTO {table} VALUES ({i}, 'blob', REPEAT(MD5({i}), {blob_bytes // 32}), {i})")
            cur.execute("COMMIT")
    finally:
        conn.close()
    srv.flush_logs()
    return name, (srv.binlog_dir / name).stat().st_size


#: `python -m mysqlddl ARGS` that writes its peak RSS (VmHWM, KiB) to PEAK_FILE as it exits. Not
#: wait4's ru_maxrss: a child's maxrss starts at its parent's high-water mark (Linux keeps the
#: larger across fork and exec, kernel/fork.c and fs/exec.c ``setmax_mm_hiwater_rss``), and this
#: test process holds the parsed output of the previous run; VmHWM (proc(5)) is the new image's own.
_PEAK = ("import atexit, runpy, sys\n"
         "peak_file = sys.argv.pop(1)\n"
         "def peak():\n"
         "    with open('/proc/self/status') as f:\n"
         "        kib = next(line.split()[1] for line in f if line.startswith('VmHWM:'))\n"
         "    with open(peak_file, 'w') as f:\n"
         "        f.write(kib)\n"
         "atexit.register(peak)\n"
         "sys.argv[0] = 'mysqlddl'\n"
         "runpy.run_module('mysqlddl', run_name='__main__', alter_sys=True)\n")


def _stream(srv, tmp_path: Path, start_file: str, tag: str) -> tuple[Path, int]:
    """`mysqlddl changes` from ``start_file`` to the server's end, in a child: (output, peak RSS in bytes)."""
    out, peak = tmp_path / f"{tag}.jsonl", tmp_path / f"{tag}.peak"
    env = dict(os.environ, MYSQL_PWD=PASSWORD)
    uri = f"mysql://repl@127.0.0.1:{srv.port}/?server-id={900 + len(tag)}&ssl-mode=disabled"
    proc = subprocess.run([sys.executable, "-c", _PEAK, str(peak), "changes", uri, "--start-position",
                           f"{start_file}:4", "--database", "huge", "--summary", "none", "-o", str(out)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=tmp_path, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, int(peak.read_text()) * 1024


def _check_rows(srv, table: str, out: Path) -> int:
    """Every row of ``huge.<table>`` arrived exactly once as an insert with its values; no other
    row change. Returns the rows seen."""
    want = {r[0]: (r[1], r[2], r[3]) for r in srv.query(f"SELECT id, MD5(v), MD5(b), n FROM huge.{table}")}
    seen: dict[int, tuple] = {}
    begins = ends = 0
    with open(out, encoding="utf-8") as f:
        for line in f:
            ch = json.loads(line)
            status = ch.get("status")
            if status is not None:
                begins += status == "BEGIN"
                ends += status == "END"
                continue
            op = ch["op"]
            if ch["source"]["table"] != table:
                continue
            assert op == "c", f"unexpected {op} in a transaction of inserts"
            # (positional names: the stream starts past the CREATE TABLE, and the lab server logs
            # binlog_row_metadata=MINIMAL)
            a = ch["after"]
            i, v, b, n = a["col_1"], a["col_2"], a["col_3"], a["col_4"]
            assert i not in seen, f"row {i} arrived twice"
            b = None if b is None else hashlib.md5(base64.b64decode(b)).hexdigest()
            seen[i] = (hashlib.md5(v.encode()).hexdigest(), b, n)
            del ch, a, v, b
    assert begins == ends == 1, (begins, ends)
    missing = want.keys() - seen.keys()
    assert not missing, f"{len(missing)} rows never arrived, e.g. {sorted(missing)[:5]}"
    assert seen == want
    return len(seen)


def _peak_of(bigsrv, tmp_path, table, **shape) -> tuple[int, int, int]:
    """Make the transaction, stream it, check its rows: (rows, its binlog's size, the child's peak RSS)."""
    name, size = _transaction(bigsrv, table, **shape)
    out, rss = _stream(bigsrv, tmp_path, name, table)
    rows = _check_rows(bigsrv, table, out)
    out.unlink()
    print(f"{table}: {rows} rows, transaction {size / MIB:.0f} MiB, peak RSS {rss / MIB:.0f} MiB")
    return rows, size, rss


def test_a_huge_transaction_streams(bigsrv, tmp_path):
    _, _, base = _peak_of(bigsrv, tmp_path, "tx_small", statements=200, bulk=200, width=800)
    # ~29 MB: 16,000 single-row statements and 16,000 rows of one INSERT ... SELECT, 800 bytes each
    rows, size, peak = _peak_of(bigsrv, tmp_path, "tx", statements=16_000, bulk=16_000, width=800)
    assert rows == 32_000 and size > 28 * MIB
    # held in memory, the events alone would be the transaction's size (their Python objects far
    # more); streamed, the peak is the small run's plus buffers. (Before the source kept its
    # TABLE_MAPs by table_id, 25,000 maps added 18 MiB.)
    assert peak - base < size / 8, f"peak RSS {peak / MIB:.0f} MiB, {base / MIB:.0f} MiB for a small transaction"


def test_rows_larger_than_a_packet_are_reassembled(bigsrv, tmp_path):
    # LONGBLOB rows of 17 MiB: each one ROWS event sent as two packets (16 MiB - 1, then the rest).
    # A row costs memory while it is handled (its event, value and rendering: ~4x its size, then
    # the allocator keeps some), but the rows must not add up: four more of them would hold 68 MiB
    # in their events alone. (Measured: 103 MiB with two, 124 with six, 123 with four, 96 with one.)
    shape = dict(statements=10, bulk=10, width=100, blob_bytes=17 * MIB)
    _, _, two = _peak_of(bigsrv, tmp_path, "blob2", blobs=2, **shape)
    rows, size, six = _peak_of(bigsrv, tmp_path, "blob6", blobs=6, **shape)
    assert rows == 26 and size > 102 * MIB
    assert six - two < 34 * MIB, f"peak RSS {six / MIB:.0f} MiB with six big rows, {two / MIB:.0f} MiB with two"


@pytest.mark.slow
def test_a_transaction_of_hundreds_of_megabytes_streams(bigsrv, tmp_path):
    shape = dict(width=1000, blobs=2, blob_bytes=17 * MIB)
    _, _, base = _peak_of(bigsrv, tmp_path, "big_small", statements=200, bulk=200, **shape)
    # ~480 MB: 150,000 statements, 250,000 bulk rows of 1,000 bytes, and the same two 17 MiB rows
    rows, size, peak = _peak_of(bigsrv, tmp_path, "big", statements=150_000, bulk=250_000, **shape)
    assert rows == 400_002 and size > 400 * MIB
    assert peak - base < size / 10, f"peak RSS {peak / MIB:.0f} MiB, {base / MIB:.0f} MiB for a small transaction"


@pytest.fixture
def cutter(bigsrv):
    """A TcpProxy (tests/sources/proxy.py) in front of the module's server."""
    spec = importlib.util.spec_from_file_location("_huge_proxy", Path(__file__).parent.parent / "proxy.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    made = []
    yield lambda plans: made.append(mod.TcpProxy(bigsrv.port, plans)) or made[-1]
    for p in made:
        p.close()


def test_cut_twice_inside_a_big_transaction(bigsrv, cutter):
    """The connection cut twice inside one transaction of 6,000 statements (a TABLE_MAP each) and a
    6,000-row INSERT ... SELECT: each reconnection re-reads from the transaction's start, skipping
    what was yielded (no event held meanwhile), and each row reaches the consumer once."""
    from mysqlddl.changes import ChangeOptions, ChangeReader, RowChange
    from mysqlddl.sources import SourceOptions, open_source

    name, size = _transaction(bigsrv, "cut", statements=6000, bulk=6000, width=500)
    want = {r[0]: (r[1], r[2]) for r in bigsrv.query("SELECT id, MD5(v), n FROM huge.cut")}
    p = cutter({2: ("cut", int(size * 0.35)), 3: ("cut", int(size * 0.8))})
    uri = f"mysql://repl@127.0.0.1:{p.port}/?server-id=931&ssl-mode=disabled"
    seen = {}
    with open_source(uri, SourceOptions(start=f"{name}:4", reconnect_delay=0.05), password=PASSWORD) as src:
        for ch in ChangeReader(src, ChangeOptions()).changes():
            if isinstance(ch, RowChange) and ch.source.table == "cut":
                a = ch.after
                assert ch.op == "c" and a["col_1"] not in seen, f"row {a['col_1']} arrived twice"
                seen[a["col_1"]] = (hashlib.md5(a["col_2"].encode()).hexdigest(), a["col_4"])
        assert src.reconnects == 2 and len(p.faults) == 2
        assert all(inside for _, inside, _ in src.resumes), src.resumes
        # both resumed at the transaction's start: the GTID event's position in the file
        assert len({resume for resume, _, _ in src.resumes}) == 1, src.resumes
    assert seen == want and len(seen) == 12_000
