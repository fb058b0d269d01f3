"""QUERY_EVENT (2), MariaDB QUERY_COMPRESSED_EVENT (165), and the LOAD DATA query pair
BEGIN_LOAD_QUERY (17) / EXECUTE_LOAD_QUERY (18).

Query event (libs/mysql/binlog/event/statement_events.h ``Query_event``; MySQL internals manual,
"QUERY_EVENT")::

    post-header (13 bytes in v4, 11 in v1/v3 which have no status block)
    +-----------+-----------+--------+------------+-----------------+
    | thread_id | exec_time | db_len | error_code | status_vars_len |
    |     4     |     4     |   1    |     2      |       2         |
    +-----------+-----------+--------+------------+-----------------+
    body
    +---------------------------+-------------+-----+--------------------------+
    | status vars (code, value) | db (db_len) | NUL | query (rest of the body) |
    +---------------------------+-------------+-----+--------------------------+

EXECUTE_LOAD_QUERY appends file_id(4) start_pos(4) end_pos(4) dup_handling(1) to the post-header
(``EXECUTE_LOAD_QUERY_EXTRA_HEADER_LEN`` = 13, load_data_events.h). The compressed MariaDB form
replaces the query text with a compressed block (see ``_compress.mariadb_uncompress``).
"""

from __future__ import annotations

import dataclasses

from ._compress import mariadb_uncompress
from .types import Event, EventType

# Status variable codes: ``Query_event::Query_event_status_vars`` (statement_events.h) and
# MariaDB's additions (sql/log_event.h, codes from 128).
Q_FLAGS2_CODE = 0
Q_SQL_MODE_CODE = 1
Q_CATALOG_CODE = 2
Q_AUTO_INCREMENT = 3
Q_CHARSET_CODE = 4
Q_TIME_ZONE_CODE = 5
Q_CATALOG_NZ_CODE = 6
Q_LC_TIME_NAMES_CODE = 7
Q_CHARSET_DATABASE_CODE = 8
Q_TABLE_MAP_FOR_UPDATE_CODE = 9
Q_MASTER_DATA_WRITTEN_CODE = 10
Q_INVOKER = 11
Q_UPDATED_DB_NAMES = 12
Q_MICROSECONDS = 13
Q_COMMIT_TS = 14
Q_COMMIT_TS2 = 15
Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP = 16
Q_DDL_LOGGED_WITH_XID = 17
Q_DEFAULT_COLLATION_FOR_UTF8MB4 = 18
Q_SQL_REQUIRE_PRIMARY_KEY = 19
Q_DEFAULT_TABLE_ENCRYPTION = 20
Q_ENABLE_CASCADE_TRIGGERS = 21
Q_HRNOW = 128                      # MariaDB: microseconds of the statement start, 3 bytes
Q_XID = 129                        # MariaDB: xid of a DDL logged with one, 8 bytes
Q_GTID_FLAGS3 = 130                # MariaDB: 1 byte
Q_CHARACTER_SET_COLLATIONS = 131   # MariaDB 11.2+: count(1) then count x (charset 2, collation 2)

MAX_DBS_IN_EVENT_MTS = 16          # statement_events.h
OVER_MAX_DBS_IN_EVENT_MTS = 254

# Collation ids whose text is MySQL "latin1" (really cp1252) or binary; the rest are read as UTF-8.
_LATIN1_IDS = frozenset({5, 8, 15, 31, 47, 48, 49, 94})
_BINARY_ID = 63


def decode_text(raw: bytes, collation_id: int | None) -> str:
    """Statement and name text by the client collation: latin1 ids as cp1252, binary/unknown
    bytes kept losslessly (surrogateescape), everything else UTF-8."""
    if collation_id in _LATIN1_IDS:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
    return raw.decode("utf-8", "surrogateescape")


@dataclasses.dataclass(frozen=True, slots=True)
class QueryStatus:
    """Every status variable of a Query event; a field is None when the variable is absent.

    ``updated_db_names`` is a tuple of names, or the string ``"OVER_MAX"`` when the server logged
    more than 16 (``OVER_MAX_DBS_IN_EVENT_MTS``). ``unparsed`` holds the bytes from the first code
    we do not know: like the server, we cannot know its length, so we stop there (codes are
    written in increasing order). Q_COMMIT_TS/Q_COMMIT_TS2 (14/15) are never written and the
    server does not parse them either; they land in ``unparsed`` if ever seen.
    """

    flags2: int | None = None
    sql_mode: int | None = None
    catalog: str | None = None
    auto_increment_increment: int | None = None
    auto_increment_offset: int | None = None
    charset_client: int | None = None
    collation_connection: int | None = None
    collation_server: int | None = None
    time_zone: str | None = None
    lc_time_names: int | None = None
    charset_database: int | None = None
    table_map_for_update: int | None = None
    master_data_written: int | None = None
    invoker_user: str | None = None
    invoker_host: str | None = None
    updated_db_names: tuple[str, ...] | str | None = None
    microseconds: int | None = None
    explicit_defaults_ts: bool | None = None
    ddl_xid: int | None = None
    default_collation_for_utf8mb4: int | None = None
    sql_require_primary_key: int | None = None
    default_table_encryption: int | None = None
    enable_cascade_triggers: int | None = None
    hrnow: int | None = None
    xid: int | None = None
    gtid_flags3: int | None = None
    character_set_collations: tuple[tuple[int, int], ...] | None = None
    unparsed_code: int | None = None
    unparsed: bytes | None = None


# -------------------------------------------------------------------------- status variables
#
# One reader per status-variable code (STYLE.md 6/7): ``cur -> {QueryStatus field: value}``. Widths
# and layouts are those of ``Query_event::Query_event`` (libs/mysql/binlog/event/statement_events.cpp,
# the status-var switch) and MariaDB's sql/log_event.cc ``Query_log_event::Query_log_event``.


def _int(field: str, width: int, name: str):
    """A fixed-width little-endian integer."""
    return lambda cur: {field: cur.uint(width, name)}


def _text(field: str, name: str, codec: str = "utf-8"):
    """A 1-byte length then that many bytes (no terminator)."""
    def read(cur):
        n = cur.u8(f"{name} length")
        return {field: cur.take(n, name).decode(codec, "surrogateescape")}
    return read


def _catalog_nul(cur) -> dict:
    """Q_CATALOG_CODE, written by 5.0.0-5.0.3 masters only: length, text, then a NUL."""
    n = cur.u8("Q_CATALOG_CODE length")
    catalog = cur.take(n, "Q_CATALOG_CODE").decode("utf-8", "surrogateescape")
    if cur.u8("Q_CATALOG_CODE terminator") != 0:
        raise cur.corrupt("Q_CATALOG_CODE is not NUL-terminated", cur.pos - 1)
    return {"catalog": catalog}


def _auto_increment(cur) -> dict:
    return {"auto_increment_increment": cur.u16("Q_AUTO_INCREMENT increment"),
            "auto_increment_offset": cur.u16("Q_AUTO_INCREMENT offset")}


def _charset(cur) -> dict:
    return {"charset_client": cur.u16("Q_CHARSET_CODE client"),
            "collation_connection": cur.u16("Q_CHARSET_CODE connection"),
            "collation_server": cur.u16("Q_CHARSET_CODE server")}


def _invoker(cur) -> dict:
    user = _text("invoker_user", "Q_INVOKER user")(cur)
    return {**user, **_text("invoker_host", "Q_INVOKER host")(cur)}


def _updated_db_names(cur) -> dict:
    """A count, then that many NUL-terminated names; a count above MAX_DBS_IN_EVENT_MTS means
    OVER_MAX_DBS_IN_EVENT_MTS (no names follow)."""
    n = cur.u8("Q_UPDATED_DB_NAMES count")
    if n > MAX_DBS_IN_EVENT_MTS:
        return {"updated_db_names": "OVER_MAX"}
    return {"updated_db_names": tuple(cur.cstr("Q_UPDATED_DB_NAMES name").decode("utf-8", "surrogateescape")
                                      for _ in range(n))}


def _explicit_defaults_ts(cur) -> dict:
    return {"explicit_defaults_ts": cur.u8("Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP") != 0}


def _character_set_collations(cur) -> dict:
    """MariaDB 11.2+: a count, then (charset id 2, collation id 2) pairs."""
    n = cur.u8("Q_CHARACTER_SET_COLLATIONS count")
    return {"character_set_collations": tuple(
        (cur.u16("Q_CHARACTER_SET_COLLATIONS charset"), cur.u16("Q_CHARACTER_SET_COLLATIONS collation"))
        for _ in range(n))}


#: status-variable code -> reader. Q_COMMIT_TS/Q_COMMIT_TS2 (14/15) are absent on purpose: never
#: written, and the server cannot parse them either.
STATUS_VARS = {
    Q_FLAGS2_CODE: _int("flags2", 4, "Q_FLAGS2_CODE"),
    Q_SQL_MODE_CODE: _int("sql_mode", 8, "Q_SQL_MODE_CODE"),
    Q_CATALOG_CODE: _catalog_nul,
    Q_AUTO_INCREMENT: _auto_increment,
    Q_CHARSET_CODE: _charset,
    Q_TIME_ZONE_CODE: _text("time_zone", "Q_TIME_ZONE_CODE", "ascii"),
    Q_CATALOG_NZ_CODE: _text("catalog", "Q_CATALOG_NZ_CODE"),
    Q_LC_TIME_NAMES_CODE: _int("lc_time_names", 2, "Q_LC_TIME_NAMES_CODE"),
    Q_CHARSET_DATABASE_CODE: _int("charset_database", 2, "Q_CHARSET_DATABASE_CODE"),
    Q_TABLE_MAP_FOR_UPDATE_CODE: _int("table_map_for_update", 8, "Q_TABLE_MAP_FOR_UPDATE_CODE"),
    Q_MASTER_DATA_WRITTEN_CODE: _int("master_data_written", 4, "Q_MASTER_DATA_WRITTEN_CODE"),
    Q_INVOKER: _invoker,
    Q_UPDATED_DB_NAMES: _updated_db_names,
    Q_MICROSECONDS: _int("microseconds", 3, "Q_MICROSECONDS"),
    Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP: _explicit_defaults_ts,
    Q_DDL_LOGGED_WITH_XID: _int("ddl_xid", 8, "Q_DDL_LOGGED_WITH_XID"),
    Q_DEFAULT_COLLATION_FOR_UTF8MB4: _int("default_collation_for_utf8mb4", 2, "Q_DEFAULT_COLLATION_FOR_UTF8MB4"),
    Q_SQL_REQUIRE_PRIMARY_KEY: _int("sql_require_primary_key", 1, "Q_SQL_REQUIRE_PRIMARY_KEY"),
    Q_DEFAULT_TABLE_ENCRYPTION: _int("default_table_encryption", 1, "Q_DEFAULT_TABLE_ENCRYPTION"),
    Q_ENABLE_CASCADE_TRIGGERS: _int("enable_cascade_triggers", 1, "Q_ENABLE_CASCADE_TRIGGERS"),
    Q_HRNOW: _int("hrnow", 3, "Q_HRNOW"),
    Q_XID: _int("xid", 8, "Q_XID"),
    Q_GTID_FLAGS3: _int("gtid_flags3", 1, "Q_GTID_FLAGS3"),
    Q_CHARACTER_SET_COLLATIONS: _character_set_collations,
}


def _status(cur) -> QueryStatus:
    v: dict = {}
    while cur.remaining:
        code_at = cur.pos
        code = cur.u8("status variable code")
        read = STATUS_VARS.get(code)
        if read is None:
            # Query_event constructor, default case: "That's why you must write status vars in
            # growing order of code" -- an unknown code ends the parse.
            cur.pos = code_at + 1
            v["unparsed_code"] = code
            v["unparsed"] = cur.rest()
            break
        v.update(read(cur))
    return QueryStatus(**v)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class QueryEvent(Event):
    """``query`` is decoded by the client charset (see :func:`decode_text`); ``compressed`` is True
    for MariaDB's QUERY_COMPRESSED_EVENT (the text here is already uncompressed)."""

    thread_id: int
    exec_time: int
    error_code: int
    database: str
    query: str
    status: QueryStatus
    compressed: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ExecuteLoadQueryEvent(QueryEvent):
    file_id: int
    start_pos: int
    end_pos: int
    dup_handling: int


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class BeginLoadQueryEvent(Event):
    """BEGIN_LOAD_QUERY_EVENT: the first block of a LOAD DATA file (post-header file_id(4),
    then the data; load_data_events.h ``Append_block_event``)."""

    file_id: int
    data: bytes


def _decode_query_like(header, cur, ctx, *, compressed: bool = False, load: bool = False):
    # QUERY_HEADER_MINIMAL_LEN 11 (v1/v3: no status_vars_len), QUERY_HEADER_LEN 13;
    # EXECUTE_LOAD_QUERY_HEADER_LEN = QUERY_HEADER_LEN + 13 (statement_events.h, load_data_events.h)
    post = ctx.post_header(header, cur, 26 if load else 11, header.type_name)
    thread_id = post.u32("thread_id")
    exec_time = post.u32("exec_time")
    db_len = post.u8("db_len")
    error_code = post.u16("error_code")
    status_len = post.u16("status_vars_len") if post.remaining >= 2 else 0
    extra = {}
    if load:
        extra = {"file_id": post.u32("file_id"), "start_pos": post.u32("fn_pos_start"),
                 "end_pos": post.u32("fn_pos_end"), "dup_handling": post.u8("dup_handling")}
    # A longer post-header than we know (a newer server) is skipped: its length is declared.
    post.pos = post.end
    status = _status(cur.sub(status_len, "status variables"))
    db = cur.take(db_len, "database name")
    if cur.u8("database name terminator") != 0:
        raise cur.corrupt("database name is not NUL-terminated", cur.pos - 1)
    if compressed:
        raw = mariadb_uncompress(cur, ctx.options.max_decompressed_size, "compressed query")
    else:
        raw = cur.rest()
    cur.expect_end(header.type_name)
    cs = status.charset_client
    cls = ExecuteLoadQueryEvent if load else QueryEvent
    return cls(**ctx.base(header), thread_id=thread_id, exec_time=exec_time, error_code=error_code,
               database=decode_text(db, cs), query=decode_text(raw, cs), status=status,
               compressed=compressed, **extra)


def decode_query(header, cur, ctx) -> QueryEvent:
    return _decode_query_like(header, cur, ctx)


def decode_query_compressed(header, cur, ctx) -> QueryEvent:
    return _decode_query_like(header, cur, ctx, compressed=True)


def decode_execute_load_query(header, cur, ctx) -> ExecuteLoadQueryEvent:
    return _decode_query_like(header, cur, ctx, load=True)


def decode_begin_load_query(header, cur, ctx) -> BeginLoadQueryEvent:
    post = ctx.post_header(header, cur, 4, "BEGIN_LOAD_QUERY")   # BEGIN_LOAD_QUERY_HEADER_LEN 4
    file_id = post.u32("file_id")
    post.pos = post.end
    return BeginLoadQueryEvent(**ctx.base(header), file_id=file_id, data=cur.rest())


DECODERS = {EventType.QUERY: decode_query,
            EventType.MARIADB_QUERY_COMPRESSED: decode_query_compressed,
            EventType.BEGIN_LOAD_QUERY: decode_begin_load_query,
            EventType.EXECUTE_LOAD_QUERY: decode_execute_load_query}
