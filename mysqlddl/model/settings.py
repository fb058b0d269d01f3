"""Server settings as text (``--set VAR=VALUE``, a pipeline file's ``[changes.settings]``) -> the
:class:`~mysqlddl.options.Options` fields the schema model reads, checked: one definition for the
command line and the pipeline file.

    parse_server_version("10.11.19-MariaDB-log") -> (10, 11, 19)
    parse_setting("sql_mode", "ANSI_QUOTES,NO_ZERO_DATE") -> ("sql_mode", frozenset({...}))
    with_settings(options, server_version=..., settings={name: text, ...}) -> Options

A bad name or value is a ValueError whose text says what is accepted.
"""

from __future__ import annotations

import re

from ..errors import DdlSemanticError
from ..options import SERVER_SETTINGS, Options
from . import charsets


def parse_server_version(text: str) -> tuple[int, int, int]:
    """``8.0.40``, ``10.11`` (patch 0) or a server's own version string (``10.11.19-MariaDB-log``)."""
    m = re.fullmatch(r"\s*(\d+)\.(\d+)(?:\.(\d+))?(?:[-+~].*)?\s*", text)
    if not m:
        raise ValueError(f"not a server version (X.Y or X.Y.Z): {text!r}")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


# sql_mode names both servers know (MySQL 8.4 manual 7.1.11 "Server SQL Modes"; MariaDB KB
# "SQL_MODE"), including the combination modes and those removed in MySQL 8.0 that 5.7 dumps
# still name.
SQL_MODES = frozenset({
    "ALLOW_INVALID_DATES", "ANSI_QUOTES", "ERROR_FOR_DIVISION_BY_ZERO", "HIGH_NOT_PRECEDENCE",
    "IGNORE_BAD_TABLE_OPTIONS", "IGNORE_SPACE", "NO_AUTO_CREATE_USER", "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES", "NO_DIR_IN_CREATE", "NO_ENGINE_SUBSTITUTION", "NO_FIELD_OPTIONS",
    "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_UNSIGNED_SUBTRACTION", "NO_ZERO_DATE",
    "NO_ZERO_IN_DATE", "ONLY_FULL_GROUP_BY", "PAD_CHAR_TO_FULL_LENGTH", "PIPES_AS_CONCAT",
    "REAL_AS_FLOAT", "STRICT_ALL_TABLES", "STRICT_TRANS_TABLES", "TIME_TRUNCATE_FRACTIONAL",
    "SIMULTANEOUS_ASSIGNMENT", "EMPTY_STRING_IS_NULL", "TIME_ROUND_FRACTIONAL",
    "ANSI", "TRADITIONAL", "DB2", "MAXDB", "MSSQL", "MYSQL323", "MYSQL40", "ORACLE", "POSTGRESQL"})
_ON = {"on": True, "1": True, "true": True, "off": False, "0": False, "false": False}


def _bool_value(text: str) -> bool:
    v = _ON.get(text.strip().lower())
    if v is None:
        raise ValueError("ON or OFF (1 or 0)")
    return v


def _sql_mode_value(text: str) -> frozenset[str]:
    modes = {m.strip().upper() for m in text.strip().strip("'\"").split(",") if m.strip()}
    bad = sorted(modes - SQL_MODES)
    if bad:
        raise ValueError(f"modes ({', '.join(sorted(SQL_MODES))}); unknown: {', '.join(bad)}")
    return frozenset(modes)


def _charset_value(text: str) -> str:
    cs = charsets
    name = cs.canonical_charset(text)
    if name not in cs.CHARSETS:
        raise ValueError(f"a character set ({', '.join(sorted(cs.CHARSETS))})")
    return name


def _collation_value(text: str) -> str:
    cs = charsets
    try:
        cs.charset_of_collation(text)
    except DdlSemanticError:
        raise ValueError("a collation of a known character set (e.g. utf8mb4_general_ci)") from None
    return cs.canonical_collation(text)


def _lctn_value(text: str) -> int:
    if text.strip() not in ("0", "1", "2"):
        raise ValueError("0, 1 or 2")
    return int(text)


def _engine_value(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", text.strip()):
        raise ValueError("an engine name (e.g. InnoDB, MyISAM, Aria)")
    return text.strip()


# The server variables that change the table a statement makes, each with its Options field and
# value parser (ValueError's text says what the value must be); the names are options.SERVER_SETTINGS'.
SETTINGS = {
    "explicit_defaults_for_timestamp": ("explicit_defaults_for_timestamp", _bool_value),
    "sql_mode": ("sql_mode", _sql_mode_value),
    "character_set_server": ("character_set_server", _charset_value),
    "collation_server": ("collation_server", _collation_value),
    "lower_case_table_names": ("lower_case_table_names", _lctn_value),
    "default_storage_engine": ("default_storage_engine", _engine_value),
    "storage_engine": ("default_storage_engine", _engine_value),  # the pre-5.7.5 / MariaDB alias
}


def parse_setting(name: str, value: str) -> tuple[str, object]:
    """A server variable's name (``@@``/``global.``/``session.`` allowed, any case) and value text
    -> (Options field, value)."""
    name = name.strip().lstrip("@").lower()
    if name.startswith(("global.", "session.")):
        name = name.split(".", 1)[1]
    if name not in SETTINGS:
        raise ValueError(f"not a known variable: {name!r} (variables: {', '.join(sorted(SETTINGS))})")
    field, parse = SETTINGS[name]
    try:
        return field, parse(value)
    except ValueError as e:
        raise ValueError(f"{name}: {value!r} is not {e}") from None


def with_settings(options: Options, *, server_version: str | None = None, settings=()) -> Options:
    """``options`` with a server version and variables given as text (``settings``: a mapping or
    (name, value) pairs; a later one of the same variable wins)."""
    changes: dict[str, object] = {}
    for name, value in (settings.items() if hasattr(settings, "items") else settings):
        field, v = parse_setting(name, str(value))
        changes[field] = v
    if server_version is not None:
        changes["server_version"] = parse_server_version(server_version)
    return options.replace(**changes) if changes else options


assert set(SETTINGS) == set(SERVER_SETTINGS), "options.SERVER_SETTINGS names the same variables"

__all__ = ["SETTINGS", "SQL_MODES", "parse_server_version", "parse_setting", "with_settings"]
