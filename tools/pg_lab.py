#!/usr/bin/env python3
"""A private PostgreSQL cluster for tests and benchmarks (the target of the PostgreSQL sink).

    python tools/pg_lab.py install          apt-get install postgresql if initdb/pg_ctl are missing, and
                                            postgresql-<major>-postgis-3 if PostGIS is
    python tools/pg_lab.py start [DIR]      initdb + start a cluster in DIR; prints its URI
    python tools/pg_lab.py stop DIR         fast shutdown by the PID file

`initdb` and `postgres` come from Debian's packages (/usr/lib/postgresql/<major>/bin, the newest
major found). Each cluster gets its own directory, a unix socket in it and a spare TCP port on
127.0.0.1 (never the system cluster's 5432). PostgreSQL refuses to run as root ("root" execution
of the PostgreSQL server is not permitted, src/backend/main/main.c check_root), so as root the
cluster's files belong to the ``postgres`` user (created by the Debian package) and the server runs
under ``runuser -u postgres``. Authentication is ``trust`` on the socket and loopback: the cluster
is private to the test run. The server is stopped by PID (SIGINT: "fast" shutdown, which rolls back
open transactions and checkpoints, PostgreSQL manual 19.5 "Shutting Down the Server").
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INSTALL_HINT = ("PostgreSQL server binaries are not installed. On Debian/Ubuntu (root): "
                "apt-get update && apt-get install -y postgresql (or: python tools/pg_lab.py install)")
RUN_AS = "postgres"


def bindir() -> Path | None:
    """The newest /usr/lib/postgresql/<major>/bin holding initdb and postgres."""
    found = []
    for d in glob.glob("/usr/lib/postgresql/*/bin"):
        p = Path(d)
        if (p / "initdb").exists() and (p / "postgres").exists():
            try:
                found.append((int(p.parent.name), p))
            except ValueError:
                continue
    return max(found)[1] if found else None


def postgis_installed() -> bool:
    """Whether the PostGIS extension's files are there for the newest server (CREATE EXTENSION postgis)."""
    b = bindir()
    return b is not None and Path(f"/usr/share/postgresql/{b.parent.name}/extension/postgis.control").exists()


def install() -> None:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if bindir():
        print(f"postgres present: {bindir()}")
    else:
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        # (the package starts the system cluster on 5432; it is left alone: tests never use it)
        if not bindir():
            sys.exit("apt-get finished but initdb/postgres are still missing")
        print(f"installed: {bindir()}")
    if not postgis_installed():
        # PostGIS for the sink's geometry columns (Debian's postgresql-<major>-postgis-3)
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", f"postgresql-{bindir().parent.name}-postgis-3"], check=True,
                       env=env, stdout=subprocess.DEVNULL)
        print(f"installed: PostGIS for PostgreSQL {bindir().parent.name}")


def spare_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgError(RuntimeError):
    pass


class PgServer:
    """One private PostgreSQL cluster. `start()` runs initdb on first use.

    Attributes: base (its directory), datadir, port, socket_dir, user (the database superuser,
    ``postgres``), uri (``postgresql://postgres@127.0.0.1:PORT/postgres``).
    """

    def __init__(self, base: str | os.PathLike | None = None, *, port: int | None = None, fsync: bool = True):
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix="pg-"))
        self.datadir = self.base / "data"
        self.socket_dir = self.base / "sock"
        self.logfile = self.base / "postgres.log"
        self.port = port or spare_port()
        self.user = "postgres"
        # fsync=False for throw-away test clusters: a killed *client* (the crash tests) loses nothing
        # either way, and CREATE DATABASE / checkpoints stop waiting for the disk
        self.fsync = fsync
        self._proc: subprocess.Popen | None = None

    @property
    def uri(self) -> str:
        return self.uri_for("postgres")

    def uri_for(self, dbname: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def _as_owner(self, args: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return args
        return ["runuser", "-u", RUN_AS, "--", *args]

    def _chown(self, path: Path) -> None:
        if os.geteuid() == 0:
            shutil.chown(path, RUN_AS, RUN_AS)

    def init(self) -> None:
        bd = bindir()
        if bd is None:
            raise PgError(INSTALL_HINT)
        self.base.mkdir(parents=True, exist_ok=True)
        self.socket_dir.mkdir(exist_ok=True)
        for p in (self.base, self.socket_dir):
            self._chown(p)
        if (self.datadir / "PG_VERSION").exists():
            return
        log = self.base / "initdb.log"
        with open(log, "w") as out:
            rc = subprocess.call(self._as_owner([str(bd / "initdb"), "-D", str(self.datadir), "-U", self.user,
                                                 "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
                                                 "--no-sync"]),
                                 stdout=out, stderr=subprocess.STDOUT)
        if rc != 0:
            raise PgError(f"initdb failed (rc={rc}); see {log}: {log.read_text()[-2000:]}")

    def start(self, timeout: float = 60.0) -> PgServer:
        self.init()
        bd = bindir()
        args = [str(bd / "postgres"), "-D", str(self.datadir), "-p", str(self.port), "-k", str(self.socket_dir),
                "-c", "listen_addresses=127.0.0.1", "-c", f"fsync={'on' if self.fsync else 'off'}",
                "-c", "shared_buffers=128MB", "-c", "max_connections=40", "-c", "logging_collector=off"]
        out = open(self.logfile, "ab")      # noqa: SIM115 - the server's stderr for its lifetime
        self._chown(self.logfile)
        self._proc = subprocess.Popen(self._as_owner(args), stdout=out, stderr=out, start_new_session=True)
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise PgError(f"postgres exited with {self._proc.returncode}:\n{self._tail_log()}")
            if self.ping():
                return self
            time.sleep(0.1)
        self.stop()
        raise PgError(f"postgres did not answer within {timeout:.0f} s:\n{self._tail_log()}")

    def ping(self) -> bool:
        bd = bindir()
        return subprocess.call([str(bd / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0

    def _pid(self) -> int | None:
        pidfile = self.datadir / "postmaster.pid"
        try:
            return int(pidfile.read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def stop(self, timeout: float = 60.0, *, immediate: bool = False) -> None:
        """Fast shutdown (SIGINT: a checkpoint first); ``immediate`` (SIGQUIT: no checkpoint, crash
        recovery at the next start) for a cluster about to be deleted."""
        pid = self._pid()
        if pid is None and self._proc is not None and self._proc.poll() is None:
            pid = self._proc.pid
        if pid is None:
            return
        try:
            os.kill(pid, signal.SIGQUIT if immediate else signal.SIGINT)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.poll() is not None:
                return
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)

    def destroy(self) -> None:
        self.stop(immediate=True)
        shutil.rmtree(self.base, ignore_errors=True)

    def _tail_log(self, n: int = 20) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    # -- client helpers (psql, so this file needs no driver) -------------------------------------
    def psql(self, sql: str, dbname: str = "postgres") -> str:
        bd = bindir()
        psql = bd / "psql" if (bd / "psql").exists() else "psql"
        out = subprocess.run([str(psql), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                              "-p", str(self.port), "-U", self.user, "-d", dbname, "-c", sql],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise PgError(out.stderr.strip())
        return out.stdout

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URI."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.uri_for(name)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("install", "start", "stop"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "install":
        install()
        return 0
    if argv[0] == "start":
        srv = PgServer(argv[1] if len(argv) > 1 else None).start()
        print(srv.uri)
        return 0
    PgServer(argv[1]).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
