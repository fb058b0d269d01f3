"""The OLR source: OpenLogReplicator JSON output files (``olr:///path``), as documents.

``olr:///path/file.json`` is one output file; ``olr:///path/dir/`` the files of a directory (every
regular file not starting with ``.``), in the order of the number in their names (OLR's file writer
numbers the files it rotates to; :func:`~mysqlddl.olr.documents.file_number`), then by name.

The source's contract is the one of :mod:`mysqlddl.sources` as far as OLR output fits it: ``kind``
"olr", :meth:`OlrSource.identity` and :meth:`OlrSource.events` (the output's JSON documents, each
with its place: :class:`~mysqlddl.olr.documents.Document`), which an
:class:`~mysqlddl.olr.reader.OlrReader` turns into change records.

A position is an :class:`~mysqlddl.positions.OlrResumePosition`: the OLR position of the message
that ended the last committed transaction (a ``commit``, or a ``ddl`` message), ``c_scn``/``c_idx``
with its ``scn`` carried as :class:`~mysqlddl.positions.OlrPosition` has them, plus where that
message is in the output (its file, the number in the file's name, its byte offset and the offset
just past it). A restart reads the message at that offset again, checks it is the checkpoint's and
ends where the checkpoint says (else the output is not the one the checkpoint was taken from:
refused, :meth:`OlrSource.identity`), and reads on from the offset past it. The byte offset, not
``(c_scn, c_idx)``, is what orders the output and says where to resume: OLR writes transactions in
commit order, and ``c_scn`` is where a transaction's redo starts, so it does not order them
(:class:`~mysqlddl.positions.OlrPosition`).

Identity: OLR output names no server; the source's identity is the database name its messages
carry (``db``, ``?`` when they carry none) with the output's file name less its number; what
really tells two outputs apart is the message at the checkpoint's offset (the fingerprint checked
on every restart: its ``c_scn``, ``c_idx`` and ``xid``).

Built with ``follow``, the output is followed as OLR writes it
(:func:`~mysqlddl.olr.documents.tail_documents`: a message not written whole is waited for, a new
file of the directory is read once the current one is finished; ``idle()`` is called while it
waits, so a pipeline commits what ended, and ``stop()`` ends it); else it is read to the end of
what exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import CheckpointError, OlrError, PipelineError
from ..options import DEFAULT, ErrorPolicy, Options
from ..positions import OlrResumePosition
from ..sources.options import SourceOptions
from .documents import Document, file_number, iter_documents, tail_documents

_DB_LOOKAHEAD = 100         # messages looked at for the output's database name


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
    """OLR output files (module docstring); ``path`` a file or a directory. ``options``: its
    ``error_policy`` says whether a document that is not JSON stops the reading (RAISE) or is
    skipped, its error kept in :attr:`errors` for the reader to count. ``follow``/``poll``/
    ``stop``/``idle``: following a growing output (module docstring). :attr:`files`: the files read
    so far, in order."""

    kind = "olr"

    def __init__(self, path: str | Path, options: Options = DEFAULT, *, follow: bool = False, poll: float = 0.2,
                 stop=None, idle=None, **_kw):
        self.path = Path(path)
        self.options = options
        self.follow, self.poll, self.stop, self.idle = follow, poll, stop, idle
        #: the JSON errors of a lenient reading, drained by the reader
        self.errors: list[OlrError] = []
        self.files: list[Path] = []

    def output_files(self) -> list[Path]:
        """The output's files now, in OLR's order (a PipelineError when there is none)."""
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
        files = self.output_files()
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

    def events(self, start: OlrResumePosition | None = None, *, stop=None, only_types=None,
               registry=None) -> Iterator[Document]:
        """The output's documents from just past ``start`` (None: from the beginning); following
        when built so, until ``stop()`` (this call's, else the source's) says to end. (``only_types``
        and ``registry`` select binlog events: an OLR document is read whole.)"""
        files = self._from(start)
        offset = start.pos if start is not None else 0
        lenient = self.options.error_policy is not ErrorPolicy.RAISE
        if self.follow:
            docs = tail_documents(self.output_files, files[0], start=offset, lenient=lenient, errors=self.errors,
                                  poll=self.poll, stop=stop or self.stop, idle=self.idle)
        else:
            docs = (doc for n, f in enumerate(files)
                    for doc in iter_documents(f, lenient=lenient, errors=self.errors, start=offset if n == 0 else 0))
        read = self.files
        for doc in docs:
            if not read or doc.file != str(read[-1]):
                read.append(Path(doc.file))
            yield doc

    def close(self) -> None:
        """(nothing held between documents: the files are read whole, or reopened as they grow)"""

    def __enter__(self) -> OlrSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def olr_source(uri: str, options: SourceOptions | None = None, *, on_wait=None, stop_requested=None) -> OlrSource:
    """The source of an ``olr:///path`` URI (or a plain path): the source registry's opener
    (:data:`mysqlddl.sources.OPENERS`). ``options``: ``decode`` (its error policy), ``follow``,
    ``poll``; ``on_wait``/``stop_requested``: the source contract's hooks (where the output is
    waited for: on_wait, then a stop request ends the reading)."""
    options = options if options is not None else SourceOptions()
    path = Path(unquote(urlsplit(uri).path)) if "://" in uri else Path(uri)
    return OlrSource(path, options.decode, follow=options.follow, poll=options.poll, idle=on_wait,
                     stop=stop_requested)


__all__ = ["OlrSource", "olr_source"]
