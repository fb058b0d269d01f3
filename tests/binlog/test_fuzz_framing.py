"""Fuzzing framing and decoding: real files mutated (bit flips, byte overwrites, truncation,
deleted and inserted runs) must end in a BinlogError or decode -- never a crash, a hang or an
untyped exception. Checksums are off so the damage reaches the decoders; rows events are decoded
too, on both twins. The default run takes a short sample; ``--run-slow`` runs a long one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mysqlddl.binlog.events import RowsEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import BinlogError, MysqlddlError
from mysqlddl.options import Options

SOURCES = [
    "binlogs/boxercrab/bin_files/binlog.bin",                        # 5.7 CRC32, rows v2
    "binlogs/mysql-binlog-connector-java/mysql-bin.compressed",      # 8.0 zstd payload
    "binlogs/canal/binlog/mysql-bin.000002",                         # 5.1, rows v1
    "binlogs/zalora-binlog-parser/fixtures/mysql-bin.07",            # MariaDB 10.0
    "binlogs/mysql-cdc-rs/8.0/02_query_bigger/binlog.000733",        # 8.0.31 with optional metadata
    "binlogs/mysql-cdc-rs/5.7/14_user_var/log.bin",
]
OPTS = Options(verify_checksums=False, max_decompressed_size=1 << 22)

mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 1 << 20), st.integers(0, 7)),
    st.tuples(st.just("set"), st.integers(0, 1 << 20), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, 1 << 20), st.just(0)),
    st.tuples(st.just("delete"), st.integers(0, 1 << 20), st.integers(1, 16)),
    st.tuples(st.just("insert"), st.integers(0, 1 << 20), st.integers(0, 255)),
)


def mutate(data: bytes, muts) -> bytes:
    b = bytearray(data)
    for kind, at, arg in muts:
        if not b:
            break
        at %= len(b)
        if kind == "flip":
            b[at] ^= 1 << arg
        elif kind == "set":
            b[at] = arg
        elif kind == "cut":
            del b[at:]
        elif kind == "delete":
            del b[at:at + arg]
        else:
            b[at:at] = bytes([arg]) * 3
    return bytes(b)


def run_one(path, data, tmp):
    tmp.write_bytes(data)
    try:
        for ev in BinlogReader(tmp, options=OPTS):
            if isinstance(ev, RowsEvent) and ev.table_map is not None:
                try:
                    ev.rows()
                except MysqlddlError as e:   # the row decoder's typed errors are fine
                    assert isinstance(e, BinlogError)
    except BinlogError as e:
        assert e.file == str(tmp)
        assert e.offset is not None or e.log_pos is not None


def _fuzz(shared_path, tmp_path, twin, data_strategy):
    blobs = {rel: (shared_path / rel).read_bytes() for rel in SOURCES}
    tmp = tmp_path / "fuzz.000001"

    @given(rel=st.sampled_from(SOURCES), muts=st.lists(mutation, min_size=1, max_size=4))
    def inner(rel, muts):
        run_one(rel, mutate(blobs[rel], muts), tmp)

    data_strategy(inner)()


def test_fuzz_short(shared_path, tmp_path, twin):
    _fuzz(shared_path, tmp_path, twin,
          settings(max_examples=60, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.function_scoped_fixture]))


@pytest.mark.slow
def test_fuzz_long(shared_path, tmp_path, twin):
    _fuzz(shared_path, tmp_path, twin,
          settings(max_examples=3000, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture]))
