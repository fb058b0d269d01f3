"""``mysqlddl spark INPUT... --out DIR``: the change events of archived binlogs as Parquet, on Spark
(mysqlddl[spark]; the job is :mod:`mysqlddl.spark.job`). The arguments are `changes`'s shared groups,
so both read the baseline and decode alike and their outputs agree."""

from __future__ import annotations

import argparse

# importing the job's module loads no pyspark: only its run does (tests/cli checks that `mysqlddl
# --help` leaves pyspark and pyarrow unloaded)
from ..spark.job import run_args
from . import args as common

HELP = "change events of archived binlogs as Parquet, on Spark (mysqlddl[spark])"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, common.OK, "1  the input was rejected (a positioned error is on stderr), or "
                          "pyspark is not installed", common.USAGE, common.MISMATCH)
    common.add_binlog_inputs(sp, dest="inputs", metavar="INPUT", where="; paths every executor can read")
    sp.add_argument("--out", required=True, metavar="DIR", help="output directory (its changes/, tables/, "
                    "history.jsonl and summary.json are replaced on a re-run)")
    sp.add_argument("--master", metavar="URL", help="Spark master (default: local[*], or spark-submit's)")
    common.add_baseline(sp)
    sp.add_argument("--range-size", type=common.size, default=64 << 20, metavar="SIZE",
                    help="bytes per decode task, cut at transaction boundaries (default 64M; 16M-128M "
                    "suits clusters)")
    common.add_change_events(sp)
    common.add_server_name(sp)
    sp.add_argument("--typed", action="store_true",
                    help="also write tables/db=<db>/table=<table>/version=<file_seq>-<pos>/: per table version, its "
                    "row changes with one typed column per column (see mysqlddl.sinks.typed)")
    sp.add_argument("--log-level", default="FATAL", help="Spark's log level (default FATAL: a failed task "
                    "is reported once, as its typed error; WARN or ERROR show Spark's own logs)")


def run(args: argparse.Namespace) -> int:
    # (its changes/, tables/, ... are replaced: a directory holding an input is refused first)
    common.refuse_inputs_as_outputs([*args.inputs, args.schema], [("--out", args.out, True)])
    # the baseline and the options exactly as `changes` reads and sets them
    return run_args(args, schema=common.read_baseline(args), options=common.baseline_options(args))
