"""Fixtures of the pipeline tests.

- `lab_server`: a private MariaDB for this package's tests (tools/mariadb_lab.py) with a small
  max_binlog_size (64 KiB), so the workload rotates through many files;
- `lab_binlogs`: the lab workload (tools/workload.py, every phase, small scale, its big transaction
  with 2000 rows) run once on it; its binlog files copied to a directory (the index included);
- `pipeline_file(tmp, source=..., **tables)`: writes a pipeline TOML file;
- `segments_text(dir)`: the sink's output, every segment in log order (closed ones, then the open one).
- `prepare_xa(srv, xid, *statements)`: a new connection to ``srv`` holding XA transaction ``xid``
  prepared (XA START, the statements, XA END, XA PREPARE); the caller resolves it and closes it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

LAB_KW = {"scale": 0.001, "bigtx_rows": 2000, "blob_kib": 64, "random_rows": 12}


def _mariadb_lab(tool):
    lab = tool("mariadb_lab")
    if not lab.mariadbd_path():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{lab.INSTALL_HINT} (CI=true: this must not be skipped)", pytrace=False)
        pytest.skip(lab.INSTALL_HINT)
    return lab


@pytest.fixture(scope="session")
def lab_server(tool, tmp_path_factory):
    lab = _mariadb_lab(tool)
    base = Path(os.environ.get("MYSQLDDL_TEST_TMP", "/tmp")) / f"mdb-pipe-{os.getpid()}"
    srv = lab.MariaDBServer(base, extra_args=("--max-binlog-size=65536",))
    srv.start()
    try:
        yield srv
    finally:
        srv.destroy()


@pytest.fixture(scope="session")
def lab_binlogs(lab_server, tool, tmp_path_factory) -> Path:
    """A directory with the workload's binlog files (closed: the workload ends with a FLUSH)."""
    truth = tool("workload").run(lab_server, database="pipelab", tmp_database="pipelab_tmp", log=lambda m: None,
                                 **LAB_KW)
    out = tmp_path_factory.mktemp("lab-binlogs")
    for p in truth.paths:
        shutil.copyfile(p, out / p.name)
    return out


def write_pipeline(path: Path, *, source, sink, store, extra: str = "") -> Path:
    path.write_text(f'[source]\nuri = "file://{source}"\n[sink]\nuri = "{sink}"\n[checkpoint]\n'
                    f'uri = "sqlite://{store}"\n{extra}', encoding="utf-8")
    return path


def segments_text(directory: Path) -> str:
    # (closed segments sort by their first position; the open one comes last)
    names = sorted(p.name for p in directory.iterdir() if p.name.endswith(".jsonl"))
    names += sorted(p.name for p in directory.iterdir() if p.name.endswith(".jsonl.tmp"))
    return "".join((directory / n).read_text(encoding="ascii") for n in names)


@pytest.fixture(scope="session")
def pipeline_file():
    return write_pipeline


@pytest.fixture
def shop_pipeline(tmp_path):
    """``shop_pipeline(extra="") -> Path``: a pipeline file over a copy of the shop sample binlog
    (tests/data/shop-bin.000001, its baseline as [changes] schema) into ``jsonl://TMP/out``, its store
    TMP/state.db, committing every 2 transactions; ``extra`` appended to the file."""
    data = Path(__file__).resolve().parent.parent / "data"

    def make(extra: str = "") -> Path:
        src = tmp_path / "binlogs"
        src.mkdir()
        shutil.copyfile(data / "shop-bin.000001", src / "shop-bin.000001")
        return write_pipeline(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out",
                              store=tmp_path / "state.db",
                              extra=f'every_transactions = 2\nevery_ms = 600000\n[changes]\n'
                                    f'schema = "{data / "shop-baseline.sql"}"\n{extra}')

    return make


@pytest.fixture(scope="session")
def read_segments():
    return segments_text


def _prepare_xa(srv, xid: str, *statements: str):
    conn = srv.connect()
    try:
        with conn.cursor() as cur:
            cur.execute(f"XA START '{xid}'")
            for statement in statements:
                cur.execute(statement)
            cur.execute(f"XA END '{xid}'")
            cur.execute(f"XA PREPARE '{xid}'")
    except BaseException:
        conn.close()
        raise
    return conn


@pytest.fixture(scope="session")
def prepare_xa():
    return _prepare_xa
