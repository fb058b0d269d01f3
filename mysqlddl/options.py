"""Options: one frozen, validated object passed everywhere (never copied field by field).

Add a field here, with its validation, rather than a keyword argument on a function deep inside
a decoder. ``Options.replace(**changes)`` gives a modified copy.
"""

from __future__ import annotations

import dataclasses
import enum

from .errors import ConfigError


class ErrorPolicy(str, enum.Enum):
    """What to do with a statement or event that cannot be parsed, applied or decoded.

    RAISE (default, strict): stop with the positioned error.
    COLLECT: keep going, return the errors with the results.
    WARN: keep going, report each error as a warning and count it.
    SKIP: keep going, count what was skipped without reporting each one.
    """

    RAISE = "raise"
    COLLECT = "collect"
    WARN = "warn"
    SKIP = "skip"


class Dialect(str, enum.Enum):
    MYSQL = "mysql"
    MARIADB = "mariadb"
    ORACLE = "oracle"


#: The server variables that change the table a statement makes (``--set VAR=VALUE``, a pipeline
#: file's ``[changes.settings]``), as the server names them; values are parsed by
#: :mod:`mysqlddl.model.settings`. ``storage_engine`` is the pre-5.7.5 / MariaDB alias.
SERVER_SETTINGS = ("explicit_defaults_for_timestamp", "sql_mode", "character_set_server", "collation_server",
                   "lower_case_table_names", "default_storage_engine", "storage_engine")

@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """Every knob of parsing, schema handling and decoding, in one place.

    dialect: which server's rules apply where MySQL and MariaDB differ.
    server_version: (major, minor, patch) that versioned comments ``/*!NNNNN ... */`` are
        evaluated against.
    sql_mode: the session sql_mode the statements run under (ANSI_QUOTES and NO_BACKSLASH_ESCAPES
        change lexing); binlog Query events override it per statement.
    error_policy: see :class:`ErrorPolicy`.
    lower_case_table_names: 0, 1 or 2, as the server variable.
    verify_checksums: verify binlog CRC32 where the FDE says the file has them.

    Row values (mysqlddl.binlog.values / rows):
    decimal_as: "decimal" (decimal.Decimal, default) or "str" (the exact digits as text).
    invalid_temporal_as: zero or invalid DATE/DATETIME/TIMESTAMP values ('0000-00-00', '2020-00-15'):
        "str" (default: the server's text form, lossless) or "none" (None, as Debezium does).
    json_as: MySQL binary JSON as "object" (dict/list/str/int/float/Decimal/..., default) or "text"
        (canonical JSON text, MySQL's own spacing).
    charset_fallback: the character set assumed for text columns whose charset is unknown (no
        TABLE_MAP charset metadata and no schema): a MySQL charset name ("utf8mb4", default) or
        "binary" to keep such values as bytes (an unknown name is a ConfigError when a plan is built).
    charset_errors: how undecodable bytes in text are handled: "surrogateescape" (default, lossless),
        "strict" (a CorruptEventError), "replace" or "backslashreplace".
    strings_as_bytes: keep every CHAR/VARCHAR/TEXT value as bytes (no decoding at all).
    pad_char: restore CHAR(N) trailing spaces dropped by the row image (as PAD_CHAR_TO_FULL_LENGTH);
        BINARY(N) trailing 0x00 bytes are always restored.

    Schema model (mysqlddl.model, mysqlddl.commands):
    explicit_defaults_for_timestamp: the server variable; None (default) = the dialect's default for
        server_version (MySQL 8.0.2+ and MariaDB 10.10+: ON). SET statements override it per session.
    character_set_server, collation_server: server defaults that CREATE DATABASE inherits; None =
        the dialect's compiled-in default (MySQL 8.0: utf8mb4/utf8mb4_0900_ai_ci; MariaDB: latin1/
        latin1_swedish_ci). Either alone is completed from the other.
    default_storage_engine: ENGINE of tables created without one.

    Binlog reading (mysqlddl.binlog.reader):
    max_decompressed_size: upper bound in bytes for one decompressed TRANSACTION_PAYLOAD or MariaDB
        compressed event (a corrupt length must not allocate gigabytes); default 1 GiB, as
        max_allowed_packet's ceiling.
    stop_at_truncated_tail: a file that ends inside an event stops the reading cleanly at the last
        complete event, and the reader reports where (what tailing a live file needs), instead of
        raising TruncatedError.

    OpenLogReplicator JSON (mysqlddl.olr):
    olr_time_unit: unit of DATE/TIMESTAMP column values given as Unix epoch numbers or digit strings,
        "s", "ms", "us" or "ns" (default, OLR's ``format.timestamp`` 0); must match the OLR
        ``timestamp`` format option (e.g. 7 = seconds as a string).
    olr_tm_unit: unit of the message ``tm``/``tms`` field (OLR's ``timestamp-metadata`` option); None
        (default) = the same as olr_time_unit.
    """

    dialect: Dialect = Dialect.MYSQL
    server_version: tuple[int, int, int] = (8, 0, 40)
    sql_mode: frozenset[str] = frozenset()
    error_policy: ErrorPolicy = ErrorPolicy.RAISE
    lower_case_table_names: int = 0
    verify_checksums: bool = True
    decimal_as: str = "decimal"
    invalid_temporal_as: str = "str"
    json_as: str = "object"
    charset_fallback: str = "utf8mb4"
    charset_errors: str = "surrogateescape"
    strings_as_bytes: bool = False
    pad_char: bool = False
    explicit_defaults_for_timestamp: bool | None = None
    character_set_server: str | None = None
    collation_server: str | None = None
    default_storage_engine: str = "InnoDB"
    max_decompressed_size: int = 1 << 30
    stop_at_truncated_tail: bool = False
    olr_time_unit: str = "ns"
    olr_tm_unit: str | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "dialect", Dialect(self.dialect))
            object.__setattr__(self, "error_policy", ErrorPolicy(self.error_policy))
        except ValueError as e:
            raise ConfigError(str(e)) from None
        if self.lower_case_table_names not in (0, 1, 2):
            raise ConfigError(f"lower_case_table_names must be 0, 1 or 2, not {self.lower_case_table_names!r}")
        v = tuple(self.server_version)
        if len(v) != 3 or not all(isinstance(x, int) and x >= 0 for x in v):
            raise ConfigError(f"server_version must be three non-negative ints, not {self.server_version!r}")
        object.__setattr__(self, "server_version", v)
        modes = self.sql_mode
        if isinstance(modes, str):
            modes = [m for m in modes.split(",") if m]
        object.__setattr__(self, "sql_mode", frozenset(m.strip().upper() for m in modes))
        for name, allowed in (("decimal_as", ("decimal", "str")), ("invalid_temporal_as", ("str", "none")),
                              ("json_as", ("object", "text")),
                              ("charset_errors", ("surrogateescape", "strict", "replace", "backslashreplace"))):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if not isinstance(self.charset_fallback, str) or not self.charset_fallback:
            raise ConfigError(f"charset_fallback must be a charset name, not {self.charset_fallback!r}")
        if self.explicit_defaults_for_timestamp not in (None, True, False):
            raise ConfigError("explicit_defaults_for_timestamp must be None, True or False, "
                              f"not {self.explicit_defaults_for_timestamp!r}")
        for name in ("character_set_server", "collation_server"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, str) or not v.strip()):
                raise ConfigError(f"{name} must be a non-empty name or None, not {v!r}")
        if not isinstance(self.default_storage_engine, str) or not self.default_storage_engine:
            raise ConfigError(f"default_storage_engine must be an engine name, not {self.default_storage_engine!r}")
        if (not isinstance(self.max_decompressed_size, int) or isinstance(self.max_decompressed_size, bool)
                or self.max_decompressed_size <= 0):
            raise ConfigError(f"max_decompressed_size must be a positive int, not {self.max_decompressed_size!r}")
        if not isinstance(self.stop_at_truncated_tail, bool):
            raise ConfigError(f"stop_at_truncated_tail must be True or False, not {self.stop_at_truncated_tail!r}")
        for name in ("olr_time_unit", "olr_tm_unit"):
            v = getattr(self, name)
            if v not in ("s", "ms", "us", "ns") and not (v is None and name == "olr_tm_unit"):
                raise ConfigError(f"{name} must be one of s, ms, us, ns, not {v!r}")

    def replace(self, **changes) -> Options:
        return dataclasses.replace(self, **changes)

    @property
    def ansi_quotes(self) -> bool:
        return "ANSI_QUOTES" in self.sql_mode or "ANSI" in self.sql_mode

    @property
    def no_backslash_escapes(self) -> bool:
        return "NO_BACKSLASH_ESCAPES" in self.sql_mode


DEFAULT = Options()


def change_event_options(*, verify_checksums: bool = True, ddl_errors: str = "raise") -> Options:
    """The decoding options of change events, one definition for every writer of them (``mysqlddl
    changes``, ``history`` and the Spark job, whose outputs must agree): JSON columns as the
    document's text (Debezium's io.debezium.data.Json, and MariaDB's stored text)."""
    return Options(verify_checksums=verify_checksums, error_policy=ddl_errors, json_as="text")
