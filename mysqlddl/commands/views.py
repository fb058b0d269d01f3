"""Views: recorded in the catalog, never expanded."""

from __future__ import annotations

from ..errors import DdlSemanticError
from ..model.catalog import Catalog, View
from ..model.ids import TableId
from ..options import DEFAULT, Options
from .base import Command, _command


@_command
class CreateView(Command):
    """CREATE [OR REPLACE] [ALGORITHM=..] [DEFINER=..] [SQL SECURITY ..] VIEW [IF NOT EXISTS] v
    [(cols)] AS select [WITH CHECK OPTION]: recorded, not analysed. ``options``: the other clauses
    as (name, value)."""

    view: TableId
    definition: str
    columns: tuple[str, ...] = ()
    or_replace: bool = False
    if_not_exists: bool = False
    options: tuple[tuple[str, str], ...] = ()

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        vid = catalog.qualify(self.view)
        if catalog.base_table(vid) is not None:
            raise DdlSemanticError(f"Table '{vid.name}' already exists")
        if catalog.view(vid) is not None and not self.or_replace:
            if self.if_not_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Table '{vid.name}' already exists")
        views = dict(catalog.views)
        views[catalog.key(vid)] = View(vid, self.definition, self.columns, self.options)
        return catalog.evolve(views=views, changed=(vid,))


@_command
class AlterView(Command):
    """ALTER VIEW v [(cols)] AS select: replaces the recorded definition."""

    view: TableId
    definition: str
    columns: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        vid = catalog.qualify(self.view)
        if catalog.view(vid) is None:
            raise DdlSemanticError(f"Table '{vid}' doesn't exist")
        return CreateView(self.view, self.definition, self.columns, True, False,
                          self.options).apply(catalog, options)


@_command
class DropView(Command):
    """DROP VIEW [IF EXISTS] v1, v2, ..."""

    views: tuple[TableId, ...]
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        views = dict(catalog.views)
        changed = []
        for v in self.views:
            k = catalog.key(v)
            if k not in views:
                if self.if_exists:
                    continue
                raise DdlSemanticError(f"Unknown VIEW: '{catalog.qualify(v)}'")
            del views[k]
            changed.append(catalog.qualify(v))
        return catalog.evolve(views=views, changed=changed)
