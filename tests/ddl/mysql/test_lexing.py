"""Lexing (MySQL 8.4 manual chapter 11 "Language Structure"): keywords, identifiers, literals,
comments, versioned comments per server version, hints, ANSI_QUOTES and NO_BACKSLASH_ESCAPES."""

from __future__ import annotations

import pytest
from mysqlddl._generated.mysql.MySqlLexer import MySqlLexer

from mysqlddl.ddl import Engine
from mysqlddl.ddl.mysql import lexing
from mysqlddl.options import DEFAULT, Dialect, Options

ENGINE = Engine()


def tokens(sql: str, options: Options = DEFAULT):
    """(symbolic type name, text) of the default-channel tokens, without EOF."""
    stream = ENGINE.tokenize(sql, options)
    return [(MySqlLexer.symbolicNames[t.type], t.text) for t in stream.tokens
            if t.channel == 0 and t.type != -1]


def types(sql: str, options: Options = DEFAULT):
    return [t for t, _ in tokens(sql, options)]


def test_keywords_are_case_insensitive():
    assert types("create Table t") == types("CREATE TABLE t") == ["CREATE", "TABLE", "ID"]
    assert types("cReAtE tAbLe t") == ["CREATE", "TABLE", "ID"]


def test_backtick_identifiers_with_doubled_backticks_and_non_ascii_names():
    assert tokens("`a``b` `select` café ключ 数据 $x _y 1abc") == [
        ("BACKTICK_ID", "`a``b`"), ("BACKTICK_ID", "`select`"), ("ID", "café"), ("ID", "ключ"),
        ("ID", "数据"), ("ID", "$x"), ("ID", "_y"), ("ID", "1abc")]


def test_strings_with_both_quote_styles_and_escapes():
    assert tokens(r"""'it''s' 'a\'b' "dq""x" "a\"b" 'x\\'""") == [
        ("STRING", "'it''s'"), ("STRING", r"'a\'b'"), ("DQ_STRING", '"dq""x"'),
        ("DQ_STRING", r'"a\"b"'), ("STRING", r"'x\\'")]


def test_introducers_national_hex_and_bit_literals():
    assert tokens("_utf8mb4'x' _binary 0x1F N'n' X'0aFF' x'' 0b101 B'01' b''") == [
        ("UNDERSCORE_CHARSET", "_utf8mb4"), ("STRING", "'x'"), ("UNDERSCORE_CHARSET", "_binary"),
        ("HEX_LITERAL", "0x1F"), ("NATIONAL_STRING", "N'n'"), ("HEX_LITERAL", "X'0aFF'"),
        ("HEX_LITERAL", "x''"), ("BIT_LITERAL", "0b101"), ("BIT_LITERAL", "B'01'"), ("BIT_LITERAL", "b''")]
    # _utf8x is not a character set: an ordinary identifier
    assert types("_utf8x") == ["ID"]


def test_numbers():
    assert tokens("1 1.5 .5 1. 1e10 1.5E-3 2e5x") == [
        ("DECIMAL_LITERAL", "1"), ("REAL_LITERAL", "1.5"), ("REAL_LITERAL", ".5"), ("REAL_LITERAL", "1."),
        ("REAL_LITERAL", "1e10"), ("REAL_LITERAL", "1.5E-3"), ("ID", "2e5x")]


def test_comments_are_hidden():
    sql = "SELECT 1 # hash\n-- dash\n+ /* block */ 2 --\n"
    assert types(sql) == ["SELECT", "DECIMAL_LITERAL", "PLUS", "DECIMAL_LITERAL"]
    # '--' without a following space is not a comment (manual 11.7): two minus signs
    assert types("SELECT 1--1") == ["SELECT", "DECIMAL_LITERAL", "MINUS", "MINUS", "DECIMAL_LITERAL"]


def test_dash_dash_at_the_very_end_is_a_comment():
    assert types("SELECT 1 --") == ["SELECT", "DECIMAL_LITERAL"]
    assert ENGINE.parse("DROP TABLE t --").ok


def test_dash_dash_newline_does_not_swallow_the_next_line():
    assert types("--\nDROP TABLE t") == ["DROP", "TABLE", "ID"]


def test_optimizer_hints_are_hidden():
    assert types("SELECT /*+ BKA(t) NO_ICP(t) */ 1") == ["SELECT", "DECIMAL_LITERAL"]


@pytest.mark.parametrize("version,visible", [((8, 0, 40), True), ((5, 1, 0), True), ((5, 0, 99), False)])
def test_versioned_comments_follow_the_server_version(version, visible):
    sql = "CREATE TABLE t (a INT) /*!50100 ENGINE=InnoDB */"
    got = types(sql, Options(server_version=version))
    assert ("ENGINE" in got) is visible
    assert ENGINE.parse(sql, Options(server_version=version)).ok


def test_versioned_comment_without_version_always_applies_and_offsets_are_kept():
    sql = "/*! SET */ @a = 1"
    stream = ENGINE.tokenize(sql)
    set_tok = next(t for t in stream.tokens if t.type == MySqlLexer.SET)
    assert (set_tok.start, set_tok.column, set_tok.text) == (4, 4, "SET")
    assert lexing.prepare_text(sql, Options()) == "    SET    @a = 1"


def test_mysqldump_header_statements_parse():
    for sql in ("/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */",
                "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */",
                "/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER tr BEFORE INSERT ON "
                "t FOR EACH ROW SET NEW.a = 1 */"):
        assert ENGINE.parse(sql).ok, sql


def test_mariadb_executable_comments_only_under_mariadb():
    sql = "CREATE TABLE t (a INT) /*M!100100 PAGE_CHECKSUM=1 */"
    assert "PAGE_CHECKSUM" not in types(sql, Options())
    assert "PAGE_CHECKSUM" in types(sql, Options(dialect=Dialect.MARIADB, server_version=(10, 11, 0)))
    assert "PAGE_CHECKSUM" not in types(sql, Options(dialect=Dialect.MARIADB, server_version=(10, 0, 0)))


def test_versioned_comment_markers_inside_strings_are_text():
    sql = "SELECT '/*!50100 x */'"
    assert lexing.prepare_text(sql, Options()) == sql
    assert tokens(sql) == [("SELECT", "SELECT"), ("STRING", "'/*!50100 x */'")]


def test_ansi_quotes_switches_double_quotes_to_identifiers_per_statement():
    sql = 'CREATE TABLE "t" ("a" INT)'
    assert not ENGINE.parse(sql).ok
    assert ENGINE.parse(sql, Options(sql_mode="ANSI_QUOTES")).ok
    assert types('"x"', Options(sql_mode="ANSI")) == ["DQ_IDENT"]
    # the next statement under the default mode is lexed as strings again (no state kept)
    assert types('"x"') == ["DQ_STRING"]


def test_no_backslash_escapes_makes_backslash_ordinary_and_keeps_the_original_text():
    sql = "INSERT INTO t VALUES ('C:\\', 'x')"
    assert not ENGINE.parse(sql).ok  # '\'' escapes the quote: the string never ends
    opts = Options(sql_mode="NO_BACKSLASH_ESCAPES")
    res = ENGINE.parse(sql, opts)
    assert res.ok
    strings = [t.text for t in res.tokens.tokens if t.type == MySqlLexer.STRING]
    assert strings == ["'C:\\'", "'x'"]


def test_keyword_glued_to_a_dot_is_an_identifier():
    assert types("select t.order, default.t from x") == [
        "SELECT", "ID", "DOT", "ID", "COMMA", "ID", "DOT", "ID", "FROM", "ID"]


def test_unknown_character_is_a_positioned_syntax_error_not_a_console_print(capsys):
    res = ENGINE.parse("SELECT 1 \\ 2")
    assert not res.ok
    assert (res.errors[0].line, res.errors[0].column) == (1, 9)
    assert capsys.readouterr().err == ""
