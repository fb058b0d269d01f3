"""pg_chameleon as a peer of tools/bench_pg.py: the issue's named competitor, run for real.

pg_chameleon (PyPI ``pg-chameleon``) is not a dependency of this project: it lives in a venv of its
own, given to bench_pg.py by ``--pgc-venv DIR`` or ``$PGC_VENV``::

    /usr/bin/python3 -m venv /opt/venv-pgc && /opt/venv-pgc/bin/pip install pg-chameleon==2.0.21

What it needs, from its configuration example (pg_chameleon/configuration/config-example.yml) and
its source, and why this module does each thing:

- It refuses to run as root (global_lib.replica_engine.__init__: "pg_chameleon cannot be run as
  root", exit 10). As root we run it under ``runuser -u USER`` (``--pgc-user``, default
  ``pgcbench``, created with ``useradd --system`` when missing). The venv's python must be one that
  user can execute: a venv made from a python under /root (pyenv) is not, hence /usr/bin/python3.
- Its configuration is ``~USER/.pg_chameleon/configuration/<name>.yml``; we write ``bench.yml``
  (the example's values for batch sizes and sleep_loop; ``log_dest: stdout`` so that the replica
  runs in the foreground and its log is the process output we scan).
- mysql-replication (pymysqlreplication) 1.0.x, which pg-chameleon 2.0.21 installs, takes column
  names and charsets only from the table map's optional metadata: with MariaDB's default
  ``binlog_row_metadata=MINIMAL`` it decodes a VARBINARY column as UTF-8 text and the read daemon
  dies (``UnicodeDecodeError: 'utf-8' codec can't decode byte ...`` in row_event.__read_string,
  after its own hint "Setting The Variable Value BINLOG_ROW_METADATA = FULL"). So the bench's
  MariaDB runs with ``binlog_row_metadata=FULL``.
- Its DDL tokeniser (sql_util.sql_token, parsy) stops the read daemon on statements it has no rule
  for: a binlogged ``CREATE DATABASE`` gives ``parsy.ParseError: expected one of 'FULLTEXT',
  'INDEX', 'SPATIAL', 'TABLE', 'UNIQUE' at 0:7``. And a CREATE TABLE it does parse loses UNSIGNED
  (``qty INT UNSIGNED`` becomes ``integer``), so the bulk rows then fail their replay with
  ``value "4112167675" is out of range for type integer`` and the table is dropped from the replica.
  That is what the earlier attempt saw as "17 minutes and nothing replicated". Its type map goes by
  data type alone (``int`` -> ``integer``, pg_lib.pg_engine.type_dictionary) in its snapshot too,
  so the configuration widens ``int(10) unsigned`` to bigint with its documented ``type_override``
  (keyed by information_schema's COLUMN_TYPE, which the binlog's CREATE TABLE path does not see).
  So the database is created unlogged before the start, and pg_chameleon's snapshot
  (``init_replica``) is taken right after the workload's ``CREATE TABLE bulk``: it then builds the
  table from information_schema and replays only the row changes, which is what is timed.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
SOURCE = "mysql"
CONFIG = "bench"
MY_USER, MY_PASSWORD = "pgc", "pgc"


class ChameleonError(RuntimeError):
    """pg_chameleon could not do its part; the message carries its own error line."""


def proc_cpu(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK       # utime, stime (proc(5) fields 14, 15)


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (by /proc/PID/stat ppid)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


# its log lines: "TIME PROCESS LEVEL: message" (log_dest stdout) or "TIME PROCESS LEVEL file (line): ..."
# (--debug), global_lib.replica_engine.__init_logger
_FAILED = re.compile(r"^\S+ \S+ \S+ (ERROR|CRITICAL)\b")


def error_line(text: str) -> str | None:
    """The first line of pg_chameleon's output that reports a failure, with the exception's last
    line when it printed a traceback."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FAILED.search(line) or line.startswith("Traceback"):
            tail = [ln for ln in lines[i:] if ln and not ln.startswith((" ", "\t")) and ":" in ln
                    and not ln.startswith("20")]
            exc = tail[0] if tail else ""
            return line.strip() + (f"  [{exc.strip()}]" if exc and exc.strip() not in line else "")
    return None


class Chameleon:
    """One pg_chameleon source (``mysql``) from a lab MariaDB into database ``dbname`` of a pg_lab
    cluster. ``setup()`` then ``snapshot()`` (init_replica) then ``replay(expected)``
    (start_replica until the target equals ``expected``)."""

    def __init__(self, venv: Path, mariadb, pg, *, dbname: str = "bench_pgc", user: str = "pgcbench",
                 log=print):
        self.venv, self.mariadb, self.pg, self.dbname, self.log = Path(venv), mariadb, pg, dbname, log
        self.exe = self.venv / "bin" / "chameleon"
        if not self.exe.exists():
            raise ChameleonError(f"no {self.exe}: install pg-chameleon into a venv of its own, e.g. "
                                 "/usr/bin/python3 -m venv /opt/venv-pgc && /opt/venv-pgc/bin/pip install "
                                 "pg-chameleon==2.0.21, and pass --pgc-venv /opt/venv-pgc")
        self.as_root = os.geteuid() == 0
        self.user = user if self.as_root else pwd.getpwuid(os.geteuid()).pw_name
        self.outdir = Path(pg.base) / "pgc-out"

    # -- set-up --------------------------------------------------------------------------------
    def _ensure_user(self) -> None:
        try:
            pwd.getpwnam(self.user)
        except KeyError:
            subprocess.run(["useradd", "--system", "--create-home", "--home-dir", f"/var/lib/{self.user}",
                            "--shell", "/usr/sbin/nologin", self.user], check=True)
        self.home = Path(pwd.getpwnam(self.user).pw_dir)

    def _cmd(self, *args: str) -> list[str]:
        cmd = [str(self.exe), *args, "--config", CONFIG]
        return ["runuser", "-u", self.user, "--", *cmd] if self.as_root else cmd

    def run(self, *args: str, timeout: float = 600) -> str:
        """One chameleon command in the foreground (``--debug``); its output, or ChameleonError
        with its error line."""
        out = subprocess.run(self._cmd(*args, "--debug"), capture_output=True, text=True, timeout=timeout,
                             cwd=self.home)
        text = out.stdout + out.stderr
        err = error_line(text)
        if out.returncode != 0 or err:
            raise ChameleonError(f"chameleon {' '.join(args)} (rc={out.returncode}): "
                                 f"{err or text.strip().splitlines()[-1:] or '(no output)'}")
        return text

    def setup(self) -> None:
        self._ensure_user()
        self.mariadb.execute(
            "SET SESSION sql_log_bin = 0",
            f"CREATE USER IF NOT EXISTS '{MY_USER}'@'127.0.0.1' IDENTIFIED BY '{MY_PASSWORD}'",
            # its documented source grants: SELECT for the copy, RELOAD + LOCK TABLES for its
            # FLUSH TABLES WITH READ LOCK snapshot, REPLICATION CLIENT/SLAVE for the binlog stream
            f"GRANT SELECT, RELOAD, LOCK TABLES, REPLICATION CLIENT, REPLICATION SLAVE ON *.* "
            f"TO '{MY_USER}'@'127.0.0.1'")
        self.pg.create_database(self.dbname)
        cfgdir = self.home / ".pg_chameleon" / "configuration"
        for d in (self.home / ".pg_chameleon", cfgdir, self.home / ".pg_chameleon" / "pid",
                  self.home / ".pg_chameleon" / "logs", self.outdir):
            d.mkdir(parents=True, exist_ok=True)
            if self.as_root:
                shutil.chown(d, self.user, self.user)
        cfg = cfgdir / f"{CONFIG}.yml"
        cfg.write_text(self._config())
        if self.as_root:
            shutil.chown(cfg, self.user, self.user)
        self.run("create_replica_schema")
        self.run("add_source", "--source", SOURCE)

    def _config(self) -> str:
        h = self.home / ".pg_chameleon"
        return f"""---
pid_dir: '{h}/pid/'
log_dir: '{h}/logs/'
log_dest: stdout
log_level: info
log_days_keep: 1
rollbar_key: ''
rollbar_env: ''
type_override:
  # its type map goes by data_type alone ('int' -> integer, pg_lib.pg_engine.type_dictionary), so
  # INT UNSIGNED values past 2^31-1 fail; its documented override (keyed by information_schema's
  # COLUMN_TYPE) widens it
  "int(10) unsigned":
    override_to: bigint
    override_tables:
      - "*"
pg_conn:
  host: "127.0.0.1"
  port: "{self.pg.port}"
  user: "{self.pg.user}"
  password: "trust-auth-ignores-it"
  database: "{self.dbname}"
  charset: "utf8"
sources:
  {SOURCE}:
    db_conn:
      host: "127.0.0.1"
      port: "{self.mariadb.port}"
      user: "{MY_USER}"
      password: "{MY_PASSWORD}"
      charset: 'utf8'
      connect_timeout: 10
    schema_mappings:
      lab: lab
    limit_tables:
    skip_tables:
    grant_select_to:
    lock_timeout: "120s"
    my_server_id: 100
    replica_batch_size: 10000
    replay_max_rows: 10000
    batch_retention: '1 day'
    copy_max_memory: "300M"
    copy_mode: 'file'
    out_dir: {self.outdir}
    sleep_loop: 1
    on_error_replay: continue
    on_error_read: continue
    auto_maintenance: "disabled"
    gtid_enable: false
    type: mysql
    skip_events:
      insert:
      delete:
      update:
    keep_existing_schema: No
    net_read_timeout: 600
fillfactor: {{}}
"""

    def snapshot(self) -> None:
        """init_replica: copies the source tables as they are now and records the binlog position
        its replay starts from."""
        text = self.run("init_replica", "--source", SOURCE)
        if "init replica for source" not in text or "is complete" not in text:
            raise ChameleonError("chameleon init_replica did not report completion: "
                                 + (text.strip().splitlines() or ["(no output)"])[-1])

    # -- the measured replay ---------------------------------------------------------------------
    def replay(self, expected: tuple, query: str, *, stall_s: float = 300.0, poll_s: float = 0.25) -> dict:
        """start_replica until ``query`` on the target returns ``expected``. Returns wall time and
        the CPU of its processes (the runuser wrapper, its main process and the read/replay
        daemons, summed from /proc/PID/stat as last sampled) and of its PostgreSQL backends.
        Raises ChameleonError with its log line when it reports an error, exits, or makes no
        progress for ``stall_s``."""
        import psycopg

        logf = self.outdir / "start_replica.log"
        mon = psycopg.connect(self.pg.uri_for(self.dbname), autocommit=True)
        me = mon.execute("SELECT pg_backend_pid()").fetchone()[0]
        cpu_procs: dict[int, float] = {}
        cpu_backends: dict[int, float] = {}
        with open(logf, "w") as out:
            t0 = time.monotonic()
            proc = subprocess.Popen(self._cmd("start_replica", "--source", SOURCE), stdout=out,
                                    stderr=subprocess.STDOUT, cwd=self.home, start_new_session=True)
        last, last_change, got, wall = None, time.monotonic(), None, None
        try:
            while True:
                for pid in descendants(proc.pid):
                    c = proc_cpu(pid)
                    if c is not None:
                        cpu_procs[pid] = c
                for (pid,) in mon.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> %s",
                                          (self.dbname, me)).fetchall():
                    c = proc_cpu(pid)
                    if c is not None:
                        cpu_backends[pid] = c
                try:
                    got = tuple(mon.execute(query).fetchone())
                except psycopg.errors.UndefinedTable:
                    got = None
                if got == expected:
                    wall = time.monotonic() - t0
                    break
                err = error_line(logf.read_text(errors="replace"))
                if err:
                    raise ChameleonError(f"chameleon start_replica: {err}")
                if proc.poll() is not None:
                    raise ChameleonError(f"chameleon start_replica exited (rc={proc.returncode}): "
                                         + " | ".join(logf.read_text(errors="replace").splitlines()[-3:]))
                if got != last:
                    last, last_change = got, time.monotonic()
                elif time.monotonic() - last_change > stall_s:
                    raise ChameleonError(f"chameleon start_replica: no progress in {stall_s:.0f} s, target at "
                                         f"{got} of {expected}; its last line: "
                                         + (logf.read_text(errors="replace").splitlines() or [""])[-1])
                time.sleep(poll_s)
        finally:
            self._stop(proc)
            mon.close()
        return {"wall_s": wall, "cpu_procs_s": sum(cpu_procs.values()), "cpu_postgres_s": sum(cpu_backends.values()),
                "procs": len(cpu_procs), "backends": len(cpu_backends), "log": str(logf)}

    def _stop(self, proc: subprocess.Popen) -> None:
        """SIGINT to the session we started (its terminate handler), then SIGKILL after 15 s."""
        if proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGINT, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                proc.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue
