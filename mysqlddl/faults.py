"""Fault injection for the crash tests of the pipeline (tests/pipeline/test_crash.py).

``MYSQLDDL_FAULT`` (read once, at import) names the points where the process kills itself with
SIGKILL, as a crash there would: a comma-separated list of ``point`` or ``point@N`` (fire the N-th
time the point is reached; default the first). Unset, :func:`fault` costs one dict lookup. The
points, each checked by the code named:

    before-rename         sinks/segments.py: a segment is fsynced, its rename not done
    after-rename          sinks/segments.py: renamed (directory not yet fsynced), checkpoint not written
    after-sink-commit     pipeline/runner.py: the sink made a batch durable, no checkpoint yet (a
                          sink keeping the checkpoint itself: both committed, the run not told yet)
    in-checkpoint-commit  pipeline/checkpoint.py: inside the store's transaction, before COMMIT;
                          sinks/postgresql.py: the data and the checkpoint row written, before COMMIT
    huge-transaction      pipeline/runner.py: after a rows event written inside a transaction that
                          already holds 1000 rows (the transaction is being streamed to the sink)
"""

from __future__ import annotations

import os
import signal


def fault(point: str) -> None:
    """SIGKILL this process when ``MYSQLDDL_FAULT`` names ``point`` (the module docstring)."""
    spec = _FAULTS
    if not spec or point not in spec:
        return
    _SEEN[point] = _SEEN.get(point, 0) + 1
    if _SEEN[point] >= spec[point]:
        os.kill(os.getpid(), signal.SIGKILL)


def _parse_faults(text: str) -> dict[str, int]:
    out = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, _, n = item.partition("@")
        out[name] = int(n) if n.isdigit() else 1
    return out


_FAULTS = _parse_faults(os.environ.get("MYSQLDDL_FAULT", ""))
_SEEN: dict[str, int] = {}

__all__ = ["fault"]
