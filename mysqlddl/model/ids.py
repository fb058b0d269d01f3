"""Table identity and identifier case rules."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class TableId:
    """A table (or view) name. ``database`` is None only before the statement's default database
    has been applied (an unqualified name in a command); every table in a Catalog has one."""

    database: str | None
    name: str

    def __str__(self) -> str:
        return f"{self.database}.{self.name}" if self.database is not None else self.name

    def qualified(self, default_db: str | None) -> TableId:
        """This id with ``default_db`` filled in when the statement did not name a database."""
        return self if self.database is not None or default_db is None else TableId(default_db, self.name)

    @classmethod
    def parse(cls, text: str) -> TableId:
        """``db.name`` or ``name`` (no quoting; for tests and CLI arguments)."""
        db, _, name = text.rpartition(".")
        return cls(db or None, name)


def stored_name(name: str, lower_case_table_names: int) -> str:
    """How the server stores a database or table name: lower-cased under lower_case_table_names=1,
    as given under 0 and 2 (MySQL manual 11.2.3 "Identifier Case Sensitivity")."""
    return name.lower() if lower_case_table_names == 1 else name


def lookup_name(name: str, lower_case_table_names: int) -> str:
    """The key names are compared by: case-sensitive under 0, case-insensitive under 1 and 2."""
    return name if lower_case_table_names == 0 else name.lower()


def table_key(tid: TableId, lower_case_table_names: int) -> TableId:
    db = tid.database
    return TableId(lookup_name(db, lower_case_table_names) if db is not None else None,
                   lookup_name(tid.name, lower_case_table_names))


def column_key(name: str) -> str:
    """Column (and index, constraint) names are case-insensitive on every platform."""
    return name.lower()
