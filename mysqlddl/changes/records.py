"""The records a ChangeReader yields, and the statistics of a run.

The protocol a consumer follows (a sink, the Spark job, a Python caller), one record at a time:

    TransactionMark   BEGIN before the first row of a transaction, END (with per-table counts) at
                      its commit; only with ``ChangeOptions.transactions``
    RowBatch          the rows of one rows event that were not changed by anything but the event
                      itself: the event's bytes with its resolved :class:`TableMapping`, decoded
                      only when asked (iterate it, or :meth:`RowBatch.changes`, for RowChanges;
                      a writer of text renders it straight from the bytes)
    RowChange         one row, for the rows that need a record of their own: rows of an XA
                      transaction (held from XA PREPARE to XA COMMIT), the delete/create pair of a
                      primary-key change with ``pk_change=SPLIT``, PARTIAL_UPDATE_ROWS images, and
                      the ``op="t"`` change of a TRUNCATE
    SchemaChange      a DDL recorded in the history
    Boundary          a transaction's end, after every record of it (emitted always, whatever
                      ``transactions`` says, also for a transaction that delivered nothing): what a
                      checkpoint needs. A writer of records ignores it; a pipeline commits there

A RowBatch stands for exactly the RowChanges its :meth:`~RowBatch.changes` gives (same sources,
transaction ids and orders), so a consumer that wants rows only calls
:func:`iter_changes` (or :meth:`ChangeReader.changes`) and never sees a batch. A batch's row count
is known from its bytes only after a walk over its rows: whoever walks them (a renderer, or
``changes()``) records it with :meth:`RowBatch.note_count`, and the reader, which needs it for the
transaction's counts when the consumer hands control back, walks the rows itself only when
nobody did.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import ClassVar

from ..binlog import rows as rows_mod
from ..binlog.events import RowsEvent, TableMapEvent
from ..errors import MysqlddlError
from ..history import HistoryRecord
from ..model.table import Table
from ..model.types import TypeFamily
from ..positions import BinlogPosition
from .values import mariadb_uuid_text, typed_value

F = TypeFamily

#: RowsEvent.kind -> Debezium op (every other kind is an update)
OPS = {"write": "c", "delete": "d"}


@dataclasses.dataclass(frozen=True, slots=True)
class Source:
    """Where a change came from (Debezium ``source``). ``file`` is the binlog's base name, ``pos``
    the event's start, ``row`` the row index inside the rows event; ``ts`` the event header's
    timestamp (seconds); ``gtid`` None without GTIDs; ``query`` the ROWS_QUERY / ANNOTATE_ROWS
    text when the log has one; ``thread`` the session's thread id when the log says: a DDL's own
    QUERY event; in a transaction, its BEGIN (MySQL) or XA START QUERY event, or the GTID event's
    thread id (MariaDB with FL_EXTRA_THREAD_ID, seen in 11.8). MariaDB 10.x writes no BEGIN QUERY
    event (its GTID event opens the transaction) and no thread id in the GTID event, so there the
    rows of an ordinary transaction have ``thread`` None: the log holds no thread for them.
    ``snapshot``: None for a change read from the log; for a row read by an initial snapshot
    (op ``r``, :mod:`mysqlddl.sources.server.snapshot`) "true", and "last" on the snapshot's last
    row, as Debezium's ``source.snapshot``; such a row's file/pos are the snapshot's position.

    Read from a replica's *relay log*, ``file``/``file_seq``/``pos`` are still the place in the
    *source's* binlog (what a replica's position means, and what the same change read from the
    source's own binlog says, so both give equal sources): the binlog the source's last ROTATE
    named ("" with ``file_seq`` -1 before one did) and the event's start there; ``relay_file`` /
    ``relay_pos`` then give the relay log's base name and the event's offset in it (both None
    when reading a binlog)."""

    connector: str
    server_version: str
    server_id: int
    file: str
    file_seq: int
    pos: int
    row: int
    ts: int
    gtid: str | None = None
    db: str | None = None
    table: str | None = None
    thread: int | None = None
    query: str | None = None
    snapshot: str | None = None
    relay_file: str | None = None
    relay_pos: int | None = None

    #: the kind of source (an OLR record's source is :class:`mysqlddl.olr.records.OracleSource`,
    #: kind "olr"): what a sink renders a record by
    kind: ClassVar[str] = "binlog"

    @property
    def key(self) -> tuple[int, int, int]:
        """The row ordering key (file_seq, pos, row)."""
        return (self.file_seq, self.pos, self.row)

    @property
    def qualified_name(self) -> str:
        """``db.table``, as ChangeStats and a pipeline's stats key a table."""
        return f"{self.db}.{self.table}"


class Naming(str, enum.Enum):
    SCHEMA = "schema"          # the table version in force (baseline + DDL)
    TABLE_MAP = "table_map"    # the TABLE_MAP's COLUMN_NAME metadata
    POSITIONAL = "positional"  # col_1..n: neither was available


@dataclasses.dataclass(frozen=True, slots=True)
class RowChange:
    """One row changed. ``op``: c (insert), u (update), d (delete), or t (a TRUNCATE of the table:
    ``before`` and ``after`` both None; only with ``truncate_events=True``). ``before``/``after``: column
    name -> typed value (None for SQL NULL; a column missing from a MINIMAL/NOBLOB image is left
    out, it is not NULL); ``before`` is None for c, ``after`` None for d. ``table_version``: the
    model Table the row was decoded with, None when decoded by the TABLE_MAP alone.
    ``mismatch``: the TABLE_MAP/schema disagreements when ``on_mismatch="flag"`` let the row
    through (then it was decoded by the TABLE_MAP alone), else ``()``. ``transaction``: the id of
    its transaction; ``total_order``/``table_order``: the row's 1-based rank in it, overall and
    among the rows of its table (Debezium's total_order / data_collection_order).
    ``headers``: with ``pk_change="split"``, an UPDATE that changed the primary key becomes a
    delete carrying ``{"__debezium.newkey": {...}}`` and a create carrying
    ``{"__debezium.oldkey": {...}}`` (the Kafka headers Debezium sets on that pair); else None.

    A row of OLR output (``source`` an :class:`~mysqlddl.olr.records.OracleSource`) also says
    ``typing``, where its column types came from (columns | history | none), and ``flags``, kind
    -> ("after.COL", ...) for the values OLR could not give whole (:mod:`mysqlddl.olr.reader`);
    both None on a binlog row (defaults: a binlog row is built per row and pays nothing for them)."""

    op: str
    source: Source
    before: dict | None
    after: dict | None
    columns: tuple[str, ...]
    naming: Naming
    table_version: Table | None = None
    mismatch: tuple[str, ...] = ()
    transaction: str | None = None
    total_order: int = 0
    table_order: int = 0
    headers: dict | None = None
    typing: str | None = None
    flags: Mapping[str, tuple[str, ...]] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SchemaChange:
    """A DDL recorded in the history: its text, default database, and the ``record`` (resulting
    table versions, None for dropped tables). ``position`` is where it took effect (the end of its
    QUERY event). ``kinds``: per ``record.tables`` entry, CREATE, ALTER or DROP (a rename is the
    DROP of the old name and the CREATE of the new one). ``end``: where the transaction the DDL is
    ends when that is not the history's position (OLR output: the
    :class:`~mysqlddl.positions.OlrResumePosition` just past the DDL message, while the history
    records it at the message's ``(c_scn, c_idx)``); None for a binlog DDL."""

    source: Source
    ddl: str
    database: str | None
    record: HistoryRecord
    kinds: tuple[str, ...] = ()
    end: object | None = None

    @property
    def position(self) -> BinlogPosition:
        """Where the next transaction starts (the position a checkpoint resumes from)."""
        return self.record.position if self.end is None else self.end


@dataclasses.dataclass(frozen=True, slots=True)
class TransactionMark:
    """Debezium transaction metadata: ``status`` BEGIN or END; ``counts`` (END only):
    ((``db.table``, events), ...) in first-seen order. ``end`` (END only, None on BEGIN): where
    the transaction ends, the end of its commit event (XID, or the QUERY of a COMMIT / XA COMMIT),
    i.e. where the next transaction starts, with the transaction's GTID: the position a
    checkpoint resumes from (``source.pos`` is the commit event's *start*)."""

    status: str
    id: str
    source: Source
    counts: tuple[tuple[str, int], ...] = ()
    end: BinlogPosition | None = None

    @property
    def event_count(self) -> int:
        return sum(n for _, n in self.counts)



@dataclasses.dataclass
class ChangeStats:
    """What a run saw: ``queries`` by :class:`QueryKind` value, ``ddl`` applied, ``ddl_errors``
    (skipped under a non-RAISE policy), ``rows`` per (``db.table``, op), transactions, XA outcomes
    (rows held at PREPARE then committed / rolled back / still pending at the end; ``xa_unseen``:
    a COMMIT or ROLLBACK of one prepared before the first event read, whose rows were not seen),
    ``ddl_unknown_tables`` (DDL left out, in part or whole, because it acts on tables the history
    never saw: created before the first file and not in the baseline), flagged
    TABLE_MAP mismatches, and the first/last event timestamps (seconds). ``snapshot``: the rows of
    an initial snapshot (op "r") per ``db.table``, counted apart from the binlog's DML (``dml_rows``)
    and shown as op ``r`` among the table's ``rows``. ``untyped``: the rows per ``db.table``
    emitted without a table definition (no baseline and no CREATE in the log: columns ``col_1..n``
    or the TABLE_MAP's names, values typed by the TABLE_MAP alone, ENUM/SET as numbers); rows let
    through a TABLE_MAP mismatch are counted in ``mismatches`` instead."""

    events: int = 0
    queries: Counter = dataclasses.field(default_factory=Counter)
    ddl: int = 0
    ddl_errors: int = 0
    ddl_before_baseline: int = 0
    ddl_unknown_tables: int = 0
    rows: Counter = dataclasses.field(default_factory=Counter)
    transactions: int = 0
    xa_committed: int = 0
    xa_rolled_back: int = 0
    xa_rows_discarded: int = 0
    xa_pending: int = 0
    xa_unseen: int = 0
    mismatches: int = 0
    truncates: Counter = dataclasses.field(default_factory=Counter)
    snapshot: Counter = dataclasses.field(default_factory=Counter)
    untyped: Counter = dataclasses.field(default_factory=Counter)
    first_ts: int | None = None
    last_ts: int | None = None

    def as_dict(self) -> dict:
        per_table: dict[str, dict[str, int]] = {}
        for (table, op), n in sorted(self.rows.items()):
            per_table.setdefault(table, {})[op] = n
        for table, n in sorted(self.snapshot.items()):
            per_table.setdefault(table, {})["r"] = n
        per_table = dict(sorted(per_table.items()))
        return {"events": self.events, "ddl": self.ddl, "ddl_errors": self.ddl_errors,
                "ddl_before_baseline": self.ddl_before_baseline,
                "ddl_unknown_tables": self.ddl_unknown_tables,
                "dml_rows": sum(self.rows.values()), "snapshot_rows": sum(self.snapshot.values()),
                "rows": per_table, "rows_without_schema": dict(sorted(self.untyped.items())),
                "queries": dict(sorted(self.queries.items())), "transactions": self.transactions,
                "xa": {"committed": self.xa_committed, "rolled_back": self.xa_rolled_back,
                       "rows_discarded": self.xa_rows_discarded, "pending": self.xa_pending,
                       "unseen": self.xa_unseen},
                "mismatches_flagged": self.mismatches, "truncates": dict(sorted(self.truncates.items())),
                "first_event_ts": self.first_ts,
                "last_event_ts": self.last_ts}



@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class TableMapping:
    """What a TABLE_MAP resolved to against the history (compared by identity: one per TABLE_MAP).

    ``table_map``: the event. ``plan``: the row decode plan (None when ``emit`` is False: the
    filters leave the table out). ``names``: the column names, by ``naming``. ``families``: per
    column, the TypeFamily whose values the schema retypes (JSON documents, INET4/INET6, UUID; see
    :func:`~mysqlddl.changes.values.typed_value`), else None. ``version``: the model Table the rows
    decode with, None when decoded by the TABLE_MAP alone. ``mismatch``: the disagreements let
    through by ``on_mismatch=FLAG``. ``pk``: the primary-key column names (schema naming only).
    ``uuid_swap_all``: see :func:`~mysqlddl.changes.values.mariadb_uuid_text`. ``retypes``: some
    value changes type (derived from ``families``)."""

    table_map: TableMapEvent
    plan: object
    names: tuple[str, ...]
    naming: Naming
    families: tuple
    version: Table | None
    emit: bool
    mismatch: tuple[str, ...] = ()
    pk: tuple[str, ...] = ()
    uuid_swap_all: bool = False
    retypes: bool = dataclasses.field(init=False, default=False)
    qualified_name: str = dataclasses.field(init=False, default="")     # db.table, as ChangeStats keys it

    def __post_init__(self) -> None:
        # (once per TABLE_MAP: without a generator)
        object.__setattr__(self, "retypes", self.families.count(None) != len(self.families))
        object.__setattr__(self, "qualified_name", f"{self.table_map.database}.{self.table_map.table}")

    def image(self, values) -> dict:
        """A decoded row tuple as column name -> value: columns absent from a MINIMAL/NOBLOB image
        left out, values the schema types better retyped."""
        absent = rows_mod.ABSENT
        if not self.retypes and absent not in values:
            return dict(zip(self.names, values, strict=True))      # the common case: nothing to do
        out = {}
        for name, fam, v in zip(self.names, self.families, values, strict=True):
            if v is absent:
                continue
            if v is not None and fam is not None:
                v = mariadb_uuid_text(v, self.uuid_swap_all) if fam is F.UUID else typed_value(fam, v)
            out[name] = v
        return out

    def images(self, op: str, row) -> tuple[dict | None, dict | None]:
        """(before, after) of a decoded row of a rows event with Debezium op ``op``."""
        if op == "u":
            return self.image(row[0]), self.image(row[1])
        if op == "c":
            return None, self.image(row)
        return self.image(row), None

    def decoding(self, ev: RowsEvent) -> _Decoding:
        """A context that positions a decoding error of ``ev``'s rows (file, log position, event
        type, table), as every walk over them does, so an error reads the same whoever walks."""
        return _Decoding(self, ev)

    def position_error(self, e: MysqlddlError, ev: RowsEvent) -> None:
        """Gives a decoding error of ``ev``'s rows its place (what :meth:`decoding` does)."""
        if hasattr(e, "with_context"):
            if ev.body_offset is None and getattr(e, "offset", None) is not None:
                e.offset = ev.pos
            e.with_context(file=ev.file, log_pos=ev.pos, event_type=ev.type_name, table=self.qualified_name)

    def decode(self, ev: RowsEvent) -> list:
        """``ev``'s rows as the decoder's tuples (``(before, after)`` pairs for an update)."""
        try:
            if ev.kind == "partial_update":
                return rows_mod.decode_partial_update_rows(self.plan, ev.body, ev.rows_start, ev.rows_end,
                                                           ev.present1, ev.present2, base=ev.body_offset or 0)
            return rows_mod.decode_rows(self.plan, ev.body, ev.rows_start, ev.rows_end, ev.present1,
                                        ev.present2, base=ev.body_offset or 0)
        except MysqlddlError as e:
            self.position_error(e, ev)
            raise


class _Decoding:
    """:meth:`TableMapping.decoding`'s context (a class, not a contextlib generator: it is entered
    once per rows event by every walker of rows, and a generator-based one cost more than a small
    event's decoding)."""

    __slots__ = ("event", "mapping")

    def __init__(self, mapping: TableMapping, event: RowsEvent):
        self.mapping = mapping
        self.event = event

    def __enter__(self) -> None:
        return None

    def __exit__(self, typ, e, tb) -> bool:
        if isinstance(e, MysqlddlError):
            self.mapping.position_error(e, self.event)
        return False    # (the error goes on, with its place)


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class RowBatch:
    """The rows of one rows event, not yet decoded. ``event``: the RowsEvent (its body bytes and
    row range); ``mapping``: its :class:`TableMapping`; ``op``: c, u or d; ``source``: the
    :class:`Source` of its first row (row ``i`` has ``row=i``, all else equal); ``transaction``:
    the transaction id; ``total0``/``table0``: the transaction's total and this table's row count
    before this batch (its row ``i`` has ``total_order = total0 + i + 1``,
    ``table_order = table0 + i + 1``). :attr:`count`: its number of rows (see the module
    docstring). Iterating a batch gives its RowChanges."""

    event: RowsEvent
    mapping: TableMapping
    op: str
    source: Source
    transaction: str
    total0: int
    table0: int
    known_count: int | None = dataclasses.field(default=None, repr=False)    # see count

    @property
    def count(self) -> int:
        """The number of rows (a walk over them the first time nobody noted it)."""
        n = self.known_count
        if n is None:
            n = len(self.mapping.decode(self.event))
            object.__setattr__(self, "known_count", n)
        return n

    @property
    def counted(self) -> bool:
        """Whether the count is known without a walk."""
        return self.known_count is not None

    def note_count(self, n: int) -> None:
        """Records the row count found by a walk over the rows (a renderer's)."""
        object.__setattr__(self, "known_count", n)

    def changes(self) -> Iterator[RowChange]:
        """The batch's rows as RowChanges, decoded now (each call decodes again)."""
        m, op, src0 = self.mapping, self.op, self.source
        rows = m.decode(self.event)
        object.__setattr__(self, "known_count", len(rows))
        images, replace = m.images, dataclasses.replace
        txn, total0, table0 = self.transaction, self.total0, self.table0
        for i, row in enumerate(rows):
            before, after = images(op, row)
            src = src0 if i == 0 else replace(src0, row=i)
            yield RowChange(op, src, before, after, m.names, m.naming, m.version, m.mismatch, txn,
                            total0 + i + 1, table0 + i + 1)

    __iter__ = changes


@dataclasses.dataclass(frozen=True, slots=True)
class Boundary:
    """A transaction's end (issue #31: the change reader is the one transaction state machine, and a
    pipeline only commits where it says). Emitted after every record of the transaction (its END
    mark, its SchemaChange and a TRUNCATE's ``op="t"`` changes), and also where a transaction ended
    that delivered nothing (``delivered`` False: all its tables filtered out, an XA ROLLBACK, a DDL
    on a filtered table), so a checkpoint can move past a long filtered stretch.

    ``position``: where the next transaction starts (a BinlogPosition carrying the transaction's
    GTID, or an OLR position); ``gtid_set``: the GTID set executed up to here as text ("" without
    GTIDs); ``history_version``: how many schema-history records are in force here; ``ts``: the
    ending event's timestamp (seconds); ``ddl``: the transaction was a DDL; ``checkpointable``:
    False where a checkpoint would lose held rows whose start cannot be read again (an XA transaction
    prepared in a relay log); ``state``: what a restart needs besides the position (``{"xa_replay":
    {...}}`` for XA transactions prepared and open here: where to read again from; an OLR reader's
    column types), None when nothing."""

    position: object
    gtid_set: str = ""
    history_version: int = 0
    ts: int = 0
    ddl: bool = False
    delivered: bool = True
    checkpointable: bool = True
    state: dict | None = None


Change = RowChange | SchemaChange | TransactionMark
Record = RowBatch | RowChange | SchemaChange | TransactionMark | Boundary


def iter_changes(records: Iterable[Record]) -> Iterator[Change]:
    """The records with every RowBatch replaced by its RowChanges, and without the Boundaries (a
    Boundary is not a change: it says where a checkpoint may fall)."""
    for rec in records:
        t = type(rec)
        if t is RowBatch:
            yield from rec.changes()
        elif t is not Boundary:
            yield rec


__all__ = ["OPS", "Boundary", "Change", "ChangeStats", "Naming", "Record", "RowBatch", "RowChange", "SchemaChange",
           "Source", "TableMapping", "TransactionMark", "iter_changes"]
