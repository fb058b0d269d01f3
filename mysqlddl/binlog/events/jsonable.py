"""Events as JSON-ready dicts (the ``mysqlddl events`` output): one flat object per event with
its location, header and decoded fields; bytes as lowercase hex."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum

from ..absent import ABSENT
from .types import Event


def jsonable(value):
    """Plain JSON types for a decoded value: bytes -> hex, dataclasses -> dicts, tuples -> lists,
    Decimal/temporal values -> their text form."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, (decimal.Decimal, datetime.date, datetime.time, datetime.timedelta)):
        return str(value)
    return repr(value)


def event_to_dict(ev: Event, *, rows: bool = False) -> dict:
    """``type``, ``type_code``, ``file``, ``pos``, ``next_pos``, ``size``, ``timestamp``,
    ``server_id``, ``flags``, ``payload_offset`` (inside a TRANSACTION_PAYLOAD only), then the
    event's own fields. ``rows=True`` adds the decoded ``rows`` of rows events."""
    h = ev.header
    out = {"type": ev.type_name, "type_code": h.type_code, "file": ev.file, "pos": ev.pos,
           "next_pos": ev.next_pos, "size": h.event_size, "timestamp": h.timestamp,
           "server_id": h.server_id, "flags": h.flags}
    if ev.payload_offset is not None:
        out["payload_offset"] = ev.payload_offset
    for k, v in ev.fields().items():
        out[k] = jsonable(v)
    for prop in ("gtid", "gtid_set", "gtid_list", "table", "created_at"):
        if prop not in out and hasattr(type(ev), prop):
            out[prop] = jsonable(getattr(ev, prop))
    if rows and hasattr(ev, "rows") and callable(ev.rows):
        def cell(v):
            return "<absent>" if v is ABSENT else jsonable(v)

        decoded = ev.rows()
        if ev.present2 is not None:
            out["rows"] = [{"before": [cell(v) for v in b], "after": [cell(v) for v in a]}
                           for b, a in decoded]
        else:
            out["rows"] = [[cell(v) for v in r] for r in decoded]
    return out
