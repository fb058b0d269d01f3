"""The pipeline run through its Python API and `mysqlddl run/status`, on tests/data/shop-bin.000001
(MariaDB 10.11, 5 transactions + 1 DDL: tests/data/shop-bin.PROVENANCE.md) and the lab workload:
restart from the checkpoint, the checkpoint's content, the store's refusals, the error strategies
with the dead-letter file, the stats."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from mysqlddl.binlog.events import MariadbGtidEvent, QueryEvent, XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes.records import RowBatch, SchemaChange
from mysqlddl.errors import BinlogError, CheckpointError, MysqlddlError, SinkError, SinkOwnershipError, SinkValueError
from mysqlddl.pipeline import Pipeline, SqliteCheckpointStore, load_config, pipeline_status, run_pipeline
from mysqlddl.sinks.segments import SegmentSink

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
BASELINE = DATA / "shop-baseline.sql"


@pytest.fixture
def shop(shop_pipeline):
    return shop_pipeline()


def test_run_once_delivers_the_change_stream_with_a_checkpoint_at_the_last_transaction_end(shop, tmp_path,
                                                                                           run_cli, read_segments):
    result = run_pipeline(shop, once=True)
    ck = result.checkpoint
    # the checkpoint is where the last transaction ends: the end of its XID event, with its GTID
    xids = [ev for ev in BinlogReader(SHOP) if isinstance(ev, XidEvent)]
    gtids = [ev.gtid for ev in BinlogReader(SHOP) if isinstance(ev, MariadbGtidEvent)]
    # (0-1-11 and 0-1-12 are an XA PREPARE and its XA ROLLBACK: nothing delivered, but the ROLLBACK
    # ends the XA transaction: the checkpoint is past it, a restart does not read them again)
    rollback = [ev for ev in BinlogReader(SHOP) if isinstance(ev, QueryEvent) and ev.query.startswith("XA ROLLBACK")]
    assert len(rollback) == 1 and rollback[0].pos > xids[-1].next_pos
    assert (ck.position.file, ck.position.pos) == (SHOP.name, rollback[0].next_pos)
    assert gtids[-3:] == ["0-1-10", "0-1-11", "0-1-12"] and ck.gtid_set == "0-1-12"
    assert ck.source_id == "file:server_id=1;version=10.11.19-MariaDB-0+deb12u1-log;basename=shop-bin"
    assert ck.history_version == 1 and ck.time > 0 and ck.file_created is not None
    out = read_segments(tmp_path / "out").splitlines()
    assert ck.sequence == len(out) == 19
    plain = run_cli("changes", SHOP, "--schema", BASELINE, "--summary", "none").stdout.splitlines()
    assert [json.loads(x) | {"seq": 0} for x in out] == [json.loads(x) | {"seq": 0} for x in plain]
    # stats: DML by table and op, transactions, batches (every 2 transaction ends, and the last)
    st = result.stats
    assert st["dml"] == {"shop.customers": {"c": 1, "u": 1}, "shop.orders": {"c": 3, "d": 1, "u": 2}}
    assert (st["transactions"], st["ddl"], st["batches"], st["avg_batch_size"]) == (5, 1, 3, 2.0)
    assert all(b["source_committed"] <= b["read"] <= b["sink_committed"] for b in st["recent"])


def test_a_second_run_delivers_nothing_again(shop, tmp_path, read_segments):
    first = run_pipeline(shop, once=True)
    before = read_segments(tmp_path / "out")
    second = run_pipeline(shop, once=True)
    assert read_segments(tmp_path / "out") == before
    assert second.checkpoint == first.checkpoint and second.stats["transactions"] == 5


def test_a_first_run_starts_at_the_source_start_position_as_the_changes_command(shop, tmp_path, run_cli,
                                                                                read_segments):
    """[source] start_position on files: the history built from their start, delivery from the
    position: the records `mysqlddl changes --start-position` gives; a checkpoint wins over it."""
    xids = [ev for ev in BinlogReader(SHOP) if isinstance(ev, XidEvent)]
    at = f"{SHOP.name}:{xids[1].next_pos}"
    text = shop.read_text()
    shop.write_text(text.replace("[sink]", f'start_position = "{at}"\n[sink]', 1))
    run_pipeline(shop, once=True)
    out = read_segments(tmp_path / "out").splitlines()
    plain = run_cli("changes", SHOP, "--schema", BASELINE, "--start-position", at, "--summary", "none").stdout
    assert [json.loads(x) | {"seq": 0} for x in out] == [json.loads(x) | {"seq": 0} for x in plain.splitlines()]
    assert 0 < len(out) < 19
    # the checkpoint wins: a start position moved back does not deliver the earlier transactions
    shop.write_text(text.replace("[sink]", f'start_position = "{SHOP.name}:4"\n[sink]', 1))
    run_pipeline(shop, once=True)
    assert read_segments(tmp_path / "out").splitlines() == out


@pytest.mark.parametrize("at, says", [("shop-bin.000009:4", "is not among the inputs"),
                                       ("shop-bin.000001:5", "not at an event boundary")])
def test_a_start_position_is_checked_in_the_files_as_the_changes_command_checks_it(shop, tmp_path, at, says):
    shop.write_text(shop.read_text().replace("[sink]", f'start_position = "{at}"\n[sink]', 1))
    with pytest.raises(MysqlddlError, match=says) as e:
        run_pipeline(shop, once=True)
    assert e.value.setting == "source.start_position" and "[source] start_position" in str(e.value)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_store_is_sqlite_wal_synchronous_full_one_row_per_pipeline(shop, tmp_path):
    run_pipeline(shop, once=True)
    store = SqliteCheckpointStore(tmp_path / "state.db", "p")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2       # FULL
    assert store.db.execute("SELECT COUNT(*) FROM checkpoint").fetchone()[0] == 1
    # the history: its header and one line per DDL record, stored once
    assert store.db.execute("SELECT COUNT(*) FROM history").fetchone()[0] == 2
    ck = store.load()
    h = store.load_history(ck)
    assert len(h.records) == 1 and "phone" in h.records[0].ddl
    store.close()


def test_restart_reads_from_the_checkpoint_with_the_stored_history(lab_binlogs, tmp_path, pipeline_file,
                                                                   read_segments):
    files = sorted(p for p in lab_binlogs.iterdir() if p.name[-1].isdigit())
    half = len(files) // 2
    src = tmp_path / "src"
    src.mkdir()
    for f in files[:half]:
        shutil.copyfile(f, src / f.name)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "state.db")
    first = run_pipeline(p, once=True)
    assert first.checkpoint.position.file == files[half - 1].name
    for f in files[half:]:
        shutil.copyfile(f, src / f.name)
    second = run_pipeline(p, once=True)
    # the same as one run over everything
    q = pipeline_file(tmp_path / "q.toml", source=lab_binlogs, sink=f"jsonl://{tmp_path}/ref",
                      store=tmp_path / "ref.db")
    whole = run_pipeline(q, once=True)
    assert read_segments(tmp_path / "out") == read_segments(tmp_path / "ref")
    assert second.checkpoint.position == whole.checkpoint.position
    assert second.checkpoint.gtid_set == whole.checkpoint.gtid_set
    assert second.stats["dml"] == whole.stats["dml"] and second.stats["ddl"] == whole.stats["ddl"] > 10
    # no DDL applied twice: the store holds each record once
    db = sqlite3.connect(tmp_path / "state.db")
    assert db.execute("SELECT COUNT(*) FROM history").fetchone()[0] == second.checkpoint.history_version + 1
    db.close()


# ---------------------------------------------------------------------------------------- refusals


def test_a_corrupt_store_is_refused(shop, tmp_path, run_cli):
    (tmp_path / "state.db").write_bytes(b"this is not a database" * 100)
    with pytest.raises(CheckpointError, match="not a mysqlddl checkpoint store"):
        run_pipeline(shop, once=True)
    proc = run_cli("run", shop, "--once")
    assert proc.returncode == 1 and "not a mysqlddl checkpoint store" in proc.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_truncated_store_is_refused_not_a_new_pipeline(shop, tmp_path, run_cli, read_segments):
    # (#30 item 4: a 0-byte store was taken for a new pipeline, delivering everything again)
    assert run_cli("run", shop, "--once").returncode == 0
    before = read_segments(tmp_path / "out")
    (tmp_path / "state.db").write_bytes(b"")
    proc = run_cli("run", shop, "--once")
    assert proc.returncode == 1 and "not a mysqlddl checkpoint store: an empty file" in proc.stderr
    assert str(tmp_path / "state.db") in proc.stderr and "move it away" in proc.stderr
    assert read_segments(tmp_path / "out") == before and (tmp_path / "state.db").stat().st_size == 0
    (tmp_path / "state.db").unlink()                    # (missing: a new pipeline)
    assert run_cli("status", shop).returncode == 1


def test_a_damaged_checkpoint_row_is_refused(shop, tmp_path):
    run_pipeline(shop, once=True)
    db = sqlite3.connect(tmp_path / "state.db")
    db.execute("UPDATE checkpoint SET data = '{not json'")
    db.commit()
    db.close()
    with pytest.raises(CheckpointError, match="corrupt"):
        run_pipeline(shop, once=True)


def test_a_store_from_a_newer_mysqlddl_is_refused(shop, tmp_path):
    run_pipeline(shop, once=True)
    db = sqlite3.connect(tmp_path / "state.db")
    db.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    db.commit()
    db.close()
    with pytest.raises(CheckpointError, match="newer mysqlddl"):
        run_pipeline(shop, once=True)


def test_a_checkpoint_of_another_source_is_refused(shop, tmp_path, lab_binlogs, read_segments):
    run_pipeline(shop, once=True)
    before = read_segments(tmp_path / "out")
    # the same file name, the same server id and version, but another file (the lab server's)
    other = sorted(p for p in lab_binlogs.iterdir() if p.name[-1].isdigit())[0]
    shutil.copyfile(other, tmp_path / "binlogs" / SHOP.name)
    with pytest.raises(CheckpointError, match="another source"):
        run_pipeline(shop, once=True)
    assert read_segments(tmp_path / "out") == before      # nothing touched


def test_a_checkpoint_whose_file_is_gone_is_refused(shop, tmp_path):
    run_pipeline(shop, once=True)
    (tmp_path / "binlogs" / SHOP.name).rename(tmp_path / "binlogs" / "other-bin.000007")
    with pytest.raises(CheckpointError, match="not in the source"):
        run_pipeline(shop, once=True)


# ------------------------------------------------------------------------------------ error strategy


class FailingSink(SegmentSink):
    """The segment sink, failing on the rows events of one table and op (a poison event), or
    failing its first ``commit_failures`` commits with a transient error."""

    def __init__(self, directory, *, table=None, op=None, commit_failures=0):
        super().__init__(directory)
        self.table, self.op, self.commit_failures = table, op, commit_failures

    def write(self, record):
        if type(record) is RowBatch and record.mapping.qualified_name == self.table and record.op == self.op:
            ev = record.event
            raise BinlogError("cannot decode these rows", file=ev.file, log_pos=ev.pos, event_type=ev.type_name,
                              table=self.table)
        super().write(record)

    def commit(self, position):
        if self.commit_failures:
            self.commit_failures -= 1
            raise SinkError("disk went away", transient=True)
        return super().commit(position)


def _with_strategy(path: Path, text: str) -> Path:
    path.write_text(path.read_text() + text)
    return path


def test_exit_stops_with_the_positioned_error_and_the_checkpoint_intact(shop, tmp_path, read_segments):
    with pytest.raises(BinlogError, match="cannot decode") as e:
        Pipeline(shop, sink=FailingSink(tmp_path / "out", table="shop.orders", op="d")).run(once=True)
    assert e.value.log_pos is not None and e.value.table == "shop.orders"
    st = pipeline_status(shop)
    delivered = read_segments(tmp_path / "out")
    assert '"op":"d"' not in delivered and st["checkpoint"]["sequence"] == delivered.count("\n")
    assert not load_config(shop).dead_letter_path.exists()
    # fixed (the plain sink), it goes on from the checkpoint
    run_pipeline(shop, once=True)
    assert read_segments(tmp_path / "out").count("\n") == 19


def test_skip_writes_the_event_and_its_error_to_the_dead_letter_file(shop, tmp_path, read_segments):
    _with_strategy(shop, "[errors]\nstrategy = \"skip\"\n")
    result = Pipeline(shop, sink=FailingSink(tmp_path / "out", table="shop.orders", op="d")).run(once=True)
    assert result.stats["skipped"] == 1
    assert result.stats["dml"]["shop.orders"] == {"c": 3, "u": 2}      # the skipped delete is not counted
    dead = [json.loads(x) for x in load_config(shop).dead_letter_path.read_text().splitlines()]
    assert len(dead) == 1
    d = dead[0]
    assert (d["record"], d["table"], d["op"], d["error_type"], d["file"]) == (
        "RowBatch", "shop.orders", "d", "BinlogError", SHOP.name)
    assert "cannot decode these rows" in d["error"] and d["rows_b64"] and d["pos"] > 4
    assert read_segments(tmp_path / "out").count("\n") == 18
    assert pipeline_status(shop)["stats"]["skipped"] == 1


class ValueFailingSink(SegmentSink):
    """The segment sink, raising what the JSON encoder raised for MariaDB's {"big": 1e400} once read
    as a double (issue #30 item 7) on the rows events of one table and op: a value it cannot take."""

    def __init__(self, directory, *, table, op):
        super().__init__(directory)
        self.table, self.op = table, op

    def write(self, record):
        if type(record) is RowBatch and record.mapping.qualified_name == self.table and record.op == self.op:
            raise ValueError("Out of range float values are not JSON compliant")
        super().write(record)


def test_a_value_the_sink_cannot_take_stops_with_a_positioned_error(shop, tmp_path, read_segments):
    # (exit: a typed error naming the event, not a ValueError traceback; the checkpoint before it)
    with pytest.raises(SinkValueError, match="Out of range float") as e:
        Pipeline(shop, sink=ValueFailingSink(tmp_path / "out", table="shop.orders", op="d")).run(once=True)
    assert e.value.table == "shop.orders" and e.value.what == "ValueError"
    file, _, pos = e.value.position.rpartition(":")
    assert file == SHOP.name and int(pos) > 4
    assert f"at {SHOP.name}:{pos}" in str(e.value)
    delivered = read_segments(tmp_path / "out")
    assert '"op":"d"' not in delivered
    assert pipeline_status(shop)["checkpoint"]["sequence"] == delivered.count("\n")


def test_a_value_the_sink_cannot_take_is_a_dead_letter_under_skip(shop, tmp_path, read_segments):
    _with_strategy(shop, "[errors]\nstrategy = \"skip\"\n")
    result = Pipeline(shop, sink=ValueFailingSink(tmp_path / "out", table="shop.orders", op="d")).run(once=True)
    assert result.stats["skipped"] == 1
    dead = [json.loads(x) for x in load_config(shop).dead_letter_path.read_text().splitlines()]
    assert [(d["record"], d["table"], d["op"], d["error_type"], d["file"]) for d in dead] == [
        ("RowBatch", "shop.orders", "d", "SinkValueError", SHOP.name)]
    assert "Out of range float" in dead[0]["error"] and dead[0]["pos"] > 4 and dead[0]["rows_b64"]
    assert read_segments(tmp_path / "out").count("\n") == 18           # every other change delivered


def test_retry_goes_on_after_transient_sink_errors(shop, tmp_path, read_segments):
    _with_strategy(shop, "[errors]\nstrategy = \"retry\"\nretries = 3\nbackoff_ms = 10\n")
    result = Pipeline(shop, sink=FailingSink(tmp_path / "out", commit_failures=2)).run(once=True)
    assert result.retries == 2 and result.stats["retries"] == 2
    assert read_segments(tmp_path / "out").count("\n") == 19
    assert result.stats["transactions"] == 5


def test_retry_gives_up_after_its_retries(shop, tmp_path):
    _with_strategy(shop, "[errors]\nstrategy = \"retry\"\nretries = 2\nbackoff_ms = 10\n")
    p = Pipeline(shop, sink=FailingSink(tmp_path / "out", commit_failures=10))
    with pytest.raises(SinkError, match="disk went away"):
        p.run(once=True)
    assert p.retries == 2


def test_exit_does_not_retry(shop, tmp_path):
    with pytest.raises(SinkError):
        Pipeline(shop, sink=FailingSink(tmp_path / "out", commit_failures=1)).run(once=True)
    assert pipeline_status(shop)["checkpoint"] is None


# ------------------------------------------------------------------ one sink directory, one pipeline (#30 item 2)

MARKER = ".mysqlddl-pipeline.json"


def _other(tmp_path: Path, pipeline_file) -> Path:
    """Pipeline b: the same source and sink directory as ``shop``'s p, its own store, another table filter."""
    return pipeline_file(tmp_path / "b.toml", source=tmp_path / "binlogs", sink=f"jsonl://{tmp_path}/out",
                         store=tmp_path / "b.db", extra=f'[changes]\nschema = "{BASELINE}"\ntables = ["shop.orders"]\n')


def _files(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def test_a_sink_directory_belongs_to_one_pipeline(shop, tmp_path, pipeline_file, run_cli):
    assert run_cli("run", shop, "--once").returncode == 0
    owner = json.loads((tmp_path / "out" / MARKER).read_text())
    assert (owner["pipeline"], owner["pipeline_file"], owner["store"]) == ("p", str(shop), str(tmp_path / "state.db"))
    assert owner["created"] > 0
    before = _files(tmp_path / "out")
    status = run_cli("status", shop).stdout
    b = _other(tmp_path, pipeline_file)
    proc = run_cli("run", b, "--once")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "belongs to pipeline 'p'" in proc.stderr and "this is pipeline 'b'" in proc.stderr
    assert str(tmp_path / "state.db") in proc.stderr and str(b) in proc.stderr
    assert "its own sink directory" in proc.stderr
    # nothing of b in it; p's output and status as they were
    assert _files(tmp_path / "out") == before and run_cli("status", shop).stdout == status
    with pytest.raises(SinkOwnershipError):
        run_pipeline(b, once=True)
    # p itself goes on: restarted, and from its pipeline file moved elsewhere (the same store)
    assert run_cli("run", shop, "--once").returncode == 0 and _files(tmp_path / "out") == before
    moved = tmp_path / "elsewhere" / "p.toml"
    moved.parent.mkdir()
    shutil.copyfile(shop, moved)
    proc = run_cli("run", moved, "--once")
    assert proc.returncode == 0, proc.stderr
    assert _files(tmp_path / "out") == before


def test_a_directory_without_an_owner_is_adopted_only_by_the_pipeline_whose_store_knows_its_segments(
        shop, tmp_path, pipeline_file, run_cli):
    assert run_cli("run", shop, "--once").returncode == 0
    (tmp_path / "out" / MARKER).unlink()            # (as an older mysqlddl left it)
    before = _files(tmp_path / "out")
    proc = run_cli("run", _other(tmp_path, pipeline_file), "--once")
    assert proc.returncode == 1 and "no owner recorded" in proc.stderr and "pipeline 'b'" in proc.stderr
    assert _files(tmp_path / "out") == before
    assert run_cli("run", shop, "--once").returncode == 0
    assert json.loads((tmp_path / "out" / MARKER).read_text())["pipeline"] == "p"
    assert {k: v for k, v in _files(tmp_path / "out").items() if k != MARKER} == before


def test_a_replaced_store_does_not_take_over_its_old_directory(shop, tmp_path, run_cli):
    # (a new store at the same path is a new pipeline: its first run would remove every segment)
    assert run_cli("run", shop, "--once").returncode == 0
    before = _files(tmp_path / "out")
    (tmp_path / "state.db").rename(tmp_path / "old-state.db")
    proc = run_cli("run", shop, "--once")
    assert proc.returncode == 1 and "not the one that wrote this directory" in proc.stderr
    assert _files(tmp_path / "out") == before


# ------------------------------------------------------------------------------------------- the CLI


def test_run_and_status_on_the_command_line(shop, tmp_path, run_cli):
    proc = run_cli("run", shop, "--once", "--summary", "json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stderr)
    assert summary["checkpoint"]["gtid_set"] == "0-1-12" and summary["stats"]["dml_rows"] == 8
    proc = run_cli("status", shop)
    assert proc.returncode == 0, proc.stderr
    assert "checkpoint: shop-bin.000001:" in proc.stdout and "GTID set: 0-1-12" in proc.stdout
    assert "shop.orders: c=3, d=1, u=2" in proc.stdout and "last batch: source committed" in proc.stdout
    st = json.loads(run_cli("status", shop, "--json").stdout)
    assert st["history_version"] == 1 and st["stats_file"]["running"] is False
    assert st["stats_file"]["stats"]["transactions"] == 5


def test_status_before_any_run(shop, run_cli):
    proc = run_cli("status", shop)
    assert proc.returncode == 1 and "has not run yet" in proc.stderr


def test_stdout_sink_is_at_least_once_with_sequence_numbers(tmp_path, pipeline_file, run_cli):
    src = tmp_path / "binlogs"
    src.mkdir()
    shutil.copyfile(SHOP, src / SHOP.name)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink="stdout:", store=tmp_path / "s.db",
                      extra=f'[changes]\nschema = "{BASELINE}"\ntransactions = false\noperations = ["c"]\n')
    proc = run_cli("run", p, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["seq"] for x in lines] == list(range(len(lines)))
    assert {x.get("op") for x in lines} == {"c", None} and sum(x.get("op") == "c" for x in lines) == 4
    assert not any("status" in x for x in lines)          # no BEGIN/END marks
    assert run_cli("run", p, "--once").stdout == ""      # nothing again


def test_progress_line_when_asked(shop, run_cli):
    _with_strategy(shop, "[stats]\nprogress = \"always\"\n")
    proc = run_cli("run", shop, "--once", "--summary", "none")
    assert proc.returncode == 0, proc.stderr
    # (the \r that rewrites the line in place reads as a newline in text mode)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("p: shop-bin.000001:3107 transactions 5 rows 8 DDL 1 skipped 0 lag")


def test_skip_sends_a_ddl_that_cannot_be_applied_to_the_dead_letter_file(tmp_path, pipeline_file):
    # a baseline where customers already has `phone`: the file's ALTER ... ADD COLUMN phone fails
    base = tmp_path / "base.sql"
    base.write_text(BASELINE.read_text().replace("`email` varchar(255)", "`phone` varchar(20) DEFAULT NULL,\n"
                                                 "  `email` varchar(255)"))
    src = tmp_path / "binlogs"
    src.mkdir()
    shutil.copyfile(SHOP, src / SHOP.name)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "s.db",
                      extra=f'[changes]\nschema = "{base}"\non_mismatch = "flag"\n[errors]\nstrategy = "skip"\n')
    result = run_pipeline(p, once=True)
    dead = [json.loads(x) for x in load_config(p).dead_letter_path.read_text().splitlines()]
    assert [d["record"] for d in dead] == ["DDL"] and "phone" in dead[0]["ddl"] and dead[0]["error"]
    assert result.stats["skipped"] == 1 and result.checkpoint.history_version == 1
    # the same input under `exit`: a stop with the DDL's error (a new pipeline: its own store and output)
    p.write_text(p.read_text().replace('strategy = "skip"', 'strategy = "exit"').replace("s.db", "s2.db")
                 .replace("/out", "/out2"))
    with pytest.raises(MysqlddlError, match="phone"):
        run_pipeline(p, once=True)


def test_a_batch_is_committed_by_count_or_by_age(shop, tmp_path):
    by_count = run_pipeline(shop, once=True)                  # every 2 transaction ends (and the last)
    assert by_count.stats["batches"] == 3
    p = tmp_path / "age.toml"
    p.write_text(shop.read_text().replace("every_transactions = 2\nevery_ms = 600000", "every_transactions = 1000\n"
                                          "every_ms = 0").replace("state.db", "age.db").replace("/out", "/age"))
    by_age = run_pipeline(p, once=True)                       # each transaction end is old enough
    assert by_age.stats["batches"] == 6 and by_age.stats["avg_batch_size"] == 1.0
    assert by_age.checkpoint.position == by_count.checkpoint.position


class FailOnDdl(SegmentSink):
    def write(self, record):
        if type(record) is SchemaChange:
            raise BinlogError("the sink refuses this DDL")
        super().write(record)


def test_a_checkpoint_before_a_ddl_does_not_hold_the_ddl(shop, tmp_path, read_segments):
    # commit at every transaction end: the one before the ALTER is committed when the ALTER's
    # record arrives, after the reader recorded it in the history; the checkpoint must not hold it
    shop.write_text(shop.read_text().replace("every_transactions = 2", "every_transactions = 1"))
    with pytest.raises(BinlogError, match="refuses"):
        Pipeline(shop, sink=FailOnDdl(tmp_path / "out")).run(once=True)
    ck = pipeline_status(shop)["checkpoint"]
    assert ck is not None and ck["history_version"] == 0
    result = run_pipeline(shop, once=True)            # the ALTER is applied once, from the checkpoint
    assert result.checkpoint.history_version == 1
    assert read_segments(tmp_path / "out").count("\n") == 19


def _without_processing_time(line: str) -> dict:
    msg = json.loads(line)
    value = msg.get("value")
    if isinstance(value, dict):
        for k in ("ts_ms", "ts_us", "ts_ns"):
            value.pop(k, None)
    return msg


def _debezium_pipeline(tmp_path, sink_extra: str):
    """A pipeline file over a copy of the shop binlog, segments in ``out`` in the Debezium format;
    ``sink_extra``: more of the [sink] table (or its [sink.debezium] subtable)."""
    src = tmp_path / "binlogs"
    src.mkdir()
    shutil.copyfile(SHOP, src / SHOP.name)
    p = tmp_path / "p.toml"
    p.write_text(f'[source]\nuri = "file://{src}"\n[sink]\nuri = "jsonl://{tmp_path}/out"\nformat = "debezium"\n'
                 f'{sink_extra}[checkpoint]\nuri = "sqlite://{tmp_path}/state.db"\n'
                 f'[changes]\nschema = "{BASELINE}"\n', encoding="utf-8")
    return p


def test_the_debezium_format_through_the_pipeline(tmp_path, run_cli, read_segments):
    # issue 22: "the pipeline's sinks take the same format option": [sink] format = "debezium"
    # gives the messages `mysqlddl changes --format debezium` writes (processing time aside), a
    # delete's tombstone included, with the per-line sequence counting messages
    result = run_pipeline(_debezium_pipeline(tmp_path, 'sequence = "line"\n'), once=True)
    out = read_segments(tmp_path / "out").splitlines()
    plain = run_cli("changes", SHOP, "--schema", BASELINE, "--format", "debezium", "--summary", "none").stdout
    expected = [_without_processing_time(x) for x in plain.splitlines()]
    got = [_without_processing_time(x) for x in out]
    assert [g.pop("seq") for g in got] == list(range(len(out)))
    assert got == expected and result.checkpoint.sequence == len(out)
    assert any(m["value"] is None for m in got)                     # the tombstone after the delete
    assert {m["topic"] for m in got} >= {"mysqlddl.shop.orders", "mysqlddl.transaction", "mysqlddl"}


def test_debezium_properties_in_the_pipeline_file(tmp_path, run_cli, read_segments):
    # [sink.debezium] takes Debezium's properties by their names, as `changes` takes the options
    p = _debezium_pipeline(tmp_path, '[sink.debezium]\n"decimal.handling.mode" = "string"\n'
                                     '"tombstones.on.delete" = false\n"topic.prefix" = "shopdb"\n')
    run_pipeline(p, once=True)
    got = [_without_processing_time(x) for x in read_segments(tmp_path / "out").splitlines()]
    plain = run_cli("changes", SHOP, "--schema", BASELINE, "--format", "debezium", "--name", "shopdb",
                    "--decimal-handling-mode", "string", "--no-tombstones", "--summary", "none").stdout
    assert got == [_without_processing_time(x) for x in plain.splitlines()]
    assert all(m["value"] is not None for m in got) and {m["topic"].split(".")[0] for m in got} == {"shopdb"}
    p.write_text(p.read_text().replace('"string"', '"exact"'), encoding="utf-8")
    with pytest.raises(MysqlddlError, match="decimal.handling.mode must be one of") as e:
        load_config(p)
    assert e.value.setting == "sink.debezium"


def test_rows_without_a_baseline_are_counted_and_said(tmp_path, pipeline_file, run_cli):
    # a pipeline file without [changes] schema over a binlog whose tables were created before it:
    # positional rows (col_1..n, ENUM as its index), said once and counted in the summary and stats file
    src = tmp_path / "binlogs"
    src.mkdir()
    shutil.copyfile(SHOP, src / SHOP.name)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "state.db")
    proc = run_cli("run", p, "--once")
    assert proc.returncode == 0, proc.stderr
    warnings = [x for x in proc.stderr.splitlines() if "no table definition" in x]
    assert len(warnings) == 1 and warnings[0].startswith("mysqlddl run: shop.orders has no table definition")
    assert "[changes] schema" in warnings[0]
    assert "mysqlddl run: rows without a table definition: shop.customers=2, shop.orders=6" in proc.stderr
    untyped = {"shop.customers": 2, "shop.orders": 6}
    assert pipeline_status(p)["stats_file"]["stats"]["rows_without_schema"] == untyped
    assert pipeline_status(p)["stats"]["rows_without_schema"] == untyped       # (carried in the checkpoint)
