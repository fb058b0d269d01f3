"""Character sets of MySQL/MariaDB collation ids -> Python codecs.

Collation ids are the server's (``SHOW COLLATION``; MySQL strings/ctype-*.cc, MariaDB
mysys/charset-def.c). Only what a row decoder needs: which Python codec decodes the bytes and the
charset's maximum bytes per character (to turn a CHAR(N) byte length back into N).

MySQL's ``latin1`` is Windows-1252, not ISO-8859-1 (strings/ctype-latin1.c ``cs_to_uni``: 0x80 is
U+20AC), and the five bytes cp1252 leaves undefined (0x81 0x8D 0x8F 0x90 0x9D) map to the C1 control
code points of the same value, so every byte decodes and the mapping is reversible.
"""

from __future__ import annotations

import codecs

BINARY = 63

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

# collation id -> charset name (default collations and the common explicit ones)
_COLLATIONS: dict[int, str] = {}


def _ids(name: str, *ids: int | range) -> None:
    for i in ids:
        for j in (i if isinstance(i, range) else (i,)):
            _COLLATIONS[j] = name


_ids("big5", 1, 84)
_ids("latin2", 2, 9, 21, 27, 77)
_ids("dec8", 3, 69)
_ids("cp850", 4, 80)
_ids("latin1", 5, 8, 15, 31, 47, 48, 49, 94)
_ids("hp8", 6, 72)
_ids("koi8r", 7, 74)
_ids("swe7", 10, 82)
_ids("ascii", 11, 65)
_ids("ujis", 12, 91)
_ids("sjis", 13, 88)
_ids("cp1251", 14, 23, 50, 51, 52)
_ids("hebrew", 16, 71)
_ids("tis620", 18, 89)
_ids("euckr", 19, 85)
_ids("latin7", 20, 41, 42, 79)
_ids("koi8u", 22, 75)
_ids("gb2312", 24, 86)
_ids("greek", 25, 70)
_ids("cp1250", 26, 34, 44, 66, 99)
_ids("gbk", 28, 87)
_ids("cp1257", 29, 58, 59)
_ids("latin5", 30, 78)
_ids("armscii8", 32, 64)
_ids("utf8mb3", 33, 76, 83, range(192, 216), 223)
_ids("ucs2", 35, 90, range(128, 152), 159)
_ids("cp866", 36, 68)
_ids("keybcs2", 37, 73)
_ids("macce", 38, 43)
_ids("macroman", 39, 53)
_ids("cp852", 40, 81)
_ids("utf8mb4", 45, 46, range(224, 248), range(255, 324))
_ids("utf16", 54, 55, range(101, 125), 122)
_ids("utf16le", 56, 62)
_ids("cp1256", 57, 67)
_ids("utf32", 60, 61, range(160, 184))
_ids("binary", 63)
_ids("geostd8", 92, 93)
_ids("cp932", 95, 96)
_ids("eucjpms", 97, 98)
_ids("gb18030", 248, 249, 250)


def charset_of_collation(collation_id: int) -> str | None:
    """The charset name of a collation id, or None when unknown.

    MariaDB 10.10+ numbers its UCA-14.0 collations from 2048 up with the charset in bits 8-10 of the
    id (include/m_ctype.h ``MY_UCA1400_COLLATION_ID``); only the two UTF-8 charsets (0 utf8mb3,
    1 utf8mb4) are mapped here, the others stay unknown (the caller's fallback applies)."""
    name = _COLLATIONS.get(collation_id)
    if name is None and 2048 <= collation_id < 2560:
        name = ("utf8mb3", "utf8mb4")[(collation_id >> 8) & 1]
    return name


#: collation id -> name, for the ids that MySQL and MariaDB both give the same collation
#: (``SHOW COLLATION``; checked against MariaDB 10.11's information_schema.COLLATIONS) plus MySQL
#: 8.0's utf8mb4 defaults; other ids have a known charset only (:func:`charset_of_collation`).
_COLLATION_NAMES: dict[int, str] = {
    5: "latin1_german1_ci", 8: "latin1_swedish_ci", 15: "latin1_danish_ci", 31: "latin1_german2_ci",
    47: "latin1_bin", 48: "latin1_general_ci", 49: "latin1_general_cs", 94: "latin1_spanish_ci",
    11: "ascii_general_ci", 65: "ascii_bin", 63: "binary",
    33: "utf8mb3_general_ci", 83: "utf8mb3_bin", 192: "utf8mb3_unicode_ci",
    45: "utf8mb4_general_ci", 46: "utf8mb4_bin", 224: "utf8mb4_unicode_ci",
    255: "utf8mb4_0900_ai_ci", 309: "utf8mb4_0900_bin",
}


def collation_name(collation_id: int) -> str | None:
    """The name of a collation id in :data:`_COLLATION_NAMES`, or None."""
    return _COLLATION_NAMES.get(collation_id)


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
