"""The pipeline file: the minimal form and its defaults, [changes] as `mysqlddl changes` takes it,
and errors that name the file and the key to fix."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from mysqlddl.changes import OnMismatch, PkChange
from mysqlddl.errors import PipelineError
from mysqlddl.options import DEFAULT, ErrorPolicy
from mysqlddl.pipeline import config_from_dict, load_config

MINIMAL = '''[source]
uri = "file:///var/lib/mysql-archive/"
[sink]
uri = "jsonl:///data/changes/"
[checkpoint]
uri = "sqlite:///data/pipeline-state.db"
'''


def test_the_minimal_form_and_its_defaults(tmp_path):
    p = tmp_path / "orders.toml"
    p.write_text(MINIMAL)
    c = load_config(p)
    assert c.name == "orders" and c.path == str(p)
    assert c.source.uri == "file:///var/lib/mysql-archive/" and c.source.poll_ms == 200
    assert (c.sink.format, c.sink.segment_bytes, c.sink.segment_seconds) == ("native", 64 << 20, 300.0)
    assert (c.checkpoint.every_transactions, c.checkpoint.every_ms) == (1000, 1000)
    assert c.store_path == Path("/data/pipeline-state.db")
    assert c.errors.strategy == "exit" and c.errors.retries == 5
    assert c.dead_letter_path == Path("/data/pipeline-state.db.dead-letter.jsonl")
    assert c.stats_path == Path("/data/pipeline-state.db.stats.json") and c.stats.interval_s == 5
    # (one lock file per pipeline: pipelines sharing a store run side by side; an odd name by its hash)
    assert c.lock_path == Path("/data/pipeline-state.db.orders.lock")
    odd = dataclasses.replace(c, name="a/b c")
    assert odd.lock_path.parent == Path("/data") and re.fullmatch(r"pipeline-state\.db\.pipeline-[0-9a-f]{16}\.lock",
                                                                  odd.lock_path.name)
    assert c.operations == ("c", "u", "d", "t") and c.write_transactions and c.write_schema_changes
    assert c.schema is None and c.changes.transactions and c.changes.decode.json_as == "text"


def test_the_checkpoint_table_may_be_left_out_and_relative_paths_follow_the_file(tmp_path):
    p = tmp_path / "p.toml"
    p.write_text('[source]\nuri = "binlogs"\n[sink]\nuri = "jsonl://out"\n')
    c = load_config(p)
    assert c.store_path == tmp_path / "p.state.db"
    assert c.source.uri == str(tmp_path / "binlogs") and c.sink.uri == f"jsonl://{tmp_path}/out"


def test_changes_mirror_the_changes_command(tmp_path):
    (tmp_path / "base.sql").write_text("CREATE TABLE t (a INT);")
    c = config_from_dict({"source": {"uri": "/b"}, "sink": {"uri": "stdout:"}, "changes": {
        "schema": "base.sql", "schema_database": "db", "ddl_errors": "skip", "databases": ["shop"],
        "exclude_tables": "shop.audit", "operations": ["c", "d"], "on_mismatch": "flag", "pk_change": "split",
        "truncate_events": True, "include_query": True, "server_name": "prod", "transactions": False,
        "include_gtids": "0-1:1-100"}}, base=tmp_path)
    ch = c.changes
    assert c.schema == "CREATE TABLE t (a INT);" and ch.schema_database == "db"
    assert ch.decode.error_policy == ErrorPolicy.SKIP
    assert ch.filters.databases == ("shop",) and ch.filters.exclude_tables == ("shop.audit",)
    assert "0-1-50" in ch.filters.include_gtids
    assert ch.on_mismatch is OnMismatch.FLAG and ch.pk_change is PkChange.SPLIT
    assert ch.truncate_events and ch.queries and ch.name == "prod"
    assert c.operations == ("c", "d") and not c.write_transactions and ch.transactions   # still read


@pytest.mark.parametrize("text, message, setting", [
    ('[sink]\nuri = "stdout:"\n', "the source is required", "source.uri"),
    ('[source]\nuri = "/b"\n', "the sink is required", "sink.uri"),
    (MINIMAL + "[errors]\nstrategy = \"ignore\"\n", "strategy must be one of exit, skip, retry", "errors.strategy"),
    (MINIMAL + "[sink.extra]\n", "unknown key extra", "sink"),
    (MINIMAL.replace("[checkpoint]", "[checkpoint]\nevery_transactions = \"many\""), "must be int",
     "checkpoint.every_transactions"),
    (MINIMAL + "[changes]\noperations = [\"x\"]\n", "operations are c, u, d or t", "changes.operations"),
    ('source = 3\n', "must be a table", "source"),
    (MINIMAL + "[changes]\nserver_version = \"eight\"\n", "not a server version", "changes.server_version"),
    (MINIMAL + "[changes.settings]\nsql_mode = \"NO_SUCH_MODE\"\n", "unknown: NO_SUCH_MODE", "changes.settings"),
    (MINIMAL + "[changes.settings]\ninnodb_page_size = 16384\n", "not a known variable", "changes.settings"),
    ('pipe = 3\n' + MINIMAL, "unknown key pipe", None),
    ('[source\n', "not valid TOML", None),
])
def test_errors_name_the_file_and_the_key(tmp_path, text, message, setting):
    p = tmp_path / "p.toml"
    p.write_text(text)
    with pytest.raises(PipelineError, match=message) as e:
        load_config(p)
    assert e.value.path == str(p) and str(p) in str(e.value)
    if setting:
        assert e.value.setting == setting


def test_server_settings_as_the_command_line_takes_them(tmp_path):
    # issue 23: the server the DDL ran on and its variables come from the pipeline file as from
    # `--server-version` / `--set VAR=VALUE` (one parser: mysqlddl.model.settings)
    p = tmp_path / "p.toml"
    p.write_text(MINIMAL + '[changes]\nserver_version = "5.7.44"\n[changes.settings]\n'
                 'explicit_defaults_for_timestamp = true\nsql_mode = "ANSI_QUOTES,NO_ZERO_DATE"\n'
                 'lower_case_table_names = 1\n"@@session.collation_server" = "latin1_swedish_ci"\n'
                 'storage_engine = "MyISAM"\n')
    d = load_config(p).changes.decode
    assert d.server_version == (5, 7, 44) and d.explicit_defaults_for_timestamp is True
    assert d.sql_mode == frozenset({"ANSI_QUOTES", "NO_ZERO_DATE"}) and d.lower_case_table_names == 1
    assert d.collation_server == "latin1_swedish_ci" and d.default_storage_engine == "MyISAM"
    plain = load_config_text(tmp_path, MINIMAL).changes.decode
    assert plain.server_version == (8, 0, 40) and plain.explicit_defaults_for_timestamp is None


def load_config_text(tmp_path, text):
    p = tmp_path / "q.toml"
    p.write_text(text)
    return load_config(p)


def test_on_identity_change_follows_a_failover_by_default(tmp_path):
    p = tmp_path / "p.toml"
    p.write_text(MINIMAL)
    assert load_config(p).source.on_identity_change == "follow-gtid"
    p.write_text(MINIMAL.replace("[sink]", 'on_identity_change = "error"\n[sink]'))
    assert load_config(p).source.on_identity_change == "error"
    p.write_text(MINIMAL.replace("[sink]", 'on_identity_change = "follow"\n[sink]'))
    with pytest.raises(PipelineError) as e:
        load_config(p)
    assert e.value.setting == "source.on_identity_change" and "follow-gtid or error" in str(e.value)


SERVER = MINIMAL.replace('uri = "file:///var/lib/mysql-archive/"', 'uri = "mysql://repl@db1/?server-id=7"')


@pytest.mark.parametrize("base, start, setting, message", [
    (SERVER, 'start_position = "binlog.000001:x"', "source.start_position", "not a binlog position"),
    (SERVER, 'start_position = "binlog.000001:-4"', "source.start_position", "negative position"),
    (SERVER, 'start_position = "binlog.000001:4"\nfrom_now = true', "source.from_now", "give one start"),
    (SERVER, 'start_gtid = "0-1-5"\nfrom_now = true', "source.from_now", "give one start"),
    (SERVER, 'snapshot = "full"', "source.snapshot", "auto, never, schema-only, initial"),
    (SERVER, 'from_now = "yes"', "source.from_now", "must be bool"),
    (MINIMAL, 'from_now = true', "source.from_now", "needs a server source"),
    (MINIMAL, 'start_gtid = "0-1-5"', "source.start_gtid", "needs a server source"),
    (MINIMAL, 'snapshot = "initial"', "source.snapshot", "needs a server source"),
    (MINIMAL, 'start_position = "x:y"', "source.start_position", "not a binlog position"),
])
def test_start_options_are_validated_as_the_changes_command_validates_them(tmp_path, base, start, setting, message):
    # (one validation: SourceOptions, which `mysqlddl changes --start-position/--start-gtid/--from-now/
    # --snapshot` builds too)
    p = tmp_path / "p.toml"
    p.write_text(base.replace("[sink]", f"{start}\n[sink]"))
    with pytest.raises(PipelineError, match=message) as e:
        load_config(p)
    assert e.value.setting == setting and e.value.path == str(p)


def test_start_options_apply_only_without_a_checkpoint(tmp_path):
    p = tmp_path / "p.toml"
    p.write_text(SERVER.replace("[sink]", 'start_gtid = "0-1-5"\nsnapshot = "schema-only"\npoll_ms = 50\n[sink]'))
    src = load_config(p).source
    fresh = src.source_options(DEFAULT, follow=True, fresh=True)
    assert (fresh.start_gtid, fresh.snapshot, fresh.follow, fresh.poll) == ("0-1-5", "schema-only", True, 0.05)
    later = src.source_options(DEFAULT, follow=False, fresh=False)     # a checkpoint wins
    assert (later.start_gtid, later.snapshot, later.start, later.from_now) == (None, "never", None, False)
    p.write_text(SERVER.replace("[sink]", 'start_position = "binlog.000003:1234"\n[sink]'))
    src = load_config(p).source
    assert src.source_options(DEFAULT, follow=False, fresh=True).start == ("binlog.000003", 1234)
    assert src.start_filter(fresh=True) is None                 # (a server starts there itself)
    p.write_text(MINIMAL.replace("[sink]", 'start_position = "binlog.000003:1234"\n[sink]'))
    src = load_config(p).source
    # files: the history is built from their start, delivery begins at the position
    assert src.source_options(DEFAULT, follow=False, fresh=True).start is None
    assert src.start_filter(fresh=True) == "binlog.000003:1234" and src.start_filter(fresh=False) is None


@pytest.mark.parametrize(("source", "sink"), [
    ("file://{d}/out/binlog.000001", "jsonl://{d}/out"),        # a source file inside the sink directory
    ("{d}/out", "jsonl://{d}/out/"),                            # a directory source that is the sink directory
    ("file://{d}/out/sub/", "jsonl://{d}/out"),                 # deeper down, not made yet
    ("file://{d}/link/binlog.000001", "jsonl://{d}/out"),       # through a symlink to the sink directory
    ("olr://{d}/out/olr.json", "jsonl://{d}/out"),
])
def test_a_sink_directory_holding_the_source_is_refused(tmp_path, source, sink):
    # (#30 item 1: the segment sink writes and removes files in its directory)
    (tmp_path / "out").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "out")
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "{source.format(d=tmp_path)}"\n[sink]\nuri = "{sink.format(d=tmp_path)}"\n')
    with pytest.raises(PipelineError) as e:
        load_config(p)
    assert e.value.setting == "sink.uri" and "holds the source" in str(e.value) and str(p) in str(e.value)


def test_a_sink_directory_beside_the_source_is_taken(tmp_path):
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{tmp_path}/binlogs/"\n[sink]\nuri = "jsonl://{tmp_path}/binlogs-out"\n')
    assert load_config(p).sink.uri == f"jsonl://{tmp_path}/binlogs-out"


def test_run_refuses_a_sink_directory_holding_its_binlog(shared_path, tmp_path, run_cli):
    out = tmp_path / "out"
    out.mkdir()
    binlog = out / "binlog.000004"
    binlog.write_bytes((shared_path / "binlogs/maxwell/binlog.000004").read_bytes())
    data = binlog.read_bytes()
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{binlog}"\n[sink]\nuri = "jsonl://{out}"\n')
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 1 and "holds the source" in proc.stderr and "Traceback" not in proc.stderr
    assert binlog.read_bytes() == data and sorted(x.name for x in out.iterdir()) == ["binlog.000004"]


# ---------------------------------------- the pipeline's own files never land on an input (#30 item 1)


@pytest.fixture
def binlog_dir(shared_path, tmp_path):
    """tmp_path/binlogs/binlog.000004 (a private copy), and its bytes."""
    d = tmp_path / "binlogs"
    d.mkdir()
    (d / "binlog.000004").write_bytes((shared_path / "binlogs/maxwell/binlog.000004").read_bytes())
    return d, (d / "binlog.000004").read_bytes()


#: (what the pipeline file adds, the key refused, what the message names); {d}: tmp_path,
#: {b}: the binlog; the lock file of pipeline "p" with its store {d}/state.db is {d}/state.db.p.lock
_CLASHES = [
    ('[stats]\npath = "{b}"', "stats.path", ["the stats file {b}", "is the input {b}", "source.uri"]),
    ('[stats]\npath = "{d}/hard.bin"', "stats.path", ["is the input {b}"]),
    ('[errors]\ndead_letter = "{d}/sym.bin"', "errors.dead_letter", ["the dead-letter file", "is the input {b}"]),
    ('[checkpoint]\nuri = "sqlite://{b}"', "checkpoint.uri", ["the checkpoint store {b}", "is the input {b}"]),
    ('[checkpoint]\nuri = "sqlite://{d}/state.db"', "checkpoint.uri",
     ["the lock file {d}/state.db.p.lock", "is the input {b}"]),
    ('[changes]\nschema = "{d}/s.sql"\n[stats]\npath = "{d}/s.sql"', "stats.path",
     ["is the input {d}/s.sql", "changes.schema"]),
    ('[errors]\ndead_letter = "p.toml"', "errors.dead_letter", ["is the input {d}/p.toml (the pipeline file)"]),
    ('[stats]\npath = "{d}/out/stats.json"', "stats.path", ["is in the sink directory {d}/out", "sink.uri"]),
    ('[checkpoint]\nuri = "sqlite://{d}/out/state.db"', "checkpoint.uri", ["is in the sink directory {d}/out"]),
    ('[errors]\ndead_letter = "{d}/x.json"\n[stats]\npath = "{d}/x.json"', "stats.path",
     ["the stats file {d}/x.json", "is also the dead-letter file", "errors.dead_letter"]),
]


@pytest.mark.parametrize(("extra", "setting", "needles"), _CLASHES)
@pytest.mark.parametrize("source", ["file://{b}", "{d}/binlogs/"])
def test_run_refuses_an_output_on_an_input(extra, setting, needles, source, binlog_dir, tmp_path, run_cli):
    binlogs, data = binlog_dir
    b = binlogs / "binlog.000004"
    (tmp_path / "hard.bin").hardlink_to(b)
    (tmp_path / "sym.bin").symlink_to(b)
    (tmp_path / "state.db.p.lock").symlink_to(b)
    (tmp_path / "s.sql").write_text("CREATE DATABASE x;\n")
    p = tmp_path / "p.toml"
    p.write_text(f'name = "p"\n[source]\nuri = "{source.format(d=tmp_path, b=b)}"\n'
                 f'[sink]\nuri = "jsonl://{tmp_path}/out"\n' + extra.format(d=tmp_path, b=b) + "\n")
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{p}: [{setting}]" in proc.stderr
    for needle in needles:
        assert needle.format(d=tmp_path, b=b) in proc.stderr
    assert b.read_bytes() == data and sorted(x.name for x in binlogs.iterdir()) == ["binlog.000004"]
    assert (tmp_path / "s.sql").read_text() == "CREATE DATABASE x;\n" and p.read_text().startswith('name = "p"')
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["binlogs/binlog.000005", "binlogs/binlog.index", "stats.json"])
def test_an_output_a_followed_directory_would_read_is_refused(name, binlog_dir, tmp_path, run_cli):
    # (a directory source lists name.NNNNNN files, or reads its one .index: binlog.files.resolve_sources;
    # stats.json: a symlink to a binlog name not there yet)
    binlogs, data = binlog_dir
    (tmp_path / "stats.json").symlink_to(binlogs / "binlog.000005")
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{binlogs}/"\n[sink]\nuri = "jsonl://{tmp_path}/out"\n'
                 f'[stats]\npath = "{tmp_path}/{name}"\n')
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "[stats.path]" in proc.stderr and f"is in the source directory {binlogs}" in proc.stderr
    assert sorted(x.name for x in binlogs.iterdir()) == ["binlog.000004"]
    assert (binlogs / "binlog.000004").read_bytes() == data


def test_an_output_the_server_would_open_beside_an_index_is_refused(binlog_dir, tmp_path, run_cli):
    # (an .index source: the server opens its next name.NNNNNN beside it and lists it there)
    binlogs, data = binlog_dir
    (binlogs / "binlog.index").write_text("./binlog.000004\n")
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{binlogs}/binlog.index"\n[sink]\nuri = "jsonl://{tmp_path}/out"\n'
                 f'[errors]\ndead_letter = "{binlogs}/binlog.000005"\n')
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "[errors.dead_letter]" in proc.stderr and f"is in the source directory {binlogs}" in proc.stderr
    assert (binlogs / "binlog.000004").read_bytes() == data and not (binlogs / "binlog.000005").exists()


@pytest.mark.parametrize("source", ["file://{b}", "olr://{d}/olr.json"])
def test_a_defaults_file_on_a_file_source_is_refused(source, binlog_dir, shared_path, tmp_path, run_cli):
    # (#30 item 13: [source] defaults_file logs in to a server; a file source failed with a
    # traceback on it, an OLR source dropped it silently)
    binlogs, data = binlog_dir
    (tmp_path / "olr.json").write_bytes(
        (shared_path / "corpora/olr-json/rophy-olr-fork-prebuilt/basic-crud/output.json").read_bytes())
    b = binlogs / "binlog.000004"
    (tmp_path / "repl.cnf").write_text("[client]\nuser=repl\n")
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "{source.format(b=b, d=tmp_path)}"\ndefaults_file = "repl.cnf"\n'
                 f'[sink]\nuri = "jsonl://{tmp_path}/out"\n')
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{p}: [source.defaults_file]" in proc.stderr and "needs a server source (mysql://" in proc.stderr
    assert b.read_bytes() == data and not (tmp_path / "out").exists()


def test_outputs_beside_the_binlogs_are_taken(tmp_path):
    # (files a directory source does not read may share its directory: the default store beside
    # a pipeline file kept with the binlogs)
    (tmp_path / "binlogs").mkdir()
    p = tmp_path / "binlogs" / "p.toml"
    p.write_text(f'[source]\nuri = "file://{tmp_path}/binlogs/"\n[sink]\nuri = "jsonl://{tmp_path}/out"\n'
                 f'[stats]\npath = "{tmp_path}/binlogs/run.stats.json"\n')
    cfg = load_config(p)
    assert cfg.stats_path == tmp_path / "binlogs" / "run.stats.json"
    assert cfg.store_path == tmp_path / "binlogs" / "p.state.db"


def test_an_output_inside_an_olr_directory_is_refused(tmp_path):
    # (an olr:// directory source reads every file in it but dot files: mysqlddl.olr.source)
    (tmp_path / "olr").mkdir()
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "olr://{tmp_path}/olr/"\n[sink]\nuri = "jsonl://{tmp_path}/out"\n'
                 f'[errors]\ndead_letter = "{tmp_path}/olr/dead.jsonl"\n')
    with pytest.raises(PipelineError) as e:
        load_config(p)
    assert e.value.setting == "errors.dead_letter" and f"is in the source directory {tmp_path}/olr" in str(e.value)


def test_a_baseline_schema_is_read_in_its_encoding(tmp_path):
    # (#30 item 10: a latin1 dump was a UnicodeDecodeError)
    ddl = "CREATE TABLE t (a INT COMMENT 'caf\u00e9');\n"
    (tmp_path / "dump.sql").write_bytes(b"/*!40101 SET NAMES latin1 */;\n" + ddl.encode("cp1252"))
    (tmp_path / "plain.sql").write_bytes(ddl.encode("cp1252"))
    base = '[source]\nuri = "binlogs"\n[sink]\nuri = "jsonl://out"\n[changes]\n'
    p = tmp_path / "p.toml"
    p.write_text(base + 'schema = "dump.sql"\n')
    assert "caf\u00e9" in load_config(p).schema
    p.write_text(base + 'schema = "plain.sql"\nschema_encoding = "latin1"\n')
    assert "caf\u00e9" in load_config(p).schema
    p.write_text(base + 'schema = "plain.sql"\n')
    with pytest.raises(PipelineError) as e:
        load_config(p)
    assert e.value.setting == "changes.schema" and "line 1:34" in str(e.value)
    assert "byte 0xe9 at byte offset 34" in str(e.value) and "[changes] schema_encoding" in str(e.value)
