"""Build glue: ANTLR (grammars/ -> generated/) and Cython (_speedups/ -> mysqlddl._speedups).

Every build path (sdist, wheel, editable, plain install) passes through one of the commands below,
which regenerate the parser when generated/STAMP.json does not match grammars/. An sdist ships a
matching generated/, so a build from it needs no Java. The Cython extension is not optional: a build
that cannot compile it fails, so a broken compiler never silently leaves only the pure-Python twin.
"""

import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tools"))
import grammar_build  # noqa: E402


def _ensure_generated():
    try:
        grammar_build.generate(ROOT)
        grammar_build.build_dfa_caches(ROOT)
    except grammar_build.GrammarBuildError as e:
        sys.exit(f"\n{e}\n")


class BuildPy(build_py):
    def run(self):
        _ensure_generated()
        super().run()


class EggInfo(egg_info):
    # egg_info writes SOURCES.txt, which is the sdist's file list: generated/ must exist first.
    def run(self):
        _ensure_generated()
        super().run()


class Sdist(sdist):
    def run(self):
        _ensure_generated()
        super().run()


dialects = sorted(p.name for p in (ROOT / "grammars").iterdir() if any(p.glob("*.g4")))
packages = find_packages(include=["mysqlddl", "mysqlddl.*"])
packages += ["mysqlddl._generated"] + [f"mysqlddl._generated.{d}" for d in dialects]

extensions = cythonize(
    [Extension("mysqlddl._speedups", ["_speedups/_speedups.pyx"])],
    compiler_directives={
        "language_level": "3",
        # Bounds are checked explicitly by the C cursor (see _speedups/cursor.pxi), so Cython's own
        # per-index checks would only cost time.
        "boundscheck": False,
        "wraparound": False,
        "cdivision": True,
    },
    include_path=["_speedups"],
)

setup(
    packages=packages,
    # dfa.bin: the warmed prediction cache (tools/grammar_build.py build_dfa_caches), where a dialect has one
    package_data={"mysqlddl._generated": ["STAMP.json"], **{f"mysqlddl._generated.{d}": ["dfa.bin"] for d in dialects}},
    ext_modules=extensions,
    cmdclass={"build_py": BuildPy, "egg_info": EggInfo, "sdist": Sdist},
)
