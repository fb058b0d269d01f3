"""One run of a pipeline at a time: an exclusive lock held for the run's lifetime.

Two runs of one pipeline would write the same segments and the same checkpoint (one dies on a
``.tmp`` segment the other renamed; two server streams with one server id kick each other out).
:class:`PipelineLock` is an ``flock(2)`` on ``<store>.<pipeline>.lock`` beside the store (``lock_path``), taken
with ``LOCK_EX | LOCK_NB`` before the source opens and held until the run ends. A second run is
refused at once (:class:`~mysqlddl.errors.PipelineLockedError`) with what the holder wrote into the
file: its PID, host and start time.

flock(2) rather than a PID file: the kernel releases the lock when the holder's last descriptor
closes, so a run killed with SIGKILL (or a crashed host) leaves nothing that blocks its restart;
the file's stale text is only read while someone holds the lock. flock rather than fcntl(2)
record locks: those belong to the process, not to the open file, so a second open in the same
process would not conflict and closing any descriptor of the file would drop them (POSIX
fcntl(2), "Advisory record locking"). The file is never removed (an unlink between another run's
open and its flock would let two runs hold locks on two different files of the same name).
Over NFS, Linux emulates flock with byte-range locks (flock(2), NOTES): it still excludes.

A sink whose target another host could reach with the same pipeline (the PostgreSQL sink: a
session advisory lock in the target) adds its own lock (:meth:`mysqlddl.sinks.base.Sink.lock`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import time
from pathlib import Path

from ..errors import CheckpointAccessError, PipelineLockedError


class PipelineLock:
    """The lock file ``path`` of pipeline ``pipeline`` (the module docstring). ``details``: more
    of what the holder writes into the file (its pipeline file, its store)."""

    def __init__(self, path: str | os.PathLike, *, pipeline: str, details: dict | None = None):
        self.path = Path(path)
        self.pipeline = pipeline
        self.details = details or {}
        self._fd = None

    def acquire(self) -> None:
        """Take the lock, or raise PipelineLockedError naming the holder."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except PermissionError as e:
            raise CheckpointAccessError(f"permission denied ({errno.errorcode.get(e.errno, e.errno)}): cannot open "
                                        f"the pipeline's lock file as uid {os.geteuid()}: give this user write access "
                                        "to the checkpoint store's directory (or set [checkpoint] uri elsewhere)",
                                        path=str(self.path)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held = _read(fd)
            os.close(fd)
            pid, host, started = held.get("pid"), held.get("host"), held.get("started")
            who = PipelineLockedError.holder(pid, host, started)
            raise PipelineLockedError(
                f"pipeline {self.pipeline!r} is running already: {who} holds its lock; "
                "stop that run first (SIGTERM stops it cleanly at a transaction end) or wait for it to end",
                path=str(self.path), pid=pid, host=host, started=started) from None
        except BaseException:
            os.close(fd)
            raise
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": round(time.time(), 3),
                "pipeline": self.pipeline, **self.details}
        data = (json.dumps(info, sort_keys=True) + "\n").encode("utf-8")
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
        self._fd = fd

    def release(self) -> None:
        """Empty the file (nobody holds it now) and release the lock."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)            # (closing the last descriptor releases the flock)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _read(fd: int) -> dict:
    """What the holder wrote ({} when it has not yet, or the text is not its JSON)."""
    try:
        data = os.pread(fd, 4096, 0)
        held = json.loads(data.decode("utf-8")) if data.strip() else {}
        return held if isinstance(held, dict) else {}
    except (OSError, ValueError):
        return {}


__all__ = ["PipelineLock"]
