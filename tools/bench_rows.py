#!/usr/bin/env python3
"""Row-decoding benchmark: decode every row of the given binlogs to Python values.

    python tools/bench_rows.py BINLOG... [--runs 3] [--twin-rows 100000] [--charset-fallback binary]

For the issue's target, use the bulk files of the lab workload (phase c of
../shared/lab/workload.py --scale 1, about 1M row changes): MYSQLDDL_LAB=/tmp/rowlab
../shared/lab/mariadb.sh start && ... workload.py --scale 1, then the files between the phase's
start_file and end_file in $MYSQLDDL_LAB/truth/manifest.json.

Cases, each timed in CPU seconds of this process (time.process_time) or of the child (os.wait4):

- ``compiled/lean``: mysqlddl._speedups decode_rows under a minimal framing loop of this tool (file
  mapped once, 19-byte headers, CRC32 verified, TABLE_MAP and rows-event headers parsed here): what the
  row decoder itself costs. It knows v1/v2 rows events only (what MySQL 5.6+ and MariaDB write
  uncompressed); zstd payloads and MariaDB compressed events count only in the reader case;
- ``compiled/reader``: the same through mysqlddl.binlog.reader (full event decoding), when present;
- ``pure-python/lean``: the twin, on the first ``--twin-rows`` row changes only (it is ~30x slower);
  its rate is reported, not extrapolated to a total;
- ``mariadb-binlog -v``: ``mariadb-binlog --base64-output=decode-rows -v FILES > /dev/null``, the
  C peer (measured as ../shared/lab/baselines.py does), and the ratio to it.

A row change is one row of a WRITE/DELETE event or one before/after pair of an UPDATE event.
"""

from __future__ import annotations

import argparse
import mmap
import os
import shutil
import statistics
import struct
import subprocess
import sys
import time
import types
import zlib

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


def lean_rows(path: str, options: Options, limit: int | None = None):
    """Yield (row changes, images) per rows event, decoding with speedups.impl; a minimal framing
    loop (magic, FDE, v4 headers, CRC32 verified) so the row decoder's own cost shows."""
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
            got = zlib.crc32(covered)
            if got != want and etype == FDE:
                fixed = bytearray(covered)
                fixed[17] &= ~LOG_EVENT_BINLOG_IN_USE_F & 0xFF
                got = zlib.crc32(fixed)
            if got != want:
                raise SystemExit(f"{path}:{pos}: CRC mismatch")
        start, end = pos + header_len, pos + size - crc
        if etype == TABLE_MAP:
            tm = _table_map(data, start, end, id_len)
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
                plan = plans[table_id] = rows.build_plan(maps[table_id], options)
            out = rows.decode_rows(plan, data, p, end, p1, p2)
            images = len(out) * (2 if p2 is not None else 1)
            yield len(out), images
            done += len(out)
            if limit is not None and done >= limit:
                return
        pos += size


def run_lean(paths, options, impl, limit=None):
    speedups.impl = impl
    n = images = 0
    t0 = time.process_time()
    for path in paths:
        for a, b in lean_rows(path, options, None if limit is None else limit - n):
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
    argv = [exe, "--no-defaults", "--base64-output=decode-rows", "-v", *paths]
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return ru.ru_utime + ru.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--runs", type=int, default=3, help="runs per case; the median CPU time is reported")
    ap.add_argument("--twin-rows", type=int, default=100_000, help="row changes decoded by the pure twin")
    ap.add_argument("--charset-fallback", default="utf8mb4",
                    help="charset of text columns with no charset metadata (binary: keep bytes)")
    ap.add_argument("--decimal-as", default="decimal", choices=("decimal", "str"))
    ap.add_argument("--no-reader", action="store_true", help="skip the mysqlddl.binlog.reader case")
    ap.add_argument("--no-peer", action="store_true", help="skip mariadb-binlog")
    a = ap.parse_args(argv)
    options = Options(charset_fallback=a.charset_fallback, decimal_as=a.decimal_as)
    nbytes = sum(os.path.getsize(p) for p in a.files)
    print(f"{len(a.files)} files, {nbytes / 1e6:.1f} MB; load average {os.getloadavg()[0]:.2f}; "
          f"options: charset_fallback={a.charset_fallback} decimal_as={a.decimal_as}", flush=True)
    results = []
    try:
        compiled = speedups.load_compiled()
    except ImportError as e:
        print(f"compiled core unavailable: {e}")
        compiled = None

    def case(name, fn):
        cpus = []
        n = images = None
        for _ in range(a.runs):
            n, images, cpu = fn()
            cpus.append(cpu)
        cpu = statistics.median(cpus)
        results.append((name, n, images, cpu))
        extra = f", {images} images ({images / cpu:,.0f} images per CPU-s)" if images is not None else ""
        print(f"  {name}: {n} row changes{extra}, CPU s median {cpu:.3f} (min {min(cpus):.3f}, max {max(cpus):.3f})"
              f" -> {n / cpu:,.0f} row changes per CPU-s", flush=True)
        return n / cpu

    rate = {}
    if compiled is not None:
        rate["lean"] = case("compiled/lean", lambda: run_lean(a.files, options, compiled))
        if not a.no_reader:
            try:
                import mysqlddl.binlog.reader  # noqa: F401
            except ImportError:
                print("  compiled/reader: mysqlddl.binlog.reader not available")
            else:
                rate["reader"] = case("compiled/reader", lambda: run_reader(a.files, options, compiled))
    case("pure-python/lean", lambda: run_lean(a.files, options, _twin, a.twin_rows))
    if not a.no_peer:
        cpus = [c for c in (run_mariadb_binlog(a.files) for _ in range(a.runs)) if c is not None]
        if cpus and results:
            total = results[0][1]
            cpu = statistics.median(cpus)
            peer = total / cpu
            print(f"  mariadb-binlog --base64-output=decode-rows -v: CPU s median {cpu:.3f} -> "
                  f"{peer:,.0f} row changes per CPU-s", flush=True)
            for k, r in rate.items():
                print(f"  ratio compiled/{k} : mariadb-binlog -v = {r / peer:.2f}x")
        else:
            print("  mariadb-binlog: not available or failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
