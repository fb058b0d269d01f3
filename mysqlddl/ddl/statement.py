"""What every dialect's front end says about one statement of a script: where it is
(:class:`Statement`, made by the dialect's splitter) and whether it may change the schema
(:class:`StatementClass`, said by the dialect's classifier)."""

from __future__ import annotations

import bisect
import dataclasses
import enum
import re


@dataclasses.dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a script: its text (without the delimiter) and where it starts."""

    index: int
    text: str
    line: int
    column: int
    offset: int
    delimiter: str = ";"


class StatementClass(str, enum.Enum):
    """A classifier's verdict. SCHEMA: the statement may change the schema model (a lenient run
    parses only these); OTHER: it cannot; EMPTY: only whitespace and comments."""

    SCHEMA = "schema"
    OTHER = "other"
    EMPTY = "empty"


class LineIndex:
    """Turns character offsets of one script into 1-based lines and 0-based columns."""

    __slots__ = ("starts",)

    def __init__(self, script: str):
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", script)]

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of ``offset``."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i]


__all__ = ["LineIndex", "Statement", "StatementClass"]
