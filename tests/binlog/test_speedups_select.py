"""The compiled core is required where it should be, and the twin answers identically.

Cases for read_lenenc_int follow sql-common/pack.c net_field_length_ll (first byte <251 is the
value, 251 NULL, 252/253/254 prefix a 2/3/8-byte little-endian value, 255 invalid)."""

import os

import pytest

from mysqlddl.binlog import _twin, speedups
from mysqlddl.errors import CorruptEventError, MysqlddlError, SpeedupsUnavailableError, TruncatedError

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
