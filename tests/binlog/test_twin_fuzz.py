"""Fuzzing the row decoder on both twins with mutated real row bodies.

Real rows bodies (shared binlogs read with mysqlddl.binlog.reader, plus the MariaDB all-types row and
the pre-10.1 temporal event of test_twin_parity.py) are truncated, have bytes overwritten and
bitmap bits flipped. Whatever comes out must be the same on the compiled core and the pure twin:
identical rows, or the same MysqlddlError subclass for the same column and byte offset. Any other exception
(IndexError, ValueError, OverflowError, RecursionError, ...) escapes and fails the test; a hang
trips hypothesis' deadline-free run only through the slow marker's time, so the decoders are
built to always advance (every loop consumes bytes or raises).

Default run: a short sample. ``--run-slow`` runs the long one.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mysqlddl.binlog import _twin, rows, speedups
from mysqlddl.errors import MysqlddlError
from mysqlddl.options import Options

SMALL_FILES = [
    "mysql-cdc-rs/5.7/31_update_rows_v2/log.bin",           # BLOB DOUBLE FLOAT NEWDECIMAL VARCHAR
    "mysql-binlog-connector-rust/mysql-bin.000057",          # JSON ENUM SET BINARY TIMESTAMP2 DATE (zstd)
    "go-mysql/tcb-eval002c-bin.003320",                      # NEWDECIMAL matrix
    "mysql-binlog-connector-java/mysql-bin.checksum-none",   # DATETIME2 STRING TINY VARCHAR
    "mysql-cdc-rs/8.0/31_update_rows_v2/binlog.000001",      # INT24 LONGLONG SHORT TINY, signedness
    "canal/binlog/mysql-bin.000001",                          # 5.1 DATETIME TIMESTAMP (v1 rows)
    "zalora-binlog-parser/fixtures/mysql-bin.07",             # MariaDB 10.0 STRING VARCHAR
]


def _parity_module():
    spec = importlib.util.spec_from_file_location("_mysqlddl_test_twin_parity",
                                                  Path(__file__).with_name("test_twin_parity.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def corpus(shared_path):
    """[(plan, body bytes, present1, present2)] with body = exactly the rows part of the event."""
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import read_events

    out = []
    for rel in SMALL_FILES:
        for ev in read_events(str(shared_path / "binlogs" / rel)):
            if isinstance(ev, RowsEvent) and ev.rows_end > ev.rows_start:
                out.append((ev.plan(), bytes(ev.body[ev.rows_start:ev.rows_end]), ev.present1, ev.present2))
    par = _parity_module()
    out.append((par.all_types_plan(), par.ALL_TYPES_ROW, par.ALL_TYPES_PRESENT, None))
    out.append((par.all_types_plan(Options(json_as="text", decimal_as="str", pad_char=True)), par.ALL_TYPES_ROW,
                par.ALL_TYPES_PRESENT, None))
    out.append((par._legacy_plan(par.LEGACY_FSP), par.LEGACY_BODY, b"\xff\x03", None))
    assert len(out) > 100
    return out


def outcome(impl, plan, body, p1, p2):
    saved = speedups.impl
    speedups.impl = impl
    try:
        return ("ok", repr(rows.decode_rows(plan, b"\x00\x01" + body + b"\xfe", 2, 2 + len(body), p1, p2)))
    except MysqlddlError as e:   # same type, column, offset and (for truncation) sizes on both twins
        return ("error", type(e).__name__, e.column, e.offset, getattr(e, "needed", None),
                getattr(e, "available", None))
    finally:
        speedups.impl = saved


def mutate(body: bytes, cut: int | None, edits, bitflips, p1: bytes, p2):
    b = bytearray(body)
    for pos, val in edits:
        if b:
            b[pos % len(b)] = val
    if cut is not None:
        b = b[:cut % (len(b) + 1)]
    p1 = bytearray(p1)
    p2 = bytearray(p2) if p2 is not None else None
    for k in bitflips:
        target = p2 if (p2 is not None and k & 1) else p1
        bit = (k >> 1) % (len(target) * 8)
        target[bit >> 3] ^= 1 << (bit & 7)
    return bytes(b), bytes(p1), (bytes(p2) if p2 is not None else None)


MUTATION = dict(
    pick=st.integers(min_value=0, max_value=10_000),
    cut=st.one_of(st.none(), st.integers(min_value=0, max_value=1 << 20)),
    edits=st.lists(st.tuples(st.integers(min_value=0, max_value=1 << 20), st.integers(min_value=0, max_value=255)),
                   max_size=6),
    bitflips=st.lists(st.integers(min_value=0, max_value=1 << 12), max_size=2),
)


def check(corpus, pick, cut, edits, bitflips):
    plan, body, p1, p2 = corpus[pick % len(corpus)]
    body, p1, p2 = mutate(body, cut, edits, bitflips, p1, p2)
    compiled = outcome(speedups.load_compiled(), plan, body, p1, p2)
    pure = outcome(_twin, plan, body, p1, p2)
    assert compiled == pure


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(**MUTATION)
def test_mutated_rows_give_typed_errors_and_parity(corpus, pick, cut, edits, bitflips):
    check(corpus, pick, cut, edits, bitflips)


@pytest.mark.slow
@settings(max_examples=30_000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
@given(**MUTATION)
def test_mutated_rows_long_run(corpus, pick, cut, edits, bitflips):
    check(corpus, pick, cut, edits, bitflips)


def test_every_truncation_of_every_body(corpus):
    """Deterministic sweep: each body cut at every length gives the same typed outcome on both."""
    for plan, body, p1, p2 in corpus[::7] + corpus[-3:]:
        for cut in range(0, len(body), max(1, len(body) // 40)):
            check([(plan, body, p1, p2)], 0, cut, [], [])


@settings(max_examples=400, deadline=None)
@given(raw=st.one_of(st.binary(max_size=60),
                     st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass"))),
       errors=st.sampled_from(["surrogateescape", "strict", "replace", "backslashreplace"]))
def test_utf8_text_identical_on_both_twins(raw, errors):
    """The compiled core's own UTF-8 path must equal bytes.decode("utf-8", errors) for any bytes."""
    import types

    tm = types.SimpleNamespace(column_types=(15,), column_metadata=(255,), null_bitmap=b"\x01",
                               column_charsets=(45,))
    plan = rows.build_plan(tm, Options(charset_errors=errors))
    image = b"\x00" + bytes([len(raw)]) + raw
    compiled = outcome(speedups.load_compiled(), plan, image, b"\x01", None)
    pure = outcome(_twin, plan, image, b"\x01", None)
    assert compiled == pure
    if compiled[0] == "ok" and errors != "strict":
        assert compiled[1] == repr([(raw.decode("utf-8", errors),)])
