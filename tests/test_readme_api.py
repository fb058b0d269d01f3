"""Every ```python snippet of README.md, run as printed (so they cannot rot): each in a fresh
interpreter, saved as a script outside the checkout and started in the checkout's root, where its
relative paths (tests/data/...) point. sys.path[0] is then the script's directory, so the snippet
imports the installed package (the editable install, or tox's wheel), never a bare source tree: the
way the README tells users to run them after `pip install .`.

One substitution, for the one snippet that needs a server (the PostgresSink one, whose README text
says so): the private PostgreSQL of the ``pg_server`` fixture listens on a spare port, which replaces
``127.0.0.1:5432``; the role ``app`` and the database ``target`` the snippet names are made there first.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PG_PLACEHOLDER = "127.0.0.1:5432"


def snippets() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def _needs_pg(code: str) -> bool:
    return "PostgresSink(" in code


SNIPPETS = snippets()
LOCAL = [(i + 1, code) for i, code in enumerate(SNIPPETS) if not _needs_pg(code)]


def run_snippet(code: str, number: int, tmp_path: Path) -> subprocess.CompletedProcess:
    script = tmp_path / f"readme_snippet_{number}.py"
    script.write_text(code, encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_every_python_snippet_is_collected():
    assert len(SNIPPETS) >= 7
    assert sum(_needs_pg(c) for c in SNIPPETS) == 1 and len(LOCAL) == len(SNIPPETS) - 1


@pytest.mark.parametrize("number,code", LOCAL, ids=[f"snippet{n}" for n, _ in LOCAL])
def test_readme_snippet_runs_as_printed(number, code, tmp_path):
    p = run_snippet(code, number, tmp_path)
    assert p.returncode == 0, f"README.md python snippet {number} failed:\n{p.stderr}"
    assert p.stderr == ""       # (no fallback to the pure-Python core, no warning)


def test_readme_postgres_sink_snippet_runs_as_printed(pg_server, tmp_path):
    (code,) = [c for c in SNIPPETS if _needs_pg(c)]
    number = SNIPPETS.index(code) + 1
    assert code.count(PG_PLACEHOLDER) == 1
    code = code.replace(PG_PLACEHOLDER, f"127.0.0.1:{pg_server.port}")
    pg_server.psql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app') THEN "
                   "CREATE ROLE app LOGIN; END IF; END $$")
    pg_server.psql("DROP DATABASE IF EXISTS target")
    pg_server.psql("CREATE DATABASE target OWNER app")
    orders = "SELECT id, status, total FROM shop_copy.orders ORDER BY id"
    want = "1|paid|19.99\n3|paid|5.50\n"        # the sample's orders at its end (shop-bin.PROVENANCE.md)
    p = run_snippet(code, number, tmp_path)
    assert p.returncode == 0, p.stderr
    assert pg_server.psql(orders, dbname="target") == want
    assert "'shop.orders': {'c': 3, 'd': 1, 'u': 2}" in p.stdout
    # run again: it goes on from the checkpoint, nothing is applied twice
    p = run_snippet(code, number, tmp_path)
    assert p.returncode == 0, p.stderr
    assert pg_server.psql(orders, dbname="target") == want and "'rows': {}" in p.stdout
