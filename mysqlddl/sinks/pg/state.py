"""The PostgreSQL sink's own state: the checkpoint record and what a commit position becomes."""

from __future__ import annotations

import dataclasses
import datetime
from pathlib import Path

from ...positions import BinlogPosition, OlrPosition
from ...redact import mask_uri


@dataclasses.dataclass(frozen=True, slots=True)
class Checkpoint:
    """A stored checkpoint. ``resume``: ``FILE:POS`` of the first event not applied (give it to
    :class:`~mysqlddl.changes.filters.Filters` as ``start_position``). ``history``: the serialized
    schema history (JSON Lines) when one was attached, else None; ``history_version``: DDL applied.
    ``state``: the text a caller staged with :meth:`~mysqlddl.sinks.postgresql.PostgresSink.stage_checkpoint`
    (a pipeline's own checkpoint, JSON), written in the same transaction; None when none was."""

    pipeline: str
    source_id: str | None
    file: str | None
    pos: int | None
    resume: str | None
    gtid: str | None
    history_version: int
    history: str | None
    transactions: int
    updated_at: datetime.datetime | None
    state: str | None = None


def position_fields(pos):
    """(file, pos, resume, gtid, source identity, source ts) of what ``commit`` was given: a
    Source (a transaction's commit event: resume after it), a BinlogPosition (the end of a DDL
    event: resume there) or an OlrPosition."""
    if isinstance(pos, BinlogPosition):
        name = Path(pos.file).name if pos.file else str(pos.file_seq)
        return name, pos.pos, f"{name}:{pos.pos}", pos.gtid, None, None
    if isinstance(pos, OlrPosition):
        return pos.file or None, pos.c_idx, f"{pos.c_scn}:{pos.c_idx}", None, "olr", None
    if hasattr(pos, "pos") and hasattr(pos, "file"):       # a records.Source
        name = Path(pos.file).name
        return (name, pos.pos, f"{name}:{pos.pos + 1}", pos.gtid, f"{pos.connector}:{pos.server_id}",
                pos.ts or None)
    return str(pos), None, None, None, None, None


def masked_uri(uri: str) -> str:
    """A libpq URI for messages: its password replaced by ``***`` (a key=value string: only its
    host, port, dbname and user). The one masking of every URI kind: :func:`mysqlddl.redact.mask_uri`."""
    return mask_uri(uri)


class TargetCheckpointView:
    """What :meth:`PostgresSink.checkpoint_store` gives a caller that keeps its own checkpoint in
    the target with the data (a pipeline: :mod:`mysqlddl.pipeline.target_store` adapts this into
    its checkpoint store; sinks do not import the pipeline, so the pipeline's checkpoint travels
    as text). ``keeps_checkpoint``: the row is written by the sink's own commits."""

    keeps_checkpoint = True

    def __init__(self, sink):
        self.sink = sink

    def load(self, *, readonly: bool = False) -> Checkpoint | None:
        """The stored row (connecting first when the sink is not open; ``readonly``: without
        creating the state tables)."""
        self.sink.open(create=not readonly)
        return self.sink.load_checkpoint()

    def drive(self) -> None:
        """The caller decides the cadence: each ``commit(position)`` is one target transaction,
        and ``close()`` rolls back what no commit covered."""
        self.sink.batched = False

    def stage(self, state: str, history: str | None = None) -> None:
        """``state`` (and ``history``, when it changed) go into the next commit's checkpoint row."""
        self.sink.stage_checkpoint(state, history)

    def where(self) -> str:
        """The target and the row, for messages (the URI without its password)."""
        return f"{masked_uri(self.sink.uri)} ({self.sink.options.state_schema}.mysqlddl_checkpoint, " \
               f"{self.sink.options.pipeline!r})"

    def close(self) -> None:
        """Release a connection :meth:`load` opened and the run did not take over (the run closes
        the sink itself before this)."""
        if self.sink.conn is not None:
            self.sink.abort()


__all__ = ["Checkpoint", "TargetCheckpointView", "masked_uri", "position_fields"]
