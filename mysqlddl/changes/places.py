"""Where an event is, as the change records say it: the :class:`~mysqlddl.changes.records.Source` of
a change, the end of a transaction, the reading window (``start_position`` / timestamps), and the
server the current FORMAT_DESCRIPTION names.

Read from a replica's *relay log*, an event copied from the source carries an ``origin`` (the
source's binlog name from its last ROTATE, and the event's place there): the records give the
source's place, as the same change read from the source's own binlog does (records.Source says why);
the relay log's own events (``origin.own``) are the replica's.
"""

from __future__ import annotations

from pathlib import Path

from ..options import Dialect, Options
from ..positions import BinlogPosition, file_seq
from .filters import Filters
from .records import Source


class Places:
    """The places of one reading: base names and ``file_seq`` cached per binlog path, the connector
    and server version of the FORMAT_DESCRIPTION in force, the FORMAT_DESCRIPTION timestamp of each
    file read (``created``: base name -> seconds, what tells a file from another of the same name),
    and the reading window (``start``: a ``(file_seq, pos)`` before which nothing is emitted)."""

    __slots__ = ("_files", "connector", "created", "filters", "server_version", "start")

    def __init__(self, filters: Filters, start: tuple[int, int] | None = None):
        self._files: dict[str, tuple[str, int]] = {}
        self.filters = filters
        self.start = start
        self.connector = "mysql"
        self.server_version = ""
        self.created: dict[str, int] = {}

    def file(self, path: str) -> tuple[str, int]:
        """(base name, file_seq) of a binlog path, computed once per file."""
        hit = self._files.get(path)
        if hit is None:
            hit = self._files[path] = (Path(path).name, file_seq(path))
        return hit

    def format(self, options: Options, server_version: str) -> None:
        """A FORMAT_DESCRIPTION is in force: the connector (by its dialect) and server version the
        records name."""
        self.connector = "mariadb" if options.dialect is Dialect.MARIADB else "mysql"
        self.server_version = server_version

    def source(self, ev, gtid: str | None, thread: int | None, query: str | None, row: int = 0, db=None,
               table=None, pos=None) -> Source:
        """The Source of ``ev`` (its row ``row``) in a transaction with that GTID, session thread and
        statement text."""
        origin = ev.origin
        header = ev.header
        if origin is None or origin.own:
            # (the fields in Source's order, positional: three Sources a transaction)
            name, seq = self.file(ev.file or "")
            return Source(self.connector, self.server_version, header.server_id, name, seq,
                          ev.pos if pos is None else pos, row, header.timestamp, gtid, db, table, thread, query)
        # a relay log: the source's binlog position (records.Source says why)
        relay_file, relay_pos = self.file(ev.file or "")[0], ev.pos
        name, seq = self.file(origin.file or "")
        ev_pos = origin.pos if origin.pos is not None else 0
        return Source(connector=self.connector, server_version=self.server_version,
                      server_id=header.server_id, file=name,
                      file_seq=seq, pos=ev_pos if pos is None else pos, row=row,
                      ts=header.timestamp, gtid=gtid, db=db, table=table, thread=thread,
                      query=query, relay_file=relay_file, relay_pos=relay_pos)

    def end_of(self, ev, gtid: str | None) -> BinlogPosition:
        """Where the transaction ``ev`` ends (its commit event) ends: where the next one starts, in
        the source's binlog for a relay log's event (whose header's ``next_pos`` is the source's,
        as the server copies it). Inside a TRANSACTION_PAYLOAD, ``ev.next_pos`` is the payload
        event's end: the same place."""
        origin = ev.origin
        name, seq = self.file((origin.file if origin is not None and not origin.own else ev.file) or "")
        return BinlogPosition(seq, ev.next_pos, name, gtid)

    def in_window(self, ev) -> bool:
        """Whether ``ev`` is inside the reading window (filters ``start_position`` and timestamps)."""
        if self.start is not None and (self.file(ev.file or "")[1], ev.pos) < self.start:
            return False
        return self.filters.ts_ok(ev.header.timestamp)


__all__ = ["Places"]
