"""Whether two paths name one file, or a directory holds a path, as the file system says: by device
and inode (``st_dev``, ``st_ino``), so a symlink or a hard link is the same file under another name
(POSIX ``stat``: a file is identified by the pair). Used to refuse an output that is one of the inputs
before anything is opened for writing (issue #30 item 1: ``-o`` naming the input truncated it).

And a file made whole before it has its name (:func:`link_into_place`: a checkpoint store, a sink
directory's owner): written under another name, made durable, then linked, so that the name never
shows a half-written file and two makers cannot both succeed."""

from __future__ import annotations

import os
from pathlib import Path


def file_id(path) -> tuple[int, int] | None:
    """``(st_dev, st_ino)`` of what ``path`` names (symlinks followed), or None when it does not exist."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def same_file(a, b) -> bool:
    """``a`` and ``b`` exist and are one file (one name, a symlink or a hard link of the other)."""
    ida = file_id(a)
    return ida is not None and ida == file_id(b)


def holds(directory, path) -> bool:
    """``directory`` is ``path`` itself or one of its parent directories, symlinks resolved; by
    name when neither exists yet (a pipeline's directories may be made by its first run), else also
    by inode (a bind mount or a second symlink to the same directory)."""
    real_dir = Path(os.path.realpath(directory))
    real = Path(os.path.realpath(path))
    if real == real_dir or real_dir in real.parents:
        return True
    d = file_id(real_dir)
    return d is not None and any(file_id(p) == d for p in (real, *real.parents))


def fsync_path(path) -> None:
    """fsync(2) a file or a directory by its path (a directory: the names in it made durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def link_into_place(tmp, path) -> bool:
    """Give the finished file ``tmp`` the name ``path`` (the module docstring): ``tmp`` fsynced, then
    link(2)ed, which fails on an existing name, then the directory fsynced (the new name durable).
    False: ``path`` existed (another process made it meanwhile); ``tmp`` is left to the caller."""
    fsync_path(tmp)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    fsync_path(Path(path).parent)
    return True


__all__ = ["file_id", "fsync_path", "holds", "link_into_place", "same_file"]
