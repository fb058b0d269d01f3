"""The PostgreSQL sink's own state: the checkpoint record and what a commit position becomes."""

from __future__ import annotations

import dataclasses
import datetime
from pathlib import Path

from ...positions import BinlogPosition, OlrPosition


@dataclasses.dataclass(frozen=True, slots=True)
class Checkpoint:
    """A stored checkpoint. ``resume``: ``FILE:POS`` of the first event not applied (give it to
    :class:`~mysqlddl.changes.filters.Filters` as ``start_position``). ``history``: the serialized
    schema history (JSON Lines) when one was attached, else None; ``history_version``: DDL applied."""

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


__all__ = ["Checkpoint", "position_fields"]
