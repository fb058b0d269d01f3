"""``mysqlddl events BINLOG...``: binlog events as JSON Lines, one object per event."""

from __future__ import annotations

import argparse
import json
import re
import sys

from ..errors import ConfigError
from . import args as common

HELP = "binlog events as JSON Lines (one object per event)"


def _event_type(text: str) -> str:
    """An event type name (case-insensitive), checked against the reader's table of types, or
    ``TYPE_<n>``, the name the reader gives a type code it does not know."""
    from ..binlog.events import EventType  # heavy (the event decoders): only when --type is given

    name = text.upper()
    if name not in EventType.__members__ and not re.fullmatch(r"TYPE_\d+", name):
        raise argparse.ArgumentTypeError(
            f"unknown event type {text!r} (one of: {', '.join(sorted(EventType.__members__)).lower()})")
    return name


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, common.OK, common.INPUT_REJECTED, common.USAGE)
    common.add_binlog_inputs(sp)
    common.add_positions(sp, "print events")
    sp.add_argument("--type", action="append", type=_event_type, metavar="TYPE",
                    help="only events of this type, e.g. query or write_rows (repeatable)")
    sp.add_argument("--rows", action="store_true", help="decode the row images of rows events")
    common.add_verify_checksums(sp)
    sp.add_argument("--stop-at-truncated-tail", action="store_true",
                    help="end cleanly at the last complete event of a file still being written")
    common.add_server_source(sp)


def run(args: argparse.Namespace) -> int:
    # lazy: the binlog reader loads only when this subcommand runs (cli/main.py)
    from ..binlog.events.jsonable import event_to_dict
    from ..binlog.reader import BinlogReader
    from ..options import Options

    opts = Options(verify_checksums=not args.no_verify_checksums,
                   stop_at_truncated_tail=args.stop_at_truncated_tail)
    args.binlogs = common.binlog_inputs(args.binlogs)
    if common.is_server_uri(args.binlogs[0]):
        # a server streamed as a replica (mysqlddl.sources): it starts and stops by itself
        from ..sources import open_source

        if len(args.binlogs) != 1:
            raise ConfigError("a server input (mysql://...) is the only input: give it alone")
        reader = open_source(args.binlogs[0], common.server_source_options(args, opts))
    else:
        common.distinct_binlogs(args.binlogs)
        common.refuse_server_options(args)
        common.check_file_positions(args)
        reader = BinlogReader(args.binlogs, options=opts, start=common.file_position(args.start_position),
                              stop=common.file_position(args.stop_position))
    types = set(args.type) if args.type else None
    for ev in reader:
        if types is None or ev.type_name in types:
            sys.stdout.write(json.dumps(event_to_dict(ev, rows=args.rows), ensure_ascii=True) + "\n")
    close = getattr(reader, "close", None)
    if close is not None:
        close()
    if getattr(reader, "truncated", None) is not None:
        t = reader.truncated
        print(f"mysqlddl events: {t.file}: stopped at {t.pos}, the last complete event's end "
              f"(the event there needs {t.needed} bytes, {t.available} are written)", file=sys.stderr)
    return 0
