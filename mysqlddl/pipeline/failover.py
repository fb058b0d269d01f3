"""Following a failover: the pipeline's server source is now another server than the checkpoint's.

File names and offsets are each server's own (a promoted replica writes its binlog with its own
numbering), so a file position means nothing on another server; a GTID set does: a replica that
applied the primary's transactions holds their GTIDs (MySQL: in ``gtid_executed``; MariaDB:
``log_slave_updates`` keeps the primary's GTIDs, ``gtid_binlog_pos`` per domain). So when the
identity differs and the checkpoint holds a GTID set, the pipeline (``[source] on_identity_change
= "follow-gtid"``, the default) asks the new server to stream after that set: the server checks it
holds it (MySQL ``GTID_SUBSET(set, @@gtid_executed)``; MariaDB each domain's seq_no up to its
``gtid_binlog_pos``: mysqlddl.sources.server), and when it does not, the new server lacks
transactions the pipeline delivered, which is no failover the pipeline can follow
(:class:`~mysqlddl.errors.FailoverError`). ``"error"``, a checkpoint without GTIDs, or a source
that cannot start at a GTID (files, OLR): the refusal as before, saying that only a GTID position
survives a failover.

What orders positions after the failover, and why this way:

- the schema history is keyed by positions and append-only; the new server's positions may sort
  before the old server's (its ``binlog.000001`` after the old ``000007``), so a lookup would find
  a schema older than the checkpoint's and the next DDL would be refused as out of order. The
  history is re-based instead: the catalog in force at the checkpoint becomes the baseline of a new,
  empty history for the new server (every lookup on it answers that catalog until a DDL after the
  failover, recorded at the new server's positions, which only grow from there). The old
  history's records are the old server's and are not needed again (nothing is re-read there); the
  SQLite store keeps them under the name ``PIPELINE#epochN`` for reading, in the same transaction
  as the first checkpoint on the new server. (The re-based baseline keeps the tables, databases
  and views, as every stored baseline does.)
- the JSON Lines segments are named and recovered by position: they take an epoch, the number of
  failovers followed, in front of every position they order by (mysqlddl.sinks.segments), through
  :meth:`~mysqlddl.sinks.base.Sink.failover`;
- the per-line sequence is the sink's counter, carried in the checkpoint: it goes on unchanged;
- the checkpoint takes the new server's identity, position and the epoch at its first commit on
  the new server; until then the stored one is the old server's, so a crash before it follows the
  same failover again from the same checkpoint.

An XA transaction prepared and open at the checkpoint is re-read from its start by file position
(runner): that cannot be done on another server, so such a checkpoint is refused here.
"""

from __future__ import annotations

import dataclasses
import time

from ..errors import BinlogPurgedError, CheckpointError, FailoverError, GtidPositionError
from ..history import SchemaHistory

#: what a refusal adds, so an operator knows why a store cannot be kept
ONLY_GTID = "only a GTID position survives a failover (file names and offsets are each server's own)"


def refusal(ckpt, identity: str, path: str, why: str = "") -> CheckpointError:
    """The refusal of a checkpoint taken from another source."""
    return CheckpointError(f"the checkpoint was taken from another source ({ckpt.source_id}); this source is "
                           f"{identity}: use a new store (or pipeline name) for it{why}", path=path)


def epoch_of(ckpt) -> int:
    """The failovers followed up to ``ckpt`` (0: none)."""
    return int((ckpt.failover or {}).get("epoch", 0)) if ckpt is not None else 0


def follow(cfg, ckpt, identity: str, source, *, olr: bool) -> dict:
    """Decide on a checkpoint whose source identity is not ``identity`` (see the module
    docstring): the failover record (the checkpoint's ``failover``) when it can be followed, the
    source then streaming after the checkpoint's GTID set; else raise."""
    path = str(cfg.store_path)
    resumable = not olr and hasattr(source, "restart_at_gtid")
    if not resumable:
        raise refusal(ckpt, identity, path)
    if cfg.source.on_identity_change == "error":
        raise refusal(ckpt, identity, path, f" ([source] on_identity_change = \"error\"; {ONLY_GTID}: "
                                            "\"follow-gtid\" goes on from the checkpoint's GTID set)")
    if not ckpt.gtid_set:
        raise refusal(ckpt, identity, path, f" (the checkpoint holds no GTID set, and {ONLY_GTID})")
    if (ckpt.reader_state or {}).get("xa_replay"):
        raise FailoverError(f"the checkpoint was taken from another source ({ckpt.source_id}); this source is "
                            f"{identity}: XA transactions prepared and open at the checkpoint are read again from "
                            "their start by file position, which only the old server has: cannot follow this "
                            "failover", path=path)
    try:
        source.restart_at_gtid(ckpt.gtid_set)
    except (GtidPositionError, BinlogPurgedError) as e:
        raise FailoverError(f"the checkpoint was taken from another source ({ckpt.source_id}); this source is "
                            f"{identity}, which lacks transactions the pipeline delivered (up to the GTID set "
                            f"{ckpt.gtid_set}): not a failover that can be followed ({e})", path=path) from None
    epoch = epoch_of(ckpt) + 1
    return {"epoch": epoch, "from": ckpt.source_id, "to": identity, "time": round(time.time(), 3),
            "gtid_set": ckpt.gtid_set, "from_position": f"{ckpt.position.file}:{ckpt.position.pos}",
            "from_history_version": ckpt.history_version}


def rebase(history: SchemaHistory) -> SchemaHistory:
    """A new history whose baseline is the catalog in force at the end of ``history`` (the
    checkpoint's: it was loaded at the checkpoint's version), for the new server's positions."""
    base = dataclasses.replace(history.catalog, version=0, changed=())
    return SchemaHistory(history.options, baseline=base)


def archive_name(pipeline: str, epoch: int) -> str:
    """Where the SQLite store keeps the history of the server before failover ``epoch``."""
    return f"{pipeline}#epoch{epoch - 1}"


__all__ = ["ONLY_GTID", "archive_name", "epoch_of", "follow", "rebase", "refusal"]
