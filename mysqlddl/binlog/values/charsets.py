"""Character sets of MySQL/MariaDB collation ids -> Python codecs.

Collation ids are the server's (``SHOW COLLATION``; MySQL strings/ctype-*.cc, MariaDB
mysys/charset-def.c). Only what a row decoder needs: which Python codec decodes the bytes and the
charset's maximum bytes per character (to turn a CHAR(N) byte length back into N). The charset
name -> codec table is :mod:`mysqlddl.textcodecs` (at the bottom of the package: DDL script files
and snapshots decode with it too); its names are re-exported here, where the row decoders and the
compiled core (``_speedups/plan.pxi`` reads ``MYSQL_LATIN1``) take them.
"""

from __future__ import annotations

from ...textcodecs import LATIN1_TABLE, MYSQL_LATIN1, codec_for_charset_name, decode_text

BINARY = 63

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


__all__ = ["BINARY", "LATIN1_TABLE", "MYSQL_LATIN1", "charset_of_collation", "codec_for_charset_name",
           "collation_name", "decode_text"]
