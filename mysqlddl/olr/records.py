"""Where an OLR record came from: :class:`OracleSource`, the ``source`` of the change records
(:mod:`mysqlddl.changes.records`: RowChange, SchemaChange, TransactionMark) an
:class:`~mysqlddl.olr.reader.OlrReader` gives. A sink renders them by the source's ``kind``
("olr"; the envelope is :mod:`mysqlddl.sinks.oracle`'s)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from .documents import file_number


@dataclasses.dataclass(frozen=True, slots=True)
class OracleSource:
    """Where a change came from. ``scn``: the transaction's SCN (carried from its first message
    when later ones leave it out); ``ts_ms``: its commit time in ms (None when OLR gave none);
    ``file``/``line``/``offset``: the message in the OLR output; ``payload``: index in its
    ``payload`` array; ``end``: the byte offset just past the message; ``db``: the Oracle database
    name the message carries; ``owner``: the table's schema (what a binlog source calls ``db``)."""

    file: str
    line: int
    offset: int
    payload: int = 0
    scn: int | None = None
    c_scn: int | None = None
    c_idx: int | None = None
    xid: str | None = None
    ts_ms: int | None = None
    db: str | None = None
    owner: str | None = None
    table: str | None = None
    rid: str | None = None
    end: int = 0

    #: the kind of source (a binlog record's is "binlog": :class:`mysqlddl.changes.records.Source`)
    kind: ClassVar[str] = "olr"

    # a binlog Source's names, for what reads records by them (a pipeline's segment names and
    # stats, a dead-letter entry)
    @property
    def pos(self) -> int:
        """The message's byte offset in its file."""
        return self.offset

    @property
    def file_seq(self) -> int:
        """The number in the file's name (:func:`~mysqlddl.olr.documents.file_number`)."""
        return file_number(self.file)

    @property
    def ts(self) -> int:
        """The commit time in seconds (0 when OLR gave none), as a binlog Source's ``ts``."""
        return (self.ts_ms or 0) // 1000

    @property
    def qualified_name(self) -> str:
        """``OWNER.TABLE`` (the table alone without an owner), as OlrStats and a pipeline's stats
        key a table."""
        return f"{self.owner}.{self.table}" if self.owner else str(self.table)


__all__ = ["OracleSource"]
