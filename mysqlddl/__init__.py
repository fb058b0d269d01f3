"""mysqlddl: MySQL/MariaDB DDL parsing, schema history and binlog change events."""

import importlib.util
import sys

from .errors import UnbuiltSourceTreeError

__version__ = "0.1.0.dev0"


def _check_built() -> None:
    """Refuse a source tree without its build, at import rather than at the first DDL.

    The parser is installed as ``mysqlddl._generated`` from ``generated/`` (pyproject.toml
    package-dir), so the checkout's ``mysqlddl/`` never has it: Python started in the checkout's
    root finds that directory before the installed package (sys.path[0] is the current directory)
    and every change reader would fail at its first DDL, deep into a run, with "No module named
    'mysqlddl._generated'". Said here, once, with the fix; finding the spec costs a few stats (the
    parser itself still loads lazily). The build's own warmup (tools/grammar_build.py) imports the
    source tree with ``generated/`` already standing in for it in sys.modules.
    """
    name = __name__ + "._generated"
    if name in sys.modules:
        return
    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise UnbuiltSourceTreeError(
            f"{__path__[0]} is mysqlddl's source tree, without its build (no generated parser, "
            "mysqlddl._generated), found first on sys.path (Python started in the checkout's root, or it is "
            "on PYTHONPATH). Install the checkout in editable mode (pip install -e .), so this tree is the "
            "installed package, or run from another directory, so the installed package is imported")


_check_built()


def __getattr__(name: str):
    if name in ("parse_ddl", "apply_script"):
        # lazy: importing mysqlddl must not load the generated parser (0.1-0.7 s, ANTLR-NOTES.md)
        from . import ddl
        return getattr(ddl, name)
    raise AttributeError(f"module 'mysqlddl' has no attribute {name!r}")
