"""Module sizes (ARCHITECTURE.md, "Conventions"): a module stays under ~600 lines; one over says why
at its top (its docstring gives the reason, naming the 600-line mark), and none is over 800."""

from __future__ import annotations

import ast
from pathlib import Path

import mysqlddl

PACKAGE = Path(mysqlddl.__file__).parent
SOFT, HARD = 600, 800


def _sizes() -> list[tuple[str, int, Path]]:
    return [(p.relative_to(PACKAGE.parent).as_posix(), len(p.read_text(encoding="utf-8").splitlines()), p)
            for p in sorted(PACKAGE.rglob("*.py")) if "_generated" not in p.parts]


def test_no_module_over_800_lines():
    over = [f"{rel}: {n} lines" for rel, n, _ in _sizes() if n > HARD]
    assert not over, f"modules over {HARD} lines (split them along their seams):\n" + "\n".join(over)


def test_modules_over_600_lines_say_why():
    silent = [f"{rel}: {n} lines" for rel, n, path in _sizes()
              if n > SOFT and str(SOFT) not in (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")]
    assert not silent, (f"modules over {SOFT} lines without the reason at their top (the docstring says why it "
                        f"is longer than ~{SOFT} lines, or the module is split):\n" + "\n".join(silent))
