"""Oracle listeners: parse trees of ``grammars/oracle`` in, the dialect-neutral schema-change
commands of :mod:`mysqlddl.commands` out (the same ones the MySQL listeners make).

One module per statement family, named after the grammar rule it handles (``create_table``,
``alter_table``, ``drop_table``, ``truncate_table``, ``comment_on``); shared sub-rules have their
own modules (``column_definition``, ``constraint``, ``data_type``, ``table_properties``,
``identifiers``). :mod:`.dispatcher` maps a statement's rule to its builder; :mod:`.engine`
parses; :mod:`.script` splits SQL*Plus-style scripts; :mod:`.classify` tells which statements may
change the schema; :mod:`.frontend` names these pieces for the dialect table of
:mod:`mysqlddl.ddl.frontend`.
"""

from .dispatcher import FAMILIES, build_commands
from .engine import OracleEngine
from .script import split_script
from .source import StatementSource

__all__ = ["FAMILIES", "OracleEngine", "StatementSource", "build_commands", "split_script"]
