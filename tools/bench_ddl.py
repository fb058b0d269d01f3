"""DDL parsing speed benchmark (issue 3 targets: >= 2,000 statements/s per core warm on the
model-relevant DDL of the shared corpus, <= 0.5 s cold for import plus the first statement).

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
- sqlglot ``parse_one(sql, read="mysql")`` on the same statements (warm), with how many it failed
  on or turned into an opaque ``Command``. sqlglot is a benchmark-only dependency
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
                              check=True)
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
    proc = subprocess.run([sys.executable, "-c", FIRST_PASS_SNIPPET], input=json.dumps(statements),
                          capture_output=True, text=True, check=True, env=env)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure_ours(statements: list[str], passes: int) -> dict:
    from mysqlddl.ddl import Engine

    eng = Engine()
    t = time.process_time()
    rejected = sum(not eng.parse(s).ok for s in statements)
    first_pass = time.process_time() - t
    before = eng.fallbacks
    # lexing alone (versioned-comment preparation, lexer, token filters)
    t = time.process_time()
    for _ in range(passes):
        for s in statements:
            eng.tokenize(s, hidden=False)
    lex = (time.process_time() - t) / passes
    t = time.process_time()
    for _ in range(passes):
        for s in statements:
            eng.parse(s)
    full = (time.process_time() - t) / passes
    n = len(statements)
    return {"statements": n, "rejected": rejected, "first_pass_stmt_per_s": n / first_pass,
            "warm_stmt_per_s": n / full, "warm_lex_only_stmt_per_s": n / lex,
            "lexing_share": lex / full, "warm_fallbacks": eng.fallbacks - before}


def measure_sqlglot(statements: list[str], passes: int) -> dict | None:
    try:
        import logging

        import sqlglot
        from sqlglot import exp
    except ImportError:
        return None
    # sqlglot logs a warning for each statement it degrades to a Command; they are counted instead
    logging.getLogger("sqlglot").setLevel(logging.ERROR)

    def one(s):
        try:
            tree = sqlglot.parse_one(s, read="mysql")
        except Exception:  # noqa: BLE001 - counting failures is the point
            return "error"
        return "command" if isinstance(tree, exp.Command) else "ok"

    outcomes = [one(s) for s in statements]  # warm-up pass
    t = time.process_time()
    for _ in range(passes):
        for s in statements:
            one(s)
    dt = (time.process_time() - t) / passes
    return {"version": sqlglot.__version__, "warm_stmt_per_s": len(statements) / dt,
            "errors": outcomes.count("error"), "opaque_commands": outcomes.count("command")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the numbers as JSON")
    args = ap.parse_args(argv)

    statements = load_statements(args.shared)
    cold = measure_cold(statements[0], args.cold_runs)
    first = {"cache": measure_first_pass(statements, True), "no_cache": measure_first_pass(statements, False)}
    ours = measure_ours(statements, args.passes)
    glot = measure_sqlglot(statements, args.passes)
    result = {"cold": cold, "first_pass": first, "mysqlddl": ours, "sqlglot": glot}

    print(f"statements: {ours['statements']} model-relevant DDL (MariaDB-accepted rows of the oracle); "
          f"rejected by us: {ours['rejected']}")
    print(f"cold (fresh interpreter, import + first statement): {cold['cpu_median_s']:.3f} s CPU, "
          f"{cold['wall_median_s']:.3f} s wall (median of {cold['runs']}; target <= 0.5 s)")
    print(f"first pass in a fresh process (target >= 1500): {first['cache']['stmt_per_s']:.0f} statements/s with "
          f"the shipped prediction cache ({first['cache']['cache']}), {first['no_cache']['stmt_per_s']:.0f}/s "
          f"without it (x{first['cache']['stmt_per_s'] / first['no_cache']['stmt_per_s']:.2f})")
    print(f"warm: {ours['warm_stmt_per_s']:.0f} statements/s per core (target >= 2000); "
          f"lexing alone {ours['warm_lex_only_stmt_per_s']:.0f}/s = {100 * ours['lexing_share']:.0f}% of the time; "
          f"SLL->LL fallbacks {ours['warm_fallbacks']}")
    if glot:
        print(f"sqlglot {glot['version']} read=mysql: {glot['warm_stmt_per_s']:.0f} statements/s warm; "
              f"{glot['errors']} errors, {glot['opaque_commands']} opaque Command results")
        print(f"ratio mysqlddl/sqlglot: {ours['warm_stmt_per_s'] / glot['warm_stmt_per_s']:.2f}")
    else:
        print("sqlglot not installed (pip install sqlglot): no ratio")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
