"""What a QUERY event is: transaction control, statement-based DML, a server-generated DROP, or a
statement for the DDL parser; and the sql_mode it was logged under.

One rule decides what may change the schema: the DDL package's statement classifier
(:func:`mysqlddl.ddl.classify`, which reads the leading tokens after the parser's own
lexing). The kinds counted here (:class:`QueryKind`, printed in the run's summary) name only
statements it calls OTHER: transaction control (BEGIN, START TRANSACTION, COMMIT, ROLLBACK,
SAVEPOINT, RELEASE), XA and the DML verbs, told by their leading words (tests/changes check each
form against the classifier). Whatever else a QUERY holds goes to the DDL parser as before; a
leading BEGIN followed by more than WORK is asked of the classifier itself, since MariaDB's
``BEGIN NOT ATOMIC ... END`` compound statement may hold DDL. (Before, a regular expression here
read that statement as a transaction's BEGIN, against the classifier's rule.) The classifier
loads the generated lexer, so it is asked only there: a reader of a log whose queries are the
usual BEGIN/COMMIT/XA/DDL, such as a Spark task's, never loads it (tests/spark/test_ranges.py).
"""

from __future__ import annotations

import enum

from ..options import DEFAULT, Options

# ------------------------------------------------------------------------------------ sql_mode

#: sql_mode bits as logged in Q_SQL_MODE_CODE (sql/system_variables.h ``MODE_*``; MariaDB
#: sql/sql_class.h adds bits 32-34). Bit 4 and MySQL 8's removed modes are kept by name so an old
#: log still reads; only the lexing-relevant ones change how we parse.
SQL_MODE_BITS: tuple[tuple[int, str], ...] = (
    (1 << 0, "REAL_AS_FLOAT"), (1 << 1, "PIPES_AS_CONCAT"), (1 << 2, "ANSI_QUOTES"),
    (1 << 3, "IGNORE_SPACE"), (1 << 5, "ONLY_FULL_GROUP_BY"), (1 << 6, "NO_UNSIGNED_SUBTRACTION"),
    (1 << 7, "NO_DIR_IN_CREATE"), (1 << 8, "POSTGRESQL"), (1 << 9, "ORACLE"), (1 << 10, "MSSQL"),
    (1 << 11, "DB2"), (1 << 12, "MAXDB"), (1 << 13, "NO_KEY_OPTIONS"), (1 << 14, "NO_TABLE_OPTIONS"),
    (1 << 15, "NO_FIELD_OPTIONS"), (1 << 16, "MYSQL323"), (1 << 17, "MYSQL40"), (1 << 18, "ANSI"),
    (1 << 19, "NO_AUTO_VALUE_ON_ZERO"), (1 << 20, "NO_BACKSLASH_ESCAPES"),
    (1 << 21, "STRICT_TRANS_TABLES"), (1 << 22, "STRICT_ALL_TABLES"), (1 << 23, "NO_ZERO_IN_DATE"),
    (1 << 24, "NO_ZERO_DATE"), (1 << 25, "INVALID_DATES"), (1 << 26, "ERROR_FOR_DIVISION_BY_ZERO"),
    (1 << 27, "TRADITIONAL"), (1 << 28, "NO_AUTO_CREATE_USER"), (1 << 29, "HIGH_NOT_PRECEDENCE"),
    (1 << 30, "NO_ENGINE_SUBSTITUTION"), (1 << 31, "PAD_CHAR_TO_FULL_LENGTH"),
    (1 << 32, "EMPTY_STRING_IS_NULL"), (1 << 33, "SIMULTANEOUS_ASSIGNMENT"),
    (1 << 34, "TIME_ROUND_FRACTIONAL"),
)


def sql_mode_names(mask: int) -> frozenset[str]:
    """The mode names of a Q_SQL_MODE_CODE bitmask (unknown bits are ignored)."""
    return frozenset(name for bit, name in SQL_MODE_BITS if mask & bit)


# ------------------------------------------------------------------------- query classification


class QueryKind(str, enum.Enum):
    BEGIN = "begin"
    COMMIT = "commit"
    ROLLBACK = "rollback"
    SAVEPOINT = "savepoint"
    XA = "xa"
    DML = "dml"                               # statement-based DML: never parsed into the schema
    GENERATED_DROP_TEMPORARY = "generated_drop_temporary"
    DDL = "ddl"                               # everything else: parsed; may produce no command


#: The texts the server logs for transaction control, as written (sql/log_event.cc
#: ``Query_log_event`` for BEGIN/COMMIT/ROLLBACK around a transaction): decided without lexing.
_LOGGED = {"BEGIN": QueryKind.BEGIN, "COMMIT": QueryKind.COMMIT, "ROLLBACK": QueryKind.ROLLBACK}
_DML = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", "SELECT", "WITH", "CALL", "DO",
                  "HANDLER", "VALUES", "TABLE"})


def _leading_words(sql: str, n: int) -> list[str]:
    """The first ``n`` words of ``sql``, upper-cased, past whitespace and plain comments (``/* */``,
    ``#``, ``-- ``; MySQL manual 11.7 "Comments"). A versioned comment ``/*!`` ends the scan: its
    words are for the DDL classifier, which opens it by server version."""
    words: list[str] = []
    i, end = 0, len(sql)
    while i < end and len(words) < n:
        c = sql[i]
        if c.isspace():
            i += 1
        elif sql.startswith("/*", i) and not sql.startswith("/*!", i):
            j = sql.find("*/", i + 2)
            i = end if j < 0 else j + 2
        elif c == "#" or (sql.startswith("--", i) and (i + 2 == end or sql[i + 2].isspace())):
            j = sql.find("\n", i)
            i = end if j < 0 else j + 1
        elif c.isascii() and c.isalpha():
            j = i
            while j < end and sql[j].isascii() and sql[j].isalpha():
                j += 1
            words.append(sql[i:j].upper())
            i = j
        else:
            break
    return words


def _generated_drop(sql: str) -> bool:
    """The server's DROP of a temporary table of a session that ended (sql/sql_base.cc
    ``close_temporary_tables``: "DROP /*!40005 TEMPORARY */ TABLE IF EXISTS ... /* generated by
    server */"; newer versions drop the versioned comment). Its comment is what says so, and the
    lexer drops comments, so the text decides."""
    text = " ".join(sql.split()).upper()
    return (text.startswith(("DROP TEMPORARY TABLE", "DROP /*!40005 TEMPORARY */ TABLE"))
            and text.endswith(("/* GENERATED BY SERVER */", "/*GENERATED BY SERVER*/")))


def _compound(sql: str, options: Options) -> bool:
    """Whether the DDL classifier calls ``sql`` (which starts with BEGIN) a schema statement."""
    # (imported here: the classifier loads the generated lexer, ~0.3 s a process; see the module
    # docstring for why it is asked only about a BEGIN with more words)
    from ..ddl import StatementClass, classify

    return classify(sql, options) is StatementClass.SCHEMA


def classify_query(sql: str, options: Options = DEFAULT) -> QueryKind:
    """What a QUERY event is (see the module docstring). ``options``: the dialect, server version
    and sql_mode the DDL classifier lexes with."""
    kind = _LOGGED.get(sql)
    if kind is not None:
        return kind
    if _generated_drop(sql):
        return QueryKind.GENERATED_DROP_TEMPORARY
    words = _leading_words(sql, 3)
    word = words[0] if words else ""
    if word == "BEGIN":
        if words[1:] in ([], ["WORK"]) or not _compound(sql, options):
            return QueryKind.BEGIN
        return QueryKind.DDL
    if words[:2] == ["START", "TRANSACTION"]:
        return QueryKind.BEGIN
    if word == "COMMIT":
        return QueryKind.COMMIT
    if word == "ROLLBACK":
        return QueryKind.SAVEPOINT if "TO" in words[1:3] else QueryKind.ROLLBACK
    if word in ("SAVEPOINT", "RELEASE"):
        return QueryKind.SAVEPOINT
    if word == "XA":
        return QueryKind.XA
    if word in _DML:
        return QueryKind.DML
    # the rest goes to the DDL parser, which finds what changes the schema (the others are counted
    # as no_schema_change)
    return QueryKind.DDL


__all__ = ["SQL_MODE_BITS", "QueryKind", "classify_query", "sql_mode_names"]
