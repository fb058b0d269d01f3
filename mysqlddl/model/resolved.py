"""What a column definition resolves to, shared by every dialect's column resolver.

:class:`ResolvedColumn` and :func:`text_value` sit below both :mod:`.resolve` (MySQL/MariaDB's
rules, which reads :mod:`.dialects`) and :mod:`.oracle` (Oracle's rules, which :mod:`.dialects`
names as the ORACLE row's ``column_resolver``), so the dialect table can point at Oracle's resolver
without Oracle's resolver importing the module that reads the table.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

from . import literals
from .column import Column
from .table import Check


class LiteralContext(Protocol):
    """What reading a quoted literal needs from the statement: sql_mode NO_BACKSLASH_ESCAPES."""

    @property
    def no_backslash_escapes(self) -> bool: ...


@dataclasses.dataclass(frozen=True, slots=True)
class ResolvedColumn:
    """A resolved column plus what its definition adds to the table: an inline (or SERIAL-implied)
    ``unique`` key, an inline ``primary`` key, and ``checks``."""

    column: Column
    unique: bool = False
    primary: bool = False
    checks: tuple[Check, ...] = ()


def text_value(literal: str | None, ctx: LiteralContext) -> str | None:
    """A COMMENT-like literal's value (unquoted if quoted); None stays None."""
    if literal is None:
        return None
    v = literals.string_value(literal, ctx.no_backslash_escapes)
    return v if v is not None else literal


__all__ = ["LiteralContext", "ResolvedColumn", "text_value"]
