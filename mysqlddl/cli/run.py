"""``mysqlddl run PIPELINE.toml [--once]``: run a checkpointed pipeline (source -> changes -> sink).

Without --once a file source follows its binlog directory (new files, rotation) until SIGTERM or
SIGINT, which stop it cleanly at a transaction end with a final checkpoint. One run of a pipeline at
a time: a second is refused at once (mysqlddl.pipeline.lock). Restarted, it goes on
from its checkpoint: nothing is delivered twice to a segment sink, nothing is lost. The pipeline
file's form is in mysqlddl.pipeline.config.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys

from . import args as common

HELP = "run a checkpointed pipeline (exactly-once into JSON Lines segments or PostgreSQL)"
EXIT_CODES = (common.OK, "1  the pipeline stopped on an error (the positioned error is on stderr; the checkpoint "
              "is intact: run again to go on), or was refused at once: another run of it holds its lock (its PID, "
              "host and start time are named)", common.USAGE)


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, *EXIT_CODES)
    sp.add_argument("pipeline", metavar="PIPELINE.toml", help="the pipeline file")
    sp.add_argument("--once", action="store_true", help="stop at the end of what exists now (no following)")
    sp.add_argument("--summary", choices=("text", "json", "none"), default="text",
                    help="what is printed on stderr at the end (default text)")


def run(args: argparse.Namespace) -> int:
    # lazy: the pipeline loads the change reader and the sinks (cli/main.py: only when this runs)
    from ..pipeline import Pipeline

    pipeline = Pipeline(args.pipeline)

    def stop(signum, frame):
        pipeline.request_stop()

    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        result = pipeline.run(once=args.once)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if args.summary == "json":
        print(json.dumps({"checkpoint": result.checkpoint.as_dict() if result.checkpoint else None,
                          "stats": result.stats, "stopped": result.stopped}, sort_keys=True), file=sys.stderr)
    elif args.summary == "text":
        ck = result.checkpoint
        st = result.stats
        where = "no checkpoint yet" if ck is None else str(ck.position) if getattr(ck.position, "kind", "") == "olr" \
            else f"{ck.position} (GTID set {ck.gtid_set or '-'})"      # (OLR output has no GTIDs)
        print(f"mysqlddl run: {'stopped' if result.stopped else 'done'} at {where}; transactions "
              f"{st['transactions']}, DDL {st['ddl']}, rows {st['dml_rows']}, skipped {st['skipped']}",
              file=sys.stderr)
        if st.get("snapshot_rows"):
            print(f"mysqlddl run: snapshot rows {st['snapshot_rows']} (op r: the tables as they were at the start "
                  "position)", file=sys.stderr)
        if st.get("rows_without_schema"):
            print("mysqlddl run: rows without a table definition: "
                  + ", ".join(f"{t}={n}" for t, n in st["rows_without_schema"].items()), file=sys.stderr)
    return 0
