"""The resolved column: what a table's column *is* after the server's rules were applied."""

from __future__ import annotations

import dataclasses
import enum

from .types import FAMILIES, TypeFamily, oracle_type_text


class DefaultKind(str, enum.Enum):
    NULL = "null"                           # DEFAULT NULL (explicit or implied)
    LITERAL = "literal"                     # a constant, normalised to the column type
    EXPRESSION = "expression"               # DEFAULT (expr) / MariaDB bare expressions: SQL text
    CURRENT_TIMESTAMP = "current_timestamp"  # CURRENT_TIMESTAMP[(fsp)] and its synonyms


@dataclasses.dataclass(frozen=True, slots=True)
class Default:
    """A column default (also used for ON UPDATE, which is always CURRENT_TIMESTAMP).

    ``value``: for LITERAL the normalised value as text (``'1.50'`` for DECIMAL(10,2) DEFAULT 1.5,
    ``'2020-01-01 00:00:00.000'`` for DATETIME(3), unescaped string content for strings, ``b'101'``
    for BIT); for EXPRESSION the expression text as written, parentheses included (``(1 + 2)``,
    MariaDB's bare ``uuid()``), which is how both servers print it back; None otherwise.
    ``fsp``: for CURRENT_TIMESTAMP the precision, None when not given.
    """

    kind: DefaultKind
    value: str | None = None
    fsp: int | None = None

    @classmethod
    def null(cls) -> Default:
        return cls(DefaultKind.NULL)

    @classmethod
    def literal(cls, value: str) -> Default:
        return cls(DefaultKind.LITERAL, value)

    @classmethod
    def expression(cls, text: str) -> Default:
        return cls(DefaultKind.EXPRESSION, text)

    @classmethod
    def current_timestamp(cls, fsp: int | None = None) -> Default:
        return cls(DefaultKind.CURRENT_TIMESTAMP, None, fsp or None)

    def sql(self, family: TypeFamily | None = None, now: str = "current_timestamp()") -> str:
        """SQL text of this default as SHOW CREATE TABLE prints it (numbers unquoted). ``now``:
        how the dialect spells CURRENT_TIMESTAMP without precision (MariaDB
        ``current_timestamp()``, MySQL ``CURRENT_TIMESTAMP``); with a precision both print
        the name followed by ``(fsp)``."""
        if self.kind is DefaultKind.NULL:
            return "NULL"
        if self.kind is DefaultKind.CURRENT_TIMESTAMP:
            return f"{now.split('(')[0]}({self.fsp})" if self.fsp else now
        if self.kind is DefaultKind.EXPRESSION:
            return self.value
        if family in (TypeFamily.INTEGER, TypeFamily.DECIMAL, TypeFamily.FLOAT, TypeFamily.YEAR) or (
                family is TypeFamily.BIT and self.value.startswith("b'")):
            return self.value
        return quote_string(self.value)


class GeneratedKind(str, enum.Enum):
    VIRTUAL = "virtual"
    STORED = "stored"


@dataclasses.dataclass(frozen=True, slots=True)
class Generated:
    """A generated column: VIRTUAL (MariaDB also spells it PERSISTENT for STORED) and its
    expression text as written."""

    kind: GeneratedKind
    expression: str


def quote_string(value: str) -> str:
    """A single-quoted SQL string literal as the server prints it ('' for quote, \\\\ for backslash)."""
    return "'" + escape_string(value) + "'"


# The escapes the server uses when it prints a string literal (append_unescaped() in sql_show.cc).
_PRINT_ESCAPES = {"\\": "\\\\", "'": "''", "\0": "\\0", "\n": "\\n", "\r": "\\r", "\x1a": "\\Z"}


def escape_string(value: str) -> str:
    """The body of a string literal as the server prints it."""
    return "".join(_PRINT_ESCAPES.get(ch, ch) for ch in value)


@dataclasses.dataclass(frozen=True, slots=True)
class Identity:
    """An identity column (Oracle 12c+, SQL Ref. "CREATE TABLE", identity_clause): ``always``
    for GENERATED ALWAYS (False: BY DEFAULT), ``on_null`` for BY DEFAULT ON NULL, ``options``
    the identity options text as written (``START WITH 1 INCREMENT BY 1``) or None."""

    always: bool = True
    on_null: bool = False
    options: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Column:
    """One column of a table, after the server's rules were applied.

    ``position``: 1-based ordinal, maintained by the table. ``type_name``: canonical lower-case type
    (``int``, ``varchar``, ``mediumtext``...), ``family`` its :class:`TypeFamily`. ``declared_type``:
    the type as the statement wrote it (``INTEGER(11) UNSIGNED``), may be ``""`` for columns not
    built from a statement. ``length``: display width for integers (None where the dialect drops it),
    precision for DECIMAL/FLOAT/DOUBLE, characters for CHAR/VARCHAR, bytes for BINARY/VARBINARY, bits
    for BIT, YEAR's width where shown; None otherwise. ``scale``: DECIMAL/FLOAT(M,D) scale or None.
    ``fsp``: fractional seconds of TIME/DATETIME/TIMESTAMP (0 when none). ``charset``/``collation``:
    set for character families (CHAR, VARCHAR, TEXT, ENUM, SET and MariaDB's JSON-as-LONGTEXT), None
    otherwise. ``default``: None when the column has no default at all (NOT NULL without DEFAULT,
    AUTO_INCREMENT, generated columns), else a :class:`Default`. ``on_update``: None or a
    CURRENT_TIMESTAMP Default. ``generated``: None or :class:`Generated`. ``values``: ENUM/SET
    members, unescaped, else ``()``. ``srid``: None unless an SRID attribute was given. ``comment``:
    None when no COMMENT was given.

    System versioning (MariaDB 10.3+, KB "System-Versioned Tables"): ``row_period`` is ``"start"``
    or ``"end"`` for a ``GENERATED ALWAYS AS ROW START/END`` column, else None. ``hidden``: one of
    the implicit ``row_start``/``row_end`` columns the server adds for ``WITH SYSTEM VERSIONING``
    without explicit period columns; information_schema and SHOW CREATE TABLE do not show them,
    but they are in every row image (checked with mariadb-binlog on 10.11.19), so they stay in
    ``columns`` (always last). ``versioned``: False for a column declared ``WITHOUT SYSTEM
    VERSIONING``.
    """

    name: str
    type_name: str
    position: int = 0
    declared_type: str = ""
    length: int | None = None
    scale: int | None = None
    fsp: int | None = None
    unsigned: bool = False
    zerofill: bool = False
    charset: str | None = None
    collation: str | None = None
    nullable: bool = True
    default: Default | None = None
    on_update: Default | None = None
    auto_increment: bool = False
    generated: Generated | None = None
    values: tuple[str, ...] = ()
    srid: int | None = None
    comment: str | None = None
    visible: bool = True
    row_period: str | None = None
    hidden: bool = False
    versioned: bool = True

    # Oracle (None/False elsewhere): ``length_semantics`` "BYTE" or "CHAR" for character types;
    # ``default_on_null``: DEFAULT ON NULL; ``identity``: an identity column (then ``default`` is
    # None). SET UNUSED removes the column from the table, as DROP COLUMN does.
    length_semantics: str | None = None
    default_on_null: bool = False
    identity: Identity | None = None

    @property
    def family(self) -> TypeFamily:
        return FAMILIES.get(self.type_name, TypeFamily.UNKNOWN)

    @property
    def column_type(self) -> str:
        """The full type as ``information_schema.COLUMNS.COLUMN_TYPE`` shows it
        (``int(10) unsigned zerofill``, ``enum('a','b')``, ``datetime(3)``); an Oracle type as
        ALL_TAB_COLUMNS spells it (``TIMESTAMP(6) WITH TIME ZONE``, the dialect's type table
        :data:`~mysqlddl.model.types.ORACLE_TYPES` says where the numbers go)."""
        t = self.type_name
        if t[:1].isupper():  # Oracle canonical names are upper case, MySQL's lower case
            o = oracle_type_text(t, self.length, self.scale, self.fsp)
            if o is not None:
                return o
        if self.values:
            t += "(" + ",".join(quote_string(v) for v in self.values) + ")"
        elif self.fsp:
            t += f"({self.fsp})"
        elif self.length is not None:
            t += f"({self.length},{self.scale})" if self.scale is not None else f"({self.length})"
        if self.unsigned:
            t += " unsigned"
        if self.zerofill:
            t += " zerofill"
        return t

    def replace(self, **changes) -> Column:
        return dataclasses.replace(self, **changes)
