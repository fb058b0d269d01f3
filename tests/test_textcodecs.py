"""mysqlddl.textcodecs: MySQL charset names -> Python codecs, the table the row decoders, the
snapshot reader and DDL script files (mysqlddl.textfiles) share."""

from __future__ import annotations

import pytest

from mysqlddl.binlog.values import charsets
from mysqlddl.textcodecs import LATIN1_TABLE, MYSQL_LATIN1, codec_for_charset_name, decode_text


@pytest.mark.parametrize(("name", "entry"), [
    ("utf8mb4", ("utf-8", 4)), ("UTF8MB3", ("utf-8", 3)), ("latin1", (MYSQL_LATIN1, 1)),
    ("binary", (None, 1)), ("cp1251", ("cp1251", 1)), ("klingon", False),
])
def test_codec_for_charset_name(name, entry):
    assert codec_for_charset_name(name) == entry


def test_mysql_latin1_is_cp1252_with_every_byte_decoded():
    """strings/ctype-latin1.c: 0x80 is the euro sign; the five bytes cp1252 leaves undefined are the
    C1 code points of the same value, so every byte decodes and back."""
    raw = bytes(range(256))
    text = decode_text(raw, MYSQL_LATIN1, "strict")
    assert text[0x80] == "\u20ac" and text[0x81] == "\x81" and text[0x9d] == "\x9d"
    assert len(set(LATIN1_TABLE)) == 256


def test_binlog_charsets_take_the_same_table():
    """The row decoders (and the compiled core, through MYSQL_LATIN1) read these names from
    binlog.values.charsets: they are the same objects."""
    assert charsets.decode_text is decode_text and charsets.MYSQL_LATIN1 == MYSQL_LATIN1
    assert charsets.codec_for_charset_name(charsets.charset_of_collation(8)) == (MYSQL_LATIN1, 1)
