"""mysqlddl: MySQL/MariaDB DDL parsing, schema history and binlog change events."""

__version__ = "0.1.0.dev0"


def __getattr__(name: str):
    if name in ("parse_ddl", "apply_script"):
        # lazy: importing mysqlddl must not load the generated parser (0.1-0.7 s, ANTLR-NOTES.md)
        from . import ddl
        return getattr(ddl, name)
    raise AttributeError(f"module 'mysqlddl' has no attribute {name!r}")
