"""The one exception hierarchy of mysqlddl, shared by the pure-Python and the compiled code.

Every error carries where it happened:

- DDL errors: line, column (1-based line, 0-based column as ANTLR reports them), character offset,
  the statement index and text, and a caret excerpt (``str(err)`` shows it);
- binlog errors: file, log position of the event, event type, table, column index and the byte
  offset inside the file.

Callers catch :class:`MysqlddlError` for "anything this library raises on bad input"; a bare
``KeyError``/``IndexError``/``struct.error`` escaping the library is a bug.

Areas append their own subclasses below their section; existing classes are not changed.
"""

from __future__ import annotations

import datetime

from .redact import mask_text


class MysqlddlError(Exception):
    """Root of every error mysqlddl raises on bad input or bad configuration.

    No password is ever in one: its ``args`` and every text attribute (``message``, ``path``,
    ``fix``, ...) are masked as they are set (:func:`mysqlddl.redact.mask_text`), so a message
    that quotes a URI, wherever it is built, prints and logs it without its password."""

    def __init__(self, *args):
        super().__init__(*(mask_text(a) if isinstance(a, str) else a for a in args))

    def __setattr__(self, name, value):
        super().__setattr__(name, mask_text(value) if isinstance(value, str) else value)

    def with_context(self, **ctx):
        """Fill in position fields that are still unknown (inner decoders know less than the
        reader that calls them). Returns self so ``raise err.with_context(...)`` reads naturally."""
        for k, v in ctx.items():
            if getattr(self, k, None) is None:
                setattr(self, k, v)
        return self


class ConfigError(MysqlddlError, ValueError):
    """An option or argument value is invalid (raised before any input is read)."""


class SpeedupsUnavailableError(MysqlddlError, ImportError):
    """MYSQLDDL_REQUIRE_SPEEDUPS=1 is set but the compiled extension could not be imported."""


class UnbuiltSourceTreeError(MysqlddlError, ImportError):
    """``import mysqlddl`` found a source tree without its build (no generated parser): the
    checkout's own ``mysqlddl/`` shadows the installed package when Python starts in its root."""


class ExtraMissingError(ConfigError, ImportError):
    """An optional part was asked for (a postgresql:// sink) whose extra is not installed; the
    message says what to ``pip install``. An ImportError too, so ``except ImportError`` still works."""


# --------------------------------------------------------------------------------------------- DDL


class DdlError(MysqlddlError):
    """A DDL statement could not be parsed or applied.

    Attributes (any may be ``None`` when unknown): ``line`` (1-based), ``column`` (0-based),
    ``offset`` (character offset into the statement), ``statement`` (its text),
    ``statement_index`` (0-based index in its script), ``source`` (file name or other label),
    ``script_line``/``script_column`` (where the statement starts in its script, when it came from
    one: ``line``/``column`` stay within the statement, the printed position is the script's).
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 offset: int | None = None, statement: str | None = None,
                 statement_index: int | None = None, source: str | None = None,
                 script_line: int | None = None, script_column: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.statement = statement
        self.statement_index = statement_index
        self.source = source
        self.script_line = script_line
        self.script_column = script_column

    def position(self) -> str:
        """``source, statement N, line L:C``, L:C in the script when its start there is known (as
        an editor shows the file), else in the statement."""
        parts = []
        if self.source:
            parts.append(self.source)
        if self.statement_index is not None:
            parts.append(f"statement {self.statement_index + 1}")
        if self.line is not None:
            line, column = self.line, self.column if self.column is not None else 0
            if self.script_line is not None:
                column += (self.script_column or 0) if line == 1 else 0
                line += self.script_line - 1
            parts.append(f"line {line}:{column}")
        return ", ".join(parts)

    def excerpt(self) -> str:
        """The offending line of the statement with a caret under the column, or ''."""
        if self.statement is None or self.line is None:
            return ""
        lines = self.statement.splitlines() or [""]
        if not 1 <= self.line <= len(lines):
            return ""
        text = lines[self.line - 1]
        col = max(0, min(self.column or 0, len(text)))
        # Long lines are windowed around the caret so the message stays readable.
        start = max(0, col - 60)
        shown = text[start:start + 120]
        return f"    {shown}\n    {' ' * (col - start)}^"

    def __str__(self) -> str:
        pos = self.position()
        head = f"{pos}: {self.message}" if pos else self.message
        ex = self.excerpt()
        return f"{head}\n{ex}" if ex else head


class DdlSyntaxError(DdlError):
    """The statement is not valid for the grammar. ``errors`` holds every syntax error found
    in the statement (the first is also this error's own position); ``token`` is the offending
    token text and ``expected`` what the parser expected, when known."""

    def __init__(self, message: str, *, token: str | None = None, expected: str | None = None,
                 errors: list[DdlSyntaxError] | None = None, **pos):
        super().__init__(message, **pos)
        self.token = token
        self.expected = expected
        self.errors = errors if errors is not None else [self]


class DdlSemanticError(DdlError):
    """The statement parsed but cannot be applied to the schema (unknown table, duplicate column,
    a column that does not exist, ...)."""


class ScriptError(DdlError):
    """A SQL script could not be split into statements (unterminated quote or comment,
    a DELIMITER line with no delimiter)."""


class ScriptEncodingError(ScriptError):
    """A SQL script's bytes are not text in the encoding it is read with (:mod:`mysqlddl.textfiles`);
    the position is the first bad byte's (its byte offset is in the message)."""


class SchemaHistoryError(DdlError):
    """A schema history cannot be used: a stored record or command is malformed, or a record was
    offered at a position before the last one (the history is append-only)."""


class PartialApplyError(DdlSemanticError):
    """The statement failed after the server had already applied part of it (MariaDB's
    ``DROP TABLE a, missing`` drops ``a`` and then reports the unknown table). ``catalog`` is the
    schema with that part applied; lenient error policies continue from it."""

    def __init__(self, message: str, *, catalog=None, **pos):
        super().__init__(message, **pos)
        self.catalog = catalog


# ------------------------------------------------------------------------------------------ binlog


class BinlogError(MysqlddlError):
    """A binlog could not be read or decoded.

    Attributes (any may be ``None``): ``file`` (path or name), ``log_pos`` (position of the start of
    the event in its file), ``event_type`` (name or number), ``table`` (``db.table``),
    ``column`` (0-based column index), ``offset`` (absolute byte offset in the file where decoding
    failed).
    """

    def __init__(self, message: str, *, file: str | None = None, log_pos: int | None = None,
                 event_type: str | int | None = None, table: str | None = None,
                 column: int | None = None, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.log_pos = log_pos
        self.event_type = event_type
        self.table = table
        self.column = column
        self.offset = offset

    def __str__(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(str(self.file))
        if self.log_pos is not None:
            parts.append(f"event at {self.log_pos}")
        if self.event_type is not None:
            parts.append(str(self.event_type))
        if self.table is not None:
            parts.append(f"table {self.table}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        if self.offset is not None:
            parts.append(f"byte offset {self.offset}")
        return f"{', '.join(parts)}: {self.message}" if parts else self.message


class NotABinlogError(BinlogError):
    """The input does not start with the binlog magic bytes."""


class TruncatedError(BinlogError):
    """The input ended inside an event or a value: ``needed`` bytes were required, ``available``
    remained."""

    def __init__(self, message: str, *, needed: int | None = None, available: int | None = None, **ctx):
        super().__init__(message, **ctx)
        self.needed = needed
        self.available = available


class ChecksumError(BinlogError):
    """An event's CRC32 does not match its bytes."""


class CorruptEventError(BinlogError):
    """An event's bytes are inconsistent with its layout (bad length, leftover bytes, impossible
    value)."""


class UnsupportedError(BinlogError):
    """A valid binlog feature this library does not decode."""


class EncryptedBinlogError(UnsupportedError):
    """The binlog is encrypted (MariaDB START_ENCRYPTION_EVENT); decoding needs its keys."""


class SchemaMismatchError(BinlogError):
    """A TABLE_MAP does not agree with the table version in force at its position."""


class RowImageOverrunError(CorruptEventError, TruncatedError):
    """A row image runs past the end of its rows event body: the event's length and its row
    contents disagree. Both a CorruptEventError (the event is inconsistent) and a TruncatedError
    (``needed``/``available`` say by how much)."""


# ------------------------------------------------------------------------------ OpenLogReplicator


class OlrError(MysqlddlError):
    """OpenLogReplicator (OLR) JSON output could not be read.

    Attributes (any may be ``None``): ``file``; ``line`` and ``column`` (1-based) of the problem,
    ``offset`` (its byte offset in the file); ``document`` (0-based index of the JSON message in
    the file); ``payload`` (0-based index in the message's ``payload`` array); ``field`` (the
    message field or column at fault).
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, offset: int | None = None, document: int | None = None,
                 payload: int | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
        self.document = document
        self.payload = payload
        self.field = field

    def __str__(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(str(self.file) + (f":{self.line}" if self.line is not None else "")
                         + (f":{self.column}" if self.line is not None and self.column is not None else ""))
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.offset is not None:
            parts.append(f"byte offset {self.offset}")
        if self.payload is not None:
            parts.append(f"payload[{self.payload}]")
        if self.field is not None:
            parts.append(repr(self.field))
        return f"{', '.join(parts)}: {self.message}" if parts else self.message


class OlrJsonError(OlrError):
    """The input is not JSON (or not UTF-8) at the given position."""


class OlrMessageError(OlrError):
    """A JSON document is not an OLR message: a missing or ill-typed field, an unknown op."""


class OlrValueError(OlrError):
    """A column value does not convert to its column's type (e.g. RAW that is not hex)."""


# ---------------------------------------------------------------------------------------- pipeline


class PipelineError(MysqlddlError):
    """The pipeline (mysqlddl.pipeline) cannot go on: ``path`` names the pipeline file, checkpoint
    store or sink path involved (None when none is), ``setting`` the pipeline-file key to fix."""

    def __init__(self, message: str, *, path: str | None = None, setting: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.setting = setting

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(str(self.path))
        if self.setting:
            where.append(f"[{self.setting}]")
        return f"{': '.join(where)}: {self.message}" if where else self.message


class CheckpointError(PipelineError):
    """A checkpoint store that cannot be trusted: not a checkpoint store (corrupt), written by a
    newer mysqlddl, or holding the checkpoint of another source. Never a silent restart from the
    beginning."""


class CheckpointAccessError(CheckpointError):
    """The checkpoint store (or its directory) cannot be read or written by this user (EACCES,
    EPERM, a read-only file system): a permission to fix, not a corrupt store."""


class PipelineLockedError(PipelineError):
    """Another run of the same pipeline holds its lock (pipeline.lock): ``pid``, ``host`` and
    ``started`` (Unix seconds) say which, as far as the holder wrote them (None: unknown)."""

    def __init__(self, message: str, *, pid: int | None = None, host: str | None = None,
                 started: float | None = None, **kw):
        super().__init__(message, **kw)
        self.pid, self.host, self.started = pid, host, started

    @staticmethod
    def holder(pid: int | None, host: str | None, started: float | None) -> str:
        """``process PID on host HOST since TIME`` (what is known of the holder)."""
        when = datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC") \
            if started else "an unknown time"
        return f"process {pid if pid is not None else '(unknown)'} on host {host or '(unknown)'} since {when}"


class FailoverError(CheckpointError):
    """The pipeline's source is another server than the checkpoint's (a failover) and it cannot be
    followed there: the new server's GTID state lacks transactions the pipeline delivered (it is not
    a replica that had them), or the checkpoint holds something only the old server can resume
    (an XA transaction prepared and open at it)."""


class SinkError(PipelineError):
    """A sink could not write, convert or apply a record. ``transient``: worth a retry (a lost
    connection, a full disk that may drain), as the ``retry`` error strategy decides;
    ``position``: the source position of the record (text), ``table``: the source ``db.table``,
    ``what``: what was not converted or applied."""

    def __init__(self, message: str, *, transient: bool = False, position: str | None = None,
                 table: str | None = None, what: str | None = None, **kw):
        super().__init__(message, **kw)
        self.transient = transient
        self.position, self.table, self.what = position, table, what

    def __str__(self) -> str:
        base = super().__str__()
        ctx = ", ".join(f"{k} {v}" for k, v in (("at", self.position), ("table", self.table)) if v)
        return f"{base} ({ctx})" if ctx else base


class SinkOwnershipError(SinkError):
    """A sink's output (a segment directory) belongs to another pipeline, or holds what no
    checkpoint of this pipeline knows: refused before anything is written (sinks.segments)."""


# ------------------------------------------------------------------------- mapping, PostgreSQL sink


class MappingError(ConfigError):
    """An object-mapping rule is invalid or does not fit the schema in force. ``rule``: where it
    was given (``mapping.rules[3]`` or ``[[mapping.columns]] #2``), ``setting``: the key at fault."""

    def __init__(self, message: str, *, rule: str | None = None, setting: str | None = None):
        super().__init__(message)
        self.message, self.rule, self.setting = message, rule, setting

    def __str__(self) -> str:
        where = " ".join(p for p in (self.rule, f"({self.setting})" if self.setting else None) if p)
        return f"{where}: {self.message}" if where else self.message


class ValuePolicyError(SinkError):
    """A value the target cannot hold (zero date, NUL in text, out of range) under policy ``error``."""


class UnconvertibleDdlError(SinkError):
    """A DDL the PostgreSQL converter cannot express (``what`` says which part)."""


class SinkValueError(SinkError):
    """A record a sink could not take because of a value in it: its rendering or conversion raised
    (a ValueError, TypeError or ArithmeticError; ``what`` names it). Never transient: the same event
    fails the same way on every restart, so the pipeline's error strategy decides (``skip``: a dead
    letter; else the run stops with this error and the event's ``position`` and ``table``)."""


# ------------------------------------------------------------------------------- live (server) sources


class SourceError(MysqlddlError):
    """A binlog source (a server streaming as to a replica) failed.

    Attributes (any may be ``None``): ``server`` (``host:port``), ``setting`` (the server variable,
    privilege or option at fault), ``fix`` (what to do about it), ``code`` (the server's error
    number), ``file``/``log_pos`` (where in the server's binlogs).
    """

    def __init__(self, message: str, *, server: str | None = None, setting: str | None = None,
                 fix: str | None = None, code: int | None = None, file: str | None = None,
                 log_pos: int | None = None):
        super().__init__(message)
        self.message = message
        self.server = server
        self.setting = setting
        self.fix = fix
        self.code = code
        self.file = file
        self.log_pos = log_pos

    def __str__(self) -> str:
        head = []
        if self.server is not None:
            head.append(self.server)
        if self.file is not None:
            head.append(f"{self.file}:{self.log_pos}" if self.log_pos is not None else self.file)
        if self.code is not None:
            head.append(f"error {self.code}")
        text = f"{', '.join(head)}: {self.message}" if head else self.message
        if self.setting is not None:
            text += f" [setting: {self.setting}]"
        if self.fix is not None:
            text += f"; fix: {self.fix}"
        return text


class SnapshotError(SourceError):
    """The schema or rows of a live server could not be captured at one position (no binary log,
    a lock method the server lacks, a capture whose snapshot transaction is gone); the message
    names the setting and the fix."""


class SourceUriError(SourceError, ConfigError):
    """A source URI (``mysql://``, ``mariadb://``, ``file://``) or its query options are invalid."""


#: Server errors of a login the server refused (include/mysqld_error.h ER_DBACCESS_DENIED_ERROR,
#: ER_ACCESS_DENIED_ERROR, ER_HOST_NOT_PRIVILEGED, ER_NOT_SUPPORTED_AUTH_MODE,
#: ER_ACCESS_DENIED_NO_PASSWORD_ERROR): the same login is refused again, however often it is tried.
_LOGIN_REFUSED = frozenset((1044, 1045, 1130, 1251, 1698))


class ServerConnectError(SourceError):
    """The server could not be reached, refused the login (wrong password, TLS required) or the
    connection could not be re-established within the allowed attempts."""

    @property
    def login_refused(self) -> bool:
        """The server refused the login itself: trying again (a reconnection, a retry) cannot help."""
        return self.code in _LOGIN_REFUSED


class ServerSettingError(SourceError):
    """A server setting makes streaming impossible or wrong (``binlog_format``,
    ``binlog_row_image``, binary logging off, missing privileges)."""


class ReplicaIdConflictError(ServerSettingError):
    """Another replica is registered with the ``server-id`` asked for."""


class BinlogPurgedError(SourceError):
    """The start position or GTID set names binlogs the server no longer has (error 1236 and its
    variants); ``files`` lists the binlogs the server does have."""

    def __init__(self, message: str, *, files: tuple[str, ...] = (), **ctx):
        super().__init__(message, **ctx)
        self.files = files


class GtidPositionError(SourceError):
    """A GTID start set is not contained in what the server executed (``gtid_executed`` /
    ``gtid_binlog_pos``)."""


class ServerIdentityError(SourceError):
    """The server is not the one a stored file position was taken on (``server_uuid`` changed:
    after a failover only a GTID position is valid)."""


class ProtocolError(SourceError):
    """The client/server byte stream broke its framing (packet sequence, impossible length, an
    unexpected packet where an event was due)."""
