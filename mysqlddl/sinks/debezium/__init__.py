"""The Debezium output format: a drop-in for Debezium's MySQL connector messages.

    options    DebeziumOptions (Debezium's handling modes and switches, by Debezium's names)
    values     per-column value encoders and Connect field schemas, per handling mode
    ddl        schema-change events (SchemaChangeValue, tableChanges, jdbcType, typeName)
    messages   MessageBuilder: records -> (topic, key, value, headers) with envelopes, keys,
               tombstones, primary-key changes, transaction metadata and topic routing
    sink       DebeziumSink (JSON Lines or one file per topic), make_sink, debezium_messages
"""

from .messages import Message, MessageBuilder
from .options import DebeziumOptions
from .sink import FORMATS, DebeziumLines, DebeziumSink, debezium_messages, make_sink

__all__ = ["FORMATS", "DebeziumLines", "DebeziumOptions", "DebeziumSink", "Message", "MessageBuilder",
           "debezium_messages", "make_sink"]
