"""ChangeOptions: every setting of the join in one frozen, validated object (as
:class:`mysqlddl.options.Options` is for parsing and decoding, which it carries as ``decode``).

A :class:`~mysqlddl.changes.reader.ChangeReader` takes its true inputs beside it (the binlogs, a
baseline text or an existing history, a progress callback, pre-read events); everything that says
*how* to read them is here, so a CLI, the Spark job and a Python caller build the same object.
"""

from __future__ import annotations

import dataclasses
import enum

from ..errors import ConfigError
from ..options import DEFAULT, Options
from .filters import Filters, parse_position


class OnMismatch(str, enum.Enum):
    """A TABLE_MAP that disagrees with the table version in force (ARCHITECTURE.md "Key
    decisions": Cross-check every TABLE_MAP): RAISE a SchemaMismatchError, or FLAG: decode its
    rows by the TABLE_MAP alone and say so in ``RowChange.mismatch``."""

    RAISE = "raise"
    FLAG = "flag"


class PkChange(str, enum.Enum):
    """An UPDATE that changes the primary key: one ``u`` change (UPDATE), or SPLIT into a ``d`` and a
    ``c`` carrying Debezium's ``__debezium.newkey``/``oldkey`` headers (Debezium MySQL connector
    documentation, "Primary key updates": the Kafka key changes)."""

    UPDATE = "update"
    SPLIT = "split"


def _enum(cls, value, field: str):
    try:
        return cls(value)
    except ValueError:
        allowed = " or ".join(repr(m.value) for m in cls)
        raise ConfigError(f"{field} must be {allowed}, not {value!r}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class ChangeOptions:
    """How a :class:`~mysqlddl.changes.reader.ChangeReader` joins events with the history.

    decode: parsing/decoding :class:`~mysqlddl.options.Options` (its ``error_policy`` governs DDL
        that cannot be parsed or applied: RAISE stops, the others skip and count it).
    filters: what is emitted (:class:`~mysqlddl.changes.filters.Filters`).
    on_mismatch: :class:`OnMismatch` (a string value is accepted and converted).
    pk_change: :class:`PkChange` (likewise).
    transactions / schema_changes: emit TransactionMarks / SchemaChanges too.
    truncate_events: also emit an ``op="t"`` RowChange per truncated table after the TRUNCATE's
        schema change (Debezium's ``skipped.operations`` leaves them out by default, so do we).
    rows: False reads only what builds the history (QUERY, GTID, XID events; the rest skipped by
        size) and emits no rows.
    queries: False leaves ROWS_QUERY / ANNOTATE_ROWS undecoded, so every ``Source.query`` is None
        (decoding a multi-row INSERT's text costs more than its rows; for writers that do not print it).
    name: the logical server name (Debezium ``source.name``).
    schema_database: the default database of the baseline's unqualified names until its first USE.
    schema_position: ``FILE:N`` or N: where the baseline was taken (DDL events ending at or before
        it are already in it and are not applied again).
    span: ``(start, stop)``, each a binlog Position, ``(file, pos)`` or None: read only the events
        starting in [start, stop) (it must begin at a transaction boundary): a part of a log whose
        history was built by a pass over all of it (the Spark job).
    record_ddl: False takes the given history as complete and read-only: a DDL event emits the
        SchemaChange recorded at its position and applies nothing (needs ``history=``).
    """

    decode: Options = DEFAULT
    filters: Filters = Filters()
    on_mismatch: OnMismatch = OnMismatch.RAISE
    pk_change: PkChange = PkChange.UPDATE
    transactions: bool = True
    schema_changes: bool = True
    truncate_events: bool = False
    rows: bool = True
    queries: bool = True
    name: str = "mysqlddl"
    schema_database: str | None = None
    schema_position: object = None
    span: tuple | None = None
    record_ddl: bool = True

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "on_mismatch", _enum(OnMismatch, self.on_mismatch, "on_mismatch"))
        set_(self, "pk_change", _enum(PkChange, self.pk_change, "pk_change"))
        if not isinstance(self.decode, Options):
            raise ConfigError(f"decode must be an Options, not {type(self.decode).__name__}")
        if not isinstance(self.filters, Filters):
            raise ConfigError(f"filters must be a Filters, not {type(self.filters).__name__}")
        for f in ("transactions", "schema_changes", "truncate_events", "rows", "queries", "record_ddl"):
            if not isinstance(getattr(self, f), bool):
                raise ConfigError(f"{f} must be True or False, not {getattr(self, f)!r}")
        if not isinstance(self.name, str):
            raise ConfigError(f"name must be text, not {self.name!r}")
        parse_position(self.schema_position)
        if self.span is not None and (not isinstance(self.span, tuple) or len(self.span) != 2):
            raise ConfigError(f"span must be (start, stop), not {self.span!r}")

    def replace(self, **changes) -> ChangeOptions:
        return dataclasses.replace(self, **changes)


__all__ = ["ChangeOptions", "OnMismatch", "PkChange"]
