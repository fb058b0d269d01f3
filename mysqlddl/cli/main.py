"""The `mysqlddl` command: one subcommand per stage. `main(argv) -> int` is the whole interface,
so tests call it directly and as a subprocess.

Exit codes: 0 success, 1 input was rejected (a positioned error was printed), 2 usage error,
3 (`changes`) a TABLE_MAP does not match the table version in force.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata, resources

from .. import __version__
from ..errors import MysqlddlError
from . import changes as cli_changes


def grammar_stamp() -> dict:
    """The stamp of the generated parser that this installation carries (see tools/grammar_build.py)."""
    try:
        return json.loads(resources.files("mysqlddl._generated").joinpath("STAMP.json").read_text())
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise MysqlddlError(f"the generated parser is missing from this installation ({e}); "
                            "run `python tools/regen.py` in a source checkout or reinstall") from e


def _cmd_version(args: argparse.Namespace) -> int:
    from ..binlog import speedups

    stamp = grammar_stamp()
    print(f"mysqlddl {__version__}")
    print(f"antlr4-python3-runtime {metadata.version('antlr4-python3-runtime')}")
    print(f"grammar: antlr {stamp['antlr']}")
    for name, digest in sorted(stamp["grammars"].items()):
        print(f"  {name} sha256:{digest[:16]}")
    print(f"speedups: {speedups.IMPLEMENTATION}")
    return 0


def _cmd_events(args: argparse.Namespace) -> int:
    from ..binlog.events.jsonable import event_to_dict
    from ..binlog.reader import BinlogReader
    from ..options import Options

    opts = Options(verify_checksums=not args.no_verify_checksums,
                   stop_at_truncated_tail=args.stop_at_truncated_tail)
    reader = BinlogReader(args.binlogs, options=opts, start=args.start_position, stop=args.stop_position)
    types = {t.upper() for t in args.type} if args.type else None
    for ev in reader:
        if types is None or ev.type_name in types:
            sys.stdout.write(json.dumps(event_to_dict(ev, rows=args.rows), ensure_ascii=True) + "\n")
    if reader.truncated is not None:
        t = reader.truncated
        print(f"mysqlddl events: {t.file}: stopped at {t.pos}, the last complete event's end "
              f"(the event there needs {t.needed} bytes, {t.available} are written)", file=sys.stderr)
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from ..commands import UseDatabase
    from ..ddl.api import run_script
    from ..model import Catalog, render
    from ..options import Options

    opts = Options(dialect=args.dialect)
    catalog = Catalog.empty(opts)
    if args.database:
        catalog = UseDatabase(args.database).apply(catalog, opts)
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                sql = f.read()
        except OSError as e:
            print(f"mysqlddl schema: {path}: {e.strerror or e}", file=sys.stderr)
            return 1
        catalog = run_script(catalog, sql, opts, source=path).catalog
    if args.format == "sql":
        sys.stdout.write(render.catalog_sql(catalog, opts))
    else:
        sys.stdout.write(render.dumps(render.catalog_json(catalog)) + "\n")
    return 0


def _cmd_parse(args: argparse.Namespace) -> int:
    from ..ddl import check_inputs, format_rejection
    from ..options import Options

    opts = Options(dialect=args.dialect, sql_mode=args.sql_mode or "")
    summary = check_inputs(args.inputs, opts, compound_bodies=args.compound_bodies,
                           on_rejection=lambda rec: print(format_rejection(rec), file=sys.stderr))
    print(f"{summary['accepted']}/{summary['total']} statements accepted, {summary['rejected']} rejected")
    if args.summary_json:
        with open(args.summary_json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return 1 if summary["rejected"] else 0


def _cmd_changes(args: argparse.Namespace) -> int:
    return cli_changes.run_changes(args)


def _cmd_history(args: argparse.Namespace) -> int:
    return cli_changes.run_history(args)


def _cmd_olr(args: argparse.Namespace) -> int:
    from . import olr as olr_cli

    return olr_cli.run(args)


def _cmd_spark(args: argparse.Namespace) -> int:
    from .. import spark_job  # pyspark itself is imported only when the job starts

    return spark_job.run_args(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mysqlddl", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sp = sub.add_parser("version", help="package, ANTLR runtime, grammar stamp and speedups status")
    sp.set_defaults(func=_cmd_version)

    sp = sub.add_parser("events", help="binlog events as JSON Lines (one object per event)")
    sp.add_argument("binlogs", nargs="+", metavar="BINLOG",
                    help="binlog file, directory, .index file or glob (in order)")
    sp.add_argument("--start-position", type=int, help="byte offset in the first file to start at")
    sp.add_argument("--stop-position", type=int, help="byte offset in the last file to stop before")
    sp.add_argument("--type", action="append", metavar="TYPE", help="only events of this type (repeatable)")
    sp.add_argument("--rows", action="store_true", help="decode the row images of rows events")
    sp.add_argument("--no-verify-checksums", action="store_true", help="do not verify CRC32")
    sp.add_argument("--stop-at-truncated-tail", action="store_true",
                    help="end cleanly at the last complete event of a file still being written")
    sp.set_defaults(func=_cmd_events)

    sp = sub.add_parser("schema", help="apply DDL scripts in order and print the resulting catalog")
    sp.add_argument("files", nargs="+", metavar="FILE.sql", help="DDL scripts, applied in order")
    sp.add_argument("--dialect", choices=("mysql", "mariadb", "oracle"), default="mysql",
                    help="whose rules apply where the servers differ (default: mysql)")
    sp.add_argument("--format", choices=("json", "sql"), default="json",
                    help="json: deterministic {\"tables\": [...]}; sql: canonical CREATE TABLE text")
    sp.add_argument("--database", default="test", metavar="DB",
                    help="default database for unqualified names until a USE (default: test)")
    sp.set_defaults(func=_cmd_schema)

    sp = sub.add_parser("parse", help="syntax-check every statement of .sql scripts or .jsonl rows (\"sql\")")
    sp.add_argument("inputs", nargs="+", metavar="INPUT",
                    help=".sql script or .jsonl file with a \"sql\" field per row")
    sp.add_argument("--dialect", choices=("mysql", "mariadb", "oracle"), default="mysql",
                    help="whose rules apply where the servers differ (default: mysql)")
    sp.add_argument("--summary-json", metavar="FILE", help="write total/accepted/rejected/rejections as JSON")
    sp.add_argument("--sql-mode", metavar="MODES", help="session sql_mode, e.g. ANSI_QUOTES,NO_BACKSLASH_ESCAPES")
    sp.add_argument("--compound-bodies", action="store_true",
                    help="keep BEGIN...END routine bodies together without DELIMITER (lenient splitting)")
    sp.set_defaults(func=_cmd_parse)

    sp = sub.add_parser("changes", help="change events (Debezium envelope) as JSON Lines")
    cli_changes.add_changes_arguments(sp)
    sp.set_defaults(func=_cmd_changes)

    sp = sub.add_parser("history", help="the schema history of a binlog set as JSON Lines")
    cli_changes.add_history_arguments(sp)
    sp.set_defaults(func=_cmd_history)

    sp = sub.add_parser("olr", help="OpenLogReplicator JSON -> Oracle change events (Debezium envelope) as JSON Lines")
    from . import olr as olr_cli

    olr_cli.add_arguments(sp)
    sp.set_defaults(func=_cmd_olr)

    sp = sub.add_parser("spark", help="change events of archived binlogs as Parquet, on Spark (mysqlddl[spark])")
    from .. import spark_job  # argument definitions only: importing it loads no pyspark

    spark_job.add_arguments(sp)
    sp.set_defaults(func=_cmd_spark)

    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except MysqlddlError as e:
        print(f"mysqlddl {args.command}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
