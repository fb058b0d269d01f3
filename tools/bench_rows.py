#!/usr/bin/env python3
"""Row-decoding benchmark: decode every row of the lab bulk binlog to Python values, and measure the
two peers in the same run.

    python tools/bench_rows.py --scale 1                 # the issue's target (about 1M row changes)
    python tools/bench_rows.py --scale 0.05 --runs 1     # a quick check
    python tools/bench_rows.py FILE...                   # any binlogs (no python-mysql-replication case)

Input. Without FILE arguments the bulk phase (c) of the project's own workload (tools/workload.py)
is run once on a private MariaDB (tools/mariadb_lab.py) and cached under ``--lab`` (default
$MYSQLDDL_BENCH_LAB or /tmp/mysqlddl-bench-lab), one directory per (scale, seed): later runs reuse the
binlogs. The server is configured like ../shared/lab/mariadb.sh (ROW, FULL image, CRC32, 64M files,
binlog_row_metadata NO_LOG: MariaDB 10.11's default, what the issue's figures were measured on).

Cases, each timed in CPU seconds (time.process_time of this process, or os.wait4 of a child), the
median of ``--runs`` (the cases run in turn, one run each, --runs times):

- ``compiled/lean``: mysqlddl._speedups decode_rows under a minimal framing loop of this tool (file
  mapped once, 19-byte headers, CRC32 verified by the implementation's crc32, TABLE_MAP and
  rows-event headers parsed here): what the row decoder itself costs. It knows v1/v2 rows events
  only (what MySQL 5.6+ and MariaDB write uncompressed);
- ``compiled/schema``: compiled/lean, with each table's plan built as ChangeReader builds it when
  its schema history knows the table (``changes.plan_columns`` of the table version in force at the
  TABLE_MAP's position): the values a user of the change events gets. The lab binlogs carry no
  optional metadata (binlog_row_metadata=NO_LOG, MariaDB 10.11's default), so without a schema an
  INT UNSIGNED above 2^31 decodes negative and a VARBINARY is text under --charset-fallback; the
  schema says UNSIGNED and binary. The history is built first from the files' own DDL
  (``ranges.prescan`` + ``ranges.build_history``, what the Spark driver does), untimed; its CPU is
  printed. python-mysql-replication likewise reads the schema first (from information_schema);
- ``compiled/reader``: the same as compiled/lean through mysqlddl.binlog.reader (full event
  decoding, no schema);
- ``pure-python/lean``: the twin, on the first ``--twin-rows`` row changes only (its rate is
  reported, not extrapolated to a total);
- ``mariadb-binlog -v``: ``mariadb-binlog --no-defaults --base64-output=decode-rows -v FILES >
  /dev/null``, the C peer, child CPU (as ../shared/lab/baselines.py measures it), on every file;
- ``python-mysql-replication``: it reads only from a live server, so the cached server is started
  on those binlogs and a child process streams them with BinLogStreamReader (user repl, rows events
  only, every value of every row touched; as ../shared/lab/pmr_bench.py). By default it streams
  every row change, as the other cases decode: the file holds INSERTs first (one image per row
  change), then UPDATEs (two), then DELETEs, so a leading subset measures another mix than the
  other cases and flatters the peer (at --scale 1 the first 100k row changes, all INSERTs, stream
  at ~24k per CPU-s; all of them at ~17k). Streaming all of them takes ~60 CPU s at --scale 1, so
  it is done once, in parts: the files are split into ``--runs`` groups and each round streams
  one group, between the other cases' runs. Its rate is every row change over the parts' summed
  CPU, measured in the same windows of this VM's drifting speed as the other cases.
  ``--pmr-rows N`` streams only the first N row changes instead, once per round (the median). Its CPU
  is the client's own (process_time around the streaming loop, imports excluded); the server's
  CPU for sending the binlog is not counted (as in baselines.py).

Then the ratios: each mysqlddl case against each peer, in row changes per CPU-second.
A row change is one row of a WRITE/DELETE event or one before/after pair of an UPDATE event.
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import shutil
import statistics
import struct
import subprocess
import sys
import time
import types
from pathlib import Path

from mysqlddl.binlog import _twin, rows, speedups
from mysqlddl.options import Options

_HEADER = struct.Struct("<IBIIIH")
TABLE_MAP = 19
ROWS_V1 = {23: False, 24: True, 25: False}
ROWS_V2 = {30: False, 31: True, 32: False}
FDE = 15
LOG_EVENT_BINLOG_IN_USE_F = 0x1


def _lenenc(data, pos):
    v, pos = _twin.read_lenenc_int(data, pos)
    return v, pos


def _msb_bits(raw: bytes, n: int):
    return tuple(bool(raw[i // 8] & (0x80 >> (i % 8))) for i in range(n))


def _table_map(data, pos, end, id_len):
    """Minimal TABLE_MAP body parse (libbinlogevents Table_map_event; sql/log_event.cc)."""
    table_id = int.from_bytes(data[pos:pos + id_len], "little")
    pos += id_len + 2
    n = data[pos]
    db = bytes(data[pos + 1:pos + 1 + n]).decode("utf-8", "surrogateescape")
    pos += n + 2
    n = data[pos]
    table = bytes(data[pos + 1:pos + 1 + n]).decode("utf-8", "surrogateescape")
    pos += n + 2
    ncols, pos = _lenenc(data, pos)
    ctypes = tuple(data[pos:pos + ncols])
    pos += ncols
    mlen, pos = _lenenc(data, pos)
    meta = rows.parse_column_metadata(ctypes, bytes(data[pos:pos + mlen]))
    pos += mlen
    nb = (ncols + 7) // 8
    tm = types.SimpleNamespace(table_id=table_id, database=db, table=table, column_types=ctypes,
                               column_metadata=meta, null_bitmap=bytes(data[pos:pos + nb]),
                               signedness=None, column_charsets=None, default_charset=None)
    pos += nb
    from mysqlddl.binlog.coltypes import NUMERIC_TYPES
    while pos < end:  # optional metadata TLVs (type, lenenc length, value)
        t = data[pos]
        n, pos = _lenenc(data, pos + 1)
        v = bytes(data[pos:pos + n])
        if t == 1:
            tm.signedness = _msb_bits(v, sum(1 for c in ctypes if c in NUMERIC_TYPES))
        elif t == 3:
            cs, p = [], 0
            while p < len(v):
                x, p = _lenenc(v, p)
                cs.append(x)
            tm.column_charsets = tuple(cs)
        elif t == 2:
            dflt, p = _lenenc(v, 0)
            pairs = []
            while p < len(v):
                k, p = _lenenc(v, p)
                c, p = _lenenc(v, p)
                pairs.append((k, c))
            tm.default_charset = (dflt, tuple(pairs))
        pos += n
    return tm


class SchemaColumns:
    """What a schema history built from the files' own DDL tells the row decoder about each
    table, as ChangeReader asks it (changes.plan_columns of the version in force at a TABLE_MAP's
    position); None for a table the history does not know (its plan then comes from the TABLE_MAP
    alone, as in ChangeReader)."""

    def __init__(self, paths, options: Options):
        from mysqlddl.spark import ranges

        t0 = time.process_time()
        scans = [ranges.prescan(p, options) for p in paths]
        self.history, _ = ranges.build_history(scans, options)
        self.cpu = time.process_time() - t0
        self.seq = {s.path: s.file_seq for s in scans}
        # Databases whose default charset the history states (a CREATE / ALTER DATABASE in the
        # files): only there is a column's inherited charset a fact (ChangeReader._db_known).
        from mysqlddl.changes import charset_stating_databases

        self.lower = self.history.catalog.lower_case_table_names
        self.known_dbs = {n.lower() if self.lower else n for r in self.history.records
                          for n in charset_stating_databases(r)}

    def columns(self, tm, path: str, pos: int):
        from mysqlddl.changes import plan_columns
        from mysqlddl.model.ids import TableId
        from mysqlddl.positions import BinlogPosition

        version = self.history.table_at(TableId(tm.database, tm.table),
                                        BinlogPosition(self.seq[path], pos, os.path.basename(path)))
        if version is None:
            return None
        known = (tm.database.lower() if self.lower else tm.database) in self.known_dbs
        return plan_columns(tm, version, charset_known=known)


def lean_rows(path: str, options: Options, limit: int | None = None, schema: SchemaColumns | None = None):
    """Yield (row changes, images) per rows event, decoding with speedups.impl; a minimal framing
    loop (magic, FDE, v4 headers, CRC32 verified) so the row decoder's own cost shows. With
    ``schema``, each table's plan also takes what the schema knows of its columns."""
    with open(path, "rb") as fh:
        # mmap: the page cache is read in place (a read() into a fresh 64 MB buffer costs more
        # page faults and copying than decoding its rows)
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    if data[:4] != b"\xfebin":
        raise SystemExit(f"{path}: not a binlog")
    pos = 4
    size = _HEADER.unpack_from(data, pos)[3]
    body = data[pos + 19:pos + size]
    version = body[2:52].split(b"\0", 1)[0].decode()
    header_len = body[56]
    post = body[57:]
    nums = tuple(int(x) for x in version.split("-")[0].split(".")[:3])
    has_alg = nums >= (5, 6, 1) or ("MariaDB" in version and nums >= (5, 3, 0))
    crc = 4 if has_alg and post[-5] == 1 else 0
    id_len = 4 if post[TABLE_MAP - 1] == 6 else 6
    maps = {}
    plans = {}
    mv = memoryview(data)
    done = 0
    while pos < len(data):
        _, etype, _, size, _, flags = _HEADER.unpack_from(data, pos)
        if crc:
            covered = mv[pos:pos + size - 4]
            want = int.from_bytes(data[pos + size - 4:pos + size], "little")
            got = speedups.impl.crc32(covered)
            if got != want and etype == FDE:
                fixed = bytearray(covered)
                fixed[17] &= ~LOG_EVENT_BINLOG_IN_USE_F & 0xFF
                got = speedups.impl.crc32(fixed)
            if got != want:
                raise SystemExit(f"{path}:{pos}: CRC mismatch")
        start, end = pos + header_len, pos + size - crc
        if etype == TABLE_MAP:
            tm = _table_map(data, start, end, id_len)
            tm.pos = pos
            maps[tm.table_id] = tm
            plans.pop(tm.table_id, None)
        elif etype in ROWS_V1 or etype in ROWS_V2:
            p = start
            table_id = int.from_bytes(data[p:p + id_len], "little")
            p += id_len + 2
            if etype in ROWS_V2:
                p += int.from_bytes(data[p:p + 2], "little")
            ncols, p = _lenenc(data, p)
            nb = (ncols + 7) // 8
            p1 = data[p:p + nb]
            p += nb
            p2 = None
            if (ROWS_V1.get(etype) or ROWS_V2.get(etype)):
                p2 = data[p:p + nb]
                p += nb
            plan = plans.get(table_id)
            if plan is None:
                tm = maps[table_id]
                plan = plans[table_id] = rows.build_plan(
                    tm, options, None if schema is None else schema.columns(tm, path, tm.pos))
            out = rows.decode_rows(plan, data, p, end, p1, p2)
            images = len(out) * (2 if p2 is not None else 1)
            yield len(out), images
            done += len(out)
            if limit is not None and done >= limit:
                return
        pos += size


def run_lean(paths, options, impl, limit=None, schema=None):
    speedups.impl = impl
    n = images = 0
    t0 = time.process_time()
    for path in paths:
        for a, b in lean_rows(path, options, None if limit is None else limit - n, schema):
            n += a
            images += b
        if limit is not None and n >= limit:
            break
    return n, images, time.process_time() - t0


def run_reader(paths, options, impl):
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import BinlogReader

    speedups.impl = impl
    n = 0
    t0 = time.process_time()
    for ev in BinlogReader(list(paths), options=options):
        if isinstance(ev, RowsEvent):
            n += len(ev.rows())
    return n, None, time.process_time() - t0


def run_mariadb_binlog(paths):
    exe = shutil.which("mariadb-binlog")
    if exe is None:
        return None
    argv = [exe, "--no-defaults", "--base64-output=decode-rows", "-v", *map(str, paths)]
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return ru.ru_utime + ru.ru_stime


# ------------------------------------------------------------------------------ the lab binlog

TOOLS = Path(__file__).resolve().parent
DEFAULT_LAB = os.environ.get("MYSQLDDL_BENCH_LAB", "/tmp/mysqlddl-bench-lab")
# As ../shared/lab/mariadb.sh starts the lab server (its binlog_row_metadata is the 10.11 default).
SERVER_ARGS = ("--max-binlog-size=64M",)
ROW_METADATA = "NO_LOG"
# What a binlog client needs (../shared/lab/create_users.sql), not logged.
REPL_USER = ("SET SESSION sql_log_bin=0",
             "CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl'",
             "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'repl'@'127.0.0.1'")


def _lab_modules():
    sys.path.insert(0, str(TOOLS))
    import mariadb_lab
    import workload
    return mariadb_lab, workload


def lab_binlog(lab: Path, scale: float, seed: int):
    """(server, manifest) for the bulk binlog of --scale/--seed, generating it on first use: a
    private server under ``lab/scale-S-seed-N`` runs workload phase c, then stops (its binlogs
    closed). The manifest (bench.json) lists the bulk files and the row changes the workload made."""
    mariadb_lab, workload = _lab_modules()
    base = lab / f"scale-{scale:g}-seed-{seed}"
    manifest_path = base / "bench.json"
    server = mariadb_lab.MariaDBServer(base, row_metadata=ROW_METADATA, extra_args=SERVER_ARGS)
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if all((server.binlog_dir / f).exists() for f in manifest["bulk_files"]):
            return server, manifest
    if base.exists():
        shutil.rmtree(base)
    print(f"generating the bulk binlog (tools/workload.py phase c, scale {scale:g}) in {base} ...", flush=True)
    t0 = time.monotonic()
    server.start()
    try:
        server.execute(*REPL_USER)
        truth = workload.run(server, phases="c", scale=scale, seed=seed, log=lambda m: None)
        version = server.version
    finally:
        server.stop()
    manifest = {"bulk_files": truth.bulk_files, "scale": scale, "seed": seed, "server_version": version,
                "expected_row_changes": truth.expected_row_changes, "row_metadata": ROW_METADATA,
                "generated_secs": round(time.monotonic() - t0, 1)}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return server, manifest


def run_pmr(server, first: str, last: str, limit: int | None):
    """python-mysql-replication streaming from the running ``server``, in a child process
    (``--pmr-child``): (row changes, client CPU s of the streaming loop) or None."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--pmr-child", "--port", str(server.port),
            "--first-file", first, "--last-file", last, "--pmr-rows", str(limit or 0)]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"  python-mysql-replication failed: {(p.stderr or p.stdout).strip().splitlines()[-1:]}")
        return None
    out = json.loads(p.stdout.strip().splitlines()[-1])
    return out["rows"], out["client_cpu_secs"]


PMR = "python-mysql-replication"


class PmrCase:
    """python-mysql-replication as a round-robin case: each call streams the next of ``runs``
    groups of the files (all row changes once over the rounds), or with ``limit`` the first
    ``limit`` row changes every round."""

    def __init__(self, server, files: list[str], runs: int, limit: int):
        self.server, self.limit, self.calls = server, limit, 0
        k = min(runs, len(files))
        self.groups = [files[len(files) * i // k:len(files) * (i + 1) // k] for i in range(k)]

    def run(self):
        i, self.calls = self.calls, self.calls + 1
        if self.limit:
            return run_pmr(self.server, self.groups[0][0], self.groups[-1][-1], self.limit)
        if i >= len(self.groups):
            return None
        return run_pmr(self.server, self.groups[i][0], self.groups[i][-1], None)

    def report(self, runs, total: int, peers: dict) -> None:
        label = f"{PMR} (client CPU, streamed from the lab server)"
        runs = runs if self.limit else runs[:len(self.groups)]
        if None in runs:
            print(f"  {label}: a run failed (see above)")
            return
        if self.limit:
            n, cpus = runs[0][0], [r[1] for r in runs]
            cpu = statistics.median(cpus)
            print(f"  {label}: the first {n} of {total} row changes (a leading subset: see --help), "
                  f"CPU s median {cpu:.3f} (min {min(cpus):.3f}, max {max(cpus):.3f}) -> {n / cpu:,.0f} row "
                  "changes per CPU-s", flush=True)
        else:
            n, cpu = sum(r[0] for r in runs), sum(r[1] for r in runs)
            parts = ", ".join(f"{r[0]} in {r[1]:.1f} s" for r in runs)
            print(f"  {label}: {n} row changes in {len(runs)} part(s), one per round ({parts}), CPU s {cpu:.3f} "
                  f"-> {n / cpu:,.0f} row changes per CPU-s", flush=True)
            if n != total:
                print(f"  {PMR}: streamed {n} row changes where the files hold {total}: its rate is not comparable")
                return
        peers[PMR] = n / cpu


def pmr_child(port: int, first: str, last: str, limit: int) -> int:
    """The streaming loop of ../shared/lab/pmr_bench.py (--mode rows), stopping after ``limit`` row
    changes (0: at the end of ``last``). Prints one JSON line."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent

    cpu0 = time.process_time()
    stream = BinLogStreamReader(
        connection_settings={"host": "127.0.0.1", "port": port, "user": "repl", "passwd": "repl"},
        server_id=4242, resume_stream=True, log_file=first, log_pos=4, blocking=False,
        only_events=[WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent], enable_logging=False,
        # no optional metadata in the binlog: the library cannot tell VARBINARY from VARCHAR
        ignore_decode_errors=True)
    rows = values = 0
    for ev in stream:
        if stream.log_file > last:
            break
        for r in ev.rows:
            rows += 1
            if isinstance(ev, UpdateRowsEvent):
                values += sum(1 for _ in r["before_values"].values()) + sum(1 for _ in r["after_values"].values())
            else:
                values += sum(1 for _ in r["values"].values())
        if limit and rows >= limit:
            break
    stream.close()
    print(json.dumps({"rows": rows, "values": values, "client_cpu_secs": time.process_time() - cpu0}))
    return 0


# ------------------------------------------------------------------------------------------ main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="binlogs to decode (default: the cached lab bulk binlog)")
    ap.add_argument("--scale", type=float, default=1.0, help="workload scale (1 = about 1M row changes)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--lab", type=Path, default=Path(DEFAULT_LAB), help="cache directory for the lab binlogs")
    ap.add_argument("--runs", type=int, default=3, help="runs per case; the median CPU time is reported")
    ap.add_argument("--twin-rows", type=int, default=100_000, help="row changes decoded by the pure twin")
    ap.add_argument("--pmr-rows", type=int, default=0,
                    help="row changes streamed by python-mysql-replication (default 0: all, in parts; see above)")
    ap.add_argument("--charset-fallback", default="utf8mb4",
                    help="charset of text columns with no charset metadata (binary: keep bytes)")
    ap.add_argument("--decimal-as", default="decimal", choices=("decimal", "str"))
    ap.add_argument("--no-reader", action="store_true", help="skip the mysqlddl.binlog.reader case")
    ap.add_argument("--no-peer", action="store_true", help="skip mariadb-binlog")
    ap.add_argument("--no-pmr", action="store_true", help="skip python-mysql-replication")
    ap.add_argument("--pmr-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--first-file", help=argparse.SUPPRESS)
    ap.add_argument("--last-file", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.pmr_child:
        return pmr_child(a.port, a.first_file, a.last_file, a.pmr_rows)
    server = manifest = None
    if a.files:
        files = list(a.files)
    else:
        server, manifest = lab_binlog(a.lab, a.scale, a.seed)
        files = [str(server.binlog_dir / f) for f in manifest["bulk_files"]]
        print(f"lab bulk binlog: scale {a.scale:g}, {manifest['server_version']}, "
              f"row changes made by the workload {manifest['expected_row_changes'].get('bulk')}", flush=True)
    options = Options(charset_fallback=a.charset_fallback, decimal_as=a.decimal_as)
    nbytes = sum(os.path.getsize(p) for p in files)
    print(f"{len(files)} files, {nbytes / 1e6:.1f} MB; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"options: charset_fallback={a.charset_fallback} decimal_as={a.decimal_as}", flush=True)
    try:
        compiled = speedups.load_compiled()
    except ImportError as e:
        print(f"compiled core unavailable: {e}")
        compiled = None

    # The cases run round-robin, one run of each in turn, ``--runs`` times: this VM's speed drifts
    # by tens of percent within minutes, and a drift that falls on one case's block of runs would
    # otherwise show as a difference between cases.
    cases = []
    if compiled is not None:
        cases.append(("compiled/lean", lambda: run_lean(files, options, compiled)))
        schema = SchemaColumns(files, options)
        print(f"  schema history from the files' DDL: {len(schema.history.records)} records, "
              f"built in {schema.cpu:.3f} CPU s (not in compiled/schema's time)", flush=True)
        cases.append(("compiled/schema", lambda: run_lean(files, options, compiled, schema=schema)))
        if not a.no_reader:
            cases.append(("compiled/reader", lambda: run_reader(files, options, compiled)))
    cases.append(("pure-python/lean", lambda: run_lean(files, options, _twin, a.twin_rows)))
    if not a.no_peer:
        cases.append(("mariadb-binlog -v", lambda: run_mariadb_binlog(files)))
    pmr = None
    if not a.no_pmr:
        if server is None:
            print("  python-mysql-replication: needs the lab server (run without FILE arguments)")
        else:
            try:
                import pymysqlreplication  # noqa: F401
            except ImportError:
                print("  python-mysql-replication: not installed (pip install mysql-replication)")
            else:
                pmr = PmrCase(server, manifest["bulk_files"], a.runs, a.pmr_rows)
                cases.append((PMR, pmr.run))
    got = {name: [] for name, _ in cases}
    if pmr is not None:
        server.start()
    try:
        for _ in range(a.runs):
            for name, fn in cases:
                got[name].append(fn())
    finally:
        if pmr is not None:
            server.stop()

    rate = {}
    peers = {}
    total = got[cases[0][0]][0][0]
    for name, _ in cases:
        runs = got[name]
        if name == PMR:
            pmr.report(runs, total, peers)
            continue
        if name == "mariadb-binlog -v":
            cpus = [c for c in runs if c is not None]
            if not cpus:
                print("  mariadb-binlog: not available or failed")
                continue
            n, images, label = total, None, "mariadb-binlog --base64-output=decode-rows -v"
        else:
            n, images = runs[0][0], runs[0][1]
            cpus = [r[2] for r in runs]
            label = name
        cpu = statistics.median(cpus)
        extra = f", {images} images ({images / cpu:,.0f} images per CPU-s)" if images is not None else ""
        print(f"  {label}: {n} row changes{extra}, CPU s median {cpu:.3f} (min {min(cpus):.3f}, max {max(cpus):.3f})"
              f" -> {n / cpu:,.0f} row changes per CPU-s", flush=True)
        (peers if name == "mariadb-binlog -v" else rate)[name] = n / cpu
    for peer, prate in peers.items():
        for k, r in rate.items():
            print(f"  ratio {k} : {peer} = {r / prate:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
