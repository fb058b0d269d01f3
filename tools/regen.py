#!/usr/bin/env python3
"""The grammar maintainer's one command: regenerate the parser, then run the grammar tests.

    python tools/regen.py            regenerate generated/ from grammars/ (if changed), then the grammar tests
    python tools/regen.py --force    regenerate even if the stamp matches
    python tools/regen.py --no-test  regenerate only

With the editable install (pip install -e .) the package imports the parser from generated/, so no
reinstall is needed: a .g4 edit is live after this command.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grammar_build  # noqa: E402

GRAMMAR_TESTS = ["tests/test_stamp.py", "tests/ddl"]


def installed_generated() -> Path | None:
    try:
        import mysqlddl._generated as g
    except ImportError:
        return None
    return Path(g.__file__).resolve().parent


def main(argv: list[str]) -> int:
    try:
        ran = grammar_build.generate(ROOT, force="--force" in argv)
        # the prediction cache belongs to the parser it was learnt with (mysqlddl/ddl/dfa_cache.py)
        grammar_build.build_dfa_caches(ROOT)
    except grammar_build.GrammarBuildError as e:
        print(e, file=sys.stderr)
        return 1
    print("regenerated generated/" if ran else "generated/ already matches grammars/ (use --force to rebuild)")
    where = installed_generated()
    if where is not None and where != (ROOT / "generated").resolve():
        print(f"warning: the installed mysqlddl imports its parser from {where}, not from this checkout; "
              f"use an editable install (pip install -e .) so regenerated grammars are live", file=sys.stderr)
    if "--no-test" in argv:
        return 0
    tests = [t for t in GRAMMAR_TESTS if (ROOT / t).exists()]
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-x", *tests], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
