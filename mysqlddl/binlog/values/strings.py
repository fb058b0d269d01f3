"""CHAR/VARCHAR/BINARY/VARBINARY and BLOB/TEXT.

Row image (sql/field.cc ``Field_string::pack``, ``Field_varstring::pack``, ``Field_blob::pack``;
sql/log_event.cc ``log_event_print_value``):

    STRING (CHAR/BINARY): length 1 byte if the column's maximum byte length is < 256, else 2 (LE),
        then the bytes with trailing pad (spaces, or 0x00 for BINARY) removed by the server.
    VARCHAR: length 1 byte if the maximum is < 256, else 2 bytes LE, then the bytes.
    BLOB/TEXT (and MariaDB JSON = LONGTEXT): length in 1-4 bytes LE (the metadata), then the bytes.

Text is decoded with the column's charset (``meta.encoding``, None keeps bytes).
"""

from __future__ import annotations

from ...errors import CorruptEventError
from ._common import length_prefixed
from .charsets import decode_text


def text_value(raw: bytes, meta):
    """bytes -> the column's value (decoded text, or bytes with BINARY(N) padding restored)."""
    if meta.encoding is None:
        if meta.pad_bytes and len(raw) < meta.pad_bytes:
            raw = raw + b"\x00" * (meta.pad_bytes - len(raw))
        return raw
    try:
        text = decode_text(raw, meta.encoding, meta.errors)
    except UnicodeDecodeError as e:
        raise CorruptEventError(f"text not valid in {meta.encoding}: {e.reason} at byte {e.start}") from None
    if meta.pad_chars and len(text) < meta.pad_chars:
        text += " " * (meta.pad_chars - len(text))
    return text


def decode_string(buf, offset, meta):
    """STRING (CHAR/BINARY) and VARCHAR/VAR_STRING: 1- or 2-byte length, at most ``meta.length``."""
    start, end = length_prefixed(buf, offset, meta.len_bytes, meta.length, "string")
    return text_value(bytes(buf[start:end]), meta), end


def decode_blob(buf, offset, meta):
    """BLOB/TEXT of any size: ``meta.len_bytes`` (1-4) byte length."""
    start, end = length_prefixed(buf, offset, meta.len_bytes, None, "BLOB/TEXT")
    return text_value(bytes(buf[start:end]), meta), end
