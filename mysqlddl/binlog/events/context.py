"""What a decoder knows besides its own bytes: where the event is, the FDE in force, options,
and the reader's table-map cache (for rows events)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ...errors import CorruptEventError
from ...options import DEFAULT, Options

if TYPE_CHECKING:  # pragma: no cover
    from ._cursor import Cursor
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
    origin: Any = None           # a RelayOrigin for events read from a relay log

    def base(self, header) -> dict[str, Any]:
        """Keyword arguments every event dataclass takes."""
        return {"header": header, "file": self.file, "pos": self.pos, "next_pos": self.next_pos,
                "payload_offset": self.payload_offset, "origin": self.origin}

    def post_header_len(self, type_code: int) -> int:
        return self.fde.post_header_len(type_code)

    def post_header(self, header, cur: Cursor, minimum: int, what: str) -> Cursor:
        """Fence the post-header the FDE in force declares for this event type and return a
        cursor over it (``cur`` moves past it, to the body).

        The FDE's ``post_header_len`` table (control_events.h ``Format_description_event``) is the
        format contract: the fixed fields an event type knows are read from the start of the
        post-header, and a longer declared post-header (a newer server's added fields) is skipped
        by its declared length, never read as body. A declared length shorter than the fields
        the decoder needs (``minimum``) is a corrupt or foreign FDE: a typed error, positioned at
        the post-header (the reader adds file, log position and event type).
        """
        return cur.sub(self.checked_post_header_len(header, cur, minimum, what), what + " post-header")

    def checked_post_header_len(self, header, cur: Cursor, minimum: int, what: str) -> int:
        """The declared post-header length, checked against ``minimum`` (see :meth:`post_header`)."""
        n = self.fde.post_header_len(header.type_code)
        if n < minimum:
            raise CorruptEventError(f"{what}: the FDE declares a {n}-byte post-header, shorter than "
                                    f"the {minimum} bytes of its fixed fields", offset=cur.abs())
        return n
