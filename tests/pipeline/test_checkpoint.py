"""The SQLite checkpoint store on its own: a checkpoint and the schema history saved in one
transaction and read back, the history appended (never rewritten), read-only opening, refusals."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mysqlddl.changes import ChangeReader
from mysqlddl.errors import CheckpointError
from mysqlddl.history import SchemaHistory
from mysqlddl.pipeline import STORE_FORMAT, Checkpoint, SqliteCheckpointStore
from mysqlddl.positions import BinlogPosition
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def history() -> SchemaHistory:
    reader = ChangeReader(open_source(DATA / "shop-bin.000001"), schema=(DATA / "shop-baseline.sql").read_text())
    for _ in reader:
        pass
    assert len(reader.history.records) == 1
    return reader.history


def _ck(pos: int, version: int, **kw) -> Checkpoint:
    return Checkpoint("p", "file:x", BinlogPosition(1, pos, "shop-bin.000001"), "0-1-3", version, 1.5, 7,
                      {"seq": 7}, {"ddl": 1}, **kw)


def test_save_and_load_round_trip(tmp_path, history):
    store = SqliteCheckpointStore(tmp_path / "s.db", "p")
    assert store.load() is None
    store.save(_ck(100, 1, file_created=42), history)
    store.close()
    store = SqliteCheckpointStore(tmp_path / "s.db", "p", readonly=True)
    ck = store.load()
    assert ck == _ck(100, 1, file_created=42)
    h = store.load_history(ck)
    assert [r.ddl for r in h.records] == [r.ddl for r in history.records]
    assert list(h.lines()) == list(history.lines())         # the same history, baseline included
    # another pipeline in the same store has its own row
    assert SqliteCheckpointStore(tmp_path / "s.db", "other", readonly=True).load() is None


def test_the_history_is_appended_once(tmp_path, history):
    store = SqliteCheckpointStore(tmp_path / "s.db", "p")
    empty = SchemaHistory(history.options, baseline=history.catalog_at(BinlogPosition(-1, 0)))
    store.save(_ck(50, 0), empty)
    store.save(_ck(60, 0), empty)
    n = store.db.execute("SELECT COUNT(*) FROM history").fetchone()[0]
    assert n == 1                                           # the header
    store.save(_ck(100, 1), history)
    store.save(_ck(200, 1), history)
    assert store.db.execute("SELECT COUNT(*) FROM history").fetchone()[0] == 2
    assert store.load().position.pos == 200
    store.close()


def test_a_missing_history_line_is_corruption(tmp_path, history):
    store = SqliteCheckpointStore(tmp_path / "s.db", "p")
    store.save(_ck(100, 1), history)
    store.db.execute("DELETE FROM history WHERE idx = 1")
    with pytest.raises(CheckpointError, match="store is corrupt"):
        store.load_history(store.load())
    store.close()


def test_refusals(tmp_path):
    with pytest.raises(CheckpointError, match="has not run yet"):
        SqliteCheckpointStore(tmp_path / "none.db", "p", readonly=True)
    db = sqlite3.connect(tmp_path / "foreign.db")
    db.execute("CREATE TABLE t (a)")
    db.commit()
    db.close()
    with pytest.raises(CheckpointError, match="without the store's tables"):
        SqliteCheckpointStore(tmp_path / "foreign.db", "p")
    SqliteCheckpointStore(tmp_path / "new.db", "p").close()
    db = sqlite3.connect(tmp_path / "new.db")
    assert db.execute("SELECT value FROM meta WHERE key='format'").fetchone()[0] == str(STORE_FORMAT)
    db.close()


# ------------------------------------------------------- a path that exists but is not a store (#30 item 4)


@pytest.mark.parametrize("content", [b"", b"garbage, not a database" * 50], ids=["0-bytes", "garbage"])
def test_an_existing_file_that_is_not_a_store_is_refused_and_left_alone(tmp_path, content):
    path = tmp_path / "s.db"
    path.write_bytes(content)
    with pytest.raises(CheckpointError) as e:
        SqliteCheckpointStore(path, "p")
    assert e.value.path == str(path) and "not a mysqlddl checkpoint store" in str(e.value)
    assert "move it away" in str(e.value)
    assert path.read_bytes() == content           # (nothing written into it)


def test_an_empty_sqlite_database_is_not_a_new_store(tmp_path):
    # (an SQLite file without tables: sqlite3 opens it happily; it is still not this pipeline's store)
    path = tmp_path / "s.db"
    sqlite3.connect(path).execute("PRAGMA user_version = 7").connection.close()
    with pytest.raises(CheckpointError, match="not a mysqlddl checkpoint store.*move it away"):
        SqliteCheckpointStore(path, "p")
    db = sqlite3.connect(path)
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
    db.close()


def test_a_missing_path_is_a_new_store_created_whole(tmp_path):
    path = tmp_path / "deeper" / "s.db"
    SqliteCheckpointStore(path, "p").close()
    assert SqliteCheckpointStore(path, "p").load() is None
    # (no temporary file of its creation left beside it)
    assert sorted(p.name for p in path.parent.iterdir() if not p.name.startswith("s.db")) == []


def _as_nobody(code: str, *paths: Path) -> subprocess.CompletedProcess:
    """``code`` run by an unprivileged user (root bypasses mode bits: EACCES needs another user).

    As root, the child imports what it needs first and only then becomes ``nobody`` (setgid, then
    setuid, no supplementary groups): the interpreter and the installed package may sit where
    ``nobody`` cannot read (a checkout under /root, a private tox environment), the paths under test
    do not."""
    # (from /: `python -c` puts its working directory first on sys.path, and a checkout's root would
    # shadow the installed package with the unbuilt source tree)
    if os.getuid() != 0:
        return subprocess.run([sys.executable, "-c", code, *map(str, paths)], capture_output=True, text=True, cwd="/")
    drop = "import os, pwd\nu = pwd.getpwnam('nobody')\nos.setgroups([])\nos.setgid(u.pw_gid)\nos.setuid(u.pw_uid)\n"
    head, _, body = code.partition("# -- as nobody\n")
    return subprocess.run([sys.executable, "-c", head + drop + body, *map(str, paths)], capture_output=True,
                          text=True, cwd="/")


_OPEN = """import sys
from mysqlddl.errors import CheckpointError
from mysqlddl.pipeline import SqliteCheckpointStore
import mysqlddl.pipeline.checkpoint, sqlite3, errno  # (everything the open needs, imported as root)
# -- as nobody
try:
    SqliteCheckpointStore(sys.argv[1], "p")
except CheckpointError as e:
    print(str(e))
"""


@pytest.fixture
def shared_dir():
    # (not under tmp_path: pytest's base directory is private to its user)
    d = Path(tempfile.mkdtemp(prefix="mysqlddl-perm-"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d)


def test_an_unwritable_directory_is_a_permission_problem_not_corruption(shared_dir):
    proc = _as_nobody(_OPEN, shared_dir / "s.db")
    assert proc.returncode == 0, proc.stderr
    assert "permission denied" in proc.stdout and "EACCES" in proc.stdout and str(shared_dir) in proc.stdout
    assert "corrupt" not in proc.stdout and "not a mysqlddl checkpoint store" not in proc.stdout
    assert not (shared_dir / "s.db").exists()


def test_an_unreadable_store_is_a_permission_problem_not_corruption(shared_dir):
    SqliteCheckpointStore(shared_dir / "s.db", "p").close()
    (shared_dir / "s.db").chmod(0o600)
    proc = _as_nobody(_OPEN, shared_dir / "s.db")
    assert proc.returncode == 0, proc.stderr
    assert "permission denied" in proc.stdout and "EACCES" in proc.stdout and "s.db" in proc.stdout
    assert "corrupt" not in proc.stdout and "not a mysqlddl checkpoint store" not in proc.stdout
