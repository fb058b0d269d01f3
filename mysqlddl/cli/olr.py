"""The `olr` subcommand (registered by mysqlddl.cli.main).

    mysqlddl olr FILE... [--schema DDL.sql --schema-owner OWNER] [-o OUT]

Change events as JSON Lines in the MySQL path's Debezium envelope (see mysqlddl.sinks.oracle). Exit
codes: 0 success, 1 input rejected (a positioned error is printed), 2 usage error (listed by --help).
"""

from __future__ import annotations

import argparse
import json
import sys

from . import args as common

HELP = "OpenLogReplicator JSON -> Oracle change events (Debezium envelope) as JSON Lines"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, common.OK, "1  the input was rejected: a path that cannot be read or written, "
                          "a bad document, message or DDL (unless --lenient); the positioned error is on "
                          "stderr", common.USAGE)
    sp.add_argument("files", nargs="+", metavar="FILE", help="OLR output: JSON Lines or JSON documents, in order")
    sp.add_argument("--time-unit", choices=("s", "ms", "us", "ns"), default="ns",
                    help="unit of DATE/TIMESTAMP epoch values, as OLR's format.timestamp prints them "
                    "(default ns; 7 = seconds as text needs s)")
    sp.add_argument("--tm-unit", choices=("s", "ms", "us", "ns"),
                    help="unit of the message tm/tms (format.timestamp-metadata; default: --time-unit)")
    sp.add_argument("--schema", metavar="DDL.sql", help="Oracle DDL of the tables in force before the first "
                    "message (types rows that carry no schema.columns)")
    common.add_schema_encoding(sp)
    sp.add_argument("--schema-owner", metavar="OWNER", help="default schema for the --schema DDL's "
                    "unqualified names")
    sp.add_argument("--lenient", action="store_true", help="skip bad documents, messages and DDL, keep values "
                    "that do not fit their type (flagged); count them in the summary")
    common.add_output(sp, progress=False)
    sp.add_argument("--history", metavar="FILE", help="also write the schema history (JSON Lines) here")
    common.add_stream_parts(sp)
    common.add_summary(sp)


def run(args: argparse.Namespace) -> int:
    # lazy: the OLR reader and the sinks load only when this subcommand runs (cli/main.py)
    from ..olr.reader import OlrReader
    from ..options import Options
    from ..sinks import JsonLinesSink, write_records

    opts = Options(dialect="oracle", olr_time_unit=args.time_unit, olr_tm_unit=args.tm_unit,
                   error_policy="skip" if args.lenient else "raise")
    common.check_readable(args.files)
    common.refuse_inputs_as_outputs([*args.files, args.schema], [("--output", args.output, False),
                                                                ("--history", args.history, False)])
    for path, option in ((args.output, "--output"), (args.history, "--history")):
        if path:
            common.check_writable(path, option=option)
    baseline = None if args.schema is None else common.read_text(
        args.schema, option="--schema", encoding=args.schema_encoding, encoding_option="--schema-encoding")
    reader = OlrReader(args.files, opts, baseline=baseline, baseline_owner=args.schema_owner, name=args.name,
                       transactions=not args.no_transactions, schema_changes=not args.no_schema_changes)
    # the MySQL path's sink, which renders OLR records in the Oracle envelope (mysqlddl.sinks.oracle; the
    # lines are ASCII: json's ensure_ascii)
    with common.writing(args.output), JsonLinesSink(args.output or sys.stdout, name=args.name) as sink:
        write_records(reader, sink)
    if args.history:
        with common.writing(args.history, option="--history"):
            reader.history.save(args.history)
    _summary(reader, args.summary)
    return 0


def _summary(reader, mode: str) -> None:
    if mode == "none":
        return
    d = reader.stats.as_dict()
    if mode == "json":
        print(json.dumps(d, sort_keys=True), file=sys.stderr)
        return
    w = sys.stderr.write
    w(f"documents {d['documents']} (skipped {d['skipped']}), DML rows {d['dml_rows']}, transactions "
      f"{d['transactions']} (open at the end {d['open_transactions']}), DDL {d['ddl']} (errors {d['ddl_errors']})\n")
    for table, ops in d["rows"].items():
        w(f"  {table}: " + ", ".join(f"{op}={n}" for op, n in sorted(ops.items())) + "\n")
    if d["flagged_values"]:
        w("flagged values: " + ", ".join(f"{k}={n}" for k, n in d["flagged_values"].items()) + "\n")
    w("rows typed by: " + (", ".join(f"{k}={n}" for k, n in d["typing"].items()) or "-") + "\n")
    for e in reader.errors[:10]:
        w(f"skipped: {e}\n")
    if len(reader.errors) > 10:
        w(f"... and {len(reader.errors) - 10} more\n")
