"""The README's "Using mysqlddl from Python" snippets, run in order in one namespace from the
checkout's root (so they cannot rot): each asserts what it shows."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Using mysqlddl from Python"


def snippets() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return re.findall(r"```python\n(.*?)```", text[start:end if end >= 0 else None], re.S)


def test_readme_has_the_python_section():
    assert len(snippets()) >= 4


def test_readme_python_snippets_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for i, code in enumerate(snippets()):
        exec(compile(code, f"README.md snippet {i + 1}", "exec"), namespace)  # noqa: S102
