#!/usr/bin/env python3
"""The project's binlog workload: a deterministic series of statements against a private MariaDB
(tools/mariadb_lab.py) whose binlogs exercise every row-event column type and the schema changes a
CDC reader must follow, plus the ground truth to check a decoder against.

    python tools/workload.py --socket /tmp/mdb-x/mysqld.sock --scale 0.001 --out /tmp/truth

Phases (each can be selected with --phases):

  a  types:  `all_types` with one column per type MariaDB writes in row events (integers signed and
     unsigned, DECIMAL up to (65,30), FLOAT/DOUBLE, BIT, every temporal type at fsp 0-6, CHAR/VARCHAR/
     TEXT in utf8mb4, utf8mb3 and latin1, BINARY/VARBINARY/BLOBs, COMPRESSED columns, ENUM/SET up to
     300 members / 64 bits, JSON, every GEOMETRY type, INET4/INET6/UUID, virtual/stored/invisible
     columns); rows of min, max, zero, NULL, unicode, raw-binary, large and seeded random values; then
     UPDATEs (value <-> NULL, many rows, a session in another time zone) and DELETEs. A second table,
     `legacy_temporal`, uses MariaDB's pre-10.1 temporal formats (no TABLE_MAP metadata: only a
     schema-aware decoder can size them) and lives in its own binlog file.
  b  DDL evolution: one table altered step by step (ADD FIRST/AFTER, DROP, MODIFY, CHANGE, multi-clause
     ALTER, quoted identifiers, RENAME, CONVERT TO CHARACTER SET), CREATE LIKE, CTAS, TRUNCATE, a
     three-way RENAME swap, a dropped name reused, a second database, XA (one committed, one rolled
     back after PREPARE), a non-transactional table in a rolled-back transaction, ODKU and REPLACE;
     row changes between every DDL.
  c  bulk: `bulk` gets 500k INSERT + 300k UPDATE + 200k DELETE row changes at --scale 1 (about 1M,
     the benchmark's input), in binlog files of their own (FLUSH BINARY LOGS before and after).
  d  one big transaction: thousands of rows in `bigtx` (spanning many rows events) interleaved with
     updates of `bulk`, then updates, a multi-table update and deletes, all in one COMMIT.

Ground truth (returned by :func:`run` as a :class:`Truth`, written by the CLI to --out):
  - the DDL log: every schema statement with the default database and the binlog file and position
    right after it (``SHOW MASTER STATUS``);
  - the binlog files the workload wrote (all closed: the workload ends with FLUSH BINARY LOGS);
  - per table: information_schema columns, the primary key, SHOW CREATE TABLE, and the final contents
    rendered by the server with a lossless, typed rendering per column (see ``RENDER``);
  - expected row-change counts per table, phase boundaries, server variables.

Deterministic for a given --seed: values come from seeded generators and the session timestamp is
pinned (so CURRENT_TIMESTAMP defaults, NOW() and the events' timestamps repeat); only GTID sequence
numbers, table ids and positions depend on what the server did before.

Used as a library by tests (``run(server, scale=0.001)`` with a tools/mariadb_lab.MariaDBServer) and
as a CLI. Needs pymysql; nothing outside this repository.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import ipaddress
import json
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

DB = "lab"
DB2 = "lab_tmp"
EPOCH0 = 1_700_000_000      # pinned session timestamp at the start (2023-11-14 22:13:20 UTC)


class Sql(str):
    """An SQL expression written verbatim into a statement (not quoted as a string)."""


def quote_ident(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def literal(v) -> str:
    """SQL literal of a Python value: NULL, numbers, X'..' for bytes, escaped '...' for str."""
    if v is None:
        return "NULL"
    if isinstance(v, Sql):
        return str(v)
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (bytes, bytearray)):
        return "X'" + bytes(v).hex() + "'" if v else "''"
    if isinstance(v, str):
        out = v.replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0").replace("\n", "\\n")
        return "'" + out.replace("\r", "\\r").replace("\x1a", "\\Z") + "'"
    raise TypeError(f"no SQL literal for {type(v).__name__}")


def geom(wkt: str, srid: int = 0) -> Sql:
    return Sql(f"ST_GeomFromText('{wkt}', {srid})")


# ------------------------------------------------------------------------------------ phase (a) types
#
# Each column declares its SQL type and its boundary values; row builders pick from them, so adding a
# type is one line here. min/max/zero may be None (the column takes NULL, or its default if NOT NULL).

@dataclasses.dataclass(frozen=True)
class Col:
    name: str
    sqltype: str
    lo: object = None        # minimum / empty
    hi: object = None        # maximum / longest
    zero: object = None      # zero value, zero date, single space, ...
    odd: object = None       # a tricky typical value (unicode, negative fraction, swapped UUID, ...)
    generated: bool = False


def _dec_max(p: int, s: int) -> str:
    return ("9" * (p - s) or "0") + ("." + "9" * s if s else "")


def _int_cols():
    out = []
    for name, t, bits in (("c_ti", "TINYINT", 8), ("c_si", "SMALLINT", 16), ("c_mi", "MEDIUMINT", 24),
                          ("c_i", "INT", 32), ("c_bi", "BIGINT", 64)):
        half = 1 << (bits - 1)
        out.append(Col(name, t, -half, half - 1, 0, -1))
        out.append(Col(name + "u", t + " UNSIGNED", 0, (1 << bits) - 1, 0, half))
    return out


def _decimal_cols():
    out = []
    odd = {(1, 0): "-1", (5, 2): "-0.01", (9, 9): "0.000000001", (10, 4): "-0.0001", (18, 9): "-123456789.000000001",
           (20, 0): "-12345678901234567890", (30, 10): "0.5", (38, 38): "-0." + "0" * 37 + "1",
           (65, 0): "-1", (65, 30): "-0." + "0" * 29 + "1"}
    for (p, s), v in odd.items():
        m = _dec_max(p, s)
        out.append(Col(f"c_d{p}_{s}", f"DECIMAL({p},{s})", Sql("-" + m), Sql(m), Sql("0"), Sql(v)))
    out.append(Col("c_du", "DECIMAL(10,2) UNSIGNED", Sql("0.00"), Sql("99999999.99"), Sql("0"), Sql("12.34")))
    return out


def _temporal_cols():
    out = [Col("c_date", "DATE", "0001-01-01", "9999-12-31", "0000-00-00", "2024-02-29"),
           Col("c_year", "YEAR", 1901, 2155, Sql("0000"), 2000)]
    neg_fracs = ["-00:00:01", "-00:00:00.5", "-00:00:00.01", "-00:00:00.001", "-00:00:00.0001",
                 "-00:00:00.00001", "-00:00:00.000001"]
    for k in range(7):
        frac9, frac0 = ("." + "9" * k if k else ""), ("." + "0" * k if k else "")
        out.append(Col(f"c_time{k}", f"TIME({k})", "-838:59:59" + frac9, "838:59:59" + frac9, "00:00:00",
                       neg_fracs[k]))
        out.append(Col(f"c_dt{k}", f"DATETIME({k})", "0001-01-01 00:00:00" + frac0, "9999-12-31 23:59:59" + frac9,
                       "0000-00-00 00:00:00",
                       "2020-00-15 12:34:56" if k == 0 else "2024-02-29 23:59:59." + "0" * (k - 1) + "1"))
        out.append(Col(f"c_ts{k}", f"TIMESTAMP({k}) NULL DEFAULT NULL", "1970-01-01 00:00:01" + frac0,
                       "2038-01-19 03:14:07" + frac9, "0000-00-00 00:00:00",
                       "2000-01-01 00:00:00" + ("." + "0" * (k - 1) + "1" if k else "")))
    return out


ENUM_SMALL = ["small", "medium", "large", "x-large", "ünïcødé"]
ENUM_BIG = [f"e{i:03d}" for i in range(300)]       # 2-byte ENUM index
SET_SMALL = ["a", "b", "c", "d"]
SET12 = [f"m{i:02d}" for i in range(12)]           # 2-byte SET mask
SET64 = [f"s{i:02d}" for i in range(64)]           # 8-byte SET mask
ALL_BYTES = bytes(range(256))


def _string_cols():
    def enum(vals):
        return ",".join(literal(v) for v in vals)

    return [
        Col("c_ch0", "CHAR(0)", "", "", "", None),
        Col("c_ch10_u8", "CHAR(10) CHARACTER SET utf8mb4", "", "😀" * 10, " ", "naïve 日本"),
        Col("c_ch255_u8", "CHAR(255) CHARACTER SET utf8mb4", "", "𝄞" * 255, "   ", "trailing spaces   "),
        Col("c_ch10_l1", "CHAR(10) CHARACTER SET latin1", "", "ÿ" * 10, "0", "café €"),
        Col("c_ch255_l1", "CHAR(255) CHARACTER SET latin1", "", "é" * 255, "0", "Š€‰ œ – cp1252 only"),
        Col("c_bin16", "BINARY(16)", b"", b"\xff" * 16, b"\0" * 16, b"ab"),
        Col("c_vc63_u8", "VARCHAR(63) CHARACTER SET utf8mb4", "", "😀" * 63, "0",
            "e\u0301 combining + ZWJ 👨\u200d👩\u200d👧"),
        Col("c_vc255_u8", "VARCHAR(255) CHARACTER SET utf8mb4", "", "😀" * 255, "   ",
            "tab\there\nnewline\r\\backslash 'quote' \"dq\" \0nul"),
        Col("c_vc_u8mb3", "VARCHAR(100) CHARACTER SET utf8mb3", "", "€" * 100, " ", "BMP only ☃ ü 中"),
        Col("c_vc255_l1", "VARCHAR(255) CHARACTER SET latin1", "", "x" * 255, "", "cp1252: € ‚ ƒ „ … † ‡ ˆ"),
        Col("c_vc300_l1", "VARCHAR(300) CHARACTER SET latin1", "", "€" * 300, "", "ÀÁÂÃÄÅÆÇÈÉÊË"),
        Col("c_vb255", "VARBINARY(255)", b"", b"\xfe" * 255, b"\0", b"\0\1\2 trailing zero\0"),
        Col("c_vb1000", "VARBINARY(1000)", b"", b"\xfd" * 1000, b"\0" * 3, "utf8 bytes ü".encode()),
        Col("c_vc_comp", "VARCHAR(1000) COMPRESSED CHARACTER SET utf8mb4", "", "😀" * 1000, "0",
            "short compressed 😀"),
        Col("c_ttext", "TINYTEXT CHARACTER SET utf8mb4", "", "a" * 255, "", "🙂"),
        Col("c_text", "TEXT CHARACTER SET utf8mb4", "", "ü" * 32767 + "a", "", "Ω≈ç√∫"),
        Col("c_mtext", "MEDIUMTEXT CHARACTER SET utf8mb4", "", "b" * 70000, "", "ⓜⓔⓓⓘⓤⓜ"),
        Col("c_ltext", "LONGTEXT CHARACTER SET utf8mb4", "", "c" * 70000, "", "long 🐘"),
        Col("c_text_l1", "TEXT CHARACTER SET latin1", "", "ñ" * 65535, "", "Grüße €"),
        Col("c_text_comp", "TEXT COMPRESSED CHARACTER SET utf8mb4", "", "z" * 60000, "", "compress me " * 50),
        Col("c_tblob", "TINYBLOB", b"", b"\1" * 255, b"\0", b"\xff\0"),
        Col("c_blob", "BLOB", b"", b"\2" * 65535, b"", b"blob"),
        Col("c_mblob", "MEDIUMBLOB", b"", b"\3" * 70000, b"", b"\0" * 10),
        Col("c_lblob", "LONGBLOB", b"", b"\4" * 70000, b"", b"\x80\x81"),
        Col("c_blob_comp", "BLOB COMPRESSED", b"", ALL_BYTES * 200, b"", b"compressible " * 100),
        Col("c_enum", f"ENUM({enum(ENUM_SMALL)}) CHARACTER SET utf8mb4", ENUM_SMALL[0], ENUM_SMALL[-1],
            ENUM_SMALL[1], "ünïcødé"),
        Col("c_enum_big", f"ENUM({enum(ENUM_BIG)})", ENUM_BIG[0], ENUM_BIG[-1], ENUM_BIG[255], ENUM_BIG[256]),
        Col("c_set", f"SET({enum(SET_SMALL)})", "", ",".join(SET_SMALL), "", "a,c"),
        Col("c_set12", f"SET({enum(SET12)})", "", ",".join(SET12), "", "m00,m08,m11"),
        Col("c_set64", f"SET({enum(SET64)})", "", ",".join(SET64), "", "s00,s31,s32,s63"),
        Col("c_json", "JSON", "[]",
            json.dumps({"max": 18446744073709551615, "neg": -9223372036854775808, "f": 1.7976931348623157e308,
                        "s": "ü😀", "n": None, "b": [True, False], "deep": [[[[{"x": 1}]]]]}, ensure_ascii=False),
            "{}", '{"k": "ünï 😀", "esc": "a\\"b\\\\c\\n", "num": 1.0e2, "arr": [1, "2", null]}'),
    ]


def _other_cols():
    return [
        Col("c_bool", "BOOLEAN", 0, 1, 0, 1),
        Col("c_izf", "INT(8) UNSIGNED ZEROFILL", 0, 4294967295, 0, 42),
        Col("c_f", "FLOAT", Sql("-3.402823466e38"), Sql("3.402823466e38"), Sql("-0.0"), Sql("1.1")),
        Col("c_dbl", "DOUBLE", Sql("-1.7976931348623157e308"), Sql("1.7976931348623157e308"), Sql("-0.0"), Sql("0.1")),
        Col("c_bit1", "BIT(1)", Sql("b'0'"), Sql("b'1'"), 0, Sql("b'1'")),
        Col("c_bit5", "BIT(5)", Sql("b'00000'"), Sql("b'11111'"), 0, Sql("b'10101'")),
        Col("c_bit64", "BIT(64)", Sql("b'0'"), Sql("b'" + "1" * 64 + "'"), 0, Sql("0x8000000000000000")),
        Col("c_geom", "GEOMETRY", geom("POINT(-180 -90)"),
            geom("POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,3 2,3 3,2 2))", 4326), geom("POINT(0 0)"),
            geom("LINESTRING(1 1,2 2,3 3)", 3857)),
        Col("c_point", "POINT", geom("POINT(-1.7976931348623157e308 0)"), geom("POINT(1.7976931348623157e308 -1e-300)"),
            geom("POINT(0 0)"), geom("POINT(1.5 -2.25)", 4326)),
        Col("c_line", "LINESTRING", geom("LINESTRING(0 0,1 1)"),
            geom("LINESTRING(" + ",".join(f"{k} {k * k}" for k in range(100)) + ")"), geom("LINESTRING(0 0,0 0)"),
            geom("LINESTRING(-1 -1,1 1)")),
        Col("c_poly", "POLYGON", geom("POLYGON((0 0,1 0,1 1,0 0))"),
            geom("POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,3 2,3 3,2 2))"), geom("POLYGON((0 0,0 0,0 0,0 0))"),
            geom("POLYGON((0 0,4 0,4 4,0 0))")),
        Col("c_mpoint", "MULTIPOINT", geom("MULTIPOINT(0 0)"), geom("MULTIPOINT(0 0,1 1,2 2)"), geom("MULTIPOINT(0 0)"),
            geom("MULTIPOINT(1 1,2 2)")),
        Col("c_mline", "MULTILINESTRING", geom("MULTILINESTRING((0 0,1 1))"),
            geom("MULTILINESTRING((0 0,1 1),(2 2,3 3,4 4))"), geom("MULTILINESTRING((0 0,0 0))"),
            geom("MULTILINESTRING((1 1,2 2))")),
        Col("c_mpoly", "MULTIPOLYGON", geom("MULTIPOLYGON(((0 0,1 0,1 1,0 0)))"),
            geom("MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))"), geom("MULTIPOLYGON(((0 0,0 0,0 0,0 0)))"),
            geom("MULTIPOLYGON(((1 1,2 1,2 2,1 1)))")),
        Col("c_gcoll", "GEOMETRYCOLLECTION", geom("GEOMETRYCOLLECTION EMPTY"),
            geom("GEOMETRYCOLLECTION(POINT(1 2),LINESTRING(0 0,1 1),POLYGON((0 0,1 0,1 1,0 0)))"),
            geom("GEOMETRYCOLLECTION(POINT(0 0))"), geom("GEOMETRYCOLLECTION(GEOMETRYCOLLECTION(POINT(1 1)))")),
        Col("c_inet6", "INET6", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "::1", "::ffff:192.0.2.1"),
        Col("c_inet4", "INET4", "0.0.0.0", "255.255.255.255", "127.0.0.1", "192.168.0.1"),
        # a version-1 UUID (MariaDB stores time-based UUIDs with swapped segments)
        Col("c_uuid", "UUID", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "00000000-0000-0000-0000-000000000001", "6ccd780c-baba-1026-9564-5b8c656024db"),
        Col("c_vgen", "BIGINT AS (c_i * 2) VIRTUAL", generated=True),
        Col("c_sgen", "VARCHAR(64) CHARACTER SET utf8mb4 AS (CONCAT('id-', id, '/', IFNULL(c_ti, 'null'))) STORED",
            generated=True),
        Col("c_invis", "INT INVISIBLE DEFAULT 42", -(1 << 31), (1 << 31) - 1, 0, None),
        Col("c_nn_i", "INT NOT NULL DEFAULT 7", -(1 << 31), (1 << 31) - 1, 0, 1),
        Col("c_nn_vc", "VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL DEFAULT ''", "", "😀" * 20, "0", "ünï"),
        Col("c_ts_auto", "TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)"),
    ]


TYPE_COLS = [Col("id", "INT NOT NULL PRIMARY KEY"), *_int_cols(), *_decimal_cols(), *_temporal_cols(),
             *_string_cols(), *_other_cols()]
WRITABLE = [c for c in TYPE_COLS if not c.generated and c.name not in ("id", "c_ts_auto")]

UNI_POOL = "abcxyzÀéü€ßΩж日本語😀🐍\u0301 '\"\\\t"
L1_POOL = "abcxyzÀéü€ßŠœ‰ '\"\\"


def _text(rr, pool, n):
    return "".join(rr.choice(pool) for _ in range(n))


def _digits(rr, n):
    return "".join(rr.choice("0123456789") for _ in range(n))


def random_value(col: Col, rr: random.Random):
    """A seeded random value for one all_types column (NULL for about one in five nullable columns)."""
    if col.name not in ("c_nn_i", "c_nn_vc") and rr.random() < 0.2:
        return None
    t = col.sqltype.split("(")[0].split()[0].upper()
    unsigned = "UNSIGNED" in col.sqltype
    if col.name == "c_izf":
        return rr.randint(0, 99999)
    if col.name == "c_bool":
        return rr.randint(-128, 127)
    if t in ("TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT"):
        return rr.randint(col.lo, col.hi)
    if t == "DECIMAL":
        p, s = (int(x) for x in col.sqltype[8:].split(")")[0].split(","))
        ip = (_digits(rr, rr.randint(0, p - s)) if p > s else "").lstrip("0") or "0"
        sign = "" if unsigned or rr.random() < 0.6 else "-"
        return Sql(sign + ip + ("." + _digits(rr, s) if s else ""))
    if t == "FLOAT":
        return Sql(repr(rr.uniform(-1, 1) * 10 ** rr.randint(-30, 30)))
    if t == "DOUBLE":
        return Sql(repr(rr.uniform(-1, 1) * 10 ** rr.randint(-300, 300)))
    if t == "BIT":
        bits = int(col.sqltype[4:-1])
        return Sql(hex(rr.getrandbits(bits)))
    if t == "YEAR":
        return rr.randint(1901, 2155)
    if t in ("DATE", "DATETIME", "TIME", "TIMESTAMP"):
        k = int(col.sqltype.split("(")[1][0]) if "(" in col.sqltype else 0
        frac = ("." + _digits(rr, k)) if k else ""
        if t == "TIME":
            h = rr.choice([0, 0, 1, 23, 24, 100, rr.randint(0, 838)])
            sign = "-" if rr.random() < 0.4 else ""
            return f"{sign}{h:02d}:{rr.randint(0, 59):02d}:{rr.randint(0, 59):02d}{frac}"
        if t == "TIMESTAMP":
            return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(rr.randint(1, (1 << 31) - 1))) + frac
        day = f"{rr.randint(1000, 9999):04d}-{rr.randint(1, 12):02d}-{rr.randint(1, 28):02d}"
        if t == "DATE":
            return day
        return f"{day} {rr.randint(0, 23):02d}:{rr.randint(0, 59):02d}:{rr.randint(0, 59):02d}{frac}"
    if col.name == "c_ch0":
        return ""
    if col.name == "c_bin16":
        return rr.randbytes(rr.randint(0, 16))
    if t in ("CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT"):
        limit = {"TINYTEXT": 255, "TEXT": 3000, "MEDIUMTEXT": 20000, "LONGTEXT": 20000}.get(t)
        if limit is None:
            limit = int(col.sqltype.split("(")[1].split(")")[0])
        if "COMPRESSED" in col.sqltype:
            pool = "aaaaabbbbcc😀" if t == "VARCHAR" else "aaaab"
        elif "latin1" in col.sqltype:
            pool = L1_POOL
        elif "utf8mb3" in col.sqltype:
            pool = "abcü€日本"
        else:
            pool = UNI_POOL
        return _text(rr, pool, rr.randint(0, limit))
    if t in ("VARBINARY", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB"):
        if "COMPRESSED" in col.sqltype:
            return b"\0\1" * rr.randint(0, 3000) + rr.randbytes(rr.randint(0, 100))
        limit = {"TINYBLOB": 255, "BLOB": 5000, "MEDIUMBLOB": 20000, "LONGBLOB": 20000}.get(t)
        return rr.randbytes(rr.randint(0, limit or int(col.sqltype.split("(")[1][:-1])))
    if t == "ENUM":
        return rr.choice({"c_enum": ENUM_SMALL, "c_enum_big": ENUM_BIG}[col.name])
    if t == "SET":
        members = {"c_set": SET_SMALL, "c_set12": SET12, "c_set64": SET64}[col.name]
        return ",".join(m for m in members if rr.random() < 0.5)
    if t == "JSON":
        return json.dumps({"i": rr.randint(-10**18, 10**18), "f": rr.random(), "s": _text(rr, UNI_POOL, 10),
                           "a": [rr.randint(0, 9) for _ in range(3)], "n": None, "t": rr.random() < 0.5},
                          ensure_ascii=rr.random() < 0.5)
    if t == "INET6":
        return str(ipaddress.IPv6Address(rr.getrandbits(128)))
    if t == "INET4":
        return str(ipaddress.IPv4Address(rr.getrandbits(32)))
    if t == "UUID":   # RFC 4122 variant, versions 1 (stored swapped by MariaDB), 4 and 7
        x = rr.getrandbits(128)
        x = (x & ~(0xF << 76)) | (rr.choice([1, 4, 7]) << 76)
        return str(uuid.UUID(int=(x & ~(0x3 << 62)) | (0x2 << 62)))
    x, y = round(rr.uniform(-180, 180), 6), round(rr.uniform(-90, 90), 6)
    shapes = {"GEOMETRY": rr.choice([f"POINT({x} {y})", f"LINESTRING({x} {y},0 0)",
                                     f"POLYGON((0 0,{x} 0,{x} {y},0 0))"]),
              "POINT": f"POINT({x} {y})", "LINESTRING": f"LINESTRING({x} {y},{y} {x},0 0)",
              "POLYGON": f"POLYGON((0 0,{abs(x) + 1} 0,{abs(x) + 1} {abs(y) + 1},0 0))",
              "MULTIPOINT": f"MULTIPOINT({x} {y},{y} {x})",
              "MULTILINESTRING": f"MULTILINESTRING(({x} {y},0 0),(1 1,2 2))",
              "MULTIPOLYGON": "MULTIPOLYGON(((0 0,1 0,1 1,0 0)))",
              "GEOMETRYCOLLECTION": f"GEOMETRYCOLLECTION(POINT({x} {y}))"}
    if t in shapes:
        return geom(shapes[t], rr.choice([0, 4326]) if t == "GEOMETRY" else 0)
    raise AssertionError(f"no random generator for {col.name} {col.sqltype}")


# ------------------------------------------------------------------------------------ ground truth

INT_TYPES = {"tinyint", "smallint", "mediumint", "int", "bigint"}
BINARY_TYPES = {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob"}
GEOMETRY_TYPES = {"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                  "geometrycollection"}
FIXED_BINARY_TYPES = {"inet6", "inet4", "uuid"}

# How the server renders each column for the truth (session time_zone '+00:00'): what a test
# compares a decoded value with. Every rendering is lossless for the stored value.
RENDER = {
    "int": "integers and BIT (as `col`+0): JSON numbers",
    "decimal": "the server's exact decimal text (scale digits kept)",
    "double": "FLOAT/DOUBLE: the server's text of CAST(col AS DOUBLE)",
    "temporal": "DATE/DATETIME/TIMESTAMP/TIME/YEAR: the server's text, TIMESTAMP in UTC",
    "hex": "binary strings and BLOBs: HEX(col)",
    "text": "character strings, ENUM, SET, JSON (LONGTEXT): the text",
    "geometry": "HEX(col): the stored SRID (4 bytes LE) + WKB",
    "fbt": "INET4/INET6/UUID: the server's text form",
}


def render_kind(dtype: str, charset: str | None) -> tuple[str, str]:
    if dtype in INT_TYPES:
        return "int", "{}"
    if dtype == "bit":
        return "int", "{}+0"
    if dtype == "decimal":
        return "decimal", "{}"
    if dtype in ("float", "double"):
        return "double", "CAST({} AS DOUBLE)"
    if dtype in ("date", "datetime", "timestamp", "time", "year"):
        return "temporal", "{}"
    if dtype in BINARY_TYPES or (charset is None and dtype in ("char", "varchar", "text")):
        return "hex", "HEX({})"
    if dtype in GEOMETRY_TYPES:
        return "geometry", "HEX({})"
    if dtype in FIXED_BINARY_TYPES:
        return "fbt", "{}"
    return "text", "{}"


@dataclasses.dataclass
class TableTruth:
    schema: str
    name: str
    columns: list[dict]            # information_schema.COLUMNS subset + "render"
    primary_key: list[str]
    create: str                    # SHOW CREATE TABLE
    rows: list[list]               # ordered by primary key, rendered per column

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"

    @property
    def column_names(self) -> list[str]:
        return [c["name"] for c in self.columns]


def dump_tables(conn, schemas) -> dict[str, TableTruth]:
    """Every base table of ``schemas`` as the server holds it now (see RENDER)."""
    out = {}
    with conn.cursor() as cur:
        cur.execute("SET SESSION time_zone = '+00:00'")
        marks = ",".join(["%s"] * len(schemas))
        cur.execute("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE'"
                    f" AND TABLE_SCHEMA IN ({marks}) ORDER BY 1, 2", tuple(schemas))
        for schema, table in cur.fetchall():
            cur.execute("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, IS_NULLABLE, EXTRA,"
                        " IS_GENERATED, DATETIME_PRECISION, COLUMN_KEY FROM information_schema.COLUMNS"
                        " WHERE TABLE_SCHEMA = %s AND TABLE_NAME = %s ORDER BY ORDINAL_POSITION", (schema, table))
            cols = []
            for name, dtype, ctype, cs, nullable, extra, gen, fsp, _key in cur.fetchall():
                kind, expr = render_kind(dtype, cs)
                cols.append({"name": name, "data_type": dtype, "column_type": ctype, "charset": cs,
                             "nullable": nullable == "YES", "extra": extra, "generated": gen != "NEVER",
                             "fsp": fsp, "render": kind, "_expr": expr.format(quote_ident(name))})
            cur.execute("SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = %s"
                        " AND TABLE_NAME = %s AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION",
                        (schema, table))
            pk = [r[0] for r in cur.fetchall()]
            cur.execute(f"SHOW CREATE TABLE {quote_ident(schema)}.{quote_ident(table)}")
            create = cur.fetchall()[0][1]
            order = ",".join(quote_ident(c) for c in (pk or [c["name"] for c in cols]))
            cur.execute("SELECT " + ",".join(c.pop("_expr") for c in cols)
                        + f" FROM {quote_ident(schema)}.{quote_ident(table)} ORDER BY {order}")
            rows = [[_render(c["render"], v) for c, v in zip(cols, raw, strict=True)] for raw in cur.fetchall()]
            out[f"{schema}.{table}"] = TableTruth(schema, table, cols, pk, create, rows)
    return out


def _render(kind: str, v):
    if v is None:
        return None
    if kind == "int":
        return int(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "surrogateescape")
    return str(v)


def text_connection(server=None, *, socket=None, user="root", password=None, database=None):
    """A pymysql connection that returns every value as the server's text (no client-side typing)."""
    import pymysql

    conv = {k: v for k, v in pymysql.converters.conversions.items() if not isinstance(k, int)}
    sock = server.socket if server is not None else socket
    return pymysql.connect(unix_socket=sock, user=user, password=password or "", database=database,
                           charset="utf8mb4", conv=conv, autocommit=True, max_allowed_packet=1 << 30)


@dataclasses.dataclass
class Truth:
    """What the workload did and what the server holds at the end (see the module docstring)."""

    binlog_dir: str
    files: list[str]                       # binlog file names written by the workload, in order
    ddl_log: list[dict]
    statements: list[dict]
    phases: dict
    tables: dict[str, TableTruth]
    expected_row_changes: dict
    legacy_temporal_file: str | None
    bulk_files: list[str]
    variables: dict
    params: dict

    @property
    def paths(self) -> list[Path]:
        return [Path(self.binlog_dir) / f for f in self.files]

    def to_dir(self, out: Path) -> None:
        out = Path(out)
        (out / "tables").mkdir(parents=True, exist_ok=True)
        meta = {k: v for k, v in dataclasses.asdict(self).items() if k not in ("tables", "ddl_log", "statements")}
        meta["tables"] = {k: {"rows": len(t.rows), "file": f"tables/{k}.jsonl"} for k, t in self.tables.items()}
        (out / "manifest.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))
        with open(out / "ddl_log.jsonl", "w") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in self.ddl_log)
        with open(out / "statements.jsonl", "w") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in self.statements)
        with open(out / "show_create_tables.sql", "w") as fh:
            fh.writelines(f"-- {k}\n{t.create};\n\n" for k, t in self.tables.items())
        for k, t in self.tables.items():
            with open(out / "tables" / f"{k}.jsonl", "w") as fh:
                head = {"table": k, "primary_key": t.primary_key, "columns": t.columns, "render": RENDER}
                fh.write(json.dumps(head, ensure_ascii=False) + "\n")
                fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in t.rows)


# ------------------------------------------------------------------------------------------ runner


class Workload:
    """Runs the phases on one connection and records the ground truth as it goes."""

    def __init__(self, conn, *, binlog_dir: str, socket: str, user: str = "root", password: str | None = None,
                 database: str = DB, tmp_database: str = DB2, seed: int = 20240611, scale: float = 0.001,
                 bigtx_rows: int | None = None, blob_kib: int | None = None, random_rows: int = 20,
                 insert_batch: int = 1000, log=print):
        self.conn = conn
        self.cur = conn.cursor()
        self.binlog_dir = binlog_dir
        self.socket, self.user, self.password = socket, user, password
        self.main_db, self.tmp_db = database, tmp_database
        self.seed = seed
        self.scale = scale
        self.bigtx_rows = bigtx_rows if bigtx_rows is not None else max(300, int(200_000 * scale))
        # the big row: 3 MiB LONGBLOB at scale 1, 64 KiB in small runs
        self.blob_kib = blob_kib if blob_kib is not None else (3072 if scale >= 0.5 else 64)
        self.random_rows = random_rows
        self.insert_batch = insert_batch
        self.log = log
        self.db = None
        self.phase = "setup"
        self.clock = EPOCH0
        self.ddl_log: list[dict] = []
        self.statements: list[dict] = []
        self.phases: dict = {}
        self.expected: dict = {}
        self.legacy_file = None
        self.bulk_files: list[str] = []

    # -- primitives -------------------------------------------------------------------------------
    def q(self, sql, args=None):
        self.cur.execute(sql, args)
        return self.cur.fetchall()

    def position(self) -> tuple[str, int, str]:
        name, pos = self.q("SHOW MASTER STATUS")[0][:2]
        return name, int(pos), self.q("SELECT @@gtid_binlog_pos")[0][0]

    def tick(self, seconds: float = 1.0) -> None:
        """Advance the pinned session clock (event timestamps, CURRENT_TIMESTAMP, NOW())."""
        self.clock += seconds
        self.q(f"SET SESSION timestamp = {self.clock:.6f}")

    def flush(self) -> str:
        self.q("FLUSH BINARY LOGS")
        return self.position()[0]

    def use(self, db: str) -> None:
        self.q(f"USE {quote_ident(db)}")
        self.db = db

    def ddl(self, sql: str, note: str | None = None) -> dict:
        self.q(sql)
        f, p, g = self.position()
        rec = {"seq": len(self.ddl_log) + 1, "phase": self.phase, "default_db": self.db, "sql": sql,
               "binlog_file": f, "binlog_pos_after": p, "gtid_binlog_pos_after": g}
        if note:
            rec["note"] = note
        self.ddl_log.append(rec)
        return rec

    def dml(self, sql: str, table: str | None, kind: str, record_sql: bool = True) -> int:
        n = self.cur.execute(sql)
        rec = {"phase": self.phase, "table": table, "kind": kind, "affected": n}
        if record_sql:
            f, p, _ = self.position()
            rec.update(sql=sql if len(sql) <= 1000 else sql[:1000] + f"... [{len(sql)} chars]",
                       binlog_file=f, binlog_pos_after=p)
        self.statements.append(rec)
        if table and kind in ("insert", "update", "delete"):
            counts = self.expected.setdefault(table, {"insert": 0, "update": 0, "delete": 0})
            counts[kind] += n
        return n

    def insert(self, table: str, rows: list[dict], kind: str = "insert", record_sql: bool = True) -> int:
        cols = list(rows[0])
        sql = (f"INSERT INTO {table} (" + ",".join(quote_ident(c) for c in cols) + ") VALUES "
               + ",".join("(" + ",".join(literal(r.get(c)) for c in cols) + ")" for r in rows))
        return self.dml(sql, table.replace("`", ""), kind, record_sql)

    def begin_phase(self, name: str, what: str) -> None:
        self.phase = name
        f, p, g = self.position()
        self.phases[name] = {"what": what, "start_file": f, "start_pos": p, "start_gtid": g}
        self.log(f"phase {name}: {what} (at {f}:{p})")

    def end_phase(self) -> None:
        f, p, g = self.position()
        self.phases[self.phase].update(end_file=f, end_pos=p, end_gtid=g)

    # -- phase (a) --------------------------------------------------------------------------------
    def type_row(self, row_id: int, pick: str, **override) -> dict:
        row = {"id": row_id}
        for c in WRITABLE:
            row[c.name] = getattr(c, pick)
        row.update(override)
        return row

    def big_row(self, row_id: int) -> dict:
        n = self.blob_kib * 1024
        rr = random.Random(self.seed + 11)
        return {"id": row_id, "c_i": 6, "c_ti": 6, "c_lblob": rr.randbytes(n), "c_ltext": "大" * (n // 3) + "end",
                "c_mblob": rr.randbytes(n // 2), "c_mtext": "ü" * (n // 4) + "x", "c_text": "€" * 21845,
                "c_blob": rr.randbytes(65535), "c_ttext": "é" * 127 + "x", "c_tblob": rr.randbytes(255),
                "c_vb1000": rr.randbytes(1000), "c_blob_comp": rr.randbytes(60000),
                "c_text_comp": "random-ish " * 5000,
                "c_vc_comp": "".join(chr(0x4E00 + (k * 7919) % 20000) for k in range(1000)),
                "c_json": json.dumps([{"i": k, "s": "x" * 50} for k in range(n // 64)])}

    def binary_row(self, row_id: int) -> dict:
        return {"id": row_id, "c_bin16": ALL_BYTES[:16], "c_vb255": ALL_BYTES[1:],
                "c_vb1000": ALL_BYTES * 3 + ALL_BYTES[:232],
                "c_tblob": ALL_BYTES[:255], "c_blob": ALL_BYTES * 4, "c_mblob": ALL_BYTES * 16, "c_lblob": ALL_BYTES,
                "c_blob_comp": ALL_BYTES, "c_ch255_l1": "".join(chr(c) for c in range(0x20, 0x7F)),
                "c_vc255_l1": "".join(bytes([c]).decode("cp1252", "ignore") for c in range(0x80, 0x100)),
                "c_uuid": "2d3a1d7e-1b47-4a4d-9c1f-0c0a6f3e8b21", "c_inet6": "2001:db8::ff00:42:8329",
                "c_inet4": "10.0.0.255", "c_nn_vc": "\\'\"\n\t\0", "c_text": "\0\1\x1f\x7f"}

    def phase_a(self) -> None:
        self.begin_phase("a", "all_types and legacy_temporal: every column type in row events")
        self.ddl(f"CREATE DATABASE {quote_ident(self.main_db)} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci")
        self.use(self.main_db)
        body = ",\n  ".join(f"{quote_ident(c.name)} {c.sqltype}" for c in TYPE_COLS)
        self.ddl(f"CREATE TABLE all_types (\n  {body}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4")
        self.insert("all_types", [self.type_row(1, "lo")])
        self.insert("all_types", [self.type_row(2, "hi")])
        self.insert("all_types", [{"id": 3, "c_invis": None}])            # NULL wherever nullable
        self.insert("all_types", [self.type_row(4, "zero")])
        self.insert("all_types", [self.type_row(5, "odd")])
        self.insert("all_types", [self.big_row(6)])
        self.insert("all_types", [self.binary_row(7)])
        rr = random.Random(self.seed + 1)
        rand = [{"id": 100 + k, **{c.name: random_value(c, rr) for c in WRITABLE}} for k in range(self.random_rows)]
        self.insert("all_types", rand)                                     # one multi-row INSERT
        self.tick(100.5)
        self.dml("UPDATE all_types SET c_i = 12345, c_time6 = '-12:34:56.789012', c_ts6 = '2001-02-03 04:05:06.070809',"
                 " c_json = JSON_OBJECT('updated', TRUE), c_enum = 'large', c_set64 = 's01,s62', c_bit64 = 1,"
                 " c_uuid = '11111111-2222-1333-8444-555555555555', c_inet6 = '::2' WHERE id = 3",
                 "all_types", "update")
        self.dml("UPDATE all_types SET c_i = NULL, c_time6 = NULL, c_ts6 = NULL, c_json = NULL, c_geom = NULL,"
                 " c_ltext = NULL, c_lblob = NULL, c_dt6 = NULL, c_d65_30 = NULL WHERE id = 2", "all_types", "update")
        self.dml("UPDATE all_types SET c_ti = IF(c_ti IS NULL, 1, -c_ti DIV 2), c_vc255_u8 = CONCAT('upd:', id)"
                 " WHERE id >= 100", "all_types", "update")
        self.dml("UPDATE all_types SET c_nn_i = c_nn_i + 1 WHERE id = 6", "all_types", "update")   # big images
        self.dml("DELETE FROM all_types WHERE id IN (101, 103)", "all_types", "delete")
        self.dml("DELETE FROM all_types WHERE id = 4", "all_types", "delete")
        self.insert("all_types", [self.type_row(4, "zero", c_nn_vc="re-inserted")])
        # TIMESTAMP written in another session time zone: the row image holds UTC epoch seconds
        self.q("SET SESSION time_zone = '+05:30'")
        self.dml("UPDATE all_types SET c_ts0 = '2024-06-01 12:00:00', c_ts3 = '2024-06-01 12:00:00.123' WHERE id = 5",
                 "all_types", "update")
        self.q("SET SESSION time_zone = '+00:00'")
        self.legacy_temporal()
        self.end_phase()

    def legacy_temporal(self) -> None:
        """MariaDB 5.3 temporal formats (types 11/12/7, no metadata): mariadb-binlog cannot print these
        rows (it stops at the first one), so they get a binlog file of their own."""
        self.legacy_file = self.flush()
        self.q("SET GLOBAL mysql56_temporal_format = OFF")
        try:
            self.ddl("CREATE TABLE legacy_temporal (id INT PRIMARY KEY, t0 TIME, t3 TIME(3), t6 TIME(6),"
                     " dt0 DATETIME, dt2 DATETIME(2), dt6 DATETIME(6), ts0 TIMESTAMP NULL DEFAULT NULL,"
                     " ts4 TIMESTAMP(4) NULL DEFAULT NULL, ts6 TIMESTAMP(6) NULL DEFAULT NULL)",
                     note="created with GLOBAL mysql56_temporal_format=OFF")
        finally:
            self.q("SET GLOBAL mysql56_temporal_format = ON")
        names = ["id", "t0", "t3", "t6", "dt0", "dt2", "dt6", "ts0", "ts4", "ts6"]
        values = [
            (1, "-838:59:59", "-838:59:59.999", "-838:59:59.999999", "1000-01-01 00:00:00", "1000-01-01 00:00:00.01",
             "1000-01-01 00:00:00.000001", "1970-01-01 00:00:01", "1970-01-01 00:00:01.0001",
             "1970-01-01 00:00:01.000001"),
            (2, "838:59:59", "838:59:59.999", "838:59:59.999999", "9999-12-31 23:59:59", "9999-12-31 23:59:59.99",
             "9999-12-31 23:59:59.999999", "2038-01-19 03:14:07", "2038-01-19 03:14:07.9999",
             "2038-01-19 03:14:07.999999"),
            (3, "-00:00:01", "-00:00:00.001", "-00:00:00.000001", "0000-00-00 00:00:00", "2020-00-00 00:00:00.00",
             "0000-00-00 00:00:00.000000", "0000-00-00 00:00:00", "0000-00-00 00:00:00.0000", None),
            (4, *[None] * 9),
            (5, "12:34:56", "-12:34:56.789", "123:45:06.000789", "2024-02-29 12:00:00", "2024-02-29 12:00:00.5",
             "2024-02-29 12:00:00.123456", "2024-02-29 12:00:00", "2024-02-29 12:00:00.1234",
             "2024-02-29 12:00:00.654321"),
        ]
        self.insert("legacy_temporal", [dict(zip(names, v, strict=True)) for v in values])
        self.dml("UPDATE legacy_temporal SET t3 = '-01:00:00.5', dt6 = '2001-01-01 01:01:01.5', ts6 = NOW(6)"
                 " WHERE id = 5", "legacy_temporal", "update")
        self.dml("DELETE FROM legacy_temporal WHERE id = 4", "legacy_temporal", "delete")
        self.flush()

    # -- phase (b) --------------------------------------------------------------------------------
    def phase_b(self) -> None:
        self.begin_phase("b", "DDL evolution with row changes between every DDL")
        self.use(self.main_db)
        ins, ddl = self.insert, self.ddl

        def upd(sql, table):
            return self.dml(sql, table, "update")

        ddl("CREATE TABLE evo (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT, b VARCHAR(20)) ENGINE=InnoDB")
        ins("evo", [{"a": k, "b": f"v1-{k}"} for k in range(5)])
        upd("UPDATE evo SET a = a + 100 WHERE id <= 2", "evo")
        ddl("ALTER TABLE evo ADD COLUMN c DATETIME(3) AFTER a")
        ins("evo", [{"a": 10 + k, "c": f"2024-01-0{k + 1} 10:00:00.12{k}", "b": f"v2-{k}"} for k in range(3)])
        upd("UPDATE evo SET c = '1999-12-31 23:59:59.999' WHERE c IS NULL", "evo")
        ddl("ALTER TABLE evo ADD COLUMN z BIGINT UNSIGNED NOT NULL DEFAULT 18446744073709551615 FIRST")
        ins("evo", [{"z": k, "a": 20 + k, "c": None, "b": f"v3-{k}"} for k in range(3)])
        self.dml("DELETE FROM evo WHERE id = 1", "evo", "delete")
        ddl("ALTER TABLE evo DROP COLUMN a")
        ins("evo", [{"z": 100 + k, "c": "2000-01-01", "b": f"v4-{k}"} for k in range(2)])
        upd("UPDATE evo SET b = CONCAT(b, '!') WHERE id % 2 = 0", "evo")
        ddl("ALTER TABLE evo MODIFY b VARCHAR(300) CHARACTER SET latin1",
            note="VARCHAR length prefix 1 -> 2 bytes, utf8mb4 -> latin1")
        ins("evo", [{"z": 200 + k, "c": None, "b": "é€" * 140} for k in range(2)])
        upd("UPDATE evo SET z = 7 WHERE z > 2147483647", "evo")
        ddl("ALTER TABLE evo MODIFY z INT NOT NULL DEFAULT -1", note="BIGINT UNSIGNED -> INT")
        ins("evo", [{"z": -5 - k, "c": None, "b": f"v6-{k}"} for k in range(2)])
        ddl("ALTER TABLE evo CHANGE b b_renamed TEXT CHARACTER SET utf8mb4", note="rename + VARCHAR -> TEXT")
        ins("evo", [{"z": 300 + k, "c": None, "b_renamed": f"v7-😀-{k}"} for k in range(2)])
        upd("UPDATE evo SET b_renamed = NULL WHERE id = 2", "evo")
        ddl("ALTER TABLE evo ADD COLUMN x DECIMAL(10,2) DEFAULT 1.50, ADD COLUMN y ENUM('p','q','r') AFTER id,"
            " DROP COLUMN c", note="multi-clause ALTER")
        ins("evo", [{"z": 400 + k, "y": "qr"[k], "b_renamed": f"v8-{k}", "x": f"-{k}.25"} for k in range(2)])
        ddl("ALTER TABLE evo CHANGE COLUMN z z INT NOT NULL DEFAULT -1 AFTER x", note="column moved to the end")
        ins("evo", [{"y": "p", "b_renamed": "v9", "x": "9.99", "z": 9}])
        ddl("ALTER TABLE evo ADD COLUMN `select` INT DEFAULT 1, ADD COLUMN `we``ird col` VARCHAR(5) DEFAULT 'w',"
            " ADD COLUMN `ünï` SMALLINT /* inline comment */ DEFAULT -2", note="quoted identifiers")
        ins("evo", [{"y": "r", "b_renamed": "v10", "x": "1", "z": 10, "select": 5, "we`ird col": "odd", "ünï": 3}])
        ddl("ALTER TABLE evo ALGORITHM=INSTANT, ADD COLUMN inst VARCHAR(10) DEFAULT 'inst'")
        ins("evo", [{"y": "r", "b_renamed": "v11", "x": "2", "z": 11, "inst": "i"}])
        ddl(f"/* leading comment */ alter   TABLE `{self.main_db}`.`evo`\n  -- line comment\n"
            "  MODIFY `x` DECIMAL(20,6) NULL",
            note="qualified name, comments, odd whitespace and case")
        ins("evo", [{"y": "p", "b_renamed": "v12", "x": "-12345678901234.123456", "z": 12}])
        ddl("RENAME TABLE evo TO evo2")
        ins("evo2", [{"y": "p", "b_renamed": f"v13-{k}", "x": "0", "z": 13} for k in range(2)])
        upd("UPDATE evo2 SET x = x * 2", "evo2")
        ddl("ALTER TABLE evo2 RENAME TO evo3")
        ins("evo3", [{"y": "q", "b_renamed": "v14", "x": "1", "z": 14}])
        ddl("CREATE TABLE evo_like LIKE evo3")
        ins("evo_like", [{"y": "p", "b_renamed": f"like-{k}", "x": str(k), "z": k} for k in range(3)])
        ddl("TRUNCATE TABLE evo_like")
        ins("evo_like", [{"y": "q", "b_renamed": f"like2-{k}", "x": str(k), "z": k} for k in range(2)])
        ddl("CREATE TABLE evo_ctas ENGINE=InnoDB AS SELECT id, b_renamed AS txt, x * 10 AS x10 FROM evo3 WHERE id < 8",
            note="CTAS: logged as CREATE TABLE, the copied rows as row events in the same transaction")
        upd("UPDATE evo_ctas SET txt = UPPER(txt)", "evo_ctas")
        upd("UPDATE evo3 SET b_renamed = REPLACE(b_renamed, '😀', ':-)') WHERE b_renamed LIKE '%😀%'", "evo3")
        ddl("ALTER TABLE evo3 CONVERT TO CHARACTER SET latin1", note="every text column changes charset")
        ins("evo3", [{"y": "q", "b_renamed": "conv €", "x": "1", "z": 15, "we`ird col": "ä"}])
        ddl("CREATE TABLE swap_a (id INT PRIMARY KEY, a_only VARCHAR(10))")
        ddl("CREATE TABLE swap_b (id INT PRIMARY KEY, b_only DOUBLE, b2 DATE)")
        ins("swap_a", [{"id": k, "a_only": f"a{k}"} for k in range(2)])
        ins("swap_b", [{"id": k, "b_only": k + 0.5, "b2": "2020-01-01"} for k in range(2)])
        ddl("RENAME TABLE swap_a TO swap_tmp, swap_b TO swap_a, swap_tmp TO swap_b", note="three-way swap")
        ins("swap_a", [{"id": 10, "b_only": 9.75, "b2": "2021-02-03"}])
        ins("swap_b", [{"id": 10, "a_only": "now b"}])
        ddl("DROP TABLE evo_like")
        ddl("CREATE TABLE evo_like (k VARCHAR(8) PRIMARY KEY, v JSON, t TIME(2))", note="a dropped name reused")
        ins("evo_like", [{"k": f"k{k}", "v": '{"reborn": true}', "t": "-01:02:03.45"} for k in range(2)])
        ddl(f"CREATE DATABASE {self.tmp_db} CHARACTER SET latin1")
        ddl(f"CREATE TABLE {self.tmp_db}.t1 (id INT PRIMARY KEY, s VARCHAR(10))")
        ins(f"{self.tmp_db}.t1", [{"id": k, "s": f"tmp{k}"} for k in range(2)])
        self.use(self.tmp_db)
        ddl("CREATE TABLE t2 (id INT PRIMARY KEY, evo_id INT)", note="default database lab_tmp, unqualified")
        ddl(f"CREATE TABLE {self.main_db}.cross_db (id INT PRIMARY KEY, note VARCHAR(20))", note="qualified into lab")
        ins("t2", [{"id": 1, "evo_id": 3}])
        ins(f"{self.main_db}.cross_db", [{"id": 1, "note": "from lab_tmp session"}])
        self.dml(f"UPDATE {self.main_db}.evo3 e JOIN t2 ON t2.evo_id = e.id SET e.x = 777, t2.evo_id = 4",
                 "evo3+t2", "multi-update")
        self.use(self.main_db)
        ddl(f"DROP DATABASE {self.tmp_db}")
        ddl("DROP TABLE IF EXISTS no_such_table", note="a no-op DROP is still logged")
        ddl("CREATE TEMPORARY TABLE tmp_rows (id INT)", note="not logged under binlog_format=ROW")
        self.dml("INSERT INTO tmp_rows VALUES (1),(2)", "tmp_rows", "insert-temporary")
        self.dml("INSERT INTO evo3 (y, b_renamed, x, z) SELECT 'p', CONCAT('from tmp ', id), id, id FROM tmp_rows",
                 "evo3", "insert")
        ddl("DROP TEMPORARY TABLE tmp_rows")
        ddl("CREATE TABLE upsert (id INT PRIMARY KEY, u INT UNIQUE, n INT)")
        self.dml("INSERT INTO upsert VALUES (1,10,0),(2,20,0),(3,30,0)", "upsert", "insert")
        self.dml("INSERT INTO upsert VALUES (2,21,5),(4,40,5) ON DUPLICATE KEY UPDATE n = n + VALUES(n)",
                 "upsert", "odku")
        self.dml("REPLACE INTO upsert VALUES (3,31,9),(5,50,9)", "upsert", "replace")
        self.dml("REPLACE INTO upsert VALUES (6,10,9)", "upsert", "replace-unique-conflict")
        self.dml("DELETE upsert, evo_ctas FROM upsert JOIN evo_ctas ON evo_ctas.id = upsert.id WHERE upsert.id = 2",
                 "upsert+evo_ctas", "multi-delete")
        # XA: rows are logged at XA PREPARE, so the rolled-back branch is in the log too
        ddl("CREATE TABLE xa_t (id INT PRIMARY KEY, s VARCHAR(20))")
        for xid, row_id, end in (("xa_commit", 1, "COMMIT"), ("xa_rollback", 2, "ROLLBACK")):
            self.q(f"XA START '{xid}'")
            self.dml(f"INSERT INTO xa_t VALUES ({row_id}, '{xid}')", "xa_t",
                     "insert" if end == "COMMIT" else "xa-rolled-back-insert")
            self.q(f"XA END '{xid}'")
            self.q(f"XA PREPARE '{xid}'")
            self.q(f"XA {end} '{xid}'")
        # a non-transactional table's rows survive the ROLLBACK (and are logged); the InnoDB row is not
        ddl("CREATE TABLE nontx (id INT PRIMARY KEY, s VARCHAR(20)) ENGINE=Aria TRANSACTIONAL=0")
        ddl("CREATE TABLE tx_only (id INT PRIMARY KEY)")
        self.q("BEGIN")
        self.dml("INSERT INTO tx_only VALUES (1)", "tx_only", "rolled-back-insert")
        self.dml("INSERT INTO nontx VALUES (1, 'survives rollback')", "nontx", "insert")
        self.q("ROLLBACK")
        self.q("BEGIN")
        self.dml("INSERT INTO tx_only VALUES (2)", "tx_only", "insert")
        upd("UPDATE evo3 SET z = z + 1000 WHERE id <= 3", "evo3")
        self.dml("DELETE FROM upsert WHERE id = 6", "upsert", "delete")
        self.q("COMMIT")
        ddl("DROP TABLE evo_ctas")
        ddl("CREATE INDEX idx_z ON evo3 (z)", note="index only: no column change")
        ins("evo3", [{"y": "r", "b_renamed": "after index", "x": "3", "z": 16}])
        self.end_phase()

    # -- phase (c) --------------------------------------------------------------------------------
    WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo",
             "lima", "mike", "ünïcødé", "日本語", "😀"]

    def bulk_values(self, i: int, rr: random.Random) -> str:
        w = self.WORDS
        name = " ".join(rr.choice(w) for _ in range(rr.randint(2, 4)))
        note = None if i % 11 == 0 else f"note-{i} " + " ".join(rr.choice(w) for _ in range(rr.randint(3, 10)))
        payload = None if i % 13 == 0 else rr.randbytes(rr.randint(8, 48))
        ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1_600_000_000 + 7 * i)) + f".{i % 1_000_000:06d}"
        vals = (i, rr.randint(-2**31, 2**31 - 1), rr.randint(0, 999), name,
                Sql(f"{rr.randint(-10**9, 10**9)}.{rr.randint(0, 99):02d}"), rr.randint(0, 2**32 - 1), ts,
                rr.uniform(-1e6, 1e6), rr.randint(-128, 127), note, payload)
        return "(" + ",".join(literal(v) for v in vals) + ")"

    def phase_c(self) -> None:
        self.use(self.main_db)
        first = self.flush()
        self.begin_phase("c", "bulk: about 1M row changes at scale 1, in binlog files of their own")
        self.ddl("CREATE TABLE bulk (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, k INT NOT NULL, grp SMALLINT UNSIGNED,"
                 " name VARCHAR(64) CHARACTER SET utf8mb4, price DECIMAL(12,2), qty INT UNSIGNED, ts DATETIME(6),"
                 " score DOUBLE, flag TINYINT, note VARCHAR(255) CHARACTER SET utf8mb4, payload VARBINARY(64),"
                 " KEY (grp)) ENGINE=InnoDB")
        rr = random.Random(self.seed + 3)
        n_ins, n_upd, n_del = (max(10, int(n * self.scale)) for n in (500_000, 300_000, 200_000))
        n_upd, n_del = min(n_upd, n_ins), min(n_del, n_ins // 2)
        cols = "(id,k,grp,name,price,qty,ts,score,flag,note,payload)"
        for lo in range(1, n_ins + 1, self.insert_batch):
            rows = ",".join(self.bulk_values(i, rr) for i in range(lo, min(lo + self.insert_batch, n_ins + 1)))
            self.dml(f"INSERT INTO bulk {cols} VALUES {rows}", "bulk", "insert", record_sql=False)
        step = max(1, min(10_000, n_upd // 3 or 1))
        done, lo = 0, 1
        while done < n_upd:       # range updates touching several columns
            hi = lo + min(step, n_upd - done) - 1
            done += self.dml(f"UPDATE bulk SET k = k DIV 2 + 1, qty = qty DIV 3, ts = ts + INTERVAL 1 SECOND,"
                             f" note = CONCAT(IFNULL(note, 'was-null'), ' u'), score = -score"
                             f" WHERE id BETWEEN {lo} AND {hi}", "bulk", "update")
            lo = hi + 1
        done, lo = 0, n_ins - 2 * n_del + 1
        while done < n_del and lo <= n_ins:   # every other row of the upper part, in chunks
            hi = min(lo + 2 * max(1, min(5000, n_del // 2)) - 1, n_ins)
            done += self.dml(f"DELETE FROM bulk WHERE id BETWEEN {lo} AND {hi} AND id % 2 = 0 LIMIT {n_del - done}",
                             "bulk", "delete")
            lo = hi + 1
        self.end_phase()
        last = self.flush()
        names = [p.name for p in self.binlog_paths()]
        self.bulk_files = names[names.index(first):names.index(last)]

    # -- phase (d) --------------------------------------------------------------------------------
    def phase_d(self) -> None:
        self.use(self.main_db)
        self.begin_phase("d", "one transaction spanning many rows events and two tables")
        self.ddl("CREATE TABLE bigtx (id INT UNSIGNED NOT NULL PRIMARY KEY, bulk_id BIGINT UNSIGNED, v VARCHAR(100),"
                 " d DECIMAL(20,6), t TIME(6), j JSON) ENGINE=InnoDB")
        if "bulk" not in self.expected:    # phase d alone: the table it interleaves with
            self.ddl("CREATE TABLE IF NOT EXISTS bulk (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, k INT NOT NULL,"
                     " grp SMALLINT UNSIGNED, flag TINYINT)")
        rr = random.Random(self.seed + 4)
        n = self.bigtx_rows
        batch = max(20, min(self.insert_batch, n // 10))
        self.q("BEGIN")
        for lo in range(1, n + 1, batch):
            rows = []
            for i in range(lo, min(lo + batch, n + 1)):
                sign = "-" if i % 3 == 0 else ""
                rows.append({"id": i, "bulk_id": i * 3, "v": f"tx-{i} " + rr.choice(self.WORDS) * 3,
                             "d": Sql(f"{rr.randint(-10**13, 10**13)}.{rr.randint(0, 999999):06d}"),
                             "t": f"{sign}{i % 839:02d}:{i % 60:02d}:{(i * 7) % 60:02d}.{i % 1_000_000:06d}",
                             "j": json.dumps({"i": i})})
            self.insert("bigtx", rows, record_sql=False)
            if (lo // batch) % 3 == 0:       # the other table, inside the same transaction
                self.dml(f"UPDATE bulk SET flag = IF(flag = -128, 127, -flag) WHERE id BETWEEN {lo} AND {lo + 99}",
                         "bulk", "update", record_sql=False)
        self.dml("UPDATE bigtx SET v = CONCAT(v, ' +'), d = -d, t = IF(t < 0, -t, t) WHERE id % 2 = 1",
                 "bigtx", "update")
        self.dml("UPDATE bigtx b JOIN bulk k ON k.id = b.bulk_id SET b.j = JSON_OBJECT('k', k.k), k.grp = 1000"
                 " WHERE b.id <= 2000", "bigtx+bulk", "multi-update")
        self.dml("DELETE FROM bigtx WHERE id % 5 = 0", "bigtx", "delete")
        self.q("COMMIT")
        self.end_phase()

    # -- all --------------------------------------------------------------------------------------
    def binlog_paths(self) -> list[Path]:
        return [Path(self.binlog_dir) / r[0] for r in self.q("SHOW BINARY LOGS")]

    def run(self, phases: str = "abcd", reset: bool = False) -> Truth:
        self.q("SET SESSION time_zone = '+00:00'")
        self.q("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'")   # zero dates and clamping allowed
        if reset:
            self.q(f"DROP DATABASE IF EXISTS {self.main_db}")
            self.q(f"DROP DATABASE IF EXISTS {self.tmp_db}")
            self.q("RESET MASTER")
        self.tick(0)
        first = self.flush()       # the workload's own files start here
        if "a" not in phases:      # phase a creates the database
            self.ddl(f"CREATE DATABASE IF NOT EXISTS {quote_ident(self.main_db)} CHARACTER SET utf8mb4")
        for p in phases:
            getattr(self, f"phase_{p}")()
            self.tick(60)
        last = self.flush()
        names = [p.name for p in self.binlog_paths()]
        files = names[names.index(first):names.index(last)]
        variables = dict(self.q(
            "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version','binlog_format','binlog_row_image',"
            "'binlog_checksum','binlog_row_metadata','binlog_annotate_row_events','binlog_row_event_max_size',"
            "'log_bin_compress','character_set_server','collation_server','mysql56_temporal_format','server_id')"))
        conn = text_connection(socket=self.socket, user=self.user, password=self.password)
        try:
            tables = dump_tables(conn, [self.main_db, self.tmp_db])
        finally:
            conn.close()
        params = {"seed": self.seed, "scale": self.scale, "bigtx_rows": self.bigtx_rows, "blob_kib": self.blob_kib,
                  "random_rows": self.random_rows, "insert_batch": self.insert_batch, "phases": phases}
        return Truth(binlog_dir=str(self.binlog_dir), files=files, ddl_log=self.ddl_log, statements=self.statements,
                     phases=self.phases, tables=tables, expected_row_changes=self.expected,
                     legacy_temporal_file=self.legacy_file, bulk_files=self.bulk_files, variables=variables,
                     params=params)


def run(server=None, *, socket: str | None = None, user: str = "root", password: str | None = None,
        binlog_dir: str | None = None, phases: str = "abcd", reset: bool = False, **kw) -> Truth:
    """Run the workload on ``server`` (a tools/mariadb_lab.MariaDBServer) or on the server at
    ``socket``; returns the Truth. ``kw``: database, tmp_database (default lab, lab_tmp), seed, scale,
    bigtx_rows, blob_kib, random_rows, insert_batch, log."""
    import pymysql

    sock = server.socket if server is not None else socket
    conn = pymysql.connect(unix_socket=sock, user=user, password=password or "", charset="utf8mb4",
                           autocommit=True, max_allowed_packet=1 << 30)
    try:
        if binlog_dir is None:
            with conn.cursor() as cur:
                cur.execute("SELECT @@log_bin_basename")
                binlog_dir = str(Path(cur.fetchone()[0]).parent)
        wl = Workload(conn, binlog_dir=binlog_dir, socket=sock, user=user, password=password, **kw)
        return wl.run(phases, reset=reset)
    finally:
        conn.close()


def manifest_cache(where: Path, write) -> list[Path]:
    """The files of the cache directory ``where`` while its manifest's files all exist; else
    ``write(where)`` fills it anew (emptied first) and returns (file names, other manifest fields),
    kept as its manifest.json. The benchmarks' inputs are cached so (written once, by a lab server)."""
    manifest = where / "manifest.json"
    if manifest.exists():
        files = [where / f for f in json.loads(manifest.read_text())["files"]]
        if all(f.exists() for f in files):
            return files
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    names, fields = write(where)
    manifest.write_text(json.dumps({"files": names, **fields}, indent=1))
    return [where / n for n in names]


def lab_server(prefix: str):
    """A started private MariaDB (tools/mariadb_lab.py) in a new temporary directory named
    ``prefix``...; SystemExit with the install hint when mariadbd is missing."""
    spec = importlib.util.spec_from_file_location("_mysqlddl_tools_mariadb_lab_cache",
                                                  Path(__file__).resolve().parent / "mariadb_lab.py")
    mariadb_lab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mariadb_lab)
    if not mariadb_lab.mariadbd_path():
        raise SystemExit(mariadb_lab.INSTALL_HINT)
    return mariadb_lab.MariaDBServer(Path(tempfile.mkdtemp(prefix=prefix))).start()


def cached_binlogs(cache: Path, *, scale: float, phases: str = "abcd", bulk_only: bool = False,
                   log=print) -> list[Path]:
    """The workload's binlog files at ``scale`` (only the bulk phase's files with ``bulk_only``),
    written on first use by a private server (tools/mariadb_lab.py) into ``cache/scale-S`` and
    reused while its manifest's files exist. The benchmarks' shared input."""
    def write(where: Path) -> tuple[list[str], dict]:
        srv = lab_server("mdb-cache-")
        try:
            t0 = time.monotonic()
            log(f"writing the workload's binlogs at scale {scale:g} (phases {phases}) ...")
            truth = run(srv, phases=phases, scale=scale, log=lambda m: None)
            names = truth.bulk_files if bulk_only else [p.name for p in truth.paths]
            for name in names:
                shutil.copyfile(Path(truth.binlog_dir) / name, where / name)
            log(f"  {len(names)} files in {time.monotonic() - t0:.0f} s, cached in {where}")
            return names, {"scale": scale, "phases": phases, "server": srv.version,
                           "expected_row_changes": truth.expected_row_changes,
                           "secs": round(time.monotonic() - t0, 1)}
        finally:
            srv.destroy()

    return manifest_cache(cache / f"scale-{scale:g}", write)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--socket", required=True, help="the server's unix socket")
    ap.add_argument("--user", default="root")
    ap.add_argument("--password")
    ap.add_argument("--out", type=Path, help="write the ground truth here (manifest.json, tables/, ddl_log.jsonl)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="bulk size: 1.0 = 500k INSERT + 300k UPDATE + 200k DELETE row changes")
    ap.add_argument("--bigtx-rows", type=int, help="rows of the big transaction (default max(300, 200k * scale))")
    ap.add_argument("--blob-kib", type=int, help="size of the largest LONGBLOB value (default 3 MiB at scale >= 0.5)")
    ap.add_argument("--random-rows", type=int, default=20)
    ap.add_argument("--insert-batch", type=int, default=1000)
    ap.add_argument("--phases", default="abcd")
    ap.add_argument("--database", default=DB, help="the workload's database (its second one: --tmp-database)")
    ap.add_argument("--tmp-database", default=DB2)
    ap.add_argument("--reset-master", action="store_true", help="drop the lab databases and RESET MASTER first")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    truth = run(socket=a.socket, user=a.user, password=a.password, phases=a.phases, reset=a.reset_master,
                seed=a.seed, scale=a.scale, bigtx_rows=a.bigtx_rows, blob_kib=a.blob_kib, random_rows=a.random_rows,
                insert_batch=a.insert_batch, database=a.database, tmp_database=a.tmp_database,
                log=lambda m: print(m, file=sys.stderr, flush=True))
    if a.out:
        truth.to_dir(a.out)
    print(json.dumps({"files": truth.files, "bulk_files": truth.bulk_files,
                      "expected_row_changes": truth.expected_row_changes,
                      "tables": {k: len(t.rows) for k, t in truth.tables.items()},
                      "secs": round(time.monotonic() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
