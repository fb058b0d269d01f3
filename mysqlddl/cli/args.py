"""The argument groups several subcommands share, defined once, and the checks on paths.

    add_binlog_inputs(sp)           BINLOG... (file, directory, .index file or glob)
    add_verify_checksums(sp)        --no-verify-checksums
    add_dialect(sp)                 --dialect mysql|mariadb|oracle
    add_server_settings(sp)         --server-version X.Y.Z, --set VAR=VALUE (the schema model's inputs)
    add_positions(sp, what)         --start-position / --stop-position, N or FILE:N
    add_baseline(sp)                --schema, --schema-encoding, --schema-database, --schema-position, --ddl-errors
    add_change_events(sp)           --on-mismatch, --truncate-events, --pk-change, --include-query
    add_stream_parts(sp)            --name, --no-transactions, --no-schema-changes
    add_filters(sp, what)           mysqlbinlog's filters (positions, datetimes, databases, tables, GTIDs)
    add_output(sp)                  -o/--output and --progress
    add_output_format(sp)           --format native|debezium, --topics-dir, --schemas, Debezium's handling modes
    add_summary(sp)                 --summary text|json|none
    set_exit_codes(sp, codes)       the exit codes, listed under --help

A bad value is a usage error: the ``type=`` functions raise ArgumentTypeError, so argparse prints
the usage line and exits 2 before anything is read. A path that cannot be read or written is an
input error (exit 1) with a one-line message naming the path and the problem (:func:`open_output`,
:func:`read_text`, :func:`distinct_binlogs`, :func:`writing`); so is an output that is one of the
inputs (:func:`refuse_inputs_as_outputs`), a position the inputs do not have
(:func:`check_file_positions`) and a server input's option given with files
(:func:`refuse_server_options`).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import errno
import os
import re
import sys
import textwrap

from ..errors import ConfigError, MysqlddlError
from ..options import SERVER_SETTINGS, Options, change_event_options
from ..paths import holds, same_file

# mysqlddl.changes and mysqlddl.binlog.reader are imported where they are used, not here: they take
# 0.2-0.4 s to import (the DDL commands, the row decoders), which `mysqlddl --help`, `parse` or
# `schema` must not pay.

# ------------------------------------------------------------------------------------- exit codes

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_MISMATCH = 3
#: stopped by a signal: 128 + its number, the shell's convention (130 SIGINT, 143 SIGTERM)
EXIT_SIGNAL = 128

OK = "0  success"
INPUT_REJECTED = ("1  the input was rejected: a path that cannot be read or written, or an input error "
                  "(the positioned error is on stderr)")
USAGE = "2  usage error (bad option or value; the usage line is printed)"
STOPPED = ("130  stopped by SIGINT (Ctrl-C), 143 by SIGTERM: what was read is written and flushed, the summary "
           "printed")
MISMATCH = ("3  a TABLE_MAP does not match the table version in force (the baseline is missing or wrong; "
            "--on-mismatch flag decodes such rows by the TABLE_MAP alone and marks them)")


def set_exit_codes(sp: argparse.ArgumentParser, *codes: str) -> None:
    """List ``codes`` (lines such as :data:`OK`) under the subcommand's --help."""
    sp.epilog = "exit codes:\n" + "\n".join(textwrap.fill(c, 100, initial_indent="  ", subsequent_indent="     ",
                                                           break_on_hyphens=False)
                                             for c in codes)
    sp.formatter_class = argparse.RawDescriptionHelpFormatter


# --------------------------------------------------------------------------------- value types


def position(text: str) -> int | str:
    """``N`` (an int: in the first file for a start, the last for a stop, as mysqlbinlog) or
    ``FILE:N`` (kept as text, the form the change reader takes)."""
    f, sep, p = text.rpartition(":")
    if not re.fullmatch(r"\d+", p) or (sep and not f):
        raise argparse.ArgumentTypeError(f"not a binlog position (N or FILE:N): {text!r}")
    return text if sep else int(p)


def file_position(value: int | str | None) -> int | tuple[str, int] | None:
    """A :func:`position` as the binlog reader takes it: an int or ``(file, pos)``."""
    if value is None or isinstance(value, int):
        return value
    f, _, p = value.rpartition(":")
    return (f, int(p))


def gtid_set(text: str):
    """A GTID set (:class:`~mysqlddl.changes.GtidSet`), parsed once here for the filters."""
    from ..changes import GtidSet  # heavy: see the imports above

    try:
        return GtidSet(text)
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def datetime_arg(text: str) -> int:
    """``YYYY-MM-DD[ HH:MM:SS]`` (UTC unless an offset is given) or ``@EPOCH`` -> epoch seconds.
    Binlog timestamps are UTC epoch seconds; mysqlbinlog reads these in the local zone, we do not
    guess one."""
    if text.startswith("@"):
        try:
            return int(text[1:])
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an epoch: {text!r}") from None
    try:
        dt = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a datetime (YYYY-MM-DD HH:MM:SS): {text!r}") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    return int(dt.timestamp())


def size(text: str) -> int:
    """``65536``, ``64k``, ``16M``, ``128MiB``, ``1G`` -> bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", text, re.I)
    if not m or int(m.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"not a size (N, Nk, NM, NG): {text!r}")
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]


def count(text: str) -> int:
    """A whole number, 0 or more (``--reconnect-attempts``)."""
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise argparse.ArgumentTypeError(f"not a count (a whole number, 0 or more): {text!r}")
    return int(text)


def encoding(text: str) -> str:
    """A MySQL charset name or a Python codec name (checked now: an unknown one is a usage error)."""
    from ..textfiles import encoding_name  # heavy: the charset tables (see the imports above)

    try:
        encoding_name(text)
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def server_version(text: str) -> tuple[int, int, int]:
    """``8.0.40``, ``10.11`` (patch 0) or a server's own version string (``10.11.19-MariaDB-log``)."""
    try:
        return _settings().parse_server_version(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _settings():
    from ..model import settings  # heavy: the model package, ~50 ms that `mysqlddl --help` must not pay

    return settings


def setting(text: str) -> tuple[str, object]:
    """``VAR=VALUE`` -> (Options field, value); an unknown variable or a bad value is a usage error
    that lists what is accepted (:func:`mysqlddl.model.settings.parse_setting`)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"not VAR=VALUE: {text!r}")
    try:
        return _settings().parse_setting(name, value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# ------------------------------------------------------------------------------------- groups


def add_binlog_inputs(sp: argparse.ArgumentParser, *, dest: str = "binlogs", metavar: str = "BINLOG",
                      where: str = "") -> None:
    sp.add_argument(dest, nargs="+", metavar=metavar,
                    help=f"binlog file, directory, .index file or glob (in order; each file once){where}")


def add_verify_checksums(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--no-verify-checksums", action="store_true", help="do not verify CRC32")


def add_dialect(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--dialect", choices=("mysql", "mariadb", "oracle"), default="mysql",
                    help="whose rules apply where the servers differ (default: mysql)")


def add_server_settings(sp: argparse.ArgumentParser, *, binlogs: bool = False) -> None:
    """The server the DDL ran on, as the schema model needs it (:func:`server_options`). ``binlogs``:
    a command that reads binlogs, which has no --dialect (each binlog names its server)."""
    default = ("a binlog's FORMAT_DESCRIPTION event names its server's version and dialect (MySQL or MariaDB), "
               "and those are the ones used" if binlogs else "default: 8.0.40, or 10.11 with --dialect mariadb")
    sp.add_argument("--server-version", type=server_version, metavar="X.Y.Z",
                    help="the server version the DDL ran on (versioned comments, and the defaults that "
                    "changed between versions, e.g. explicit_defaults_for_timestamp ON from MySQL 8.0.2 "
                    f"and MariaDB 10.10; {default})")
    sp.add_argument("--set", dest="settings", type=setting, action="append", default=[], metavar="VAR=VALUE",
                    help="a server variable as the DDL ran with it (repeatable): "
                    + ", ".join(n for n in SERVER_SETTINGS if n != "storage_engine"))


def add_positions(sp: argparse.ArgumentParser, what: str, note: str = "") -> None:
    sp.add_argument("--start-position", type=position, metavar="N|FILE:N",
                    help=f"{what} from this position on, where an event starts (N: a byte offset in the first "
                    f"file){note}")
    sp.add_argument("--stop-position", type=position, metavar="N|FILE:N",
                    help="stop before this position (N: a byte offset in the last file)")


def add_baseline(sp: argparse.ArgumentParser) -> None:
    """What :func:`read_baseline` and :func:`baseline_options` read (``changes``, ``history`` and
    ``spark`` take them alike, so their outputs agree)."""
    sp.add_argument("--schema", metavar="DDL.sql",
                    help="baseline DDL (e.g. mysqldump --no-data) applied before the first event")
    add_schema_encoding(sp)
    sp.add_argument("--schema-database", metavar="DB", help="default database for the baseline's "
                    "unqualified names until its first USE")
    sp.add_argument("--schema-position", type=position, metavar="FILE:N", help="where the baseline was "
                    "taken: DDL events ending at or before it are already in it and are not applied again")
    sp.add_argument("--ddl-errors", choices=("raise", "warn", "skip"), default="raise",
                    help="a DDL that cannot be parsed or applied: raise stops with its positioned error "
                    "(exit 1, the default); warn leaves it out, prints a warning on stderr and goes on; "
                    "skip leaves it out silently and goes on (both count it in the summary)")
    add_verify_checksums(sp)
    add_server_settings(sp, binlogs=True)


def add_schema_encoding(sp: argparse.ArgumentParser, option: str = "--schema-encoding", what: str = "--schema") -> None:
    sp.add_argument(option, type=encoding, metavar="CHARSET",
                    help=f"the {what} file's encoding: a MySQL charset (latin1, utf8mb4, ...) or a Python codec "
                    "(default: as its byte-order mark or opening SET NAMES says, as mysqldump writes it, else UTF-8)")


def add_filters(sp: argparse.ArgumentParser, what: str) -> None:
    """mysqlbinlog's filters; for ``history`` they choose the records printed, as DDL before the
    start still builds the history."""
    add_positions(sp, what, "; DDL before it still builds the history")
    sp.add_argument("--start-datetime", type=datetime_arg, metavar="DT",
                    help="only events at or after this time (UTC, or with an offset, or @EPOCH)")
    sp.add_argument("--stop-datetime", type=datetime_arg, metavar="DT", help="only events before this time")
    sp.add_argument("--database", action="append", default=[], metavar="DB",
                    help="only these databases (repeatable; fnmatch patterns)")
    sp.add_argument("--exclude-database", action="append", default=[], metavar="DB",
                    help="not these databases (repeatable; fnmatch patterns; wins over --database)")
    sp.add_argument("--table", action="append", default=[], metavar="[DB.]TABLE",
                    help="only these tables (repeatable; fnmatch patterns)")
    sp.add_argument("--exclude-table", action="append", default=[], metavar="[DB.]TABLE",
                    help="not these tables (repeatable; fnmatch patterns; wins over --table)")
    sp.add_argument("--include-gtids", type=gtid_set, metavar="SET", help="only transactions in this GTID "
                    "set (uuid:1-5:7 or MariaDB domain-server-seq / domain-server:1-5)")
    sp.add_argument("--exclude-gtids", type=gtid_set, metavar="SET",
                    help="not the transactions in this GTID set (same forms as --include-gtids)")


def add_change_events(sp: argparse.ArgumentParser) -> None:
    """How the change events are made (``changes`` and ``spark`` take them alike)."""
    sp.add_argument("--on-mismatch", choices=("raise", "flag"), default="raise",
                    help="a TABLE_MAP that disagrees with the schema: stop with exit 3 (default), or "
                    "decode those rows by the TABLE_MAP alone and mark them")
    sp.add_argument("--truncate-events", action="store_true",
                    help="also emit Debezium's op \"t\" event per truncated table (Debezium skips them by "
                    "default: skipped.operations=t)")
    sp.add_argument("--pk-change", choices=("update", "split"), default="update",
                    help="an UPDATE that changes the primary key: one \"u\" event (default), or split: a "
                    "\"d\" then a \"c\" event with __debezium.newkey/oldkey headers, as Debezium does")
    sp.add_argument("--include-query", action="store_true",
                    help="fill source.query with the statement from ROWS_QUERY / ANNOTATE_ROWS events (off by "
                    "default, as Debezium's include.query: a multi-row INSERT repeats in every row's event)")


def add_server_name(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--name", default="mysqlddl", help="the logical server name in source.name")


def add_stream_parts(sp: argparse.ArgumentParser) -> None:
    """--name, and which events besides the row changes are in the stream (``changes``, ``olr``)."""
    add_server_name(sp)
    sp.add_argument("--no-transactions", action="store_true", help="leave out BEGIN/END events")
    sp.add_argument("--no-schema-changes", action="store_true", help="leave out schema-change events")


def add_output(sp: argparse.ArgumentParser, *, progress: bool = True) -> None:
    sp.add_argument("-o", "--output", metavar="OUT", help="write JSON Lines here instead of stdout")
    if progress:
        sp.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                        help="progress bar on stderr (auto: only when stderr is a terminal)")


def add_output_format(sp: argparse.ArgumentParser) -> None:
    """The output format (:func:`debezium_options` builds the Debezium format's options). The four
    handling modes are Debezium's MySQL connector properties, under their names and values."""
    g = sp.add_argument_group("output format")
    g.add_argument("--format", choices=("native", "debezium"), default="native",
                   help="native (default): our envelope with exact values, one stream; debezium: Debezium's "
                   "MySQL connector messages (key, value, topic; Debezium's value encodings, tombstones, "
                   "transaction and schema-change topics), one JSON line {topic, key, value[, headers]} each")
    g.add_argument("--topics-dir", metavar="DIR", help="with --format debezium: one file per topic instead of "
                   "--output, DIR/<topic>.jsonl (values; a tombstone is an empty line) and DIR/<topic>.keys.jsonl")
    g.add_argument("--schemas", action="store_true", help="with --format debezium: each key and value as "
                   "{schema, payload} (Kafka Connect's JSON converter with schemas.enable=true)")
    g.add_argument("--decimal-handling-mode", choices=("precise", "double", "string"), default="precise",
                   help="Debezium's decimal.handling.mode (default precise)")
    g.add_argument("--time-precision-mode", choices=("adaptive_time_microseconds", "connect", "isostring"),
                   default="adaptive_time_microseconds", help="Debezium's time.precision.mode "
                   "(default adaptive_time_microseconds)")
    g.add_argument("--binary-handling-mode", choices=("bytes", "base64", "base64-url-safe", "hex"),
                   default="bytes", help="Debezium's binary.handling.mode (default bytes)")
    g.add_argument("--bigint-unsigned-handling-mode", choices=("long", "precise"), default="long",
                   help="Debezium's bigint.unsigned.handling.mode (default long)")
    g.add_argument("--no-tombstones", action="store_true", help="with --format debezium: no tombstone after a "
                   "delete (Debezium's tombstones.on.delete=false)")


def debezium_options(args: argparse.Namespace):
    """The DebeziumOptions of :func:`add_output_format`'s arguments (topic prefix: --name)."""
    from ..sinks.debezium import DebeziumOptions  # heavy: see the imports above

    return DebeziumOptions(decimal_handling_mode=args.decimal_handling_mode,
                           time_precision_mode=args.time_precision_mode,
                           binary_handling_mode=args.binary_handling_mode,
                           bigint_unsigned_handling_mode=args.bigint_unsigned_handling_mode,
                           schemas=args.schemas, topic_prefix=args.name, tombstones_on_delete=not args.no_tombstones,
                           include_query=args.include_query,
                           provide_transaction_metadata=not getattr(args, "no_transactions", False))


def add_summary(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--summary", choices=("text", "json", "none"), default="text",
                    help="closing statistics on stderr (default: text)")


# ---------------------------------------------------------------------------- what they build


def server_options(args: argparse.Namespace, options: Options) -> Options:
    """``options`` with :func:`add_server_settings`'s arguments (a later --set of one variable wins)."""
    changes: dict[str, object] = dict(getattr(args, "settings", None) or [])
    if getattr(args, "server_version", None) is not None:
        changes["server_version"] = args.server_version
    return options.replace(**changes) if changes else options


def baseline_options(args: argparse.Namespace) -> Options:
    """:func:`~mysqlddl.options.change_event_options` from :func:`add_baseline`'s arguments."""
    return server_options(args, change_event_options(verify_checksums=not args.no_verify_checksums,
                                                     ddl_errors=args.ddl_errors))


def read_baseline(args: argparse.Namespace) -> str | None:
    """The --schema file's text, or None."""
    return None if args.schema is None else read_text(args.schema, option="--schema", encoding=args.schema_encoding,
                                                      encoding_option="--schema-encoding")


# ------------------------------------------------------------------------------------- paths


def _problem(e: OSError) -> str:
    return (e.strerror or str(e)).lower()


def read_text(path: str, *, option: str | None = None, encoding: str | None = None,
              encoding_option: str = "--encoding") -> str:
    """A DDL script's text, in ``encoding`` or as its byte-order mark or opening SET NAMES says,
    else UTF-8 (:func:`mysqlddl.textfiles.sql_text`: bytes that are not text in it are a positioned
    error naming ``encoding_option``); a path that cannot be read is a one-line :class:`ConfigError`."""
    from ..textfiles import sql_text  # heavy: the charset tables (see the imports above)

    label = f"{option} {path}" if option else path
    if os.path.isdir(path):
        raise ConfigError(f"{label}: cannot read: is a directory, not a file")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ConfigError(f"{label}: cannot read: {_problem(e)}") from None
    return sql_text(raw, encoding=encoding, label=label, option=encoding_option)


def check_readable(paths, *, what: str = "file") -> None:
    """Every path is a readable file (checked before any is read, so the first bad one is named
    before work starts)."""
    for path in paths:
        if os.path.isdir(path):
            raise ConfigError(f"{path}: cannot read: is a directory, not a {what}")
        if not os.path.exists(path):
            raise ConfigError(f"{path}: cannot read: no such file")
        if not os.access(path, os.R_OK):
            raise ConfigError(f"{path}: cannot read: permission denied")


def open_output(path: str | None, *, binary: bool = False, option: str = "--output"):
    """``path`` opened for writing (truncated), or stdout when None (its binary layer when
    ``binary`` and it has one, else the text stream). A path that cannot be written is a one-line
    :class:`ConfigError`. The caller closes what is not stdout."""
    if path is None:
        return getattr(sys.stdout, "buffer", sys.stdout) if binary else sys.stdout
    try:
        return open(path, "wb") if binary else open(path, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise ConfigError(f"{option} {path}: cannot write: {_problem(e)}") from None


def check_writable(path: str, *, option: str) -> None:
    """``path`` can be created or replaced (checked before a long run that writes it at the end)."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ConfigError(f"{option} {path}: is a directory, not a file")
    if not os.path.isdir(parent):
        raise ConfigError(f"{option} {path}: cannot write: no such directory {parent}")
    if not os.access(parent, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ConfigError(f"{option} {path}: cannot write: permission denied")


def binlog_inputs(inputs) -> list[str]:
    """The inputs with each ``file://`` URI as its path (a server URI stays as given); any other
    ``scheme://`` is a SourceUriError naming the schemes taken (issue #30 item 14: ``postgres://...``
    was "glob matches no files", ``http://...`` "no such file")."""
    from ..sources.uri import FileUri, parse_uri  # heavy: the sources package (see the imports above)

    out = []
    for given in inputs:
        uri = parse_uri(given) if "://" in str(given) else None
        out.append(uri.path if isinstance(uri, FileUri) else given)
    return out


def distinct_binlogs(sources) -> None:
    """The binlog inputs name each file once. The same file twice would be read twice: its DDL
    again after itself, which the schema history rejects as going back in time, and its rows
    twice; say which file instead."""
    from ..binlog.files import resolve_sources  # heavy: see the imports above

    seen: dict[str, str] = {}
    for f in resolve_sources(list(sources)):
        key = os.path.realpath(f)
        if key in seen:
            raise ConfigError(f"{f}: the same binlog file is given twice (as {seen[key]} and {f}); "
                              "give each file once")
        seen[key] = str(f)


def refuse_inputs_as_outputs(inputs, outputs) -> None:
    """No output is one of the inputs, and no output directory holds one (issue #30 item 1: ``-o``
    naming the input truncated it to 0 bytes, then blamed the file). Checked before anything is
    opened for writing. ``inputs``: the paths read (server URIs are left out; a binlog directory,
    glob or .index file stands for its files too); ``outputs``: ``(option, path, is_directory)``,
    a None path skipped. Same file = same device and inode (:mod:`mysqlddl.paths`), so a symlink or a
    hard link to an input is refused like its own name."""
    from ..binlog.files import resolve_sources  # heavy: see the imports above

    files: list[tuple[str, str]] = []          # (the input as given, a file it names)
    for given in inputs:
        if given is None or is_server_uri(given):
            continue
        given = os.fspath(given)
        files.append((given, given))
        try:
            files.extend((given, os.fspath(f)) for f in resolve_sources(given) if os.fspath(f) != given)
        except (MysqlddlError, OSError):        # (not a binlog input: the file itself is what is read)
            pass
    for option, out, is_dir in outputs:
        if out is None:
            continue
        for given, f in files:
            if is_dir and holds(out, f):
                raise ConfigError(f"{option} {out}: holds the input {given}: writing there could overwrite it; "
                                  "give another directory")
            if not is_dir and same_file(out, f):
                raise ConfigError(f"{option} {out}: is the input {given}"
                                  f"{'' if f == given else f' (its file {f})'}: writing it would destroy it; "
                                  "give another path")


def check_file_positions(args: argparse.Namespace) -> None:
    """--start-position / --stop-position against file inputs: as the file source checks a
    position given for its files (:meth:`mysqlddl.sources.FileSource.check_position`, which a
    pipeline's ``[source] start_position`` meets too)."""
    from ..sources import FileSource  # heavy: see the imports above

    source = FileSource(list(args.binlogs))
    for option, value, start in (("--start-position", args.start_position, True),
                                 ("--stop-position", args.stop_position, False)):
        if value is not None:
            source.check_position(value, option, start=start)


#: what only a server input takes: (option, dest, why a file input cannot)
_SERVER_ONLY = (("--follow", "follow", "; to follow a growing binlog directory, run a pipeline (mysqlddl run)"),
                ("--from-now", "from_now", ""), ("--start-gtid", "start_gtid", ""),
                # (how a server is reached and read: a file has no connection, no row image setting)
                ("--allow-minimal", "allow_minimal", ""), ("--defaults-file", "defaults_file", ""),
                ("--reconnect-attempts", "reconnect_attempts", ""))


def refuse_server_options(args: argparse.Namespace) -> None:
    """With file inputs, the options of a server input are refused, not ignored (issue #30 item 13:
    --follow, --from-now, --defaults-file, --allow-minimal, --reconnect-attempts on files were
    silently dropped): a file input is read from its start (or --start-position) to its end. An
    option given at its default value is refused too (their defaults are None/False here, the
    server's default applied in :func:`server_source_options`)."""
    for option, dest, more in _SERVER_ONLY:
        if getattr(args, dest, None) not in (None, False):
            raise ConfigError(f"{option} needs a server input (mysql://USER@HOST:PORT/?server-id=N): a file "
                              f"input is read to its end{more}")
    if getattr(args, "snapshot", None) not in (None, "auto"):
        raise ConfigError(f"--snapshot {args.snapshot} needs a server input (mysql://USER@HOST:PORT/?server-id=N): "
                          "a file input's baseline is --schema")


#: the errors of a write that failed where the output is (a full or read-only device, a quota, a
#: file too large), which the OSError of a write, flush or close does not name (errno(3))
_WRITE_ERRNOS = frozenset(getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EIO")
                          if hasattr(errno, n))


@contextlib.contextmanager
def writing(path: str | None, *, option: str = "--output"):
    """Run the block that writes ``path``: a write to it that fails is a one-line ConfigError naming
    the option, the path and the OS error (issue #30 item 14: ``-o /dev/full`` said "(no file name):
    no space left on device", a write's OSError carrying no file name)."""
    try:
        yield
    except OSError as e:
        if path is None or e.filename is not None or e.errno not in _WRITE_ERRNOS:
            raise
        raise ConfigError(f"{option} {path}: cannot write: {_problem(e)} ({errno.errorcode[e.errno]})") from None


def path_error(e: OSError) -> MysqlddlError:
    """An OSError that escaped the checks above, as the one-line error the CLI prints."""
    code = f" ({errno.errorcode[e.errno]})" if e.errno in errno.errorcode else ""
    if e.filename is None:          # (a write, flush or close names no file: see writing())
        return ConfigError(f"{_problem(e)}{code}")
    return ConfigError(f"{e.filename}: {_problem(e)}{code}")


# ------------------------------------------------------------------------ server sources (issue #20)


def is_server_uri(text) -> bool:
    """Whether an input names a server (``mysql://``, ``mariadb://``) rather than files."""
    return isinstance(text, str) and text.lower().startswith(("mysql://", "mariadb://"))


def add_server_source(sp: argparse.ArgumentParser) -> None:
    """How a ``mysql://USER@HOST:PORT/?server-id=N`` input is streamed (``--start-position`` and
    ``--stop-position`` apply to it as to files, FILE:N)."""
    g = sp.add_argument_group("server input (mysql://USER@HOST:PORT/?server-id=N, mariadb://...)")
    g.add_argument("--from-now", action="store_true", help="start at the server's current end (SHOW MASTER STATUS)")
    g.add_argument("--start-gtid", metavar="SET", help="start after this GTID set (MySQL uuid:1-5, "
                   "uuid:tag:1-5; MariaDB domain-server-seq per domain)")
    g.add_argument("--follow", action="store_true", help="never stop: stream changes as they are committed "
                   "(default: stop at the end the server reported at start)")
    g.add_argument("--allow-minimal", action="store_true", help="accept binlog_row_image=MINIMAL/NOBLOB")
    g.add_argument("--defaults-file", metavar="FILE", help="MySQL option file whose [client] group has the "
                   "user and password (else MYSQL_PWD, else a prompt on a terminal)")
    g.add_argument("--reconnect-attempts", type=count, default=None, metavar="N",
                   help="reconnections tried in a row after a lost connection (default 5)")
    g.add_argument("--snapshot", choices=("auto", "initial", "schema-only", "never"), default="auto",
                   help="before streaming, capture the included tables' schema (SHOW CREATE TABLE) and "
                   "the binlog position under one brief lock, as the baseline there: initial also emits "
                   "their rows (op r, in primary-key order) read in the same consistent snapshot, then "
                   "streams from exactly that position; schema-only captures the schema only; auto (the "
                   "default) is schema-only with --from-now and no --schema, else never")


def server_source_options(args: argparse.Namespace, decode: Options):
    """The SourceOptions of a server input's command line."""
    from ..sources import SourceOptions  # heavy: see the imports above

    def pos(p):
        return None if p is None else str(p)

    # (--reconnect-attempts not given: SourceOptions's default; None there tells it was not given)
    retries = {} if args.reconnect_attempts is None else {"reconnect_attempts": args.reconnect_attempts}
    return SourceOptions(decode=decode, start=pos(args.start_position), stop=pos(args.stop_position),
                         from_now=args.from_now, start_gtid=args.start_gtid, follow=args.follow,
                         allow_minimal=args.allow_minimal, defaults_file=args.defaults_file, **retries)
