"""Where an OLR message sits: its checkpoint position ``(c_scn, c_idx)``.

OLR stamps every message with ``c_scn``, the SCN a restart must read from to produce the message
again, and ``c_idx``, the message's index from there. It is a restart position, *not* an order:
OLR writes transactions in commit order, and ``c_scn`` is where a transaction's redo starts, so a
long transaction committed late carries a smaller ``c_scn`` than the one before it (rophy
interleaved-transactions: ``1.8.741`` at c_scn 3806533 follows ``10.1.985`` at 3806547), and two
transactions may even share ``(c_scn, c_idx)`` values.

So the schema history records each DDL under its ``(c_scn, c_idx)`` (where to restart to see it
again), but rows are typed by the table version in force at their place in the output
(:class:`~mysqlddl.olr.reader.OlrReader`), and a DDL whose key is behind the last record is recorded
at the last record's key (the history is append-only; the event keeps the DDL's own key).

The schema history compares positions only through ``.key`` (an integer tuple) and stores them with
the model codec, so an :class:`OlrPosition` is a :class:`~mysqlddl.history.BinlogPosition` whose key
is ``(c_scn, c_idx)``: ``SchemaHistory`` takes it unchanged, and a saved history reloads it (the
codec's type tag).
"""

from __future__ import annotations

from ..history import BinlogPosition
from ..model import codec


@codec.polymorphic
class OlrPosition(BinlogPosition):
    """``(c_scn, c_idx)`` of an OLR message (stored in ``file_seq``/``pos``, ``file`` = the OLR
    output file name)."""

    __slots__ = ()

    @classmethod
    def at(cls, c_scn: int, c_idx: int, file: str = "") -> OlrPosition:
        return cls(c_scn, c_idx, file)

    @property
    def c_scn(self) -> int:
        return self.file_seq

    @property
    def c_idx(self) -> int:
        return self.pos

    def __str__(self) -> str:
        return f"c_scn {self.file_seq} c_idx {self.pos}"

    def __repr__(self) -> str:
        return f"OlrPosition(c_scn={self.file_seq}, c_idx={self.pos})"


__all__ = ["OlrPosition"]
