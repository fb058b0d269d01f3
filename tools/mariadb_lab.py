#!/usr/bin/env python3
"""A private MariaDB server with row-based binary logging, for tests, fixture capture and benchmarks.

    python tools/mariadb_lab.py install          apt-get install mariadb-server/-client if mariadbd is missing
    python tools/mariadb_lab.py start [DIR]      start a server in DIR (default: a new temp dir); prints its socket
    python tools/mariadb_lab.py stop DIR         clean shutdown by the PID file

The test suite uses `MariaDBServer` directly (tests/conftest.py: the `mariadb_server` fixture).
Each server gets its own datadir, socket and a spare TCP port on 127.0.0.1, and is stopped by PID
(SIGTERM, then waiting for exit) so InnoDB shuts down cleanly and the last binlog is closed.

Binlog settings follow what CDC users run: ROW format, FULL row image, CRC32 checksums, annotated
rows (MariaDB's default), optional binlog_row_metadata=FULL. Modelled on shared/lab/mariadb.sh.

Replication (a second lab server as a replica of the first; the `mariadb_replica` fixture in
tests/conftest.py is one such pair)::

    primary = MariaDBServer(server_id=1).start()
    replica = MariaDBServer(server_id=2).start()
    replica.start_replica(primary)            # CHANGE MASTER TO ... MASTER_USE_GTID=slave_pos; START SLAVE
    ...                                       # write on the primary
    replica.wait_caught_up()                  # MASTER_GTID_WAIT(primary's gtid_binlog_pos)
    replica.relay_log_files()                 # the relay logs, in index order
    replica.promote()                         # failover: STOP SLAVE; RESET SLAVE ALL

Every server is set up so that it can be made a replica, or promoted, later (failover tests): its own
`server_id`, relay logs named `relay-bin.NNNNNN` in a directory of their own (`relay_dir`: the
binlog directory stays one file set with one .index, which tests read as a whole) and kept (`relay_log_purge=OFF`,
so tests can read every relay log the replica ever wrote), `log_slave_updates=ON` (a promoted
replica's binlog holds what it replicated), and a replication account `repl`@`127.0.0.1`
(password `repl`) created on each server without being binlogged. Replication runs over TCP on
127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INSTALL_HINT = ("mariadbd is not installed. On Debian/Ubuntu (root): "
                "apt-get update && apt-get install -y mariadb-server mariadb-client "
                "(or: python tools/mariadb_lab.py install)")


def mariadbd_path() -> str | None:
    return shutil.which("mariadbd") or (os.path.exists("/usr/sbin/mariadbd") and "/usr/sbin/mariadbd") or None


def install() -> None:
    if mariadbd_path():
        print(f"mariadbd present: {subprocess.check_output([mariadbd_path(), '--version'], text=True).strip()}")
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "mariadb-server", "mariadb-client"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    if not mariadbd_path():
        sys.exit("apt-get finished but mariadbd is still missing")
    print(f"installed: {subprocess.check_output([mariadbd_path(), '--version'], text=True).strip()}")


def spare_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MariaDBError(RuntimeError):
    pass


class MariaDBServer:
    """One private mariadbd. `start()` initialises the datadir on first use.

    Attributes: base (its directory), datadir, socket, port, pidfile, errlog, binlog_dir,
    binlog_basename ('mariadb-bin'), row_metadata ('MINIMAL' or 'FULL'), server_id (distinct per
    server of one replication topology), relay_dir, relay_basename ('relay-bin'), primary (the
    server this one replicates from, after :meth:`start_replica`; else None).
    """

    def __init__(self, base: str | os.PathLike | None = None, *, port: int | None = None,
                 row_metadata: str = "MINIMAL", extra_args: tuple[str, ...] = (), server_id: int = 1):
        # The socket path must stay under ~100 bytes (sun_path), hence a short temp prefix.
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix="mdb-"))
        self.datadir = self.base / "data"
        self.binlog_dir = self.base / "logs"
        self.socket = str(self.base / "mysqld.sock")
        self.pidfile = self.base / "mysqld.pid"
        self.errlog = self.base / "mysqld.err"
        # A private tmpdir: servers in other PID namespaces sharing /tmp name their temporary-table
        # files alike (#sql-temptable-<pid>-<thread>-<n>) and delete each other's.
        self.tmpdir = self.base / "tmp"
        self.port = port or spare_port()
        self.binlog_basename = "mariadb-bin"
        self.row_metadata = row_metadata
        self.extra_args = tuple(extra_args)
        self.server_id = int(server_id)
        self.relay_dir = self.base / "relay"
        self.relay_basename = "relay-bin"
        self.primary: MariaDBServer | None = None
        self._proc: subprocess.Popen | None = None

    # -- lifecycle ---------------------------------------------------------------------------------
    def init(self) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        self.binlog_dir.mkdir(exist_ok=True)
        self.relay_dir.mkdir(exist_ok=True)
        self.tmpdir.mkdir(exist_ok=True)
        if (self.datadir / "mysql").is_dir():
            return
        log = self.base / "install_db.log"
        with open(log, "w") as out:
            rc = subprocess.call(["mariadb-install-db", "--no-defaults", f"--datadir={self.datadir}", "--user=root",
                                  "--auth-root-authentication-method=socket", "--skip-test-db",
                                  # (the private tmpdir here too: bootstrap's temporary tables
                                  # collide with other servers' in a shared /tmp, see start())
                                  f"--tmpdir={self.tmpdir}"],
                                 stdout=out, stderr=subprocess.STDOUT)
        if rc != 0:
            raise MariaDBError(f"mariadb-install-db failed (rc={rc}); see {log}")

    def start(self, timeout: float = 60.0) -> MariaDBServer:
        exe = mariadbd_path()
        if not exe:
            raise MariaDBError(INSTALL_HINT)
        self.init()
        args = [exe, "--no-defaults", "--user=root", f"--datadir={self.datadir}", f"--socket={self.socket}",
                f"--pid-file={self.pidfile}", f"--log-error={self.errlog}", f"--port={self.port}",
                f"--tmpdir={self.tmpdir}",
                "--bind-address=127.0.0.1", "--skip-name-resolve", f"--server-id={self.server_id}",
                f"--log-bin={self.binlog_dir / self.binlog_basename}",
                f"--log-bin-index={self.binlog_dir / (self.binlog_basename + '.index')}",
                "--binlog-format=ROW", "--binlog-row-image=FULL", "--binlog-checksum=CRC32",
                f"--binlog-row-metadata={self.row_metadata}", "--max-allowed-packet=256M",
                "--innodb-buffer-pool-size=128M", "--innodb-log-file-size=48M",
                "--innodb-flush-log-at-trx-commit=2", "--sync-binlog=0", "--skip-log-warnings=0",
                # ready to be a replica (or a promoted one) at any time: see the module docstring
                f"--relay-log={self.relay_dir / self.relay_basename}",
                f"--relay-log-index={self.relay_dir / (self.relay_basename + '.index')}",
                "--relay-log-purge=OFF", "--log-slave-updates=ON",
                *self.extra_args]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise MariaDBError(f"mariadbd exited with {self._proc.returncode}:\n{self._tail_errlog()}")
            if self.ping():
                self._replication_user()
                return self
            time.sleep(0.1)
        self.stop()
        raise MariaDBError(f"mariadbd did not answer within {timeout:.0f} s:\n{self._tail_errlog()}")

    def ping(self) -> bool:
        return subprocess.call(["mariadb-admin", "--no-defaults", "-S", self.socket, "-u", "root", "ping"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0

    def stop(self, timeout: float = 120.0, *, crash: bool = False) -> None:
        """Clean shutdown by PID: SIGTERM, then wait for the process to exit. ``crash``: SIGKILL
        instead (a crash: the files stay as the OS was given them, InnoDB recovers at the next start)."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            pid = self._proc.pid if self._proc and self._proc.poll() is None else None
        if pid is None:
            return
        try:
            os.kill(pid, signal.SIGKILL if crash else signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.pid == pid:
                if self._proc.poll() is not None:
                    return
            else:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    return
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
        raise MariaDBError(f"mariadbd pid {pid} did not stop within {timeout:.0f} s (killed)")

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def _tail_errlog(self, n: int = 20) -> str:
        try:
            return "\n".join(self.errlog.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no error log)"

    # -- use ---------------------------------------------------------------------------------------
    def connect(self, database: str | None = None, **kw):
        """A pymysql connection as root over the socket (autocommit on, utf8mb4)."""
        import pymysql

        return pymysql.connect(unix_socket=self.socket, user="root", database=database, charset="utf8mb4",
                               autocommit=True, **kw)

    def execute(self, *statements: str, database: str | None = None) -> None:
        conn = self.connect(database)
        try:
            with conn.cursor() as cur:
                for sql in statements:
                    cur.execute(sql)
        finally:
            conn.close()

    def query(self, sql: str, args=None, database: str | None = None) -> list[tuple]:
        conn = self.connect(database)
        try:
            with conn.cursor() as cur:
                cur.execute(sql, args)
                return list(cur.fetchall())
        finally:
            conn.close()

    @property
    def version(self) -> str:
        return self.query("SELECT VERSION()")[0][0]

    def flush_logs(self) -> None:
        """Close the current binlog and open the next one, so everything so far is in closed files."""
        self.execute("FLUSH BINARY LOGS")

    def binlog_files(self) -> list[Path]:
        """Every binlog file in index order (the last one is still being written unless flushed)."""
        index = self.binlog_dir / (self.binlog_basename + ".index")
        return [self.binlog_dir / Path(line.strip()).name for line in index.read_text().splitlines() if line.strip()]

    def current_binlog(self) -> tuple[Path, int]:
        name, pos = self.query("SHOW MASTER STATUS")[0][:2]
        return self.binlog_dir / name, int(pos)

    # -- replication -------------------------------------------------------------------------------
    REPL_USER = "repl"
    REPL_PASSWORD = "repl"

    def _replication_user(self) -> None:
        """The account a replica connects with, on every server (so a promoted replica serves its
        own replicas); not binlogged, so it never reaches a replica's relay log."""
        self.execute("SET SESSION sql_log_bin = 0",
                     f"CREATE USER IF NOT EXISTS '{self.REPL_USER}'@'127.0.0.1' IDENTIFIED BY '{self.REPL_PASSWORD}'",
                     f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{self.REPL_USER}'@'127.0.0.1'")

    def start_replica(self, primary: MariaDBServer, *, gtid_pos: str | None = "", timeout: float = 30.0,
                      via_port: int | None = None) -> None:
        """Replicate from ``primary`` over 127.0.0.1 with GTIDs (``MASTER_USE_GTID=slave_pos``).

        ``gtid_pos``: where to start, written to ``gtid_slave_pos`` first: "" (default) from the
        primary's first binlog (so its binlogs must not have been purged or reset), a GTID list
        to start after it, or None to keep this server's ``gtid_slave_pos`` (a restart, or a
        failover that re-points the replica). ``via_port``: connect to this port on 127.0.0.1
        instead of the primary's (a fault-injecting proxy in front of it). Returns once the I/O and
        SQL threads run."""
        if primary.server_id == self.server_id:
            raise MariaDBError(f"primary and replica share server_id {self.server_id}")
        self.execute("STOP SLAVE")
        if gtid_pos is not None:
            self.execute(f"SET GLOBAL gtid_slave_pos = '{gtid_pos}'")
        self.execute(f"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={via_port or primary.port}, "
                     f"MASTER_USER='{self.REPL_USER}', MASTER_PASSWORD='{self.REPL_PASSWORD}', "
                     "MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1",
                     "START SLAVE")
        self.primary = primary
        deadline = time.monotonic() + timeout
        while True:
            st = self.replica_status()
            if st.get("Slave_IO_Running") == "Yes" and st.get("Slave_SQL_Running") == "Yes":
                return
            if st.get("Last_IO_Error") or st.get("Last_SQL_Error") or time.monotonic() > deadline:
                raise MariaDBError(f"replication did not start: IO {st.get('Slave_IO_Running')} "
                                   f"({st.get('Last_IO_Error')}), SQL {st.get('Slave_SQL_Running')} "
                                   f"({st.get('Last_SQL_Error')})")
            time.sleep(0.1)

    def stop_replica(self) -> None:
        """STOP SLAVE (the configuration and gtid_slave_pos stay: :meth:`start_replica` with
        ``gtid_pos=None`` resumes)."""
        self.execute("STOP SLAVE")

    def replica_status(self) -> dict:
        """SHOW SLAVE STATUS as {column: value} ({} when this server replicates from nobody)."""
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW SLAVE STATUS")
                row = cur.fetchone()
                return {} if row is None else {d[0]: v for d, v in zip(cur.description, row, strict=True)}
        finally:
            conn.close()

    def wait_caught_up(self, timeout: float = 60.0, *, applied: bool = True) -> None:
        """Wait until this replica has everything its primary has logged so far.

        ``applied`` (default): the SQL thread applied it, i.e. the replica's ``gtid_slave_pos``
        covers the primary's ``gtid_binlog_pos`` (MariaDB's ``MASTER_GTID_WAIT``). With
        ``applied=False`` only the I/O thread must have it: the relay log holds the primary's
        events up to its current binlog file and position (``Master_Log_File`` /
        ``Read_Master_Log_Pos``), which is what a test reading relay logs needs even when the
        SQL thread stopped on an error."""
        primary = self.primary
        if primary is None:
            raise MariaDBError("not a replica: call start_replica(primary) first")
        if applied:
            target = primary.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0]
            if target:
                got = self.query("SELECT MASTER_GTID_WAIT(%s, %s)", (target, timeout))[0][0]
                if got != 0:
                    st = self.replica_status()
                    raise MariaDBError(f"replica not caught up with {target} within {timeout:.0f} s: "
                                       f"gtid_slave_pos {self.query('SELECT @@GLOBAL.gtid_slave_pos')[0][0]}, "
                                       f"IO error {st.get('Last_IO_Error')!r}, SQL error {st.get('Last_SQL_Error')!r}")
            return
        path, pos = primary.current_binlog()
        deadline = time.monotonic() + timeout
        while True:
            st = self.replica_status()
            if st.get("Master_Log_File") == path.name and int(st.get("Read_Master_Log_Pos") or 0) >= pos:
                return
            if time.monotonic() > deadline:
                raise MariaDBError(f"relay log not caught up with {path.name}:{pos} within {timeout:.0f} s: "
                                   f"read {st.get('Master_Log_File')}:{st.get('Read_Master_Log_Pos')}, "
                                   f"IO error {st.get('Last_IO_Error')!r}")
            time.sleep(0.05)

    def promote(self) -> None:
        """Make this replica a primary (failover): stop replicating and forget the source
        (``STOP SLAVE; RESET SLAVE ALL``); its binlog (``log_slave_updates``) already holds what it
        replicated, so other replicas can follow it with ``start_replica(self, gtid_pos=None)``."""
        self.execute("STOP SLAVE", "RESET SLAVE ALL")
        self.primary = None

    def flush_relay_logs(self) -> None:
        """Close the current relay log and open the next one."""
        self.execute("FLUSH RELAY LOGS")

    def relay_log_files(self) -> list[Path]:
        """Every relay log this server kept, in index order (the last one is being written)."""
        index = self.relay_dir / (self.relay_basename + ".index")
        if not index.exists():
            return []
        return [self.relay_dir / Path(line.strip()).name for line in index.read_text().splitlines() if line.strip()]


@contextlib.contextmanager
def replication_pair(base: str | os.PathLike, primary_id: int, replica_id: int):
    """(primary, replica): two lab servers under ``base``-1 and ``base``-2, the replica replicating
    the primary with GTIDs; both destroyed on exit. The replication account may also list the
    replicas (SHOW SLAVE HOSTS, the live source's server-id check: REPLICATION MASTER ADMIN on
    MariaDB 10.5.2+, granted without binlogging it, like the account itself)."""
    primary = MariaDBServer(f"{base}-1", server_id=primary_id)
    replica = MariaDBServer(f"{base}-2", server_id=replica_id)
    try:
        for srv in (primary.start(), replica.start()):
            srv.execute("SET SESSION sql_log_bin = 0",
                        f"GRANT REPLICATION MASTER ADMIN ON *.* TO '{srv.REPL_USER}'@'127.0.0.1'")
        replica.start_replica(primary)
        yield primary, replica
    finally:
        replica.destroy()
        primary.destroy()


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("install", "start", "stop"):
        print(__doc__)
        return 2
    if argv[0] == "install":
        install()
    elif argv[0] == "start":
        srv = MariaDBServer(argv[1] if len(argv) > 1 else None).start()
        print(f"mariadbd up: {srv.base} socket {srv.socket} port {srv.port}")
    else:
        MariaDBServer(argv[1]).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
