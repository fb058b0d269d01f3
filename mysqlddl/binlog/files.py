"""Which binlog files a source names, in reading order: a file, a directory (through its single
``.index`` file, else every ``name.NNNNNN`` file in it), an ``.index`` file, a glob, or a list of
those. (The reader, :mod:`.reader`, frames the files; this only lists them.)"""

from __future__ import annotations

import glob as _glob
import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import BinlogError
from ..positions import NO_FILE_SEQ, split_file_name
from .events.types import BINLOG_MAGIC, V1_HEADER_LEN, EventType


def _seq_key(p: Path):
    parts = split_file_name(p.name)
    return (parts[0], parts[1], p.name) if parts else (p.name, NO_FILE_SEQ, p.name)


def _read_index(index: Path) -> list[Path]:
    """A server .index file: one binlog path per line, in order (relative to the index's
    directory; MySQL writes ``./binlog.000001``)."""
    out = []
    try:
        text = index.read_text("utf-8", "surrogateescape")
    except OSError as e:
        raise BinlogError(f"cannot read index file: {e.strerror or e}", file=str(index)) from None
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        p = Path(line)
        if not p.is_absolute():
            p = index.parent / p
        if not p.exists() and (index.parent / p.name).exists():
            p = index.parent / p.name     # an index copied away from the server's datadir
        out.append(p)
    return out


def resolve_sources(source) -> list[Path]:
    """Expand a source into the ordered list of files to read.

    ``source`` is a path (file, directory, ``*.index`` file), a glob pattern, or an iterable of
    those. A directory is read through its single ``.index`` file when it has one, else every
    ``name.NNNNNN`` file in it, ordered by base name then sequence number; a glob is ordered the
    same way.
    """
    if isinstance(source, (str, os.PathLike)):
        s = os.fspath(source)
        p = Path(s)
        if p.is_dir():
            idx = sorted(p.glob("*.index"))
            if len(idx) == 1:
                return _read_index(idx[0])
            files = [f for f in p.iterdir() if f.is_file() and split_file_name(f.name)]
            if not files:
                raise BinlogError("directory holds no binlog files (name.NNNNNN) and no .index file",
                                  file=s)
            return sorted(files, key=_seq_key)
        if p.is_file():
            return _read_index(p) if p.suffix == ".index" else [p]
        if any(ch in s for ch in "*?["):
            files = [Path(f) for f in _glob.glob(s) if Path(f).is_file()]
            if not files:
                raise BinlogError("glob matches no files", file=s)
            return sorted(files, key=_seq_key)
        raise BinlogError("no such file or directory", file=s)
    if isinstance(source, Iterable):
        out: list[Path] = []
        for item in source:
            out.extend(resolve_sources(item))
        return out
    raise TypeError(f"binlog source must be a path, a glob or a list of them, not {type(source).__name__}")


#: where the event length and the type code sit in every event's common header, v1 to v4
#: (sql/log_event.h: EVENT_LEN_OFFSET 9, EVENT_TYPE_OFFSET 4)
_EVENT_LEN_OFFSET = 9
_EVENT_TYPE_OFFSET = 4


def event_around(path, pos: int) -> tuple[int, int] | None:
    """None when ``pos`` is where an event of the binlog file starts (or 0, the file's start, or at
    or past its last event's end); else ``(start, end)`` of the event ``pos`` falls inside. Only the
    headers are read: each event's length says where the next one starts. None too when the walk
    cannot tell (an impossible length, an encrypted binlog whose headers after
    START_ENCRYPTION are ciphertext, not a binlog): the reader reports those as it meets them."""
    if pos == 0:
        return None
    magic = len(BINLOG_MAGIC)
    if pos < magic:
        return (0, magic)
    at = magic
    with open(path, "rb") as f:
        if f.read(magic) != BINLOG_MAGIC:
            return None
        while at < pos:
            f.seek(at)
            head = f.read(_EVENT_LEN_OFFSET + 4)
            if len(head) < _EVENT_LEN_OFFSET + 4:
                return None
            size = int.from_bytes(head[_EVENT_LEN_OFFSET:], "little")
            if size < V1_HEADER_LEN or head[_EVENT_TYPE_OFFSET] == EventType.MARIADB_START_ENCRYPTION:
                return None
            if at + size > pos:
                return (at, at + size)
            at += size
    return None


__all__ = ["event_around", "resolve_sources"]
