"""Column types of CREATE TABLE ... SELECT items that are not plain column references: literals,
CAST/CONVERT and the current-time functions. The server types a SELECT item by evaluating its
expression (MySQL 8.4 manual 15.1.20.4 "CREATE TABLE ... SELECT Statement": "the type of each
column is determined by the result type of its expression"); these are the rules for the simple
cases, each checked against MariaDB 10.11.19 (tests/model/test_model_vs_mariadb_features.py).
Anything else stays type ``unknown``.

Rules (MariaDB 10.11, Item_*::fix_length_and_dec and Type_handler::make_table_field):

- integer literal: ``int(n)`` for at most 9 characters (a minus sign counts), else ``bigint(n)``;
  beyond BIGINT: ``bigint(20) unsigned`` up to 2**64-1, then ``decimal(n,0)``; NOT NULL;
- decimal literal: ``decimal(digits, digits after the point)`` (the sign does not count); NOT NULL;
- approximate literal (with an exponent): ``double``; NOT NULL;
- string literal: ``varchar(characters)`` (``char(0)`` when empty) in the connection charset, or
  the introducer's (``_latin1'x'``; ``N'x'`` is utf8mb3); NOT NULL;
- hexadecimal / bit literal: ``varbinary(bytes)``; NOT NULL;
- NULL: ``binary(0)`` DEFAULT NULL;
- CAST/CONVERT to CHAR(n) -> varchar(n) in the connection charset, BINARY(n) -> varbinary(n),
  DATE, TIME(n), DATETIME(n), DOUBLE, FLOAT: nullable (a failed conversion gives NULL);
  DECIMAL(p,s): nullable only when the operand is;
- NOW()/CURRENT_TIMESTAMP[(n)]/LOCALTIME/LOCALTIMESTAMP/SYSDATE -> datetime(n), CURDATE() /
  CURRENT_DATE -> date, CURTIME()/CURRENT_TIME -> time(n): NOT NULL.
"""

from __future__ import annotations

import re

from ..model import charsets
from ..model.column import Column, Default
from ..model.spec import DataTypeSpec

_INT = re.compile(r"^[+-]?\d+$")
_DEC = re.compile(r"^[+-]?(\d*)\.(\d*)$")
_REAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$")
_HEX = re.compile(r"^(?:[xX]'([0-9a-fA-F]*)'|0x([0-9a-fA-F]+))$")
_BIT = re.compile(r"^(?:[bB]'([01]*)'|0b([01]+))$")
_STR = re.compile(r"^(?:_(\w+)\s*|([nN]))?'((?:[^'\\]|''|\\.)*)'$", re.S)


def _charset_of(cs: str | None, coll: str | None, column: str) -> tuple[str, str]:
    return charsets.resolve_pair(cs, coll, (cs or "utf8mb4", None), column) if (cs or coll) else \
        ("utf8mb4", charsets.default_collation("utf8mb4", column))


def literal_column(name: str, text: str, conn: tuple[str | None, str | None], coll_column: str) -> Column | None:
    t = text.strip()
    if t.upper() == "NULL":
        return Column(name, "binary", length=0, nullable=True, default=Default.null())
    if _INT.match(t):
        v = int(t)
        if v == 0:
            t = "0"  # (-0 is folded to 0 before it is typed)
        n = len(t.lstrip("+"))
        if n <= 9:
            return Column(name, "int", length=n, nullable=False)
        if -(2 ** 63) <= v < 2 ** 63:
            return Column(name, "bigint", length=n, nullable=False)
        if 0 <= v < 2 ** 64:
            return Column(name, "bigint", length=20, unsigned=True, nullable=False)
        return Column(name, "decimal", length=len(t.lstrip("+-")), scale=0, nullable=False)
    m = _DEC.match(t)
    if m and (m.group(1) or m.group(2)):
        digits, scale = len(m.group(1)) + len(m.group(2)), len(m.group(2))
        return Column(name, "decimal", length=max(digits, 1), scale=scale, nullable=False)
    if _REAL.match(t):
        return Column(name, "double", nullable=False)
    m = _HEX.match(t)
    if m:
        digits = m.group(1) if m.group(1) is not None else m.group(2)
        return Column(name, "varbinary", length=(len(digits) + 1) // 2, nullable=False)
    m = _BIT.match(t)
    if m:
        bits = m.group(1) if m.group(1) is not None else m.group(2)
        return Column(name, "varbinary", length=(len(bits) + 7) // 8, nullable=False)
    m = _STR.match(t)
    if m:
        intro, national, body = m.groups()
        if intro:
            cs, coll = charsets.resolve_pair(intro, None, (intro, None), coll_column)
        elif national:
            cs, coll = charsets.resolve_pair("utf8mb3", None, ("utf8mb3", None), coll_column)
        else:
            cs, coll = _charset_of(conn[0], conn[1], coll_column)
        n = len(re.sub(r"''|\\.", "x", body))
        return Column(name, "char" if n == 0 else "varchar", length=n, charset=cs, collation=coll,
                      nullable=False)
    return None


def cast_column(name: str, target: DataTypeSpec, operand_nullable: bool,
                conn: tuple[str | None, str | None], coll_column: str) -> Column | None:
    c = _cast_column(name, target, operand_nullable, conn, coll_column)
    # a nullable CTAS column gets DEFAULT NULL like any nullable column
    return c.replace(default=Default.null()) if c is not None and c.nullable else c


def _cast_column(name: str, target: DataTypeSpec, operand_nullable: bool,
                 conn: tuple[str | None, str | None], coll_column: str) -> Column | None:
    kind = " ".join(target.name.upper().split())
    n = target.length
    if kind in ("CHAR", "CHARACTER") and n is not None and target.charset is None:
        cs, coll = _charset_of(conn[0], conn[1], coll_column)
        return Column(name, "varchar", length=n, charset=cs, collation=coll)
    if kind == "BINARY" and n is not None:
        return Column(name, "varbinary", length=n)
    if kind == "DATE":
        return Column(name, "date")
    if kind in ("TIME", "DATETIME"):
        return Column(name, kind.lower(), fsp=n or 0)
    if kind in ("DOUBLE", "FLOAT") and n is None:
        return Column(name, kind.lower())
    if kind in ("DECIMAL", "DEC", "NUMERIC", "FIXED"):
        return Column(name, "decimal", length=n if n is not None else 10,
                      scale=target.scale if target.scale is not None else 0, nullable=operand_nullable)
    return None


_NOW = {"NOW", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "SYSDATE"}
_DATE = {"CURDATE", "CURRENT_DATE"}
_TIME = {"CURTIME", "CURRENT_TIME"}


def function_column(name: str, function: str, fsp_text: str | None) -> Column | None:
    f = function.upper()
    fsp = int(fsp_text) if fsp_text and fsp_text.isdigit() else 0
    if f in _NOW:
        return Column(name, "datetime", fsp=fsp, nullable=False)
    if f in _DATE:
        return Column(name, "date", nullable=False)
    if f in _TIME:
        return Column(name, "time", fsp=fsp, nullable=False)
    return None
