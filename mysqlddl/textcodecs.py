"""MySQL character set names -> Python codecs, and text decoded with them.

What every reader of MySQL text needs, whatever the text came in: a row value or a query in the
binlog (:mod:`mysqlddl.binlog.values.charsets` maps a collation id to the charset named here), a
snapshot's rows, a DDL script file (:mod:`mysqlddl.textfiles`). It stands at the bottom of the
package (ARCHITECTURE.md, "Layers") so that each of them can use it.

MySQL's ``latin1`` is Windows-1252, not ISO-8859-1 (strings/ctype-latin1.c ``cs_to_uni``: 0x80 is
U+20AC), and the five bytes cp1252 leaves undefined (0x81 0x8D 0x8F 0x90 0x9D) map to the C1 control
code points of the same value, so every byte decodes and the mapping is reversible.
"""

from __future__ import annotations

import codecs

#: MySQL latin1 as a charmap table for codecs.charmap_decode / PyUnicode_DecodeCharmap.
LATIN1_TABLE: str = "".join(
    bytes([b]).decode("cp1252") if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else chr(b) for b in range(256))

MYSQL_LATIN1 = "mysql-latin1"  # our pseudo codec name; decoded through LATIN1_TABLE

# charset name -> (python codec, mbmaxlen)
_CHARSETS = {
    "big5": ("big5", 2), "dec8": ("latin-1", 1), "cp850": ("cp850", 1), "hp8": ("latin-1", 1),
    "koi8r": ("koi8_r", 1), "latin1": (MYSQL_LATIN1, 1), "latin2": ("iso8859_2", 1),
    "swe7": ("latin-1", 1), "ascii": ("ascii", 1), "ujis": ("euc_jp", 3), "sjis": ("shift_jis", 2),
    "hebrew": ("iso8859_8", 1), "tis620": ("tis_620", 1), "euckr": ("euc_kr", 2), "koi8u": ("koi8_u", 1),
    "gb2312": ("gb2312", 2), "greek": ("iso8859_7", 1), "cp1250": ("cp1250", 1), "gbk": ("gbk", 2),
    "latin5": ("iso8859_9", 1), "armscii8": ("latin-1", 1), "utf8mb3": ("utf-8", 3), "utf8": ("utf-8", 3),
    "ucs2": ("utf-16-be", 2), "cp866": ("cp866", 1), "keybcs2": ("latin-1", 1), "macce": ("mac_latin2", 1),
    "macroman": ("mac_roman", 1), "cp852": ("cp852", 1), "latin7": ("iso8859_13", 1),
    "utf8mb4": ("utf-8", 4), "cp1251": ("cp1251", 1), "utf16": ("utf-16-be", 4),
    "utf16le": ("utf-16-le", 4), "cp1256": ("cp1256", 1), "cp1257": ("cp1257", 1), "utf32": ("utf-32-be", 4),
    "binary": (None, 1), "geostd8": ("latin-1", 1), "cp932": ("cp932", 2), "eucjpms": ("euc_jp", 3),
    "gb18030": ("gb18030", 4),
}


def codec_for_charset_name(name: str):
    """(python codec or None for binary, mbmaxlen) for a MySQL charset name, or False if unknown."""
    entry = _CHARSETS.get(name.lower())
    if entry is None:
        return False
    codec = entry[0]
    if codec not in (None, MYSQL_LATIN1):
        codecs.lookup(codec)
    return entry


def decode_text(raw: bytes, encoding: str, errors: str) -> str:
    """Decode ``raw`` with a codec from this module; UnicodeDecodeError is left to the caller."""
    if encoding == MYSQL_LATIN1:
        return codecs.charmap_decode(raw, errors, LATIN1_TABLE)[0]
    return raw.decode(encoding, errors)


__all__ = ["LATIN1_TABLE", "MYSQL_LATIN1", "codec_for_charset_name", "decode_text"]
