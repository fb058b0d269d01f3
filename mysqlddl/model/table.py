"""Tables, their keys and constraints, and the short-lived editor that builds new versions."""

from __future__ import annotations

import dataclasses
import enum
import re

from ..errors import DdlSemanticError
from .column import Column, DefaultKind
from .ids import TableId, column_key
from .key_order import MARIADB_KEY_ORDER, KeyOrder


def rename_in_expression(expr: str, old: str, new: str) -> str:
    """Rename a column inside expression text where it appears as a backquoted identifier (the
    form the server stores and prints expressions in; MariaDB rewrites them on RENAME/CHANGE)."""
    if not expr or "`" not in expr:
        return expr
    pattern = re.compile("`" + re.escape(old.replace("`", "``")) + "`", re.IGNORECASE)
    return pattern.sub(lambda _: "`" + new.replace("`", "``") + "`", expr)


class IndexKind(str, enum.Enum):
    PRIMARY = "primary"
    UNIQUE = "unique"
    INDEX = "index"
    FULLTEXT = "fulltext"
    SPATIAL = "spatial"


@dataclasses.dataclass(frozen=True, slots=True)
class IndexPart:
    """One key part: a column (``column``, with an optional prefix ``length`` in characters or
    bytes) or, for functional key parts (MySQL 8.0.13+), an ``expression`` (then ``column`` is
    None). ``descending``: DESC was given."""

    column: str | None = None
    length: int | None = None
    descending: bool = False
    expression: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ConstraintState:
    """An Oracle constraint state (SQL Ref. "constraint", constraint_state). None on a key or
    constraint means the default: ENABLE VALIDATE NOT DEFERRABLE INITIALLY IMMEDIATE NORELY."""

    enabled: bool = True
    validated: bool = True
    deferrable: bool = False
    initially_deferred: bool = False
    rely: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Index:
    """A key. ``name`` is ``PRIMARY`` for the primary key. ``using``: BTREE/HASH/RTREE when the
    statement said so, else None. ``comment``: None when not given. ``generated``: the server
    created it for a foreign key (it is dropped again once another key covers its columns).
    ``visible``: False for MySQL's INVISIBLE (8.0, manual 10.3.12 "Invisible Indexes") and
    MariaDB's IGNORED (10.6+, KB "Ignored Indexes"): the same idea, spelled per dialect.
    ``without_overlaps``: the application-time period of MariaDB's ``UNIQUE (..., p WITHOUT
    OVERLAPS)`` (10.5+), else None; the server appends the period's end and start columns to
    the key (information_schema.STATISTICS shows them)."""

    kind: IndexKind
    name: str
    parts: tuple[IndexPart, ...]
    using: str | None = None
    comment: str | None = None
    visible: bool = True
    generated: bool = False
    # Oracle: the constraint state, and the CONSTRAINT name of a PRIMARY KEY (``name`` stays
    # PRIMARY), None when unnamed.
    state: ConstraintState | None = None
    constraint_name: str | None = None
    without_overlaps: str | None = None

    @property
    def columns(self) -> tuple[str, ...]:
        """Names of the column parts (functional parts are skipped)."""
        return tuple(p.column for p in self.parts if p.column is not None)

    @property
    def unique(self) -> bool:
        return self.kind in (IndexKind.PRIMARY, IndexKind.UNIQUE)


@dataclasses.dataclass(frozen=True, slots=True)
class ForeignKey:
    """A FOREIGN KEY constraint. ``on_delete``/``on_update``: the referential action as written
    upper-case (``CASCADE``, ``SET NULL``...), None when not given. ``match``: None unless given."""

    name: str
    columns: tuple[str, ...]
    ref_table: TableId
    ref_columns: tuple[str, ...]
    on_delete: str | None = None
    on_update: str | None = None
    match: str | None = None
    state: ConstraintState | None = None  # Oracle constraint state (None: the default)


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    """A CHECK constraint. ``column``: the column of a MariaDB column-level check (named after it),
    None for table-level checks. ``enforced``: False for NOT ENFORCED (MySQL)."""

    name: str
    expression: str
    enforced: bool = True
    column: str | None = None
    state: ConstraintState | None = None  # Oracle constraint state (None: the default)


@dataclasses.dataclass(frozen=True, slots=True)
class Partitioning:
    """A summary of PARTITION BY: ``method`` (RANGE, LIST, HASH, KEY, RANGE COLUMNS, LINEAR HASH,
    SYSTEM_TIME...), ``expression`` (the expression or column list text, may be None), ``count``
    (PARTITIONS n, None when not given), partition ``names`` in order (``()`` when not listed),
    ``subpartitioning`` text or None."""

    method: str
    expression: str | None = None
    count: int | None = None
    names: tuple[str, ...] = ()
    subpartitioning: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Period:
    """A MariaDB period (KB "Application-Time Periods", "System-Versioned Tables"): ``name``
    (``SYSTEM_TIME`` for the system-time period) over the ``start`` and ``end`` columns."""

    name: str
    start: str
    end: str

    @property
    def system(self) -> bool:
        return self.name.upper() == "SYSTEM_TIME"


@dataclasses.dataclass(frozen=True, slots=True)
class Sequence:
    """A MariaDB sequence's settings (KB "CREATE SEQUENCE"), as SHOW CREATE SEQUENCE prints them.
    To the server a sequence is a table with eight fixed columns (TABLE_TYPE ``SEQUENCE``)."""

    start: int = 1
    minvalue: int = 1
    maxvalue: int = 9223372036854775806
    increment: int = 1
    cache: int = 1000
    cycle: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """One version of a table. Every field is a value; build a new version with :meth:`edit`.

    ``primary_key``: None when the table has none. ``unique_keys``/``indexes``: in the server's
    order (``indexes`` holds INDEX, FULLTEXT and SPATIAL keys); :meth:`keys` gives all of them.
    ``charset``/``collation``: table defaults (None for tables not built by a command and in a
    dialect without them, Oracle: ``DialectRules.table_charset``). ``engine``: None when
    unknown or the dialect has no storage engines (``DialectRules.table_engine``).
    ``comment``: None when not given. ``options``: the other table options as (UPPER-CASE name,
    value text) pairs in first-given order. ``partitioning``: None when not partitioned.
    ``system_versioning``: WITH SYSTEM VERSIONING (MariaDB).
    ``periods``: MariaDB periods in definition order (application-time ones and SYSTEM_TIME).
    ``sequence``: the settings of a MariaDB sequence, None for other tables.
    """

    id: TableId
    columns: tuple[Column, ...] = ()
    primary_key: Index | None = None
    unique_keys: tuple[Index, ...] = ()
    indexes: tuple[Index, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()
    checks: tuple[Check, ...] = ()
    charset: str | None = None
    collation: str | None = None
    engine: str | None = None
    comment: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    partitioning: Partitioning | None = None
    temporary: bool = False
    system_versioning: bool = False
    periods: tuple[Period, ...] = ()
    sequence: Sequence | None = None

    @property
    def database(self) -> str | None:
        return self.id.database

    @property
    def name(self) -> str:
        return self.id.name

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def column(self, name: str) -> Column | None:
        """The column called ``name`` (case-insensitive), or None."""
        k = column_key(name)
        for c in self.columns:
            if column_key(c.name) == k:
                return c
        return None

    def index(self, name: str) -> Index | None:
        """The key called ``name`` (case-insensitive; ``PRIMARY`` is the primary key), or None."""
        k = column_key(name)
        for i in self.keys():
            if column_key(i.name) == k:
                return i
        return None

    def option(self, name: str) -> str | None:
        n = name.upper()
        for k, v in self.options:
            if k == n:
                return v
        return None

    def keys(self) -> tuple[Index, ...]:
        """Every key in the order SHOW CREATE TABLE lists them: the primary key, the unique keys,
        then the other keys (the editor keeps each group in the server's order, see
        :meth:`TableEditor.build`)."""
        return ((self.primary_key,) if self.primary_key else ()) + self.unique_keys + self.indexes

    def edit(self) -> TableEditor:
        return TableEditor(self)

    def replace(self, **changes) -> Table:
        return dataclasses.replace(self, **changes)


class TableEditor:
    """A short-lived, single-use builder of the next version of a :class:`Table`.

    Column names are matched case-insensitively. Every method raises DdlSemanticError when the
    statement could not be applied on the server either (unknown column, duplicate name...).
    :meth:`build` renumbers positions and applies the table-wide invariants (primary key columns
    are NOT NULL and lose an implied DEFAULT NULL).
    """

    def __init__(self, table: Table):
        self._t = table
        self.id = table.id
        self.columns: list[Column] = list(table.columns)
        self.primary_key: Index | None = table.primary_key
        self.unique_keys: list[Index] = list(table.unique_keys)
        self.indexes: list[Index] = list(table.indexes)
        self.foreign_keys: list[ForeignKey] = list(table.foreign_keys)
        self.checks: list[Check] = list(table.checks)
        self.fields: dict[str, object] = {}
        self._resort = False
        self._key_order: KeyOrder = MARIADB_KEY_ORDER

    # ---------------------------------------------------------------- columns
    def _find(self, name: str) -> int:
        k = column_key(name)
        for i, c in enumerate(self.columns):
            if column_key(c.name) == k:
                return i
        return -1

    def has_column(self, name: str) -> bool:
        return self._find(name) >= 0

    def column(self, name: str) -> Column:
        i = self._find(name)
        if i < 0:
            raise DdlSemanticError(f"Unknown column '{name}' in '{self.id.name}'")
        return self.columns[i]

    def _insert_at(self, col: Column, first: bool, after: str | None) -> None:
        if first:
            self.columns.insert(0, col)
        elif after is not None:
            j = self._find(after)
            if j < 0:
                raise DdlSemanticError(f"Unknown column '{after}' in '{self.id.name}'")
            self.columns.insert(j + 1, col)
        else:
            # after the last shown column: MariaDB's hidden row_start/row_end stay last (10.11:
            # ADD COLUMN on a versioned table puts the column before them in the row image)
            i = len(self.columns)
            while i > 0 and self.columns[i - 1].hidden:
                i -= 1
            self.columns.insert(i, col)

    def add_column(self, col: Column, *, first: bool = False, after: str | None = None) -> TableEditor:
        if self._find(col.name) >= 0:
            raise DdlSemanticError(f"Duplicate column name '{col.name}'")
        self._insert_at(col, first, after)
        return self

    def replace_column(self, old_name: str, col: Column, *, first: bool = False,
                       after: str | None = None) -> TableEditor:
        """CHANGE/MODIFY: ``col`` replaces the whole definition of ``old_name`` (and may rename
        it, which also renames it in keys and foreign keys); FIRST/AFTER move it."""
        i = self._find(old_name)
        if i < 0:
            raise DdlSemanticError(f"Unknown column '{old_name}' in '{self.id.name}'")
        j = self._find(col.name)
        if j >= 0 and j != i:
            raise DdlSemanticError(f"Duplicate column name '{col.name}'")
        old = self.columns[i]
        # a column-level CHECK is part of the definition being replaced
        self.checks = [c for c in self.checks if c.column is None or column_key(c.column) != column_key(old_name)]
        if first or after is not None:
            del self.columns[i]
            if after is not None and column_key(after) == column_key(old_name):
                raise DdlSemanticError(f"Unknown column '{after}' in '{self.id.name}'")
            self._insert_at(col, first, after)
        else:
            self.columns[i] = col
        if old.name != col.name:
            self._rename_refs(old.name, col.name)
        return self

    def rename_column(self, old_name: str, new_name: str) -> TableEditor:
        col = self.column(old_name)
        keep = [c for c in self.checks if c.column is not None and column_key(c.column) == column_key(old_name)]
        self.replace_column(old_name, col.replace(name=new_name))
        self.checks += [dataclasses.replace(c, column=new_name,
                                            expression=rename_in_expression(c.expression, old_name, new_name))
                        for c in keep]
        return self

    def drop_column(self, name: str, *, keep_keys: bool = False) -> TableEditor:
        """Drop a column; it is also removed from every key, and a key left with no parts is
        dropped (MySQL manual 13.1.9, "ALTER TABLE ... DROP"). ``keep_keys``: leave the keys and
        checks alone (the statement adds a column of that name again)."""
        i = self._find(name)
        if i < 0:
            raise DdlSemanticError(f"Can't DROP COLUMN '{name}'; check that it exists")
        del self.columns[i]
        if keep_keys:
            return self
        k = column_key(name)

        def strip(ix: Index | None) -> Index | None:
            if ix is None:
                return None
            parts = tuple(p for p in ix.parts if p.column is None or column_key(p.column) != k)
            if len(parts) == len(ix.parts):
                return ix
            return dataclasses.replace(ix, parts=parts) if parts else None
        self.primary_key = strip(self.primary_key)
        self.unique_keys = [x for x in map(strip, self.unique_keys) if x is not None]
        self.indexes = [x for x in map(strip, self.indexes) if x is not None]
        self.checks = [c for c in self.checks if c.column is None or column_key(c.column) != k]
        return self

    def move_column(self, name: str, *, first: bool = False, after: str | None = None) -> TableEditor:
        """FIRST / AFTER for an existing column (definition, keys and checks unchanged)."""
        i = self._find(name)
        if i < 0:
            raise DdlSemanticError(f"Unknown column '{name}' in '{self.id.name}'")
        if after is not None and column_key(after) == column_key(name):
            raise DdlSemanticError(f"Unknown column '{after}' in '{self.id.name}'")
        col = self.columns.pop(i)
        self._insert_at(col, first, after)
        return self

    def set_column(self, name: str, **changes) -> TableEditor:
        """Change fields of one column in place (ALTER COLUMN SET DEFAULT, visibility...)."""
        i = self._find(name)
        if i < 0:
            raise DdlSemanticError(f"Unknown column '{name}' in '{self.id.name}'")
        self.columns[i] = self.columns[i].replace(**changes)
        return self

    def _rename_refs(self, old: str, new: str) -> None:
        k = column_key(old)

        def ren(ix: Index | None) -> Index | None:
            if ix is None:
                return None
            return dataclasses.replace(ix, parts=tuple(
                dataclasses.replace(p, column=new) if p.column and column_key(p.column) == k else p
                for p in ix.parts))
        self.primary_key = ren(self.primary_key)
        self.unique_keys = [ren(x) for x in self.unique_keys]
        self.indexes = [ren(x) for x in self.indexes]
        self.foreign_keys = [dataclasses.replace(fk, columns=tuple(
            new if column_key(c) == k else c for c in fk.columns)) for fk in self.foreign_keys]
        self.checks = [dataclasses.replace(c, column=new if c.column and column_key(c.column) == k else c.column,
                                           expression=rename_in_expression(c.expression, old, new))
                       for c in self.checks]
        self.columns = [c.replace(generated=dataclasses.replace(
            c.generated, expression=rename_in_expression(c.generated.expression, old, new)))
            if c.generated is not None else c for c in self.columns]

    # ---------------------------------------------------------------- keys
    def all_keys(self) -> list[Index]:
        return ([self.primary_key] if self.primary_key else []) + self.unique_keys + self.indexes

    def has_index(self, name: str) -> bool:
        k = column_key(name)
        return any(column_key(i.name) == k for i in self.all_keys())

    def unique_index_name(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``... the first free name (PRIMARY is never free)."""
        name, n = base, 2
        while self.has_index(name) or column_key(name) == "primary":
            name, n = f"{base}_{n}", n + 1
        return name

    def resort_keys(self, order: KeyOrder | None = None) -> TableEditor:
        """Sort the keys again at build, in ``order`` (the dialect's, ``DialectRules.key_order``;
        without it the order given last, by default MariaDB's): a new table (CREATE TABLE, LIKE)
        or an ALTER TABLE that re-creates the definition (see model/key_order.py)."""
        self._resort = True
        if order is not None:
            self._key_order = order
        return self

    def key_order(self, order: KeyOrder) -> TableEditor:
        """Use ``order`` if the keys are sorted at build (without asking for the sort)."""
        self._key_order = order
        return self

    @property
    def keys_added(self) -> bool:
        """A key was added through this editor (so the keys are sorted at build)."""
        return self._resort

    def add_index(self, index: Index) -> TableEditor:
        self._resort = True
        for p in index.parts:
            if p.column is not None and self._find(p.column) < 0:
                raise DdlSemanticError(f"Key column '{p.column}' doesn't exist in table")
        if index.kind is IndexKind.PRIMARY:
            if self.primary_key is not None:
                raise DdlSemanticError("Multiple primary key defined")
            self.primary_key = dataclasses.replace(index, name="PRIMARY")
            return self
        if self.has_index(index.name):
            raise DdlSemanticError(f"Duplicate key name '{index.name}'")
        if index.kind is IndexKind.UNIQUE:
            self.unique_keys.append(index)
        else:
            self.indexes.append(index)
        return self

    def drop_index(self, name: str) -> TableEditor:
        k = column_key(name)
        if k == "primary":
            return self.drop_primary_key()
        for lst in (self.unique_keys, self.indexes):
            for i, ix in enumerate(lst):
                if column_key(ix.name) == k:
                    del lst[i]
                    return self
        raise DdlSemanticError(f"Can't DROP INDEX `{name}`; check that it exists")

    def drop_primary_key(self) -> TableEditor:
        if self.primary_key is None:
            raise DdlSemanticError("Can't DROP INDEX `PRIMARY`; check that it exists")
        self.primary_key = None
        return self

    def rename_index(self, old: str, new: str) -> TableEditor:
        k = column_key(old)
        if self.has_index(new) and column_key(new) != k:
            raise DdlSemanticError(f"Duplicate key name '{new}'")
        for lst in (self.unique_keys, self.indexes):
            for i, ix in enumerate(lst):
                if column_key(ix.name) == k:
                    lst[i] = dataclasses.replace(ix, name=new)
                    return self
        raise DdlSemanticError(f"Key '{old}' doesn't exist in table '{self.id.name}'")

    # ---------------------------------------------------------------- constraints
    def add_foreign_key(self, fk: ForeignKey) -> TableEditor:
        if any(column_key(f.name) == column_key(fk.name) for f in self.foreign_keys):
            raise DdlSemanticError(f"Duplicate foreign key constraint name '{fk.name}'")
        for c in fk.columns:
            if self._find(c) < 0:
                raise DdlSemanticError(f"Key column '{c}' doesn't exist in table")
        self.foreign_keys.append(fk)
        return self

    def drop_foreign_key(self, name: str) -> TableEditor:
        k = column_key(name)
        for i, fk in enumerate(self.foreign_keys):
            if column_key(fk.name) == k:
                del self.foreign_keys[i]
                return self
        raise DdlSemanticError(f"Can't DROP FOREIGN KEY `{name}`; check that it exists")

    def add_check(self, check: Check) -> TableEditor:
        if any(column_key(c.name) == column_key(check.name) for c in self.checks):
            raise DdlSemanticError(f"Duplicate CHECK constraint name '{check.name}'")
        self.checks.append(check)
        return self

    def drop_check(self, name: str) -> TableEditor:
        k = column_key(name)
        for i, c in enumerate(self.checks):
            if column_key(c.name) == k:
                del self.checks[i]
                return self
        raise DdlSemanticError(f"Can't DROP CONSTRAINT `{name}`; check that it exists")

    # ---------------------------------------------------------------- table fields
    def rename(self, new_id: TableId) -> TableEditor:
        self.id = new_id
        return self

    def set(self, **fields) -> TableEditor:
        """Set table fields: charset, collation, engine, comment, partitioning, temporary."""
        bad = set(fields) - {"charset", "collation", "engine", "comment", "partitioning", "temporary",
                             "options", "system_versioning", "periods", "sequence"}
        if bad:
            raise TypeError(f"not settable through set(): {sorted(bad)}")
        self.fields.update(fields)
        return self

    def get(self, name: str):
        """A table field as it will be built (set() so far, else the old version's)."""
        return self.fields[name] if name in self.fields else getattr(self._t, name)

    def set_option(self, name: str, value: str | None) -> TableEditor:
        """Set (or with ``value=None`` remove) one of the other table options."""
        n = name.upper()
        opts = list(self.fields.get("options", self._t.options))
        opts = [(k, v) for k, v in opts if k != n] if value is None else opts
        if value is not None:
            for i, (k, _) in enumerate(opts):
                if k == n:
                    opts[i] = (n, value)
                    break
            else:
                opts.append((n, value))
        self.fields["options"] = tuple(opts)
        return self

    def _sorted_keys(self) -> tuple[list[Index], list[Index]]:
        """The keys in the server's order (model/key_order.py) when something asked for the sort
        (a key added, :meth:`resort_keys`), else as they were."""
        if not self._resort:
            return self.unique_keys, self.indexes
        return self._key_order.sort(self.unique_keys, self.indexes, self.columns)

    def build(self) -> Table:
        self.unique_keys, self.indexes = self._sorted_keys()
        pk_cols = {column_key(c) for c in (self.primary_key.columns if self.primary_key else ())}
        cols = []
        for pos, c in enumerate(self.columns, 1):
            if column_key(c.name) in pk_cols and c.nullable:
                # PRIMARY KEY columns are NOT NULL; an implied DEFAULT NULL goes with it.
                c = c.replace(nullable=False, default=None if c.default is not None
                              and c.default.kind is DefaultKind.NULL else c.default)
            if c.position != pos:
                c = c.replace(position=pos)
            cols.append(c)
        return dataclasses.replace(
            self._t, id=self.id, columns=tuple(cols), primary_key=self.primary_key,
            unique_keys=tuple(self.unique_keys), indexes=tuple(self.indexes),
            foreign_keys=tuple(self.foreign_keys), checks=tuple(self.checks), **self.fields)
