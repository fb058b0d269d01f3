"""DROP TABLE, RENAME TABLE, TRUNCATE TABLE, CREATE INDEX and DROP INDEX."""

from __future__ import annotations

import dataclasses

from ..errors import DdlSemanticError, PartialApplyError
from ..model.catalog import Catalog
from ..model.dialects import rules_for
from ..model.ids import TableId
from ..model.spec import KeySpec
from ..options import DEFAULT, Options
from .alter_table import AddIndex, AlterTable, DropKey
from .base import Command, _command, _ensure_database, _require_table


@_command
class DropTable(Command):
    """DROP [TEMPORARY] TABLE [IF EXISTS] t1, t2, ...: a temporary table of that name is dropped
    first. An unknown table without IF EXISTS fails the statement: MySQL 8.0 drops nothing;
    MariaDB drops the others first (:class:`~mysqlddl.errors.PartialApplyError` carries that
    catalog, which the lenient error policies continue from).

    ``cascade_constraints`` (Oracle's DROP TABLE ... CASCADE CONSTRAINTS, SQL Ref. "DROP TABLE":
    "drop all referential integrity constraints that refer to primary and unique keys in the
    dropped table"): the other tables' foreign keys to a dropped table are dropped with it.
    Without it, where ``DialectRules.drop_referenced_table_is_error`` (Oracle: ORA-02449
    "unique/primary keys in table referenced by foreign keys"), such a foreign key fails the
    statement and nothing is dropped; the error policy decides whether the run stops (strict)
    or the statement is skipped and counted. A table's foreign keys to itself never count."""

    tables: tuple[TableId, ...]
    if_exists: bool = False
    temporary: bool = False
    cascade_constraints: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        rm, rm_tmp, changed, missing = [], [], [], []
        seen = set()
        for tid in self.tables:
            q = catalog.qualify(tid)
            if catalog.key(q) in seen:
                raise DdlSemanticError(f"Not unique table/alias: '{q.name}'")
            seen.add(catalog.key(q))
            k = catalog.key(q)
            if k in catalog.temporary_tables:
                rm_tmp.append(q)
            elif not self.temporary and k in catalog.tables:
                rm.append(q)
            elif not self.if_exists:
                missing.append(str(q))
                continue
            else:
                continue
            changed.append(q)
        if missing:
            msg = f"Unknown table '{','.join(missing)}'"
            if rules_for(options).drop_table_partial and changed:
                raise PartialApplyError(msg, catalog=catalog.evolve(remove=rm, remove_temporary=rm_tmp,
                                                                    changed=changed))
            raise DdlSemanticError(msg)
        children = self._referencing(catalog, rm, options)
        return catalog.evolve(put=children, remove=rm, remove_temporary=rm_tmp,
                              changed=changed + [t.id for t in children])

    def _referencing(self, catalog: Catalog, dropped: list[TableId], options: Options) -> list:
        """The other tables whose foreign keys refer to a dropped table, without those keys
        (CASCADE CONSTRAINTS), or an ORA-02449 error; [] where the dialect keeps such keys."""
        gone = {catalog.key(q) for q in dropped}
        if not gone or not (self.cascade_constraints or rules_for(options).drop_referenced_table_is_error):
            return []
        out = []
        for t in catalog.tables.values():
            if catalog.key(t.id) in gone:
                continue
            fks = [f for f in t.foreign_keys if catalog.key(catalog.qualify(f.ref_table)) in gone]
            if not fks:
                continue
            if not self.cascade_constraints:
                raise DdlSemanticError(
                    f"ORA-02449: unique/primary keys in table referenced by foreign keys: "
                    f"{', '.join(f'{t.id}.{f.name}' for f in fks)} (DROP TABLE ... CASCADE CONSTRAINTS "
                    f"drops them)")
            ed = t.edit()
            for f in fks:
                ed.drop_foreign_key(f.name)
            out.append(ed.build())
        return out


@_command
class RenameTable(Command):
    """RENAME TABLE [IF EXISTS] a TO b, c TO d, ...: pairs applied in sequence, so swaps through a
    temporary name work. ``if_exists`` (MariaDB 10.5.2+, KB "RENAME TABLE"): a pair whose source
    table does not exist is skipped (a note, not an error); the other errors stay errors."""

    pairs: tuple[tuple[TableId, TableId], ...]
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        changed = []
        cat = catalog
        for old, new in self.pairs:
            if self.if_exists and cat.table(old) is None:
                continue
            t = _require_table(cat, old)
            nid = cat.qualify(new)
            if cat.table(nid) is not None:
                raise DdlSemanticError(f"Table '{nid.name}' already exists")
            dbs = _ensure_database(cat, nid.database, options)
            moved = t.replace(id=nid)
            if t.temporary:
                cat = cat.evolve(put_temporary=[moved], remove_temporary=[t.id], databases=dbs)
            else:
                cat = cat.evolve(put=[moved], remove=[t.id], databases=dbs)
            changed += [t.id, nid]
        return dataclasses.replace(cat, version=catalog.version + 1, changed=tuple(changed))


@_command
class TruncateTable(Command):
    """TRUNCATE [TABLE] t: no schema change; recorded so consumers see it (``changed``)."""

    table: TableId

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = _require_table(catalog, self.table)
        return catalog.evolve(changed=(t.id,))


@_command
class CreateIndex(Command):
    """CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name ON t (...)."""

    table: TableId
    key: KeySpec
    if_not_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return AlterTable(self.table, (AddIndex(self.key, self.if_not_exists),)).apply(catalog, options)


@_command
class DropIndex(Command):
    """DROP INDEX [IF EXISTS] name ON t."""

    table: TableId
    name: str
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return AlterTable(self.table, (DropKey(self.name, self.if_exists),)).apply(catalog, options)
