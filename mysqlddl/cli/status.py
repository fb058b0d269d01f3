"""``mysqlddl status PIPELINE.toml``: the stored checkpoint, the schema history version and the
stats of a pipeline, read without running anything (the store is opened read-only)."""

from __future__ import annotations

import argparse
import datetime
import json

from . import args as common

HELP = "show a pipeline's checkpoint and stats"
EXIT_CODES = (common.OK, "1  the pipeline file or its checkpoint store cannot be read", common.USAGE)


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, *EXIT_CODES)
    sp.add_argument("pipeline", metavar="PIPELINE.toml", help="the pipeline file")
    sp.add_argument("--json", action="store_true", help="print the status as one JSON object")


def _ts(t) -> str:
    if not t:
        return "-"
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def run(args: argparse.Namespace) -> int:
    # lazy: the pipeline loads the change reader and the sinks (cli/main.py: only when this runs)
    from ..pipeline import pipeline_status

    st = pipeline_status(args.pipeline)
    if args.json:
        print(json.dumps(st, sort_keys=True))
        return 0
    print(f"pipeline {st['pipeline']} (store {st['store']})")
    ck = st["checkpoint"]
    if ck is None:
        print("no checkpoint yet")
        return 0
    olr = (ck.get("position") or {}).get("kind") == "olr"
    print(f"checkpoint: {ck['file']}:{ck['pos']} written {_ts(ck['time'])} by mysqlddl {ck['written_by']}")
    if olr:
        # (an OLR source: the message that ended the last committed transaction, at that byte offset)
        p = ck["position"]
        print(f"OLR position: c_scn {p['c_scn']} c_idx {p['c_idx']} scn {p['scn'] if p['scn'] is not None else '-'}"
              f" xid {p['xid'] or '-'}")
    print(f"source: {ck['source_id']}")
    fo = ck.get("failover")
    if fo:
        # (the last failover followed: pipeline.failover)
        print(f"failover {fo['epoch']}: from {fo['from']} (at {fo['from_position']}) to {fo['to']}, "
              f"{_ts(fo['time'])}, gone on after GTID set {fo['gtid_set']}")
    if not olr:
        print(f"GTID set: {ck['gtid_set'] or '-'}")
    xa = (ck.get("reader_state") or {}).get("xa_replay")
    if xa:
        # (prepared XA transactions open at the checkpoint: a restart reads again from the first's start)
        print(f"XA transactions prepared, not resolved: {xa['pending']} (a restart reads again from "
              f"{xa['file']}:{xa['pos']})")
    print(f"schema history version: {st['history_version']}; next sequence: {ck['sequence']}")
    s = st["stats"]
    print(f"transactions {s['transactions']}, DDL {s['ddl']}, DML rows {s['dml_rows']} "
          f"({', '.join(f'{k}={v}' for k, v in s['dml_by_op'].items()) or '-'}), skipped {s['skipped']}, "
          f"batches {s['batches']} (avg {s['avg_batch_size']} transactions), retries {s['retries']}")
    for table, ops in s["dml"].items():
        print(f"  {table}: " + ", ".join(f"{op}={n}" for op, n in ops.items()))
    for table, column, reason, action, n in s.get("value_policy", ()):
        print(f"  value policy: {table}.{column}: {reason} -> {action} x{n}")
    if s["recent"]:
        b = s["recent"][-1]
        print(f"last batch: source committed {_ts(b['source_committed'])}, read {_ts(b['read'])}, sink committed "
              f"{_ts(b['sink_committed'])} (lag {s.get('lag_s', 0):.1f} s)")
    f = st["stats_file"]
    if f is not None:
        print(f"stats file updated {_ts(f.get('updated'))} ({'running' if f.get('running') else 'not running'})")
    return 0
