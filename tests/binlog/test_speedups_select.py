"""The compiled core is required where it should be, and the twin answers identically.

Cases for read_lenenc_int follow sql-common/pack.c net_field_length_ll (first byte <251 is the
value, 251 NULL, 252/253/254 prefix a 2/3/8-byte little-endian value, 255 invalid)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mysqlddl.binlog import _twin, speedups
from mysqlddl.errors import CorruptEventError, MysqlddlError, SpeedupsUnavailableError, TruncatedError

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "shop-bin.000001"

LENENC_CASES = [
    # (hex, offset, expected value, expected new offset)
    ("00", 0, 0, 1),
    ("fa", 0, 250, 1),
    ("fb", 0, None, 1),
    ("fc fb 00", 0, 251, 3),
    ("fc ff ff", 0, 65535, 3),
    ("fd 00 00 01", 0, 65536, 4),
    ("fe 01 00 00 00 00 00 00 80", 0, (1 << 63) + 1, 9),
    ("aa 05 bb", 1, 5, 2),
]


@pytest.mark.parametrize("hexs,offset,value,new_offset", LENENC_CASES)
def test_read_lenenc_int(twin, hexs, offset, value, new_offset):
    assert twin.read_lenenc_int(bytes.fromhex(hexs), offset) == (value, new_offset)


@pytest.mark.parametrize("hexs,offset,needed,available", [
    ("", 0, 1, 0), ("fc 01", 0, 2, 1), ("fd 01 02", 0, 3, 2), ("fe 00 00 00 00", 0, 8, 4),
])
def test_read_lenenc_int_truncated(twin, hexs, offset, needed, available):
    with pytest.raises(TruncatedError) as exc:
        twin.read_lenenc_int(bytes.fromhex(hexs), offset)
    assert (exc.value.needed, exc.value.available) == (needed, available)


def test_read_lenenc_int_invalid_first_byte(twin):
    with pytest.raises(CorruptEventError):
        twin.read_lenenc_int(b"\xff\x00", 0)


@pytest.mark.parametrize("offset", [-1, 3])
def test_read_lenenc_int_offset_outside_buffer(twin, offset):
    with pytest.raises(MysqlddlError):
        twin.read_lenenc_int(b"\x01\x02", offset)


def test_require_speedups_turns_missing_extension_into_error(monkeypatch):
    def missing():
        raise SpeedupsUnavailableError("simulated: extension not built")

    monkeypatch.setattr(speedups, "load_compiled", missing)
    monkeypatch.delenv("MYSQLDDL_PUREPYTHON", raising=False)
    monkeypatch.setenv("MYSQLDDL_REQUIRE_SPEEDUPS", "1")
    with pytest.raises(SpeedupsUnavailableError, match="simulated"):
        speedups.select()
    monkeypatch.setenv("MYSQLDDL_REQUIRE_SPEEDUPS", "0")
    assert speedups.select() is _twin


def test_pure_python_switch_selects_twin(monkeypatch):
    monkeypatch.delenv("MYSQLDDL_REQUIRE_SPEEDUPS", raising=False)
    monkeypatch.setenv("MYSQLDDL_PUREPYTHON", "1")
    assert speedups.select() is _twin


@pytest.mark.skipif(os.environ.get("MYSQLDDL_REQUIRE_SPEEDUPS") != "1", reason="only meaningful when required")
def test_required_run_really_uses_a_compiled_module():
    assert speedups.IMPLEMENTATION == "compiled"
    assert speedups.impl.__file__.endswith((".so", ".pyd"))


def _without_compiled(tmp_path, env: dict, code: str) -> subprocess.CompletedProcess:
    """``code`` in a Python where the compiled core cannot be imported (a None in sys.modules makes
    its import raise ImportError, as a missing or broken build does)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MYSQLDDL_")} | env
    prelude = "import sys; sys.modules['mysqlddl._speedups'] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


USE_TWICE = ("from mysqlddl.binlog import speedups\nfrom mysqlddl.binlog.reader import BinlogReader\n"
             f"n = sum(1 for _ in BinlogReader({str(SAMPLE)!r}))\nspeedups.select()\n"
             "print(speedups.IMPLEMENTATION, n)")


def test_a_missing_compiled_core_is_said_once_on_stderr(tmp_path):
    p = _without_compiled(tmp_path, {}, USE_TWICE)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[0] == "pure-python"
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("mysqlddl: the compiled extension mysqlddl._speedups is not available")
    assert "MYSQLDDL_PUREPYTHON=1" in lines[0] and "pip install" in lines[0]


def test_the_pure_python_switch_is_silent(tmp_path):
    p = _without_compiled(tmp_path, {"MYSQLDDL_PUREPYTHON": "1"}, USE_TWICE)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[0] == "pure-python" and p.stderr == ""


def test_required_speedups_stay_an_error(tmp_path):
    p = _without_compiled(tmp_path, {"MYSQLDDL_REQUIRE_SPEEDUPS": "1"}, USE_TWICE)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines()[-1].startswith("mysqlddl.errors.SpeedupsUnavailableError: ")
