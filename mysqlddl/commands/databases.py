"""CREATE/ALTER/DROP DATABASE and USE."""

from __future__ import annotations

from ..errors import DdlSemanticError
from ..model import charsets
from ..model.catalog import Catalog, Database
from ..model.dialects import rules_for
from ..model.ids import lookup_name, stored_name
from ..options import DEFAULT, Options
from .base import Command, _command, _option_value


@_command
class CreateDatabase(Command):
    """CREATE {DATABASE|SCHEMA} [IF NOT EXISTS] (MariaDB: OR REPLACE) name [CHARACTER SET cs]
    [COLLATE c] [COMMENT 'x']. ``comment`` as written (quoted) or None."""

    name: str
    charset: str | None = None
    collation: str | None = None
    if_not_exists: bool = False
    or_replace: bool = False
    comment: str | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        if catalog.database(self.name) is not None:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            if not self.or_replace:
                raise DdlSemanticError(f"Can't create database '{self.name}'; database exists")
            catalog = DropDatabase(self.name).apply(catalog, options)
        cs, coll = charsets.resolve_pair(self.charset, self.collation, catalog.server_charset(options),
                                         rules_for(options).collation_column)
        db = Database(stored_name(self.name, catalog.lower_case_table_names), cs, coll,
                      _option_value(self.comment) if self.comment is not None else None)
        return catalog.evolve(databases=catalog.with_database(db), changed=catalog.changed
                              if self.or_replace else ())


@_command
class AlterDatabase(Command):
    """ALTER {DATABASE|SCHEMA} [name] [CHARACTER SET cs] [COLLATE c] [COMMENT 'x']; ``name``
    None means the default database. Existing tables keep their charsets."""

    name: str | None = None
    charset: str | None = None
    collation: str | None = None
    comment: str | None = None

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        name = self.name or catalog.session.database
        db = catalog.database(name) if name else None
        if db is None:
            raise DdlSemanticError(f"Unknown database '{name}'")
        cs, coll = db.charset, db.collation
        if self.charset is not None or self.collation is not None:
            cs, coll = charsets.resolve_pair(self.charset, self.collation, (cs, coll),
                                             rules_for(options).collation_column)
        comment = _option_value(self.comment) if self.comment is not None else db.comment
        return catalog.evolve(databases=catalog.with_database(Database(db.name, cs, coll, comment)))


@_command
class DropDatabase(Command):
    """DROP {DATABASE|SCHEMA} [IF EXISTS] name: its tables and views go with it."""

    name: str
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        db = catalog.database(self.name)
        gone = catalog.tables_in(self.name)
        if db is None and not gone:
            if self.if_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Can't drop database '{self.name}'; database doesn't exist")
        key = db.name if db else self.name
        k = lookup_name(key, catalog.lower_case_table_names)
        views = {vk: v for vk, v in catalog.views.items() if vk.database != k}
        return catalog.evolve(remove=[t.id for t in gone], databases=catalog.with_database(None, key),
                              views=views, changed=[t.id for t in gone])


@_command
class UseDatabase(Command):
    """USE name: the default database for unqualified names."""

    name: str

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        return catalog.evolve(session=catalog.session.replace(database=self.name))
