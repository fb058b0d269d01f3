"""FastParser (mysqlddl/ddl/parse_engine.py) gives the runtime's own trees: same shape, same
start/stop tokens on every context, same syntax errors, valid and invalid statements alike."""

from __future__ import annotations

import json
from pathlib import Path

from antlr4 import ParserRuleContext
from antlr4.tree.Tree import TerminalNode
from mysqlddl._generated.mysql.MySqlParser import MySqlParser

from mysqlddl.ddl.mysql.engine import Engine

ROOT = Path(__file__).resolve().parents[2]


class PlainEngine(Engine):
    parser_class = MySqlParser      # the generated parser with the runtime's own bookkeeping


def _shape(node) -> list:
    if isinstance(node, TerminalNode):
        return ["T", node.symbol.type, node.symbol.tokenIndex, node.parentCtx is not None]
    assert isinstance(node, ParserRuleContext)
    start = node.start.tokenIndex if node.start is not None else None
    stop = node.stop.tokenIndex if node.stop is not None else None
    return [type(node).__name__, start, stop, [_shape(c) for c in node.children or []]]


def _statements() -> list[str]:
    lines = (ROOT / "grammars" / "mysql" / "warmup.jsonl").read_text(encoding="utf-8").splitlines()
    sample = [json.loads(x) for x in lines if x.strip()][::7]
    return sample + [
        "CREATE TABLE t (a INT NOT NULL DEFAULT 1 + 2 BETWEEN 1 AND 3, b INT CHECK (b NOT IN (1, 2)))",
        "ALTER TABLE t ADD COLUMN c INT AFTER, DROP",          # invalid: stage 2 with recovery
        "CREATE TABLE (a INT)",
        "CREATE TABLE t (a INT) PARTITION BY HASH (a MOD 4 LIKE 'x' ESCAPE '!') PARTITIONS 2",
        "DROP TABLE IF EXISTS a, b.c CASCADE",
    ]


def test_fast_parser_trees_and_errors_equal_the_runtime_s():
    fast, plain = Engine(), PlainEngine()
    assert type(fast.parser).__name__ == "FastMySqlParser" and type(plain.parser) is MySqlParser
    statements = _statements()
    invalid = 0
    for sql in statements:
        a, b = fast.parse(sql), plain.parse(sql)
        assert a.ok == b.ok, sql
        assert [str(e) for e in a.errors] == [str(e) for e in b.errors], sql
        if a.ok:
            assert _shape(a.tree) == _shape(b.tree), sql
        else:
            invalid += 1
    assert invalid >= 2 and len(statements) > 300
    assert fast.fallbacks == plain.fallbacks == invalid
