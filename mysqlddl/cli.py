"""The `mysqlddl` command: one subcommand per stage. `main(argv) -> int` is the whole interface,
so tests call it directly and as a subprocess.

Exit codes: 0 success, 1 input was rejected (a positioned error was printed), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata, resources

from . import __version__
from .errors import MysqlddlError


def grammar_stamp() -> dict:
    """The stamp of the generated parser that this installation carries (see tools/grammar_build.py)."""
    try:
        return json.loads(resources.files("mysqlddl._generated").joinpath("STAMP.json").read_text())
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise MysqlddlError(f"the generated parser is missing from this installation ({e}); "
                            "run `python tools/regen.py` in a source checkout or reinstall") from e


def _cmd_version(args: argparse.Namespace) -> int:
    from .binlog import speedups

    stamp = grammar_stamp()
    print(f"mysqlddl {__version__}")
    print(f"antlr4-python3-runtime {metadata.version('antlr4-python3-runtime')}")
    print(f"grammar: antlr {stamp['antlr']}")
    for name, digest in sorted(stamp["grammars"].items()):
        print(f"  {name} sha256:{digest[:16]}")
    print(f"speedups: {speedups.IMPLEMENTATION}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mysqlddl", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sp = sub.add_parser("version", help="package, ANTLR runtime, grammar stamp and speedups status")
    sp.set_defaults(func=_cmd_version)

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
