"""The regex tokenizer (lexing.FastTokenizer) must produce exactly MySqlLexer's tokens: type,
channel, start/stop, line, column and text — on our own statements, on every file of the shared
corpus, and on random strings of the characters where lexing rules meet."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from mysqlddl.ddl import Engine
from mysqlddl.ddl.mysql import lexing
from mysqlddl.options import DEFAULT, Options

FAST = Engine()
ANTLR = Engine(fast_lexer=False)
GRAMMAR = Path(__file__).resolve().parents[3] / "grammars" / "mysql" / "MySqlLexer.g4"


def signature(engine: Engine, text: str, options: Options = DEFAULT):
    return [(t.type, t.channel, t.start, t.stop, t.line, t.column, t.text)
            for t in engine.tokenize(text, options).tokens]


def assert_same(text: str, options: Options = DEFAULT):
    fast, antlr = signature(FAST, text, options), signature(ANTLR, text, options)
    if fast != antlr:
        diff = next(((f, a) for f, a in zip(fast, antlr, strict=False) if f != a), (len(fast), len(antlr)))
        pytest.fail(f"tokenizers differ on {text!r}: fast {diff[0]} / antlr {diff[1]}")


CASES = [
    "CREATE TABLE `a``b` (c INT DEFAULT -1.5e3, d VARCHAR(3) DEFAULT _utf8mb4'x' COLLATE utf8mb4_bin)",
    "SELECT 1e5x, 1e5, .5, 1., 0x1F, 0x1G, 0b101, 0b12, X'0a', x'zz', B'01', N'n', n'x', _latin1'a', _utf8x",
    "SELECT @a, @'b', @\"c\", @`d`, @@global.x, @@`y`, @@'z', \\N, \\n, a->'$.x', a->>'$.y', a<=>b, a:=1",
    "SELECT 'it''s', 'a\\'b', \"q\"\"r\", 'unterminated",
    "SELECT /*!50100 1 */ /*M!100100 2 */ /*+ hint */ /* c */ 3 # x\n-- y\n--\n--z",
    "SELECT ı, café, 数据, $x, x$, INT1, int8x, STRING",
    "SELECT 1\r\n+\t2\f\v",
    "SELECT a FROM t WHERE b --1\n",
    "CREATE TABLE t (a INT)\u00a0",  # NO-BREAK SPACE: the fast tokenizer declines, same result
]


@pytest.mark.parametrize("text", CASES)
def test_same_tokens_on_tricky_statements(text):
    assert_same(text)


def test_same_tokens_under_sql_modes():
    for mode in ("ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "ANSI_QUOTES,NO_BACKSLASH_ESCAPES"):
        assert_same("SELECT \"a\\\", 'b\\' FROM `t` /*!40101 x */", Options(sql_mode=mode))


def test_same_tokens_on_random_strings():
    rnd = random.Random(20240521)
    alphabet = list("aAeEnNxXbB_01239.$@`'\"\\#-/*+!M<>=:|&(), \n\t") + [
        "ı", "é", "数", "utf8", "_utf8mb4", "SELECT", "--", "/*", "*/", "/*!", "1e", "0x", "0b",
        "N'", "x'", "b'", "@@", "->>", "\r\n"]
    for _ in range(3000):
        assert_same("".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 30))))


def test_same_tokens_on_every_corpus_file(shared_path):
    files = sorted(p for p in (shared_path / "corpora" / "mysql").rglob("*")
                   if p.is_file() and p.suffix in (".sql", ".ddl"))
    assert len(files) > 200
    for p in files:
        assert_same(p.read_text(encoding="utf-8", errors="replace"))


def test_charset_introducers_match_the_grammar():
    rule = GRAMMAR.read_text().split("UNDERSCORE_CHARSET", 1)[1].split(";", 1)[0]
    assert set(re.findall(r"'([a-z0-9]+)'", rule)) == set(lexing.UNDERSCORE_CHARSETS)

