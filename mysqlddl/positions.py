"""Positions: where a change sits in its source, as an integer-tuple ``key``.

Two types, one per kind of source, both ordered, compared and hashed through ``key`` only:

- :class:`BinlogPosition`, key ``(file_seq, pos)``: a byte offset in a binlog file and the
  file's sequence number, plus the file name and the GTID as carried data;
- :class:`OlrPosition`, key ``(c_scn, c_idx)``: OpenLogReplicator's checkpoint fields, plus the
  message's own ``scn`` and the output file name as carried data; its subclass
  :class:`OlrResumePosition`, key ``(file_seq, pos)``, where a reader of OLR output resumes.

The schema history (:mod:`mysqlddl.history`) takes either: it compares positions only through
``key`` and stores them with the model codec (``BinlogPosition`` untagged, as saved histories always
had it; ``OlrPosition`` with its ``@type`` tag).

This module sits at the bottom of the package beside ``errors`` and ``options`` so that ``binlog``,
``history``, ``changes`` and ``olr`` can all import it.

The file-number rule (one for the whole package): a server names its binlogs and relay logs
``<basename>.<NNNNNN>`` (``log_bin_basename`` plus a zero-padded, ever-growing counter; MySQL
Reference Manual 8.4, "The Binary Log", and ``MYSQL_BIN_LOG::generate_new_name``), so a file's
sequence number is the decimal suffix after the *last* dot of its base name, compared as an integer:
``mysql-bin.000010`` follows ``mysql-bin.000009`` and ``mysql-bin.1000000`` follows
``mysql-bin.999999``. A relay log (``relay-bin.000003``) is numbered the same way. A name without
such a suffix (the ``.index`` file, a fixture copied under another name, a ``.gz`` archive) has no
number: :func:`file_seq` gives :data:`NO_FILE_SEQ` (-1, so such a file sorts before any numbered
one) for a file that is being read, and :meth:`BinlogPosition.of`, which builds a position a user
named, refuses it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from .errors import ConfigError

#: The sequence number of a file whose name has no numeric suffix.
NO_FILE_SEQ = -1

_NUMBERED = re.compile(r"^(.*)\.(\d+)$")


def split_file_name(name: str) -> tuple[str, int] | None:
    """``(basename, sequence number)`` of a binlog file name or path (``/d/mysql-bin.000042`` ->
    ``("mysql-bin", 42)``; the directory part is ignored), or None when the name has no numeric
    suffix."""
    m = _NUMBERED.match(name.rpartition("/")[2])
    return (m.group(1), int(m.group(2))) if m else None


def file_seq(name: str) -> int:
    """The sequence number of a binlog file name or path, :data:`NO_FILE_SEQ` when it has none."""
    m = _NUMBERED.match(name.rpartition("/")[2])
    return int(m.group(2)) if m else NO_FILE_SEQ


class _ByKey:
    """Equality, hashing and ordering through ``key``, between positions of the same type only
    (a binlog offset and an OLR checkpoint do not compare)."""

    __slots__ = ()

    @property
    def key(self) -> tuple[int, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.key == other.key  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.key < other.key

    def __le__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.key <= other.key

    def __gt__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.key > other.key

    def __ge__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.key >= other.key


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class BinlogPosition(_ByKey):
    """A place in a binlog: byte offset ``pos`` in the file numbered ``file_seq``.

    Ordering and equality use :attr:`key` ``(file_seq, pos)`` only (ARCHITECTURE.md "Key
    decisions": positions compare as integer tuples, never as strings). ``file`` (the name or path
    the position was built from, "" when unknown) and ``gtid`` (None when unknown) are carried
    along."""

    file_seq: int
    pos: int
    file: str = ""
    gtid: str | None = None

    @classmethod
    def of(cls, file: str, pos: int, gtid: str | None = None) -> BinlogPosition:
        """A position a user named: ``file`` must carry a sequence number (``mysql-bin.000042``),
        else ConfigError."""
        parts = split_file_name(file)
        if parts is None:
            raise ConfigError(f"binlog file name has no numeric suffix: {file!r}")
        return cls(parts[1], int(pos), file, gtid)

    @classmethod
    def in_file(cls, file: str, pos: int, gtid: str | None = None) -> BinlogPosition:
        """A position in a file being read: a file without a sequence number gets
        :data:`NO_FILE_SEQ` (its positions still order within it)."""
        return cls(file_seq(file), pos, file, gtid)

    @property
    def key(self) -> tuple[int, int]:
        return (self.file_seq, self.pos)

    def __str__(self) -> str:
        return f"{self.file or self.file_seq}:{self.pos}"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class OlrPosition(_ByKey):
    """Where an OLR message sits: its checkpoint position ``(c_scn, c_idx)``.

    OLR stamps every message with ``c_scn``, the SCN a restart must read from to produce the message
    again, and ``c_idx``, the message's index from there. That pair is the :attr:`key`: it is what a
    restart needs, and what the schema history records a DDL under. It is a restart position, *not*
    an order: OLR writes transactions in commit order, and ``c_scn`` is where a transaction's redo
    starts, so a long transaction committed late carries a smaller ``c_scn`` than the one before it
    (rophy interleaved-transactions: ``1.8.741`` at c_scn 3806533 follows ``10.1.985`` at 3806547),
    and two transactions may even share ``(c_scn, c_idx)`` values. So rows are typed by the table
    version in force at their place in the output (:class:`~mysqlddl.olr.reader.OlrReader`), and a
    DDL whose key is behind the last record is recorded at the last record's key (the history is
    append-only; the event keeps the DDL's own key).

    ``file`` (the OLR output file name, "" when unknown) and ``scn`` (the message's commit SCN,
    None when the message had none) are carried along, outside the key."""

    c_scn: int
    c_idx: int
    file: str = ""
    scn: int | None = None

    @property
    def key(self) -> tuple[int, int]:
        return (self.c_scn, self.c_idx)

    def __str__(self) -> str:
        return f"c_scn {self.c_scn} c_idx {self.c_idx}"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class OlrResumePosition(OlrPosition):
    """Where a reader of OLR output resumes (a pipeline's checkpoint, an OLR transaction's end):
    the message that ended the last committed transaction (a ``commit``, or a ``ddl`` message),
    ``(c_scn, c_idx)`` and ``scn`` as OLR gave them, ``xid`` its transaction; ``file`` (base
    name), ``file_seq`` (the number in it: :func:`mysqlddl.olr.documents.file_number`),
    ``message`` (its byte offset) and ``pos`` (the byte offset just past it, where the next message
    starts: a restart reads on from there) where it is.

    Ordered by ``(file_seq, pos)``, its place in the output, as a binlog position is the end of its
    transaction: OLR writes transactions in commit order and ``c_scn`` is where a transaction's redo
    starts, so ``(c_scn, c_idx)`` does not order them (:class:`OlrPosition`). A restart reads the
    message at ``message`` again and checks it is the checkpoint's (:attr:`fingerprint`)."""

    file_seq: int = 0
    pos: int = 0
    message: int = 0
    xid: str | None = None

    kind = "olr"

    @property
    def key(self) -> tuple[int, int]:
        return (self.file_seq, self.pos)

    @property
    def gtid(self) -> None:
        return None

    @property
    def fingerprint(self) -> str:
        """What the message at :attr:`message` must be on a restart."""
        return f"c_scn {self.c_scn} c_idx {self.c_idx} xid {self.xid}"

    def __str__(self) -> str:
        return f"{self.file}@{self.pos} (c_scn {self.c_scn} c_idx {self.c_idx} scn {self.scn})"

    def as_dict(self) -> dict:
        """What a checkpoint keeps beyond file, file_seq and pos (with its ``kind``)."""
        return {"kind": "olr", "c_scn": self.c_scn, "c_idx": self.c_idx, "scn": self.scn, "xid": self.xid,
                "message": self.message}

    @classmethod
    def from_dict(cls, file: str, file_seq: int, pos: int, d: dict) -> OlrResumePosition:
        """:meth:`as_dict`'s data back, with the file, file_seq and pos kept beside it."""
        scn = d.get("scn")
        return cls(int(d["c_scn"]), int(d["c_idx"]), file, None if scn is None else int(scn), int(file_seq),
                   int(pos), int(d["message"]), d.get("xid"))


#: What the schema history records a DDL under.
HistoryPosition = BinlogPosition | OlrPosition

__all__ = ["NO_FILE_SEQ", "BinlogPosition", "HistoryPosition", "OlrPosition", "OlrResumePosition", "file_seq",
           "split_file_name"]
