"""DDL scripts as text, read in the encoding they were written in (issue #30 item 10: a --schema
file that was not UTF-8 ended in UnicodeDecodeError).

The encoding is, in order: the one the caller was given (``--schema-encoding``: a MySQL charset
name such as ``latin1``, or a Python codec name); a byte-order mark (UTF-8, UTF-16, UTF-32; the
mark is not part of the text); the last ``SET NAMES x`` among the statements that open the script,
plain or in a versioned comment as mysqldump writes its head (``/*!40101 SET NAMES utf8 */;`` then
``/*!50503 SET NAMES utf8mb4 */;``: MySQL Reference Manual, "mysqldump", and "SET NAMES
Statement"); else UTF-8. MySQL charset names map to codecs by the row decoders' table
(:mod:`mysqlddl.textcodecs`: MySQL's latin1 is cp1252). Bytes that are not text in the
chosen encoding are a :class:`~mysqlddl.errors.ScriptEncodingError` at the first bad byte (line,
column, byte offset) that says which option gives the encoding.
"""

from __future__ import annotations

import codecs
import re

from .errors import ConfigError, ScriptEncodingError
from .textcodecs import codec_for_charset_name, decode_text

# longest first: the UTF-32 LE mark begins with the UTF-16 LE one
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))

# what may open a script before its first statement that is not a SET: blanks, comments (-- and #
# to the end of the line, /* */ that is not a versioned comment) and SET statements, each plain
# or in a /*!NNNNN ... */ versioned comment (the head mysqldump writes)
_HEAD_ITEM = re.compile(
    rb"\s+|--[^\n]*|#[^\n]*|/\*(?!!)(?:.|\n)*?\*/"
    rb"|/\*!\d*\s*(?P<v>SET\b[^;]*?)\s*\*/\s*;|(?P<p>SET\b[^;]*);", re.I)
_SET_NAMES = re.compile(rb"SET\s+NAMES\s+['\"`]?(\w+)", re.I)
#: how far into a script its opening SET NAMES is looked for
_HEAD_BYTES = 8192


def encoding_name(name: str) -> str:
    """The codec of a MySQL charset name or a Python codec name; ConfigError when neither."""
    entry = codec_for_charset_name(name)
    if entry:
        if entry[0] is None:
            raise ConfigError(f"{name!r} is the binary charset, not a text encoding")
        return entry[0]
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise ConfigError(f"unknown encoding {name!r} (a MySQL charset such as latin1, utf8mb4, cp1251, "
                          "or a Python codec name)") from None


def _set_names(raw: bytes) -> str | None:
    """The charset of the last SET NAMES among the statements that open ``raw`` (ASCII), or None."""
    head, at, found = raw[:_HEAD_BYTES], 0, None
    while at < len(head):
        m = _HEAD_ITEM.match(head, at)
        if m is None or m.end() == at:
            break
        stmt = m.group("v") or m.group("p")
        if stmt is not None:
            names = _SET_NAMES.match(stmt)
            if names is not None:
                found = names.group(1).decode("ascii")
        at = m.end()
    return found


def sql_text(raw: bytes, *, encoding: str | None = None, label: str = "", option: str = "--encoding") -> str:
    """``raw`` (a script's bytes) as text, read as the module docstring says. ``label`` names the
    file in an error, ``option`` the option that gives the encoding."""
    how, enc = "given", None
    if encoding is not None:
        enc = encoding_name(encoding)
    else:
        for bom, name in _BOMS:
            if raw.startswith(bom):
                raw, enc, how = raw[len(bom):], name, "marked by its byte-order mark"
                break
    if enc is None:
        names = _set_names(raw)
        if names is not None:
            entry = codec_for_charset_name(names)
            if entry and entry[0] is not None:
                enc, how = entry[0], f"named by its SET NAMES {names}"
    if enc is None:
        enc, how = "utf-8", "the default"
    try:
        return decode_text(raw, enc, "strict")
    except UnicodeDecodeError as e:
        before = decode_text(raw[:e.start], enc, "strict")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1)
        shown = "UTF-8" if enc == "utf-8" else enc
        raise ScriptEncodingError(
            f"not {shown} text ({how}): byte 0x{raw[e.start]:02x} at byte offset {e.start} cannot be decoded; "
            f"give the file's encoding with {option} (e.g. latin1), or start the file with SET NAMES as mysqldump "
            "does", line=line, column=column, source=label or None) from None


__all__ = ["encoding_name", "sql_text"]
