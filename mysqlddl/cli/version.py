"""``mysqlddl version`` (and ``mysqlddl --version``): the package, the ANTLR runtime, the stamp of
the generated parser and whether the compiled core is in use."""

from __future__ import annotations

import argparse
import json
from importlib import metadata, resources

from .. import __version__
from ..errors import MysqlddlError
from . import args as common

HELP = "package, ANTLR runtime, grammar stamp and speedups status"


def grammar_stamp() -> dict:
    """The stamp of the generated parser that this installation carries (see tools/grammar_build.py)."""
    try:
        return json.loads(resources.files("mysqlddl._generated").joinpath("STAMP.json").read_text())
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise MysqlddlError(f"the generated parser is missing from this installation ({e}); "
                            "run `python tools/regen.py` in a source checkout or reinstall") from e


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, common.OK, "1  the generated parser is missing from this installation")


def run(args: argparse.Namespace | None = None) -> int:
    # the selector picks the compiled core or its pure twin on import: loaded only when asked
    from ..binlog import speedups

    stamp = grammar_stamp()
    print(f"mysqlddl {__version__}")
    print(f"antlr4-python3-runtime {metadata.version('antlr4-python3-runtime')}")
    print(f"grammar: antlr {stamp['antlr']}")
    for name, digest in sorted(stamp["grammars"].items()):
        print(f"  {name} sha256:{digest[:16]}")
    print(f"speedups: {speedups.IMPLEMENTATION}")
    return 0
