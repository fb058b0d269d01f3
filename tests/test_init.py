"""``import mysqlddl`` (mysqlddl/__init__.py): a source tree without its build says what to do.

Started in the checkout's root after ``pip install .``, ``python`` finds the source tree's
``mysqlddl/`` first on sys.path (the current directory), which has neither the generated parser
(``mysqlddl._generated``, installed from ``generated/``) nor the compiled core. The subprocesses
below are that interpreter: the editable install's finder (when this venv's install is editable)
is taken out of ``sys.meta_path``, so the source tree stands alone as it does beside a regular install.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# sys.meta_path without setuptools' editable finder (__editable___<dist>_finder._EditableFinder)
ALONE = "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'Editable' not in getattr(f, '__name__', '')]\n"


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", ALONE + code], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_importing_an_unbuilt_source_tree_says_what_to_do():
    p = _python("import mysqlddl", ROOT)
    assert p.returncode == 1, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("mysqlddl.errors.UnbuiltSourceTreeError: ")
    assert str(ROOT / "mysqlddl") in last and "pip install -e ." in last and "another directory" in last


def test_the_builds_own_import_of_the_source_tree_still_works():
    # tools/grammar_build.py (the prediction-cache warmup) imports the source tree with generated/
    # standing in for mysqlddl._generated, before anything is installed
    p = _python("import importlib\nsys.path[:0] = ['generated/..']\n"
                "sys.modules['mysqlddl._generated'] = importlib.import_module('generated')\n"
                "import mysqlddl\nprint(mysqlddl.__file__)", ROOT)
    assert p.returncode == 0, p.stderr
    assert Path(ROOT, p.stdout.strip()).resolve() == ROOT / "mysqlddl" / "__init__.py"
