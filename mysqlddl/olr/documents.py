"""Split an OLR output file into JSON documents, each with its position.

OLR's file writer puts one message per line when ``new-line`` is set (the rophy fork's test
config, ``"new-line": 1``), but samples in documentation are pretty-printed and some captures are
concatenated documents with no separator. So a file is read as a sequence of JSON values separated
by whitespace (:meth:`json.JSONDecoder.raw_decode`), which covers all three.

Numbers are parsed losslessly: ``parse_float=Decimal`` (NUMBER columns print every decoded digit;
a float would round them) and ``parse_int=int``.

Positions are 1-based lines and columns and 0-based *byte* offsets (the file is UTF-8; a byte offset
is what ``dd``/``tail -c`` and a re-reader need). After a bad document, lenient reading resumes at
the next line that starts with ``{``: the start of the next message in JSON Lines and in
pretty-printed dumps alike.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..errors import OlrJsonError

_DECODER = json.JSONDecoder(parse_float=Decimal, parse_int=int)
_WS = re.compile(r"[ \t\r\n]*")
_NEXT_DOC = re.compile(r"\n(?=\{)")


@dataclasses.dataclass(frozen=True, slots=True)
class Document:
    """One JSON value of a file: ``line`` (1-based) and ``offset`` (bytes) of its first character,
    ``index`` its 0-based rank in the file, ``end`` the byte offset just past it (where a reader
    resuming after it begins)."""

    value: Any
    file: str
    line: int
    offset: int
    index: int
    end: int = 0


class _Positions:
    """Line numbers and byte offsets of character indexes, computed incrementally (the file is
    walked forwards once)."""

    def __init__(self, text: str, line0: int = 1, byte0: int = 0):
        self.text = text
        self.ascii = text.isascii()
        self.line0, self.byte0 = line0, byte0     # where the text starts in its file
        self.char = 0
        self.line = line0
        self.byte = byte0

    def at(self, i: int) -> tuple[int, int, int]:
        """(line, column, byte offset) of character ``i`` (``i`` never goes backwards)."""
        if i < self.char:   # only after a failed decode looked ahead: restart from the top
            self.char, self.line, self.byte = 0, self.line0, self.byte0
        seg = self.text[self.char:i]
        self.line += seg.count("\n")
        self.byte += len(seg) if self.ascii else len(seg.encode("utf-8", "surrogatepass"))
        self.char = i
        col = i - (self.text.rfind("\n", 0, i) + 1) + 1
        return self.line, col, self.byte


def _bad(err: OlrJsonError, lenient: bool, errors: list[OlrJsonError] | None) -> None:
    """A document that cannot be read: raised (strict), or noted in ``errors`` (lenient)."""
    if not lenient:
        raise err from None
    if errors is not None:
        errors.append(err)


def _not_json(e: json.JSONDecodeError, pos: _Positions, i: int, name: str, index: int) -> OlrJsonError:
    eline, ecol, eoff = pos.at(max(e.pos, i))
    return OlrJsonError(f"not JSON: {e.msg}", file=name, line=eline, column=ecol, offset=eoff, document=index)


def iter_documents(path: str | Path, *, lenient: bool = False,
                   errors: list[OlrJsonError] | None = None, start: int = 0) -> Iterator[Document]:
    """The JSON documents of ``path`` in order. Strict: the first bad one raises
    :class:`OlrJsonError` with its position. ``lenient``: bad ones are appended to ``errors`` (when
    given) and skipped. ``start``: the byte offset to begin at (where a document starts: a
    pipeline resuming after its checkpoint's message); lines and offsets stay the file's, ``index``
    counts from there."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise OlrJsonError(f"cannot read: {e.strerror or e}", file=name) from None
    line0 = 1
    if start:
        line0 = raw.count(b"\n", 0, start) + 1
        raw = raw[start:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        _bad(OlrJsonError(f"not UTF-8: {e.reason}", file=name, offset=start + e.start,
                          line=line0 + raw.count(b"\n", 0, e.start)), lenient, errors)
        text = raw.decode("utf-8", "replace")
    if text.startswith("\ufeff") and not start:
        text = text[1:]
    yield from _documents_in(text, _Positions(text, line0, start), name, 0, lenient, errors)


def _documents_in(text: str, pos: _Positions, name: str, index: int, lenient: bool,
                  errors: list[OlrJsonError] | None, *, growing: bool = False):
    """The documents of ``text`` (``pos`` gives their places in the file, ``index`` the first one's
    rank); a bad one is :func:`_bad`, and reading goes on at the next line starting with ``{``, or
    ends when there is none. ``growing``: the text is what has been written of a file so far, so a
    bad document with none after it is taken as one not written whole yet, and reading ends at
    its start. Returns (the character where reading ended, the next document's rank)."""
    i = _WS.match(text, 0).end()
    while i < len(text):
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError as e:
            m = _NEXT_DOC.search(text, i)
            if m is None and growing:
                break
            _bad(_not_json(e, pos, i, name, index), lenient, errors)
            index += 1
            if m is None:
                return len(text), index
            i = m.end()
            continue
        line, _, offset = pos.at(i)
        yield Document(value, name, line, offset, index, pos.at(end)[2])
        index += 1
        i = _WS.match(text, end).end()
    return i, index


def tail_documents(files: Callable[[], list[Path]], first: Path, *, start: int = 0, lenient: bool = False,
                   errors: list[OlrJsonError] | None = None, poll: float = 0.2, stop=None,
                   idle=None) -> Iterator[Document]:
    """The documents of an OLR output that is being written, as :func:`iter_documents` gives a
    finished file's: ``first`` from byte ``start``, then each file ``files()`` lists after it
    (``files()`` lists them in the order of :func:`file_number`, as OLR's file writer rotates to
    them). What is read is
    read again from where the last whole document ended, so a document not written whole yet is
    waited for. When nothing more can be read, ``idle()`` is called and, unless ``stop()`` says to
    end here, the files are looked at again every ``poll`` seconds. A file is left for the next
    one only when the next one exists and nothing but whitespace follows its last document (OLR's
    writer finishes a file before it opens the next): an incomplete document there is an
    OlrJsonError with its position (``lenient``: appended to ``errors``, and the next file read)."""
    path, offset, line, index = Path(first), start, None, 0
    while True:
        name = str(path)
        try:
            with open(path, "rb") as f:
                if line is None:
                    line = f.read(offset).count(b"\n") + 1 if offset else 1
                f.seek(offset)
                raw = f.read()
        except OSError as e:
            raise OlrJsonError(f"cannot read: {e.strerror or e}", file=name) from None
        read_end = offset + len(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.reason != "unexpected end of data":
                _bad(OlrJsonError(f"not UTF-8: {e.reason}", file=name, offset=offset + e.start,
                                  line=line + raw.count(b"\n", 0, e.start)), lenient, errors)
                raw = raw[:e.start] + b"\xef\xbf\xbd" + raw[e.end:]      # (U+FFFD, as a lenient read does)
            text = raw.decode("utf-8", "ignore") if e.reason == "unexpected end of data" else \
                raw.decode("utf-8", "replace")
        if offset == 0 and text.startswith("\ufeff"):
            text = text[1:]
            offset = 3
        pos = _Positions(text, line, offset)
        was = offset
        # (a document not written whole yet: reading ends at its start, and it is read again)
        i, index = yield from _documents_in(text, pos, name, index, lenient, errors, growing=True)
        line, _, offset = pos.at(i)
        if offset != was:
            continue                    # (more may have come meanwhile)
        here = (file_number(path.name), path.name)
        later = [f for f in files() if (file_number(f.name), f.name) > here]
        if later:
            try:
                grown = path.stat().st_size > read_end
            except OSError:
                grown = False
            if grown:
                continue                # (written to before the rotation: read it first)
            if offset < read_end:
                _bad(OlrJsonError(f"an incomplete document at the end of the file, and OLR has gone on to "
                                  f"{later[0].name}", file=name, line=line, offset=offset, document=index),
                     lenient, errors)
            path, offset, line, index = later[0], 0, 1, 0
            continue
        if idle is not None:
            idle()
        if stop is not None and stop():
            return
        time.sleep(poll)


def file_number(name: str) -> int:
    """The number in an OLR output file's name (its last run of digits; 0 when none): the order of
    the files OLR's file writer rotates to, and a pipeline's segment names (``file_seq``)."""
    m = _NUMBER.search(Path(name).name)
    return int(m.group(1)) if m else 0


_NUMBER = re.compile(r"(\d+)\D*$")

__all__ = ["Document", "file_number", "iter_documents", "tail_documents"]
