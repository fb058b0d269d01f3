"""The Debezium-format sink: messages as JSON Lines, or one file per topic.

    DebeziumSink(out)                        one line per message: {"topic", "key", "value"[, "headers"]}
    DebeziumSink(None, topics_dir=DIR)       DIR/<topic>.jsonl: the values, one per line (a tombstone
                                             is an empty line, as a Kafka record's null value, which
                                             Flink's debezium-json format skips); DIR/<topic>.keys.jsonl:
                                             the keys, line for line
    make_sink(format, out, options)          "native" (JsonLinesSink) or "debezium" (DebeziumSink)
    debezium_messages(records, options)      (topic, key, value, headers) tuples for any producer

Pure Python: the native format's compiled renderer is not involved, so choosing the native format
costs nothing here. ``commit`` records the position only (a stream has nothing to commit).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from ...errors import ConfigError
from ..base import Sink, close_output, open_output
from ..jsonl import JsonLinesSink, dumps
from .messages import Message, MessageBuilder
from .options import DebeziumOptions

FORMATS = ("native", "debezium")


def _line(msg: Message) -> str:
    out = {"topic": msg.topic, "key": msg.key, "value": msg.value}
    if msg.headers:
        out["headers"] = msg.headers
    return dumps(out)


def _lines(msgs) -> str:
    """Messages as JSON Lines, one ``{topic, key, value[, headers]}`` line each."""
    return "".join(_line(m) + "\n" for m in msgs)


class DebeziumSink(Sink):
    """Records in the Debezium format (:mod:`.messages`). ``out``: a path or an open stream (binary
    or text) for the JSON Lines of messages; or None with ``topics_dir``, a directory (created if
    missing) that gets one values file and one keys file per topic. ``clock``: processing time
    in ns (tests pin it)."""

    def __init__(self, out=None, options: DebeziumOptions | None = None, *, topics_dir=None, clock=None):
        if (out is None) == (topics_dir is None):
            raise ConfigError("DebeziumSink writes to an output stream or to a topics directory: give one")
        self.out = out
        self.topics_dir = topics_dir
        self.builder = MessageBuilder(options, clock=clock)
        self.position = None
        self._stream = None
        self._owned = False
        self._text = False
        self._files: dict[str, tuple] = {}
        self._opened = False

    @property
    def options(self) -> DebeziumOptions:
        return self.builder.options

    def open(self) -> None:
        self._opened = True
        if self.topics_dir is not None:
            try:
                os.makedirs(self.topics_dir, exist_ok=True)
            except OSError as e:
                raise ConfigError(f"--topics-dir {self.topics_dir}: cannot create: {e.strerror or e}") from None
            return
        self._stream, self._owned, self._text = open_output(self.out)

    def _topic_files(self, topic: str):
        files = self._files.get(topic)
        if files is None:
            base = os.path.join(self.topics_dir, topic)
            files = self._files[topic] = (open(base + ".jsonl", "wb"), open(base + ".keys.jsonl", "wb"))  # noqa: SIM115
        return files

    def write(self, record) -> None:
        if not self._opened:
            self.open()
        msgs = self.builder.messages(record)
        if not msgs:
            return
        if self.topics_dir is not None:
            for m in msgs:
                values, keys = self._topic_files(m.topic)
                values.write(b"\n" if m.value is None else dumps(m.value).encode("ascii") + b"\n")
                keys.write(dumps(m.key).encode("ascii") + b"\n")
            return
        text = _lines(msgs)
        self._stream.write(text if self._text else text.encode("ascii"))

    def commit(self, position) -> None:
        self.position = position

    def close(self) -> None:
        self._opened = False
        files, self._files = self._files, {}
        for values, keys in files.values():
            values.close()
            keys.close()
        stream, self._stream = self._stream, None
        close_output(stream, self._owned)


class DebeziumLines:
    """The Debezium format for the pipeline's segment and stream sinks (:mod:`mysqlddl.sinks.segments`):
    a record's messages as the JSON lines :class:`DebeziumSink` writes to a stream, as many as it
    has (none for a transaction mark with transaction metadata off; a delete and its tombstone
    two). ``name`` is ``topic.prefix`` and ``include_query`` ``include.query`` unless
    ``properties`` (Debezium's property names, a pipeline file's ``[sink.debezium]``) say otherwise;
    the rest are Debezium's defaults."""

    def __init__(self, *, name: str = "mysqlddl", include_query: bool = False, properties=None, clock=None):
        options = DebeziumOptions.from_properties({"topic.prefix": name, "include.query": include_query,
                                                   **dict(properties or ())})
        self.builder = MessageBuilder(options, clock=clock)

    def lines(self, record) -> str:
        return _lines(self.builder.messages(record))


def make_sink(format: str, out=None, options: DebeziumOptions | None = None, *, topics_dir=None,
              name: str = "mysqlddl", include_query: bool | None = None, clock=None) -> Sink:
    """The sink of an output ``format``: "native" (our JSON Lines, :class:`JsonLinesSink`; ``name``
    is source.name, ``include_query`` fills source.query, on unless False, as the sink's default) or
    "debezium" (:class:`DebeziumSink`; ``options`` default to Debezium's defaults with
    ``topic.prefix`` = ``name`` and ``include.query`` = ``include_query``, off unless True;
    ``topics_dir``: one file per topic instead of ``out``). A factory for whoever takes a format
    option (the CLI, the pipeline's sinks)."""
    if format == "native":
        if topics_dir is not None:
            raise ConfigError("--topics-dir needs --format debezium (the native format is one stream)")
        return JsonLinesSink(out, name=name, include_query=include_query is not False)
    if format == "debezium":
        if options is None:
            options = DebeziumOptions(topic_prefix=name, include_query=include_query is True)
        return DebeziumSink(None if topics_dir is not None else out, options, topics_dir=topics_dir, clock=clock)
    raise ConfigError(f"output format must be one of {', '.join(FORMATS)}, not {format!r}")


def debezium_messages(records: Iterable, options: DebeziumOptions | None = None, *, clock=None) -> Iterator[Message]:
    """Every record (a ChangeReader's) as Debezium messages: (topic, key, value, headers) named
    tuples, key/value as JSON data (None: a null key, a tombstone), headers None or a dict."""
    return MessageBuilder(options, clock=clock).iter_messages(records)


__all__ = ["FORMATS", "DebeziumLines", "DebeziumSink", "debezium_messages", "make_sink"]
