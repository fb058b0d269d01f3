"""Selector between the compiled core (mysqlddl._speedups) and its pure-Python twin.

- MYSQLDDL_PUREPYTHON=1 forces the twin (what the parity tests and users without a compiler use).
- MYSQLDDL_REQUIRE_SPEEDUPS=1 turns a missing or broken extension into an error instead of a
  fallback; CI sets it so a failed Cython build can never pass as "tests green on the twin".
- Otherwise a missing or broken extension falls back to the twin with one line on stderr, the first
  time (the twin is several times slower: a user who did not ask for it must learn it, once).

The choice is made once, at import; `IMPLEMENTATION` says which one is in use.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

from ..errors import SpeedupsUnavailableError
from . import _twin


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def load_compiled() -> ModuleType:
    """Import the compiled extension, raising SpeedupsUnavailableError with the reason if it is absent."""
    try:
        # in a function: a missing or broken build is an error with its reason, or the twin (select)
        from .. import _speedups
    except ImportError as e:
        raise SpeedupsUnavailableError(
            f"the compiled extension mysqlddl._speedups is not available ({e}); "
            "reinstall with a C compiler and Cython available (pip install .)") from e
    return _speedups


_said = False


def _say_fallback(reason: SpeedupsUnavailableError) -> None:
    """One plain line on stderr, the first time the twin is chosen without being asked for (not a
    ``warnings.warn``: its format prints this file's path and source line; a filter could hide it)."""
    global _said
    if _said:
        return
    _said = True
    sys.stderr.write(f"mysqlddl: {reason}; decoding with the pure-Python twin, several times slower "
                     "(set MYSQLDDL_PUREPYTHON=1 to choose it and silence this line)\n")
    sys.stderr.flush()


def select() -> ModuleType:
    if _flag("MYSQLDDL_PUREPYTHON"):
        if _flag("MYSQLDDL_REQUIRE_SPEEDUPS"):
            raise SpeedupsUnavailableError("MYSQLDDL_PUREPYTHON=1 and MYSQLDDL_REQUIRE_SPEEDUPS=1 contradict")
        return _twin
    try:
        return load_compiled()
    except SpeedupsUnavailableError as e:
        if _flag("MYSQLDDL_REQUIRE_SPEEDUPS"):
            raise
        _say_fallback(e)
        return _twin


impl = select()
IMPLEMENTATION: str = impl.IMPLEMENTATION
