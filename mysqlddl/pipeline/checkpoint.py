"""Checkpoints and the stores that keep them (the protocol is in :mod:`mysqlddl.pipeline`).

A checkpoint is written only at a transaction's end, after the sink made everything before it
durable. It holds the source's identity, the position where the next transaction starts (file,
its sequence number, byte offset), the GTID set up to there, the schema history in force there
(its version: the number of records), the time, the next per-event sequence number, the sink's
state and the cumulated stats. The schema history's new records go into the store in the same
transaction as the checkpoint row, so a restart never re-parses from the beginning and never
applies a DDL twice.

The default store is SQLite (stdlib ``sqlite3``): WAL journal, ``synchronous=FULL`` (SQLite
manual, "PRAGMA synchronous": FULL syncs the WAL at every commit, so a committed checkpoint
survives a power loss), one row per pipeline in ``checkpoint``, the history's JSON lines in
``history`` (one row per line, appended), the store's format in ``meta``. Each save is one
``BEGIN IMMEDIATE ... COMMIT``.

A path that does not exist is a new pipeline: the store is built whole under a temporary name and
linked into place (link(2) fails on an existing name), so a path that exists is a store that was
fully created. A path that exists and is not a store (0 bytes, another file, an SQLite database
without the store's tables) is refused, never taken for a new pipeline (which would deliver
everything again): the user moves it away to start anew. A store or directory this user cannot read
or write is a permission problem (:class:`~mysqlddl.errors.CheckpointAccessError`), not corruption.
Each store has an identity (``meta`` ``store_id``, random, kept when the file moves): what a sink
directory records as its owner (:mod:`mysqlddl.sinks.segments`).

After a failover followed (:mod:`.failover`) the row's JSON ``data`` also holds ``failover`` (the
epoch, the identities, when), and the first save on the new server replaces the pipeline's
history rows with the new server's re-based history in its transaction (the old rows renamed to
``PIPELINE#epochN``, kept for reading): the layout is the same, no format change.

Positions of another kind than a binlog's (an OLR source's :class:`~mysqlddl.positions.OlrResumePosition`)
keep file, file_seq and pos in their columns and the rest under ``position`` in the row's JSON
``data``, with their ``kind``: a binlog checkpoint's row is what it was (no format change), and a
kind this version does not know is refused by name.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import sqlite3
import time
import uuid
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .. import __version__
from ..errors import CheckpointAccessError, CheckpointError, SchemaHistoryError
from ..faults import fault
from ..history import SchemaHistory
from ..options import DEFAULT, Options
from ..paths import link_into_place
from ..positions import BinlogPosition, OlrResumePosition

#: The store's layout version. A store written with a larger one was written by a newer mysqlddl:
#: refused (its rows may mean something this version cannot know).
STORE_FORMAT = 1


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """One pipeline's checkpoint. ``source_id``: the source's identity (a server's server_uuid, or
    for files the first FORMAT_DESCRIPTION's server id and version with the binlog base name);
    ``position``: where the next transaction starts; ``gtid_set``: text ("" without GTIDs);
    ``history_version``: the number of schema-history records in force; ``time``: when it was
    written (Unix seconds); ``sequence``: the next per-event sequence number; ``sink_state``: what
    the sink's ``commit`` returned; ``stats``: the cumulated stats (:class:`~.stats.Stats`);
    ``written_by``: the mysqlddl version that wrote it; ``file_created``: the FORMAT_DESCRIPTION
    timestamp of the position's file (a restart checks it reads the same file, not one of the same
    name from another server)."""

    pipeline: str
    source_id: str
    position: BinlogPosition            # (or an OlrResumePosition: mysqlddl.olr.source)
    gtid_set: str = ""
    history_version: int = 0
    time: float = 0.0
    sequence: int = 0
    sink_state: dict | None = None
    stats: dict | None = None
    written_by: str = __version__
    file_created: int | None = None
    #: what the source's reader needs to go on from the position as it would have (an OLR
    #: source: the column types OLR sent once per table; None for binlog sources)
    reader_state: dict | None = None
    #: the last failover followed (pipeline.failover): its ``epoch`` (how many so far), ``from`` /
    #: ``to`` identities, ``time``, the ``gtid_set`` it went on from; None when there was none
    failover: dict | None = None

    def as_dict(self) -> dict:
        p = self.position
        d = {"pipeline": self.pipeline, "source_id": self.source_id, "file": p.file, "file_seq": p.file_seq,
             "pos": p.pos, "gtid_set": self.gtid_set, "history_version": self.history_version,
             "time": self.time, "sequence": self.sequence, "sink_state": self.sink_state,
             "written_by": self.written_by, "file_created": self.file_created}
        d.update(self.optional_fields())
        return d

    def optional_fields(self) -> dict:
        """What a checkpoint holds only when it has it: an OLR position's fields beyond file,
        file_seq and pos (:func:`position_extra`), the reader's state, the last failover."""
        d = {}
        extra = position_extra(self.position)
        if extra is not None:
            d["position"] = extra      # (an OLR position: its c_scn, c_idx, scn, xid)
        if self.reader_state is not None:
            d["reader_state"] = self.reader_state
        if self.failover is not None:
            d["failover"] = self.failover
        return d


def position_extra(p) -> dict | None:
    """What a position of another kind than a binlog's holds beyond file, file_seq and pos (its
    ``kind`` first); None for a binlog position (whose checkpoints keep the format they had)."""
    return p.as_dict() if getattr(p, "kind", "binlog") != "binlog" else None


def make_position(file: str, file_seq: int, pos: int, extra: dict | None):
    """The position a checkpoint stored (:func:`position_extra`): a BinlogPosition without
    ``extra``; else the kind ``extra`` names (an unknown kind: a newer mysqlddl wrote it)."""
    if extra is None:
        return BinlogPosition(int(file_seq), int(pos), file)
    kind = extra.get("kind")
    if kind == "olr":
        return OlrResumePosition.from_dict(file, file_seq, pos, extra)
    raise CheckpointError(f"the checkpoint's position is of kind {kind!r}, which this mysqlddl ({__version__}) "
                          "does not know: written by a newer mysqlddl? upgrade mysqlddl")


class CheckpointStore:
    """Where checkpoints live. ``load()`` gives the pipeline's last :class:`Checkpoint` (None when
    there is none) and ``load_history(checkpoint, options)`` the schema history it names;
    ``save(checkpoint, history)`` writes the checkpoint row and the history records the store does
    not hold yet (``history.records[stored:checkpoint.history_version]``) in one atomic step;
    ``close()``. A sink that keeps the checkpoint in its own target implements this too
    (:meth:`mysqlddl.sinks.base.Sink.checkpoint_store`)."""

    def load(self) -> Checkpoint | None:
        raise NotImplementedError

    def load_history(self, checkpoint: Checkpoint, options: Options = DEFAULT) -> SchemaHistory | None:
        raise NotImplementedError

    def save(self, checkpoint: Checkpoint, history: SchemaHistory) -> None:
        raise NotImplementedError

    def rebase_history(self, archive: str) -> None:
        """The next :meth:`save` replaces the stored history with the one it is given (a failover
        starts a new history: pipeline.failover), in the same atomic step; the store may keep the
        old one under the name ``archive``."""
        raise CheckpointError(f"the store {type(self).__name__} cannot start a new schema history (a failover)")

    def close(self) -> None:
        """Release the store."""


def sqlite_path(uri: str) -> Path:
    """The file of a ``sqlite:///path`` URI (or a bare path)."""
    if "://" not in uri:
        return Path(uri)
    parts = urlsplit(uri)
    if parts.scheme != "sqlite":
        raise CheckpointError(f"a checkpoint store URI is sqlite:///PATH, not {uri!r}", setting="checkpoint.uri")
    return Path(unquote(parts.path))


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS checkpoint (pipeline TEXT PRIMARY KEY, source_id TEXT NOT NULL, file TEXT NOT NULL, "
    "file_seq INTEGER NOT NULL, pos INTEGER NOT NULL, gtid_set TEXT NOT NULL, history_version INTEGER NOT NULL, "
    "time REAL NOT NULL, sequence INTEGER NOT NULL, written_by TEXT NOT NULL, data TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS history (pipeline TEXT NOT NULL, idx INTEGER NOT NULL, line TEXT NOT NULL, "
    "PRIMARY KEY (pipeline, idx))",
)


#: the first 16 bytes of every SQLite database file (sqlite.org/fileformat.html, 1.3 "The Database Header")
SQLITE_MAGIC = b"SQLite format 3\x00"
#: what a refusal of a file that is not a store tells the user to do
_MOVE_AWAY = ("to start this pipeline anew, move it away (the next run then delivers everything again from the "
              "beginning); if [checkpoint] uri names the wrong file, fix it")


class SqliteCheckpointStore(CheckpointStore):
    """The embedded default store (the module docstring). ``readonly`` (``mysqlddl status``):
    opens an existing file without creating or changing anything."""

    def __init__(self, path: str | os.PathLike, pipeline: str, *, readonly: bool = False):
        self.path = Path(path)
        self.pipeline = pipeline
        self._stored = None            # history lines the store holds for this pipeline (header included)
        self._rebase = None            # the archive name of the history the next save replaces
        if not os.path.lexists(self.path):
            if readonly:
                raise CheckpointError("no checkpoint store here (the pipeline has not run yet)", path=str(self.path))
            self._create()
        self._check_file(readonly)
        try:
            if readonly:
                self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
            self._check_format(readonly)
        except sqlite3.DatabaseError as e:
            raise CheckpointError(f"not a mysqlddl checkpoint store (a damaged SQLite file): {e}; {_MOVE_AWAY}",
                                  path=str(self.path)) from None

    def _denied(self, e: OSError, what: str, where: Path) -> CheckpointAccessError:
        name = errno.errorcode.get(e.errno, str(e.errno))
        return CheckpointAccessError(f"permission denied ({name}): cannot {what} as uid {os.geteuid()}: give this "
                                     "user access (or set [checkpoint] uri to a path it can write); the store is not "
                                     "damaged", path=str(where))

    def _create(self) -> None:
        """A new store, built whole under a temporary name and linked into place (the module
        docstring): a crash while it is built leaves no half store at the path."""
        parent = self.path.parent
        tmp = parent / f".{self.path.name}.new-{os.getpid()}"
        try:
            parent.mkdir(parents=True, exist_ok=True)
            tmp.unlink(missing_ok=True)         # (left by a process of this PID that died creating it)
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except PermissionError as e:
            raise self._denied(e, "create a file in the store's directory", parent) from None
        except OSError as e:
            if e.errno != errno.EROFS:
                raise
            raise self._denied(e, "create a file in the store's directory", parent) from None
        try:
            db = sqlite3.connect(tmp, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")           # (kept in the file's header)
                db.execute("PRAGMA synchronous=FULL")
                db.execute("BEGIN IMMEDIATE")
                for stmt in _SCHEMA:
                    db.execute(stmt)
                db.execute("INSERT INTO meta VALUES ('format', ?), ('created_by', ?), ('store_id', ?)",
                           (str(STORE_FORMAT), __version__, uuid.uuid4().hex))
                db.execute("COMMIT")
            finally:
                db.close()          # (the last connection: the WAL is checkpointed into the file, removed)
            # (False: created meanwhile by another process; that one is checked as any)
            link_into_place(tmp, self.path)
        finally:
            for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass

    def _check_file(self, readonly: bool) -> None:
        """The path is an SQLite file this user can use: its magic, read and write permissions
        (WAL also writes ``-wal`` and ``-shm`` files beside it)."""
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except PermissionError as e:
            raise self._denied(e, "read the store", self.path) from None
        except IsADirectoryError:
            raise CheckpointError(f"not a mysqlddl checkpoint store: a directory; {_MOVE_AWAY}",
                                  path=str(self.path)) from None
        if head != SQLITE_MAGIC:
            what = "an empty file (0 bytes)" if not head else f"not an SQLite file (it starts with {head[:8]!r})"
            raise CheckpointError(f"not a mysqlddl checkpoint store: {what}; {_MOVE_AWAY}", path=str(self.path))
        if readonly:
            return
        for where, what in ((self.path, "write the store"), (self.path.parent, "write in the store's directory")):
            if not os.access(where, os.W_OK):
                raise self._denied(PermissionError(errno.EACCES, "Permission denied"), what, where)

    def _check_format(self, readonly: bool) -> None:
        db = self.db
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables or "checkpoint" not in tables or "history" not in tables:
            which = "without tables" if not tables else "without the store's tables (meta, checkpoint, history)"
            raise CheckpointError(f"not a mysqlddl checkpoint store: the file is an SQLite database {which}; "
                                  f"{_MOVE_AWAY}", path=str(self.path))
        row = db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        try:
            fmt = int(row[0])
        except (TypeError, ValueError):
            raise CheckpointError(f"not a mysqlddl checkpoint store: its format is {row!r}",
                                  path=str(self.path)) from None
        if fmt > STORE_FORMAT:
            by = db.execute("SELECT value FROM meta WHERE key='created_by'").fetchone()
            raise CheckpointError(f"the store has format {fmt}, written by a newer mysqlddl "
                                  f"({by[0] if by else 'unknown version'}); this is mysqlddl {__version__}, which "
                                  f"knows format {STORE_FORMAT}: upgrade mysqlddl", path=str(self.path))
        if not readonly:
            # (a store made before stores had an identity gets one now)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('store_id', ?)", (uuid.uuid4().hex,))

    @property
    def store_id(self) -> str | None:
        """The store's identity (the module docstring); None in a read-only store that has none."""
        row = self.db.execute("SELECT value FROM meta WHERE key='store_id'").fetchone()
        return row[0] if row else None

    def load(self) -> Checkpoint | None:
        try:
            row = self.db.execute("SELECT source_id, file, file_seq, pos, gtid_set, history_version, time, sequence, "
                                  "written_by, data FROM checkpoint WHERE pipeline=?", (self.pipeline,)).fetchone()
        except sqlite3.DatabaseError as e:
            raise CheckpointError(f"cannot read the checkpoint: {e}", path=str(self.path)) from None
        if row is None:
            return None
        try:
            data = json.loads(row[9])
            position = make_position(row[1], row[2], row[3], data.get("position"))
            return Checkpoint(self.pipeline, row[0], position, row[4],
                              int(row[5]), float(row[6]), int(row[7]), data.get("sink_state"), data.get("stats"),
                              row[8], data.get("file_created"), data.get("reader_state"), data.get("failover"))
        except CheckpointError as e:
            e.path = e.path or str(self.path)
            raise
        except (ValueError, TypeError, AttributeError, KeyError) as e:
            raise CheckpointError(f"the checkpoint row of pipeline {self.pipeline!r} is corrupt: {e}",
                                  path=str(self.path)) from None

    def history_lines(self, version: int) -> list[str]:
        """The header and the first ``version`` records' lines of the stored history."""
        rows = self.db.execute("SELECT idx, line FROM history WHERE pipeline=? AND idx<=? ORDER BY idx",
                               (self.pipeline, version)).fetchall()
        if [r[0] for r in rows] != list(range(version + 1)):
            raise CheckpointError(f"the stored schema history has {len(rows)} of the {version + 1} lines the "
                                  "checkpoint names: the store is corrupt", path=str(self.path))
        return [r[1] for r in rows]

    def load_history(self, checkpoint: Checkpoint, options: Options = DEFAULT) -> SchemaHistory | None:
        lines = self.history_lines(checkpoint.history_version)
        try:
            h = SchemaHistory.from_lines(lines, options, source=f"{self.path} (history)")
        except (SchemaHistoryError, ValueError, KeyError, TypeError) as e:
            raise CheckpointError(f"the stored schema history cannot be read: {e}", path=str(self.path)) from None
        self._stored = len(lines)
        return h

    def rebase_history(self, archive: str) -> None:
        self._rebase = archive

    def save(self, checkpoint: Checkpoint, history: SchemaHistory) -> None:
        db = self.db
        new = None
        rebase = self._rebase
        if rebase is not None:
            self._stored = 0            # (every line of the new history, the old ones moved aside)
        if self._stored is None or self._stored != checkpoint.history_version + 1:
            # the history grew (a DDL) or was never stored: the lines the store lacks
            if self._stored is None:
                self._stored = db.execute("SELECT COUNT(*) FROM history WHERE pipeline=?",
                                          (self.pipeline,)).fetchone()[0]
            lines = list(history.lines())[: checkpoint.history_version + 1]
            new = [(self.pipeline, i, line) for i, line in enumerate(lines) if i >= self._stored]
        data = json.dumps({"sink_state": checkpoint.sink_state, "stats": checkpoint.stats,
                           "file_created": checkpoint.file_created, **checkpoint.optional_fields()}, sort_keys=True)
        p = checkpoint.position
        try:
            db.execute("BEGIN IMMEDIATE")
            if rebase is not None:
                # the old server's history is kept under another name (for reading), not used again
                db.execute("DELETE FROM history WHERE pipeline=?", (rebase,))
                db.execute("UPDATE history SET pipeline=? WHERE pipeline=?", (rebase, self.pipeline))
            if new:
                db.executemany("INSERT OR REPLACE INTO history VALUES (?, ?, ?)", new)
            db.execute("INSERT OR REPLACE INTO checkpoint VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (self.pipeline, checkpoint.source_id, p.file, p.file_seq, p.pos, checkpoint.gtid_set,
                        checkpoint.history_version, checkpoint.time or time.time(), checkpoint.sequence,
                        checkpoint.written_by, data))
            fault("in-checkpoint-commit")
            db.execute("COMMIT")
        except sqlite3.Error as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if rebase is not None:
                self._stored = None
            raise CheckpointError(f"cannot write the checkpoint: {e}", path=str(self.path)) from None
        self._rebase = None
        if new or rebase is not None:
            self._stored = checkpoint.history_version + 1

    def close(self) -> None:
        self.db.close()


__all__ = ["SQLITE_MAGIC", "STORE_FORMAT", "Checkpoint", "CheckpointStore", "SqliteCheckpointStore", "make_position",
           "position_extra", "sqlite_path"]
