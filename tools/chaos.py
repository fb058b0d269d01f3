#!/usr/bin/env python3
"""The chaos harness: a live MariaDB followed into PostgreSQL by `mysqlddl run` while everything that
can go wrong around it does, then every table compared value by value (issue #30, acceptance).

    python tools/chaos.py --seed 7 --seconds 60 [--kills 5] [--restarts 1] [--dump-kills 2]
                          [--without json_extremes,keyless_floats] [--keep DIR]

starts a private MariaDB (tools/mariadb_lab.py: ROW, FULL image, GTIDs) and a private PostgreSQL
(tools/pg_lab.py), runs the scenario below, prints what it did and what it found, and exits 1 when
it found anything. tests/pipeline/test_chaos.py runs it too (:func:`run`, on servers of its own).

The scenario, all of it drawn from one seed:

- a writer thread runs a random workload on database ``chaos`` for ``seconds``: transactions of
  INSERT / UPDATE / DELETE (some rolled back, some single autocommit statements) over tables that
  cover the column types the PostgreSQL sink maps (sinks/pg/types.py: integers signed and unsigned at
  their extremes, DECIMAL up to (65,30) with tiny negative values, FLOAT/DOUBLE, BIT, DATE/DATETIME/
  TIMESTAMP/TIME with fractions, YEAR, CHAR/VARCHAR/TEXT in utf8mb4 and latin1, BINARY/VARBINARY/BLOB,
  ENUM/SET, JSON, TINYINT(1), COMPRESSED, INET4/INET6/UUID, GEOMETRY, generated columns), a
  keyless table holding duplicate rows, a table whose only key is UNIQUE NOT NULL (its key changed
  too), and the ingredients below; it rides out the server restart (reconnects);
- now and then a big transaction (hundreds of duplicate-laden rows into the keyless table, then an
  UPDATE of many of them), so that kills also land inside one;
- a *following* `mysqlddl run` (no --once; the checkpoint kept in the PostgreSQL target) is
  killed ``kills`` times at random moments (SIGKILL; one in four times SIGTERM, which must end it
  with exit code 0) and started again at once;
- ingredients (each can be left out, to tell which one a failure comes from):
  ``ddl``: schema changes mid-run (tools/chaos_workload.py ``SCHEMA_CHANGES``: ADD COLUMN with a
    default, AFTER, MODIFY, DROP COLUMN, a new table written to afterwards);
  ``json_extremes``: a JSON table with 12345678901234567890.123, 1e400, -1e-400, 2**64, the document
    ``null`` next to SQL NULL (issue #30 item 7);
  ``keyless_floats``: a keyless table with FLOAT/DOUBLE columns and duplicate rows, updated and
    deleted by float values and LIMIT 1 (item 6);
  ``add_auto_increment``: ``ALTER TABLE ... ADD COLUMN id INT NOT NULL AUTO_INCREMENT PRIMARY KEY
    FIRST`` mid-run on a table holding rows whose only key is UNIQUE NOT NULL, filled out of key
    order (item 8: the server numbers the rows in that key's order, InnoDB's clustered index);
  ``server_restart``: the MariaDB server shut down cleanly and started again on its port
    ``restarts`` times (item 5);
  ``server_crash``: the MariaDB server SIGKILLed and started again (crash recovery) ``restarts``
    times: the stream breaks without an EOF packet, a lost connection;
  ``kill_dump``: the pipeline's ``Binlog Dump`` thread killed (``KILL <id>`` from another
    connection) ``dump_kills`` times;
- the writer stopped, the run must catch up: its checkpoint in the target reaches the server's
  ``gtid_binlog_pos`` within ``catch_up_s``; then (and only then) it is stopped with SIGTERM and
  must exit 0. A run that ended in any other way (by itself, whatever its exit code) is a problem;
- every table of ``chaos`` is compared with its PostgreSQL table as a multiset of rows (keyless
  tables hold duplicates), each value normalised by its MariaDB type (tools/chaos_workload.py
  ``compare``: numbers exact, FLOAT as its single-precision value, JSON parsed with Decimal numbers
  and the document ``null`` distinct from SQL NULL). Rows lost, duplicated or different are
  problems, with a few examples of each.

The tables, the writer and the comparison are in tools/chaos_workload.py.

Left out on purpose: values PostgreSQL cannot hold and that the sink's value policy changes by
design (zero dates, NUL characters in text or JSON strings: sinks/pg/types.py, ValuePolicy).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _tool(name: str):
    """tools/NAME.py as a module (tools/ is not a package), registered under the name tests/conftest.py's
    ``tool()`` gives it, so that a test and this module share one copy."""
    key = f"_mysqlddl_tools_{name}"
    mod = sys.modules.get(key)
    if mod is None:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).resolve().with_name(f"{name}.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[key] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[key]
            raise
    return mod


#: the tables, the writer and the comparison (tools/chaos_workload.py)
workload = _tool("chaos_workload")
compare = workload.compare
DB = workload.DB
INGREDIENTS = ("ddl", "json_extremes", "keyless_floats", "add_auto_increment", "server_restart", "server_crash",
               "kill_dump")
#: the pipeline's name: its checkpoint row in the target (mysqlddl.mysqlddl_checkpoint)
PIPELINE = "chaos"


# ------------------------------------------------------------------------------------ the harness

@dataclasses.dataclass
class Report:
    """What a run did (``actions``, in order, with seconds since its start) and found (``problems``:
    empty when nothing was lost, duplicated, different or stopped)."""

    seed: int
    ingredients: tuple[str, ...]
    actions: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    rows: dict = dataclasses.field(default_factory=dict)
    transactions: int = 0
    runs: int = 0

    def text(self) -> str:
        head = (f"chaos seed {self.seed}, ingredients {','.join(self.ingredients) or 'none'}: "
                f"{self.transactions} transactions, {self.runs} runs, rows {self.rows}")
        return "\n".join([head, *("  " + a for a in self.actions),
                          *(f"PROBLEM: {p}" for p in self.problems or ["none"])])


def _checkpoint_gtid(pg_uri: str) -> str | None:
    import psycopg

    with psycopg.connect(pg_uri) as pg:
        if pg.execute("SELECT to_regclass('mysqlddl.mysqlddl_checkpoint')").fetchone() == (None,):
            return None
        row = pg.execute("SELECT state FROM mysqlddl.mysqlddl_checkpoint WHERE pipeline = %s", (PIPELINE,)).fetchone()
    if row is None or row[0] is None:
        return None
    return json.loads(row[0])["checkpoint"]["gtid_set"]


def _covers(have: str | None, want: str) -> bool:
    """MariaDB GTID positions (``domain-server-seq,...``, one per domain): ``have`` reaches ``want``."""
    def seqs(text):
        return {int(d): int(q) for d, _s, q in (x.split("-") for x in filter(None, (text or "").split(",")))}
    got = seqs(have)
    return have is not None and all(got.get(d, -1) >= q for d, q in seqs(want).items())


#: runs that may end by themselves (each a problem) before the harness stops starting them again
MAX_ENDS = 3


class GaveUp(Exception):
    """The run kept ending by itself: the scenario stops there (the tables are still compared)."""


class _Follower:
    """The `mysqlddl run` being tested: started again after each kill; notices a run that ended."""

    def __init__(self, server, conf: Path, workdir: Path, report: Report, clock):
        self.server, self.conf, self.workdir, self.report, self.clock = server, conf, workdir, report, clock
        self.env = {k: v for k, v in os.environ.items() if k != "MYSQLDDL_FAULT"}
        self.env["MYSQL_PWD"] = "repl"          # the lab's replication account (tools/mariadb_lab.py)
        self.proc: subprocess.Popen | None = None
        self.log: Path | None = None
        self.ended = 0
        self.last_tail = None
        #: dump threads that are not this run's (a SIGKILLed run's may outlive it a moment)
        self.stale: set[int] = set()

    def start(self) -> None:
        try:
            self.stale = _dump_ids(self.server)
        except Exception:
            self.stale = set()
        self.report.runs += 1
        self.log = self.workdir / f"run-{self.report.runs}.log"
        with open(self.log, "wb") as err:
            # (from workdir: with -m the working directory comes first on sys.path, and the checkout's
            # bare source package would shadow the installed one)
            self.proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(self.conf), "--summary", "none"],
                                         cwd=self.workdir, env=self.env, stdout=subprocess.DEVNULL, stderr=err)

    def check(self, after: str) -> bool:
        """False (and a problem) when the run ended by itself; it is then started again, up to
        :data:`MAX_ENDS` times (a run that ends at the same event each time would end forever):
        then :class:`GaveUp`."""
        if self.proc.poll() is None:
            return True
        tail = self.log.read_text(errors="replace")[-700:].strip()
        self.ended += 1
        if tail == self.last_tail:
            self.report.problems.append(f"run {self.report.runs} ended the same way (exit code {self.proc.returncode})")
        else:
            self.report.problems.append(f"run {self.report.runs} ended by itself with exit code {self.proc.returncode} "
                                        f"at {self.clock():.1f} s (last action: {after}); its stderr ends: {tail!r}")
        self.last_tail = tail
        self.report.actions.append(f"{self.clock():6.1f} s  run {self.report.runs} had ended "
                                   f"(rc {self.proc.returncode})")
        if self.ended >= MAX_ENDS:
            raise GaveUp(f"gave up after {self.ended} runs ended by themselves")
        self.start()
        return False

    def kill(self, sig=signal.SIGKILL) -> int:
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(60)


def _dump_ids(server) -> set[int]:
    return {int(r[0]) for r in server.query("SHOW PROCESSLIST") if str(r[4]).startswith("Binlog Dump")}


def _following(server, follower, last: str, timeout: float = 30.0) -> set[int]:
    """The current run's dump thread(s), once it streams; empty after ``timeout``. A server restart
    or a KILL is aimed at a run that follows: one still starting that finds no server is refused
    by design (ServerConnectError under the default error strategy, exit code 1), which is not
    what this harness tests."""
    deadline = time.monotonic() + timeout
    while True:
        follower.check(last)
        ids = _dump_ids(server) - follower.stale
        if ids or time.monotonic() > deadline:
            return ids
        time.sleep(0.1)


def _kill_dump(server, ids: set[int]) -> None:
    for i in sorted(ids):
        try:
            server.execute(f"KILL {i}")
        except Exception:
            pass            # (it ended meanwhile)


def _crash(server) -> None:
    """SIGKILL the server and wait for it to be gone (the files stay: a process crash loses nothing
    the OS was given, so the binlog and InnoDB agree after its recovery)."""
    server.stop(60, crash=True)


def write_pipeline(path: Path, server, pg_uri: str, server_id: int) -> Path:
    path.write_text(f'name = "{PIPELINE}"\n[source]\nuri = "mysql://repl@127.0.0.1:{server.port}/?server-id={server_id}'
                    f'&heartbeat=1"\n[sink]\nuri = "{pg_uri}"\n[checkpoint]\nevery_transactions = 20\n'
                    f'every_ms = 300\n[changes]\ndatabases = ["{DB}"]\n[stats]\nprogress = "never"\n',
                    encoding="utf-8")
    return path


def _disturb(server, schedule, seconds, follower, writer, rr, clock, act) -> str:
    """The writer's time: the scheduled kills and restarts, the run watched in between; then the
    writer is stopped. Returns the last action (for the messages)."""
    last = "start"
    try:
        for at, what in schedule:
            while clock() < at:
                follower.check(last)
                time.sleep(0.1)
            if what == "sigkill" and rr.random() < 0.25:
                # (now and then a stop asked for: it must end cleanly, its last batch committed; asked
                # of a run that is following, as a service manager stops a started service: one that
                # has not yet set its handler, a few tenths of a second into its start, ends by the
                # signal's default action, -15, with nothing written past its checkpoint)
                if not _following(server, follower, last):
                    follower.report.problems.append(f"run {follower.report.runs} had no dump thread 30 s after {last}")
                rc = follower.kill(signal.SIGTERM)
                act(f"run {follower.report.runs} SIGTERMed: exit code {rc} ({writer.transactions} transactions so far)")
                if rc != 0:
                    follower.report.problems.append(
                        f"run {follower.report.runs} stopped by SIGTERM exited {rc}, not 0: "
                        f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")
                follower.start()
            elif what == "sigkill":
                follower.kill()
                act(f"run {follower.report.runs} SIGKILLed ({writer.transactions} transactions so far)")
                follower.start()
            elif what in ("server_restart", "server_crash") and not _following(server, follower, last):
                act("the run was not following within 30 s: no restart")
                follower.report.problems.append(f"run {follower.report.runs} had no dump thread 30 s after {last}")
            elif what == "server_restart":
                server.stop()
                act("MariaDB shut down cleanly")
                time.sleep(rr.uniform(0.2, 1.5))
                server.start()
                follower.stale = set()          # (thread ids start again from 1)
                act("MariaDB started again on its port")
            elif what == "server_crash":
                _crash(server)
                act("MariaDB SIGKILLed (crash recovery at its start)")
                time.sleep(rr.uniform(0.2, 1.5))
                server.start()
                follower.stale = set()
                act("MariaDB started again on its port")
            else:
                ids = _following(server, follower, last)
                _kill_dump(server, ids)
                act(f"Binlog Dump thread(s) {sorted(ids)} killed" if ids else "no dump thread of the run to kill")
                if not ids:
                    follower.report.problems.append(f"run {follower.report.runs} had no dump thread 30 s after {last}")
            last = f"{what} at {at:.1f} s"
        while clock() < seconds:
            follower.check(last)
            time.sleep(0.1)
    finally:
        writer.stop.set()
        writer.join(60)
        report = follower.report
        report.transactions = writer.transactions
        act(f"writer stopped: {writer.transactions} transactions, {writer.rollbacks} rolled back, "
            f"{writer.reconnects} reconnects; schema changes: {'; '.join(writer.ddl_done) or 'none'}")
        if writer.error is not None:
            report.problems.append(f"the writer failed: {writer.error!r}")
    return last


def _catch_up_and_stop(server, pg_uri, follower, catch_up_s, last, report, act) -> None:
    """The run must reach the server's GTID position (its checkpoint in the target), then stop on
    SIGTERM with exit code 0."""
    want = server.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0]
    deadline = time.monotonic() + catch_up_s
    have = None
    while time.monotonic() < deadline:
        follower.check(f"{last}, then the writer stopped")
        try:
            have = _checkpoint_gtid(pg_uri)
        except Exception as e:          # (the checkpoint table not made yet, a run restarting)
            have = f"(unreadable: {e})"
        if _covers(have, want):
            break
        time.sleep(0.3)
    else:
        report.problems.append(f"the run did not catch up within {catch_up_s:g} s: the target's checkpoint is at "
                               f"GTID {have!r}, the server at {want!r}; last run's stderr ends: "
                               f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")
    act(f"caught up at GTID {have}" if _covers(have, want) else "not caught up")
    if follower.check(f"{last}, caught up"):
        rc = follower.kill(signal.SIGTERM)
        act(f"run {report.runs} stopped by SIGTERM: exit code {rc}")
        if rc != 0:
            report.problems.append(f"run {report.runs} stopped by SIGTERM exited {rc}, not 0: "
                                   f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")


def run(server, pg_uri: str, workdir: Path, *, seed: int, seconds: float = 30.0, kills: int = 3,
        restarts: int = 1, dump_kills: int = 1, ingredients=INGREDIENTS, server_id: int = 4242,
        catch_up_s: float = 120.0, log=None) -> Report:
    """The scenario of the module docstring on ``server`` (a tools/mariadb_lab.MariaDBServer, with
    no database ``chaos`` yet) into the empty PostgreSQL database ``pg_uri``. ``log``: called with
    each action as it happens."""
    unknown = set(ingredients) - set(INGREDIENTS)
    if unknown:
        raise ValueError(f"unknown ingredients {sorted(unknown)}; known: {', '.join(INGREDIENTS)}")
    ingredients = tuple(i for i in INGREDIENTS if i in ingredients)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    rr = random.Random(seed)
    report = Report(seed, ingredients)
    t0 = time.monotonic()

    def clock() -> float:
        return time.monotonic() - t0

    def act(text: str) -> None:
        report.actions.append(f"{clock():6.1f} s  {text}")
        if log:
            log(report.actions[-1])

    # (SHOW SLAVE HOSTS, the server-id check, needs this on MariaDB 10.5.2+: not binlogged)
    server.execute("SET SESSION sql_log_bin = 0",
                   f"GRANT REPLICATION MASTER ADMIN ON *.* TO '{server.REPL_USER}'@'127.0.0.1'")
    if server.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (DB,)):
        raise ValueError(f"the server already has a database {DB!r}: the harness needs a server of its own "
                         "(its binlog read from the start must hold this run only; with --keep, a new directory)")
    server.execute(f"CREATE DATABASE {DB}")
    server.execute(*(sql for _n, sql in workload.tables(ingredients)), database=DB)
    conf = write_pipeline(workdir / "chaos.toml", server, pg_uri, server_id)
    schedule = [(rr.uniform(0.05, 0.95) * seconds, "sigkill") for _ in range(kills)]
    if "server_restart" in ingredients:
        schedule += [(rr.uniform(0.2, 0.8) * seconds, "server_restart") for _ in range(restarts)]
    if "server_crash" in ingredients:
        schedule += [(rr.uniform(0.2, 0.8) * seconds, "server_crash") for _ in range(restarts)]
    if "kill_dump" in ingredients:
        schedule += [(rr.uniform(0.1, 0.9) * seconds, "kill_dump") for _ in range(dump_kills)]
    schedule.sort()
    ddl = []
    if "ddl" in ingredients:
        changes = workload.SCHEMA_CHANGES
        when = sorted(rr.uniform(0.1, 0.9) * seconds for _ in changes)
        ddl += list(zip(when, changes, strict=True))
    if "add_auto_increment" in ingredients:
        ddl.append((rr.uniform(0.3, 0.6) * seconds,
                    "ALTER TABLE grow ADD COLUMN id INT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST"))
    writer = workload.Writer(server, rr.randrange(1 << 30), ingredients, ddl=ddl)
    follower = _Follower(server, conf, workdir, report, clock)
    follower.start()
    act(f"run 1 started (pid {follower.proc.pid}); writer started")
    writer.start()
    try:
        last = _disturb(server, schedule, seconds, follower, writer, rr, clock, act)
        _catch_up_and_stop(server, pg_uri, follower, catch_up_s, last, report, act)
    except GaveUp as e:
        report.problems.append(f"{e}: the scenario stopped there (the differences below may all come from it)")
        act(str(e))
    finally:
        writer.stop.set()
        writer.join(60)
        if follower.proc.poll() is None:
            follower.kill()
    problems, report.rows = compare(server, pg_uri)
    report.problems += problems
    act(f"compared {len(report.rows)} tables: {'no difference' if not problems else f'{len(problems)} problem(s)'}")
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the writer writes")
    ap.add_argument("--kills", type=int, default=5, help="SIGKILLs of the run")
    ap.add_argument("--restarts", type=int, default=1, help="server restarts (ingredient server_restart)")
    ap.add_argument("--dump-kills", type=int, default=2, help="killed dump threads (ingredient kill_dump)")
    ap.add_argument("--without", default="", help=f"ingredients left out, comma-separated: {', '.join(INGREDIENTS)}")
    ap.add_argument("--keep", type=Path, help="a directory for the servers and logs, kept afterwards")
    args = ap.parse_args(argv)
    left_out = {x.strip() for x in args.without.split(",") if x.strip()}
    if left_out - set(INGREDIENTS):
        ap.error(f"unknown ingredients {sorted(left_out - set(INGREDIENTS))}; known: {', '.join(INGREDIENTS)}")
    mariadb_lab, pg_lab = _tool("mariadb_lab"), _tool("pg_lab")

    base = args.keep or Path(tempfile.mkdtemp(prefix="chaos-"))
    base.mkdir(parents=True, exist_ok=True)
    mdb = mariadb_lab.MariaDBServer(base / "mdb")
    pg = pg_lab.PgServer(base / "pg", fsync=False)
    try:
        mdb.start()
        pg.start()
        report = run(mdb, pg.create_database("chaos"), base / "work", seed=args.seed, seconds=args.seconds,
                     kills=args.kills, restarts=args.restarts, dump_kills=args.dump_kills,
                     ingredients=[i for i in INGREDIENTS if i not in left_out], log=print)
    finally:
        if args.keep:
            mdb.stop()
            pg.stop()
        else:
            mdb.destroy()
            pg.destroy()
    print(report.text())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
