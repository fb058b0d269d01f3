"""JSON Lines in segment files (exactly once under a pipeline), and on a stream (at least once).

:class:`SegmentSink` writes a directory of segments::

    changes-000003.000000000256.seq000000000000.jsonl.tmp                     the open segment
    changes-000003.000000000256-000004.000000012345.seq000000000000.jsonl     closed

A position in a name is ``file_seq.pos`` zero-padded (so names sort in log order), after a
failover ``eEEEE.file_seq.pos`` (below): the first is
where the segment's first transaction starts, the last where its last transaction ends; ``seq`` is
the sequence number of the segment's first line. A run that ends (``--once``, or stopped) closes its
open segment at its last commit (:meth:`~mysqlddl.sinks.base.Sink.rotate`). Lines are appended to
the open ``.tmp`` segment as records arrive (a huge transaction is streamed there, never held in
memory).
``commit(position)`` flushes and fsyncs it and returns the sink state the pipeline stores in its
checkpoint (the open segment and its committed length, the next sequence number); a segment that
reached ``segment_bytes`` or is ``segment_seconds`` old (since its creation, across runs) is closed
at a commit: fsync, atomic rename to its
final name, fsync of the directory (POSIX rename(2) replaces the name atomically; the directory
fsync makes the new name durable), and only then is the checkpoint written. ``recover(state)`` on
a restart puts the directory back to the checkpoint: the open segment is cut to its committed
length (or renamed back, when a crash came between its rename and the checkpoint), other ``.tmp``
files and every closed segment whose first line the checkpoint has not committed (its ``seq`` at
or past the checkpoint's) are removed.

A segment directory belongs to one pipeline (:meth:`SegmentSink.claim`, before ``recover``, which
removes what is past the checkpoint): the first run writes its owner into ``.mysqlddl-pipeline.json``
(the pipeline's name, its pipeline file and checkpoint store, the store's identity, when), created
whole under another name and linked into place; another pipeline is refused naming both, having
written nothing. "The same pipeline" is the same name and the same store (its ``store_id``, kept
when the store file or the pipeline file moves): a restart, a moved pipeline file, a moved store
are the owner; a store made anew at the same path is not (its first run would remove every
segment). A directory with segments and no owner (written before owners were recorded) is adopted
by the pipeline whose checkpoint names its segments (the open one, or the last closed one by its
last position and line count), and refused to any other.

Failovers (:meth:`SegmentSink.failover`, pipeline.failover): the new server numbers its binlogs
its own way (its ``binlog.000001`` may follow the old server's ``000007``), so every position the
sink orders by is ``(epoch, file_seq, pos)``, the epoch being the number of failovers followed
(0 before any: the names and the state are then what they always were). A name's position in
epoch E > 0 is written ``eEEEE.file_seq.pos`` ("e" sorts after every digit, so the names still sort
in log order); in the state such a position is a list of three. A segment open at the failover
goes on taking lines, and its name then says a first position in the old epoch and a last in the
new one.

The per-event sequence (it never repeats across restarts: it is carried in the checkpoint, and a
re-delivered event carries the same number, so consumers can deduplicate by it), as ``sequence``
says: ``"segment"`` (the default) numbers the lines by their place: the n-th line (from 0) of the
segment whose name says ``seqS`` has sequence S + n, at no cost; ``"line"`` also writes it in every
line as a leading ``"seq":N`` member (about 1.5 us a row in Python on the lab machine: the rows'
text is cut at each line start and written with writev, one copy).

:class:`StreamSink` writes the lines to a stream (stdout for piping), always with their
``"seq"``. A commit flushes it; a stream cannot take back what it wrote, so after a crash the
events since the last checkpoint come again (at-least-once), with the same ``seq``.

Formats (``format=``): :data:`FORMATS` maps a name to a renderer factory, called as
``factory(name=..., include_query=...)``; a renderer has ``render_batch(RowBatch) -> bytes | None``
(all the batch's lines, or None to render its changes one by one) and ``__call__(change) -> str``
(one line, no newline), as :class:`~mysqlddl.sinks.jsonl.LineRenderer` (``native``); or, for a
format whose records give any number of lines, ``lines(record) -> str`` (newline-terminated
lines, maybe none), as :class:`~mysqlddl.sinks.debezium.DebeziumLines` (``debezium``: one
``{"topic","key","value"[,"headers"]}`` line per message, as ``mysqlddl changes --format debezium``
writes them).
"""

from __future__ import annotations

import datetime
import json
import os
import re
import sys
import time
from pathlib import Path

from .. import __version__
from ..changes.records import Boundary, RowBatch
from ..errors import SinkError, SinkOwnershipError
from ..faults import fault
from ..paths import fsync_path, link_into_place
from .base import Sink
from .debezium import DebeziumLines
from .jsonl import LineRenderer

#: format name -> renderer factory (see the module docstring)
FORMATS = {"native": LineRenderer, "debezium": DebeziumLines}

#: the owner of a segment directory (the module docstring)
OWNER_FILE = ".mysqlddl-pipeline.json"
_SEGMENT = re.compile(r"^changes-(?:e(\d+)\.)?(\d+)\.(\d+)(?:-(?:e\d+\.)?\d+\.\d+)?\.seq(\d+)\.jsonl(\.tmp)?$")
#: at most this many buffers per writev(2) (POSIX IOV_MAX is at least 16; Linux allows 1024)
_IOV_MAX = min(os.sysconf("SC_IOV_MAX") if hasattr(os, "sysconf") else 1024, 1024)


def renderer(format: str, *, name: str = "mysqlddl", include_query: bool = False, properties=None):
    """The renderer of ``format``; ``properties``: the format's own settings (the Debezium format's
    properties, by Debezium's names), for a format that has them."""
    factory = FORMATS.get(format)
    if factory is None:
        raise SinkError(f"unknown output format {format!r} (known: {', '.join(sorted(FORMATS))})",
                        setting="sink.format")
    if properties:
        return factory(name=name, include_query=include_query, properties=properties)
    return factory(name=name, include_query=include_query)


def _key_text(epoch: int, file_seq: int, pos: int) -> str:
    return f"e{epoch:04d}.{file_seq:06d}.{pos:012d}" if epoch else f"{file_seq:06d}.{pos:012d}"


def _key_of(value) -> tuple[int, int, int] | None:
    """A position key as the state stores it (``[file_seq, pos]``, or ``[epoch, file_seq, pos]``)."""
    if not value:
        return None
    return (0, int(value[0]), int(value[1])) if len(value) == 2 else (int(value[0]), int(value[1]), int(value[2]))


def _key_data(key) -> list | None:
    if key is None:
        return None
    return list(key) if key[0] else [key[1], key[2]]


class _Lines(Sink):
    """Rendering, and the sequence numbers (shared by both sinks)."""

    def __init__(self, *, format: str = "native", name: str = "mysqlddl", include_query: bool = False,
                 properties=None):
        self.render = renderer(format, name=name, include_query=include_query, properties=properties)
        # a format whose records give any number of lines (Debezium: a delete and its tombstone,
        # one message per table of a schema change) renders whole records with ``lines``
        self._any_lines = getattr(self.render, "lines", None)
        self.seq = 0

    def text(self, record) -> bytes:
        """The record's lines (ASCII bytes, newline-terminated); counts them into :attr:`seq`."""
        if self._any_lines is not None:
            text = self._any_lines(record).encode("ascii")
            self.seq += text.count(b"\n")
            return text
        if type(record) is RowBatch:
            text = self.render.render_batch(record)
            if text is None:
                text = "".join(self.render(ch) + "\n" for ch in record.changes()).encode("ascii")
            self.seq += record.count          # (the renderer noted the count: no walk)
            return text
        self.seq += 1
        return (self.render(record) + "\n").encode("ascii")

    def numbered(self, record) -> list:
        """The record's lines as buffers, each line with its leading ``"seq":N`` member."""
        seq = self.seq
        if type(record) is not RowBatch and self._any_lines is None:
            self.seq = seq + 1
            return [b'{"seq":%d,%s\n' % (seq, self.render(record)[1:].encode("ascii"))]
        text = self.text(record)
        if not text:
            return []
        # every line starts with "{" (a raw newline only ends lines: JSON escapes it in strings):
        # cut after each line's "{" and put the numbered head there, without copying the rows
        mv = memoryview(text)
        find = text.find
        iov = []
        add = iov.append
        start, n = 1, seq
        while True:
            j = find(b"\n{", start)
            add(b'{"seq":%d,' % n)
            n += 1
            if j < 0:
                add(mv[start:])
                break
            add(mv[start:j + 1])
            start = j + 2
        return iov


class SegmentSink(_Lines):
    """Segments in ``directory`` (the module docstring). ``segment_bytes`` / ``segment_seconds``:
    close the open segment at the first commit past either. ``sequence``: ``"segment"`` or
    ``"line"`` (the module docstring)."""

    def __init__(self, directory, *, format: str = "native", name: str = "mysqlddl", include_query: bool = False,
                 properties=None,
                 segment_bytes: int = 64 << 20, segment_seconds: float = 300.0, sequence: str = "segment"):
        super().__init__(format=format, name=name, include_query=include_query, properties=properties)
        if sequence not in ("segment", "line"):
            raise SinkError(f"sequence must be segment or line, not {sequence!r}", setting="sink.sequence")
        self.directory = Path(directory)
        self.segment_bytes = segment_bytes
        self.segment_seconds = segment_seconds
        self.per_line = sequence == "line"
        self._f = None                 # the open .tmp segment
        self.epoch = 0                 # failovers followed (the module docstring)
        self._first: tuple[int, int, int] | None = None     # its first position key (epoch, file_seq, pos)
        self._seq0 = 0                 # its first line's sequence number
        self._opened = 0.0             # when the open segment was created (wall clock: it outlives runs)
        self._committed = 0            # its committed length
        self._written = 0
        self._last: tuple[int, int, int] | None = None      # the last committed position key
        self._committed_seq = 0
        self._rotate = False           # close the open segment at the next commit (the run ends)

    # -- paths ------------------------------------------------------------------------------------
    def _tmp(self, first, seq0: int) -> Path:
        return self.directory / f"changes-{_key_text(*first)}.seq{seq0:012d}.jsonl.tmp"

    def _final(self, first, last, seq0: int) -> Path:
        return self.directory / f"changes-{_key_text(*first)}-{_key_text(*last)}.seq{seq0:012d}.jsonl"

    def segments(self) -> list[Path]:
        """The closed segments, in log order."""
        return sorted(p for p in self.directory.iterdir() if _SEGMENT.match(p.name) and p.suffix == ".jsonl")

    # -- life cycle -------------------------------------------------------------------------------
    def open(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SinkError(f"cannot create the segment directory: {e.strerror or e}", path=str(self.directory)) \
                from None

    def claim(self, owner: dict, state: dict | None) -> None:
        """This directory is ``owner``'s pipeline's, or becomes it (the module docstring); else
        SinkOwnershipError, nothing written. ``owner``: ``pipeline``, ``store``, ``store_id``,
        ``pipeline_file``; ``state``: what its checkpoint holds of this sink (None: none)."""
        path = self.directory / OWNER_FILE
        recorded = self._owner(path)
        if recorded is None:
            segments = [p.name for p in self.directory.iterdir() if _SEGMENT.match(p.name)]
            if segments and not _knows(self.directory, state, segments):
                raise SinkOwnershipError(
                    f"the sink directory holds {len(segments)} segment(s) and no owner recorded ({OWNER_FILE}: "
                    f"written by an older mysqlddl, or by hand), and the checkpoint of {_who(owner)} does not know "
                    "them: another pipeline's output? give this pipeline its own sink directory ([sink] uri), or "
                    "move the segments away", path=str(self.directory), setting="sink.uri")
            recorded = self._record(path, owner)
        if _same(recorded, owner):
            return
        if recorded.get("pipeline") == owner["pipeline"] and recorded.get("store") == owner.get("store"):
            raise SinkOwnershipError(
                f"the checkpoint store {owner.get('store')} is not the one that wrote this directory (it was made "
                f"anew: store id {owner.get('store_id')}, the directory's is {recorded.get('store_id')}); a pipeline "
                "that starts anew needs its own sink directory: move the old segments and "
                f"{OWNER_FILE} away, or point [sink] uri elsewhere", path=str(self.directory), setting="sink.uri")
        raise SinkOwnershipError(
            f"the sink directory belongs to {_who(recorded)}, since {_when(recorded.get('created'))}; this is "
            f"{_who(owner)}: give each pipeline its own sink directory ([sink] uri); if "
            f"{recorded.get('pipeline')!r} is gone for good, move its segments and {OWNER_FILE} away first",
            path=str(self.directory), setting="sink.uri")

    def _owner(self, path: Path) -> dict | None:
        try:
            recorded = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise SinkOwnershipError(f"cannot read the directory's owner ({OWNER_FILE}): {e}; restore it, or move "
                                     "the directory away", path=str(self.directory), setting="sink.uri") from None
        if not isinstance(recorded, dict) or not isinstance(recorded.get("pipeline"), str):
            raise SinkOwnershipError(f"{OWNER_FILE} does not name a pipeline: restore it, or move the directory away",
                                     path=str(self.directory), setting="sink.uri")
        return recorded

    def _record(self, path: Path, owner: dict) -> dict:
        """Write ``owner`` into ``path`` whole (written under another name, fsynced, linked: link(2)
        fails when another pipeline recorded itself meanwhile, whose owner is then the one)."""
        data = {k: owner.get(k) for k in ("pipeline", "pipeline_file", "store", "store_id")}
        data.update(created=round(time.time(), 3), created_by=__version__)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(data, sort_keys=True) + "\n")
            if not link_into_place(tmp, path):
                return self._owner(path) or data
        except OSError as e:
            raise SinkError(f"cannot record the directory's owner: {e.strerror or e}", path=str(path)) from None
        finally:
            tmp.unlink(missing_ok=True)
        return data

    def recover(self, state: dict | None) -> None:
        state = state or {}
        self.seq = self._committed_seq = int(state.get("seq", 0))
        self._last = _key_of(state.get("position"))
        self.epoch = self._last[0] if self._last is not None else 0
        first = _key_of(state.get("segment"))
        seq0 = int(state.get("segment_seq") or 0)
        length = int(state.get("length", 0))
        for p in self.directory.iterdir():
            m = _SEGMENT.match(p.name)
            if not m:
                continue
            start = (int(m.group(1) or 0), int(m.group(2)), int(m.group(3)))
            if m.group(5):                      # .tmp
                if start != first:
                    p.unlink()
                continue
            if first is not None and start == first:
                # renamed after the checkpoint (a crash before the checkpoint commit): open again
                os.replace(p, self._tmp(first, seq0))
            elif int(m.group(4)) >= self._committed_seq:
                # written past the checkpoint: its first line's number is one the checkpoint has not
                # committed (told by the line numbers, not the positions: an initial snapshot's rows
                # carry the captured position, the one the checkpoint after them names)
                p.unlink()
        if first is not None:
            tmp = self._tmp(first, seq0)
            if not tmp.exists() and length:
                raise SinkError(f"the open segment the checkpoint names ({tmp.name}, {length} bytes committed) is "
                                "missing", path=str(self.directory))
            self._f = open(tmp, "ab")  # noqa: SIM115 -- closed by close()
            self._f.truncate(length)
            self._f.seek(length)
            self._first, self._seq0, self._committed = first, seq0, length
            self._written = length
            self._opened = float(state.get("opened") or time.time())
        self._fsync_dir()

    def write(self, record) -> None:
        if type(record) is Boundary:
            return          # (not a change: nothing to write; the pipeline commits there)
        f = self._f
        if f is None:
            s = record.source
            last = self._last
            # (right after a failover the last commit is the old server's: the new epoch starts here)
            self._first = last if last is not None and last[0] == self.epoch else (self.epoch, s.file_seq, s.pos)
            self._seq0 = self.seq
            f = self._f = open(self._tmp(self._first, self._seq0), "ab")  # noqa: SIM115 -- closed by close()
            f.truncate(0)
            self._committed = self._written = 0
            self._opened = time.time()
        if not self.per_line:
            data = self.text(record)
            f.write(data)
            self._written += len(data)
            return
        iov = self.numbered(record)
        if len(iov) == 1:
            f.write(iov[0])
            self._written += len(iov[0])
            return
        f.flush()
        fd = f.fileno()
        for i in range(0, len(iov), _IOV_MAX):
            chunk = iov[i:i + _IOV_MAX]
            want = sum(len(b) for b in chunk)
            done = os.writev(fd, chunk)
            if done != want:            # (a short write: the rest, plainly)
                os.write(fd, b"".join(bytes(b) for b in chunk)[done:])
            self._written += want
        f.seek(self._written)

    def commit(self, position) -> dict:
        key = (self.epoch, position.file_seq, position.pos)
        f = self._f
        if f is not None:
            try:
                f.flush()
                os.fsync(f.fileno())
            except OSError as e:
                raise SinkError(f"cannot write the segment: {e.strerror or e}", path=f.name, transient=True) \
                    from None
            self._committed = self._written
            if self._written >= self.segment_bytes or time.time() - self._opened >= self.segment_seconds or \
                    (self._rotate and self._written):
                self._close_segment(key)
        self._rotate = False
        self._last = key
        self._committed_seq = self.seq
        return self.state()

    def rotate(self) -> None:
        self._rotate = True

    def failover(self, epoch: int) -> None:
        self.epoch = epoch

    def state(self) -> dict:
        open_ = self._f is not None
        return {"seq": self._committed_seq, "position": _key_data(self._last),
                "segment": _key_data(self._first) if open_ else None, "segment_seq": self._seq0 if open_ else None,
                "length": self._committed if open_ else 0, "opened": round(self._opened, 3) if open_ else None}

    def _close_segment(self, last) -> None:
        f, self._f = self._f, None
        f.close()
        fault("before-rename")
        os.replace(self._tmp(self._first, self._seq0), self._final(self._first, last, self._seq0))
        fault("after-rename")
        self._fsync_dir()

    def _fsync_dir(self) -> None:
        fsync_path(self.directory)

    def abort(self) -> None:
        """Cut the open segment back to its last commit (a retry goes on from there)."""
        if self._f is not None:
            self._f.flush()
            self._f.truncate(self._committed)
            self._f.seek(self._committed)
            self._written = self._committed
        self.seq = self._committed_seq

    def close(self) -> None:
        f, self._f = self._f, None
        if f is not None:
            # what is past the last commit is not the pipeline's yet: cut it (a restart would)
            f.flush()
            f.truncate(self._committed)
            f.close()


def _same(recorded: dict, owner: dict) -> bool:
    """The same pipeline: its name and its store (by the store's identity when both have one)."""
    if recorded.get("pipeline") != owner["pipeline"]:
        return False
    if recorded.get("store_id") and owner.get("store_id"):
        return recorded["store_id"] == owner["store_id"]
    return recorded.get("store") == owner.get("store")


def _who(o: dict) -> str:
    return f"pipeline {o.get('pipeline')!r} (pipeline file {o.get('pipeline_file') or '-'}, checkpoint store " \
           f"{o.get('store') or '-'})"


def _when(t) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC") \
        if t else "(unknown)"


_SPAN = re.compile(r"^changes-(?:e(\d+)\.)?(\d+)\.(\d+)-(?:e(\d+)\.)?(\d+)\.(\d+)\.seq(\d+)\.jsonl$")


def _knows(directory: Path, state: dict | None, names: list[str]) -> bool:
    """Whether a checkpoint's sink ``state`` names segments among ``names``: its open segment
    (``.tmp``, or renamed just before a crash), or a closed segment ending at its position whose
    lines end at its sequence number."""
    if not state:
        return False
    first = _key_of(state.get("segment"))
    if first is not None:
        seq0 = int(state.get("segment_seq") or 0)
        for name in names:
            m = _SEGMENT.match(name)
            if (int(m.group(1) or 0), int(m.group(2)), int(m.group(3))) == first and int(m.group(4)) == seq0:
                return True
        return False
    last = _key_of(state.get("position"))
    for name in names:
        m = _SPAN.match(name)
        if m and (int(m.group(4) or 0), int(m.group(5)), int(m.group(6))) == last:
            with open(directory / name, "rb") as f:
                lines = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
            return int(m.group(7)) + lines == int(state.get("seq", -1))
    return False


class StreamSink(_Lines):
    """The same lines on a binary stream (default: stdout), flushed at each commit; at-least-once
    (the module docstring)."""

    def __init__(self, out=None, *, format: str = "native", name: str = "mysqlddl", include_query: bool = False,
                 properties=None):
        super().__init__(format=format, name=name, include_query=include_query, properties=properties)
        self.out = out

    def open(self) -> None:
        if self.out is None:
            self.out = sys.stdout.buffer      # (looked up now: a caller may have replaced sys.stdout)

    def recover(self, state: dict | None) -> None:
        self.seq = int((state or {}).get("seq", 0))

    def write(self, record) -> None:
        if type(record) is Boundary:
            return          # (not a change: nothing to write; the pipeline commits there)
        iov = self.numbered(record)
        self.out.write(iov[0] if len(iov) == 1 else b"".join(iov))

    def commit(self, position) -> dict:
        try:
            self.out.flush()
        except OSError as e:
            raise SinkError(f"cannot write to the output stream: {e.strerror or e}") from None
        return {"seq": self.seq}

    def close(self) -> None:
        if self.out is not None:
            self.out.flush()


__all__ = ["FORMATS", "OWNER_FILE", "SegmentSink", "StreamSink", "renderer"]
