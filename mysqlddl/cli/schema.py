"""``mysqlddl schema FILE.sql...``: apply DDL scripts in order and print the resulting catalog."""

from __future__ import annotations

import argparse
import sys

from . import args as common

HELP = "apply DDL scripts in order and print the resulting catalog"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    common.set_exit_codes(sp, common.OK, "1  a script cannot be read, or a statement cannot be parsed or "
                          "applied (its position in the file is on stderr)", common.USAGE)
    sp.add_argument("files", nargs="+", metavar="FILE.sql", help="DDL scripts, applied in order")
    common.add_schema_encoding(sp, "--encoding", "FILE.sql")
    common.add_dialect(sp)
    common.add_server_settings(sp)
    sp.add_argument("--format", choices=("json", "sql"), default="json",
                    help="json: deterministic {\"tables\": [...]}; sql: canonical CREATE TABLE text")
    sp.add_argument("--database", default="test", metavar="DB",
                    help="default database for unqualified names until a USE (default: test)")


def run(args: argparse.Namespace) -> int:
    # the DDL engine and the model: only when a subcommand applies DDL
    from ..commands import UseDatabase
    from ..ddl import run_script
    from ..model import Catalog, render
    from ..options import Options

    common.check_readable(args.files)
    opts = common.server_options(args, Options(dialect=args.dialect))
    catalog = Catalog.empty(opts)
    if args.database:
        catalog = UseDatabase(args.database).apply(catalog, opts)
    for path in args.files:
        catalog = run_script(catalog, common.read_text(path, encoding=args.encoding), opts, source=path).catalog
    if args.format == "sql":
        sys.stdout.write(render.catalog_sql(catalog, opts))
    else:
        sys.stdout.write(render.dumps(render.catalog_json(catalog)) + "\n")
    return 0
