"""What a decoder knows besides its own bytes: where the event is, the FDE in force, options,
and the reader's table-map cache (for rows events)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ...options import DEFAULT, Options

if TYPE_CHECKING:  # pragma: no cover
    from .format_description import FormatDescriptionEvent
    from .registry import Registry
    from .table_map import TableMapCache


@dataclasses.dataclass(slots=True)
class DecodeContext:
    file: str | None
    pos: int
    next_pos: int
    fde: FormatDescriptionEvent
    options: Options = DEFAULT
    registry: Registry | None = None
    tables: TableMapCache | None = None
    payload_offset: int | None = None

    def base(self, header) -> dict[str, Any]:
        """Keyword arguments every event dataclass takes."""
        return {"header": header, "file": self.file, "pos": self.pos, "next_pos": self.next_pos,
                "payload_offset": self.payload_offset}

    def post_header_len(self, type_code: int) -> int:
        return self.fde.post_header_len(type_code)
