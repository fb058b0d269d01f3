"""The `changes` CLI's rendered path (JsonLinesSink: a RowBatch's lines written by
LineRenderer.render_batch through rows.render_rows, in C on the compiled core) gives the bytes of the
per-row path (a RowChange per row, LineRenderer per change, itself tested equal to
dumps(envelope(change)) in tests/sinks/test_jsonl.py), on both twins:

- the lab workload (tools/workload.py, every phase a-d, small scale) on the `mariadb_server`, with
  the CLI's options that change what a row line holds (query, pk split, truncate events);
- every file of ../shared/binlogs the reader takes (names from the TABLE_MAP or positional, the
  `mysqlddl` member, TABLE_MAP mismatches flagged, errors at the same place), with and without
  --include-query (without it the CLI leaves ROWS_QUERY / ANNOTATE_ROWS undecoded).

Recorded with MariaDB 10.11.19; workload seed 20240611, scale 0.001, bigtx_rows 300, blob_kib 64,
random_rows 12; databases rdlab/rdlab_tmp (the other lab tests use their own).
"""

from __future__ import annotations

import io

import pytest

from mysqlddl import cli
from mysqlddl.binlog import _twin, speedups
from mysqlddl.changes import ChangeOptions, ChangeReader, RowBatch
from mysqlddl.errors import MysqlddlError
from mysqlddl.options import Options
from mysqlddl.sinks.jsonl import JsonLinesSink, LineRenderer
from mysqlddl.sources import open_source

from ..binlog.test_twin_parity import shared_binlogs

LAB_KW = {"scale": 0.001, "bigtx_rows": 300, "blob_kib": 64, "random_rows": 12}


def _impls():
    return {"compiled": speedups.load_compiled(), "pure": _twin}


def per_row(paths, *, name="mysqlddl", include_query=False, **kw) -> str:
    """The reference: a RowChange per row, one LineRenderer line per change (pure twin decoding)."""
    saved = speedups.impl
    speedups.impl = _twin
    try:
        render = LineRenderer(name=name, include_query=include_query)
        options = ChangeOptions(decode=Options(json_as="text"), name=name, **kw)
        return "".join(render(c) + "\n" for c in ChangeReader(open_source(paths), options).changes())
    finally:
        speedups.impl = saved


def rendered(paths, impl, *, name="mysqlddl", include_query=False, **kw) -> tuple[str, int]:
    """What run_changes writes: every record through the JSON Lines sink (a RowBatch rendered
    whole from its bytes); as there, ROWS_QUERY / ANNOTATE_ROWS are not decoded unless the query
    is printed. ``batches``: the RowBatches the sink rendered whole."""
    saved = speedups.impl
    speedups.impl = impl
    try:
        options = ChangeOptions(decode=Options(json_as="text"), name=name, queries=include_query, **kw)
        out, batches = io.BytesIO(), 0
        with JsonLinesSink(out, name=name, include_query=include_query) as sink:
            for rec in ChangeReader(open_source(paths), options):
                batches += isinstance(rec, RowBatch) and sink.render.rows_format(rec.mapping) is not None
                sink.write(rec)
        return out.getvalue().decode("ascii"), batches
    finally:
        speedups.impl = saved


def _outcome(fn):
    try:
        return "ok", fn()
    except MysqlddlError as e:
        return "error", type(e), getattr(e, "log_pos", None), getattr(e, "offset", None), str(e)


# ------------------------------------------------------------------------------------- lab workload

@pytest.fixture(scope="module")
def lab_paths(mariadb_server, tool):
    workload = tool("workload")
    truth = workload.run(mariadb_server, database="rdlab", tmp_database="rdlab_tmp", log=lambda m: None, **LAB_KW)
    return [str(p) for p in truth.paths]


@pytest.mark.parametrize("kw", [{}, {"include_query": True, "name": 'srv "1"'},
                                {"pk_change": "split", "truncate_events": True},
                                {"transactions": False, "schema_changes": False}],
                         ids=["default", "query", "split+truncate", "rows-only"])
def test_lab_workload_renders_byte_identical(lab_paths, kw):
    want = per_row(lab_paths, **kw)
    assert want.count("\n") > 1500
    for label, impl in _impls().items():
        got, batches = rendered(lab_paths, impl, **kw)
        assert batches > 50, label                      # the rendered path was taken
        if got != want:
            for n, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False)):
                assert a == b, f"{label}: line {n + 1} differs"
        assert got == want, label


def test_cli_output_equals_the_per_row_path(lab_paths, tmp_path, monkeypatch):
    want = per_row(lab_paths, truncate_events=True)
    for label, impl in _impls().items():
        monkeypatch.setattr(speedups, "impl", impl)
        out = tmp_path / f"{label}.jsonl"
        assert cli.main(["changes", *lab_paths, "-o", str(out), "--summary", "none", "--truncate-events"]) == 0
        assert out.read_text() == want, label


# ---------------------------------------------------------------------------------- shared binlogs

def test_every_shared_binlog_renders_byte_identical(shared_path):
    compared = failed = 0
    for path in shared_binlogs(shared_path):
        for kw in ({}, {"on_mismatch": "flag"}, {"include_query": True}):
            want = _outcome(lambda path=path, kw=kw: per_row(str(path), **kw))
            for label, impl in _impls().items():
                got = _outcome(lambda path=path, kw=kw, impl=impl: rendered(str(path), impl, **kw)[0])
                assert got == want, f"{path} {kw} {label}"
            compared += 1
            failed += want[0] == "error"
    # 71 files, each as is, with --on-mismatch flag and with --include-query; all of them read
    # (errors would have to match too, but there are none today)
    assert compared >= 210 and failed == 0
