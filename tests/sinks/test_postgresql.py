"""The PostgreSQL sink on real servers: the lab workload (tools/workload.py, every phase, small
scale) on the `mariadb_server`, read from its binlogs by the ChangeReader and applied to an empty
database of the private `pg_server` (tools/pg_lab.py), must give every table, row and value the
MariaDB server holds, compared through the type map (:func:`render`). What differs by the value
policy is listed with counts, and each difference must be one the policy counted.

Also: the same with mapping rules; a crash test (a subprocess applying the workload, killed with
SIGKILL at random moments and resumed from the checkpoint in the target, equals an uninterrupted
run); the checkpoint row's content.
"""

from __future__ import annotations

import datetime
import json
import math
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from decimal import Decimal

import psycopg
import pytest

from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.mapping import Mapping
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

DB, DB2 = "pglab", "pglab_tmp"
LAB_KW = {"scale": 0.001, "bigtx_rows": 300, "blob_kib": 64, "random_rows": 12}


@pytest.fixture(scope="module")
def workload(tool):
    return tool("workload")


@pytest.fixture(scope="module")
def truth(mariadb_server, workload):
    return workload.run(mariadb_server, database=DB, tmp_database=DB2, log=lambda m: None, **LAB_KW)


def apply(truth, uri, options=None, mapping=None):
    sink = PostgresSink(uri, options or PgOptions(commit_every=25), mapping)
    reader = ChangeReader(open_source(truth.paths), ChangeOptions())
    sink.attach_history(reader.history)
    with sink:
        write_records(reader, sink)
    sink.reader = reader
    return sink


# ------------------------------------------------------------------------------ rendering
def _frac(v: int, fsp: int) -> str:
    return "." + f"{v:06d}"[:fsp] if fsp else ""


def render(col: dict, v):
    """A PostgreSQL value as the workload's truth renders the source column (tools/workload.py
    ``render_kind``): the comparison "through the type map"."""
    if v is None:
        return None
    kind, dtype, fsp = col["render"], col["data_type"], int(col.get("fsp") or 0)
    if kind == "int":
        if isinstance(v, str):          # bit varying
            return int(v, 2) if v else 0
        return int(v)
    if kind == "decimal":
        return str(v)
    if kind == "double":
        return float(v)
    if kind == "temporal":
        if dtype == "year":
            return f"{v:04d}"
        if isinstance(v, datetime.timedelta):
            us = v.days * 86400_000_000 + v.seconds * 1_000_000 + v.microseconds
            sign = "-" if us < 0 else ""
            us = abs(us)
            s, frac = divmod(us, 1_000_000)
            return f"{sign}{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}{_frac(frac, fsp)}"
        if isinstance(v, datetime.datetime):
            if v.tzinfo is not None:
                v = v.astimezone(datetime.timezone.utc)
            return f"{v.year:04d}-" + v.strftime("%m-%d %H:%M:%S") + _frac(v.microsecond, fsp)
        return f"{v.year:04d}-" + v.strftime("%m-%d")
    if kind in ("hex", "geometry"):
        return bytes(v).hex().upper()
    if kind == "fbt":
        mapped = getattr(v, "ipv4_mapped", None)      # (Python < 3.13 prints it in hex groups)
        return f"::ffff:{mapped}" if mapped is not None else str(v)
    if dtype == "set":                  # SET as text[]
        return ",".join(v)
    if isinstance(v, (dict, list, int, float, bool)):      # jsonb
        return json.dumps(v)
    if isinstance(v, memoryview | bytes):
        return bytes(v).decode("utf-8", "surrogateescape")
    return str(v)


def same(col: dict, have, want) -> bool:
    if have == want:
        return True
    if have is None or want is None:
        return False
    kind = col["render"]
    if kind == "double":
        w = float(want)
        tol = 1e-6 if col["data_type"] == "float" else 1e-15
        return math.isclose(have, w, rel_tol=tol)
    if kind == "geometry":
        return want[8:] == have           # PostgreSQL's bytea holds the WKB; the source adds a 4-byte SRID
    if kind == "decimal":
        return Decimal(have) == Decimal(want)
    if col["data_type"] == "char":
        return have.rstrip(" ") == want.rstrip(" ")
    if kind == "text":
        try:
            return json.loads(have) == json.loads(want)      # JSON (jsonb normalises the text)
        except (ValueError, TypeError):
            return False
    return False


def dump(uri: str, schema: str, name: str, cols: list[str], order: list[str]) -> list[tuple]:
    q = ", ".join(f'"{c}"' for c in cols)
    o = ", ".join(f'"{c}"' for c in order)
    with psycopg.connect(uri) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        return conn.execute(f'SELECT {q} FROM "{schema}"."{name}" ORDER BY {o}').fetchall()


def tables_of(uri: str, schemas: list[str]) -> set[str]:
    with psycopg.connect(uri) as conn:
        rows = conn.execute("SELECT table_schema || '.' || table_name FROM information_schema.tables WHERE "
                            "table_schema = ANY(%s)", (schemas,)).fetchall()
    return {r[0] for r in rows}


POLICY_EXPLAINS = {
    # (reason) -> does this (source truth value) show it
    "zero-date": lambda w: isinstance(w, str) and (w.startswith("0000") or "-00" in w[:10]),
    "nul-in-text": lambda w: isinstance(w, str) and "\x00" in w,
}


def compare(truth, uri: str, policy_table, name_map=None) -> tuple[int, Counter]:
    """Compares every truth table with the target; returns (values compared, differences by
    (table, column, reason)) and fails on a difference no policy count explains."""
    name_map = name_map or (lambda t, c: (t.schema, t.name, c))
    counted = {(r[0], r[1], r[2]) for r in policy_table}
    diffs: Counter = Counter()
    n = 0
    for key, want in truth.tables.items():
        schema, table, _ = name_map(want, None)
        cols = [name_map(want, c)[2] for c in want.column_names]
        order = [name_map(want, c)[2] for c in (want.primary_key or want.column_names)]
        got = dump(uri, schema, table, cols, order)
        assert len(got) == len(want.rows), key
        for h, w in zip(got, want.rows, strict=True):
            for col, hv, wv in zip(want.columns, h, w, strict=True):
                n += 1
                r = render(col, hv)
                if same(col, r, wv):
                    continue
                reason = next((k for k, f in POLICY_EXPLAINS.items() if f(wv)), None)
                assert reason is not None and (key, col["name"], reason) in counted, \
                    (key, col["name"], r, wv)
                diffs[(key, col["name"], reason)] += 1
    return n, diffs


def policy_rows(sink) -> list[tuple]:
    return [tuple(r[:3]) for r in sink.report()["value_policy"]]


# ------------------------------------------------------------------------------ tests
@pytest.fixture(scope="module")
def applied(truth, pg_server):
    uri = pg_server.create_database("wl_plain")
    return uri, apply(truth, uri)


def test_workload_applied_equals_the_source_tables(truth, applied):
    uri, sink = applied
    assert tables_of(uri, [DB, DB2]) == set(truth.tables)        # pglab_tmp was dropped: its schema too
    n, diffs = compare(truth, uri, policy_rows(sink))
    assert n > 5000
    # the values that differ by the value policy (null): zero dates and NUL characters, per column
    by_reason = Counter()
    for (_t, _c, reason), k in diffs.items():
        by_reason[reason] += k
    print("\nvalues differing by policy:", dict(by_reason), "of", n)
    for row in sorted(diffs.items()):
        print("  ", row)
    assert by_reason["zero-date"] >= 15 and by_reason["nul-in-text"] >= 3
    rep = sink.report()
    assert rep["ddl"] >= 35 and rep["rows"][f"{DB}.bulk"] == {"c": 500, "u": 653, "d": 200}
    assert rep["commits"] >= 3 and rep["avg_batch_rows"] > 1


def test_workload_with_enum_types_and_clamping(truth, pg_server):
    # ENUM as PostgreSQL enum types, and the clamp policy: zero dates become 0001-01-01, NULs go
    uri = pg_server.create_database("wl_clamp")
    sink = apply(truth, uri, PgOptions(commit_every=7, enum_mode="type", value_policy="clamp"))
    n, diffs = compare(truth, uri, policy_rows(sink))
    assert n > 5000 and diffs
    assert {r[3] for r in sink.report()["value_policy"]} == {"clamp"}
    with psycopg.connect(uri) as conn:
        kinds = dict(conn.execute("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                  "table_schema = %s AND table_name = 'all_types'", (DB,)).fetchall())
        zero = conn.execute(f'SELECT "c_date" FROM "{DB}"."all_types" WHERE "c_date" = \'0001-01-01\'').fetchall()
    assert kinds["c_enum"] == "USER-DEFINED" and zero


def test_checkpoint_row_is_written_with_the_data(truth, applied):
    uri, first = applied
    sink = PostgresSink.from_config({"uri": uri, "commit_every": 25})
    with sink:
        cp = sink.load_checkpoint()
        assert sink.checkpoint_store().load() == cp
    last = truth.files[-1]
    assert cp.pipeline == "default" and cp.source_id == "mariadb:1"
    assert cp.file in truth.files and cp.resume.startswith(cp.file + ":")
    assert cp.transactions == first.stats["transactions"] > 100 and cp.history_version >= 35
    assert truth.files.index(cp.file) >= truth.files.index(last) - 2
    # the schema history, serialized with the checkpoint: a restart can reload it
    lines = cp.history.splitlines()
    assert json.loads(lines[0])["mysqlddl_history"] == 1 and len(lines) == 1 + len(first.reader.history.records)
    with psycopg.connect(uri) as conn:
        kept = {r[0] for r in conn.execute("SELECT source_table FROM mysqlddl.mysqlddl_tables WHERE source_db = %s",
                                           (DB,)).fetchall()}
    assert kept == {k.split(".", 1)[1] for k in truth.tables if k.startswith(DB + ".")}


MAPPING = {
    "tables": [{"database": DB, "schema": "tgt"}, {"database": DB, "table": "bulk", "name": "bulk_m"},
               {"database": DB, "table": "evo3", "name": "evolved"}],
    "columns": [{"database": DB, "table": "evo*", "column": "b_renamed", "name": "body"},
                {"database": DB, "table": "bulk", "column": "qty", "type": "text"},
                {"database": DB, "table": "bulk", "column": "name", "transform": "upper(%d)"}],
    "exclude": [{"database": DB, "table": "nontx"}, {"database": DB, "table": "bulk", "column": "payload"}],
}


def test_mapping_rules_give_the_mapped_tables(truth, pg_server):
    uri = pg_server.create_database("wl_mapped")
    mapping = Mapping.from_config(MAPPING)
    sink = apply(truth, uri, mapping=mapping)
    have = tables_of(uri, ["tgt", DB])
    want = {f"tgt.{ {'bulk': 'bulk_m', 'evo3': 'evolved'}.get(t.name, t.name)}" for t in truth.tables.values()
            if t.schema == DB and t.name != "nontx"}
    assert have == want
    with psycopg.connect(uri) as conn:
        cols = dict(conn.execute("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                 "table_schema = 'tgt' AND table_name = 'bulk_m'").fetchall())
        evo = [r[0] for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                                          "table_schema = 'tgt' AND table_name = 'evolved'").fetchall()]
    assert "payload" not in cols and cols["qty"] == "text" and cols["price"] == "numeric"
    assert "body" in evo and "b_renamed" not in evo          # renamed, and still after the later ALTERs

    def names(t, c):
        name = {"bulk": "bulk_m", "evo3": "evolved"}.get(t.name, t.name)
        return ("tgt" if t.schema == DB else t.schema, name, {"b_renamed": "body"}.get(c, c) if c else c)
    bulk = truth.tables[f"{DB}.bulk"]
    got = dump(uri, "tgt", "bulk_m", ["id", "name", "qty"], ["id"])
    ni, qi = bulk.column_names.index("name"), bulk.column_names.index("qty")
    assert [(r[0], r[1], r[2]) for r in got] == [
        (w[0], w[ni].upper() if w[ni] is not None else None, str(w[qi]) if w[qi] is not None else None)
        for w in bulk.rows]
    evo = truth.tables[f"{DB}.evo3"]
    got = dump(uri, "tgt", "evolved", [names(evo, c)[2] for c in evo.column_names], ["id"])
    for h, w in zip(got, evo.rows, strict=True):
        assert all(same(c, render(c, hv), wv) for c, hv, wv in zip(evo.columns, h, w, strict=True)), (h, w)
    assert sink.report()["rows"][f"{DB}.bulk"]["c"] == 500


def test_sink_config_errors_name_the_key():
    with pytest.raises(Exception, match="sink.comit_every"):
        PostgresSink.from_config({"uri": "postgresql://x@127.0.0.1/db", "comit_every": 5})
    with pytest.raises(Exception, match="sink.value_policy must be"):
        PostgresSink.from_config({"uri": "postgresql://x@127.0.0.1/db", "value_policy": "drop"})
    with pytest.raises(Exception, match="sink.uri is required"):
        PostgresSink.from_config({})


def test_mapping_errors_are_positioned(truth):
    with pytest.raises(Exception) as e:
        Mapping.from_config({"columns": [{"database": DB, "table": "bulk", "column": "qty", "transform": "upper(x)"}]})
    assert "mapping.columns[0]" in str(e.value) and "transform" in str(e.value)


# ------------------------------------------------------------------------------ crash test
APPLIER = r'''
import sys
from mysqlddl.changes.filters import Filters
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

uri, files = sys.argv[1], sys.argv[2:]
sink = PostgresSink(uri, PgOptions(commit_every=3, commit_ms=60000))
with sink:
    cp = sink.load_checkpoint()
    filters = Filters(start_position=cp.resume) if cp is not None else Filters()
    write_records(ChangeReader(open_source(files), ChangeOptions(filters=filters)), sink)
print("DONE", flush=True)
'''


def all_rows(uri: str, schemas: list[str]) -> dict:
    out = {}
    with psycopg.connect(uri) as conn:
        for (name,) in conn.execute("SELECT table_schema || '.' || table_name FROM information_schema.tables "
                                    "WHERE table_schema = ANY(%s) ORDER BY 1", (schemas,)).fetchall():
            s, t = name.split(".", 1)
            cols = [r[0] for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                                               "table_schema = %s AND table_name = %s ORDER BY 1", (s, t)).fetchall()]
            q = ", ".join(f'"{c}"::text' for c in cols)
            out[name] = (cols, sorted(conn.execute(f'SELECT {q} FROM "{s}"."{t}"').fetchall(),
                                      key=lambda r: [(x is None, x or "") for x in r]))
    return out


def crash_run(truth, pg_server, applied, kills: int, seed: int) -> int:
    """Applies the workload in a subprocess killed with SIGKILL at random moments and resumed from
    the checkpoint in the target, until ``kills`` kills happened (a run that completes before its
    kill ends a cycle: its target is compared, and the next cycle starts on a new database).
    Returns the number of cycles."""
    rr = random.Random(seed)
    want = all_rows(applied[0], [DB, DB2])
    killed = cycles = 0
    while killed < kills:
        cycles += 1
        uri = pg_server.create_database(f"wl_crash_{seed}_{cycles}")
        args = [sys.executable, "-c", APPLIER, uri, *map(str, truth.paths)]
        while True:
            proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
            if killed < kills:
                time.sleep(rr.uniform(0.3, 2.5))
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    killed += 1
                    continue
            out, err = proc.communicate(timeout=600)
            assert proc.returncode == 0, err.decode()[-3000:]
            assert b"DONE" in out
            break
        assert all_rows(uri, [DB, DB2]) == want, f"cycle {cycles} after {killed} kills"
    return cycles


def test_sigkill_and_resume_equals_an_uninterrupted_run(truth, pg_server, applied):
    assert crash_run(truth, pg_server, applied, kills=4, seed=7) >= 1


@pytest.mark.slow
def test_sigkill_30_times(truth, pg_server, applied):
    assert crash_run(truth, pg_server, applied, kills=30, seed=11) >= 1
