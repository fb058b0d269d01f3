"""The PostgreSQL sink's parts that need no driver (only :mod:`mysqlddl.sinks.postgresql` imports
psycopg): :mod:`.types` (options and the type map), :mod:`.values` (the value policy), :mod:`.ddl`
(the DDL converter), :mod:`.dml` (the DML statement builder), :mod:`.state` (the checkpoint record)."""
