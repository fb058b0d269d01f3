"""The MySQL/MariaDB front end: :mod:`.engine` parses (after :mod:`.lexing` has prepared the text
for the server version and sql_mode), :mod:`.script` splits scripts as the ``mysql`` client does,
:mod:`.classify` tells which statements may change the schema, and the listeners turn parse
trees into schema-change commands. :mod:`.frontend` names these pieces for the dialect table of
:mod:`mysqlddl.ddl.frontend`; callers use the facade :mod:`mysqlddl.ddl`.

Listeners: parse trees in, schema-change commands out.

One module per statement family, named after the grammar rule it handles (``create_table`` for
``createTable``, ``alter_table`` for ``alterTable``...); shared sub-rules have their own modules
(``column_definition``, ``data_type``, ``key_definition``, ``table_options``, ``identifiers``).
:mod:`.dispatcher` holds the one table that maps a statement's rule to its builder and turns any
failure inside a builder into a positioned :class:`~mysqlddl.errors.DdlError`.

Builders never touch a catalog: they return commands, and only ``command.apply`` changes schema
state (STYLE.md point 2).

The package itself imports nothing: the engine (:mod:`.engine`) is imported for every parse, the
listeners only for phase 2 (:class:`~mysqlddl.ddl.frontend.Frontend` names them).
"""
