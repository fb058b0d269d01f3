"""OLR messages: the fields of one JSON document, checked and typed (no value conversion yet).

Field names and forms are OLR's (documentation ``user-manual/3.output-format.adoc`` and
``json/4.format.adoc``)::

    scn | scns      SCN: decimal number (``format.scn`` 0) or hex text "0x..." (1); only on the
                    first message of a transaction unless ``scn-type`` 0x0001 is set
    tm | tms        commit timestamp: Unix epoch number (``timestamp`` 0-3), digit string (4-7) or
                    ISO-8601 text (8-15); first message only unless ``timestamp-all``
    c_scn, c_idx    checkpoint SCN and the index of the message inside it: every message carries
                    them in OLR 1.x output; they order messages and key the schema history
    xid | xidn      transaction id: "0x0002.00c.000002f1" (``xid`` 0), "2.12.753" (1), a 64-bit
                    number (2), or LogMiner's 16 hex digits (3)
    db              database name (``format.db``)
    payload[]       op: begin | commit | c | u | d | ddl | chkpt;
                    schema {owner, table, obj, columns[{name, type, length, precision, scale,
                    nullable}]} (columns only with ``format.schema`` 0x0001);
                    before / after (column -> value); rid (``format.rid``); sql (DDL, with source
                    flag 0x20); num (``message`` 0x0002); seq / offset / redo (chkpt)
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

from ..errors import OlrMessageError

OPS = frozenset({"begin", "commit", "c", "u", "d", "ddl", "chkpt"})
DML_OPS = frozenset({"c", "u", "d"})


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnInfo:
    """One entry of ``schema.columns``: ``type`` as OLR prints it (``number``, ``varchar2``...);
    ``length``/``precision``/``scale`` None when absent (OLR prints -1 for "not given", kept)."""

    name: str
    type: str
    length: int | None = None
    precision: int | None = None
    scale: int | None = None
    nullable: bool | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Payload:
    """One ``payload[]`` entry. ``before``/``after``: None when the op has no such image."""

    op: str
    owner: str | None = None
    table: str | None = None
    obj: int | None = None
    columns: tuple[ColumnInfo, ...] | None = None
    before: dict | None = None
    after: dict | None = None
    rid: str | None = None
    sql: str | None = None
    num: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Message:
    """One OLR message. ``scn``: None when the message does not carry it (see the module
    docstring). ``tm``: the raw ``tm``/``tms`` value, None when absent."""

    scn: int | None
    tm: int | str | None
    c_scn: int | None
    c_idx: int | None
    xid: str | None
    db: str | None
    payload: tuple[Payload, ...]


def _int(d: dict, key: str, payload: int | None = None) -> int | None:
    v = d.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, Decimal) and v == v.to_integral_value():
            return int(v)
        raise OlrMessageError(f"{key} must be an integer, not {v!r}", field=key, payload=payload)
    return v


def _str(d: dict, key: str, payload: int | None = None) -> str | None:
    v = d.get(key)
    if v is not None and not isinstance(v, str):
        raise OlrMessageError(f"{key} must be a string, not {v!r}", field=key, payload=payload)
    return v


def parse_scn(d: dict) -> int | None:
    if "scns" in d:
        v = d["scns"]
        if not isinstance(v, str) or not re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
            raise OlrMessageError(f"scns must be hex text like \"0x1f\", not {v!r}", field="scns")
        return int(v, 16)
    return _int(d, "scn")


def _columns(v: Any, i: int) -> tuple[ColumnInfo, ...]:
    if not isinstance(v, list):
        raise OlrMessageError("schema.columns must be an array", field="schema.columns", payload=i)
    out = []
    for c in v:
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not isinstance(c.get("type"), str):
            raise OlrMessageError(f"a schema.columns entry needs a name and a type: {str(c)[:80]}",
                                  field="schema.columns", payload=i)
        nullable = c.get("nullable")
        out.append(ColumnInfo(c["name"], c["type"], _int(c, "length", i), _int(c, "precision", i),
                              _int(c, "scale", i), None if nullable is None else bool(nullable)))
    return tuple(out)


def _image(p: dict, key: str, i: int) -> dict | None:
    v = p.get(key)
    if v is not None and not isinstance(v, dict):
        raise OlrMessageError(f"{key} must be an object of column values", field=key, payload=i)
    return v


def parse_payload(p: Any, i: int) -> Payload:
    if not isinstance(p, dict):
        raise OlrMessageError("a payload entry must be an object", payload=i)
    op = p.get("op")
    if op not in OPS:
        raise OlrMessageError(f"unknown op {op!r} (expected one of {', '.join(sorted(OPS))})",
                              field="op", payload=i)
    schema = p.get("schema")
    if schema is not None and not isinstance(schema, dict):
        raise OlrMessageError("schema must be an object", field="schema", payload=i)
    schema = schema or {}
    unknown = set(schema) - {"owner", "table", "obj", "columns"}
    if unknown:
        # e.g. format_examples.jsonl line 3 as first published (``after`` nested in ``schema``)
        raise OlrMessageError(f"unexpected field(s) in schema: {', '.join(sorted(unknown))}",
                              field="schema", payload=i)
    cols = schema.get("columns")
    pl = Payload(op, _str(schema, "owner", i), _str(schema, "table", i), _int(schema, "obj", i),
                 _columns(cols, i) if cols is not None else None, _image(p, "before", i),
                 _image(p, "after", i), _str(p, "rid", i), _str(p, "sql", i), _int(p, "num", i))
    if op in DML_OPS:
        if pl.table is None:
            raise OlrMessageError(f"op {op!r} without schema.table", field="schema.table", payload=i)
        need = {"c": ("after",), "u": ("before", "after"), "d": ("before",)}[op]
        for key in need:
            if getattr(pl, key) is None:
                raise OlrMessageError(f"op {op!r} without {key}", field=key, payload=i)
    if op == "ddl" and pl.sql is None:
        raise OlrMessageError("op 'ddl' without sql", field="sql", payload=i)
    return pl


def parse_message(d: Any) -> Message:
    """Check and type one decoded JSON document. Raises :class:`OlrMessageError` (without file
    position: the reader adds it)."""
    if not isinstance(d, dict):
        raise OlrMessageError(f"an OLR message is a JSON object, not {type(d).__name__}")
    payload = d.get("payload")
    if not isinstance(payload, list):
        raise OlrMessageError("no payload array", field="payload")
    tm = d.get("tms", d.get("tm"))
    if tm is not None and (isinstance(tm, bool) or not isinstance(tm, (int, str))):
        raise OlrMessageError(f"tm must be a number or tms a string, not {tm!r}", field="tm")
    xid = d.get("xid")
    if xid is None and "xidn" in d:
        xid = str(_int(d, "xidn"))
    elif xid is not None and not isinstance(xid, str):
        raise OlrMessageError(f"xid must be a string, not {xid!r}", field="xid")
    return Message(parse_scn(d), tm, _int(d, "c_scn"), _int(d, "c_idx"), xid, _str(d, "db"),
                   tuple(parse_payload(p, i) for i, p in enumerate(payload)))


_XID_HEX = re.compile(r"0x([0-9a-fA-F]+)\.([0-9a-fA-F]+)\.([0-9a-fA-F]+)")
_XID_DEC = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def xid_parts(xid: str | int) -> tuple[int, int, int]:
    """(undo segment, slot, sequence) of an XID in any of OLR's forms (``format.xid``): 0
    ``"0x0002.00c.000002f1"``, 1 ``"2.12.753"``, 2 the 64-bit ``xidn`` number (an int here:
    usn << 48 | slot << 32 | sqn, as OLR's ``Xid`` class packs it: ``usn()`` is ``data >> 48``,
    ``slt()`` ``(data >> 32) & 0xFFFF``, ``sqn()`` the low 32 bits), 3 LogMiner's 16 hex digits
    (the raw 8-byte XID: usn and slot little-endian 16-bit, sqn little-endian 32-bit; it may be all
    decimal digits, which is why ``xidn`` is only accepted as an int)."""
    if isinstance(xid, int) and not isinstance(xid, bool):
        return xid >> 48, (xid >> 32) & 0xFFFF, xid & 0xFFFFFFFF
    m = _XID_HEX.fullmatch(xid)
    if m:
        return tuple(int(g, 16) for g in m.groups())  # type: ignore[return-value]
    m = _XID_DEC.fullmatch(xid)
    if m:
        return tuple(int(g) for g in m.groups())  # type: ignore[return-value]
    if re.fullmatch(r"[0-9a-fA-F]{16}", xid):
        b = bytes.fromhex(xid)
        return (int.from_bytes(b[0:2], "little"), int.from_bytes(b[2:4], "little"),
                int.from_bytes(b[4:8], "little"))
    raise ValueError(f"not an XID: {xid!r}")


__all__ = ["DML_OPS", "OPS", "ColumnInfo", "Message", "Payload", "parse_message", "parse_payload",
           "parse_scn", "xid_parts"]
