"""The package's import rules (issue #19), checked by walking every module of mysqlddl/ with ast:

1. every import is at module top: no import inside a function or class, and none after the first
   statement that is not an import (a docstring, ``from __future__`` and ``if TYPE_CHECKING:``
   blocks aside). An import cycle is untangled by moving the shared piece down, never patched with
   a late import. The only exceptions are lazy loads of something heavy or optional, listed in
   LAZY with the reason, and each carrying a ``#`` comment on its line or the line above;
2. no private name (``_x``) is imported from another package.

The rules walk whatever modules exist, so new packages are checked as they arrive.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mysqlddl

PACKAGE = Path(mysqlddl.__file__).parent
ROOT = PACKAGE.parent

# Function-level imports that stay: (module path glob, imported module prefix) -> why.
LAZY = {
    ("mysqlddl/__init__.py", "mysqlddl.ddl"): "the generated parser loads only for parse_ddl/apply_script",
    ("mysqlddl/binlog/speedups.py", "mysqlddl._speedups"): "the compiled core: its absence is reported or "
                                                            "falls back to the twin",
    ("mysqlddl/binlog/events/_compress.py", "zstandard"): "~10 ms that only compressed payloads need",
    ("mysqlddl/olr/reader.py", "mysqlddl.ddl"): "the generated Oracle parser, only when OLR output has DDL",
    ("mysqlddl/ddl/__init__.py", "mysqlddl.ddl.apply"): "phase 2 (commands, model, listeners: ~0.15 s) on first "
                                                      "use; a syntax check never loads it",
    ("mysqlddl/changes/*.py", "mysqlddl.ddl"): "the DDL front door loads the grammar and the listeners (~0.3 s); "
                                               "a reader over a pre-built history (a Spark decode task) never "
                                               "parses the DDL it meets",
    ("mysqlddl/cli/*.py", "mysqlddl"): "a subcommand loads what it runs when it runs: the parser is built from "
                                       "every subcommand's arguments, and --help or `version` must not pay "
                                       "for the decoder, the change reader or the DDL grammar (0.2-0.7 s)",
    ("mysqlddl/pipeline/sinks.py", "mysqlddl.sinks.postgresql"): "psycopg, the [postgresql] extra: only a "
                                                                   "pipeline with a postgresql:// sink loads it",
    ("mysqlddl/sinks/pg/lock.py", "psycopg"): "the [postgresql] extra, imported after the others so that its "
                                              "absence is a typed error saying what to install",
    ("mysqlddl/sinks/arrow.py", "pyarrow"): "the [spark] extra; the module's names are imported where it is absent",
    ("mysqlddl/sinks/arrow.py", "numpy"): "comes with pyarrow, the [spark] extra",
    ("mysqlddl/sinks/parquet.py", "pyarrow"): "the [spark] extra; the module's names are imported where it is "
                                              "absent",
    ("mysqlddl/spark/*", "pyspark"): "optional (mysqlddl[spark]) and seconds to load: the CLI imports the job's "
                                     "modules for every command, only a run of the job loads it",
    ("mysqlddl/spark/tasks.py", "pyarrow"): "heavy: loaded in a Python worker as the warm-up of the decode tasks",
    ("mysqlddl/spark/job.py", "mysqlddl.cli"): "the `python -m mysqlddl.spark.job` / spark-submit entry point "
                                               "(__main__ only) runs the CLI's spark subcommand; the package never "
                                               "imports cli",
    ("mysqlddl/sources/server/snapshot.py", "mysqlddl.ddl"): "the DDL front door (grammar and listeners, ~0.3 s) "
                                                             "only when a capture builds its own catalog",
    ("mysqlddl/pipeline/config.py", "tomllib"): "stdlib from Python 3.11, chosen by version at module top",
    ("mysqlddl/pipeline/config.py", "tomli"): "the same TOML parser on Python 3.10 (a dependency there only)",
    ("mysqlddl/sinks/typed.py", "pyarrow"): "heavy and optional (mysqlddl[spark]): only when a typed dataset is built",
}

# Private names imported across packages that stay: (module path glob, imported name) -> why.
PRIVATE = {
    ("mysqlddl/binlog/speedups.py", "_speedups"): "the compiled extension is private to the package; DESIGN: "
                                                   "only binlog/ imports it, through this selector",
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_generated" not in p.parts)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _package(rel: str) -> list[str]:
    parts = rel[:-3].split("/")
    return parts[:-1]


def _targets(node: ast.Import | ast.ImportFrom, rel: str) -> list[tuple[str, str]]:
    """(absolute module, imported name) for each name the statement imports."""
    if isinstance(node, ast.Import):
        return [(a.name, a.name.rpartition(".")[2]) for a in node.names]
    if node.level:
        base = _package(rel)[: len(_package(rel)) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [(module, a.name) for a in node.names]


def owner_package(module: str) -> str:
    """The package a name imported from ``module`` belongs to: ``module`` itself when it is a
    package (``from . import _twin`` takes a submodule or attribute of it), else its parent."""
    return module if (ROOT / module.replace(".", "/")).is_dir() else module.rpartition(".")[0]


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _late_imports(tree: ast.Module):
    """Imports nested in functions or classes, or at module level after other statements."""
    body = list(tree.body)
    seen_code = False
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if seen_code:
                yield node
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and not seen_code:
            continue  # the docstring
        elif _type_checking(node):
            continue
        else:
            seen_code = True
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    yield sub


def _lazy_reason(rel: str, module: str) -> str | None:
    for (pattern, prefix), why in LAZY.items():
        if fnmatch.fnmatch(rel, pattern) and (module == prefix or module.startswith(prefix + ".")):
            return why
    return None


def _commented(lines: list[str], i: int) -> bool:
    """Line ``i`` (0-based, an import) carries a comment, or the block of imports it stands in
    has one on the line above its first import."""
    if "#" in lines[i]:
        return True
    while i > 0 and lines[i - 1].lstrip().startswith(("import ", "from ")):
        i -= 1
    return i > 0 and "#" in lines[i - 1]


def test_imports_are_at_module_top():
    bad, uncommented = [], []
    for path in _modules():
        rel = _rel(path)
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in _late_imports(ast.parse("\n".join(lines))):
            for module, name in _targets(node, rel):
                full = module if isinstance(node, ast.Import) else f"{module}.{name}"
                if _lazy_reason(rel, full) is None:
                    bad.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
                elif not _commented(lines, node.lineno - 1):
                    uncommented.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert not bad, "imports not at module top (move them up, or move the shared piece down):\n" + "\n".join(bad)
    assert not uncommented, "lazy imports without a comment saying why:\n" + "\n".join(uncommented)


def test_no_private_names_across_packages():
    bad = []
    for path in _modules():
        rel = _rel(path)
        here = ".".join(_package(rel))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            for module, name in _targets(node, rel):
                if not name.startswith("_") or name.startswith("__"):
                    continue
                if owner_package(module) != here and not any(fnmatch.fnmatch(rel, p) and n == name for p, n in PRIVATE):
                    bad.append(f"{rel}:{node.lineno}: from {module} import {name}")
    assert not bad, "private names imported across packages:\n" + "\n".join(bad)


@pytest.mark.parametrize("table", [LAZY, PRIVATE])
def test_allow_lists_name_existing_modules(table):
    """An entry whose module is gone is stale: drop it."""
    for pattern, _ in table:
        assert any(fnmatch.fnmatch(_rel(p), pattern) for p in _modules()), pattern


@pytest.mark.parametrize(("module", "pure"), [
    ("mysqlddl.model.oracle", "0"), ("mysqlddl.model.dialects", "0"),   # dialects -> oracle -> resolve
    ("mysqlddl.binlog._twin", "1"), ("mysqlddl.binlog.events.jsonable", "0"),  # rows <-> speedups <-> _twin
    ("mysqlddl.positions", "0"),
])
def test_former_cycle_members_import_first(module, pure, tmp_path):
    """Each module that was part of an import cycle imports first, alone, in a fresh interpreter
    (``_twin`` with MYSQLDDL_PUREPYTHON=1, when speedups selects it)."""
    env = {k: v for k, v in os.environ.items() if k != "MYSQLDDL_REQUIRE_SPEEDUPS"}
    env["MYSQLDDL_PUREPYTHON"] = pure
    # from a neutral directory, so that under tox the installed package is imported, not the checkout
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, env=env,
                       timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
