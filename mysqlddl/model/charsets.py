"""Character sets and collations: default collation per charset, per dialect, and inheritance.

The tables here are data, not code paths: a dialect row in :mod:`mysqlddl.model.dialects` picks
which default-collation column applies. Sources: MySQL 8.0 Reference Manual 10.10 "Supported
Character Sets and Collations" (``SHOW CHARACTER SET``) and MariaDB 10.11
``information_schema.CHARACTER_SETS`` (checked against a live 10.11 server by
``tests/model/test_model_vs_mariadb.py``).

Inheritance (MySQL manual 10.3.2-10.3.5): server -> database -> table -> column. At each level
``CHARACTER SET cs`` alone takes ``cs``'s default collation; ``COLLATE c`` alone takes the charset
``c`` belongs to; neither inherits both from the level above.
"""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError


@dataclasses.dataclass(frozen=True, slots=True)
class Charset:
    """One character set: ``maxlen`` bytes per character, default collation on MySQL 8.0 and on
    MariaDB 10.11 (they differ only where MySQL 8.0 introduced the UCA 9.0.0 collations)."""

    name: str
    maxlen: int
    mysql_default: str
    mariadb_default: str


def _cs(name: str, maxlen: int, default: str | None = None, mysql: str | None = None) -> Charset:
    d = default or f"{name}_general_ci"
    return Charset(name, maxlen, mysql or d, d)


CHARSETS: dict[str, Charset] = {c.name: c for c in (
    _cs("armscii8", 1), _cs("ascii", 1), _cs("big5", 2, "big5_chinese_ci"),
    Charset("binary", 1, "binary", "binary"),
    _cs("cp1250", 1), _cs("cp1251", 1), _cs("cp1256", 1), _cs("cp1257", 1), _cs("cp850", 1),
    _cs("cp852", 1), _cs("cp866", 1), _cs("cp932", 2, "cp932_japanese_ci"),
    _cs("dec8", 1, "dec8_swedish_ci"), _cs("eucjpms", 3, "eucjpms_japanese_ci"),
    _cs("euckr", 2, "euckr_korean_ci"), _cs("gb2312", 2, "gb2312_chinese_ci"),
    _cs("gbk", 2, "gbk_chinese_ci"), _cs("geostd8", 1), _cs("greek", 1), _cs("hebrew", 1),
    _cs("hp8", 1, "hp8_english_ci"), _cs("keybcs2", 1), _cs("koi8r", 1), _cs("koi8u", 1),
    _cs("latin1", 1, "latin1_swedish_ci"), _cs("latin2", 1), _cs("latin5", 1, "latin5_turkish_ci"),
    _cs("latin7", 1), _cs("macce", 1), _cs("macroman", 1), _cs("sjis", 2, "sjis_japanese_ci"),
    _cs("swe7", 1, "swe7_swedish_ci"), _cs("tis620", 1, "tis620_thai_ci"), _cs("ucs2", 2),
    _cs("ujis", 3, "ujis_japanese_ci"), _cs("utf16", 4), _cs("utf16le", 4), _cs("utf32", 4),
    _cs("utf8mb3", 3),
    # MySQL 8.0 made the UCA 9.0.0 collation the utf8mb4 default; MariaDB kept general_ci
    # (MariaDB 11.5 later moved to uca1400_ai_ci; 10.11 is what we target).
    _cs("utf8mb4", 4, "utf8mb4_general_ci", mysql="utf8mb4_0900_ai_ci"),
    # MySQL only (8.0.4+); harmless for MariaDB, which rejects the name before we see it.
    _cs("gb18030", 4, "gb18030_chinese_ci"),
)}

# Spellings that name another charset. ``utf8`` is utf8mb3 on MySQL 8.0 and on MariaDB while
# old_mode UTF8_IS_UTF8MB3 is set (the 10.6+ default).
CHARSET_ALIASES: dict[str, str] = {"utf8": "utf8mb3"}


def canonical_charset(name: str) -> str:
    """Lower-cased charset name with aliases resolved (``UTF8`` -> ``utf8mb3``)."""
    n = name.strip().strip("'\"`").lower()
    return CHARSET_ALIASES.get(n, n)


def canonical_collation(name: str) -> str:
    """Lower-cased collation name with the charset alias prefix resolved
    (``utf8_general_ci`` -> ``utf8mb3_general_ci``)."""
    n = name.strip().strip("'\"`").lower()
    for alias, real in CHARSET_ALIASES.items():
        if n.startswith(alias + "_") and not n.startswith(real):
            return real + n[len(alias):]
    return n


def charset_of_collation(collation: str) -> str:
    """The charset a collation belongs to: the longest known charset name that prefixes it."""
    c = canonical_collation(collation)
    if c == "binary":
        return "binary"
    best = None
    for name in CHARSETS:
        if c.startswith(name + "_") and (best is None or len(name) > len(best)):
            best = name
    if best is None:
        raise DdlSemanticError(f"Unknown collation: '{collation}'")
    return best


def default_collation(charset: str, dialect_column: str) -> str:
    """Default collation of ``charset``; ``dialect_column`` is ``"mysql"`` or ``"mariadb"``."""
    cs = CHARSETS.get(canonical_charset(charset))
    if cs is None:
        raise DdlSemanticError(f"Unknown character set: '{charset}'")
    return cs.mysql_default if dialect_column == "mysql" else cs.mariadb_default


def binary_collation(charset: str) -> str:
    """The ``_bin`` collation the BINARY column attribute selects (``binary`` for binary)."""
    cs = canonical_charset(charset)
    return "binary" if cs == "binary" else f"{cs}_bin"


def maxlen(charset: str | None) -> int:
    """Bytes per character (1 when unknown or binary)."""
    if charset is None:
        return 1
    cs = CHARSETS.get(canonical_charset(charset))
    return cs.maxlen if cs else 1


def resolve_pair(charset: str | None, collation: str | None, inherited: tuple[str, str],
                 dialect_column: str) -> tuple[str, str]:
    """One inheritance step: what ``CHARACTER SET charset COLLATE collation`` means at a level whose
    parent has ``inherited`` (charset, collation). Either or both of charset/collation may be None.

    A COLLATE that does not belong to the stated charset is an error, as on the server.
    """
    if charset is None and collation is None:
        return inherited
    if collation is None:
        cs = canonical_charset(charset)
        return cs, default_collation(cs, dialect_column)
    coll = canonical_collation(collation)
    owner = charset_of_collation(coll)
    if charset is not None and canonical_charset(charset) != owner:
        raise DdlSemanticError(
            f"COLLATION '{coll}' is not valid for CHARACTER SET '{canonical_charset(charset)}'")
    return owner, coll
