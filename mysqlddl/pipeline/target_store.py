"""The checkpoint store of a sink that keeps the checkpoint in its target (the PostgreSQL sink).

Exactly-once into a database needs the checkpoint in the same target transaction as the data it
covers. Such a sink offers a view of its checkpoint row (``sink.checkpoint_store()``:
:class:`mysqlddl.sinks.pg.state.TargetCheckpointView`) that knows nothing of the pipeline (sinks
do not import the pipeline); :class:`TargetCheckpointStore` adapts it into the pipeline's
:class:`~.checkpoint.CheckpointStore`:

- ``save(checkpoint, history)`` stages the pipeline's checkpoint as JSON (the row's ``state``
  column) and, when the schema history grew, its lines up to ``checkpoint.history_version`` (the
  row's ``history`` column); the runner's next ``sink.commit(position)`` writes both in the
  transaction that commits the data (``mysqlddl.pipeline``'s docstring: save first, commit second);
- ``load()`` reads the row back; a row without a pipeline state (written by a direct use of the
  sink), or whose state has a format this version does not know, is refused (CheckpointError),
  never a silent restart from the beginning. The source check is the runner's, as for every store.

The JSON state: ``{"format": STATE_FORMAT, "checkpoint": Checkpoint.as_dict() minus sink_state,
"stats": ...}``.
"""

from __future__ import annotations

import json

from .. import __version__
from ..errors import CheckpointError, SchemaHistoryError
from ..history import SchemaHistory
from ..options import DEFAULT, Options
from .checkpoint import Checkpoint, CheckpointStore, make_position

#: The JSON state's layout version (a larger one was written by a newer mysqlddl: refused).
STATE_FORMAT = 1


class TargetCheckpointStore(CheckpointStore):
    """A pipeline's checkpoint kept in a sink's target (the module docstring). ``view``: what the
    sink's ``checkpoint_store()`` returned; ``readonly`` (``mysqlddl status``): loads without
    creating anything in the target."""

    def __init__(self, view, *, pipeline: str, readonly: bool = False):
        self.view = view
        self.pipeline = pipeline
        self.readonly = readonly
        self._row = None
        self._stored_version = None          # the history version the target's row holds
        if not readonly:
            view.drive()                     # (each pipeline commit is one target transaction)

    @property
    def where(self) -> str:
        return self.view.where()

    def load(self) -> Checkpoint | None:
        row = self._row = self.view.load(readonly=self.readonly)
        if row is None:
            return None
        if row.state is None:
            raise CheckpointError(f"the target holds a checkpoint row for {self.pipeline!r} that no pipeline wrote "
                                  f"(at {row.file}:{row.pos}, by a direct use of the sink): a pipeline cannot know "
                                  "what its schema history and GTID set were there; use a new target database (or "
                                  "another pipeline name)", path=self.where)
        try:
            data = json.loads(row.state)
            fmt = data.get("format")
            if not isinstance(fmt, int):
                raise ValueError(f"no format number ({fmt!r})")
            if fmt > STATE_FORMAT:
                raise CheckpointError(f"the checkpoint has format {fmt}, written by a newer mysqlddl "
                                      f"({data.get('checkpoint', {}).get('written_by', 'unknown version')}); this is "
                                      f"mysqlddl {__version__}, which knows format {STATE_FORMAT}: upgrade mysqlddl",
                                      path=self.where)
            c = data["checkpoint"]
            ckpt = Checkpoint(c["pipeline"], c["source_id"], make_position(c["file"], c["file_seq"], c["pos"],
                                                                           c.get("position")),
                              c["gtid_set"], int(c["history_version"]), float(c["time"]), int(c["sequence"]), None,
                              data.get("stats"), c["written_by"], c.get("file_created"),
                              c.get("reader_state"), c.get("failover"))
        except CheckpointError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise CheckpointError(f"the checkpoint row of pipeline {self.pipeline!r} is corrupt: {e}",
                                  path=self.where) from None
        if ckpt.pipeline != self.pipeline:
            raise CheckpointError(f"the checkpoint row was written by pipeline {ckpt.pipeline!r}, not "
                                  f"{self.pipeline!r}", path=self.where)
        return ckpt

    def load_history(self, checkpoint: Checkpoint, options: Options = DEFAULT) -> SchemaHistory | None:
        text = self._row.history if self._row is not None else None
        lines = text.split("\n") if text else []
        want = checkpoint.history_version + 1
        if len(lines) < want:
            raise CheckpointError(f"the stored schema history has {len(lines)} of the {want} lines the checkpoint "
                                  "names: the target's state is corrupt", path=self.where)
        try:
            h = SchemaHistory.from_lines(lines[:want], options, source=f"{self.where} (history)")
        except (SchemaHistoryError, ValueError, KeyError, TypeError) as e:
            raise CheckpointError(f"the stored schema history cannot be read: {e}", path=self.where) from None
        self._stored_version = checkpoint.history_version
        return h

    def save(self, checkpoint: Checkpoint, history: SchemaHistory) -> None:
        if self.readonly:
            raise CheckpointError("a read-only store (mysqlddl status) does not save", path=self.where)
        text = None
        if self._stored_version != checkpoint.history_version:
            # the history grew (a DDL) or was never stored here: its lines up to the checkpoint (the
            # reader may have recorded the next DDL already)
            text = "\n".join(list(history.lines())[: checkpoint.history_version + 1])
        c = checkpoint.as_dict()
        c.pop("sink_state")
        self.view.stage(json.dumps({"format": STATE_FORMAT, "checkpoint": c, "stats": checkpoint.stats},
                                   sort_keys=True), text)
        # (staged: it is in the target once the sink's commit returns; a failed commit is a failed
        # run, whose restart reloads from the target)
        self._stored_version = checkpoint.history_version

    def rebase_history(self, archive: str) -> None:
        # (the row's history column is replaced whole at the next save: the old one is not kept)
        self._stored_version = None

    def close(self) -> None:
        self.view.close()


__all__ = ["STATE_FORMAT", "TargetCheckpointStore"]
