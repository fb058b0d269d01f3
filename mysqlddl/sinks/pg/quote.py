"""Quoting for the SQL the PostgreSQL sink writes: identifiers and string literals. Below ddl.py
and order.py, which both build statements with them."""

from __future__ import annotations


def qi(name: str) -> str:
    """A quoted PostgreSQL identifier (manual 4.1.1: "" doubles a quote)."""
    return '"' + name.replace('"', '""') + '"'


def ql(text: str) -> str:
    """A PostgreSQL string literal (standard_conforming_strings on: only ' doubles)."""
    return "'" + text.replace("'", "''") + "'"
