"""The pipeline's sinks by URI scheme (``[sink] uri``): :data:`SINKS` and :func:`make_sink`, as
:mod:`.source` is for sources. A database sink adds its scheme to :data:`SINKS`."""

from __future__ import annotations

import dataclasses

from ..errors import PipelineError
from ..sinks.base import Sink
from ..sinks.segments import SegmentSink, StreamSink
from .config import PipelineConfig, uri_path


def _postgres_sink(cfg: PipelineConfig) -> Sink:
    # lazy: psycopg is the [postgresql] extra; a pipeline with another sink must run without it
    from ..sinks.postgresql import PostgresSink

    # (cfg.sink.pg: validated by the config, its pipeline key the pipeline's name)
    return PostgresSink(cfg.sink.uri, cfg.sink.pg, cfg.mapping, batched=False)


#: sink URI scheme -> factory(config) (a database sink adds its scheme here)
SINKS = {
    "postgresql": _postgres_sink,
    "postgres": _postgres_sink,         # (libpq takes both schemes: PostgreSQL manual 34.1.1)

    "jsonl": lambda cfg: SegmentSink(uri_path(cfg.sink.uri, "jsonl", "sink.uri"), format=cfg.sink.format,
                                     name=cfg.changes.name, include_query=cfg.changes.queries,
                                     properties=cfg.sink.properties,
                                     segment_bytes=cfg.sink.segment_bytes, segment_seconds=cfg.sink.segment_seconds,
                                     sequence=cfg.sink.sequence),
    "stdout": lambda cfg: StreamSink(format=cfg.sink.format, name=cfg.changes.name,
                                     include_query=cfg.changes.queries, properties=cfg.sink.properties),
}


def _olr_format(cfg: PipelineConfig) -> PipelineConfig:
    """An OLR source's lines are the `mysqlddl olr` envelope, which the ``native`` renderer gives
    its records (by their source's kind: :mod:`mysqlddl.sinks.oracle`); ``olr`` is a name for it."""
    if not cfg.source.uri.startswith("olr:") or cfg.sink.uri.split("://", 1)[0] in ("postgresql", "postgres"):
        return cfg
    if cfg.sink.format not in ("native", "olr"):
        raise PipelineError(f"an olr:// source writes the OLR change envelope (format native), not "
                            f"{cfg.sink.format!r}", path=cfg.path, setting="sink.format")
    return dataclasses.replace(cfg, sink=dataclasses.replace(cfg.sink, format="native"))


def make_sink(cfg: PipelineConfig) -> Sink:
    cfg = _olr_format(cfg)
    uri = cfg.sink.uri
    scheme = "stdout" if uri in ("-", "stdout:") else (uri.split("://", 1)[0] if "://" in uri else "jsonl")
    factory = SINKS.get(scheme)
    if factory is None:
        raise PipelineError(f"no sink for {scheme}:// in this build (known: {', '.join(sorted(SINKS))})",
                            path=cfg.path, setting="sink.uri")
    return factory(cfg)
