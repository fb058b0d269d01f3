"""``mysqlddl history BINLOG...``: the schema history of a binlog set as JSON Lines (a header,
then one record per schema change). The reading is `changes`'s without the rows
(:func:`mysqlddl.cli.changes.run_history`)."""

from __future__ import annotations

import argparse

from . import args as common
from . import changes

HELP = "the schema history of a binlog set as JSON Lines"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, *changes.EXIT_CODES)
    common.add_binlog_inputs(sp)
    common.add_baseline(sp)
    common.add_output(sp)
    common.add_filters(sp, "print records")


def run(args: argparse.Namespace) -> int:
    changes.check(args)
    return changes.run_history(args)
