"""Values the schema knows better than the row image, and the per-column family that says so."""

from __future__ import annotations

import ipaddress

from ..binlog.values.jsonb import JSON_NULL, parse_text
from ..model.column import Column
from ..model.table import Table
from ..model.types import TypeFamily
from ..options import Dialect, Options

F = TypeFamily


def value_family(col: Column, table: Table) -> TypeFamily:
    """The family that types a column's values: MariaDB's JSON is LONGTEXT with a
    ``json_valid(col)`` check (MariaDB KB "JSON Data Type"), declared JSON or dumped as
    ``longtext ... CHECK (json_valid(`col`))``; its values are JSON documents."""
    if col.family is F.TEXT and (col.declared_type.strip().upper() == "JSON" or any(
            ch.column is not None and ch.column.lower() == col.name.lower()
            and ch.expression.replace(" ", "").lower().startswith("json_valid(") for ch in table.checks)):
        return F.JSON
    return col.family


def typed_value(family: TypeFamily, v):
    """Values the schema knows better than the row image: MariaDB JSON (LONGTEXT) as the document
    the MySQL binary JSON path gives for it (:func:`mysqlddl.binlog.values.jsonb.parse_text`: exact
    numbers, the document ``null`` as JSON_NULL, not SQL NULL), INET4/INET6 (fixed binary) as
    addresses. Anything that does not convert is left as it is."""
    if family is F.JSON and isinstance(v, str):
        try:
            return parse_text(v)
        except ValueError:
            return v
    if family in (F.INET4, F.INET6) and isinstance(v, (bytes, bytearray)):
        try:
            return str(ipaddress.ip_address(bytes(v)))
        except ValueError:
            return v
    return v


def uuid_swap_all(opts: Options) -> bool:
    """MariaDB 10.7 up to 10.10.5 / 10.11.4 / 11.0.2 swapped every UUID in the record; later ones
    only RFC 4122 versions 1-5 (MDEV-29959)."""
    v = opts.server_version
    return opts.dialect is Dialect.MARIADB and ((10, 7, 0) <= v < (10, 10, 6) or (10, 11, 0) <= v < (10, 11, 5)
                                                or (11, 0, 0) <= v < (11, 0, 3))


def mariadb_uuid_text(v, swap_all: bool = False):
    """A MariaDB UUID column's 16 record bytes as its text form. The record keeps the segments of
    ``llllllll-mmmm-Vhhh-vsss-nnnnnnnnnnnn`` in reverse order, ``nnnnnnnnnnnn vsss Vhhh mmmm llllllll``
    (MariaDB KB "UUID Data Type", Storage), for the RFC 4122 versions 1-5 (a variant bit 0x80 and a
    version nibble 1-5, sql/plugin/type_uuid ``UUIDBundle::record_need_swap``); other values, from
    10.10.6/10.11.5 on, are stored as written. Anything that is not 16 bytes is left as it is."""
    if not isinstance(v, (bytes, bytearray)) or len(v) != 16:
        return v
    b = bytes(v)
    if swap_all or (b[6] & 0x80 and 1 <= b[8] >> 4 <= 5):
        b = b[12:16] + b[10:12] + b[8:10] + b[6:8] + b[0:6]
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"



__all__ = ["JSON_NULL", "mariadb_uuid_text", "typed_value", "uuid_swap_all", "value_family"]
