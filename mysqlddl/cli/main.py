"""The `mysqlddl` command: one subcommand per stage, each in its own module of this package
(``add_arguments(sp)`` and ``run(args) -> int``), their shared argument groups in
:mod:`mysqlddl.cli.args`. ``main(argv) -> int`` is the whole interface, so tests call it directly
and as a subprocess.

Exit codes: 0 success, 1 the input was rejected (a one-line or positioned error is printed), 2 usage
error, 3 (`changes`, `spark`) a TABLE_MAP does not match the table version in force. Each
subcommand's --help lists its own.
"""

from __future__ import annotations

import argparse
import signal
import sys
import textwrap
import warnings

from ..errors import MysqlddlError
from . import args as common
from . import changes, events, history, olr, parse, run, schema, spark, status, version

DESCRIPTION = ("Parse MySQL, MariaDB and Oracle DDL, follow the schema through binlogs, and turn binlogs\n"
               "into change events in Debezium's envelope (JSON Lines, or Parquet on Spark).")

# (name, module) in the order --help lists them
SUBCOMMANDS = (("version", version), ("events", events), ("schema", schema), ("parse", parse),
               ("changes", changes), ("history", history), ("olr", olr), ("spark", spark),
               ("run", run), ("status", status))


class _Version(argparse.Action):
    """``--version``: what ``mysqlddl version`` prints (the grammar stamp and speedups too)."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, help="print the version report (as `mysqlddl version`) "
                         "and exit", **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.exit(_guarded("version", version.run))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mysqlddl", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="exit codes:\n  0  success\n  1  the input was rejected (the error is on stderr)\n"
               "  2  usage error\n  3  (changes, spark) a TABLE_MAP does not match the table version in force\n\n"
               "`mysqlddl COMMAND --help` describes each command.")
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in SUBCOMMANDS:
        sp = sub.add_parser(name, help=module.HELP, description=_description(module))
        module.add_arguments(sp)
        sp.set_defaults(func=module.run)
    return p


def _description(module) -> str:
    """The module docstring's first paragraph as plain text, wrapped (the subcommands' help is
    formatted raw, so the exit codes keep their lines)."""
    text = " ".join(module.__doc__.split("\n\n")[0].split()).replace("``", "").replace(":mod:", "")
    return textwrap.fill(text, 100)


def _guarded(command: str, run, args: argparse.Namespace | None = None) -> int:
    """``run(args)`` with every input error as one line on stderr and exit 1, never a traceback."""
    try:
        return run(args)
    except MysqlddlError as e:
        print(f"mysqlddl {command}: {_explained(e, args)}", file=sys.stderr)
        return common.EXIT_INPUT
    except BrokenPipeError:
        return common.EXIT_OK
    except KeyboardInterrupt:
        # Ctrl-C where the command does not note it itself (a server stream does, to end with its
        # summary: cli.changes): stopped, with the shell's code for SIGINT, never a traceback
        print(f"mysqlddl {command}: interrupted", file=sys.stderr)
        return common.EXIT_SIGNAL + signal.SIGINT
    except OSError as e:            # a path error no check caught first (the checks are in cli.args)
        print(f"mysqlddl {command}: {common.path_error(e)}", file=sys.stderr)
        return common.EXIT_INPUT


def _explained(e: MysqlddlError, args: argparse.Namespace | None) -> MysqlddlError:
    """A --schema error names the option and its file (the reader knows it only as --schema), and
    says which option gives the default database it lacks."""
    path = getattr(args, "schema", None)
    if path is not None and getattr(e, "source", None) == "--schema":
        e.source = f"--schema {path}"
        if e.message == "No database selected" and hasattr(args, "schema_database"):
            e.message += " (give the baseline's default database with --schema-database DB, or a USE in the file)"
    return e


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one plain line on stderr, ``mysqlddl: warning: ...`` (issue #30 item 14: the
    default format, warnings.formatwarning, printed the Python file, line and source of the call)."""
    print(f"mysqlddl: warning: {message}", file=file or sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    shown = warnings.showwarning
    warnings.showwarning = _show_warning       # (restored: main is also called in-process)
    try:
        return _guarded(args.command, args.func, args)
    finally:
        warnings.showwarning = shown


if __name__ == "__main__":
    sys.exit(main())
