"""Keywords as identifiers (issue 3: the largest failure class of another CDC tool's grammar):
every keyword token is either reserved (listed in grammars/mysql/README.md) or usable as an
identifier through keywordAsIdentifier — nothing falls between the two."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mysqlddl._generated.mysql.MySqlLexer import MySqlLexer
from mysqlddl._generated.mysql.MySqlParser import MySqlParser

from mysqlddl.ddl import Engine
from mysqlddl.ddl.mysql.engine import KEYWORD_IDENT_TYPES, KEYWORD_TYPES

README = Path(__file__).resolve().parents[3] / "grammars" / "mysql" / "README.md"


def _reserved_from_readme() -> set[str]:
    text = README.read_text(encoding="utf-8")
    block = text.split("## Reserved keyword tokens", 1)[1].split("```")[1]
    return set(block.split())


def _name(t: int) -> str:
    return MySqlLexer.symbolicNames[t]


def test_every_keyword_is_reserved_or_an_identifier():
    reserved = _reserved_from_readme()
    keywords = {_name(t) for t in KEYWORD_TYPES}
    as_identifier = {_name(t) for t in KEYWORD_IDENT_TYPES}
    assert keywords - reserved - as_identifier == set(), "keyword neither reserved nor in keywordAsIdentifier"
    assert reserved & as_identifier == set(), "a reserved word is in keywordAsIdentifier"
    assert reserved <= keywords, "README lists a reserved word the lexer does not have"


NON_RESERVED = sorted(_name(t) for t in KEYWORD_IDENT_TYPES)


@pytest.mark.parametrize("word", NON_RESERVED)
def test_non_reserved_keyword_works_as_table_and_column_name(word):
    eng = Engine()
    w = word.lower()
    sql = f"CREATE TABLE {w} ({w} INT, KEY ({w}))"
    res = eng.parse(sql)
    assert res.ok, f"{sql}: {res.errors[0] if res.errors else ''}"
    assert eng.parse(f"ALTER TABLE t ADD COLUMN {w} INT AFTER {w}, DROP COLUMN {w}").ok


@pytest.mark.parametrize("word", ["select", "from", "table", "key", "index", "primary", "order", "group"])
def test_reserved_words_need_backticks(word):
    eng = Engine()
    assert not eng.parse(f"CREATE TABLE {word} (a INT)").ok
    assert eng.parse(f"CREATE TABLE `{word}` (`{word}` INT)").ok


def test_keyword_rule_is_a_flat_token_set():
    """ANTLR-NOTES lesson 5: single-token alternatives only, so prediction stays one-token."""
    src = (Path(__file__).resolve().parents[3] / "grammars" / "mysql" / "MySqlParser.g4").read_text()
    body = src.split("keywordAsIdentifier\n", 1)[1].split(";", 1)[0]
    alts = [a.strip() for a in body.replace(":", "|", 1).split("|") if a.strip()]
    assert all(re.fullmatch(r"[A-Z][A-Z0-9_]*", a) for a in alts)
    assert len(alts) == len(KEYWORD_IDENT_TYPES)
    assert MySqlParser.RULE_keywordAsIdentifier >= 0
