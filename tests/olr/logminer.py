"""Comparing our OLR conversion with the rophy fork's LogMiner reference (test helper).

The fork generated ``logminer-reference.json`` from Oracle LogMiner (``tests/scripts/logminer2json.py``
in rophy/OpenLogReplicator @ 723d818): one JSON object per row change, every value as LogMiner's
SQL_REDO text under the session's NLS formats (``DD-MON-RR``, ``DD-MON-RR HH.MI.SSXFF AM``),
BINARY_FLOAT/DOUBLE in exponent form (``2.7182818284590451E+000``), XID as 16 hex digits.

Two differences are LogMiner's, not OLR's, and are undone here before pairing rows:

* LOB writes: LogMiner logs an INSERT with ``EMPTY_CLOB()``/``EMPTY_BLOB()`` then an UPDATE per LOB
  write (and a multi-column UPDATE as one UPDATE per LOB piece); OLR reports the row once. A
  LogMiner UPDATE that only sets LOB columns (columns that ever hold an ``EMPTY_*LOB()`` in the
  reference) of the row the previous record changed, in the same transaction, is folded into it.
* Images: LogMiner's UPDATE ``after`` has only the SET columns and its ``before`` every supplemental
  column; OLR's compact mode has changed columns + key on both sides. Values are compared on the
  columns both hold.
"""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal, InvalidOperation

from mysqlddl.olr.messages import xid_parts
from mysqlddl.olr.values import epoch_datetime

LM_OPS = {"INSERT": "c", "UPDATE": "u", "DELETE": "d"}
_MON = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}
_LM_DATE = re.compile(r"(\d\d)-([A-Z]{3})-(\d\d)(?: (\d\d)\.(\d\d)\.(\d\d)(?:\.(\d{1,9}))? (AM|PM))?")
_LM_FLOAT = re.compile(r"-?\d\.\d+E[+-]\d{3}")


def load(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip() and not line.startswith("#")]


def _key_of(rec: dict) -> object:
    img = rec.get("before") or rec.get("after") or {}
    return img.get("ID")


def fold_lob_writes(recs: list[dict]) -> tuple[list[dict], int]:
    lob_cols = {c for r in recs for img in (r.get("before"), r.get("after")) if img
                for c, v in img.items() if v in ("EMPTY_CLOB()", "EMPTY_BLOB()")}
    out: list[dict] = []
    folded = 0
    for r in recs:
        prev = out[-1] if out else None
        if (prev is not None and r["op"] == "UPDATE" and prev["op"] in ("INSERT", "UPDATE")
                and r["xid"] == prev["xid"] and r["table"] == prev["table"]
                and _key_of(r) == (prev.get("after") or {}).get("ID", _key_of(prev))
                and r.get("after") and set(r["after"]) <= lob_cols):
            merged = dict(prev)
            merged["after"] = {**prev["after"], **r["after"]}
            out[-1] = merged
            folded += 1
            continue
        out.append(r)
    return out, folded


def _row_id(img: dict | None) -> str | None:
    v = (img or {}).get("ID")
    return None if v is None else str(v)


def pair(rows, recs: list[dict]) -> tuple[list[tuple[object, dict]], list, list[dict]]:
    """Pair our row changes with the (folded) reference records by transaction, table, op and the
    row's ID (commit order is the same, but rows of concurrent transactions need not be listed in
    the same order). Returns (pairs, our unpaired rows, unpaired records)."""
    free = list(recs)
    pairs, lost = [], []
    for r in rows:
        rid = _row_id(r.after if r.op == "c" else r.before)
        for i, m in enumerate(free):
            if (LM_OPS[m["op"]] == r.op and m["table"] == r.source.table and xid_matches(r.source.xid, m["xid"])
                    and _row_id(m.get("after") if r.op == "c" else m.get("before")) == rid):
                pairs.append((r, free.pop(i)))
                break
        else:
            lost.append(r)
    return pairs, lost, free


def lm_datetime(text: str) -> tuple[datetime.datetime, bool, int] | None:
    """(datetime, has_time, nanoseconds) of LogMiner's NLS text, None when it is not one
    (RR years: 00-49 -> 20xx, 50-99 -> 19xx)."""
    m = _LM_DATE.fullmatch(text)
    if not m:
        return None
    yy = int(m.group(3))
    year = 2000 + yy if yy < 50 else 1900 + yy
    day = datetime.datetime(year, _MON[m.group(2)], int(m.group(1)))
    if not m.group(4):
        return day, False, 0
    h = int(m.group(4)) % 12 + (12 if m.group(8) == "PM" else 0)
    ns = int((m.group(7) or "").ljust(9, "0"))
    return day.replace(hour=h, minute=int(m.group(5)), second=int(m.group(6))), True, ns


def xid_matches(olr_xid: str, lm_xid: str) -> bool:
    return xid_parts(olr_xid) == xid_parts(lm_xid)


def compare(value, text) -> str:
    """How our value relates to LogMiner's text:

    - "equal";
    - "float6": equal to 6 significant digits, OLR's BINARY_FLOAT/DOUBLE printing (LogMiner's text
      is in exponent form);
    - "second": a timestamp equal to the nearest second, OLR's ``timestamp`` format 7 (epoch
      seconds, the fork's configuration);
    - "lm_lob_unlogged": LogMiner shows ``EMPTY_CLOB()``/``EMPTY_BLOB()`` where it did not log the
      LOB's content (a LOB written out of line), OLR has the content;
    - "lm_newline": the reference shows each line break as one space (its SQL_REDO text is
      re-joined line by line), OLR has the line breaks;
    - "different"."""
    if text in ("EMPTY_CLOB()", "EMPTY_BLOB()") and value not in (None, ""):
        return "lm_lob_unlogged"
    if isinstance(value, str) and ("\n" in value) and re.sub(r"\r?\n", " ", value) == text:
        return "lm_newline"
    if text is None or value is None:
        return "equal" if text is None and value is None else "different"
    if isinstance(value, bytes):
        return "equal" if value.hex() == text.lower() else "different"
    if isinstance(value, (int, Decimal, float)) and not isinstance(value, bool):
        try:
            exact = Decimal(text)
        except InvalidOperation:
            return "different"
        if Decimal(str(value)) == exact:
            return "equal"
        if _LM_FLOAT.fullmatch(text) and float(f"{float(value):.6g}") == float(f"{float(exact):.6g}"):
            return "float6"
        return "different"
    if isinstance(value, str) and value == text:
        return "equal"
    lm = lm_datetime(text)
    if lm is not None:
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            value = epoch_datetime(int(value), "s")[0]
        if not isinstance(value, datetime.datetime):
            return "different"
        when, has_time, ns = lm
        if not has_time:
            return "equal" if value.date() == when.date() else "different"
        exact_us = when + datetime.timedelta(microseconds=ns // 1000)
        if value == exact_us:
            return "equal"
        diff_ns = abs((value - when) / datetime.timedelta(microseconds=1) * 1000 - ns)
        return "second" if diff_ns <= 500_000_000 else "different"
    return "different"
