"""The driver and the pipeline's run lock of the PostgreSQL sink: psycopg (the [postgresql] extra;
its absence a typed error), :func:`connect`, and :class:`AdvisoryLock` (the other user of the
driver besides :mod:`mysqlddl.sinks.postgresql`, which imports psycopg from here)."""

from __future__ import annotations

import hashlib
import re

from ...errors import ExtraMissingError, PipelineLockedError, SinkError
from .state import masked_uri

# psycopg: the [postgresql] extra. Its absence is a typed error saying what to install (issue #30
# item 12: it was a ModuleNotFoundError traceback); a broken install's own ImportError stays.
try:
    import psycopg  # (the [postgresql] extra: see above)
except ModuleNotFoundError as e:
    if e.name != "psycopg":
        raise
    raise ExtraMissingError("psycopg is not installed, the PostgreSQL sink's driver: pip install "
                            "'mysqlddl[postgresql]'") from None


def connect(uri: str, **kw) -> psycopg.Connection:
    """A connection to the target; one that cannot be made is a SinkError (transient: the retry
    strategy waits for a server that is restarting)."""
    try:
        return psycopg.connect(uri, **kw)
    except psycopg.OperationalError as e:
        raise SinkError(f"cannot connect: {str(e).strip()}", transient=True, path=masked_uri(uri)) from None


class AdvisoryLock:
    """One run of a pipeline at a time in its target (pipeline.lock holds the local side): a
    session-level advisory lock (PostgreSQL manual 13.3.5 "Advisory Locks":
    ``pg_try_advisory_lock(bigint)``) on a dedicated connection that lives as long as the run, so
    two hosts running the same pipeline into one target cannot both write its checkpoint row. The
    server releases a session lock when its session ends: a run killed with SIGKILL (its socket
    closed by the kernel) leaves nothing that blocks the restart. The connection's
    ``application_name`` carries the holder's PID and host (``pg_stat_activity``, its
    ``backend_start`` the start time), which a refused run reads through ``pg_locks``.
    ``key``: the pipeline's identity in the target (its checkpoint row's schema and name), hashed
    to the lock's 64-bit key."""

    def __init__(self, uri: str, key: str, holder: dict):
        self.uri = uri
        self.name = key
        # (64 bits of a stable hash: Python's hash() is salted per process)
        self.key = int.from_bytes(hashlib.blake2b(f"mysqlddl run {key}".encode(), digest_size=8).digest(),
                                  "big", signed=True)
        self.holder = holder
        self.conn: psycopg.Connection | None = None

    def check(self) -> None:
        """Hold the lock: take it when it is not held (the first time, or its connection lost),
        else raise PipelineLockedError naming the holder."""
        if self.conn is not None and not self.conn.closed:
            try:
                self.conn.execute("SELECT 1")
                return
            except psycopg.Error:
                self.close()
        app = f"mysqlddl pid={self.holder['pid']} host={self.holder['host']}"[:63]    # (NAMEDATALEN - 1)
        conn = connect(self.uri, autocommit=True, application_name=app)
        try:
            if conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()[0]:
                self.conn = conn
                return
            held = conn.execute(
                "SELECT a.application_name, a.backend_start, a.client_addr FROM pg_locks l JOIN pg_stat_activity a "
                "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND "
                "l.classid = %s::bigint::oid AND l.objid = %s::bigint::oid AND l.database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())",
                ((self.key >> 32) & 0xFFFFFFFF, self.key & 0xFFFFFFFF)).fetchone()
        finally:
            if self.conn is not conn:
                conn.close()
        app, since, addr = held if held is not None else ("", None, None)
        m = re.fullmatch(r"mysqlddl pid=(\d+) host=(.*)", app or "")
        pid, host = (int(m.group(1)), m.group(2)) if m else (None, None)
        started = since.timestamp() if since is not None else None
        who = PipelineLockedError.holder(pid, host, started) if m else \
            f"a session of application {app!r} from {addr or 'a socket'}"
        raise PipelineLockedError(f"pipeline {self.holder['pipeline']!r} is running already into this target: {who} "
                                  f"holds its advisory lock ({self.name}); stop that run first (SIGTERM stops it "
                                  "cleanly) or wait for it to end", path=masked_uri(self.uri), pid=pid, host=host,
                                  started=started)

    def close(self) -> None:
        """Release the lock (the session's end releases it)."""
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()


__all__ = ["AdvisoryLock", "connect", "psycopg"]
