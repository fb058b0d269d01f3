"""The `changes` and `history` subcommands (registered by mysqlddl.cli).

    mysqlddl changes BINLOG... [--schema DDL.sql] [-o OUT]     change events as JSON Lines
    mysqlddl history BINLOG... [--schema DDL.sql] [-o OUT]     the schema history as JSON Lines

Both take mysqlbinlog's filters (positions, datetimes, databases/tables, GTID sets); for
`history` they select which records are printed (the history is always built from every DDL up to
--stop-position). Exit codes: see EXIT_CODES (printed by --help, and in the README).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import sys
import time

EXIT_MISMATCH = 3

EXIT_CODES = """exit codes:
  0  success
  1  the input was rejected: an unreadable or corrupt binlog, a DDL that cannot be parsed or
     applied (--ddl-errors raise), a bad --schema file; the positioned error is on stderr
  2  usage error (bad option or value)
  3  a TABLE_MAP does not match the table version in force (`changes`: the baseline is missing or
     wrong; --on-mismatch flag decodes such rows by the TABLE_MAP alone and marks them)"""


def _datetime(text: str) -> int:
    """``YYYY-MM-DD[ HH:MM:SS]`` (UTC unless an offset is given) or ``@EPOCH`` -> epoch seconds.
    Binlog timestamps are UTC epoch seconds; mysqlbinlog reads these in the local zone, we do not
    guess one."""
    if text.startswith("@"):
        try:
            return int(text[1:])
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an epoch: {text!r}") from None
    try:
        dt = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a datetime (YYYY-MM-DD HH:MM:SS): {text!r}") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    return int(dt.timestamp())


def add_baseline_and_options(sp: argparse.ArgumentParser) -> None:
    """What :func:`_baseline` and :func:`_options` read (``changes``, ``history`` and ``spark``
    take them alike, so their outputs agree)."""
    sp.add_argument("--schema", metavar="DDL.sql",
                    help="baseline DDL (e.g. mysqldump --no-data) applied before the first event")
    sp.add_argument("--schema-database", metavar="DB", help="default database for the baseline's "
                    "unqualified names until its first USE")
    sp.add_argument("--schema-position", metavar="FILE:N", help="where the baseline was taken: DDL "
                    "events ending at or before it are already in it and are not applied again")
    sp.add_argument("--ddl-errors", choices=("raise", "warn", "skip"), default="raise",
                    help="a DDL that cannot be parsed or applied: stop (default), or skip it and go on")
    sp.add_argument("--no-verify-checksums", action="store_true", help="do not verify CRC32")


def add_common(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("binlogs", nargs="+", metavar="BINLOG",
                    help="binlog file, directory, .index file or glob (in order)")
    add_baseline_and_options(sp)
    sp.add_argument("-o", "--output", metavar="OUT", help="write JSON Lines here instead of stdout")
    sp.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                    help="progress bar on stderr (auto: only when stderr is a terminal)")
    sp.add_argument("--stop-position", metavar="N|FILE:N", help="stop before this position "
                    "(N: in the last file)")


def _with_exit_codes(sp: argparse.ArgumentParser) -> None:
    sp.epilog = EXIT_CODES
    sp.formatter_class = argparse.RawDescriptionHelpFormatter


def add_filters(sp: argparse.ArgumentParser, what: str) -> None:
    """mysqlbinlog's filters (--stop-position is in add_common)."""
    sp.add_argument("--start-position", metavar="N|FILE:N",
                    help=f"{what} from this position on (N: in the first file); DDL before it still "
                    "builds the history")
    sp.add_argument("--start-datetime", type=_datetime, metavar="DT",
                    help="emit events at or after this time (UTC, or with an offset, or @EPOCH)")
    sp.add_argument("--stop-datetime", type=_datetime, metavar="DT", help="emit events before this time")
    sp.add_argument("--database", action="append", default=[], metavar="DB",
                    help="only these databases (repeatable; fnmatch patterns)")
    sp.add_argument("--exclude-database", action="append", default=[], metavar="DB")
    sp.add_argument("--table", action="append", default=[], metavar="[DB.]TABLE",
                    help="only these tables (repeatable; fnmatch patterns)")
    sp.add_argument("--exclude-table", action="append", default=[], metavar="[DB.]TABLE")
    sp.add_argument("--include-gtids", metavar="SET", help="only transactions in this GTID set "
                    "(uuid:1-5:7 or MariaDB domain-server-seq / domain-server:1-5)")
    sp.add_argument("--exclude-gtids", metavar="SET")


def add_changes_arguments(sp: argparse.ArgumentParser) -> None:
    _with_exit_codes(sp)
    add_common(sp)
    add_filters(sp, "emit")
    sp.add_argument("--on-mismatch", choices=("raise", "flag"), default="raise",
                    help="a TABLE_MAP that disagrees with the schema: stop with exit 3 (default), or "
                    "decode those rows by the TABLE_MAP alone and mark them")
    sp.add_argument("--no-transactions", action="store_true", help="leave out BEGIN/END events")
    sp.add_argument("--no-schema-changes", action="store_true", help="leave out schema-change events")
    sp.add_argument("--truncate-events", action="store_true",
                    help="also emit Debezium's op \"t\" event per truncated table (Debezium skips them by "
                    "default: skipped.operations=t)")
    sp.add_argument("--pk-change", choices=("update", "split"), default="update",
                    help="an UPDATE that changes the primary key: one \"u\" event (default), or split: a "
                    "\"d\" then a \"c\" event with __debezium.newkey/oldkey headers, as Debezium does")
    sp.add_argument("--name", default="mysqlddl", help="the logical server name in source.name")
    sp.add_argument("--include-query", action="store_true",
                    help="fill source.query with the statement from ROWS_QUERY / ANNOTATE_ROWS events (off by "
                    "default, as Debezium's include.query: a multi-row INSERT repeats in every row's event)")
    sp.add_argument("--summary", choices=("text", "json", "none"), default="text",
                    help="closing statistics on stderr (default: text)")


class Progress:
    """A one-line progress bar on stderr: bytes read over the total size of the files."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.last = 0.0
        self.sizes: dict[str, int] = {}

    def __call__(self, reader, done: bool = False) -> None:
        now = time.monotonic()
        if not done and now - self.last < 0.2:
            return
        self.last = now
        if not self.sizes:
            for f in reader.files:
                try:
                    self.sizes[str(f)] = os.path.getsize(f)
                except OSError:
                    self.sizes[str(f)] = 0
        total = sum(self.sizes.values()) or 1
        pos = reader.position
        read = total
        if pos is not None and not done:
            read = 0
            for f, n in self.sizes.items():
                if f == pos.file:
                    read += pos.pos
                    break
                read += n
        frac = min(1.0, read / total)
        bar = "#" * int(frac * 30)
        self.stream.write(f"\r[{bar:<30}] {frac * 100:5.1f}% {read / 1e6:.1f}/{total / 1e6:.1f} MB")
        if done:
            self.stream.write("\n")
        self.stream.flush()


def _progress(args):
    if args.progress == "never" or (args.progress == "auto" and not sys.stderr.isatty()):
        return None
    return Progress()


def _options(args):
    from .options import Options

    # JSON columns as the document's text: Debezium's io.debezium.data.Json, and MariaDB's stored text
    return Options(verify_checksums=not args.no_verify_checksums, error_policy=args.ddl_errors,
                   json_as="text")


def _filters(args):
    from .changes import Filters, GtidSet

    return Filters(start_position=args.start_position, stop_position=args.stop_position,
                   start_ts=args.start_datetime, stop_ts=args.stop_datetime,
                   databases=tuple(args.database), exclude_databases=tuple(args.exclude_database),
                   tables=tuple(args.table), exclude_tables=tuple(args.exclude_table),
                   include_gtids=GtidSet(args.include_gtids) if args.include_gtids else None,
                   exclude_gtids=GtidSet(args.exclude_gtids) if args.exclude_gtids else None)


def _baseline(args):
    if args.schema is None:
        return None
    try:
        with open(args.schema, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        from .errors import ConfigError

        raise ConfigError(f"{args.schema}: {e.strerror or e}") from None


def _open_out(args):
    return open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115


def run_changes(args: argparse.Namespace) -> int:
    # Start-up (the imports, the baseline, the grammar loaded by the first DDL) allocates a lot and
    # frees little: the collector stays off until the first change, then everything made so far is
    # frozen (never traversed again) and it runs as usual.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        return _run_changes(args, gc_was_on)
    finally:
        gc.unfreeze()
        if gc_was_on:
            gc.enable()


def _change_options(args, **kw):
    """The ChangeOptions of a ``changes``/``history`` command line (``kw``: what differs by command)."""
    from .changes import ChangeOptions

    return ChangeOptions(decode=_options(args), filters=_filters(args), schema_database=args.schema_database,
                         schema_position=args.schema_position, **kw)


def _run_changes(args: argparse.Namespace, gc_was_on: bool) -> int:
    from .changes import ChangeReader
    from .errors import SchemaMismatchError
    from .sinks import JsonLinesSink, write_records

    options = _change_options(args, on_mismatch=args.on_mismatch, transactions=not args.no_transactions,
                              schema_changes=not args.no_schema_changes, name=args.name,
                              truncate_events=args.truncate_events, pk_change=args.pk_change,
                              queries=args.include_query)
    reader = ChangeReader(args.binlogs, options, schema=_baseline(args), progress=_progress(args))

    # JSON Lines are ASCII: the sink writes bytes (a rows event's lines as the compiled renderer
    # made them), or text to a stdout without a binary layer (a test's StringIO)
    try:
        with JsonLinesSink(args.output or sys.stdout, name=args.name, include_query=args.include_query) as sink:
            records = iter(reader)
            first = next(records, None)
            # the collector comes back with the first record, everything made before it frozen
            gc.freeze()
            if gc_was_on:
                gc.enable()
            if first is not None:
                write_records((first,), sink)
                write_records(records, sink)
    except SchemaMismatchError as e:
        print(f"mysqlddl changes: {e}", file=sys.stderr)
        print("mysqlddl changes: give the schema in force before the first event with --schema, or "
              "--on-mismatch flag to decode such rows by the TABLE_MAP alone", file=sys.stderr)
        return EXIT_MISMATCH
    _summary(reader.stats, args.summary)
    return 0


def _summary(stats, mode: str) -> None:
    import json

    if mode == "none":
        return
    d = stats.as_dict()
    if mode == "json":
        print(json.dumps(d, sort_keys=True), file=sys.stderr)
        return

    def ts(t):
        return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC") \
            if t else "-"

    w = sys.stderr.write
    w(f"events {d['events']}, DDL {d['ddl']} (errors skipped {d['ddl_errors']}), DML rows {d['dml_rows']}, "
      f"transactions {d['transactions']}\n")
    w(f"first event {ts(d['first_event_ts'])}, last event {ts(d['last_event_ts'])}\n")
    for table, ops in d["rows"].items():
        w(f"  {table}: " + ", ".join(f"{op}={n}" for op, n in sorted(ops.items())) + "\n")
    xa = d["xa"]
    if any(xa.values()):
        w(f"XA: committed {xa['committed']}, rolled back {xa['rolled_back']} ({xa['rows_discarded']} rows "
          f"discarded), pending {xa['pending']}\n")
    if d["truncates"]:
        w("truncated: " + ", ".join(f"{t}={n}" for t, n in d["truncates"].items()) + "\n")
    if d["mismatches_flagged"]:
        w(f"TABLE_MAP mismatches flagged: {d['mismatches_flagged']}\n")
    if d["queries"]:
        w("queries: " + ", ".join(f"{k}={v}" for k, v in d["queries"].items()) + "\n")


def add_history_arguments(sp: argparse.ArgumentParser) -> None:
    _with_exit_codes(sp)
    add_common(sp)
    add_filters(sp, "print records")


def run_history(args: argparse.Namespace) -> int:
    from .changes import ChangeReader, Filters, SchemaChange

    reader = ChangeReader(args.binlogs, _change_options(args, rows=False, transactions=False),
                          schema=_baseline(args), progress=_progress(args))
    filters = reader.config.filters
    # the records the filters select are those whose schema change the reader emits
    chosen = {id(ch.record) for ch in reader if isinstance(ch, SchemaChange)}
    everything = filters == Filters(stop_position=args.stop_position)
    out = _open_out(args)
    try:
        lines = reader.history.lines()
        out.write(next(lines) + "\n")          # the header (baseline, settings)
        for rec, line in zip(reader.history.records, lines, strict=True):
            if everything or id(rec) in chosen:
                out.write(line + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0
