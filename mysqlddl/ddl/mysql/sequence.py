"""``createSequence``, ``alterSequence`` and ``dropSequence`` -> sequence commands (MariaDB KB
"CREATE SEQUENCE", "ALTER SEQUENCE", "DROP SEQUENCE"). A sequence is a table to the server (eight
fixed columns); the options become (NAME, value) settings that the model resolves."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import AlterSequence, CreateSequence, DropSequence
from .identifiers import table_id
from .source import StatementSource
from .table_options import table_options


def _settings(opts, src: StatementSource) -> tuple[tuple[str, str | None], ...]:
    out = []
    for o in opts:
        first = o.getChild(0).getText().upper()
        num = o.signedNumber()
        value = src.text_of(num).replace(" ", "") if num is not None else None
        if first == "AS":
            # AS int_type (MariaDB 11.5+) changes the fixed columns' types: not modelled
            raise src.error(o, "CREATE SEQUENCE ... AS type is not modelled")
        if first in ("NO", "NOMINVALUE", "NOMAXVALUE", "NOCACHE", "NOCYCLE"):
            what = o.getChild(1).getText().upper() if first == "NO" else first[2:]
            out.append((what, None))  # NO MINVALUE / NOCACHE...: back to the default
        elif first == "CYCLE":
            out.append(("CYCLE", "1"))
        elif first == "RESTART":
            continue  # the next value only, not a setting
        else:
            out.append((first, value))
    return tuple(out)


def build_create(ctx: P.CreateSequenceContext, src: StatementSource) -> CreateSequence:
    return CreateSequence(table_id(ctx.tableName()), _settings(ctx.sequenceOption(), src),
                          table_options(ctx.createTableOptions(), src),
                          or_replace=ctx.orReplace() is not None, if_not_exists=ctx.ifNotExists() is not None,
                          temporary=ctx.TEMPORARY() is not None)


def build_alter(ctx: P.AlterSequenceContext, src: StatementSource) -> AlterSequence:
    return AlterSequence(table_id(ctx.tableName()), _settings(ctx.sequenceOption(), src),
                         if_exists=ctx.ifExists() is not None)


def build_drop(ctx: P.DropSequenceContext, src: StatementSource) -> DropSequence:
    return DropSequence(tuple(table_id(t) for t in ctx.tableName()), if_exists=ctx.ifExists() is not None,
                        temporary=ctx.TEMPORARY() is not None)
