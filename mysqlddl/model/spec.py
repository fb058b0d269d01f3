"""What a DDL statement *said* about a column, key or constraint, before the server's rules are
applied. Listeners build these; commands carry them; :mod:`.resolve` turns them into model values.

Text fields hold SQL as written (string literals keep their quotes: ``"'it''s'"``); names are
already unquoted (a listener turns ```we``ird``` into ``we`ird``).
"""

from __future__ import annotations

import dataclasses

from .column import Identity
from .ids import TableId
from .table import ConstraintState, IndexKind, IndexPart


@dataclasses.dataclass(frozen=True, slots=True)
class DataTypeSpec:
    """A data type as written.

    ``name``: the type keyword(s), any case/spacing (``"int"``, ``"DOUBLE PRECISION"``,
    ``"NATIONAL VARCHAR"``, ``"LONG VARCHAR"``, ``"SERIAL"``). ``length``: the first number in
    parentheses (M, precision, fsp for TIME/DATETIME/TIMESTAMP, FLOAT(p)'s p); None when absent.
    ``scale``: the second number (D); None when absent. ``unsigned``/``zerofill``: as written.
    ``binary``: the BINARY attribute of character types (``VARCHAR(5) BINARY``; ``CHAR BYTE`` is
    the listener's to map to BINARY). ``charset``: CHARACTER SET / CHARSET name (``ASCII`` ->
    ``latin1``, ``UNICODE`` -> ``ucs2`` are the listener's to map); ``collation``: the COLLATE
    name, wherever it appeared in the column definition; both None when absent. ``values``:
    ENUM/SET members as written, quotes included (``("'a'", "'it''s'")``). ``text``: the
    declared type text for the record, may be ``""``.
    """

    name: str
    length: int | None = None
    scale: int | None = None
    unsigned: bool = False
    zerofill: bool = False
    binary: bool = False
    charset: str | None = None
    collation: str | None = None
    values: tuple[str, ...] = ()
    text: str = ""
    length_semantics: str | None = None  # Oracle VARCHAR2(n BYTE|CHAR) as written, else None


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnSpec:
    """A column definition as written.

    ``nullable``: None when neither NULL nor NOT NULL was said, True for NULL, False for NOT NULL.
    ``default``/``on_update``: the SQL text after DEFAULT / ON UPDATE (``"'x'"``, ``"-1"``,
    ``"NULL"``, ``"CURRENT_TIMESTAMP(3)"``, ``"(rand())"``), None when absent. ``primary_key``:
    inline PRIMARY KEY (or bare KEY); ``unique``: inline UNIQUE [KEY]. ``comment``: the COMMENT
    literal as written, None when absent. ``generated``: the AS (expr) text without outer
    parentheses, None for ordinary columns; ``stored``: STORED/PERSISTENT (else VIRTUAL).
    ``visible``: False for INVISIBLE. ``srid``: SRID n. ``check``/``check_name``: an inline CHECK
    (expression text) and its CONSTRAINT name (None when unnamed or absent); ``check_enforced``
    False for MySQL's ``CHECK (...) NOT ENFORCED``. ``row_period``: ``"start"``/``"end"`` for
    MariaDB's ``GENERATED ALWAYS AS ROW START/END``; ``versioning``: True/False for a column's
    ``WITH``/``WITHOUT SYSTEM VERSIONING``, None when not said.
    """

    name: str
    type: DataTypeSpec
    nullable: bool | None = None
    default: str | None = None
    on_update: str | None = None
    auto_increment: bool = False
    primary_key: bool = False
    unique: bool = False
    comment: str | None = None
    generated: str | None = None
    stored: bool = False
    visible: bool = True
    srid: int | None = None
    check: str | None = None
    check_name: str | None = None
    default_on_null: bool = False  # Oracle DEFAULT ON NULL
    identity: Identity | None = None  # Oracle GENERATED ... AS IDENTITY
    check_enforced: bool = True
    row_period: str | None = None
    versioning: bool | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class KeySpec:
    """A key definition: ``kind``, ``parts`` (model IndexPart values), ``name`` (None when unnamed:
    the server names it after its first column), ``constraint_name`` (CONSTRAINT symbol before
    PRIMARY KEY/UNIQUE, used as the name when ``name`` is None), ``using`` (BTREE/HASH/RTREE or
    None), ``comment`` (literal as written or None), ``visible`` (False for INVISIBLE / MariaDB
    IGNORED), ``without_overlaps`` (MariaDB ``p WITHOUT OVERLAPS``: the period name, else None)."""

    kind: IndexKind
    parts: tuple[IndexPart, ...]
    name: str | None = None
    constraint_name: str | None = None
    using: str | None = None
    comment: str | None = None
    visible: bool = True
    state: ConstraintState | None = None  # Oracle constraint state
    without_overlaps: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ForeignKeySpec:
    """FOREIGN KEY: ``name`` is the CONSTRAINT symbol (None: generated ``<table>_ibfk_<n>``),
    ``index_name`` the optional name after FOREIGN KEY. ``ref_table.database`` None means the
    referencing table's database. Actions upper-case as written, None when absent."""

    columns: tuple[str, ...]
    ref_table: TableId
    ref_columns: tuple[str, ...]
    name: str | None = None
    index_name: str | None = None
    on_delete: str | None = None
    on_update: str | None = None
    match: str | None = None
    state: ConstraintState | None = None  # Oracle constraint state


@dataclasses.dataclass(frozen=True, slots=True)
class CheckSpec:
    """CHECK (expression): ``name`` None when unnamed (the dialect names it); ``enforced`` False
    for NOT ENFORCED."""

    expression: str
    name: str | None = None
    enforced: bool = True
    state: ConstraintState | None = None  # Oracle constraint state


def col(name: str, type_name: str, length: int | None = None, scale: int | None = None,
        **kw) -> ColumnSpec:
    """Shorthand for tests and hand-built commands: ``col("id", "int", nullable=False)``. Type
    keywords (unsigned, zerofill, binary, charset, collation, values, text) go to the
    DataTypeSpec, the rest to the ColumnSpec."""
    tkw = {k: kw.pop(k) for k in ("unsigned", "zerofill", "binary", "charset", "collation", "values",
                                  "text") if k in kw}
    return ColumnSpec(name, DataTypeSpec(type_name, length, scale, **tkw), **kw)
