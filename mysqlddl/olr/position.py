"""Where an OLR message sits: its checkpoint position ``(c_scn, c_idx)``.

OLR stamps every message with the SCN of the checkpoint it belongs to (``c_scn``) and its index
inside it (``c_idx``); together they increase through the output (transactions are written in
commit order), so they order DDL against DML the way ``(file_seq, pos)`` does for a binlog.

The schema history only compares positions through ``.key`` (an integer tuple) and stores them with
the model codec, so an :class:`OlrPosition` is a :class:`~mysqlddl.history.BinlogPosition` whose key
is ``(c_scn, c_idx)``: ``SchemaHistory`` keys Oracle DDL by it unchanged, and a saved history
reloads with the same keys. A DDL takes effect at its own message's position: a row at a position
at or after it sees the new table version.
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
