"""The parts of the Debezium envelope every connector's envelope shares: typed row values as JSON
data, the transaction metadata event, and a schema change's ``tableChanges``.

The value choices (ISO-8601 temporal values, DECIMAL as its exact digits, bytes as base64, ...)
are described in :mod:`mysqlddl.sinks.jsonl`, whose native envelope (a binlog's records) and
:mod:`mysqlddl.sinks.oracle`'s (OLR records) both build on this module.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import math
from typing import Any

from ..binlog.values.jsonb import JsonNull, number_text
from ..model import render
from ..model.table import IndexKind, Table
from ..model.types import TypeFamily

F = TypeFamily

# ---------------------------------------------------------------------------------------- values


def _td_text(td: datetime.timedelta) -> str:
    """A TIME value as the server prints it: [-]H:MM:SS[.ffffff] (hours may exceed 24)."""
    us = td.days * 86_400_000_000 + td.seconds * 1_000_000 + td.microseconds
    sign = "-" if us < 0 else ""
    us = abs(us)
    s, frac = divmod(us, 1_000_000)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{sign}{h:02d}:{m:02d}:{sec:02d}" + (f".{frac:06d}" if frac else "")


def json_value(v: Any) -> Any:
    """A typed row value as JSON data (see the module docstring for the choices)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, decimal.Decimal):
        return number_text(v)
    if isinstance(v, JsonNull):
        return "null"
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None and v.utcoffset() == datetime.timedelta(0):
            return v.replace(tzinfo=None).isoformat() + "Z"
        return v.isoformat()
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return _td_text(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(v)).decode("ascii")
    if isinstance(v, dict):
        return {str(k): json_value(x) for k, x in v.items()}
    if hasattr(v, "_asdict"):   # Geometry(srid, wkb), JsonOpaque, JsonPartialUpdate, JsonDiff
        return {k: json_value(x) for k, x in v._asdict().items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [json_value(x) for x in v]
    return str(v)


def _float(v: float):
    return v if math.isfinite(v) else str(v)


def _datetime(v: datetime.datetime) -> str:
    if v.tzinfo is not None and v.utcoffset() == datetime.timedelta(0):
        return v.replace(tzinfo=None).isoformat() + "Z"
    return v.isoformat()


def _b64(v) -> str:
    return base64.b64encode(v).decode("ascii")


# json_value by exact type for the row values seen most (None: already JSON data); anything else
# (subclasses, containers, named tuples) goes through json_value. One dict lookup per value is
# what keeps rendering from dominating a run.
_BY_TYPE = {int: None, str: None, bool: None, type(None): None, float: _float, decimal.Decimal: number_text,
            datetime.datetime: _datetime, datetime.date: datetime.date.isoformat,
            datetime.timedelta: _td_text, bytes: _b64}


def json_image(values: dict | None) -> dict | None:
    """A row image (column name -> typed value) as JSON data, by :func:`json_value`."""
    if values is None:
        return None
    get = _BY_TYPE.get
    out = {}
    for k, v in values.items():
        f = get(type(v), json_value)
        out[k] = v if f is None else f(v)
    return out


# ---------------------------------------------------------------------------- transactions, DDL


def transaction_dict(status: str, id_: str, ts_ms: int | None, counts) -> dict:
    """Debezium's transaction metadata event (its "Transaction metadata" section): ``counts``,
    ((data collection, events), ...), given for END only."""
    end = status == "END"
    return {"status": status, "id": id_, "ts_ms": ts_ms,
            "event_count": sum(n for _, n in counts) if end else None,
            "data_collections": [{"data_collection": t, "event_count": n} for t, n in counts]
            if end else None}



_JDBC = {
    "tinyint": -6, "smallint": 5, "mediumint": 4, "int": 4, "bigint": -5, "decimal": 3, "float": 7,
    "double": 8, "bit": -7, "date": 91, "time": 92, "datetime": 93, "timestamp": 2014, "year": 4,
    "char": 1, "varchar": 12, "binary": -2, "varbinary": -3, "tinytext": 12, "text": -1,
    "mediumtext": -1, "longtext": -1, "tinyblob": -3, "blob": -4, "mediumblob": -4, "longblob": -4,
    "enum": 1, "set": 1, "json": 1111, "geometry": 1111, "point": 1111, "linestring": 1111,
    "polygon": 1111, "multipoint": 1111, "multilinestring": 1111, "multipolygon": 1111,
    "geometrycollection": 1111, "vector": 1111, "inet4": 1111, "inet6": 1111, "uuid": 1111,
}


def _quoted_id(db: str | None, name: str) -> str:
    return f'"{db}"."{name}"' if db else f'"{name}"'


def debezium_table(t: Table) -> dict:
    """A table as Debezium's schema-history ``tableChanges[].table``."""
    pk = list(t.primary_key.columns) if t.primary_key is not None and \
        t.primary_key.kind is IndexKind.PRIMARY else []
    cols = []
    for c in t.columns:
        length = c.fsp if c.family in (F.TIME, F.DATETIME, F.TIMESTAMP) else c.length
        cols.append({"name": c.name, "jdbcType": _JDBC.get(c.type_name, 1111),
                     "typeName": c.type_name.upper(), "typeExpression": c.type_name.upper(),
                     "charsetName": c.charset, "length": length, "scale": c.scale,
                     "position": c.position, "optional": c.nullable,
                     "autoIncremented": c.auto_increment, "generated": c.auto_increment or
                     c.generated is not None, "comment": c.comment,
                     "enumValues": list(c.values) if c.values else None})
    return {"defaultCharsetName": t.charset, "primaryKeyColumnNames": pk, "columns": cols,
            "comment": t.comment}


def table_changes(record, kinds) -> list[dict]:
    """Debezium's ``tableChanges`` of a history record (``kinds``: CREATE/ALTER/DROP per table),
    each with our model's full definition under ``mysqlddl_table``."""
    return [{"type": kind, "id": _quoted_id(tid.database, tid.name),
             "table": debezium_table(table) if table is not None else None,
             "mysqlddl_table": render.table_json(table) if table is not None else None}
            for (tid, table), kind in zip(record.tables, kinds, strict=True)]



__all__ = ["debezium_table", "json_image", "json_value", "table_changes", "transaction_dict"]
