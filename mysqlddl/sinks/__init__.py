"""Where change records go: the sink interface (:mod:`.base`) and the JSON Lines sink, which owns
the rendering of the native format (:mod:`.jsonl`)."""

from .base import Sink, boundary, write_records
from .jsonl import JsonLinesSink, LineRenderer

__all__ = ["JsonLinesSink", "LineRenderer", "Sink", "boundary", "write_records"]
