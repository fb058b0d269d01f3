"""Binlog test helpers: a builder for synthetic binlog files (for event layouts no shared fixture
contains). The builder writes what the server's ``Log_event::write`` would: magic, an FDE, events
with ``log_pos`` = their end and a CRC32 per event when the FDE says so."""

from __future__ import annotations

import struct
import zlib

import pytest

# Post-header length tables as real servers wrote them in their FDE (read from
# shared/binlogs/maxwell/binlog.000004, 8.0.29, and mariadb-poc/.../mariadb-repl-bin.000001, 11.8.5).
MYSQL80_PHL = bytes.fromhex("000d0008000000000400040000006200041a08000000080808020000000a0a0a2a2a001234000a2800")
MARIADB_PHL = bytes.fromhex(
    "380d000800120004040404120000e400041a08000000080808020000000a0a0a0000000000000a0a0a" + "00" * 118
    + "00041304000d0808080a0a0a")


def lenenc(n: int) -> bytes:
    """sql-common/pack.cc ``net_store_length``."""
    if n < 251:
        return bytes([n])
    if n < 1 << 16:
        return b"\xfc" + n.to_bytes(2, "little")
    if n < 1 << 24:
        return b"\xfd" + n.to_bytes(3, "little")
    return b"\xfe" + n.to_bytes(8, "little")


def varlen(n: int) -> bytes:
    """mysql::serialization unsigned varlen (libs/mysql/serialization/variable_length_integers.h)."""
    nbytes = ((n.bit_length() * 575) >> 12) + 1
    first = ((1 << (nbytes - 1)) - 1) | ((n << nbytes) & 0xFF)
    if nbytes == 1:
        return bytes([first])
    shift = 8 - nbytes + ((nbytes + 7) >> 4)
    return bytes([first]) + (n >> shift).to_bytes(nbytes - 1, "little")


def query_body(status: bytes, db: bytes = b"db", query: bytes = b"SELECT 1", extra_post: bytes = b""):
    """A QUERY event body (statement_events.h ``Query_event``): post-header thread_id(4)
    exec_time(4) db_len(1) error_code(2) status_vars_len(2) [+ ``extra_post``], then status vars,
    db, NUL, query."""
    return (struct.pack("<IIBHH", 7, 1, len(db), 0, len(status)) + extra_post + status + db + b"\0" + query)


def table_map_body(table_id=5, *, ncols_types, meta, null=None, optional=b"", id_width=6):
    """A TABLE_MAP body (rows_event.h ``Table_map_event``): post-header table_id(6, or 4)
    flags(2), then db ``db``, table ``t``, column count, types, metadata, null bitmap, optional
    metadata."""
    n = len(ncols_types)
    return (table_id.to_bytes(id_width, "little") + b"\x01\x00" + b"\x02db\x00" + b"\x01t\x00"
            + lenenc(n) + bytes(ncols_types) + lenenc(len(meta)) + meta
            + (null if null is not None else bytes((n + 7) // 8)) + optional)


class BinlogBuilder:
    def __init__(self, server_version: str = "8.0.29", post_header: bytes = MYSQL80_PHL, crc: bool = True,
                 fde_flags: int = 0):
        self.server_version = server_version
        self.post_header = bytearray(post_header)
        self.crc = crc
        self.fde_flags = fde_flags
        self.events: list[tuple[int, bytes, int]] = []

    def event(self, type_code: int, body: bytes, flags: int = 0) -> BinlogBuilder:
        self.events.append((type_code, bytes(body), flags))
        return self

    def _frame(self, pos: int, type_code: int, body: bytes, flags: int, crc: bool) -> bytes:
        size = 19 + len(body) + (4 if crc else 0)
        raw = struct.pack("<IBIIIH", 1700000000, type_code, 1, size, pos + size, flags) + body
        if crc:
            raw += struct.pack("<I", zlib.crc32(raw) & 0xFFFFFFFF)
        return raw

    @property
    def legacy(self) -> bool:
        """Before the checksum split (MySQL 5.6.1): no algorithm byte, no CRC anywhere."""
        from mysqlddl.binlog.events.format_description import has_checksum_descriptor

        return not has_checksum_descriptor(self.server_version)

    def fde_body(self) -> bytes:
        body = (struct.pack("<H", 4) + self.server_version.encode().ljust(50, b"\0")
                + struct.pack("<IB", 1700000000, 19) + bytes(self.post_header))
        return body if self.legacy else body + bytes([1 if self.crc else 0])

    def build(self) -> bytes:
        if self.legacy:
            self.crc = False
        fde_body = self.fde_body()
        size = 19 + len(fde_body) + (0 if self.legacy else 4)
        head = struct.pack("<IBIIIH", 1700000000, 15, 1, size, 4 + size, 0) + fde_body
        crc = struct.pack("<I", zlib.crc32(head) & 0xFFFFFFFF) if self.crc else b"\0\0\0\0"
        if self.legacy:
            crc = b""
        if self.fde_flags:   # set after the CRC, as the server does with LOG_EVENT_BINLOG_IN_USE_F
            head = head[:17] + struct.pack("<H", self.fde_flags) + head[19:]
        out = bytearray(b"\xfebin" + head + crc)
        for t, body, flags in self.events:
            out += self._frame(len(out), t, body, flags, self.crc)
        return bytes(out)

    def write(self, path):
        path.write_bytes(self.build())
        return path


@pytest.fixture
def build_binlog(tmp_path):
    """``build_binlog(builder) -> list of events`` (the FDE excluded), reading a written file."""
    from mysqlddl.binlog.reader import BinlogReader

    counter = iter(range(1000))

    def read(builder: BinlogBuilder, **kw):
        p = builder.write(tmp_path / f"syn.{next(counter):06d}")
        return list(BinlogReader(p, **kw))[1:]

    return read


def frame(pos: int, type_code: int, body: bytes, *, server_id: int = 1, log_pos: int | None = None, flags: int = 0,
          crc: bool = True) -> bytes:
    """One v4 event at ``pos`` (``Log_event::write``); ``log_pos`` None = its own end; CRC32 unless ``crc`` False."""
    size = 19 + len(body) + (4 if crc else 0)
    raw = struct.pack("<IBIIIH", 1700000000, type_code, server_id, size,
                      pos + size if log_pos is None else log_pos, flags) + body
    return raw + struct.pack("<I", zlib.crc32(raw) & 0xFFFFFFFF) if crc else raw


@pytest.fixture
def bl():
    """The builder and encoders, for tests (test modules cannot import conftest in importlib mode)."""
    import types

    return types.SimpleNamespace(Builder=BinlogBuilder, lenenc=lenenc, varlen=varlen, frame=frame,
                                 query_body=query_body, table_map=table_map_body,
                                 MYSQL80_PHL=MYSQL80_PHL, MARIADB_PHL=MARIADB_PHL)


# ------------------------------------------------------------------------------ the lab workload
#
# tools/workload.py run once per session at small scale on a private MariaDB, in two variants: the
# shared ``mariadb_server`` (binlog_row_metadata=MINIMAL, the server default: TABLE_MAPs carry types
# and metadata only) and a dedicated server with binlog_row_metadata=FULL (column names, signedness,
# charsets, ENUM/SET members in every TABLE_MAP). Each yields a LabRun: the server, the workload's
# Truth (closed binlog files, DDL log with positions, typed final table contents) and the module.

LAB_SCALE = 0.001          # bulk: 500 INSERT + 300 UPDATE + 200 DELETE row changes
LAB_KW = {"scale": LAB_SCALE, "bigtx_rows": 300, "blob_kib": 64, "random_rows": 12}


class LabRun:
    def __init__(self, server, truth, workload, row_metadata: str):
        self.server = server
        self.truth = truth
        self.workload = workload
        self.row_metadata = row_metadata

    @property
    def paths(self):
        return self.truth.paths

    def __repr__(self) -> str:
        return f"<LabRun {self.row_metadata} {len(self.truth.files)} files>"


@pytest.fixture(scope="session")
def lab_workload(tool):
    """The tools/workload.py module."""
    return tool("workload")


@pytest.fixture(scope="session")
def lab_minimal(mariadb_server, lab_workload):
    truth = lab_workload.run(mariadb_server, log=lambda m: None, **LAB_KW)
    return LabRun(mariadb_server, truth, lab_workload, "MINIMAL")


@pytest.fixture(scope="session")
def lab_full(mariadb_server, lab_workload, tmp_path_factory):
    """A second private server with binlog_row_metadata=FULL (mariadb_server first: it skips or fails
    with the install hint when mariadbd is missing)."""
    import os
    from pathlib import Path

    server_class = type(mariadb_server)        # tools/mariadb_lab.MariaDBServer
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdbfull-{os.getpid()}"
    srv = server_class(base, row_metadata="FULL").start()
    try:
        truth = lab_workload.run(srv, log=lambda m: None, **LAB_KW)
        yield LabRun(srv, truth, lab_workload, "FULL")
    finally:
        srv.destroy()


@pytest.fixture(scope="session", params=["MINIMAL", "FULL"])
def lab(request):
    """The workload's binlogs and truth, once per binlog_row_metadata variant."""
    return request.getfixturevalue("lab_minimal" if request.param == "MINIMAL" else "lab_full")
