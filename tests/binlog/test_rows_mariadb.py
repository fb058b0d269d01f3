"""Row values against the server's own truth: rows written to a private MariaDB (the session's
`mariadb_server` fixture, ROW/FULL/CRC32, default binlog_row_metadata=NO_LOG), read back from its
binlog, replayed (inserts, updates, deletes) and compared with SELECT on the table, on both twins.

The schema side (signedness, charsets, ENUM/SET names, fsp) comes from information_schema and is
handed to build_plan as ``columns=``, as the schema layer will: NO_LOG TABLE_MAPs carry none of it.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import re
import struct

import pytest

from mysqlddl.binlog import rows
from mysqlddl.options import Options

pytestmark = pytest.mark.mariadb

DDL = """CREATE TABLE t (
  id INT NOT NULL PRIMARY KEY, ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT, mu MEDIUMINT UNSIGNED,
  bi BIGINT, bu BIGINT UNSIGNED, d1 DECIMAL(5,2), d2 DECIMAL(38,10), du DECIMAL(10,2) UNSIGNED,
  f FLOAT, g DOUBLE, b1 BIT(1), b9 BIT(9), b64 BIT(64),
  da DATE, tm TIME, tm3 TIME(3), tm6 TIME(6), dt0 DATETIME, dt4 DATETIME(4),
  ts TIMESTAMP NULL DEFAULT NULL, ts6 TIMESTAMP(6) NULL DEFAULT NULL, y YEAR,
  c10 CHAR(10) CHARACTER SET utf8mb4, cl CHAR(5) CHARACTER SET latin1, bn BINARY(6),
  v VARCHAR(300) CHARACTER SET utf8mb4, vl VARCHAR(20) CHARACTER SET latin1, vb VARBINARY(20),
  tx TEXT CHARACTER SET utf8mb4, bl MEDIUMBLOB, vc VARCHAR(500) COMPRESSED CHARACTER SET utf8mb4,
  e ENUM('x','y','zé') CHARACTER SET utf8mb4, s SET('a','b','c','d'), j JSON,
  p POINT, gm GEOMETRY, ip INET6
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"""

INSERTS = [
    "INSERT INTO t VALUES (1, -128, 255, -32768, 16777215, -9223372036854775808, 18446744073709551615,"
    " -999.99, 1234567890123456789012345678.0123456789, 99999999.99, 3.4e38, -1.7976931348623157e308,"
    " b'1', b'100000001', 0xFFFFFFFFFFFFFFFF, '1000-01-01', '-838:59:59', '-00:00:00.001',"
    " '838:59:59.999999', '9999-12-31 23:59:59', '2024-02-29 23:59:59.9999', '1970-01-01 00:00:01',"
    " '2038-01-19 03:14:07.999999', 1901, 'naïve 日本', 'café', X'6162', REPEAT('é', 300), '€‚ƒ',"
    " X'00FF00', REPEAT('ü😀', 1000), REPEAT(X'00FF', 40000), REPEAT('compress me ', 40), 'zé', 'a,d',"
    " '{\"k\": [1, 2.5, \"ü\"]}', ST_GeomFromText('POINT(1.5 -2.25)', 4326),"
    " ST_GeomFromText('LINESTRING(0 0,1 1)'), '::ffff:192.0.2.1')",
    "INSERT INTO t VALUES (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.0, -0.0, 0, 0, 0, '0000-00-00', '00:00:00',"
    " '00:00:00', '00:00:00', '0000-00-00 00:00:00', '2020-00-15 12:34:56.5', '0000-00-00 00:00:00',"
    " '0000-00-00 00:00:00', 0, '', '', '', '', '', '', '', '', '', 'x', '', '[]',"
    " ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('GEOMETRYCOLLECTION EMPTY'), '::')",
    "INSERT INTO t (id) VALUES (3)",
    "INSERT INTO t (id, tm, tm6, v, tx, vc) VALUES (4, '-12:34:56', '-00:00:00.000001', 'tab\\there', 'x',"
    " 'short')",
]
CHANGES = [
    "UPDATE t SET ti = 7, v = CONCAT(v, '!'), ts6 = '2001-02-03 04:05:06.070809', j = JSON_OBJECT('u', 1)"
    " WHERE id IN (1, 4)",
    "UPDATE t SET bi = NULL, s = 'b,c', e = 'y' WHERE id = 2",
    "DELETE FROM t WHERE id = 3",
]


@pytest.fixture(scope="module")
def table_rows(mariadb_server):
    srv = mariadb_server
    db = f"rows_{os.getpid()}"
    srv.execute(f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}")
    srv.execute("SET SESSION sql_mode = ''", DDL, database=db)
    srv.flush_logs()
    start_file, start_pos = srv.current_binlog()
    conn = srv.connect(db)
    cur = conn.cursor()
    cur.execute("SET SESSION sql_mode = '', time_zone = '+00:00'")
    for sql in INSERTS + CHANGES:
        cur.execute(sql)
    conn.commit()
    cur.execute("SELECT * FROM t ORDER BY id")
    truth = {r[0]: r for r in cur.fetchall()}
    cur.execute("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, DATETIME_PRECISION"
                " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = %s AND TABLE_NAME = 't'"
                " ORDER BY ORDINAL_POSITION", (db,))
    info = cur.fetchall()
    conn.close()
    srv.flush_logs()
    files = [f for f in srv.binlog_files() if f.name >= start_file.name]
    yield db, files, start_file, start_pos, truth, info
    srv.execute(f"DROP DATABASE {db}")


def _columns(info):
    out = []
    for _name, dtype, ctype, charset, fsp in info:
        col = {"charset": charset or ("binary" if dtype in ("binary", "varbinary", "mediumblob", "blob",
                                                             "inet6") else None)}
        m = re.match(r"(enum|set)\((.*)\)", ctype)
        if m:
            col[f"{m.group(1)}_values"] = tuple(re.findall(r"'((?:[^']|'')*)'", m.group(2)))
        if dtype in ("tinyint", "smallint", "mediumint", "int", "bigint", "decimal"):
            col["unsigned"] = "unsigned" in ctype
        if dtype in ("time", "datetime", "timestamp"):
            col["fsp"] = fsp
        out.append(col)
    return out


def _expected(value, dtype):
    """The SELECT value (pymysql's conversions, session time zone UTC) as our decoders render it."""
    if value is None:
        return None
    if dtype == "float":
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if dtype == "bit":
        return int.from_bytes(value, "big")
    if dtype == "inet6":
        return ipaddress.IPv6Address(value).packed
    if dtype in ("point", "geometry"):
        return (int.from_bytes(value[:4], "little"), value[4:])
    return value


def _ours(value, dtype):
    if value is None:
        return None
    if dtype == "timestamp" and isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    if dtype in ("point", "geometry"):
        return tuple(value)
    return value


def test_replayed_rows_equal_the_table(table_rows, twin):
    from mysqlddl.binlog.events.rows_event import RowsEvent
    from mysqlddl.binlog.reader import BinlogReader

    db, files, start_file, start_pos, truth, info = table_rows
    columns = _columns(info)
    dtypes = [r[1] for r in info]
    state = {}
    seen = set()
    for ev in BinlogReader([str(f) for f in files], start=(str(start_file), start_pos)):
        if not isinstance(ev, RowsEvent) or ev.table != f"{db}.t":
            continue
        seen.add(ev.kind)
        plan = rows.build_plan(ev.table_map, Options(), columns=columns)
        for r in rows.decode_rows(plan, ev.body, ev.rows_start, ev.rows_end, ev.present1, ev.present2):
            if ev.kind == "write":
                state[r[0]] = r
            elif ev.kind == "delete":
                del state[r[0]]
            else:
                del state[r[0][0]]
                state[r[1][0]] = r[1]
    assert seen == {"write", "update", "delete"}
    assert sorted(state) == sorted(truth) == [1, 2, 4]
    for key, row in state.items():
        for i, dtype in enumerate(dtypes):
            assert _ours(row[i], dtype) == _expected(truth[key][i], dtype), (key, info[i][0])
