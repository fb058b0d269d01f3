"""``mysqlddl parse INPUT...``: syntax-check every statement of .sql scripts or of the ``"sql"``
field of .jsonl rows; one line per rejection on stderr, the counts on stdout."""

from __future__ import annotations

import argparse
import json
import sys

from . import args as common

HELP = "syntax-check every statement of .sql scripts or .jsonl rows (\"sql\")"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, "0  every statement was accepted",
                          "1  a statement (or a .jsonl row) was rejected, or an input cannot be read "
                          "(the summary is printed all the same once the inputs are read)", common.USAGE)
    sp.add_argument("inputs", nargs="+", metavar="INPUT",
                    help=".sql script or .jsonl file with a \"sql\" field per row")
    common.add_schema_encoding(sp, "--encoding", ".sql")
    common.add_dialect(sp)
    sp.add_argument("--summary-json", metavar="FILE", help="write total/accepted/rejected/rejections as JSON")
    sp.add_argument("--sql-mode", metavar="MODES", help="session sql_mode, e.g. ANSI_QUOTES,NO_BACKSLASH_ESCAPES")
    sp.add_argument("--compound-bodies", action="store_true",
                    help="keep BEGIN...END routine bodies together without DELIMITER (lenient splitting)")


def run(args: argparse.Namespace) -> int:
    # the DDL front door loads the grammar's lexer tables: only when a subcommand parses DDL
    from ..ddl import check_inputs, format_rejection
    from ..options import Options

    common.check_readable(args.inputs, what="file (.sql or .jsonl)")
    common.refuse_inputs_as_outputs(args.inputs, [("--summary-json", args.summary_json, False)])
    if args.summary_json:
        common.check_writable(args.summary_json, option="--summary-json")
    opts = Options(dialect=args.dialect, sql_mode=args.sql_mode or "")
    summary = check_inputs(args.inputs, opts, compound_bodies=args.compound_bodies, encoding=args.encoding,
                           on_rejection=lambda rec: print(format_rejection(rec), file=sys.stderr))
    print(f"{summary['accepted']}/{summary['total']} statements accepted, {summary['rejected']} rejected")
    if args.summary_json:
        with common.writing(args.summary_json, option="--summary-json"), \
                common.open_output(args.summary_json, option="--summary-json") as f:
            json.dump(summary, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return 1 if summary["rejected"] else 0
