"""The `mysqlddl` command line (see mysqlddl.cli.main)."""

from .main import main

__all__ = ["main"]
