"""The checkpointed pipeline: source -> changes -> sink, delivered exactly once across crashes.

    from mysqlddl.pipeline import run_pipeline, pipeline_status
    result = run_pipeline("pipeline.toml", once=True)     # as `mysqlddl run pipeline.toml --once`
    pipeline_status("pipeline.toml")                      # as `mysqlddl status pipeline.toml`

Modules: :mod:`.config` (the TOML pipeline file), :mod:`.checkpoint` (Checkpoint, the store
interface, the SQLite store), the source (from :func:`mysqlddl.sources.open_source`),
:mod:`.runner` (Pipeline, the error strategies, the commit protocol, SINKS), :mod:`.lock` (one run
at a time), :mod:`.stats`, :mod:`.gtid` (the GTID set a checkpoint carries), :mod:`.target_store` (the store of
a sink that keeps the checkpoint in its target: the PostgreSQL sink's row, adapted). The fault-injection points the
crash tests use are listed in :mod:`mysqlddl.faults` (``MYSQLDDL_FAULT``).

The checkpoint store interface (:class:`~.checkpoint.CheckpointStore`)::

    load() -> Checkpoint | None                      the pipeline's checkpoint (None: never ran)
    load_history(checkpoint, options) -> SchemaHistory   the history in force at it
    save(checkpoint, history) -> None                one atomic step: the checkpoint row and the
                                                     history records not stored yet
                                                     (history.records[:checkpoint.history_version])
    close() -> None

    Checkpoint(pipeline, source_id, position: BinlogPosition (where the next transaction starts),
               gtid_set: str, history_version: int, time: float, sequence: int,
               sink_state: dict | None, stats: dict | None, written_by: str,
               file_created: int | None (the FDE timestamp of the position's file))

The sink side (:class:`mysqlddl.sinks.base.Sink`, all optional but ``write``)::

    open(); recover(state: dict | None)    after open, before any write: undo what is past the
                                           checkpoint (state: what commit returned then)
    write(record)                          every record, in order
    commit(position) -> dict | None        make everything written durable; called only at a
                                           transaction end, once per batch; the returned state
                                           goes into the checkpoint
    rotate()                               the run is ending: close the open file at the next
                                           commit (the last one of the run)
    abort(); close()
    checkpoint_store() -> CheckpointStore | None

A sink that keeps the checkpoint itself (a database sink, exactly-once in its target) returns its
store from ``checkpoint_store()``. The pipeline then calls, per batch, ``store.save(checkpoint,
history)`` *first* (the sink stages the checkpoint row and the history lines in its open
transaction) and ``sink.commit(position)`` *second* (one target transaction commits the data and
the checkpoint together); ``load()``/``load_history()`` read them back from the target on a
restart, and the sink's ``recover(None)`` is called (nothing to undo: an uncommitted transaction
is the target's to roll back). With no store of its own (None, the default) the order is
``sink.commit`` (durable) then the pipeline's store (SQLite by default) saves; a crash between the
two leaves the sink ahead of the checkpoint, which ``recover`` undoes on the restart (segments past
it removed; a stream cannot undo: at-least-once, deduplicate by ``seq``).
"""

from .checkpoint import STORE_FORMAT, Checkpoint, CheckpointStore, SqliteCheckpointStore
from .config import PipelineConfig, config_from_dict, load_config
from .runner import SINKS, Pipeline, RunResult, make_sink, pipeline_status, run_pipeline

__all__ = ["SINKS", "STORE_FORMAT", "Checkpoint", "CheckpointStore", "Pipeline", "PipelineConfig",
           "RunResult", "SqliteCheckpointStore", "config_from_dict", "load_config", "make_sink",
           "pipeline_status", "run_pipeline"]
