"""Splitting a binlog set for parallel decoding: a per-file pre-scan, the history built from what
the pre-scans found, and byte ranges cut at transaction boundaries (pure Python; the Spark job in
:mod:`mysqlddl.spark.job` runs these functions in executors and in its driver).

Why this is sound (ARCHITECTURE.md, "Key decisions": Spark; "Binlog facts"):

- The history needs only the DDL: QUERY events (with their GTID) in position order. A pre-scan
  decodes FDE, QUERY, GTID, XID and XA_PREPARE bodies and skips every other event by the size in
  its header (:class:`~mysqlddl.binlog.reader.BinlogReader` ``only_types``, ``verify_skipped=False``:
  it seeks past their bodies), so it reads little more than the headers of a log made of rows.
- A range decoder needs nothing from before its start but the history and the file's FDE
  (checksum algorithm, post-header lengths; the reader reads it first, wherever it starts):
  every TABLE_MAP precedes its rows inside the same transaction (sql/log_event.h: a statement's
  table maps are written before its rows events, ``THD::binlog_write_table_map``), and a
  transaction never spans binlog files. So a range may start where a transaction starts.
- A transaction starts at its GTID event (``Gtid_log_event`` / MariaDB ``Gtid_log_event``, written
  first in every group); in a log without GTID events (MySQL <= 5.6), right after the previous
  group's XID / COMMIT / ROLLBACK or a DDL outside a transaction.
- XA: rows are logged at XA PREPARE (XA_PREPARE_LOG_EVENT) and only surface at the XA COMMIT that
  may come many transactions (or files) later, so no cut is made while a prepared XA transaction
  is unresolved: the range holding the PREPARE also holds its COMMIT / ROLLBACK.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..binlog.events import (
    FormatDescriptionEvent,
    GtidEvent,
    MariadbGtidEvent,
    QueryEvent,
    XaPrepareEvent,
    XidEvent,
)
from ..binlog.files import resolve_sources
from ..binlog.reader import BinlogReader
from ..changes import ChangeOptions, ChangeReader, ChangeStats, QueryKind, classify_query, parse_xid
from ..changes.reader import options_for
from ..errors import ConfigError, CorruptEventError
from ..history import SchemaHistory
from ..options import DEFAULT, Options
from ..positions import file_seq
from ..sources import ReplaySource, SourceOptions, open_source

#: What a pre-scan decodes (FORMAT_DESCRIPTION is always decoded): the DDL and its GTID, and
#: the events that end a transaction. Everything else is skipped by the size in its header.
PRESCAN_TYPES = ("QUERY", "MARIADB_QUERY_COMPRESSED", "GTID", "GTID_TAGGED", "ANONYMOUS_GTID",
                 "MARIADB_GTID", "XID", "XA_PREPARE")

# kinds of FileScan.marks
CUT, XA_OPEN, XA_CLOSE = 0, 1, 2

MIB = 1 << 20
DEFAULT_RANGE_SIZE = 64 * MIB


@dataclasses.dataclass(frozen=True, slots=True)
class FileScan:
    """What the pre-scan of one file found. ``ddl``: the QUERY events that may change the schema
    (:func:`~mysqlddl.changes.classify_query` kind DDL), each preceded by its GTID event when that
    is the event right before it, in file order. ``marks``: (offset, kind, xid) in file order,
    kind :data:`CUT` (a transaction may start here), :data:`XA_OPEN` (an XA PREPARE; xid as
    ChangeReader keys it) or :data:`XA_CLOSE` (its XA COMMIT / ROLLBACK). ``events``: events
    seen (decoded or skipped)."""

    path: str
    file_seq: int
    size: int
    fde: FormatDescriptionEvent
    ddl: tuple
    marks: tuple
    events: int


def prescan(path: str, options: Options = DEFAULT, *, min_gap: int = 0) -> FileScan:
    """Pre-scan one binlog file (see the module docstring). ``min_gap``: keep a CUT mark only
    when it is at least that many bytes after the last one kept (the driver needs a few cut
    points per range, not one per transaction: a log of a million one-row transactions would
    otherwise send a million marks to it). XA marks are all kept."""
    # Skipped bodies are not even read (verify_skipped=False): stage 2 decodes, and so verifies,
    # every byte of the file, as the ranges cover it all.
    reader = BinlogReader(path, options=options, only_types=PRESCAN_TYPES, verify_skipped=False)
    fde = None
    ddl: list = []
    gtid_cuts: list[int] = []          # starts of GTID events outside any open transaction
    end_cuts: list[int] = []           # ends of transactions (used when the file has no GTIDs)
    xa: list[tuple] = []
    has_gtids = False
    in_txn = False
    prev = None                        # the previous decoded event
    lexing = options                   # what the reader classifies its queries with (options_for)
    for ev in reader:
        if isinstance(ev, FormatDescriptionEvent):
            fde = ev
            lexing = options_for(options, ev)
        elif isinstance(ev, (GtidEvent, MariadbGtidEvent)):
            has_gtids = True
            if not in_txn:
                gtid_cuts.append(ev.pos)
            # MariaDB: a non-standalone GTID opens the group (no BEGIN query follows it);
            # MySQL: the BEGIN query does, or the GTID is a DDL's
            in_txn = isinstance(ev, MariadbGtidEvent) and not ev.standalone
        elif isinstance(ev, XidEvent):
            in_txn = False
            end_cuts.append(ev.next_pos)
        elif isinstance(ev, XaPrepareEvent):
            in_txn = False
            if not ev.one_phase:
                xa.append((ev.pos, XA_OPEN, (ev.format_id, bytes(ev.gtrid), bytes(ev.bqual))))
            end_cuts.append(ev.next_pos)
        elif isinstance(ev, QueryEvent):
            kind = classify_query(ev.query, lexing)
            if kind is QueryKind.BEGIN:
                in_txn = True
            elif kind in (QueryKind.COMMIT, QueryKind.ROLLBACK):
                in_txn = False
                end_cuts.append(ev.next_pos)
            elif kind is QueryKind.XA:
                words = ev.query.split(None, 2)
                verb = words[1].upper() if len(words) > 1 else ""
                if verb == "START":
                    in_txn = True
                elif verb in ("COMMIT", "ROLLBACK"):
                    in_txn = False
                    key = parse_xid(ev.query)
                    if key is not None:
                        xa.append((ev.next_pos, XA_CLOSE, key))
                    end_cuts.append(ev.next_pos)
            elif kind is QueryKind.DDL:
                if isinstance(prev, (GtidEvent, MariadbGtidEvent)) and prev.next_pos == ev.pos:
                    ddl.append(prev)
                ddl.append(ev)
                if not in_txn:
                    end_cuts.append(ev.next_pos)
        prev = ev
    if fde is None:
        raise CorruptEventError("the file has no FORMAT_DESCRIPTION event", file=str(path), offset=4)
    size = os.path.getsize(path)
    cuts = gtid_cuts if has_gtids else end_cuts
    if str(path).endswith(".gz"):
        cuts = []              # offsets are into the decompressed stream: no seeking inside it
    kept, last = [], 0
    for c in sorted(set(cuts)):
        if 4 < c < size and c - last >= min_gap:
            kept.append((c, CUT, None))
            last = c
    marks = sorted(kept + xa, key=lambda m: (m[0], m[1]))
    return FileScan(str(path), file_seq(str(path)), size, fde, tuple(ddl), tuple(marks),
                    reader.events_read)


def cut_gap(range_size: int) -> int:
    """The ``min_gap`` for pre-scans feeding :func:`cut_ranges` with ``range_size``: 64 candidate
    cut points per range, so a range ends within ~2% of the size (or at its longest transaction)."""
    return max(0, range_size // 64)


def input_files(inputs: Iterable[str]) -> list[str]:
    """The binlog files named by directories, globs, .index files and file paths, in log order
    (:func:`~mysqlddl.binlog.files.resolve_sources`). Two files with the same sequence number
    would make positions ambiguous: refused."""
    files = [str(p) for p in resolve_sources(list(inputs))]
    seen: dict[int, str] = {}
    for f in files:
        seq = file_seq(f)
        if seq in seen:
            raise ConfigError(f"{seen[seq]} and {f} have the same sequence number ({seq}): positions "
                              "(file_seq, pos) would be ambiguous")
        seen[seq] = f
    return files


def ordered(scans: Iterable[FileScan]) -> list[FileScan]:
    return sorted(scans, key=lambda s: s.file_seq)


def build_history(scans: Sequence[FileScan], options: Options = DEFAULT, *, schema: str | None = None,
                  schema_database: str | None = None,
                  schema_position=None) -> tuple[SchemaHistory, ChangeStats]:
    """Apply the DDL the pre-scans found, sorted by integer position (file_seq, pos), from the
    baseline, through ChangeReader's own DDL path (so the history is the one the sequential CLI
    builds). Returns the history and the stats of that pass (DDL counts)."""
    scans = ordered(scans)
    keyed = []
    for s in scans:
        keyed.append(((s.file_seq, s.fde.pos, 0), s.fde))
        keyed.extend(((s.file_seq, ev.pos, i + 1), ev) for i, ev in enumerate(s.ddl))
    keyed.sort(key=lambda kv: kv[0])
    config = ChangeOptions(decode=options, schema_database=schema_database, schema_position=schema_position,
                           rows=False, transactions=False, schema_changes=False)
    replay = ReplaySource((ev for _, ev in keyed), files=[s.path for s in scans], fde=scans[0].fde if scans else None)
    reader = ChangeReader(replay, config, schema=schema)
    for _ in reader:
        pass
    return reader.history, reader.stats


@dataclasses.dataclass(frozen=True, slots=True)
class ByteRange:
    """Part of a binlog set: from ``start`` in ``files[0]`` (None: its beginning) up to, not
    including, ``stop`` in ``files[-1]`` (None: its end). ``nbytes``: its size."""

    index: int
    files: tuple[str, ...]
    start: int | None
    stop: int | None
    nbytes: int

    @property
    def span(self) -> tuple:
        return ((self.files[0], self.start) if self.start is not None else None,
                (self.files[-1], self.stop) if self.stop is not None else None)

    def __str__(self) -> str:
        a = f"{Path(self.files[0]).name}:{self.start or 0}"
        b = f"{Path(self.files[-1]).name}:{self.stop if self.stop is not None else 'end'}"
        return f"range {self.index} [{a}, {b})"


def cut_points(scans: Sequence[FileScan]) -> list[tuple[int, int]]:
    """Where a range may start, as (index in ``scans`` order, offset; 0 = the file's start):
    the pre-scans' CUT marks and file starts, minus those inside an unresolved XA PREPARE."""
    open_xa: set = set()
    points = []
    for i, s in enumerate(scans):
        if not open_xa:
            points.append((i, 0))
        for off, kind, xid in s.marks:
            if kind == XA_OPEN:
                open_xa.add(xid)
            elif kind == XA_CLOSE:
                open_xa.discard(xid)   # (one prepared before the first file: nothing was held)
            elif not open_xa:
                points.append((i, off))
    return points


def cut_ranges(scans: Sequence[FileScan], size: int = DEFAULT_RANGE_SIZE) -> list[ByteRange]:
    """Cut the set into ranges of about ``size`` bytes at :func:`cut_points`: each range ends at
    the farthest cut point within ``size`` bytes of its start, or at the nearest one after when a
    single transaction is larger. Small files share a range."""
    if size < 1:
        raise ConfigError(f"range size must be positive, not {size}")
    scans = ordered(scans)
    if not scans:
        return []
    base = [0]
    for s in scans:
        base.append(base[-1] + s.size)

    def at(p):
        return base[p[0]] + p[1]

    points = cut_points(scans) + [(len(scans), 0)]
    ranges = []
    i = 0
    while i < len(points) - 1:
        lo = points[i]
        j = i + 1
        while j + 1 < len(points) and at(points[j + 1]) - at(lo) <= size:
            j += 1
        hi = points[j]
        last = hi[0] if hi[1] else hi[0] - 1          # the file the range ends in
        files = tuple(s.path for s in scans[lo[0]:last + 1])
        ranges.append(ByteRange(len(ranges), files, lo[1] or None, hi[1] or None, at(hi) - at(lo)))
        i = j
    return ranges


def read_range(rng: ByteRange, history: SchemaHistory, options: ChangeOptions | None = None) -> ChangeReader:
    """A ChangeReader over one range, using ``history`` read-only (``options``: how to read, its
    span and record_ddl set here)."""
    config = (options or ChangeOptions()).replace(record_ddl=False, span=rng.span)
    return ChangeReader(open_source(list(rng.files), SourceOptions(decode=config.decode)), config, history=history)


__all__ = ["CUT", "DEFAULT_RANGE_SIZE", "PRESCAN_TYPES", "XA_CLOSE", "XA_OPEN", "ByteRange", "FileScan",
           "build_history", "cut_gap", "cut_points", "cut_ranges", "input_files", "prescan", "read_range"]
