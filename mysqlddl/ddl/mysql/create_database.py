"""``createDatabase`` -> :class:`~mysqlddl.commands.CreateDatabase` (MySQL 8.4 manual 15.1.12;
MariaDB OR REPLACE and COMMENT). :func:`database_options` also serves ``alterDatabase``."""

from __future__ import annotations

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...commands import CreateDatabase
from .identifiers import charset_name, name
from .source import StatementSource


def database_options(opts, src: StatementSource) -> dict:
    """charset / collation / comment of ``databaseOption``s. ENCRYPTION and READ ONLY are not
    recorded by the model."""
    out: dict = {}
    for o in opts:
        if o.charsetClause() is not None:
            out["charset"] = charset_name(o.charsetClause().charsetName(), src)
        elif o.collationName() is not None:
            out["collation"] = charset_name(o.collationName(), src)
        elif o.COMMENT() is not None:
            out["comment"] = src.text_of(o.textLiteral())
    return out


def build(ctx: P.CreateDatabaseContext, src: StatementSource) -> CreateDatabase:
    return CreateDatabase(name(ctx.identifier()), if_not_exists=ctx.ifNotExists() is not None,
                          or_replace=ctx.orReplace() is not None,
                          **database_options(ctx.databaseOption(), src))
