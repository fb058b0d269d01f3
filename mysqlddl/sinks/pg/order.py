"""Row order in the target: the order InnoDB keeps a table's rows in, for the DDL that numbers them.

``ALTER TABLE t ADD COLUMN id INT AUTO_INCREMENT ...`` (or ``MODIFY id ... AUTO_INCREMENT``) on a
table holding rows gives them numbers in the order the table is read while it is rebuilt: its
clustered index (MariaDB ``row_merge_read_clustered_index``, or a table scan under
ALGORITHM=COPY): the primary key, else the first UNIQUE key whose columns are all NOT NULL and not
prefixes (MariaDB ``sort_keys`` puts it first), else InnoDB's hidden ``DB_ROW_ID``, the order rows
were inserted in (InnoDB manual "Clustered and Secondary Indexes"). The binlog carries only the
statement, so the target has to number its rows in that order itself.

A table without such a key (:func:`clustered_key` None) holds a hidden column :data:`ROW_COLUMN`
in the target: a number from the sink's sequence (``<state_schema>.mysqlddl_row_seq``), given to a
row when it is inserted and kept by updates, as DB_ROW_ID is. It is the order of the binlog, which
is the source's insertion order where transactions inserting into the table did not overlap (MySQL
manual "Replication and AUTO_INCREMENT": a replica applying the binlog numbers as this
sink does; an initial snapshot reads such a table in one scan, its clustered order, before the
binlog's rows). Rows whose number is unknown hold NULL (rows of a table that lost its key in an order
PostgreSQL cannot reproduce, or of a target from a sink version without the column).

A numbering whose order is unknown is refused (:func:`numbering_sql` raises in the target: the DDL
fails whole, under the sink's on_ddl_error and the pipeline's error strategy) rather than guessed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.alter_table import AlterTable, TableOptions
from ...model.table import Table
from .quote import qi, ql

if TYPE_CHECKING:  # (ddl.py builds its statements with this module)
    from .ddl import TargetColumn, TargetTable

ROW_COLUMN = "__mysqlddl_row"
SEQUENCE = "mysqlddl_row_seq"

# target value kinds whose order in PostgreSQL is the source's (numbers, dates and times); boolean
# (TINYINT(1) with tinyint1_boolean) is not: 2 becomes true. Strings are left out: MySQL orders them
# by their collation (PAD SPACE, case-insensitive...) where PostgreSQL's order differs
_ORDERED = ("int", "numeric", "float", "date", "timestamp", "timestamptz")


def clustered_key(table: Table):
    """The index InnoDB clusters ``table`` by (primary key, else the first UNIQUE key of NOT NULL
    columns without prefix parts), None for the hidden row id."""
    if table.primary_key:
        return table.primary_key
    for u in table.unique_keys:
        if u.parts and all(p.column and p.length is None and table.column(p.column) is not None
                           and not table.column(p.column).nullable for p in u.parts):
            return u
    return None


def has_row_column(tt: TargetTable) -> bool:
    return clustered_key(tt.source) is None


def sequence_sql(state_schema: str) -> str:
    return f"CREATE SEQUENCE IF NOT EXISTS {qi(state_schema)}.{qi(SEQUENCE)}"


def _next_number(state_schema: str) -> str:
    """The hidden column's default: the sequence's next number."""
    return f"nextval({ql(qi(state_schema) + '.' + qi(SEQUENCE))}::regclass)"


def row_column_sql(state_schema: str) -> str:
    """The hidden column's definition in a CREATE TABLE."""
    return f"{qi(ROW_COLUMN)} bigint DEFAULT {_next_number(state_schema)}"


def add_row_column(tt: TargetTable, state_schema: str, old: TargetTable, renamed: dict[str, str]) -> list[str]:
    """The hidden column added to a table that lost its key: its rows numbered in the order of
    the key it had (InnoDB rebuilds it reading that key) where PostgreSQL orders it the same,
    below every number to come; else NULL (unknown). New rows get the sequence's numbers."""
    q, c = tt.qualified, qi(ROW_COLUMN)
    out = [f"ALTER TABLE {q} ADD COLUMN IF NOT EXISTS {c} bigint"]
    order = _key_order(old, renamed)
    if order:
        # (numbers n - 2**62: below every number the sequence, which starts at 1, gives)
        out.append(f"UPDATE {q} t SET {c} = o.n - 4611686018427387904 FROM (SELECT ctid AS r, row_number() OVER "
                   f"(ORDER BY {order}) AS n FROM {q}) o WHERE t.ctid = o.r")
    out.append(f"ALTER TABLE {q} ALTER COLUMN {c} SET DEFAULT {_next_number(state_schema)}")
    return out


def drop_row_column(tt: TargetTable) -> list[str]:
    return [f"ALTER TABLE {tt.qualified} DROP COLUMN IF EXISTS {qi(ROW_COLUMN)}"]


def _key_order(tt: TargetTable, renamed: dict[str, str] | None = None) -> str | None:
    """ORDER BY of ``tt``'s clustered key in the target, None when there is none or PostgreSQL
    would order it differently (a string part, a part the mapping leaves out). ``renamed``: quoted
    old column name -> quoted new name, of the columns the ALTER being applied renamed."""
    ix = clustered_key(tt.source)
    if ix is None:
        return None
    parts = []
    for p in ix.parts:
        c = tt.column(p.column) if p.column else None
        if c is None or c.overridden or c.natural.kind not in _ORDERED or c.generated is not None:
            return None
        ref = qi(c.name)
        parts.append((renamed or {}).get(ref, ref) + (" DESC" if p.descending else ""))
    return ", ".join(parts)


def numbering_sql(old: TargetTable, col: TargetColumn, renamed: dict[str, str] | None = None, *,
                  added: bool = False, start: int = 1) -> str:
    """A statement giving the rows of ``old`` (the table before the ALTER, its target) whose
    ``col`` is NULL or 0 the AUTO_INCREMENT numbers MySQL gives them: in clustered-key order, a
    counter from 1 that a kept value at or above it moves past (as inserts of those rows in that
    order would: MODIFY keeps the values that are not 0, manual "ALTER TABLE Statement", "Adding an
    AUTO_INCREMENT column"; an added column is NULL in every row). Where the table holds rows and
    their order is unknown, it raises (the DDL fails whole). ``renamed``: quoted old column name ->
    quoted new name, of the columns the same ALTER renamed. ``added``: ``col`` is new (every row
    is numbered: one set-based UPDATE rather than a loop). ``start``: the first number (the
    ALTER's own ``AUTO_INCREMENT = n`` option, :func:`alter_starts`)."""
    q, c = old.qualified, qi(col.name)
    order = _key_order(old, renamed)
    check = ""
    if order is None and clustered_key(old.source) is None:
        order = qi(ROW_COLUMN)
        check = (f"IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = {ql(q)}::regclass AND attname = "
                 f"{ql(ROW_COLUMN)} AND NOT attisdropped) THEN IF EXISTS (SELECT 1 FROM {q}) THEN RAISE "
                 f"EXCEPTION USING MESSAGE = {ql(_unknown(old, col, 'the target keeps no insertion order for it'))}; "
                 "END IF; RETURN; END IF; "
                 f"IF EXISTS (SELECT 1 FROM {q} WHERE {qi(ROW_COLUMN)} IS NULL) THEN RAISE EXCEPTION USING MESSAGE = "
                 f"{ql(_unknown(old, col, 'some rows predate the order the target keeps'))}; END IF; ")
    elif order is None:
        check = (f"IF EXISTS (SELECT 1 FROM {q}) THEN RAISE EXCEPTION USING MESSAGE = "
                 f"{ql(_unknown(old, col, 'PostgreSQL does not order its key as MySQL does'))}; END IF; RETURN; ")
    if added and order:
        number = (f"UPDATE {q} t SET {c} = o.n FROM (SELECT ctid AS r, row_number() OVER (ORDER BY {order}) "
                  f"+ {start - 1} AS n FROM {q}) o WHERE t.ctid = o.r")
        return f"DO $mysqlddl$ BEGIN {check}EXECUTE {ql(number)}; END $mysqlddl$"
    loop = (f"FOR r IN EXECUTE {ql(f'SELECT ctid AS id, {c} AS v FROM {q} ORDER BY {order}')} LOOP "
            "IF r.v IS NULL OR r.v = 0 THEN "
            f"EXECUTE {ql(f'UPDATE {q} SET {c} = $1 WHERE ctid = $2')} USING nxt, r.id; nxt := nxt + 1; "
            "ELSIF r.v >= nxt THEN nxt := r.v + 1; END IF; END LOOP; ") if order else ""
    body = f"DECLARE r record; nxt numeric := {start}; BEGIN {check}{loop}END"
    return f"DO $mysqlddl$ {body} $mysqlddl$"


def alter_starts(rec) -> dict[tuple[str, str], int]:
    """Per (database, table) of the ALTERs of the history record ``rec``: the ``AUTO_INCREMENT = n``
    table option they set (the model keeps no such option: it is the counter's state, not the
    table's shape), where the numbering of :func:`numbering_sql` starts."""
    out = {}
    for cmd in rec.commands:
        if isinstance(cmd, AlterTable):
            tid = cmd.table.qualified(rec.default_db)
            for op in cmd.operations:
                if isinstance(op, TableOptions):
                    for k, v in op.options:
                        if k == "AUTO_INCREMENT" and v.isdigit():
                            out[(tid.database, tid.name)] = max(int(v), 1)
    return out


def _unknown(tt: TargetTable, col: TargetColumn, why: str) -> str:
    return (f"cannot give the rows of {tt.source_name} the AUTO_INCREMENT values of {col.source.name} that "
            "MySQL gave them: MySQL numbers them in the order of "
            f"the table's clustered index, and {why}; the target is left as it was (load the table again "
            "from a snapshot taken after this DDL)")


__all__ = ["ROW_COLUMN", "SEQUENCE", "add_row_column", "alter_starts", "clustered_key", "drop_row_column",
           "has_row_column", "numbering_sql", "row_column_sql", "sequence_sql"]
