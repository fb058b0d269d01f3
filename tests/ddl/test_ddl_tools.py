"""Smoke tests of tools/bench_ddl.py and tools/conformance.py (their numbers are measured by
running them, not asserted here: speed is never a timed test)."""

from __future__ import annotations


def test_bench_measures_our_parser_on_the_oracle_statements(shared_path, tool):
    bench = tool("bench_ddl")
    statements = bench.load_statements(shared_path)
    assert len(statements) > 1000
    got, _glot = bench.measure_warm(statements[:40], passes=1)
    assert got["statements"] == 40 and got["rejected"] == 0 and got["warm_fallbacks"] == 0
    assert got["warm_stmt_per_s"] > 0 and 0 < got["lexing_share"] < 1
    first = bench.measure_first_pass(statements[:40], cache=True)
    assert first["cache"] == "loaded" and first["stmt_per_s"] > 0
    assert bench.measure_first_pass(statements[:40], cache=False)["cache"] == "disabled"


def test_statement_keys_identify_file_line_and_text(tool):
    conf = tool("conformance")
    a = conf.statement_key("x/y.sql", 3, "DROP TABLE t")
    assert a == conf.statement_key("x/y.sql", 3, "DROP TABLE t")
    assert a != conf.statement_key("x/y.sql", 3, "DROP TABLE u")
    assert a.startswith("x/y.sql:3:") and len(a.rsplit(":", 1)[1]) == 12
