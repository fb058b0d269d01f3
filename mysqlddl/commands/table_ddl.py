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
    catalog, which the lenient error policies continue from)."""

    tables: tuple[TableId, ...]
    if_exists: bool = False
    temporary: bool = False

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
        return catalog.evolve(remove=rm, remove_temporary=rm_tmp, changed=changed)


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
