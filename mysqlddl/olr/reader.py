"""The join for Oracle: OLR messages + the schema history -> row changes, schema changes, transactions.

One pass over the messages of the files (or of an :class:`~mysqlddl.olr.source.OlrSource`), in
order, giving the change records of :mod:`mysqlddl.changes.records` with an
:class:`~mysqlddl.olr.records.OracleSource` as their ``source``::

    begin / commit   transaction BEGIN / END (END counts the rows per table; its ``end`` is the
                     :class:`~mysqlddl.positions.OlrResumePosition` just past the message). OLR
                     writes committed transactions only, in commit order; a rolled-back one never
                     appears
    c / u / d        values converted by column type (:mod:`mysqlddl.olr.values`), types from, in
                     order: the message's ``schema.columns`` (OLR sends them once per table with
                     ``format.schema`` 0x0001, so the last ones seen for a table are kept until a
                     DDL on it); the table version in the schema history at the message's
                     place in the output; else none (values as the JSON gave them, flagged)
    ddl              the ``sql`` text parsed with our Oracle grammar (``Options.dialect`` oracle)
                     under the owner as default schema, and recorded in the history at the
                     message's ``(c_scn, c_idx)`` (:class:`~mysqlddl.positions.OlrPosition`)

Rows are typed by the table version in force at their place in the output, not by looking their
``(c_scn, c_idx)`` up in the history: OLR writes transactions in commit order and ``c_scn`` is
where a transaction's redo *starts*, so a transaction that began before a DDL and committed after
it carries a smaller ``c_scn`` than the DDL although its rows follow it (see
:class:`~mysqlddl.positions.OlrPosition`). A given ``history`` is the state before the first message.
    chkpt            counted (OLR's checkpoint records carry no change)

After the last record of a message that ended a transaction (a ``commit``, or a ``ddl`` outside
a transaction) comes a :class:`~mysqlddl.changes.records.Boundary` (always, whatever
``transactions`` says): its ``position`` the OlrResumePosition past the message (a message may
carry several payloads, and a restart reads on after the whole message), ``state`` the column
types a reader resuming there needs (:meth:`OlrReader.columns_state`, as ``{"olr_columns": ...}``).

Strict by default: the first bad document, message, value or DDL raises its positioned error
(:class:`~mysqlddl.errors.OlrError`, or the :class:`~mysqlddl.errors.DdlError` with
``source`` = ``file:line``). ``Options.error_policy`` SKIP/WARN/COLLECT reads leniently: a bad document
or message is skipped, a bad value kept as given and flagged ``unconverted``, a failing DDL
skipped; each is counted in :class:`OlrStats` and kept in :attr:`OlrReader.errors` (WARN also warns).
"""

from __future__ import annotations

import dataclasses
import datetime
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from ..changes.records import Boundary, Naming, Record, RowChange, SchemaChange, TransactionMark
from ..commands import UseDatabase
from ..errors import DdlError, DdlSemanticError, MysqlddlError, OlrError, OlrMessageError, OlrValueError
from ..history import SchemaHistory
from ..model.catalog import Catalog
from ..model.ids import TableId
from ..options import DEFAULT, Dialect, ErrorPolicy, Options
from ..positions import OlrPosition, OlrResumePosition
from .documents import Document, file_number, iter_documents
from .messages import DML_OPS, Message, Payload, parse_message
from .records import OracleSource
from .source import OlrSource
from .values import LOSSY, UNKNOWN, Kind, ValueContext, column_kind, convert, iso_datetime, type_kind

_MS_DIV = {"s": (1000, 1), "ms": (1, 1), "us": (1, 1000), "ns": (1, 1_000_000)}


@dataclasses.dataclass
class OlrStats:
    """What a run saw: documents read and skipped, ``ops`` per payload op, ``rows`` per
    (``OWNER.TABLE``, op), transactions ended, DDL applied / skipped / changing nothing / recorded
    at the last record's key because its own ``(c_scn, c_idx)`` was behind it,
    values flagged per kind (``unknown``, ``lossy``, ``untyped``, ``unconverted``), rows per
    typing source, transactions still open at the end, and the first/last commit times (ms)."""

    documents: int = 0
    skipped: int = 0
    ops: Counter = dataclasses.field(default_factory=Counter)
    rows: Counter = dataclasses.field(default_factory=Counter)
    transactions: int = 0
    ddl: int = 0
    ddl_errors: int = 0
    ddl_no_change: int = 0
    ddl_reordered: int = 0
    flagged: Counter = dataclasses.field(default_factory=Counter)
    typing: Counter = dataclasses.field(default_factory=Counter)
    first_ts_ms: int | None = None
    last_ts_ms: int | None = None
    open_transactions: int = 0

    def as_dict(self) -> dict:
        per_table: dict[str, dict[str, int]] = {}
        for (table, op), n in sorted(self.rows.items()):
            per_table.setdefault(table, {})[op] = n
        return {"documents": self.documents, "skipped": self.skipped, "ops": dict(sorted(self.ops.items())),
                "dml_rows": sum(self.rows.values()), "rows": per_table, "transactions": self.transactions,
                "ddl": self.ddl, "ddl_errors": self.ddl_errors, "ddl_no_change": self.ddl_no_change,
                "ddl_reordered": self.ddl_reordered,
                "flagged_values": dict(sorted(self.flagged.items())),
                "typing": dict(sorted(self.typing.items())),
                "open_transactions": self.open_transactions,
                "first_ts_ms": self.first_ts_ms, "last_ts_ms": self.last_ts_ms}


@dataclasses.dataclass
class _Txn:
    id: str
    scn: int | None
    ts_ms: int | None
    counts: dict[str, int] = dataclasses.field(default_factory=dict)
    total: int = 0


DdlParser = Callable[[str, Options, str], Sequence]


def _oracle_commands(sql: str, options: Options, source: str):
    # lazy: the generated Oracle parser (0.1-0.7 s to load, ANTLR-NOTES.md) only when a file carries DDL
    from ..ddl import parse_ddl

    return parse_ddl(sql, options=options, source=source)


class OlrReader:
    """Iterate the changes of OLR output files.

    ``files``: paths, read in order. ``options``: ``olr_time_unit`` / ``olr_tm_unit`` say how
    temporal values and ``tm`` are printed; ``error_policy`` strict or lenient (module docstring);
    the DDL is parsed with ``dialect`` forced to oracle. ``history``: a schema history to continue
    (else a new one, from ``baseline``: Oracle DDL text applied with ``baseline_owner`` as the
    default schema, in force before the first message). ``transactions`` / ``schema_changes``: emit
    BEGIN/END and schema-change events. ``ddl_parser(sql, options, source) -> commands`` replaces
    the Oracle grammar (tests; another dialect's DDL). ``files`` may be an
    :class:`~mysqlddl.olr.source.OlrSource` instead (a pipeline's: a directory, followed as OLR
    writes it), read from ``start``, an :class:`~mysqlddl.positions.OlrResumePosition` (None: from
    the beginning; a document that is not JSON is then skipped or not by the source's own
    ``error_policy``); with files, ``start`` is the byte offset in the first one to begin at.
    ``columns``: :meth:`columns_state`'s data to resume with (a ValueError when it is not that).
    """

    def __init__(self, files: str | Path | Iterable[str | Path] | OlrSource, options: Options = DEFAULT, *,
                 history: SchemaHistory | None = None, baseline: str | None = None,
                 baseline_owner: str | None = None, name: str = "mysqlddl", transactions: bool = True,
                 schema_changes: bool = True, ddl_parser: DdlParser | None = None,
                 start: int | OlrResumePosition | None = None, columns: list | None = None):
        self.source = files if isinstance(files, OlrSource) else None
        self.files = [] if self.source is not None else [files] if isinstance(files, (str, Path)) else list(files)
        self.start = start
        self.options = options
        self.ddl_options = options if options.dialect is Dialect.ORACLE else options.replace(dialect=Dialect.ORACLE)
        self.strict = options.error_policy is ErrorPolicy.RAISE
        self.ctx = ValueContext(options.olr_time_unit)
        self.tm_unit = options.olr_tm_unit or options.olr_time_unit
        self.name = name
        self.transactions = transactions
        self.schema_changes = schema_changes
        self.ddl_parser = ddl_parser or _oracle_commands
        self.stats = OlrStats()
        self.errors: list[MysqlddlError] = []
        if history is None:
            history = SchemaHistory(self.ddl_options, baseline=self._baseline(baseline, baseline_owner))
        self.history = history
        self._txns: dict[str, _Txn] = {}
        self._columns: dict[tuple[str | None, str], dict[str, Kind]] = {}
        if columns:
            self.restore_columns(columns)
        self._version_kinds: dict[int, tuple[object, dict[str, Kind]]] = {}
        self._last = (0, 0)
        self._in_txn = False            # the last begin/commit read was a begin (a transaction is open)
        self._state: dict | None = None     # the Boundary state for the columns now (None: to build)

    def _baseline(self, sql: str | None, owner: str | None) -> Catalog | None:
        if sql is None:
            return None
        opts = self.ddl_options
        catalog = Catalog.empty(opts)
        if owner:
            catalog = UseDatabase(owner).apply(catalog, opts)
        commands = self.ddl_parser(sql, opts, "baseline")
        for cmd in commands:
            catalog = cmd.apply(catalog, opts)
        return dataclasses.replace(catalog, changed=())

    # ------------------------------------------------------------------------- resuming
    def columns_state(self) -> list:
        """The column types OLR sent with ``schema.columns`` and that are still in force, as JSON
        data: ``[[owner, table, {column: kind}], ...]``. OLR sends them once per table (and again
        after a DDL on it), so a reader resuming in the middle of the output needs them
        (``columns=``) to type rows as a reader that read from the start does."""
        return [[owner, table, {c: k.value for c, k in kinds.items()}]
                for (owner, table), kinds in self._columns.items()]

    def _boundary_state(self) -> dict:
        """``{"olr_columns": columns_state()}``, built once for as long as the columns stay the same
        (a Boundary per transaction must not cost a walk over every table's columns). Shared by the
        Boundaries that carry it: not to be changed."""
        state = self._state
        if state is None:
            state = self._state = {"olr_columns": self.columns_state()}
        return state

    def restore_columns(self, state: list) -> None:
        """Take :meth:`columns_state`'s data back (a ValueError when it is not that)."""
        self._state = None
        try:
            for owner, table, kinds in state:
                self._columns[(owner, str(table))] = {str(c): Kind(k) for c, k in kinds.items()}
        except (TypeError, AttributeError) as e:
            raise ValueError(f"not a column state: {e}") from None

    # ------------------------------------------------------------------------------ driving
    def _streams(self):
        """The documents to read, stream by stream (a file each, or the source's), each with the
        list its JSON errors go to."""
        if self.source is not None:
            yield self.source.events(self.start), self.source.errors
            return
        for n, path in enumerate(self.files):
            errors = []
            start = (self.start or 0) if n == 0 else 0
            yield iter_documents(path, lenient=not self.strict, errors=errors, start=start), errors

    def __iter__(self) -> Iterator[Record]:
        for docs, json_errors in self._streams():
            for doc in docs:
                self._drain(json_errors)
                self.stats.documents += 1
                try:
                    msg = parse_message(doc.value)
                except OlrMessageError as e:
                    self._fail(e.with_context(file=doc.file, line=doc.line, offset=doc.offset,
                                              document=doc.index))
                    continue
                yield from self._message(msg, doc)
            self._drain(json_errors)
        # begun and never committed in these files (the output was cut, or starts mid-transaction)
        self.stats.open_transactions = len(self._txns)

    def _drain(self, errs: list[OlrError]) -> None:
        for e in errs:
            self._fail(e)
        errs.clear()

    def _fail(self, e: MysqlddlError) -> None:
        """Strict: raise. Lenient: count and keep it (WARN: also warn)."""
        if self.strict:
            raise e
        self.stats.skipped += 1
        self.errors.append(e)
        if self.options.error_policy is ErrorPolicy.WARN:
            warnings.warn(str(e), stacklevel=3)

    def _ts_ms(self, tm, doc: Document) -> int | None:
        if tm is None:
            return None
        try:
            if isinstance(tm, str) and ("-" in tm[1:] or ":" in tm):
                dt, _ = iso_datetime(tm)
                return _epoch_ms(dt)
            n = int(tm)
        except ValueError:
            raise OlrMessageError(f"tm is not a timestamp: {tm!r}", file=doc.file, line=doc.line,
                                  offset=doc.offset, document=doc.index, field="tm") from None
        mul, div = _MS_DIV[self.tm_unit]
        return n * mul // div

    def _message(self, msg: Message, doc: Document) -> Iterator[Record]:
        if msg.c_scn is not None and msg.c_idx is not None:
            key = (msg.c_scn, msg.c_idx)
        else:   # output without checkpoint fields (old OLR, doc examples): keep the order
            key = (msg.c_scn if msg.c_scn is not None else self._last[0], self._last[1] + 1)
        self._last = key
        pos = OlrPosition(key[0], key[1], Path(doc.file).name, msg.scn)
        try:
            ts_ms = self._ts_ms(msg.tm, doc)
        except OlrMessageError as e:
            self._fail(e)
            return
        txn = self._txns.get(msg.xid) if msg.xid is not None else None
        if txn is not None:
            if ts_ms is None:
                ts_ms = txn.ts_ms
            elif txn.ts_ms is None:
                txn.ts_ms = ts_ms
            if txn.scn is None:
                txn.scn = msg.scn
        scn = msg.scn if msg.scn is not None else (txn.scn if txn is not None else None)
        if ts_ms is not None:
            if self.stats.first_ts_ms is None:
                self.stats.first_ts_ms = ts_ms
            self.stats.last_ts_ms = ts_ms
        end = None              # the message ended a transaction: (its resume position, a DDL)
        for i, pl in enumerate(msg.payload):
            self.stats.ops[pl.op] += 1
            src = OracleSource(doc.file, doc.line, doc.offset, i, scn, key[0], key[1], msg.xid, ts_ms, msg.db,
                               pl.owner, pl.table, pl.rid, doc.end)
            where = dict(file=doc.file, line=doc.line, offset=doc.offset, document=doc.index, payload=i)
            if pl.op == "begin":
                if msg.xid is not None:
                    txn = self._txns[msg.xid] = _Txn(msg.xid, scn, ts_ms)
                    self._in_txn = True
                if self.transactions and msg.xid is not None:
                    yield TransactionMark("BEGIN", msg.xid, src)
            elif pl.op == "commit":
                if msg.xid is not None:
                    done = self._txns.pop(msg.xid, None)
                    self.stats.transactions += 1
                    self._in_txn = False
                    end = (_resume(src), False)
                    if self.transactions:
                        counts = tuple(done.counts.items()) if done is not None else ()
                        yield TransactionMark("END", msg.xid, src, counts, end[0])
            elif pl.op in DML_OPS:
                if msg.xid is not None and txn is None:
                    # no begin message (``message`` 0x0004 skips it): the first row opens the transaction
                    txn = self._txns[msg.xid] = _Txn(msg.xid, scn, ts_ms)
                    self._in_txn = True
                    if self.transactions:
                        yield TransactionMark("BEGIN", msg.xid, src)
                try:
                    change = self._row(pl, src, pos, txn, where)
                except OlrValueError as e:
                    self._fail(e)
                    continue
                yield change
            elif pl.op == "ddl":
                if (yield from self._ddl(pl, src, pos, where)) and not self._in_txn:
                    end = (_resume(src), True)
            # chkpt: counted in ops, nothing to emit
        if end is not None and not self._in_txn:
            # (after every record of the message: a restart reads on after the whole message)
            yield Boundary(end[0], "", len(self.history.records), (ts_ms or 0) // 1000, end[1],
                           state=self._boundary_state())

    # ---------------------------------------------------------------------------------- rows
    def _kinds(self, pl: Payload, pos: OlrPosition) -> tuple[dict[str, Kind] | None, str, object]:
        tkey = (pl.owner, pl.table or "")
        if pl.columns is not None:
            kinds = {c.name.upper(): type_kind(c.type) for c in pl.columns}
            self._columns[tkey] = kinds
            self._state = None
            return kinds, "columns", None
        kinds = self._columns.get(tkey)
        if kinds is not None:
            return kinds, "columns", None
        version = self._table_now(pl.owner, pl.table or "")
        if version is None:
            return None, "none", None
        hit = self._version_kinds.get(id(version))
        if hit is None or hit[0] is not version:
            hit = self._version_kinds[id(version)] = (version, {c.name.upper(): column_kind(c)
                                                               for c in version.columns})
        return hit[1], "history", version

    def _table_now(self, owner: str | None, table: str):
        """The table version in force now (after every DDL read so far), or None."""
        cat = self.history.catalog
        t = cat.table(TableId(owner, table))
        if t is not None:
            return t
        # Oracle folds unquoted names to upper case; a table named by DDL in another case is the
        # same table when only one matches
        want = (owner or "").upper(), table.upper()
        cands = [t for t in cat.tables.values() if ((t.id.database or "").upper(), t.id.name.upper()) == want]
        return cands[0] if len(cands) == 1 else None

    def _row(self, pl: Payload, src: OracleSource, pos: OlrPosition, txn: _Txn | None, where: dict
             ) -> RowChange:
        kinds, typing, version = self._kinds(pl, pos)
        flags: dict[str, list[str]] = {"unknown": [], "lossy": [], "untyped": [], "unconverted": []}
        images = []
        for side in ("before", "after"):
            img = getattr(pl, side)
            if img is None:
                images.append(None)
                continue
            out = {}
            for col, v in img.items():
                kind = kinds.get(col.upper()) if kinds is not None else None
                if kind is None or kind is Kind.UNTYPED:
                    flags["untyped"].append(f"{side}.{col}")
                    kind = Kind.UNTYPED
                try:
                    value, note = convert(kind, v, self.ctx)
                except ValueError as e:
                    if self.strict:
                        raise OlrValueError(str(e), field=col, **where) from None
                    self.errors.append(OlrValueError(str(e), field=col, **where))
                    flags["unconverted"].append(f"{side}.{col}")
                    value, note = v, None
                if value is UNKNOWN:
                    flags["unknown"].append(f"{side}.{col}")
                elif note == LOSSY:
                    flags["lossy"].append(f"{side}.{col}")
                out[col] = value
            images.append(out)
        table = f"{pl.owner}.{pl.table}" if pl.owner else pl.table
        self.stats.rows[(table, pl.op)] += 1
        self.stats.typing[typing] += 1
        for k, cols in flags.items():
            if cols:
                self.stats.flagged[k] += len(cols)
        total = order = 0
        if txn is not None:
            txn.total += 1
            txn.counts[table] = txn.counts.get(table, 0) + 1
            total, order = txn.total, txn.counts[table]
        # (the column names are OLR's, from the database's dictionary: the schema's names)
        return RowChange(pl.op, src, images[0], images[1], (), Naming.SCHEMA, version, (),
                         txn.id if txn is not None else None, total, order, None, typing,
                         {k: tuple(v) for k, v in flags.items() if v})

    # ----------------------------------------------------------------------------------- DDL
    def _ddl(self, pl: Payload, src: OracleSource, pos: OlrPosition, where: dict):
        """The DDL of a message into the history (its SchemaChange yielded when ``schema_changes``);
        returns whether it was recorded (the message then ends a transaction)."""
        label = f"{where['file']}:{where['line']}"
        opts = self.ddl_options
        try:
            commands = list(self.ddl_parser(pl.sql, opts, label))
            if not commands:
                self.stats.ddl_no_change += 1
                return False
            before = self.history.catalog
            last = self.history.last_position
            if last is not None and pos < last:
                pos = OlrPosition(last.c_scn, last.c_idx, pos.file, pos.scn)
                self.stats.ddl_reordered += 1
            rec = self.history.record(pos, pl.owner, pl.sql, commands, options=opts)
        except DdlError as e:
            # where in the OLR output, and the history's own label (the position) when it set one
            e.source = label if e.source in (None, label) else f"{label}, {e.source}"
            self.stats.ddl_errors += 1
            self._fail(e)
            return False
        self.stats.ddl += 1
        for msg in rec.errors:     # commands the history skipped under a lenient error policy
            self.stats.ddl_errors += 1
            self._fail(DdlSemanticError(msg, source=f"{label}, {pos}"))
        for tid, _ in rec.tables:
            for key in list(self._columns):
                if (key[0] or "").upper() == (tid.database or "").upper() and key[1].upper() == tid.name.upper():
                    del self._columns[key]
        if pl.table is not None:
            self._columns.pop((pl.owner, pl.table), None)
        self._state = None
        if self.schema_changes:
            kinds = tuple("DROP" if t is None else "CREATE" if before.table(tid) is None else "ALTER"
                          for tid, t in rec.tables)
            yield SchemaChange(src, pl.sql, pl.owner, rec, kinds, _resume(src))
        return True


def _epoch_ms(dt) -> int:
    if dt.tzinfo is not None:
        dt = dt.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    delta = dt - datetime.datetime(1970, 1, 1)
    return (delta.days * 86_400_000_000 + delta.seconds * 1_000_000 + delta.microseconds) // 1000


def _resume(src: OracleSource) -> OlrResumePosition:
    """Where a reader resumes after the message a record came from."""
    return OlrResumePosition(src.c_scn if src.c_scn is not None else 0, src.c_idx if src.c_idx is not None else 0,
                             Path(src.file).name, src.scn, file_number(src.file), src.end, src.offset, src.xid)


def read_olr(files, **kw) -> Iterator[Record]:
    """Shorthand for ``iter(OlrReader(files, **kw))``."""
    return iter(OlrReader(files, **kw))


__all__ = ["OlrReader", "OlrStats", "read_olr"]
