"""The shipped prediction cache (mysqlddl/ddl/dfa_cache.py): present in the build, used, checked
against the grammar stamp, and never changing a parse (trees and syntax errors alike)."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

from mysqlddl._generated.mysql.MySqlParser import MySqlParser

from mysqlddl.ddl import Engine, dfa_cache

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(sys.modules[MySqlParser.__module__].__file__).parent / dfa_cache.CACHE_NAME

# Statements the warmup corpus does not hold (so the DFA meets decisions it has and has not
# learnt), valid and invalid: the parse and its errors must not depend on the cache.
PROBES = [
    "CREATE TABLE t1 (a INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, b VARCHAR(10) "
    "CHARACTER SET utf8mb4 DEFAULT 'x', c DECIMAL(12,3) GENERATED ALWAYS AS (a * 2) STORED)",
    "ALTER TABLE shop.orders ADD COLUMN note TEXT AFTER id, DROP INDEX ix_a, RENAME TO shop.orders2",
    "CREATE TABLE p (id BIGINT, d DATE) PARTITION BY RANGE (YEAR(d)) "
    "(PARTITION p0 VALUES LESS THAN (2000), PARTITION p1 VALUES LESS THAN MAXVALUE)",
    "CREATE INDEX ix ON t ((a + b) DESC, c(10))",
    "ALTER TABLE t MODIFY COLUMN x ENUM('a','b') NOT NULL DEFAULT 'a' COMMENT 'why'",
    "CREATE TABLE broken (a INT,, b INT)",
    "ALTER TABLE t ADD COLUMN",
    "CREATE TABLE t (a INT DEFAULT (1 + (2 * 3)) CHECK (a > 0))",
]

SNIPPET = r"""
import json, sys
from mysqlddl.ddl import Engine, dfa_cache
eng = Engine()
out = []
for sql in json.load(sys.stdin):
    r = eng.parse(sql)
    out.append([r.ok, r.tree.toStringTree(recog=eng.parser) if r.ok else None,
                [str(e) for e in r.errors]])
print(json.dumps({"status": dfa_cache.STATUS["MySqlParser"], "results": out}))
"""


def _run(statements, cache: bool) -> dict:
    env = dict(os.environ, MYSQLDDL_DFA_CACHE="1" if cache else "0")
    proc = subprocess.run([sys.executable, "-c", SNIPPET], input=json.dumps(statements), capture_output=True,
                          text=True, env=env, cwd=str(ROOT.parent), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _warmup_sample(n: int) -> list[str]:
    path = ROOT / "grammars" / "mysql" / "warmup.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return lines[:: max(1, len(lines) // n)][:n]


def test_the_build_ships_a_cache_made_for_this_grammar():
    assert CACHE.is_file(), "the build did not write the prediction cache (tools/grammar_build.py build_dfa_caches)"
    head = marshal.loads(CACHE.read_bytes())
    assert head[0] == dfa_cache.FORMAT
    assert head[1] == dfa_cache.installed_stamp(MySqlParser)
    assert head[2] == dfa_cache.atn_digest(MySqlParser)
    assert sum(n for _d, n, _blob in head[6]) > 500


def test_this_process_loaded_it():
    Engine()
    assert dfa_cache.STATUS["MySqlParser"] == "loaded"


def test_parses_are_the_same_with_and_without_the_cache():
    statements = PROBES + _warmup_sample(150)
    with_cache, without = _run(statements, True), _run(statements, False)
    assert with_cache["status"] == "loaded" and without["status"] == "disabled"
    assert with_cache["results"] == without["results"]
    # the probes include invalid statements: their positioned errors are part of the comparison
    assert [r[0] for r in with_cache["results"][:len(PROBES)]].count(False) == 2


def test_a_cache_for_another_grammar_is_not_used(tmp_path):
    fmt, stamp, digest, warmup, ctxs, sems, decisions = marshal.loads(CACHE.read_bytes())
    other = tmp_path / "dfa.bin"
    # made by another ANTLR version (or other grammars): the stamp differs from the installed one
    other.write_bytes(marshal.dumps((fmt, stamp.replace("4.13.2", "4.13.1"), digest, warmup, ctxs, sems, decisions)))
    assert dfa_cache.load(MySqlParser, other, stamp) is False
    # same stamp text, another ATN (a parser generated differently from the same grammar files)
    other.write_bytes(marshal.dumps((fmt, stamp, "0" * 64, warmup, ctxs, sems, decisions)))
    assert dfa_cache.load(MySqlParser, other, stamp) is False
    other.write_bytes(b"not marshal data")
    assert dfa_cache.load(MySqlParser, other, stamp) is False


def test_a_dump_of_a_fresh_process_round_trips(tmp_path):
    # A fresh interpreter learns from a few statements and dumps; another loads that file and
    # must then parse those statements without adding a DFA state (everything was restored).
    out = tmp_path / "dfa.bin"
    code = r"""
import json, sys
from mysqlddl._generated.mysql.MySqlParser import MySqlParser
from mysqlddl.ddl import Engine, dfa_cache
mode, path, stmts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
if mode == "dump":
    eng = Engine()
    for s in stmts: eng.parse(s)
    print(dfa_cache.dump(MySqlParser, path, dfa_cache.installed_stamp(MySqlParser)))
else:
    assert dfa_cache.load(MySqlParser, path, dfa_cache.installed_stamp(MySqlParser))
    eng = Engine()
    for s in stmts: eng.parse(s)
    before = dfa_cache.states_held(MySqlParser)
    for s in stmts: eng.parse(s)
    print(before, dfa_cache.states_held(MySqlParser))
"""
    env = dict(os.environ, MYSQLDDL_DFA_CACHE="0")
    args = [str(out), json.dumps(PROBES[:5])]
    dumped = subprocess.run([sys.executable, "-c", code, "dump", *args], capture_output=True, text=True, env=env,
                            cwd=str(ROOT.parent), timeout=300)
    assert dumped.returncode == 0, dumped.stderr
    states = int(dumped.stdout.split()[-1])
    loaded = subprocess.run([sys.executable, "-c", code, "load", *args], capture_output=True, text=True, env=env,
                            cwd=str(ROOT.parent), timeout=300)
    assert loaded.returncode == 0, loaded.stderr
    before, after = map(int, loaded.stdout.split())
    assert before == after == states
