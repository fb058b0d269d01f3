"""The DML statement builder: row changes of one target table -> set-based statements over a
staging table (filled by COPY), or one statement per row where set-based would be wrong.

Set-based (one statement for a whole run of same-kind changes, after ``COPY`` into a temporary
staging table whose columns have the type map's natural types)::

    insert   INSERT INTO t (c..) SELECT expr(s.c).. FROM s   (or COPY t straight: copies_direct)
    update   UPDATE t SET c = expr(s.c).. FROM s WHERE t.k = expr(s.k__0)..   (key unchanged)
    delete   DELETE FROM t USING s WHERE t.k = expr(s.k__0)..

``expr`` is the column's mapping: the transform (``%d`` -> the staged value) and a cast to an
overridden type. A run of updates is set-based only when no change in it moves a key (primary or
unique: a set-based UPDATE checks each row against the rows not yet updated, so a run that moves a
value from one row to another can fail where the source's row-by-row order did not) and no key
repeats in it (an UPDATE ... FROM updates a row once, PostgreSQL manual "UPDATE": "only one of
the join rows will be used"). Everything else, and every change of a table without a key, goes row
by row; a keyless table's row is found by every column the image holds (floats, JSON, BLOBs and
NULLs included: each compared with the value as the INSERT stored it, jsonb and numeric by their
text, where = is looser than the value) and changed through its ``ctid``, one row only (the first
that matches: equal rows are legal without a key), as the source changed one row.
"""

from __future__ import annotations

from .ddl import TargetColumn, TargetTable, qi
from .order import has_row_column

# The session's planner settings (manual 20.7.1 "Planner Method Configuration"): a set-based UPDATE
# or DELETE joins a staged run (up to the sink's run size) to the target by its key, where a nested
# loop over the key's index reads only the rows it changes. The planner, without statistics for a
# target filled in the same transaction, otherwise picks a hash join that reads and hashes the whole
# target for every run (measured: 30k updates by key on a 500k-row table, 744 ms hashed, 333 ms by
# the index). The sink's connection runs no other joins.
SESSION_SETTINGS = ("SET enable_hashjoin = off", "SET enable_mergejoin = off")


def staging_name(n: int) -> str:
    return f"mysqlddl_stage_{n}"


def staging_sql(name: str, cols: list[tuple[str, str]]) -> str:
    """A temporary staging table, emptied at each commit (manual "CREATE TABLE": ON COMMIT DELETE ROWS)."""
    return (f"CREATE TEMP TABLE IF NOT EXISTS {qi(name)} (" + ", ".join(f"{qi(n)} {t}" for n, t in cols)
            + ") ON COMMIT DELETE ROWS")


def key_ref(i: int) -> str:
    return f"k__{i}"


def insert_sql(tt: TargetTable, cols: list[TargetColumn], stage: str) -> str:
    names = ", ".join(qi(c.name) for c in cols)
    exprs = ", ".join(c.value_expr(f"s.{qi(c.name)}") for c in cols)
    # a table keeping its insertion order (.order.ROW_COLUMN, numbered by its DEFAULT) gets the
    # rows in the order COPY staged them: a fresh temporary heap holds them in that order and
    # the ORDER BY keeps the SELECT from being pulled up, so the defaults are computed after it
    order = " ORDER BY s.ctid" if has_row_column(tt) else ""
    return f"INSERT INTO {tt.qualified} ({names}) SELECT {exprs} FROM {qi(stage)} s{order}"


def copies_direct(cols: list[TargetColumn]) -> bool:
    """Whether a run of inserts can COPY straight into the target table: every column takes the
    staged value as it is (no transform, no overridden type), so ``COPY t (c..)`` parses each value
    with the same type input as the staging table's column would and stores what ``INSERT ...
    SELECT`` from it would store (manual "COPY": column defaults and generated columns for the
    columns not listed, as INSERT; row triggers fire), without writing and reading the rows twice."""
    return all(not c.overridden and c.value_expr("v") == "v" for c in cols)


def update_set_sql(tt: TargetTable, cols: list[TargetColumn], stage: str) -> str:
    sets = ", ".join(f"{qi(c.name)} = {c.value_expr(f's.{qi(c.name)}')}" for c in cols)
    where = " AND ".join(f"t.{qi(k.name)} = {k.value_expr(f's.{qi(key_ref(i))}')}" for i, k in enumerate(tt.key))
    return f"UPDATE {tt.qualified} t SET {sets} FROM {qi(stage)} s WHERE {where}"


def delete_set_sql(tt: TargetTable, stage: str) -> str:
    where = " AND ".join(f"t.{qi(k.name)} = {k.value_expr(f's.{qi(key_ref(i))}')}" for i, k in enumerate(tt.key))
    return f"DELETE FROM {tt.qualified} t USING {qi(stage)} s WHERE {where}"


def _param(c: TargetColumn) -> str:
    return c.value_expr(f"%s::{c.natural.sql}")


def match_columns(tt: TargetTable, present: list[TargetColumn]) -> list[TargetColumn]:
    """The columns a row is found by: the key, else every column the image holds. None is left
    out: a row that differs from another only in a left-out column (a float, a JSON document)
    would let the change land on the other one."""
    if tt.key:
        return list(tt.key)
    return list(present)


def where_row_sql(tt: TargetTable, match: list[TargetColumn]) -> str:
    """The WHERE of a row-by-row change: ``ctid`` of the first row matching ``match`` (keyless
    tables may hold equal rows: one of them is the one the source changed)."""
    if tt.key:
        return " AND ".join(f"{qi(c.name)} = {_param(c)}" for c in match)
    cond = " AND ".join(_same(c) for c in match)
    return f"ctid = (SELECT ctid FROM {tt.qualified} WHERE {cond} LIMIT 1)"


# value kinds whose = holds for values that are not the same: jsonb compares numbers by value
# ('[1.0]' = '[1]', manual 8.14.4 "jsonb Containment and Existence"), numeric too (1.0 = 1.00 in an
# unconstrained numeric); their text forms differ exactly where the stored values do
_BY_TEXT = ("jsonb", "numeric")


def _same(c: TargetColumn) -> str:
    """The condition: column ``c`` holds the value the next parameter gives, NULL matching NULL
    (``IS NOT DISTINCT FROM``), compared through the same expression the INSERT stored it with."""
    if c.natural.kind in _BY_TEXT and not c.overridden:
        return f"{qi(c.name)}::text IS NOT DISTINCT FROM ({_param(c)})::text"
    return f"{qi(c.name)} IS NOT DISTINCT FROM {_param(c)}"


def update_row_sql(tt: TargetTable, cols: list[TargetColumn], match: list[TargetColumn]) -> str:
    sets = ", ".join(f"{qi(c.name)} = {_param(c)}" for c in cols)
    return f"UPDATE {tt.qualified} SET {sets} WHERE {where_row_sql(tt, match)}"


def delete_row_sql(tt: TargetTable, match: list[TargetColumn]) -> str:
    return f"DELETE FROM {tt.qualified} WHERE {where_row_sql(tt, match)}"


def unique_columns(tt: TargetTable) -> set[str]:
    t = tt.source
    names = set()
    for ix in ([t.primary_key] if t.primary_key else []) + list(t.unique_keys):
        for p in ix.parts:
            c = tt.column(p.column) if p.column else None
            if c is not None:
                names.add(c.name)
    return names


__all__ = ["SESSION_SETTINGS", "copies_direct", "delete_row_sql", "delete_set_sql", "insert_sql", "key_ref",
           "match_columns", "staging_name", "staging_sql", "unique_columns", "update_row_sql", "update_set_sql",
           "where_row_sql"]
