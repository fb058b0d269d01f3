"""ALTER TABLE's clauses on the table as a whole: periods and system versioning (MariaDB), RENAME
TO, CONVERT TO / DEFAULT CHARACTER SET, table options and partitioning.

:func:`add_period` and :func:`add_system_versioning` are shared with CREATE TABLE.
"""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError
from ..model.column import Column, DefaultKind
from ..model.ids import TableId, column_key
from ..model.table import Partitioning, Period, TableEditor
from .alter_base import AlterOperation, _op
from .base import _canonical_engine, _split_options


@_op
class AddPeriod(AlterOperation):
    """ADD PERIOD FOR name (start, end) [IF NOT EXISTS] (MariaDB 10.4 application-time periods,
    KB "Application-Time Periods"; ``SYSTEM_TIME`` for the system-time period). The columns
    become NOT NULL (10.11 checked); the server reports the period as a CHECK constraint named
    after it in TABLE_CONSTRAINTS (see render)."""

    period: Period
    if_not_exists: bool = False

    def apply_to(self, ed, st):
        periods = ed.get("periods")
        if any(column_key(p.name) == column_key(self.period.name) or (p.system and self.period.system)
               for p in periods):
            if self.if_not_exists:
                return
            raise DdlSemanticError(f"Duplicate period '{self.period.name}'")
        add_period(ed, self.period)


def add_period(ed: TableEditor, period: Period) -> None:
    """Record a period and make its columns NOT NULL (unknown columns fail at validation)."""
    if not period.system:
        for n in (period.start, period.end):
            if ed.has_column(n):
                c = ed.column(n)
                ed.set_column(n, nullable=False,
                              default=None if c.default is not None and c.default.kind is DefaultKind.NULL
                              else c.default)
    ed.set(periods=ed.get("periods") + (period,))


@_op
class DropPeriod(AlterOperation):
    """DROP PERIOD [IF EXISTS] FOR name (the columns stay, NOT NULL)."""

    name: str
    if_exists: bool = False

    def apply_to(self, ed, st):
        periods = ed.get("periods")
        keep = tuple(p for p in periods if column_key(p.name) != column_key(self.name))
        if len(keep) == len(periods):
            if self.if_exists:
                return
            raise DdlSemanticError(f"Period `{self.name}` is not found in table")
        ed.set(periods=keep)


@_op
class AddSystemVersioning(AlterOperation):
    """ADD SYSTEM VERSIONING (MariaDB KB "System-Versioned Tables"): without ROW START/END
    columns of its own the table gets the hidden ``row_start``/``row_end`` TIMESTAMP(6)
    columns, last in the row image."""

    def apply_to(self, ed, st):
        if ed.get("system_versioning"):
            raise DdlSemanticError(f"Table `{ed.id.name}` is already system-versioned")
        add_system_versioning(ed)


def add_system_versioning(ed: TableEditor) -> None:
    ed.set(system_versioning=True)
    if any(c.row_period is not None for c in ed.columns):
        return
    for n, kind in (("row_start", "start"), ("row_end", "end")):
        # (the server's implicit columns: TIMESTAMP(6) GENERATED ALWAYS AS ROW START/END INVISIBLE,
        # hidden from information_schema; mariadb-binlog shows them as the last two row fields)
        ed.columns.append(Column(n, "timestamp", fsp=6, nullable=False, row_period=kind, hidden=True,
                                 visible=False, declared_type="TIMESTAMP(6)"))


@_op
class DropSystemVersioning(AlterOperation):
    """DROP SYSTEM VERSIONING: the hidden row_start/row_end go; explicit ROW START/END columns
    must be dropped by the same statement (MariaDB 10.11: "Wrong parameters for `t`: missing
    'DROP COLUMN `s`'"), and the SYSTEM_TIME period goes with them."""

    def apply_to(self, ed, st):
        if not ed.get("system_versioning"):
            raise DdlSemanticError(f"Table `{ed.id.name}` is not system-versioned")
        ed.columns = [c for c in ed.columns if not c.hidden]
        left = [c for c in ed.columns if c.row_period is not None]
        if left:
            raise DdlSemanticError(f"Wrong parameters for `{ed.id.name}`: missing 'DROP COLUMN `{left[0].name}`'")
        # (a WITHOUT SYSTEM VERSIONING column keeps the mark: MariaDB 10.11 still prints it)
        ed.set(system_versioning=False, periods=tuple(p for p in ed.get("periods") if not p.system))


@_op
class RenameTo(AlterOperation):
    """RENAME [TO|AS] new_name (may move the table to another database)."""

    new_table: TableId

    def apply_to(self, ed, st):
        st.new_id = self.new_table


@_op
class ConvertCharset(AlterOperation):
    """CONVERT TO CHARACTER SET cs [COLLATE c]: the table default and every character column of
    the resulting table, including columns the same statement adds or redefines (MariaDB 10.11
    checked); only columns carried over unchanged get the TEXT-size promotion."""

    charset: str
    collation: str | None = None

    def apply_to(self, ed, st):
        # st.convert was resolved up front; the columns are converted once every other clause
        # is in (see AlterTable.apply)
        ed.set(charset=st.ctx.charset, collation=st.ctx.collation)


@_op
class DefaultCharset(AlterOperation):
    """[DEFAULT] CHARACTER SET cs [COLLATE c] / [DEFAULT] COLLATE c: the table default only
    (existing columns keep theirs)."""

    charset: str | None = None
    collation: str | None = None

    def apply_to(self, ed, st):
        ed.set(charset=st.ctx.charset, collation=st.ctx.collation)


@_op
class TableOptions(AlterOperation):
    """Table options in ALTER TABLE (ENGINE, COMMENT, ROW_FORMAT...), (name, value) as written.
    CHARSET/COLLATE options act like :class:`DefaultCharset`."""

    options: tuple[tuple[str, str], ...]

    def apply_to(self, ed, st):
        engine, cs, coll, comment, others = _split_options(self.options)
        if engine is not None:
            ed.set(engine=_canonical_engine(engine))
        if comment is not None:
            ed.set(comment=comment)
        if cs is not None or coll is not None:
            ed.set(charset=st.ctx.charset, collation=st.ctx.collation)
        for n, v in others:
            ed.set_option(n, v)


@_op
class PartitionOp(AlterOperation):
    """A partitioning clause, recorded: ``action`` is the clause keyword(s) upper-case
    (``PARTITION BY``, ``REMOVE PARTITIONING``, ``ADD PARTITION``, ``DROP PARTITION``,
    ``TRUNCATE PARTITION``, ``REORGANIZE PARTITION``, ``COALESCE PARTITION``,
    ``EXCHANGE PARTITION``...), ``names`` the partitions it names, ``partitioning`` the new
    summary for PARTITION BY (and, when the listener knows it, for ADD/REORGANIZE), ``text`` the
    clause text. Only PARTITION BY, REMOVE PARTITIONING, ADD and DROP PARTITION change the summary."""

    action: str
    names: tuple[str, ...] = ()
    partitioning: Partitioning | None = None
    text: str = ""
    count: int | None = None

    def apply_to(self, ed, st):
        a = " ".join(self.action.upper().split())
        cur = ed.fields.get("partitioning", ed._t.partitioning)
        if a == "PARTITION BY":
            ed.set(partitioning=self.partitioning)
        elif a == "REMOVE PARTITIONING":
            ed.set(partitioning=None)
        elif self.partitioning is not None:
            ed.set(partitioning=self.partitioning)
        elif cur is not None and a == "ADD PARTITION" and self.count is not None:
            # ADD PARTITION PARTITIONS n (HASH/KEY): n more partitions, named p<i> on when the
            # existing ones are listed (manual 26.3.2 "Management of HASH and KEY Partitions")
            have = cur.count if cur.count is not None else len(cur.names)
            names = cur.names + tuple(f"p{i}" for i in range(have, have + self.count)) if cur.names else ()
            ed.set(partitioning=dataclasses.replace(
                cur, names=names, count=have + self.count if cur.count is not None else None))
        elif cur is not None and a == "COALESCE PARTITION" and self.count is not None:
            # COALESCE PARTITION n: n fewer HASH/KEY partitions, the last ones go (manual 26.3.2)
            have = cur.count if cur.count is not None else len(cur.names)
            if cur.method.split()[-1] not in ("HASH", "KEY"):
                raise DdlSemanticError("COALESCE PARTITION can only be used on HASH/KEY partitions")
            if self.count >= have:
                raise DdlSemanticError("Cannot remove all partitions, use DROP TABLE instead")
            ed.set(partitioning=dataclasses.replace(cur, names=cur.names[:have - self.count],
                                                    count=have - self.count if cur.count is not None else None))
        elif cur is not None and a == "ADD PARTITION":
            ed.set(partitioning=dataclasses.replace(
                cur, names=cur.names + self.names,
                count=(cur.count + len(self.names)) if cur.count is not None else None))
        elif cur is not None and a == "DROP PARTITION":
            drop = {n.lower() for n in self.names}
            names = tuple(n for n in cur.names if n.lower() not in drop)
            ed.set(partitioning=dataclasses.replace(
                cur, names=names, count=(cur.count - len(self.names)) if cur.count is not None else None))
