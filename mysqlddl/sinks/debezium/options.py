"""DebeziumOptions: the Debezium MySQL connector's settings that change what a message holds, under
Debezium's own property names and values (its MySQL connector documentation, "Connector
properties": ``decimal.handling.mode``, ``time.precision.mode``, ``binary.handling.mode``,
``bigint.unsigned.handling.mode``, ``topic.prefix``, ``tombstones.on.delete``, ``include.query``),
plus the Kafka Connect JSON converter's ``schemas.enable`` (``schemas``)."""

from __future__ import annotations

import dataclasses

from ...errors import ConfigError

DECIMAL_MODES = ("precise", "double", "string")
TIME_MODES = ("adaptive_time_microseconds", "connect", "isostring")
BINARY_MODES = ("bytes", "base64", "base64-url-safe", "hex")
BIGINT_UNSIGNED_MODES = ("long", "precise")

#: Debezium's property name -> our field name (for ``DebeziumOptions.from_properties``)
PROPERTIES = {
    "decimal.handling.mode": "decimal_handling_mode",
    "time.precision.mode": "time_precision_mode",
    "binary.handling.mode": "binary_handling_mode",
    "bigint.unsigned.handling.mode": "bigint_unsigned_handling_mode",
    "topic.prefix": "topic_prefix",
    "tombstones.on.delete": "tombstones_on_delete",
    "include.query": "include_query",
    "provide.transaction.metadata": "provide_transaction_metadata",
    "schemas.enable": "schemas",
}


@dataclasses.dataclass(frozen=True, slots=True)
class DebeziumOptions:
    """How the Debezium format renders records. Defaults are Debezium's defaults.

    decimal_handling_mode: DECIMAL as Connect ``Decimal`` bytes (precise), float64 (double) or text.
    time_precision_mode: DATE/TIME/DATETIME as Debezium's own types at the column's precision
        (adaptive_time_microseconds), Kafka Connect's Date/Time/Timestamp (connect, millisecond
        precision), or ISO-8601 strings (isostring). TIMESTAMP is a ZonedTimestamp string in all modes.
    binary_handling_mode: BINARY/VARBINARY/BLOB as bytes (base64 in JSON, the JSON converter's
        form), or as base64 / url-safe base64 / hex text.
    bigint_unsigned_handling_mode: BIGINT UNSIGNED as a signed 64-bit long (values past 2^63 - 1
        wrap, as Java's long does) or as a Connect Decimal with scale 0 (precise).
    schemas: every key and value is ``{"schema", "payload"}`` (the JSON converter's
        ``schemas.enable=true``); False: the payload alone.
    topic_prefix: ``topic.prefix`` (the logical server name, also ``source.name``).
    tombstones_on_delete: a delete is followed by a tombstone (same key, null value).
    include_query: ``source.query`` carries the row's statement when the log has it.
    provide_transaction_metadata: BEGIN/END on ``<prefix>.transaction`` and the ``transaction``
        block of each row event. On by default here, as our native stream has them (Debezium's own
        default is off); False: no transaction topic, ``transaction`` null.
    """

    decimal_handling_mode: str = "precise"
    time_precision_mode: str = "adaptive_time_microseconds"
    binary_handling_mode: str = "bytes"
    bigint_unsigned_handling_mode: str = "long"
    schemas: bool = False
    topic_prefix: str = "mysqlddl"
    tombstones_on_delete: bool = True
    include_query: bool = False
    provide_transaction_metadata: bool = True

    def __post_init__(self) -> None:
        for name, allowed in (("decimal_handling_mode", DECIMAL_MODES), ("time_precision_mode", TIME_MODES),
                              ("binary_handling_mode", BINARY_MODES),
                              ("bigint_unsigned_handling_mode", BIGINT_UNSIGNED_MODES)):
            if getattr(self, name) not in allowed:
                prop = name.replace("_", ".")
                raise ConfigError(f"{prop} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if not isinstance(self.topic_prefix, str) or not self.topic_prefix:
            raise ConfigError(f"topic.prefix must be a non-empty name, not {self.topic_prefix!r}")
        for name in ("schemas", "tombstones_on_delete", "include_query", "provide_transaction_metadata"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be True or False, not {getattr(self, name)!r}")

    @classmethod
    def from_properties(cls, props: dict) -> DebeziumOptions:
        """From Debezium's property names (``{"decimal.handling.mode": "string", ...}``); boolean
        properties take true/false as text too. An unknown property is a ConfigError."""
        kw = {}
        for key, value in props.items():
            field = PROPERTIES.get(key)
            if field is None:
                raise ConfigError(f"unknown Debezium property {key!r} (known: {', '.join(PROPERTIES)})")
            if field in ("schemas", "tombstones_on_delete", "include_query", "provide_transaction_metadata") \
                    and isinstance(value, str):
                value = {"true": True, "false": False}.get(value.strip().lower(), value)
            kw[field] = value
        return cls(**kw)

    def replace(self, **changes) -> DebeziumOptions:
        return dataclasses.replace(self, **changes)


__all__ = ["BIGINT_UNSIGNED_MODES", "BINARY_MODES", "DECIMAL_MODES", "PROPERTIES", "TIME_MODES", "DebeziumOptions"]
