"""The pipeline file (TOML): one frozen dataclass per table, validated when read.

(Past 600 lines: every table of the file and its checks, each error naming the file and the key,
and the rule that no output lies on an input, which looks at all the tables at once; they share the
typed readers and the path rules, which a split would pass between modules.)

The minimal form (every other key optional, defaults below)::

    [source]
    uri = "file:///var/lib/mysql-archive/"      # a binlog file, a directory (its .index, or name.NNNNNN)
    [sink]
    uri = "jsonl:///data/changes/"              # segments in this directory; or "stdout:"
    [checkpoint]
    uri = "sqlite:///data/pipeline-state.db"    # default: <pipeline file>.state.db beside it

Every key::

    name = "NAME"                   # the pipeline's name, its row in the store (default: the file's stem)
    [source]   uri (a binlog file or directory; or mysql://USER@HOST:PORT/?server-id=N, a server
               streamed as a replica: its password from MYSQL_PWD or defaults_file); poll_ms = 200
               (how often a followed directory is looked at); defaults_file (a server source's MySQL option file);
               or olr:///PATH, OpenLogReplicator output (a file or a directory: mysqlddl.olr.source),
               with time_unit = "ns" and tm_unit (as `mysqlddl olr`; [changes] schema is then Oracle
               DDL and schema_database its default owner); on_identity_change = "follow-gtid" | "error"
               (a server whose identity is not the checkpoint's, a failover: go on from the checkpoint's
               GTID set when the server holds it, or refuse; pipeline.failover). Where the first run
               starts, at most one of: start_position = "FILE:POS" (a server streams from there; on
               files the history is built from their start and delivery begins there, as `mysqlddl
               changes --start-position`), start_gtid (a server: after this GTID set), from_now = true
               (a server: its current end); snapshot = "auto" | "never" | "schema-only" | "initial" (a
               server's, as `mysqlddl changes --snapshot`: auto is schema-only with from_now and no
               [changes] schema, else never; initial delivers the tables' rows, op r, and the first
               checkpoint is at the captured position). They apply only while the pipeline has no checkpoint:
               a checkpoint wins (a restart goes on from it, whatever they say now)
    [sink]     uri; format = "native" | "debezium" (sinks.segments.FORMATS; [sink.debezium] takes
               Debezium's properties by their names: "decimal.handling.mode" = "string", ...);
               segment_bytes = 67108864;
               segment_seconds = 300 (a segment is closed at the first commit past either);
               sequence = "segment" | "line" (sinks.segments: the sequence number by the line's place
               in a segment named by its first number, or also written in every line)
    [checkpoint] uri; every_transactions = 1000; every_ms = 1000 (a batch is committed at the first
               transaction end past either, never inside a transaction)
    [changes]  what `mysqlddl changes` takes: schema (a DDL file, the baseline), schema_encoding
               (its charset; default: its byte-order mark or opening SET NAMES, else UTF-8), schema_database,
               schema_position, ddl_errors (raise|warn|skip), verify_checksums, databases,
               exclude_databases, tables, exclude_tables, operations (subset of c u d t),
               include_gtids, exclude_gtids, on_mismatch, pk_change, truncate_events, include_query,
               server_name (source.name), transactions, schema_changes (whether BEGIN/END and schema
               change events are written; the pipeline reads them anyway: they are its commit points),
               server_version = "X.Y.Z" and [changes.settings] VAR = VALUE: the server the DDL ran on
               and its variables, as `--server-version` / `--set` (mysqlddl.model.settings; a QUERY
               event's own status variables still win for its statement)
    [errors]   strategy = "exit" | "skip" | "retry"; dead_letter (default <store>.dead-letter.jsonl);
               retries = 5; backoff_ms = 200 (doubled at each retry, at most 30 s)
    [stats]    path (default <store>.stats.json); interval_s = 5; progress = "auto" | "always" | "never"

A PostgreSQL sink (``[sink] uri = "postgresql://USER@HOST:PORT/DB"``, password as libpq takes it)
keeps the checkpoint in its target, in the transaction of the data it covers (pipeline.target_store):
no [checkpoint] uri then (every_transactions / every_ms still set the batches: one target
transaction each). Its [sink] keys are the PgOptions ones (sinks.pg.types): state_schema,
value_policy, enum_mode, tinyint1_boolean, on_ddl_error (default: "skip" under the skip strategy,
else "error"); not commit_every / commit_ms (the pipeline's batches) nor pipeline (the row's key is
the pipeline's name). A top-level [mapping] (mapping.rules: [[mapping.include]], [[mapping.exclude]],
[[mapping.tables]], [[mapping.columns]]) renames, retypes, transforms and filters what it writes.

Relative paths in URIs are taken from the pipeline file's directory.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..binlog.files import resolve_sources
from ..changes import ChangeOptions, Filters, GtidSet
from ..changes.start import SNAPSHOT_CHOICES, snapshot_mode
from ..errors import ConfigError, MappingError, MysqlddlError, PipelineError, ScriptEncodingError
from ..mapping.rules import Mapping
from ..model.settings import with_settings
from ..options import change_event_options
from ..paths import holds, same_file
from ..positions import split_file_name
from ..redact import masked_repr, remember_uri
from ..sinks.debezium import DebeziumOptions
from ..sinks.pg.types import PgOptions
from ..sources.options import SourceOptions
from ..textfiles import sql_text

# tomllib is stdlib from Python 3.11; on 3.10 the same parser is the `tomli` package (a dependency
# there only, see pyproject.toml)
if sys.version_info >= (3, 11):
    import tomllib  # (stdlib)
else:                                       # pragma: no cover - Python 3.10
    import tomli as tomllib  # (the same parser, packaged)

STRATEGIES = ("exit", "skip", "retry")
#: sink URI schemes of the PostgreSQL sink (libpq takes both)
PG_SCHEMES = ("postgresql", "postgres")
OPERATIONS = ("c", "u", "d", "t")
OLR_UNITS = ("s", "ms", "us", "ns")


@dataclasses.dataclass(frozen=True, repr=False)
class SourceConfig:
    __repr__ = masked_repr          # (the URI's password, if one was given, never shown)

    uri: str
    poll_ms: int = 200
    #: a server source's MySQL option file ([client] user/password; else MYSQL_PWD)
    defaults_file: str | None = None
    #: an OLR source's units of DATE/TIMESTAMP values and of the message ``tm`` (None: time_unit),
    #: as OLR's format.timestamp / format.timestamp-metadata print them (`mysqlddl olr --time-unit`)
    time_unit: str = "ns"
    tm_unit: str | None = None
    #: a server source whose identity differs from the checkpoint's (a failover): "follow-gtid"
    #: goes on from the checkpoint's GTID set when the new server holds it (pipeline.failover),
    #: "error" refuses as for any other source
    on_identity_change: str = "follow-gtid"
    #: where the first run starts (validated as SourceOptions: `mysqlddl changes --start-position`,
    #: --start-gtid, --from-now, --snapshot); a checkpoint wins over them
    start_position: str | None = None
    start_gtid: str | None = None
    from_now: bool = False
    snapshot: str = "auto"

    @property
    def server(self) -> bool:
        """Whether the source is a server (mysql://, mariadb://)."""
        return self.uri.split("://", 1)[0].lower() in ("mysql", "mariadb") if "://" in self.uri else False

    def source_options(self, decode, *, follow: bool, fresh: bool, schema_given: bool = False) -> SourceOptions:
        """The SourceOptions of a run. ``fresh``: the pipeline has no checkpoint yet, so the start
        options apply (a checkpoint wins); a file source's ``start_position`` is not where its
        reading starts (the history is built from the files' start): :meth:`start_filter` takes it.
        ``schema_given``: the pipeline has a baseline ([changes] schema), which decides ``auto``."""
        start = {}
        if fresh:
            mode = snapshot_mode(self.snapshot, from_now=self.from_now, schema_given=schema_given)
            start = {"start": self.start_position if self.server else None, "start_gtid": self.start_gtid,
                     "from_now": self.from_now, "snapshot": mode if self.server else "never"}
        return SourceOptions(decode=decode, follow=follow, poll=self.poll_ms / 1000,
                             defaults_file=self.defaults_file, **start)

    def start_filter(self, *, fresh: bool) -> str | None:
        """The ``start_position`` of a file source's first run: delivery begins there (the change
        filters' start_position), the history built from the files' start."""
        return self.start_position if fresh and not self.server else None


@dataclasses.dataclass(frozen=True, repr=False)
class SinkConfig:
    __repr__ = masked_repr          # (a postgresql:// URI may hold its password)

    uri: str
    format: str = "native"
    segment_bytes: int = 64 << 20
    segment_seconds: float = 300.0
    sequence: str = "segment"
    #: the format's own settings, ((name, value), ...): [sink.debezium], Debezium's property names
    properties: tuple = ()
    #: a PostgreSQL sink's options (None for other sinks)
    pg: PgOptions | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class CheckpointConfig:
    __repr__ = masked_repr

    uri: str
    every_transactions: int = 1000
    every_ms: int = 1000


@dataclasses.dataclass(frozen=True)
class ErrorConfig:
    strategy: str = "exit"
    dead_letter: str = ""
    retries: int = 5
    backoff_ms: int = 200


@dataclasses.dataclass(frozen=True)
class StatsConfig:
    path: str = ""
    interval_s: float = 5.0
    progress: str = "auto"


@dataclasses.dataclass(frozen=True, repr=False)
class PipelineConfig:
    """A whole pipeline file. ``changes``: the ChangeOptions; ``schema``: the baseline DDL text
    (None without one); ``operations``: the row ops written; ``write_transactions`` /
    ``write_schema_changes``: whether those records reach the sink; ``path``: the file read (None
    when built in Python)."""

    name: str
    source: SourceConfig
    sink: SinkConfig
    checkpoint: CheckpointConfig
    changes: ChangeOptions = ChangeOptions()
    schema: str | None = None
    operations: tuple[str, ...] = OPERATIONS
    write_transactions: bool = True
    write_schema_changes: bool = True
    errors: ErrorConfig = ErrorConfig()
    stats: StatsConfig = StatsConfig()
    path: str | None = None
    #: the [mapping] rules (a PostgreSQL sink's; None without the table)
    mapping: Mapping | None = None

    __repr__ = masked_repr

    @property
    def store_path(self) -> Path:
        return uri_path(self.checkpoint.uri, "sqlite", "checkpoint.uri")

    @property
    def dead_letter_path(self) -> Path:
        return Path(self.errors.dead_letter) if self.errors.dead_letter else \
            self.store_path.with_name(self.store_path.name + ".dead-letter.jsonl")

    @property
    def lock_path(self) -> Path:
        """The lock file of the pipeline's runs (pipeline.lock), beside the store, one per
        pipeline (a store holds one row per pipeline: pipelines sharing it run side by side);
        a name that is not a plain file name goes in as its hash."""
        name = self.name if re.fullmatch(r"[\w.-]{1,100}", self.name, re.ASCII) else \
            "pipeline-" + hashlib.sha256(self.name.encode("utf-8")).hexdigest()[:16]
        return self.store_path.with_name(f"{self.store_path.name}.{name}.lock")

    @property
    def stats_path(self) -> Path:
        return Path(self.stats.path) if self.stats.path else \
            self.store_path.with_name(self.store_path.name + ".stats.json")


def uri_path(uri: str, scheme: str, setting: str) -> Path:
    """The path of ``scheme:///path`` (or of a bare path)."""
    if "://" not in uri:
        return Path(uri)
    parts = urlsplit(uri)
    if parts.scheme != scheme:
        raise ConfigError(f"[{setting.split('.')[0]}] {setting.split('.')[1]}: expected {scheme}:///PATH, "
                          f"not {uri!r}")
    return Path(unquote(parts.path))


_KEYS = {
    "": {"name", "source", "sink", "checkpoint", "changes", "errors", "stats", "mapping"},
    "source": {"uri", "poll_ms", "defaults_file", "time_unit", "tm_unit", "on_identity_change", "start_position",
               "start_gtid", "from_now", "snapshot"},
    "sink": {"uri", "format", "segment_bytes", "segment_seconds", "sequence", "debezium"},
    "checkpoint": {"uri", "every_transactions", "every_ms"},
    "changes": {"schema", "schema_encoding", "schema_database", "schema_position", "ddl_errors", "verify_checksums",
                "databases", "exclude_databases", "tables", "exclude_tables", "operations", "include_gtids",
                "exclude_gtids", "on_mismatch", "pk_change", "truncate_events", "include_query", "server_name",
                "transactions", "schema_changes", "server_version", "settings"},
    "errors": {"strategy", "dead_letter", "retries", "backoff_ms"},
    "stats": {"path", "interval_s", "progress"},
}


def _check_keys(table: dict, where: str, path: str | None) -> None:
    unknown = sorted(set(table) - _KEYS[where])
    if unknown:
        label = f"[{where}] " if where else ""
        raise PipelineError(f"{label}unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                            f"(known: {', '.join(sorted(_KEYS[where]))})", path=path, setting=where or None)


def _typed(table: dict, key: str, kind, default, where: str, path):
    v = table.get(key, default)
    ok = isinstance(v, kind) and not (kind is not bool and isinstance(v, bool))
    if not ok:
        raise PipelineError(f"{key} must be {getattr(kind, '__name__', kind)}, not {v!r}", path=path,
                            setting=f"{where}.{key}" if where else key)
    return v


def _resolve(uri: str, base: Path) -> str:
    """A relative path in a URI (or a bare relative path) taken from the pipeline file's directory."""
    if "://" in uri:
        scheme, rest = uri.split("://", 1)
        if rest.startswith("/") or scheme not in ("file", "jsonl", "sqlite", "olr"):
            return uri
        return f"{scheme}://{(base / rest).as_posix()}"
    if uri in ("-", "stdout:") or os.path.isabs(uri):
        return uri
    return str(base / uri)


def load_config(path: str | os.PathLike) -> PipelineConfig:
    """Read and validate a pipeline file (PipelineError names the file and the key to fix)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise PipelineError(f"cannot read the pipeline file: {e.strerror or e}", path=str(p)) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise PipelineError(f"not valid TOML: {e}", path=str(p)) from None
    return config_from_dict(data, base=p.resolve().parent, name=p.stem, path=str(p))


def _check_start(source: SourceConfig, table: dict, path) -> None:
    """The start options of [source], validated as `mysqlddl changes` validates --start-position,
    --start-gtid, --from-now and --snapshot: by building the SourceOptions they make (one
    validation), and on files as the command refuses the server's options (cli.args
    refuse_server_options)."""
    given = [k for k in ("start_position", "start_gtid", "from_now", "snapshot") if k in table]
    if not given:
        return
    named = {"start_position": "start", "start_gtid": "start_gtid", "from_now": "from_now", "snapshot": "snapshot"}
    if source.snapshot not in SNAPSHOT_CHOICES:
        raise PipelineError(f"[source] snapshot is {', '.join(SNAPSHOT_CHOICES)}, not {source.snapshot!r}", path=path,
                            setting="source.snapshot")
    # (auto is decided per run, by the baseline: validated as never here)
    value = {k: ("never" if k == "snapshot" and getattr(source, k) == "auto" else getattr(source, k)) for k in given}
    try:
        SourceOptions(**{named[k]: value[k] for k in given})
    except ConfigError as e:
        # the key at fault: the one refused alone, else the second of two starts
        alone = []
        for k in given:
            try:
                SourceOptions(**{named[k]: value[k]})
            except ConfigError:
                alone.append(k)
        key = alone[0] if alone else [k for k in given if k != "snapshot" and getattr(source, k)][-1]
        raise PipelineError(f"[source] {key}: {e}", path=path, setting=f"source.{key}") from None
    if source.server:
        return
    if source.uri.startswith("olr:"):
        raise PipelineError(f"{given[0]} is a binlog source's setting, not an olr:// source's", path=path,
                            setting=f"source.{given[0]}")
    for key, default in (("start_gtid", None), ("from_now", False), ("snapshot", "never")):
        if getattr(source, key) not in (default, "auto" if key == "snapshot" else default):
            raise PipelineError(f"{key} needs a server source (mysql://USER@HOST:PORT/?server-id=N): {source.uri} is "
                                "read from files, from their start or start_position", path=path,
                                setting=f"source.{key}")


def config_from_dict(data: dict, *, base: Path | None = None, name: str = "pipeline",
                     path: str | None = None) -> PipelineConfig:
    """A PipelineConfig from the pipeline file's tables as a dict (the Python API's form)."""
    base = base or Path.cwd()
    _check_keys(data, "", path)
    for t in ("source", "sink", "checkpoint", "changes", "errors", "stats", "mapping"):
        if not isinstance(data.get(t, {}), dict):
            raise PipelineError(f"[{t}] must be a table", path=path, setting=t)
    src, snk, ckp = data.get("source", {}), data.get("sink", {}), data.get("checkpoint", {})
    for given in (src.get("uri"), snk.get("uri")):
        remember_uri(given)         # (its password masked in every message from now on: mysqlddl.redact)
    uri = snk.get("uri")
    pg = isinstance(uri, str) and uri.split("://", 1)[0] in PG_SCHEMES
    for where, table in (("source", src), ("sink", snk), ("checkpoint", ckp), ("changes", data.get("changes", {})),
                         ("errors", data.get("errors", {})), ("stats", data.get("stats", {}))):
        if not (pg and where == "sink"):            # (a PostgreSQL sink's keys: _pg_pipeline)
            _check_keys(table, where, path)
    if "uri" not in src:
        raise PipelineError("the source is required: uri = \"file:///path/to/binlogs/\"", path=path,
                            setting="source.uri")
    if "uri" not in snk:
        raise PipelineError("the sink is required: uri = \"jsonl:///path/to/dir/\" or \"stdout:\"", path=path,
                            setting="sink.uri")
    name = _typed(data, "name", str, name, "", path)
    default_store = f"sqlite://{(base / (name + '.state.db')).as_posix()}"
    try:
        source = SourceConfig(_resolve(_typed(src, "uri", str, None, "source", path), base),
                              _typed(src, "poll_ms", int, 200, "source", path),
                              _resolve(_typed(src, "defaults_file", str, None, "source", path), base)
                              if "defaults_file" in src else None,
                              _typed(src, "time_unit", str, "ns", "source", path),
                              _typed(src, "tm_unit", str, None, "source", path) if "tm_unit" in src else None,
                              _typed(src, "on_identity_change", str, "follow-gtid", "source", path),
                              _typed(src, "start_position", str, None, "source", path) if "start_position" in src
                              else None,
                              _typed(src, "start_gtid", str, None, "source", path) if "start_gtid" in src else None,
                              _typed(src, "from_now", bool, False, "source", path),
                              _typed(src, "snapshot", str, "auto", "source", path))
        _check_start(source, src, path)
        if source.on_identity_change not in ("follow-gtid", "error"):
            raise PipelineError(f"on_identity_change must be follow-gtid or error, not {source.on_identity_change!r}",
                                path=path, setting="source.on_identity_change")
        if source.defaults_file is not None and source.uri.split("://", 1)[0].lower() not in ("mysql", "mariadb"):
            # (its [client] user and password log in to a server: a file or OLR source has none to
            # log in to, as `mysqlddl changes --defaults-file` on files: cli.args.refuse_server_options)
            raise PipelineError("defaults_file needs a server source (mysql://USER@HOST:PORT/?server-id=N): "
                                f"{source.uri} is read from files; remove it", path=path,
                                setting="source.defaults_file")
        for key in ("time_unit", "tm_unit"):
            unit = getattr(source, key)
            if key in src and not source.uri.startswith("olr:"):
                raise PipelineError(f"{key} is an olr:// source's setting", path=path, setting=f"source.{key}")
            if unit is not None and unit not in OLR_UNITS:
                raise PipelineError(f"{key} must be one of {', '.join(OLR_UNITS)}, not {unit!r}", path=path,
                                    setting=f"source.{key}")
        if pg:
            return _pg_pipeline(data, name, base, path, source)
        sink = SinkConfig(_resolve(_typed(snk, "uri", str, None, "sink", path), base),
                          _typed(snk, "format", str, "native", "sink", path),
                          _typed(snk, "segment_bytes", int, 64 << 20, "sink", path),
                          float(_typed(snk, "segment_seconds", (int, float), 300, "sink", path)),
                          _typed(snk, "sequence", str, "segment", "sink", path))
        props = snk.get("debezium")
        if props is not None:
            if not isinstance(props, dict) or sink.format != "debezium":
                raise PipelineError("[sink.debezium] is a table of Debezium properties for format = \"debezium\" "
                                    "(e.g. \"decimal.handling.mode\" = \"string\")", path=path,
                                    setting="sink.debezium")
            try:
                DebeziumOptions.from_properties(props)      # checked now, with their names
            except ConfigError as e:
                raise PipelineError(str(e), path=path, setting="sink.debezium") from None
            sink = dataclasses.replace(sink, properties=tuple(props.items()))
        if sink.sequence not in ("segment", "line"):
            raise PipelineError(f"sequence must be segment or line, not {sink.sequence!r}", path=path,
                                setting="sink.sequence")
        if "mapping" in data:
            raise PipelineError("[mapping] rules apply to a postgresql:// sink only", path=path, setting="mapping")
        return _common(data, name, base, path, source, sink, default_store)
    except ConfigError as e:
        if isinstance(e, PipelineError):
            raise
        raise PipelineError(str(e), path=path) from None


def _outputs(cfg: PipelineConfig) -> list[tuple[str, str, Path]]:
    """What a run writes besides its sink: ``(setting, what, path)``. The store and its SQLite
    sidecars (sqlite.org/tempfiles.html: the rollback journal, the WAL and its index beside the
    database) only when the checkpoint is a SQLite file, not in a PostgreSQL target."""
    out = []
    if cfg.sink.pg is None:
        store = cfg.store_path
        out.append(("checkpoint.uri", "the checkpoint store", store))
        out += [("checkpoint.uri", "the checkpoint store's journal", store.with_name(store.name + suffix))
                for suffix in ("-journal", "-wal", "-shm")]
    return out + [("checkpoint.uri", "the lock file", cfg.lock_path),
                  ("errors.dead_letter", "the dead-letter file", cfg.dead_letter_path),
                  ("stats.path", "the stats file", cfg.stats_path)]


def _refuse_outputs_on_inputs(cfg: PipelineConfig, schema: str | None) -> None:
    """A jsonl:// sink directory does not hold the source's files (issue #30 item 1), and the files a
    run writes (:func:`_outputs`) are none of its inputs (the source's files, its
    defaults_file, the baseline schema, the pipeline file; issue #30 item 1: a stats
    path naming the binlog replaced it at the run's end, a lock file's symlink to it was written
    through), none lies where a followed source directory would read it as input, or in the jsonl://
    sink directory (the sink's own: its readers take its files for changes, and it removes the
    names of its segments past the checkpoint: sinks.segments), and no two are one file. Checked when
    the file is read, before anything is opened for writing; same file = same device and inode,
    "in" with symlinks resolved (:mod:`mysqlddl.paths`)."""
    scheme = cfg.source.uri.split("://", 1)[0] if "://" in cfg.source.uri else ""
    inputs: list[tuple[str, Path]] = []          # (where it is named, a file read)
    followed = None                              # a source directory and what it reads there
    sink_dir = uri_path(cfg.sink.uri, "jsonl", "sink.uri") if cfg.sink.uri.startswith("jsonl:") else None
    if scheme in ("", "file", "olr"):
        src = Path(unquote(urlsplit(cfg.source.uri).path)) if scheme else Path(cfg.source.uri)
        if sink_dir is not None and holds(sink_dir, src):
            # the segment sink writes, renames and removes files in its directory
            raise PipelineError(f"the sink directory {sink_dir} holds the source {cfg.source.uri}: its segments "
                                "would be written among the files read; give the sink a directory of its own",
                                path=cfg.path, setting="sink.uri")
        inputs.append(("[source.uri]", src))
        if scheme != "olr":
            try:
                inputs += [("[source.uri]", Path(f)) for f in resolve_sources(src)]
            except (MysqlddlError, OSError):     # (not there yet: a followed directory may be made later)
                pass
        if scheme == "olr" and (src.is_dir() or cfg.source.uri.endswith("/")):
            followed = (src, lambda n: not n.startswith("."))   # (every file but dot files: olr.source)
        elif src.is_dir() or cfg.source.uri.endswith("/") or src.suffix == ".index":
            # a binlog directory is read through its one .index, else its name.NNNNNN files, listed
            # again as it grows (binlog.files.resolve_sources, sources.file); beside an .index
            # the server opens its next name.NNNNNN and lists it there
            followed = (src if src.suffix != ".index" else src.parent,
                        lambda n: n.endswith(".index") or split_file_name(n) is not None)
    inputs += [(f"[{key}]", Path(f)) for key, f in (("source.defaults_file", cfg.source.defaults_file),
                                                    ("changes.schema", schema)) if f]
    if cfg.path is not None:
        inputs.append(("the pipeline file", Path(cfg.path)))
    seen: list[tuple[str, str, Path]] = []
    for setting, what, out in _outputs(cfg):
        for key, f in inputs:
            if same_file(out, f):
                raise PipelineError(f"{what} {out} is the input {f} ({key}): writing it would destroy it; "
                                    "give another path", path=cfg.path, setting=setting)
        # (by the name it has there: a symlink's target, made by the first write through it)
        if followed is not None and holds(followed[0], out) and followed[1](os.path.basename(os.path.realpath(out))):
            raise PipelineError(f"{what} {out} is in the source directory {followed[0]} ([source.uri]), which "
                                "would read it as input: give another path", path=cfg.path, setting=setting)
        if sink_dir is not None and holds(sink_dir, out):
            raise PipelineError(f"{what} {out} is in the sink directory {sink_dir} ([sink.uri]), whose files "
                                "are the sink's segments: give another path", path=cfg.path, setting=setting)
        for key, other, o in seen:
            if same_file(out, o) or os.path.realpath(out) == os.path.realpath(o):
                raise PipelineError(f"{what} {out} is also {other} ([{key}]): one would overwrite the other; "
                                    "give each its own path", path=cfg.path, setting=setting)
        seen.append((setting, what, out))


def _pg_pipeline(data: dict, name: str, base: Path, path, source: SourceConfig) -> PipelineConfig:
    """A pipeline whose sink is PostgreSQL: its [sink] keys (PgOptions), its [mapping], and no
    [checkpoint] uri (the checkpoint is in the target)."""
    snk, ckp = data["sink"], data.get("checkpoint", {})
    keys = {f.name for f in dataclasses.fields(PgOptions)}
    for k in snk:
        if k in ("commit_every", "commit_ms"):
            raise PipelineError(f"under a pipeline the batches are [checkpoint] every_transactions / every_ms (one "
                                f"target transaction each), not {k}", path=path, setting=f"sink.{k}")
        if k == "pipeline":
            raise PipelineError(f"the checkpoint row's key is the pipeline's name (name = \"{name}\" at the top "
                                "of the file), not sink.pipeline", path=path, setting="sink.pipeline")
        if k != "uri" and k not in keys:
            known = sorted({"uri"} | keys - {"commit_every", "commit_ms", "pipeline"})
            raise PipelineError(f"unknown key {k} of a postgresql sink (known: {', '.join(known)})", path=path,
                                setting=f"sink.{k}")
    if "uri" in ckp:
        raise PipelineError("a postgresql sink keeps the checkpoint in its target, in the transaction of the data: "
                            "remove [checkpoint] uri", path=path, setting="checkpoint.uri")
    strategy = data.get("errors", {}).get("strategy", "exit")
    opts = {k: v for k, v in snk.items() if k != "uri"}
    opts.setdefault("on_ddl_error", "skip" if strategy == "skip" else "error")
    try:
        pg = PgOptions(pipeline=name, **opts)
    except TypeError as e:                  # (a value of the wrong kind)
        raise PipelineError(str(e), path=path, setting="sink") from None
    except ConfigError as e:
        key = str(e).split(" ", 1)[0] if str(e).startswith("sink.") else "sink"
        raise PipelineError(str(e), path=path, setting=key) from None
    try:
        mapping = Mapping.from_config(data.get("mapping"))
        if path is not None and Path(path).is_file():
            # (the rules' lines in the file: the start-up checks against the schema name them)
            mapping = mapping.with_lines(Path(path).read_text(encoding="utf-8"), Path(path).name)
    except MappingError as e:
        where = ".".join(p for p in (e.rule, e.setting) if p) or "mapping"
        raise PipelineError(e.message, path=path, setting=where) from None
    # (the segment sinks' state path is the default home of the stats and dead-letter files)
    default_store = f"sqlite://{(base / (name + '.state.db')).as_posix()}"
    sink = SinkConfig(_typed(snk, "uri", str, None, "sink", path), pg=pg)
    cfg = _common(data, name, base, path, source, sink, default_store)
    if not cfg.write_schema_changes:
        raise PipelineError("a postgresql sink applies the schema changes: schema_changes = false would leave its "
                            "tables behind the rows", path=path, setting="changes.schema_changes")
    # JSON values as documents (json_as="object"), not the changes' text form: the sink writes each
    # value as a jsonb document (sinks/pg/values.py), so a document's text would land as a JSON string
    changes = cfg.changes.replace(decode=cfg.changes.decode.replace(json_as="object"))
    return dataclasses.replace(cfg, mapping=mapping, changes=changes)


def _common(data: dict, name: str, base: Path, path, source: SourceConfig, sink: SinkConfig,
            default_store: str) -> PipelineConfig:
    """The tables every sink shares: [checkpoint], [errors], [stats], [changes]."""
    ckp = data.get("checkpoint", {})
    try:
        checkpoint = CheckpointConfig(_resolve(_typed(ckp, "uri", str, default_store, "checkpoint", path), base),
                                      _typed(ckp, "every_transactions", int, 1000, "checkpoint", path),
                                      _typed(ckp, "every_ms", int, 1000, "checkpoint", path))
        uri_path(checkpoint.uri, "sqlite", "checkpoint.uri")
        if checkpoint.every_transactions < 1 or checkpoint.every_ms < 0:
            raise PipelineError("every_transactions must be >= 1 and every_ms >= 0", path=path, setting="checkpoint")
        err = data.get("errors", {})
        errors = ErrorConfig(_typed(err, "strategy", str, "exit", "errors", path),
                             _resolve(_typed(err, "dead_letter", str, "", "errors", path), base)
                             if err.get("dead_letter") else "",
                             _typed(err, "retries", int, 5, "errors", path),
                             _typed(err, "backoff_ms", int, 200, "errors", path))
        if errors.strategy not in STRATEGIES:
            raise PipelineError(f"strategy must be one of {', '.join(STRATEGIES)}, not {errors.strategy!r}",
                                path=path, setting="errors.strategy")
        st = data.get("stats", {})
        stats = StatsConfig(_resolve(_typed(st, "path", str, "", "stats", path), base) if st.get("path") else "",
                            float(_typed(st, "interval_s", (int, float), 5, "stats", path)),
                            _typed(st, "progress", str, "auto", "stats", path))
        if stats.progress not in ("auto", "always", "never"):
            raise PipelineError(f"progress must be auto, always or never, not {stats.progress!r}", path=path,
                                setting="stats.progress")
        cfg = _with_changes(PipelineConfig(name, source, sink, checkpoint, errors=errors, stats=stats, path=path),
                            data.get("changes", {}), base, path)
        schema = data.get("changes", {}).get("schema")
        _refuse_outputs_on_inputs(cfg, _resolve(schema, base) if isinstance(schema, str) else None)
        return cfg
    except ConfigError as e:
        if isinstance(e, PipelineError):
            raise
        raise PipelineError(str(e), path=path) from None


def _with_changes(cfg: PipelineConfig, ch: dict, base: Path, path) -> PipelineConfig:
    def strings(key):
        v = ch.get(key, [])
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise PipelineError(f"{key} must be a list of strings, not {v!r}", path=path, setting=f"changes.{key}")
        return tuple(v)

    def gtids(key):
        v = ch.get(key)
        return None if v is None else GtidSet(_typed(ch, key, str, None, "changes", path))

    schema = None
    if "schema" in ch:
        sp = Path(_resolve(_typed(ch, "schema", str, None, "changes", path), base))
        enc = _typed(ch, "schema_encoding", str, None, "changes", path) if "schema_encoding" in ch else None
        try:
            # (its byte-order mark or opening SET NAMES, else UTF-8, unless schema_encoding says: textfiles)
            schema = sql_text(sp.read_bytes(), encoding=enc, label=str(sp), option="[changes] schema_encoding")
        except OSError as e:
            raise PipelineError(f"cannot read the baseline schema {sp}: {e.strerror or e}", path=path,
                                setting="changes.schema") from None
        except (ConfigError, ScriptEncodingError) as e:
            raise PipelineError(str(e), path=path,
                                setting="changes.schema_encoding" if enc is not None else "changes.schema") from None
    ddl_errors = _typed(ch, "ddl_errors", str, "raise", "changes", path)
    decode = change_event_options(verify_checksums=_typed(ch, "verify_checksums", bool, True, "changes", path),
                                  ddl_errors=ddl_errors)
    settings = ch.get("settings", {})
    if not isinstance(settings, dict):
        raise PipelineError("settings must be a table of server variables, e.g. "
                            "[changes.settings] sql_mode = \"ANSI_QUOTES\"", path=path, setting="changes.settings")
    try:
        version = _typed(ch, "server_version", str, None, "changes", path) if "server_version" in ch else None
        decode = with_settings(decode, server_version=version, settings=settings)
    except ValueError as e:
        where = "changes.server_version" if "server version" in str(e) else "changes.settings"
        raise PipelineError(str(e), path=path, setting=where) from None
    filters = Filters(databases=strings("databases"), exclude_databases=strings("exclude_databases"),
                      tables=strings("tables"), exclude_tables=strings("exclude_tables"),
                      include_gtids=gtids("include_gtids"), exclude_gtids=gtids("exclude_gtids"))
    ops = strings("operations") if "operations" in ch else OPERATIONS
    bad = [o for o in ops if o not in OPERATIONS]
    if bad:
        raise PipelineError(f"operations are c, u, d or t, not {', '.join(bad)}", path=path,
                            setting="changes.operations")
    truncate = _typed(ch, "truncate_events", bool, False, "changes", path)
    opts = ChangeOptions(decode=decode, filters=filters,
                         on_mismatch=_typed(ch, "on_mismatch", str, "raise", "changes", path),
                         pk_change=_typed(ch, "pk_change", str, "update", "changes", path),
                         # the pipeline always reads the marks and schema changes: they are its commit points
                         transactions=True, schema_changes=True, truncate_events=truncate,
                         queries=_typed(ch, "include_query", bool, False, "changes", path),
                         name=_typed(ch, "server_name", str, "mysqlddl", "changes", path),
                         schema_database=ch.get("schema_database"), schema_position=ch.get("schema_position"))
    return dataclasses.replace(cfg, changes=opts, schema=schema, operations=ops,
                               write_transactions=_typed(ch, "transactions", bool, True, "changes", path),
                               write_schema_changes=_typed(ch, "schema_changes", bool, True, "changes", path))


__all__ = ["CheckpointConfig", "ErrorConfig", "PipelineConfig", "SinkConfig", "SourceConfig", "StatsConfig",
           "config_from_dict", "load_config", "uri_path"]
