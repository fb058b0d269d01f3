"""The decoder registry: ``{event type code: decoder}`` (STYLE 6).

A decoder is ``decoder(header, cursor, ctx) -> Event``: ``cursor`` is fenced to the event body
(after the common header, CRC stripped) and must be consumed exactly. Types with no entry go to
the explicit opaque default, which keeps the raw bytes. Users override or add entries on their own
copy (``DEFAULT_REGISTRY.copy()``) and pass it to the reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import control, format_description, gtid, mariadb, payload, query, rows_event, table_map
from .types import EventType, OpaqueEvent

Decoder = Callable


def decode_opaque(header, cur, ctx) -> OpaqueEvent:
    """The explicit default: the body is kept as bytes, nothing is interpreted."""
    return OpaqueEvent(**ctx.base(header), body=cur.rest())


class Registry:
    __slots__ = ("_decoders", "default")

    def __init__(self, decoders: Mapping[int, Decoder] | None = None, default: Decoder = decode_opaque):
        self._decoders: dict[int, Decoder] = dict(decoders or {})
        self.default = default

    def __contains__(self, type_code: int) -> bool:
        return int(type_code) in self._decoders

    def __getitem__(self, type_code: int) -> Decoder:
        return self._decoders[int(type_code)]

    def get(self, type_code: int) -> Decoder | None:
        return self._decoders.get(int(type_code))

    def register(self, type_code: int, decoder: Decoder) -> None:
        """Add or replace the decoder of one event type."""
        self._decoders[int(type_code)] = decoder

    def unregister(self, type_code: int) -> None:
        """Send a type to the opaque default (kept as bytes; unknown-type rules apply)."""
        self._decoders.pop(int(type_code), None)

    def copy(self) -> Registry:
        return Registry(self._decoders, self.default)

    def types(self) -> tuple[int, ...]:
        return tuple(sorted(self._decoders))


def _default_decoders() -> dict[int, Decoder]:
    out: dict[int, Decoder] = {}
    for mod in (format_description, query, control, gtid, mariadb, payload, table_map, rows_event):
        for code, dec in mod.DECODERS.items():
            out[int(code)] = dec
    return out


DEFAULT_REGISTRY = Registry(_default_decoders())


def without_statement_texts(registry: Registry | None = None) -> Registry:
    """A copy of ``registry`` (default :data:`DEFAULT_REGISTRY`) that leaves ROWS_QUERY and
    ANNOTATE_ROWS opaque: the statement text of a row event group (``binlog_rows_query_log_events``,
    MariaDB ``binlog_annotate_row_events``) is never decoded. A reader that does not print it takes
    this one: a multi-row INSERT's text costs more to decode than its rows. (The one place it is
    built: the change reader, the CLI and the pipeline all ask for it here.)"""
    reg = (registry if registry is not None else DEFAULT_REGISTRY).copy()
    for t in (EventType.ROWS_QUERY, EventType.MARIADB_ANNOTATE_ROWS):
        reg.unregister(t)
    return reg

