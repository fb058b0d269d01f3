"""``mysqlddl changes BINLOG...``: change events as JSON Lines (Debezium's envelope: row changes,
transaction marks and schema changes in one stream), the schema in force at each row given by the
DDL before it and the --schema baseline.

    mysqlddl changes BINLOG... [--schema DDL.sql] [-o OUT]     change events as JSON Lines
    mysqlddl history BINLOG... [--schema DDL.sql] [-o OUT]     the schema history (mysqlddl.cli.history)

Both take mysqlbinlog's filters (positions, datetimes, databases/tables, GTID sets); for
`history` they select which records are printed (the history is always built from every DDL up to
--stop-position), and both read the binlogs here (run_history). Exit codes: EXIT_CODES (printed by
--help, and in the README). The arguments are mysqlddl.cli.args's shared groups.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import signal
import sys
import time

from ..errors import ConfigError
from . import args as common

HELP = "change events (Debezium envelope) as JSON Lines"
EXIT_MISMATCH = common.EXIT_MISMATCH
EXIT_CODES = (common.OK, "1  the input was rejected: a path that cannot be read or written, an unreadable or "
              "corrupt binlog, a DDL that cannot be parsed or applied (--ddl-errors raise), a bad --schema "
              "file; the positioned error is on stderr", common.USAGE, common.MISMATCH,
              f"{common.STOPPED} (a server input)")


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, *EXIT_CODES)
    common.add_binlog_inputs(sp)
    common.add_baseline(sp)
    common.add_output(sp)
    common.add_output_format(sp)
    common.add_filters(sp, "emit")
    common.add_change_events(sp)
    common.add_stream_parts(sp)
    common.add_summary(sp)
    common.add_server_source(sp)


def check(args: argparse.Namespace) -> None:
    """What can be checked before the first event is read: each binlog once, no output that is an
    input, the output writable."""
    args.binlogs = common.binlog_inputs(args.binlogs)
    if any(common.is_server_uri(b) for b in args.binlogs):
        if len(args.binlogs) != 1:
            raise ConfigError("a server input (mysql://...) is the only input: give it alone")
    else:
        common.distinct_binlogs(args.binlogs)
        common.refuse_server_options(args)
        common.check_file_positions(args)
    if getattr(args, "topics_dir", None) is not None and (args.format != "debezium" or args.output):
        raise ConfigError("--topics-dir needs --format debezium and takes the place of --output")
    if getattr(args, "snapshot", None) in ("initial", "schema-only") and args.schema is not None:
        raise ConfigError(f"--snapshot {args.snapshot} captures the schema from the server: leave out --schema")
    common.refuse_inputs_as_outputs([*args.binlogs, args.schema, getattr(args, "defaults_file", None)], [
        ("--output", args.output, False), ("--topics-dir", getattr(args, "topics_dir", None), True)])
    if args.output:
        common.check_writable(args.output, option="--output")


def run(args: argparse.Namespace) -> int:
    check(args)
    return run_changes(args)


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


def _filters(args):
    # lazy: the change reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..changes import Filters

    return Filters(start_position=args.start_position, stop_position=args.stop_position,
                   start_ts=args.start_datetime, stop_ts=args.stop_datetime,
                   databases=tuple(args.database), exclude_databases=tuple(args.exclude_database),
                   tables=tuple(args.table), exclude_tables=tuple(args.exclude_table),
                   include_gtids=args.include_gtids, exclude_gtids=args.exclude_gtids)


def run_changes(args: argparse.Namespace) -> int:
    # Start-up (the imports, the baseline, the grammar loaded by the first DDL) allocates a lot and
    # frees little: the collector stays off until the first change, then everything made so far is
    # frozen (never traversed again) and it runs as usual.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        if common.is_server_uri(args.binlogs[0]):
            with _Signals() as signals:
                return _run_changes(args, gc_was_on, signals)
        return _run_changes(args, gc_was_on)
    finally:
        gc.unfreeze()
        if gc_was_on:
            gc.enable()


def _change_options(args, **kw):
    """The ChangeOptions of a ``changes``/``history`` command line (``kw``: what differs by command)."""
    # lazy: the change reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..changes import ChangeOptions

    return ChangeOptions(decode=common.baseline_options(args), filters=_filters(args),
                         schema_database=args.schema_database, schema_position=args.schema_position, **kw)


def _run_changes(args: argparse.Namespace, gc_was_on: bool, signals: _Signals | None = None) -> int:
    # lazy: the change reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..changes import ChangeReader
    from ..changes.start import SnapshotStart, snapshot_mode
    from ..errors import SchemaMismatchError
    from ..sinks import JsonLinesSink, write_records
    from ..sources import SourceOptions, open_source

    options = _change_options(args, on_mismatch=args.on_mismatch, transactions=not args.no_transactions,
                              schema_changes=not args.no_schema_changes, name=args.name,
                              truncate_events=args.truncate_events, pk_change=args.pk_change,
                              queries=args.include_query)
    if args.output:
        common.check_writable(args.output, option="--output")
    server = common.is_server_uri(args.binlogs[0])
    if server:
        # a server streamed as a replica (mysqlddl.sources): it starts and stops by itself; a signal
        # is acted on while it waits for the server too (caught up, or reconnecting)
        mode = snapshot_mode(args.snapshot, from_now=args.from_now, schema_given=args.schema is not None)
        snapshot = SnapshotStart(mode, options.filters, options.decode)
        source = open_source(args.binlogs[0], common.server_source_options(args, options.decode),
                             start_hook=snapshot.hook, on_wait=signals.asked)
        schema, options = snapshot.baseline(common.read_baseline(args), options)
    else:
        snapshot, schema = None, common.read_baseline(args)
        # (how the events decode, checksums verified or not, is the source's: --no-verify-checksums)
        source = open_source(args.binlogs, SourceOptions(decode=options.decode))
    # (the statement texts, ANNOTATE_ROWS: a bulk INSERT's whole text, are decoded only when printed:
    # ChangeOptions.queries, which the reader asks of the source)
    reader = ChangeReader(source, options, schema=schema, progress=None if server else _progress(args))
    reader.on_untyped = _say_untyped

    # JSON Lines are ASCII: the sink writes bytes (a rows event's lines as the compiled renderer
    # made them), or text to a stdout without a binary layer (a test's StringIO)
    out = args.output or sys.stdout
    following = server and getattr(args, "follow", False)
    if following:
        # a followed server: each transaction goes out as it ends (in a buffer it could wait for
        # minutes on a quiet server), so the stream is opened here and flushed at commits
        out = open(args.output, "wb") if args.output else getattr(sys.stdout, "buffer", sys.stdout)  # noqa: SIM115
    if args.format == "debezium":
        from ..sinks.debezium import make_sink  # lazy: the Debezium format loads only when chosen

        sink = make_sink("debezium", out, common.debezium_options(args), topics_dir=args.topics_dir)
    else:
        sink = JsonLinesSink(out, name=args.name, include_query=args.include_query)
    try:
        with common.writing(args.output or args.topics_dir, option="--output" if args.output else "--topics-dir"), \
                sink:
            records = iter(reader)
            if snapshot is not None:
                records = snapshot.records(records, reader.stats)
            if following:
                records = _flush_at_commits(records, out)
            if signals is not None:
                records = signals.until(records)
            first = next(records, None)
            # the collector comes back with the first record, everything made before it frozen
            gc.freeze()
            if gc_was_on:
                gc.enable()
            if first is not None:
                write_records((first,), sink)
                write_records(records, sink)
    except SchemaMismatchError as e:
        close = getattr(source, "close", None)
        if close is not None:
            close()
        print(f"mysqlddl changes: {e}", file=sys.stderr)
        print("mysqlddl changes: give the schema in force before the first event with --schema, or "
              "--on-mismatch flag to decode such rows by the TABLE_MAP alone", file=sys.stderr)
        return EXIT_MISMATCH
    close = getattr(source, "close", None)
    if close is not None:
        close()
    if following:
        if args.output:
            with common.writing(args.output):
                out.close()
        else:
            out.flush()
    _summary(reader.stats, args.summary)
    if signals is not None and signals.signum is not None:
        return common.EXIT_SIGNAL + signals.signum
    return 0


class _Signals:
    """SIGINT (Ctrl-C) and SIGTERM while a server is streamed: noted, not raised (a
    KeyboardInterrupt would end the command with a traceback in the middle of a write), so the
    stream stops after the record being written, or at once while it waits for the server
    (``on_wait``); the output is flushed, the summary printed, and the exit code is the shell's
    128 + the signal's number (cli.args.EXIT_SIGNAL: 130, 143)."""

    def __init__(self):
        self.signum: int | None = None
        self._old: dict = {}

    def __enter__(self) -> _Signals:
        for s in (signal.SIGINT, signal.SIGTERM):
            self._old[s] = signal.signal(s, self._note)
        return self

    def __exit__(self, *exc) -> None:
        for s, handler in self._old.items():
            signal.signal(s, handler)

    def _note(self, signum, frame) -> None:
        if self.signum is None:
            self.signum = signum

    def asked(self) -> bool:
        return self.signum is not None

    def until(self, records):
        """``records`` until a signal came (checked once the record given last was written)."""
        for rec in records:
            yield rec
            if self.signum is not None:
                return


def _flush_at_commits(records, out):
    """``records``, flushing ``out`` once each transaction that delivered something has been
    written and committed (at its Boundary: the next record is asked for after the previous one
    was written), with or without transaction marks."""
    # lazy: the change reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..changes import Boundary

    for rec in records:
        yield rec
        if type(rec) is Boundary and rec.delivered:
            out.flush()


def _say_untyped(table: str) -> None:
    """Said once, at the first table whose rows go out without a table definition (the rest are
    counted in the summary's "rows without a table definition")."""
    print(f"mysqlddl changes: {table} has no table definition (not in a baseline, not created in the log "
          "read): its rows are written with positional columns col_1..n (or the TABLE_MAP's names) typed by "
          "the TABLE_MAP alone (ENUM/SET as numbers), and so are those of any other such table; give the "
          "schema in force before the first event with --schema DUMP.sql (mysqldump --no-data), or for a "
          "server input --snapshot schema-only", file=sys.stderr, flush=True)


def _summary(stats, mode: str) -> None:
    d = stats.as_dict()
    if d["ddl_unknown_tables"]:
        # said whatever the --summary mode: these schema changes are missing from the output
        n = d["ddl_unknown_tables"]
        print(f"mysqlddl changes: {n} schema change{'s' if n != 1 else ''} left out (in part or whole): "
              f"{'they act' if n != 1 else 'it acts'} on tables created before the first event; give "
              "their CREATE TABLE in --schema (e.g. mysqldump --no-data) to keep them", file=sys.stderr)
    if mode == "none":
        return
    if mode == "json":
        print(json.dumps(d, sort_keys=True), file=sys.stderr)
        return

    def ts(t):
        return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC") \
            if t else "-"

    w = sys.stderr.write
    w(f"events {d['events']}, DDL {d['ddl']} (errors skipped {d['ddl_errors']}), DML rows {d['dml_rows']}, "
      f"transactions {d['transactions']}\n")
    if d["snapshot_rows"]:
        w(f"snapshot rows {d['snapshot_rows']} (op r: the tables as they were at the start position)\n")
    w(f"first event {ts(d['first_event_ts'])}, last event {ts(d['last_event_ts'])}\n")
    for table, ops in d["rows"].items():
        w(f"  {table}: " + ", ".join(f"{op}={n}" for op, n in sorted(ops.items())) + "\n")
    xa = d["xa"]
    if any(xa.values()):
        w(f"XA: committed {xa['committed']}, rolled back {xa['rolled_back']} ({xa['rows_discarded']} rows "
          f"discarded), pending {xa['pending']}\n")
    if d["truncates"]:
        w("truncated: " + ", ".join(f"{t}={n}" for t, n in d["truncates"].items()) + "\n")
    if d["rows_without_schema"]:
        w("rows without a table definition: " + ", ".join(f"{t}={n}" for t, n in d["rows_without_schema"].items())
          + "\n")
    if d["mismatches_flagged"]:
        w(f"TABLE_MAP mismatches flagged: {d['mismatches_flagged']}\n")
    if d["queries"]:
        w("queries: " + ", ".join(f"{k}={v}" for k, v in d["queries"].items()) + "\n")


def run_history(args: argparse.Namespace) -> int:
    # lazy: the change reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..changes import ChangeReader, Filters, SchemaChange
    from ..sources import SourceOptions, open_source

    options = _change_options(args, rows=False, transactions=False)
    reader = ChangeReader(open_source(args.binlogs, SourceOptions(decode=options.decode)), options,
                          schema=common.read_baseline(args), progress=_progress(args))
    filters = reader.config.filters
    # the records the filters select are those whose schema change the reader emits
    chosen = {id(ch.record) for ch in reader if isinstance(ch, SchemaChange)}
    everything = filters == Filters(stop_position=args.stop_position)
    out = common.open_output(args.output)
    with common.writing(args.output):
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
