"""The OLR source of a pipeline: OpenLogReplicator JSON output files (``olr:///path``).

``olr:///path/file.json`` is one output file; ``olr:///path/dir/`` the files of a directory (every
regular file not starting with ``.``), in the order of the number in their names (OLR's file writer
numbers the files it rotates to; :func:`~mysqlddl.olr.documents.file_number`), then by name.

A checkpoint's position is an :class:`OlrResumePosition`: the OLR position of the message that
ended the last committed transaction (a ``commit``, or a ``ddl`` message), ``c_scn``/``c_idx``
with its ``scn`` carried as :class:`~mysqlddl.positions.OlrPosition` has them, plus where that
message is in the output (its file, the number in the file's name, its byte offset and the offset
just past it). A restart reads the message at that offset again, checks it is the checkpoint's and
ends where the checkpoint says (else the output is not the one the checkpoint was taken from:
refused), and reads on from the offset past it. The byte
offset, not ``(c_scn, c_idx)``, is what orders the output and says where to resume: OLR writes
transactions in commit order, and ``c_scn`` is where a transaction's redo starts, so it does not
order them (:class:`~mysqlddl.positions.OlrPosition`).

Identity: OLR output names no server; the source's identity is the database name its messages
carry (``db``, ``?`` when they carry none) with the output's file name less its number; what
really tells two outputs apart is the message at the checkpoint's offset (the fingerprint checked
on every restart: its ``c_scn``, ``c_idx`` and ``xid``).

With ``--once`` an OLR source is read to the end of what exists; without it, the output is
followed as OLR writes it (:func:`~mysqlddl.olr.documents.tail_documents`: a message not written
whole is waited for, a new file of the directory is read once the current one is finished, the
pipeline commits what ended while it waits and stops on SIGTERM). OLR writes committed
transactions only, each from its ``begin`` to its ``commit``, so every commit ends a delivered
transaction; the ``[changes]`` database and table filters do not apply to it (refused),
``operations`` does.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import CheckpointError, PipelineError
from ..olr.documents import file_number, iter_documents, tail_documents
from ..olr.events import envelope
from ..olr.reader import OlrReader
from ..options import Options
from ..positions import OlrPosition
from ..sinks.jsonl import dumps
from ..sinks.segments import FORMATS

_DB_LOOKAHEAD = 100         # messages looked at for the output's database name


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class OlrResumePosition(OlrPosition):
    """A pipeline checkpoint in OLR output: the message that ended the last committed transaction,
    ``(c_scn, c_idx)`` and ``scn`` as OLR gave them, ``xid`` its transaction; ``file`` (base
    name), ``file_seq`` (the number in it), ``message`` (its byte offset) and ``pos`` (the byte
    offset just past it, where the next message starts: a restart reads on from there) where it is.
    Ordered by ``(file_seq, pos)``: its place in the output (module docstring), as a binlog
    position is the end of its transaction."""

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
        """What the message at :attr:`pos` must be on a restart."""
        return f"c_scn {self.c_scn} c_idx {self.c_idx} xid {self.xid}"

    def __str__(self) -> str:
        return f"{self.file}@{self.pos} (c_scn {self.c_scn} c_idx {self.c_idx} scn {self.scn})"

    def as_dict(self) -> dict:
        return {"kind": "olr", "c_scn": self.c_scn, "c_idx": self.c_idx, "scn": self.scn, "xid": self.xid,
                "message": self.message}

    @classmethod
    def from_dict(cls, file: str, file_seq: int, pos: int, d: dict) -> OlrResumePosition:
        scn = d.get("scn")
        return cls(int(d["c_scn"]), int(d["c_idx"]), file, None if scn is None else int(scn), int(file_seq),
                   int(pos), int(d["message"]), d.get("xid"))

    @classmethod
    def at(cls, src) -> OlrResumePosition:
        """The position of the message a record (its :class:`~mysqlddl.olr.events.OracleSource`)
        came from."""
        return cls(src.c_scn if src.c_scn is not None else 0, src.c_idx if src.c_idx is not None else 0,
                   Path(src.file).name, src.scn, file_number(src.file), src.end, src.offset, src.xid)


def _message_at(path: Path, offset: int):
    """The JSON document starting at byte ``offset`` of ``path`` and the byte offset after it
    (None when there is none there)."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise CheckpointError(f"cannot read the checkpoint's OLR file: {e.strerror or e}", path=str(path)) from None
    if offset >= len(raw) or raw[offset:offset + 1] != b"{":
        return None, None
    text = raw[offset:].decode("utf-8", "replace")
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return None, None
    return value, offset + len(text[:end].encode("utf-8", "surrogatepass"))


def _fingerprint_of(doc: dict, start: OlrResumePosition) -> str:
    """The message's fingerprint, in the terms of ``start``'s (the scn a checkpoint carries may come
    from its transaction's first message; a message without ``c_scn``/``c_idx``, from old OLR, had
    them numbered by the reader): equal to ``start.fingerprint`` when it is the checkpoint's."""
    c_scn, c_idx, xid = doc.get("c_scn"), doc.get("c_idx"), doc.get("xid")
    if (c_scn is None or c_scn == start.c_scn) and (c_idx is None or c_idx == start.c_idx) and xid == start.xid:
        return start.fingerprint
    return f"c_scn {c_scn} c_idx {c_idx} xid {xid}"


class OlrSource:
    """OLR output files (module docstring); ``path`` a file or a directory."""

    kind = "olr"

    def __init__(self, path: Path, options: Options, *, follow: bool = False, poll: float = 0.2, stop=None,
                 idle=None, **_kw):
        self.path = path
        self.options = options
        self.follow, self.poll, self.stop, self.idle = follow, poll, stop, idle

    def files(self) -> list[Path]:
        p = self.path
        if p.is_dir():
            found = [f for f in p.iterdir() if f.is_file() and not f.name.startswith(".")]
            found.sort(key=lambda f: (file_number(f.name), f.name))
            if not found:
                raise PipelineError(f"no OLR output file in {p}", path=str(p), setting="source.uri")
            return found
        if not p.is_file():
            raise PipelineError(f"no OLR output file or directory at {p}", path=str(p), setting="source.uri")
        return [p]

    def _from(self, start: OlrResumePosition | None) -> list[Path]:
        files = self.files()
        if start is None:
            return files
        for i, f in enumerate(files):
            if f.name == start.file:
                return files[i:]
        raise CheckpointError(f"the checkpoint's file {start.file} is not in the source {self.path}")

    def identity(self, start: OlrResumePosition | None) -> tuple[str, str | None]:
        """(the source's identity, the fingerprint of the message at ``start``, None without one)."""
        files = self._from(start)
        db = None
        for n, doc in enumerate(iter_documents(files[0], lenient=True)):
            if isinstance(doc.value, dict) and doc.value.get("db"):
                db = str(doc.value["db"])
                break
            if n >= _DB_LOOKAHEAD:
                break
        stem = Path(files[0].name).stem.rstrip("0123456789-_.") or Path(files[0].name).stem
        identity = f"olr:db={db or '?'};name={stem}"
        if start is None:
            return identity, None
        doc, end = _message_at(files[0], start.message)
        if not isinstance(doc, dict):
            return identity, f"no message at byte {start.message}"
        if end != start.pos:
            return identity, f"a message ending at byte {end}, not {start.pos}"
        return identity, _fingerprint_of(doc, start)

    def reader(self, start: OlrResumePosition | None, options: Options, *, history=None, baseline=None,
               baseline_owner=None, name="mysqlddl", columns=None):
        files = self._from(start)
        offset = start.pos if start is not None else 0
        documents = None
        if self.follow:
            # (the files as OLR writes them: a document not written whole is waited for, new files
            # are read as they come; the pipeline commits while it waits and stops when asked)
            def documents(errors, lenient):
                return tail_documents(self.files, files[0], start=offset, lenient=lenient, errors=errors,
                                      poll=self.poll, stop=self.stop, idle=self.idle)
        try:
            return OlrReader(files, options, history=history, baseline=baseline, baseline_owner=baseline_owner,
                             name=name, start=offset, columns=columns, documents=documents)
        except ValueError as e:
            raise CheckpointError(f"the checkpoint's OLR column types cannot be read: {e}") from None


class OlrLines:
    """The line renderer of OLR records (format ``olr``): the envelope `mysqlddl olr` writes
    (:func:`mysqlddl.olr.events.envelope`), one line per record."""

    def __init__(self, *, name: str = "mysqlddl", include_query: bool = False, properties=None):
        self.name = name

    def render_batch(self, batch):
        return None             # (OLR records come one by one)

    def __call__(self, change) -> str:
        return dumps(envelope(change, name=self.name))


FORMATS.setdefault("olr", OlrLines)


def olr_source(uri: str, options, *, on_wait=None, stop_requested=None) -> OlrSource:
    """The source registry's opener of ``olr://`` (mysqlddl.sources.OPENERS): ``options`` a
    SourceOptions (``follow``, ``poll``, ``decode``); ``on_wait``/``stop_requested`` the source
    contract's hooks (where the output is waited for: idle, then a stop request ends the reading)."""
    path = Path(unquote(urlsplit(uri).path)) if "://" in uri else Path(uri)
    return OlrSource(path, options.decode, follow=options.follow, poll=options.poll, idle=on_wait,
                     stop=stop_requested)


__all__ = ["OlrLines", "OlrResumePosition", "OlrSource", "olr_source"]
