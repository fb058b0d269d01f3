"""The SQLite checkpoint store on its own: a checkpoint and the schema history saved in one
transaction and read back, the history appended (never rewritten), read-only opening, refusals."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from mysqlddl.changes import ChangeReader
from mysqlddl.errors import CheckpointError
from mysqlddl.history import SchemaHistory
from mysqlddl.pipeline import STORE_FORMAT, Checkpoint, SqliteCheckpointStore
from mysqlddl.positions import BinlogPosition

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def history() -> SchemaHistory:
    reader = ChangeReader(DATA / "shop-bin.000001", schema=(DATA / "shop-baseline.sql").read_text())
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
