"""Where a server stream resumes after a lost connection (:class:`ResumePoint`): at a transaction
boundary, never repeating or skipping an event. The stream (:mod:`.stream`) gives it each event it
yields; it keeps the start of the open transaction (its GTID event, or BEGIN), or the next event's
position between transactions, over the event sequences each server writes (MySQL: GTID, BEGIN,
rows, XID; GTID then a DDL; pre-GTID BEGIN ... COMMIT; rows of a non-transactional table without
BEGIN; MariaDB: a GTID standing for BEGIN, a standalone GTID + DDL)."""

from __future__ import annotations

from ...binlog.events import Event, MariadbGtidEvent, QueryEvent, RowsEvent, TableMapEvent

#: Transaction starts: MySQL GTID_LOG_EVENT, ANONYMOUS_GTID_LOG_EVENT, GTID_TAGGED_LOG_EVENT
#: (libs/mysql/binlog/event/binlog_event.h); MariaDB's GTID (162) is handled apart (its flags say
#: whether a BEGIN is implied).
_GTID_TYPES = frozenset((33, 34, 42))
#: Transaction ends: XID_EVENT (16), XA_PREPARE_LOG_EVENT (38).
_END_TYPES = frozenset((16, 38))
#: sql/log_event.h FL_STANDALONE: a MariaDB GTID whose group is one statement without BEGIN/COMMIT.
_FL_STANDALONE = 1
#: rows_event.h STMT_END_F: the last rows event of a statement.
_STMT_END_F = 1


def _end_query(q: str) -> bool:
    head = q.lstrip()[:12].upper()
    return head.startswith(("COMMIT", "ROLLBACK", "XA COMMIT", "XA ROLLBACK"))


def _begin_query(q: str) -> bool:
    head = q.lstrip()[:8].upper()
    return head.startswith(("BEGIN", "XA START", "XA BEGIN"))


class ResumePoint:
    """Where a lost dump resumes: ``resume``, the start of the open transaction (``(file, pos)``),
    or the next event's position outside one; ``txn`` the kind of the open group (None, ``gtid``,
    ``begin``, ``rows``); ``maps`` the last TABLE_MAP yielded for each table_id since the resume
    point (by table_id, not by position, so a transaction of a million statements, a TABLE_MAP
    each, keeps one per table); ``gtid_dump``: the dump was started from a GTID and has sent no
    transaction yet (its positions then say nothing: the sender starts at the file's start and
    skips, unsent, what the GTID start has)."""

    __slots__ = ("gtid_dump", "maps", "resume", "txn")

    def __init__(self):
        self.txn: str | None = None
        self.resume: tuple[str, int] | None = None
        self.maps: dict[int, TableMapEvent] = {}
        self.gtid_dump = False

    def track(self, ev: Event, t: int, file: str, pos: int, size: int, next_pos: int) -> None:
        """Note the event ``ev`` (type ``t``) at ``file``:``pos`` of ``size`` bytes, the dump's next
        position being ``next_pos`` (a resent FDE leaves it at the dump's start)."""
        here = (file, pos)
        opened = self.txn
        if t in _GTID_TYPES:
            self._open(here, "gtid")
        elif isinstance(ev, MariadbGtidEvent):
            self._open(here, "gtid" if ev.flags2 & _FL_STANDALONE else "begin")
        elif isinstance(ev, QueryEvent):
            q = ev.query
            if _begin_query(q):
                self._open(here, "begin")
            elif opened is None or opened == "gtid" or _end_query(q):
                self._close(here, size)
        elif t in _END_TYPES:
            self._close(here, size)
        elif isinstance(ev, TableMapEvent) and opened is None:
            self._open(here, "rows")
        elif isinstance(ev, RowsEvent) and opened == "rows" and ev.flags & _STMT_END_F:
            self._close(here, size)
        elif opened is None and not self.gtid_dump:
            # between transactions: resume at the next event. Not in a GTID dump before its first
            # transaction: a file position there would send the transactions the GTID start
            # skipped again; a reconnection starts from the GTID again
            self.resume = (file, next_pos)
            self.maps.clear()

    def _open(self, here, kind: str) -> None:
        self.gtid_dump = False              # (a transaction sent: positions are the dump's from here)
        if self.txn is None:
            self.resume = here
            self.maps.clear()
        self.txn = kind

    def _close(self, here, size: int) -> None:
        self.maps.clear()
        self.txn = None
        self.resume = (here[0], here[1] + size)


__all__ = ["ResumePoint"]
