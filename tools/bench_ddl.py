"""DDL parsing speed benchmark. Targets (issue 23): warm >= 1.3x sqlglot on the same statements in
the same run; first pass in a fresh process >= 1,500 statements/s; cold start (import + first
statement) <= 0.3 s.

Statements: the rows of ``corpora/mysql/ddl-subset.mariadb-labeled.jsonl`` that MariaDB accepts
(labels ``ok`` and ``other:*``): CREATE/ALTER/DROP/RENAME/TRUNCATE of tables, databases, indexes
and views. Timing is process CPU time (``time.process_time``), i.e. per core.

Measured, all in one run:

- cold: a fresh interpreter importing ``mysqlddl.ddl`` and parsing the first statement (median of
  several runs; CPU and wall time);
- first pass: one pass over all statements in a fresh interpreter, once with the prediction cache
  the build ships (mysqlddl/ddl/dfa_cache.py, learnt from grammars/mysql/warmup.jsonl, which holds
  none of these statements) and once without it (``MYSQLDDL_DFA_CACHE=0``): what a user parsing a
  file once feels;
- warm: further passes with the same engine (statements/s per core), split into lexing only and
  lexing+parsing, plus the SLL->LL fallback count;
- sqlglot ``parse_one(sql, read="mysql")`` on the same statements (warm), its passes alternating
  with ours so that whatever else loads the machine weighs on both; with how many it failed on or
  turned into an opaque ``Command``. sqlglot is a benchmark-only dependency
  (``pip install sqlglot``), never a package dependency.

    python tools/bench_ddl.py [--shared DIR] [--passes N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared"

COLD_SNIPPET = r"""
import sys, time, json
t0 = time.perf_counter(); c0 = time.process_time()
from mysqlddl.ddl import parse_statement
parse_statement(sys.argv[1])
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}))
"""


def load_statements(shared: Path) -> list[str]:
    from mysqlddl.ddl import split_script

    rows = [json.loads(x) for x in (shared / "corpora" / "mysql" / "ddl-subset.mariadb-labeled.jsonl")
            .read_text(encoding="utf-8").splitlines() if x.strip()]
    out = []
    for row in rows:
        if row["mariadb"] == "syntax":
            continue
        out.extend(s.text for s in split_script(row["sql"]))
    return out


def measure_cold(first: str, runs: int) -> dict:
    samples = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", COLD_SNIPPET, first], capture_output=True, text=True,
                              check=True, cwd=tempfile.gettempdir())
        samples.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {"runs": runs, "wall_median_s": statistics.median(s["wall"] for s in samples),
            "cpu_median_s": statistics.median(s["cpu"] for s in samples)}


FIRST_PASS_SNIPPET = r"""
import json, sys, time
statements = json.load(sys.stdin)
from mysqlddl.ddl import Engine, dfa_cache
eng = Engine()
t = time.process_time()
for s in statements:
    eng.parse(s)
dt = time.process_time() - t
print(json.dumps({"stmt_per_s": len(statements) / dt, "cache": dfa_cache.STATUS.get("MySqlParser")}))
"""


def measure_first_pass(statements: list[str], cache: bool) -> dict:
    """One pass in a fresh interpreter (empty DFAs, or the shipped prediction cache loaded)."""
    env = dict(os.environ, MYSQLDDL_DFA_CACHE="1" if cache else "0")
    # (from a neutral directory: in a checkout, `python -c` would import the source tree's mysqlddl,
    # which has no generated parser, rather than the installed one)
    proc = subprocess.run([sys.executable, "-c", FIRST_PASS_SNIPPET], input=json.dumps(statements),
                          capture_output=True, text=True, check=True, env=env, cwd=tempfile.gettempdir())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _timed(fn, statements) -> float:
    t = time.process_time()
    for s in statements:
        fn(s)
    return time.process_time() - t


def _sqlglot_one():
    try:
        import logging

        import sqlglot
        from sqlglot import exp
    except ImportError:
        return None, None
    # sqlglot logs a warning for each statement it degrades to a Command; they are counted instead
    logging.getLogger("sqlglot").setLevel(logging.ERROR)

    def one(s):
        try:
            tree = sqlglot.parse_one(s, read="mysql")
        except Exception:  # noqa: BLE001 - counting failures is the point
            return "error"
        return "command" if isinstance(tree, exp.Command) else "ok"

    return one, sqlglot.__version__


def measure_warm(statements: list[str], passes: int) -> tuple[dict, dict | None]:
    """Warm passes of ours and sqlglot's, alternating (ours, sqlglot, ours, ...), so a load on
    the machine weighs on both alike; each side's best and median pass are reported, and the
    ratio is taken from the medians."""
    from mysqlddl.ddl import Engine

    eng = Engine()
    rejected = sum(not eng.parse(s).ok for s in statements)          # warms our DFA
    glot, version = _sqlglot_one()
    outcomes = [glot(s) for s in statements] if glot else []          # sqlglot's warm-up pass
    before = eng.fallbacks
    ours_t, lex_t, glot_t = [], [], []
    for _ in range(passes):
        ours_t.append(_timed(eng.parse, statements))
        lex_t.append(_timed(lambda s: eng.tokenize(s, hidden=False), statements))
        if glot:
            glot_t.append(_timed(glot, statements))
    n = len(statements)
    full, lex = statistics.median(ours_t), statistics.median(lex_t)
    ours = {"statements": n, "rejected": rejected, "passes": passes, "warm_stmt_per_s": n / full,
            "warm_best_stmt_per_s": n / min(ours_t), "warm_lex_only_stmt_per_s": n / lex,
            "lexing_share": lex / full, "warm_fallbacks": eng.fallbacks - before}
    if not glot:
        return ours, None
    return ours, {"version": version, "warm_stmt_per_s": n / statistics.median(glot_t),
                  "warm_best_stmt_per_s": n / min(glot_t), "errors": outcomes.count("error"),
                  "opaque_commands": outcomes.count("command")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the numbers as JSON")
    args = ap.parse_args(argv)

    statements = load_statements(args.shared)
    cold = measure_cold(statements[0], args.cold_runs)
    first = {"cache": measure_first_pass(statements, True), "no_cache": measure_first_pass(statements, False)}
    ours, glot = measure_warm(statements, args.passes)
    result = {"cold": cold, "first_pass": first, "mysqlddl": ours, "sqlglot": glot}

    print(f"statements: {ours['statements']} model-relevant DDL (MariaDB-accepted rows of the oracle); "
          f"rejected by us: {ours['rejected']}")
    print(f"cold (fresh interpreter, import + first statement): {cold['cpu_median_s']:.3f} s CPU, "
          f"{cold['wall_median_s']:.3f} s wall (median of {cold['runs']}; target <= 0.3 s)")
    print(f"first pass in a fresh process (target >= 1500): {first['cache']['stmt_per_s']:.0f} statements/s with "
          f"the shipped prediction cache ({first['cache']['cache']}), {first['no_cache']['stmt_per_s']:.0f}/s "
          f"without it (x{first['cache']['stmt_per_s'] / first['no_cache']['stmt_per_s']:.2f})")
    print(f"warm (median of {ours['passes']} passes, best {ours['warm_best_stmt_per_s']:.0f}): "
          f"{ours['warm_stmt_per_s']:.0f} statements/s per core; "
          f"lexing alone {ours['warm_lex_only_stmt_per_s']:.0f}/s = {100 * ours['lexing_share']:.0f}% of the time; "
          f"SLL->LL fallbacks {ours['warm_fallbacks']}")
    if glot:
        print(f"sqlglot {glot['version']} read=mysql, passes alternating with ours: {glot['warm_stmt_per_s']:.0f} "
              f"statements/s warm (best {glot['warm_best_stmt_per_s']:.0f}); "
              f"{glot['errors']} errors, {glot['opaque_commands']} opaque Command results")
        print(f"ratio mysqlddl/sqlglot (target >= 1.3): {ours['warm_stmt_per_s'] / glot['warm_stmt_per_s']:.2f} "
              f"(best passes: {ours['warm_best_stmt_per_s'] / glot['warm_best_stmt_per_s']:.2f})")
    else:
        print("sqlglot not installed (pip install sqlglot): no ratio")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
