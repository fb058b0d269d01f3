"""mysqlddl: MySQL/MariaDB DDL parsing, schema history and binlog change events."""

__version__ = "0.1.0.dev0"
