"""The package's import rules (issue #19), checked by walking every module of mysqlddl/ with ast:

1. every import is at module top: no import inside a function or class, and none after the first
   statement that is not an import (a docstring, ``from __future__`` and ``if TYPE_CHECKING:``
   blocks aside). An import cycle is untangled by moving the shared piece down, never patched with
   a late import. The only exceptions are lazy loads of something heavy or optional, listed in
   LAZY with the reason, and each carrying a ``#`` comment on its line or the line above;
2. no private name (``_x``) is imported from another package;
3. the layer order of ARCHITECTURE.md ("Layers"): a module imports only from its own layer or a
   lower one. Every import counts (at module top, lazy, under ``if TYPE_CHECKING:``), and so does a
   string naming a module (a registry that loads it by name), which only :data:`BY_NAME` admits.
   Every top-level package and module of mysqlddl/ is placed in :data:`LAYERS`; an unplaced one
   fails, so a new package is placed when it arrives.

The rules walk whatever modules exist, so new packages are checked as they arrive.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import os
import re
import shutil
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
    ("mysqlddl/changes/start.py", "mysqlddl.sources.server.snapshot"): "PyMySQL and the capture load only when a "
                                                                      "stream starts with a snapshot",
    ("mysqlddl/changes/start.py", "mysqlddl.changes.snapshot"): "PyMySQL and the row readers load only when an "
                                                                "initial snapshot reads rows",
    ("mysqlddl/sources/server/snapshot.py", "mysqlddl.ddl"): "the DDL front door (grammar and listeners, ~0.3 s) "
                                                             "only when a capture builds its own catalog",
    ("mysqlddl/pipeline/config.py", "tomllib"): "stdlib from Python 3.11, chosen by version at module top",
    ("mysqlddl/pipeline/config.py", "tomli"): "the same TOML parser on Python 3.10 (a dependency there only)",
    ("mysqlddl/sinks/typed.py", "pyarrow"): "heavy and optional (mysqlddl[spark]): only when a typed dataset is built",
}

# Private names imported across packages that stay: (module path glob, imported name) -> why.
PRIVATE = {
    ("mysqlddl/binlog/speedups.py", "_speedups"): "the compiled extension is private to the package; "
                                                   "ARCHITECTURE.md: only binlog/ imports it, through this "
                                                   "selector",
}


# The layer order, bottom to top (ARCHITECTURE.md, "Layers", lists the same table): each top-level
# package or module of mysqlddl/ (its first dotted name below ``mysqlddl``), in the layer named first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # what everything else may use: errors, options, positions, secrets, paths, fault injection, and
    # text in MySQL's character sets (a DDL script file, a charset name's codec)
    ("base", ("errors", "options", "positions", "redact", "paths", "faults", "textcodecs", "textfiles")),
    ("model", ("model",)),
    ("commands", ("commands",)),
    # the package root stands with ddl: it holds __version__ and hands out parse_ddl/apply_script
    # (loaded from ddl on first use); _generated is the ANTLR parser ddl drives
    ("ddl", ("ddl", "_generated", "__init__")),
    ("history", ("history",)),
    # _speedups is the compiled core of the decoder (binlog/speedups.py selects it or the pure twin)
    ("binlog", ("binlog", "_speedups")),
    ("sources", ("sources",)),
    ("changes", ("changes",)),
    ("olr", ("olr",)),
    ("mapping", ("mapping",)),
    ("sinks", ("sinks",)),
    ("pipeline", ("pipeline",)),
    # the two front ends share the top: the CLI runs the Spark job, the job's entry point runs the CLI
    ("cli", ("cli", "spark", "__main__")),
)

# A string naming a module of a higher layer (a registry that imports it by name on first use, the
# string being the module or "module:attribute"): (module path glob, named module) -> why the lower
# layer may name it.
BY_NAME = {
    ("mysqlddl/sources/__init__.py", "mysqlddl.olr.source"): "the URI registry's olr:// entry; the OLR source "
                                                              "implements the source contract but lives with "
                                                              "its document and record readers above changes, "
                                                              "and loads only for an olr:// URI",
}

_RANK = {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}
_LAYER = {unit: name for name, units in LAYERS for unit in units}
# a module's dotted name, alone or as a registry's "module:attribute"
_MODULE_NAME = re.compile(r"(mysqlddl(?:\.\w+)+)(?::\w+)?")


def _modules(package: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "_generated" not in p.parts)


def _rel(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


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


def unit_of(rel: str) -> str:
    """The top-level package or module of mysqlddl/ that the file ``rel`` belongs to
    (``mysqlddl/binlog/rows.py``: binlog; ``mysqlddl/errors.py``: errors; the package's own
    ``__init__.py``: __init__)."""
    first = rel.split("/")[1]
    return first[:-3] if first.endswith(".py") else first


def _imported(module: str, name: str | None) -> tuple[str, str] | None:
    """(unit, module) an import takes ``name`` (None for ``import module``) from, None outside
    mysqlddl. ``from mysqlddl import ddl`` takes the unit ddl; ``from mysqlddl import __version__``
    the package root."""
    parts = module.split(".")
    if parts[0] != "mysqlddl":
        return None
    if len(parts) > 1:
        return parts[1], module
    if name in _RANK:
        return name, f"mysqlddl.{name}"
    return "__init__", "mysqlddl"


def upward_references(rel: str, source: str) -> list[tuple[int, str, str]]:
    """(line, module, how) for every reference in ``source`` (the text of the file ``rel``) to a
    module of a layer above ``rel``'s: an import anywhere (``how`` is "imports") or a string that is
    a module's dotted name ("names"). References to an unplaced unit, or from one, are left to
    :func:`unplaced`."""
    here = _RANK.get(unit_of(rel))
    if here is None:
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        refs: list[tuple[tuple[str, str] | None, str]] = []
        if isinstance(node, ast.Import):
            refs = [(_imported(module, None), "imports") for module, _ in _targets(node, rel)]
        elif isinstance(node, ast.ImportFrom):
            refs = [(_imported(module, name), "imports") for module, name in _targets(node, rel)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_NAME.fullmatch(node.value):
            module = _MODULE_NAME.fullmatch(node.value).group(1)
            refs = [((module.split(".")[1], module), "names")]
        for ref, how in refs:
            if ref is not None and _RANK.get(ref[0], -1) > here:
                found.append((node.lineno, ref[1], how))
    return sorted(set(found))


def _allowed(rel: str, module: str, how: str) -> bool:
    # (an import is never admitted upward: only a registry's string naming a module, by BY_NAME)
    return how == "names" and any(fnmatch.fnmatch(rel, p) and module == m for p, m in BY_NAME)


def layer_violations(package: Path = PACKAGE) -> list[str]:
    """Each upward reference in the package tree at ``package`` that no table admits, as
    ``file:line: unit (layer) imports module (layer)``."""
    bad = []
    for path in _modules(package):
        rel = _rel(path, package.parent)
        for line, module, how in upward_references(rel, path.read_text(encoding="utf-8")):
            if not _allowed(rel, module, how):
                here, there = unit_of(rel), module.split(".")[1]
                bad.append(f"{rel}:{line}: {here} (layer {_LAYER[here]}) {how} {module} (layer {_LAYER[there]})")
    return bad


def unplaced(package: Path = PACKAGE) -> list[str]:
    """The top-level packages and modules of the tree at ``package`` that :data:`LAYERS` does not place."""
    return sorted({unit_of(_rel(p, package.parent)) for p in _modules(package)} - _RANK.keys())


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


@pytest.mark.parametrize("table", [LAZY, PRIVATE, BY_NAME])
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


def test_every_module_is_placed_in_a_layer():
    missing = unplaced()
    assert not missing, ("top-level packages or modules with no layer (place each in LAYERS here and in "
                         "ARCHITECTURE.md):\n" + "\n".join(missing))


def test_layers_name_existing_units():
    """A placed unit that is gone is stale: drop it (here and in ARCHITECTURE.md)."""
    for unit in _RANK:
        where = PACKAGE / unit
        found = where.is_dir() or where.with_suffix(".py").exists() or unit in ("__init__", "__main__")
        assert found or importlib.util.find_spec(f"mysqlddl.{unit}") is not None, unit


def test_no_upward_imports():
    bad = layer_violations()
    assert not bad, ("imports (or module names) reaching a higher layer; move the shared piece down, or take a "
                     "protocol (ARCHITECTURE.md, \"Layers\"):\n" + "\n".join(bad))


def test_architecture_lists_the_same_layers():
    """ARCHITECTURE.md's layer table places the same packages and modules in the same order as LAYERS."""
    text = (Path(__file__).resolve().parent.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| ") and "`" in line.split("|")[1]]
    assert [set(re.findall(r"`(\w+)`", first)) for first in rows] == [set(units) for _, units in LAYERS]


PLANTED = """\
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..cli import main
from ..errors import BinlogError

if TYPE_CHECKING:
    from mysqlddl.pipeline.runner import Pipeline


def load():
    import mysqlddl.sinks.jsonl  # lazy, and still upward
    from .. import changes
    return importlib.import_module("mysqlddl.spark.job"), changes, main, BinlogError
"""


def test_planted_upward_imports_fail_the_check(tmp_path):
    """A binlog/ module planted into a copy of the package, importing cli at its top, pipeline
    under TYPE_CHECKING, sinks and changes in a function, and naming spark by string: each is
    reported with the file, the line and both layers; its downward import (errors) is not."""
    copy = tmp_path / "mysqlddl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    before = layer_violations(copy)
    assert before == layer_violations()
    (copy / "binlog" / "planted.py").write_text(PLANTED, encoding="utf-8")
    new = [v for v in layer_violations(copy) if v not in before]
    assert new == [
        "mysqlddl/binlog/planted.py:6: binlog (layer binlog) imports mysqlddl.cli (layer cli)",
        "mysqlddl/binlog/planted.py:10: binlog (layer binlog) imports mysqlddl.pipeline.runner (layer pipeline)",
        "mysqlddl/binlog/planted.py:14: binlog (layer binlog) imports mysqlddl.sinks.jsonl (layer sinks)",
        "mysqlddl/binlog/planted.py:15: binlog (layer binlog) imports mysqlddl.changes (layer changes)",
        "mysqlddl/binlog/planted.py:16: binlog (layer binlog) names mysqlddl.spark.job (layer cli)",
    ]


def test_planted_package_must_be_placed(tmp_path):
    copy = tmp_path / "mysqlddl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (copy / "brokers").mkdir()
    (copy / "brokers" / "__init__.py").write_text('"""A new sink family."""\n', encoding="utf-8")
    (copy / "settings.py").write_text('"""A new top-level module."""\n', encoding="utf-8")
    assert unplaced(copy) == ["brokers", "settings"]


@pytest.mark.parametrize(("rel", "source", "expected"), [
    ("mysqlddl/errors.py", "from .model.ids import TableId\n", [(1, "mysqlddl.model.ids", "imports")]),
    ("mysqlddl/model/table.py", "from .. import __version__\n", [(1, "mysqlddl", "imports")]),
    ("mysqlddl/changes/reader.py", "from ..olr import reader\n", [(1, "mysqlddl.olr", "imports")]),
    ("mysqlddl/olr/reader.py", "from ..changes.records import RowChange\nfrom ..binlog import rows\n", []),
    ("mysqlddl/spark/job.py", "from ..cli import main\n", []),   # one layer: cli and spark
    ("mysqlddl/cli/run.py", "import mysqlddl.pipeline.runner\nimport json\n", []),
    ("mysqlddl/sources/x.py", "OPENERS = {'olr': 'mysqlddl.olr.source'}\n", [(1, "mysqlddl.olr.source", "names")]),
    ("mysqlddl/sources/x.py", "doc = 'see mysqlddl.olr.source for OLR'\n", []),   # prose, not a name
    ("mysqlddl/sources/x.py", "OPENERS = {'olr': 'mysqlddl.olr.source:open_olr'}\n",
     [(1, "mysqlddl.olr.source", "names")]),
    ("mysqlddl/sources/x.py", "OPENERS = {'mysql': 'mysqlddl.sources.server.stream:open_server'}\n", []),
])
def test_upward_references_on_synthetic_sources(rel, source, expected):
    assert upward_references(rel, source) == expected
