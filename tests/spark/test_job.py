"""The Spark job against its oracle, the sequential `mysqlddl changes`, on the lab workload's
binlogs (every phase, small scale): the same events with the same values and ordering keys, with
files split into many ranges, with every task's first attempt failing, and re-run over its own
output; a bad input and a failing decode task end as typed errors."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mysqlddl.options import change_event_options
from mysqlddl.sinks import arrow as arrow_sink
from mysqlddl.sources import open_source
from mysqlddl.spark import launcher, ranges, tasks

pytestmark = [pytest.mark.spark, pytest.mark.mariadb]

SMALL = 64 << 10        # bytes per range: every lab file but the tiny ones is split


def _dataset(path: Path) -> list[dict]:
    import pyarrow as pa
    import pyarrow.dataset as ds

    # partition values are names: read them as text (never inferred as numbers)
    part = ds.partitioning(pa.schema([("db", pa.string()), ("table", pa.string())]), flavor="hive")
    return ds.dataset(path, format="parquet", partitioning=part).to_table().to_pylist()


def spark_events(out: Path) -> list[dict]:
    """Every output row of a run as the object `mysqlddl changes` prints."""
    from mysqlddl.spark.job import envelope_of

    return [envelope_of(r) for r in _dataset(out / "changes")]


def _bag(events) -> Counter:
    return Counter(json.dumps(e, sort_keys=True) for e in events)


def _row_keys(events) -> list[tuple]:
    return [(e["source"]["file"], e["source"]["pos"], e["source"]["row"]) for e in events
            if "op" in e and "ddl" not in e]


def _assert_same_as_cli(out: Path, cli_changes) -> list[dict]:
    got = spark_events(out)
    assert len(got) == len(cli_changes)
    assert _bag(got) == _bag(cli_changes)
    keys = _row_keys(got)
    assert len(keys) == len(set(keys)) == len(_row_keys(cli_changes))
    assert set(keys) == set(_row_keys(cli_changes))
    return got


@pytest.fixture(scope="module")
def first_run(spark, lab_binlogs, tmp_path_factory):
    from mysqlddl.spark import job as spark_job

    d, _ = lab_binlogs
    out = tmp_path_factory.mktemp("spark_out")
    summary = spark_job.run(spark, [str(d)], str(out), range_size=SMALL)
    return out, summary


def test_output_equals_cli_with_files_split(first_run, lab_binlogs, cli_changes):
    out, summary = first_run
    d, truth = lab_binlogs
    scans = [ranges.prescan(f, min_gap=ranges.cut_gap(SMALL)) for f in ranges.input_files([str(d)])]
    rs = ranges.cut_ranges(scans, SMALL)
    assert summary["ranges"] == len(rs) > len(truth.files)
    split = Counter(f for r in rs for f in r.files)
    assert max(split.values()) >= 3          # at least one file read by three or more tasks

    _assert_same_as_cli(out, cli_changes)
    everything = _dataset(out / "changes")
    rows = [r for r in everything if r["kind"] == "row"]
    # partitioned by source.db/source.table: transaction marks have neither
    assert all(r["db"] is None and r["table"] is None for r in everything if r["kind"] == "transaction")
    assert all(r["db"] is not None and r["table"] is None for r in everything if r["kind"] == "schema")
    # the ordering key: file_seq is the file name's number, as an integer
    assert all(r["file_seq"] == int(r["file"].rsplit(".", 1)[1]) for r in rows)
    assert {(r["db"], r["table"]) for r in rows} >= {("spark_lab", "bulk"), ("spark_lab", "bigtx"),
                                                  ("spark_lab", "all_types")}
    assert (out / "changes" / "db=spark_lab" / "table=bulk").is_dir()
    assert summary["dml_rows"] == len(rows) == sum(1 for e in cli_changes if "op" in e and "ddl" not in e)
    assert summary["transactions"] == sum(1 for e in cli_changes if e.get("status") == "END")
    assert summary["schema_changes"] == sum(1 for e in cli_changes if "ddl" in e) == summary["history_records"]
    assert json.loads((out / "summary.json").read_text())["dml_rows"] == summary["dml_rows"]


def test_history_json_is_the_sequential_history(first_run, lab_binlogs):
    from mysqlddl.changes import ChangeOptions, ChangeReader

    out, _ = first_run
    d, _ = lab_binlogs
    seq = ChangeReader(open_source(str(d)),
                       ChangeOptions(decode=change_event_options(), rows=False, transactions=False))
    for _ in seq:
        pass
    lines = (out / "history.jsonl").read_text().splitlines()
    assert lines == list(seq.history.lines()) and len(lines) > 35


def test_retried_tasks_leave_no_duplicates(spark, lab_binlogs, cli_changes, tmp_path):
    """Every decode task fails once after publishing all its files (local[2,2] retries it): the
    retry writes the same file names and replaces them, so the output is still exactly the CLI's,
    and no temporary file is left."""
    from mysqlddl.spark import job as spark_job

    d, _ = lab_binlogs
    sc = spark.sparkContext
    sc.setJobGroup("retry-test", "every first attempt fails")
    sc.setLocalProperty(tasks.FAIL_FIRST_ATTEMPT, "1")
    try:
        summary = spark_job.run(spark, [str(d)], str(tmp_path / "out"), range_size=256 << 10)
    finally:
        sc.setLocalProperty(tasks.FAIL_FIRST_ATTEMPT, None)
        sc.setLocalProperty("spark.jobGroup.id", None)
    tracker = sc.statusTracker()
    failed = 0
    for job in tracker.getJobIdsForGroup("retry-test"):
        info = tracker.getJobInfo(job)
        for sid in info.stageIds if info else ():
            st = tracker.getStageInfo(sid)
            failed += st.numFailedTasks if st else 0
    assert failed >= summary["ranges"] > 1          # every range's first attempt failed
    _assert_same_as_cli(tmp_path / "out", cli_changes)
    changes = tmp_path / "out" / "changes"
    assert not [p for p in changes.rglob("*") if p.name.endswith(".tmp")]
    assert summary["parquet_files"] == sum(1 for _ in changes.rglob("*.parquet"))


def test_spark_reads_the_output_as_pyarrow_does(spark, first_run):
    """Files written by the tasks with pyarrow, partition columns in the path only: Spark reads the
    same rows, with the same types, as pyarrow.dataset."""

    out, summary = first_run
    df = spark.read.parquet(str(out / "changes"))
    types = dict(df.dtypes)
    assert types["db"] == types["table"] == types["kind"] == types["before"] == "string"
    assert types["row"] == "int" and types["file_seq"] == types["pos"] == types["ts_ms"] == "bigint"
    assert set(types) == {n for n, _ in arrow_sink.COLUMNS}
    got = _bag(r.asDict() for r in df.collect())
    assert got == _bag(_dataset(out / "changes"))
    assert df.filter("kind = 'row'").count() == summary["dml_rows"]


def test_cli_rerun_overwrites(first_run, lab_binlogs, cli_changes, run_cli, tmp_path):
    """`mysqlddl spark` over a previous run's output, with other ranges: the old files are
    replaced, nothing is appended (file names repeat across runs: the old ones are marked by
    their time)."""
    d, _ = lab_binlogs
    out = tmp_path / "out"
    shutil.copytree(first_run[0], out)
    for p in out.rglob("*.parquet"):
        os.utime(p, (0, 0))
    proc = run_cli("spark", d, "--out", out, "--master", "local[2]", "--range-size", "1M")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "row changes" in proc.stderr.splitlines()[-1]
    assert "Traceback" not in proc.stderr       # ending the JVM itself (stop(exiting=True)) is quiet
    after = list(out.rglob("*.parquet"))
    assert after and all(p.stat().st_mtime > 0 for p in after)
    _assert_same_as_cli(out, cli_changes)
    assert json.loads((out / "summary.json").read_text())["range_size"] == 1 << 20


def test_not_a_binlog_is_a_typed_error_and_exit_1(run_cli, tmp_path):
    bad = tmp_path / "in" / "junk-bin.000001"
    bad.parent.mkdir()
    bad.write_bytes(b"\x00not a binlog\x00" * 40)
    proc = run_cli("spark", bad.parent, "--out", tmp_path / "out", "--master", "local[1]")
    assert proc.returncode == 1, proc.stderr[-3000:]
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("mysqlddl spark: ") and "junk-bin.000001" in last and "not a binlog" in last
    assert "Traceback" not in proc.stderr and "Py4J" not in proc.stderr


def test_failing_decode_task_raises_the_typed_error(spark, lab_binlogs, tmp_path):
    """A baseline that contradicts the log (phase d's file: rows of `bulk`, created earlier): the
    decode task's SchemaMismatchError reaches the driver as itself, with its position."""
    from mysqlddl.errors import SchemaMismatchError
    from mysqlddl.spark import job as spark_job

    d, truth = lab_binlogs
    last = d / truth.files[-1]
    with pytest.raises(SchemaMismatchError) as exc:
        spark_job.run(spark, [str(last)], str(tmp_path / "out"), range_size=SMALL,
                      schema="CREATE DATABASE spark_lab CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;"
                             "CREATE TABLE spark_lab.bulk (id BIGINT UNSIGNED PRIMARY KEY);")
    err = exc.value
    assert err.table == "spark_lab.bulk" and err.event_type == "TABLE_MAP"
    assert err.file == str(last) and isinstance(err.log_pos, int) and err.log_pos > 4


class _Prescanned:
    """What the CLI's DriverPrescan hands run(): the files it pre-scanned before the JVM was up."""

    def __init__(self, done: dict):
        self.done = done

    def take(self) -> dict:
        return dict(self.done)


@pytest.mark.parametrize("driver_files", [1, None])
def test_files_pre_scanned_by_the_driver_join_stage_1s(spark, lab_binlogs, cli_changes, tmp_path, driver_files):
    """The driver pre-scans files while its JVM starts; stage 1 pre-scans the rest (1: only the
    first was done; None: all were, so no stage-1 job runs and the workers start during the
    history's build): the output is the same."""
    from mysqlddl.spark import job as spark_job

    d, _ = lab_binlogs
    files = ranges.input_files([str(d)])
    options = change_event_options()
    done = {f: ranges.prescan(f, options, min_gap=ranges.cut_gap(SMALL)) for f in files[:driver_files]}
    summary = spark_job.run(spark, [str(d)], str(tmp_path / "out"), range_size=SMALL, prescanned=_Prescanned(done))
    assert summary["prescanned_by_driver"] == len(done) and summary["files"] == len(files) > 1
    _assert_same_as_cli(tmp_path / "out", cli_changes)


def test_driver_prescan_scans_in_log_order_and_keeps_its_error(spark, lab_binlogs, tmp_path):
    """DriverPrescan's thread pre-scans like a stage-1 task; a file it cannot read ends its scan
    and is raised by run() as the typed, positioned error stage 1 would give."""
    from mysqlddl.errors import MysqlddlError
    from mysqlddl.spark import job as spark_job

    d, _ = lab_binlogs
    options = change_event_options()
    early = spark_job.DriverPrescan([str(d)], options, SMALL)
    early._thread.join(timeout=60)            # let it finish every file
    done = early.take()
    files = ranges.input_files([str(d)])
    assert list(done) == files
    assert done == {f: ranges.prescan(f, options, min_gap=ranges.cut_gap(SMALL)) for f in files}
    bad = tmp_path / "in" / "junk-bin.000001"
    bad.parent.mkdir()
    bad.write_bytes(b"\x00not a binlog\x00" * 40)
    early = spark_job.DriverPrescan([str(bad.parent)], options, SMALL)
    early._thread.join(timeout=60)
    (err,) = early.take().values()
    assert isinstance(err, MysqlddlError) and err.file == str(bad) and "not a binlog" in str(err)
    with pytest.raises(type(err)) as exc:
        spark_job.run(spark, [str(bad.parent)], str(tmp_path / "out"), prescanned=early)
    assert exc.value is err


def test_embedded_local_jvm_gets_the_start_up_options(spark):
    """session() starts a local JVM with the client compiler and the serial GC (or what
    $MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS says): the options reached the running JVM."""

    want = os.environ.get("MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS", launcher.LOCAL_JVM_OPTIONS)
    assert spark.sparkContext.getConf().get("spark.driver.extraJavaOptions").endswith(want)  # after Spark's own
    args = spark.sparkContext._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
    assert set(want.split()) <= set(args.toArray() if hasattr(args, "toArray") else args)


def test_python_workers_talk_to_the_jvm_over_unix_domain_sockets(spark):
    """The context asks Spark (4.1+) for Unix domain sockets between a JVM and its Python workers:
    over loopback TCP each task waited ~40 ms for its input's end (Nagle against delayed ACK)."""
    import pyspark


    assert launcher._conf("local[1]", "t")[0].get("spark.python.unix.domain.socket.enabled") == "true"
    if tuple(int(x) for x in pyspark.__version__.split(".")[:2]) < (4, 1):
        pytest.skip(f"pyspark {pyspark.__version__}: Unix domain sockets for Python workers need Spark 4.1")
    # the JVM tells the workers it starts which transport it uses (PythonWorkerFactory)
    seen = spark.sparkContext.parallelize(range(2), 2).map(
        lambda _: os.environ.get("PYTHON_UNIX_DOMAIN_ENABLED", "").lower()).collect()
    assert seen == ["true", "true"]


def _probe_workers_after_a_run(spark, lab_binlogs, tmp_path, probe) -> list:
    """Run the job, then ``probe`` in two tasks at once (so each runs in its own worker: the
    workers the job's tasks ran in, reused); its results, each led by the worker's pid."""
    from mysqlddl.spark import job as spark_job

    def busy(i):              # (a closure: pickled by value, the workers cannot import the tests)
        import time

        time.sleep(0.5)       # both slots busy: each task in its own worker
        return (os.getpid(), *probe(i))

    d, _ = lab_binlogs
    spark_job.run(spark, [str(d)], str(tmp_path / "out"), range_size=SMALL)
    states = spark.sparkContext.parallelize(range(2), 2).map(busy).collect()
    assert len({s[0] for s in states}) == 2, states
    return states


def test_reused_workers_keep_their_modules_and_history_out_of_the_per_task_collection(spark, lab_binlogs,
                                                                                tmp_path):
    """pyspark's daemon fully collects a reused worker after every task: a worker that ran the
    job's tasks has what it holds for good (modules, the history) frozen, so that collection walks
    only a task's own objects (~90k objects, 30-60 ms a task, before)."""
    def gc_state(_):
        import gc

        return gc.get_freeze_count(), len(gc.get_objects())

    states = _probe_workers_after_a_run(spark, lab_binlogs, tmp_path, gc_state)
    ran = [(frozen, loose) for _, frozen, loose in states if frozen]
    assert ran, f"no worker of the job was reused: {states}"
    for frozen, loose in ran:
        assert frozen > 20_000 and loose < 10_000, states


def test_workers_that_ran_the_job_never_imported_pandas(spark, lab_binlogs, tmp_path):
    """The decode tasks build their Arrow columns from buffers: pyarrow's pa.array would import
    pandas (its check for pandas input) in every worker, ~0.3 s each, for no pandas object."""
    def modules(_):
        import sys

        return "pyarrow.parquet" in sys.modules, "pandas" in sys.modules

    states = _probe_workers_after_a_run(spark, lab_binlogs, tmp_path, modules)
    assert any(wrote for _, wrote, _ in states), f"no worker of the job was reused: {states}"
    assert not any(pandas for _, _, pandas in states), states


def test_a_replaced_history_is_collected_not_kept_frozen(first_run):
    """A worker that loads another run's history drops the frozen one, reference cycles and all."""
    import gc
    import weakref


    out, _ = first_run
    text = (out / "history.jsonl").read_text(encoding="utf-8")
    options = change_event_options()
    saved = dict(tasks._HISTORIES)
    tasks._HISTORIES.clear()
    try:
        h = tasks._history(text, "a", options)
        h.test_cycle = [h]                # a reference cycle: only a collection frees it
        old = weakref.ref(h)
        del h
        tasks.freeze_held()
        assert tasks._history(text, "a", options) is old()          # loaded once per digest
        tasks._history(text, "b", options)
        gc.collect()                                                      # the daemon's, after the task
        assert old() is None
    finally:
        gc.unfreeze()
        tasks._HISTORIES.clear()
        tasks._HISTORIES.update(saved)


_WORKERS_PROBE = """
import os, time
from pyspark import SparkContext
from mysqlddl.spark import launcher
sc = launcher.context("local[2]")
pids = set(sc.parallelize(range(4), 2).map(lambda _: (os.getpid(), os.getppid())).collect())
def gone(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True
daemons = {d for _, d in pids}
assert len(daemons) == 1 and not any(gone(p) for p in daemons | {w for w, _ in pids}), pids
launcher._end_python_workers(SparkContext._gateway.proc.pid)
assert all(gone(d) for d in daemons), pids
deadline = time.monotonic() + 5
while not all(gone(w) for w, _ in pids) and time.monotonic() < deadline:
    time.sleep(0.01)
assert all(gone(w) for w, _ in pids), pids
launcher.stop(sc, exiting=True)
print("ended")
"""


def test_python_workers_end_before_their_jvm(tmp_path):
    """Before the context stops, the embedded JVM's worker daemon and its workers are ended (as
    Spark's SIGTERM ends them): stopping the context first closed the idle workers' sockets, and
    a worker that saw that first failed to report it over its Unix domain socket (a traceback)."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs Linux /proc")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.run([sys.executable, "-c", _WORKERS_PROBE], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ended"), proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]


_CDS_PROBE = """
from pyspark import SparkContext
from mysqlddl.spark import launcher
sc = launcher.context("local[1]", cds=True)
args = sc._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
print("\\n".join(str(a) for a in (args.toArray() if hasattr(args, "toArray") else args)))
assert sc.parallelize(range(10), 2).map(lambda x: x * x).sum() == 285
gateway = SparkContext._gateway
launcher.stop(sc, exiting=True)
assert SparkContext._active_spark_context is None and SparkContext._gateway is None
assert gateway.proc.returncode == 0        # the JVM is gone, not left to outlive this process
"""


def test_cli_keeps_its_jvm_class_data_archive(lab_binlogs, run_cli, tmp_path):
    """The first `mysqlddl spark` writes the embedded JVM's class-data archive (published only once
    the JVM exited: no temporary left), later JVMs start from it; a damaged archive (a truncated one
    crashes the JVM as it maps it) is removed and the JVM starts without it."""
    d, _ = lab_binlogs
    small = min((p for p in d.iterdir() if p.name[-6:].isdigit()), key=lambda p: p.stat().st_size)
    env = {"MYSQLDDL_SPARK_CDS": str(tmp_path / "cds")}
    proc = run_cli("spark", small, "--out", tmp_path / "out", "--master", "local[1]", env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    archives = list((tmp_path / "cds").iterdir())
    assert [p.suffix for p in archives] == [".jsa"] and archives[0].stat().st_size > 1 << 20
    assert f"class-data archive {archives[0]}" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""                         # the JVM's CDS warnings are off
    written = archives[0].stat().st_mtime_ns

    probe = tmp_path / "probe.py"
    probe.write_text(_CDS_PROBE)
    started = subprocess.run([sys.executable, probe], capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, **env}, timeout=600)
    assert started.returncode == 0, started.stderr[-3000:]
    assert f"-XX:SharedArchiveFile={archives[0]}" in started.stdout.splitlines()
    assert archives[0].stat().st_mtime_ns == written and len(list((tmp_path / "cds").iterdir())) == 1

    data = archives[0].read_bytes()
    archives[0].chmod(0o644)
    archives[0].write_bytes(data[:len(data) // 2])
    started = subprocess.run([sys.executable, probe], capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, **env}, timeout=600)
    assert started.returncode == 0, started.stderr[-3000:]
    assert not any(a.startswith("-XX:SharedArchiveFile") for a in started.stdout.splitlines())
    assert not archives[0].exists() and "removed it" in started.stderr
    assert list((tmp_path / "cds").glob("hs_err_pid*.log")) and not list(tmp_path.glob("hs_err*"))


def test_jvm_class_data_archive_path_and_options(tmp_path, monkeypatch):
    """The archive is keyed by the JVM options (and the java and Spark jars); "off" disables it;
    without an archive the JVM is told to write one under a name of this process, and an earlier
    process's leftover temporary goes once that process is gone."""

    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", "off")
    assert launcher._cds_archive(launcher.LOCAL_JVM_OPTIONS) is None
    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", str(tmp_path / "cds"))
    a = launcher._cds_archive(launcher.LOCAL_JVM_OPTIONS)
    assert a is not None and Path(a).parent == tmp_path / "cds" and a.endswith(".jsa")
    assert a == launcher._cds_archive(launcher.LOCAL_JVM_OPTIONS) != launcher._cds_archive("-XX:+UseSerialGC")
    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", str(tmp_path / "with space"))
    assert launcher._cds_archive(launcher.LOCAL_JVM_OPTIONS) is None
    (tmp_path / "a dir").mkdir()
    monkeypatch.chdir(tmp_path / "a dir")                  # a relative directory is judged as absolute
    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", "cds")
    assert launcher._cds_archive(launcher.LOCAL_JVM_OPTIONS) is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", str(tmp_path / "cds"))

    (tmp_path / "cds").mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = Path(f"{a}.{dead.pid}.tmp")
    live = Path(f"{a}.{os.getppid()}.tmp")
    stale.write_bytes(b"x")
    live.write_bytes(b"x")
    opts, dump = launcher._cds_options(a)
    assert dump == (f"{a}.{os.getpid()}.tmp", a)
    assert f"-XX:ArchiveClassesAtExit={a}.{os.getpid()}.tmp" in opts.split()
    assert not stale.exists() and live.exists()
    Path(a).write_bytes(b"archive")
    opts, dump = launcher._cds_options(a)
    assert dump is None and f"-XX:SharedArchiveFile={a}" in opts.split()

    # a cache directory that cannot be made: the JVM starts without an archive
    (tmp_path / "a-file").write_bytes(b"")
    monkeypatch.setenv("MYSQLDDL_SPARK_CDS", str(tmp_path / "a-file" / "cds"))
    conf, archive, dump = launcher._conf("local[1]", "t", cds=True)
    assert archive is None and dump is None
    assert "Archive" not in conf.get("spark.driver.extraJavaOptions", "")


def _decode_in_process(d: Path, out: Path, *, typed: bool = False) -> list[dict]:
    """The job's driver and decode tasks in this process, without Spark (the tasks' function on
    every range in turn): for checking the task side under patched module settings. Returns the
    tasks' results."""
    import hashlib
    import types


    options = change_event_options()
    scans = [ranges.prescan(f, options, min_gap=ranges.cut_gap(SMALL)) for f in ranges.input_files([str(d)])]
    history, _ = ranges.build_history(scans, options)
    text = "\n".join(history.lines()) + "\n"
    rows = [(r.index, list(r.files), r.start, r.stop, r.nbytes) for r in ranges.cut_ranges(scans, SMALL)]
    (out / "changes").mkdir(parents=True)
    if typed:
        (out / "tables").mkdir()
    try:
        return list(tasks.decode_ranges(rows, changes=str(out / "changes"),
                                        history_bc=types.SimpleNamespace(value=text),
                                        digest=hashlib.sha256(text.encode()).hexdigest(),
                                        options=tasks.options_kw(options), reader_kw={}, name="mysqlddl",
                                        include_query=False, tables=str(out / "tables") if typed else None))
    finally:
        gc.unfreeze()           # (a task freezes what its worker holds: here, this test process)


@pytest.mark.parametrize("limit", [None, 0, 3000])
def test_rendered_images_and_their_per_change_fallback(lab_binlogs, cli_changes, tmp_path, monkeypatch, limit):
    """The decode task's Arrow columns of whole rendered rows events (images one chunk per event,
    order numbers computed): the CLI's events. With the images' limit
    lowered, events whose images pass it take the per-change path (0: every one; 3000: the
    larger ones, so a batch mixes both): the same events again."""
    from mysqlddl.binlog import rows

    if limit is not None:
        monkeypatch.setattr(arrow_sink, "IMAGES_LIMIT", limit)
    outcomes = Counter()
    render_images = rows.render_images

    def counted(*args, **kw):
        try:
            got = render_images(*args, **kw)
        except OverflowError:
            outcomes["per change"] += 1
            raise
        outcomes["rendered"] += 1
        return got

    monkeypatch.setattr(rows, "render_images", counted)
    d, _ = lab_binlogs
    _decode_in_process(d, tmp_path)
    _assert_same_as_cli(tmp_path, cli_changes)
    assert (limit == 0) == (not outcomes["rendered"]) and (limit is None) == (not outcomes["per change"])


# ---------------------------------------------------------------------- typed datasets (--typed)
# The typed per-table datasets against the oracle: one typed row per row change of a table version
# the history knows, whose every value renders as the CLI renders it (envelope.json_value), except
# values the column's Arrow type cannot hold (zero and invalid dates, which the CLI prints as text):
# null there, and counted.


def _typed(root: Path) -> dict[tuple, dict]:
    """(db, table, file_seq, pos, row) -> {"version": ..., "row": {column: value}}."""
    import pyarrow.parquet as pq

    out = {}
    for f in sorted(root.rglob("*.parquet")):
        parts = dict(p.split("=", 1) for p in f.relative_to(root).parts[:-1])
        for r in pq.read_table(f).to_pylist():
            key = (parts["db"], parts["table"], r.pop("__file_seq"), r.pop("__pos"), r.pop("__row"))
            assert key not in out, key
            out[key] = {"version": parts["version"], "op": r.pop("__op"), "ts_ms": r.pop("__ts_ms"),
                        "gtid": r.pop("__gtid"), "row": r}
    return out


def _iso_datetime(text: str) -> bool:
    import datetime

    try:
        datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _assert_typed_like_cli(root: Path, cli_changes, summary: dict) -> Counter:
    """Every CLI row change has its typed row with the same values; returns the nulled counts."""
    from mysqlddl.sinks.jsonl import json_value

    typed = _typed(root)
    rows = [e for e in cli_changes if e.get("op") in ("c", "u", "d")]
    nulled = Counter()
    tables = set()
    for e in rows:
        s = e["source"]
        key = (s["db"], s["table"], int(s["file"].rsplit(".", 1)[1]), s["pos"], s["row"])
        got = typed.pop(key)
        want = e["before"] if e["op"] == "d" else e["after"]
        assert got["op"] == e["op"] and got["ts_ms"] == s["ts_ms"] and got["gtid"] == s.get("gtid"), key
        assert set(got["row"]) == set(want), key            # one column per column of the version
        for name, v in got["row"].items():
            if v is None and want[name] is not None:
                # only text the column's type cannot hold: a zero or invalid date (a valid one, which
                # the CLI prints as ISO text too, must have its typed value)
                assert isinstance(want[name], str) and not _iso_datetime(want[name]), (key, name, want[name])
                nulled[f"{s['db']}.{s['table']}.{name}"] += 1
            else:
                assert json_value(v) == want[name], (key, name, v, want[name])
        tables.add((s["db"], s["table"], got["version"]))
    assert not typed, f"typed rows the CLI does not print: {list(typed)[:5]}"
    t = summary["typed"]
    assert t["row_count"] == len(rows) and not t["skipped"] and not t["absent"]
    assert t["nulled"] == dict(nulled)
    assert {k.rsplit("@", 1)[0] for k in t["rows"]} == {f"{db}.{tb}" for db, tb, _ in tables}
    return nulled


def test_typed_datasets_hold_the_cli_values(spark, lab_binlogs, cli_changes, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mysqlddl.history import SchemaHistory
    from mysqlddl.model.ids import TableId
    from mysqlddl.sinks import typed
    from mysqlddl.spark import job as spark_job

    d, _ = lab_binlogs
    out = tmp_path / "out"
    summary = spark_job.run(spark, [str(d)], str(out), range_size=SMALL, typed=True)
    _assert_same_as_cli(out, cli_changes)            # the change events are unchanged by --typed
    nulled = _assert_typed_like_cli(out / "tables", cli_changes, summary)
    assert nulled["spark_lab.all_types.c_date"] >= 1       # the lab's zero date row
    assert json.loads((out / "summary.json").read_text())["typed"] == summary["typed"]

    # a table with several versions (tools/workload.py's `evo`: ALTERs between its rows) gets a
    # dataset per version, named by the position from which it is in force, with its columns
    history = SchemaHistory.load(out / "history.jsonl", change_event_options())
    versions = {f"version={seq}-{pos}": t for (seq, pos), t in history.versions(TableId("spark_lab", "evo"))}
    evo = sorted((out / "tables" / "db=spark_lab" / "table=evo").iterdir())
    assert len(evo) >= 3
    for p in evo:
        assert pq.read_schema(next(p.glob("*.parquet"))).remove_metadata() == typed.arrow_schema(versions[p.name])
    assert len({tuple(c.name for c in versions[p.name].columns) for p in evo}) >= 3
    all_types = pq.read_schema(next((out / "tables" / "db=spark_lab" / "table=all_types").rglob("*.parquet")))
    types = {f.name: f.type for f in all_types}
    assert all_types.names[:6] == ["__op", "__file_seq", "__pos", "__row", "__ts_ms", "__gtid"]
    assert types["c_d65_30"] == pa.decimal256(65, 30) and types["c_d10_4"] == pa.decimal128(10, 4)
    assert types["c_date"] == pa.date32() and types["c_biu"] == pa.uint64() and types["c_ti"] == pa.int8()
    assert types["c_ts6"] == pa.timestamp("us", tz="UTC") and types["c_dt6"] == pa.timestamp("us")
    assert types["c_time6"] == pa.duration("us") and types["id"] == pa.int32()


def test_typed_rows_from_the_per_change_path(lab_binlogs, cli_changes, tmp_path, monkeypatch):
    """Events the renderer does not take whole (here: none, by its images' limit) reach the typed
    datasets as the reader's RowChange objects: the same rows and values."""
    from mysqlddl.spark import job as spark_job

    monkeypatch.setattr(arrow_sink, "IMAGES_LIMIT", 0)
    d, _ = lab_binlogs
    results = _decode_in_process(d, tmp_path, typed=True)
    _assert_typed_like_cli(tmp_path / "tables", cli_changes, {"typed": spark_job._typed_summary(results)})


def test_cli_typed_flag(lab_binlogs, run_cli, tmp_path):
    d, _ = lab_binlogs
    out = tmp_path / "out"
    proc = run_cli("spark", d, "--out", out, "--master", "local[1]", "--typed")
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["typed"]["row_count"] == summary["dml_rows"] > 0
    assert (out / "tables" / "_SUCCESS").exists()
    # a re-run without --typed removes the previous run's typed datasets
    proc = run_cli("spark", d, "--out", out, "--master", "local[1]")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not (out / "tables").exists() and "typed" not in json.loads((out / "summary.json").read_text())
