"""MariaDB sequences: CREATE / ALTER / DROP SEQUENCE (MariaDB KB "CREATE SEQUENCE", "ALTER
SEQUENCE", "DROP SEQUENCE"; 10.3+). To the server a sequence is a table with eight fixed columns
(information_schema.TABLES.TABLE_TYPE ``SEQUENCE``, SHOW CREATE TABLE ends ``SEQUENCE=1``); its
settings are what SHOW CREATE SEQUENCE prints (:attr:`Table.sequence`)."""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError, PartialApplyError
from ..model.catalog import Catalog
from ..model.column import Column
from ..model.ids import TableId
from ..model.table import Sequence, Table
from ..options import DEFAULT, Options
from .base import (
    Command,
    _canonical_engine,
    _command,
    _database_defaults,
    _ensure_database,
    _put,
    _split_options,
)

_MAX = 9223372036854775806  # LONGLONG_MAX - 1 (MariaDB sql_sequence.cc)
_MIN = -9223372036854775807  # LONGLONG_MIN + 1


def _col(name: str, type_name: str, *, unsigned: bool = False, comment: str | None = None,
         length: int = 21) -> Column:
    return Column(name, type_name, length=length, unsigned=unsigned, nullable=False, comment=comment,
                  declared_type=f"{type_name}({length})")


# The fixed columns (sequence_structure() in MariaDB sql_sequence.cc; SHOW CREATE TABLE on 10.11.19).
SEQUENCE_COLUMNS: tuple[Column, ...] = (
    _col("next_not_cached_value", "bigint"),
    _col("minimum_value", "bigint"),
    _col("maximum_value", "bigint"),
    _col("start_value", "bigint", comment="start value when sequences is created or value if RESTART is used"),
    _col("increment", "bigint", comment="increment value"),
    _col("cache_size", "bigint", unsigned=True),
    _col("cycle_option", "tinyint", length=1, unsigned=True,
         comment="0 if no cycles are allowed, 1 if the sequence should begin a new cycle when "
                 "maximum_value is passed"),
    _col("cycle_count", "bigint", comment="How many cycles have been done"),
)


def sequence_settings(settings: tuple[tuple[str, str | None], ...], base: Sequence | None = None) -> Sequence:
    """Apply sequence options (``(NAME, value)``: INCREMENT, MINVALUE, MAXVALUE, START, CACHE,
    CYCLE, RESTART; value None for NO MINVALUE / NO MAXVALUE / NOCACHE / NOCYCLE / RESTART without
    a value) to ``base`` (None: a new sequence). Defaults follow the sign of INCREMENT: 1 ..
    9223372036854775806 going up, -9223372036854775807 .. -1 going down; START defaults to the
    end it counts from; CACHE 1000. RESTART changes the next value, not the settings."""
    given = {}
    for name, value in settings:
        given[name.upper()] = value
    cur = base or Sequence()
    inc = int(given["INCREMENT"]) if given.get("INCREMENT") is not None else cur.increment
    if base is None:
        lo, hi = (1, _MAX) if inc >= 0 else (_MIN, -1)
    else:
        lo, hi = cur.minvalue, cur.maxvalue
    if "MINVALUE" in given:
        lo = int(given["MINVALUE"]) if given["MINVALUE"] is not None else (1 if inc >= 0 else _MIN)
    if "MAXVALUE" in given:
        hi = int(given["MAXVALUE"]) if given["MAXVALUE"] is not None else (_MAX if inc >= 0 else -1)
    if "START" in given and given["START"] is not None:
        start = int(given["START"])
    elif base is None:
        start = lo if inc >= 0 else hi
    else:
        start = cur.start
    cache = cur.cache
    if "CACHE" in given:
        cache = int(given["CACHE"]) if given["CACHE"] is not None else 0
    cycle = cur.cycle
    if "CYCLE" in given:
        cycle = given["CYCLE"] is not None
    seq = Sequence(start, lo, hi, inc, cache, cycle)
    if not (lo <= start <= hi) or lo >= hi or cache < 0:
        raise DdlSemanticError("Sequence has out of range value for options")
    return seq


@_command
class CreateSequence(Command):
    """CREATE [OR REPLACE] [TEMPORARY] SEQUENCE [IF NOT EXISTS] s [options] [table options].
    ``settings``: see :func:`sequence_settings`; ``options``: table options as in CreateTable
    (ENGINE, COMMENT...)."""

    table: TableId
    settings: tuple[tuple[str, str | None], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    or_replace: bool = False
    if_not_exists: bool = False
    temporary: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        tid = catalog.qualify(self.table)
        dbs = _ensure_database(catalog, tid.database, options)
        existing = (catalog.temporary_tables if self.temporary else catalog.tables).get(catalog.key(tid))
        if existing is not None and not self.or_replace:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Table '{tid.name}' already exists")
        engine, _, _, comment, others = _split_options(self.options)
        cs, coll = _database_defaults(catalog, tid.database, options)
        table = Table(tid, columns=tuple(dataclasses.replace(c, position=i) for i, c in
                                         enumerate(SEQUENCE_COLUMNS, 1)),
                      charset=cs, collation=coll,
                      engine=_canonical_engine(engine or catalog.default_engine(options)), comment=comment,
                      options=(("SEQUENCE", "1"),) + tuple(o for o in others if o[0] != "SEQUENCE"),
                      temporary=self.temporary, sequence=sequence_settings(self.settings))
        return _put(catalog, table, changed=(tid,), databases=dbs)


def _require_sequence(catalog: Catalog, tid: TableId) -> Table | None:
    t = catalog.table(tid)
    if t is not None and t.sequence is None:
        raise DdlSemanticError(f"'{catalog.qualify(tid)}' is not a SEQUENCE")
    return t


@_command
class AlterSequence(Command):
    """ALTER SEQUENCE [IF EXISTS] s options (the table's columns never change)."""

    table: TableId
    settings: tuple[tuple[str, str | None], ...] = ()
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = _require_sequence(catalog, self.table)
        if t is None:
            if self.if_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Unknown SEQUENCE: '{catalog.qualify(self.table)}'")
        return _put(catalog, t.replace(sequence=sequence_settings(self.settings, t.sequence)), changed=(t.id,))


@_command
class DropSequence(Command):
    """DROP [TEMPORARY] SEQUENCE [IF EXISTS] s, ...: every name must be a sequence (MariaDB 10.11:
    "'db.t' is not a SEQUENCE"); a missing one without IF EXISTS fails after the others are
    dropped, as DROP TABLE does on MariaDB."""

    tables: tuple[TableId, ...]
    if_exists: bool = False
    temporary: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        rm, rm_tmp, changed, missing = [], [], [], []
        for tid in self.tables:
            q = catalog.qualify(tid)
            k = catalog.key(q)
            t = catalog.temporary_tables.get(k) or (None if self.temporary else catalog.tables.get(k))
            if t is None:
                if not self.if_exists:
                    missing.append(str(q))
                continue
            if t.sequence is None:
                raise DdlSemanticError(f"'{q}' is not a SEQUENCE")
            (rm_tmp if t.temporary else rm).append(q)
            changed.append(q)
        if missing:
            msg = f"Unknown SEQUENCE: '{','.join(missing)}'"
            if changed:
                raise PartialApplyError(msg, catalog=catalog.evolve(remove=rm, remove_temporary=rm_tmp,
                                                                    changed=changed))
            raise DdlSemanticError(msg)
        return catalog.evolve(remove=rm, remove_temporary=rm_tmp, changed=changed)
