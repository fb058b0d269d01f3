"""Command base, ApplyResult and apply_all, plus helpers every command family shares."""

from __future__ import annotations

import dataclasses
import json
import warnings
from typing import Any, ClassVar

from ..errors import DdlError, DdlSemanticError, PartialApplyError
from ..model import codec, literals
from ..model.catalog import Catalog, Database
from ..model.ids import TableId
from ..model.resolve import (
    Context,
)
from ..model.table import Table
from ..options import DEFAULT, ErrorPolicy, Options


class Command:
    """Base of every command. Subclasses are frozen dataclasses with slots."""

    __slots__ = ()
    family: ClassVar[str] = ""

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        raise NotImplementedError

    def to_data(self) -> dict[str, Any]:
        return codec.to_data(self)

    def to_json(self) -> str:
        return json.dumps(self.to_data(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_data(data: dict[str, Any]) -> Command:
        return codec.from_data(data, Command)

    @staticmethod
    def from_json(text: str) -> Command:
        return Command.from_data(json.loads(text))


def _command(cls):
    return codec.polymorphic(dataclasses.dataclass(frozen=True, slots=True)(cls))


@dataclasses.dataclass(frozen=True, slots=True)
class ApplyResult:
    """What :func:`apply_all` did: the resulting ``catalog``, the ``errors`` that were collected,
    warned about or skipped (empty under RAISE, which raises instead) and how many commands were
    ``skipped``."""

    catalog: Catalog
    errors: tuple[DdlError, ...] = ()

    @property
    def skipped(self) -> int:
        return len(self.errors)


def apply_all(catalog: Catalog, commands, options: Options = DEFAULT) -> ApplyResult:
    """Apply ``commands`` in order under ``options.error_policy``: RAISE stops at the first error;
    COLLECT, WARN (one warning each) and SKIP leave the catalog as it was for a failing command
    and go on, returning the errors."""
    errors: list[DdlError] = []
    for cmd in commands:
        try:
            catalog = cmd.apply(catalog, options)
        except DdlError as e:
            if options.error_policy is ErrorPolicy.RAISE:
                raise
            errors.append(e)
            if isinstance(e, PartialApplyError) and e.catalog is not None:
                catalog = e.catalog  # what the server did before failing
            if options.error_policy is ErrorPolicy.WARN:
                warnings.warn(f"skipped {type(cmd).__name__}: {e}", stacklevel=2)
    return ApplyResult(catalog, tuple(errors))


def _database_defaults(catalog: Catalog, db: str | None, options: Options) -> tuple[str, str]:
    d = catalog.database(db) if db is not None else None
    if d is not None:
        return d.charset, d.collation
    return catalog.server_charset(options)


def _context(catalog: Catalog, options: Options, table: str, charset: str, collation: str) -> Context:
    return Context.make(options, table, charset, collation,
                        explicit_defaults_for_timestamp=catalog.explicit_defaults_for_timestamp(options),
                        sql_mode=catalog.sql_mode(options))


def _require_table(catalog: Catalog, tid: TableId) -> Table:
    t = catalog.table(tid)
    if t is None:
        raise DdlSemanticError(f"Table '{catalog.qualify(tid)}' doesn't exist")
    return t


def _ensure_database(catalog: Catalog, name: str | None, options: Options) -> dict[str, Database] | None:
    """A database mapping including ``name`` (created with the server defaults when the catalog has
    never seen it: binlogs often start after CREATE DATABASE), or None when nothing changes."""
    if name is None:
        raise DdlSemanticError("No database selected")
    if catalog.database(name) is not None:
        return None
    cs, coll = catalog.server_charset(options)
    return catalog.with_database(Database(name, cs, coll))


def _put(catalog: Catalog, table: Table, *, remove: tuple[TableId, ...] = (),
         changed: tuple[TableId, ...], databases=None) -> Catalog:
    if table.temporary:
        return catalog.evolve(put_temporary=[table], remove_temporary=remove, changed=changed,
                              databases=databases)
    return catalog.evolve(put=[table], remove=remove, changed=changed, databases=databases)


def _option_value(text: str) -> str:
    v = literals.string_value(text)
    return v if v is not None else text


_CHARSET_OPTIONS = {"CHARSET", "CHARACTER SET", "DEFAULT CHARSET", "DEFAULT CHARACTER SET"}
_COLLATE_OPTIONS = {"COLLATE", "DEFAULT COLLATE"}
_IGNORED_OPTIONS = {"AUTO_INCREMENT"}  # changes with every insert; not part of the definition


def _split_options(options: tuple[tuple[str, str], ...]):
    """(engine, charset, collation, comment, others) from table option pairs."""
    engine = charset = collation = comment = None
    others = []
    for name, value in options:
        n = " ".join(name.upper().split())
        if n == "ENGINE" or n == "TYPE":
            engine = _option_value(value)
        elif n in _CHARSET_OPTIONS:
            charset = _option_value(value)
        elif n in _COLLATE_OPTIONS:
            collation = _option_value(value)
        elif n == "COMMENT":
            comment = _option_value(value)
        elif n not in _IGNORED_OPTIONS:
            others.append((n, _option_value(value)))
    return engine, charset, collation, comment, others


def _canonical_engine(name: str) -> str:
    known = {"innodb": "InnoDB", "myisam": "MyISAM", "memory": "MEMORY", "heap": "MEMORY",
             "aria": "Aria", "csv": "CSV", "archive": "ARCHIVE", "blackhole": "BLACKHOLE",
             "merge": "MRG_MyISAM", "mrg_myisam": "MRG_MyISAM", "ndb": "ndbcluster",
             "ndbcluster": "ndbcluster", "federated": "FEDERATED", "rocksdb": "ROCKSDB",
             "sequence": "SEQUENCE", "spider": "SPIDER", "connect": "CONNECT", "s3": "S3"}
    return known.get(name.lower(), name)
