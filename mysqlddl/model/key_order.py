"""The order a server keeps a table's keys in, and when an ALTER TABLE makes it sort them again.

Both servers sort the keys whenever they prepare a table definition (``sort_keys()``, the
comparator ``mysql_prepare_create_table()`` sorts ``key_info_buffer`` with, in ``sql/sql_table.cc``
of either server); ties keep the order the keys were given in (the comparator's last test, on
``usable_key_parts``, which holds the original key position there). SHOW CREATE TABLE lists the
keys in that order. Its tests, most important first:

1. unique keys (PRIMARY and UNIQUE) before the others;
2. among unique keys, those with no nullable part first (``HA_NULL_PART_KEY``), then the PRIMARY
   KEY first among the rest, then keys with no prefix part first (``HA_KEY_HAS_PART_KEY_SEG``);
3. FULLTEXT keys last (``HA_FULLTEXT``);

and per dialect, a row of :class:`KeyOrder`:

- MySQL 5.7+ puts keys with a virtual generated part after the others that tie with them
  (``HA_VIRTUAL_GEN_KEY``, the test after FULLTEXT; a MySQL 8.0.13+ functional key part is a
  hidden virtual generated column, manual 15.1.15 "CREATE INDEX", Functional Key Parts).
- MariaDB 10.4+ puts its long unique (``USING HASH``) keys after every other unique key (they
  are tested before the NULL-ability; KB "CREATE TABLE", long unique; checked on 10.11.19).

The two servers differ in *when* an ALTER TABLE applies that sort (:meth:`KeyOrder.resorts`):

- MySQL re-creates the definition for every ALTER TABLE except a bare RENAME TO and
  ENABLE/DISABLE KEYS, which take the short path of ``is_simple_rename_or_index_change()`` in
  ``sql/sql_table.cc`` (8.0/8.4); every other statement goes through
  ``mysql_prepare_alter_table()`` and ``mysql_prepare_create_table()``, so the keys are sorted
  again by the columns as the statement leaves them, even for metadata-only changes such as
  RENAME INDEX or ALTER COLUMN ... SET DEFAULT (the manual's 17.12.1 "Online DDL Operations"
  tables describe how the engine applies a change, not the definition the server writes).
  Not checked on a MySQL server: there is none in the lab.
- MariaDB 10.11 (checked on 10.11.19, see tests/model/test_model_vs_mariadb_key_order.py) sorts
  the keys again when the statement adds a key, and otherwise only when the key that heads the
  list stops being the table's clustered-key candidate (the PRIMARY KEY, or a unique key of
  NOT NULL, whole-column parts that InnoDB would cluster on) because a part became nullable or
  a dropped column took the key with it. Making a column NOT NULL, changing prefixes, FORCE,
  ALGORITHM=COPY, DROP KEY / DROP PRIMARY KEY and RENAME INDEX keep the order as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .column import Column, GeneratedKind
from .ids import column_key

if TYPE_CHECKING:  # (table.py sorts with this module: the kinds are compared by their str value)
    from .table import Index, Table

# IndexKind values (a str enum in table.py)
_PRIMARY, _UNIQUE, _FULLTEXT = "primary", "unique", "fulltext"


def _part_columns(ix: Index, columns: Mapping[str, Column]) -> list[Column | None]:
    return [columns.get(column_key(p.column)) if p.column is not None else None for p in ix.parts]


def has_null_part(ix: Index, columns: Mapping[str, Column]) -> bool:
    """``HA_NULL_PART_KEY``: some part may be NULL (a functional part counts as nullable: its
    hidden column is)."""
    return any(c is None or c.nullable is not False for c in _part_columns(ix, columns))


def has_prefix_part(ix: Index) -> bool:
    """``HA_KEY_HAS_PART_KEY_SEG``: some part indexes a prefix of its column."""
    return any(p.length is not None for p in ix.parts)


def has_virtual_part(ix: Index, columns: Mapping[str, Column]) -> bool:
    """``HA_VIRTUAL_GEN_KEY``: some part is a virtual generated column (or an expression)."""
    return any(p.column is None or (c is not None and c.generated is not None
                                    and c.generated.kind is GeneratedKind.VIRTUAL)
               for p, c in zip(ix.parts, _part_columns(ix, columns), strict=True))


def is_long_unique(ix: Index) -> bool:
    return ix.kind == _UNIQUE and ix.using == "HASH"


@dataclasses.dataclass(frozen=True, slots=True)
class KeyOrder:
    """One dialect's key order (see the module docstring for the evidence of each field)."""

    name: str
    # MariaDB: long unique (HASH) keys after every other unique key.
    long_unique_last: bool = False
    # MySQL 5.7+: keys with a virtual generated part after the keys they otherwise tie with.
    virtual_keys_last: bool = False
    # MySQL: every ALTER TABLE but a bare RENAME re-creates the definition and sorts the keys.
    alter_always_resorts: bool = True
    # MariaDB: without a new key, sort again only when the head key loses its clustered standing.
    resort_when_head_key_lost: bool = False

    def _tail(self, ix: Index, columns: Mapping[str, Column]) -> tuple[int, int]:
        return (int(ix.kind == _FULLTEXT),
                int(self.virtual_keys_last and has_virtual_part(ix, columns)))

    def unique_rank(self, ix: Index, columns: Mapping[str, Column]) -> tuple[int, ...]:
        return ((int(self.long_unique_last and is_long_unique(ix)), int(has_null_part(ix, columns)),
                 int(has_prefix_part(ix))) + self._tail(ix, columns))

    def sort(self, unique_keys: Iterable[Index], indexes: Iterable[Index],
             columns: Iterable[Column]) -> tuple[list[Index], list[Index]]:
        """The unique keys and the other keys in the server's order (stable on the given one;
        the PRIMARY KEY is held apart by the model and always comes first)."""
        cols = {column_key(c.name): c for c in columns}
        return (sorted(unique_keys, key=lambda ix: self.unique_rank(ix, cols)),
                sorted(indexes, key=lambda ix: self._tail(ix, cols)))

    def clustered_candidate(self, ix: Index, columns: Mapping[str, Column]) -> bool:
        """The key InnoDB clusters on when it heads the list: the PRIMARY KEY, else a unique key
        of NOT NULL whole-column parts (MySQL manual 17.6.2.1 "Clustered and Secondary
        Indexes": "the first UNIQUE index with all key columns defined as NOT NULL")."""
        if ix.kind == _PRIMARY:
            return True
        return (ix.kind == _UNIQUE and not is_long_unique(ix)
                and not has_null_part(ix, columns) and not has_prefix_part(ix))

    def resorts(self, old: Table, new_keys: Iterable[Index], new_columns: Iterable[Column], *,
                key_added: bool, rebuilt: bool) -> bool:
        """Whether an ALTER TABLE from ``old`` to the new keys and columns sorts the keys again.
        ``key_added``: the statement adds a key (a new PRIMARY/UNIQUE/plain key, or the index
        of a new FOREIGN KEY). ``rebuilt``: the statement is more than a bare RENAME TO."""
        if key_added or (self.alter_always_resorts and rebuilt):
            return True
        if not self.resort_when_head_key_lost:
            return False
        old_keys = old.keys()
        if not old_keys:
            return False
        head = old_keys[0]
        old_cols = {column_key(c.name): c for c in old.columns}
        if not self.clustered_candidate(head, old_cols):
            return False
        cols = {column_key(c.name): c for c in new_columns}
        now = next((ix for ix in new_keys if column_key(ix.name) == column_key(head.name)), None)
        if now is None:
            # gone: with a dropped column (sorted again), or by DROP KEY (kept; checked on 10.11.19)
            return any(column_key(c) not in cols for c in head.columns)
        return has_null_part(now, cols)


MYSQL_KEY_ORDER = KeyOrder(name="mysql", virtual_keys_last=True)
MARIADB_KEY_ORDER = KeyOrder(name="mariadb", long_unique_last=True, alter_always_resorts=False,
                             resort_when_head_key_lost=True)
# Oracle has no such sort; the model keeps the keys sorted as a MySQL-family CREATE TABLE would,
# and an ALTER TABLE leaves them in place unless it adds one (the behaviour before the dialects
# were told apart).
ORACLE_KEY_ORDER = KeyOrder(name="oracle", alter_always_resorts=False)
