#!/usr/bin/env python3
"""The chaos harness: a live MariaDB followed into PostgreSQL by `mysqlddl run` while everything that
can go wrong around it does, then every table compared value by value (issue #30, acceptance).

    python tools/chaos.py --seed 7 --seconds 60 [--kills 5] [--restarts 1] [--dump-kills 2]
                          [--without json_extremes,keyless_floats] [--keep DIR]

starts a private MariaDB (tools/mariadb_lab.py: ROW, FULL image, GTIDs) and a private PostgreSQL
(tools/pg_lab.py), runs the scenario below, prints what it did and what it found, and exits 1 when
it found anything. tests/pipeline/test_chaos.py runs it too (:func:`run`, on servers of its own).

The scenario, all of it drawn from one seed:

- a writer thread runs a random workload on database ``chaos`` for ``seconds``: transactions of
  INSERT / UPDATE / DELETE (some rolled back, some single autocommit statements) over tables that
  cover the column types the PostgreSQL sink maps (sinks/pg/types.py: integers signed and unsigned at
  their extremes, DECIMAL up to (65,30) with tiny negative values, FLOAT/DOUBLE, BIT, DATE/DATETIME/
  TIMESTAMP/TIME with fractions, YEAR, CHAR/VARCHAR/TEXT in utf8mb4 and latin1, BINARY/VARBINARY/BLOB,
  ENUM/SET, JSON, TINYINT(1), COMPRESSED, INET4/INET6/UUID, GEOMETRY, generated columns), a
  keyless table holding duplicate rows, a table whose only key is UNIQUE NOT NULL (its key changed
  too), and the ingredients below; it rides out the server restart (reconnects);
- now and then a big transaction (hundreds of duplicate-laden rows into the keyless table, then an
  UPDATE of many of them), so that kills also land inside one;
- a *following* `mysqlddl run` (no --once; the checkpoint kept in the PostgreSQL target) is
  killed ``kills`` times at random moments (SIGKILL; one in four times SIGTERM, which must end it
  with exit code 0) and started again at once;
- ingredients (each can be left out, to tell which one a failure comes from):
  ``ddl``: schema changes mid-run (:data:`SCHEMA_CHANGES`: ADD COLUMN with a default, AFTER,
    MODIFY, DROP COLUMN, a new table written to afterwards);
  ``json_extremes``: a JSON table with 12345678901234567890.123, 1e400, -1e-400, 2**64, the document
    ``null`` next to SQL NULL (issue #30 item 7);
  ``keyless_floats``: a keyless table with FLOAT/DOUBLE columns and duplicate rows, updated and
    deleted by float values and LIMIT 1 (item 6);
  ``add_auto_increment``: ``ALTER TABLE ... ADD COLUMN id INT NOT NULL AUTO_INCREMENT PRIMARY KEY
    FIRST`` mid-run on a table holding rows whose only key is UNIQUE NOT NULL, filled out of key
    order (item 8: the server numbers the rows in that key's order, InnoDB's clustered index);
  ``server_restart``: the MariaDB server shut down cleanly and started again on its port
    ``restarts`` times (item 5);
  ``server_crash``: the MariaDB server SIGKILLed and started again (crash recovery) ``restarts``
    times: the stream breaks without an EOF packet, a lost connection;
  ``kill_dump``: the pipeline's ``Binlog Dump`` thread killed (``KILL <id>`` from another
    connection) ``dump_kills`` times;
- the writer stopped, the run must catch up: its checkpoint in the target reaches the server's
  ``gtid_binlog_pos`` within ``catch_up_s``; then (and only then) it is stopped with SIGTERM and
  must exit 0. A run that ended in any other way (by itself, whatever its exit code) is a problem;
- every table of ``chaos`` is compared with its PostgreSQL table as a multiset of rows (keyless
  tables hold duplicates), each value normalised by its MariaDB type: integers and DECIMAL exactly
  (Decimal), FLOAT as the server's ``CAST(col AS DOUBLE)`` against PostgreSQL's ``col::float8``
  (both the exact single-precision value), DOUBLE as the value the server returns, BIT as its
  integer, TIMESTAMP in UTC, SET as its members, JSON parsed with every number a Decimal (exact)
  and the document ``null`` distinct from SQL NULL. Rows lost, duplicated or different are
  problems, with a few examples of each.

Left out on purpose: values PostgreSQL cannot hold and that the sink's value policy changes by
design (zero dates, NUL characters in text or JSON strings: sinks/pg/types.py, ValuePolicy).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import datetime
import ipaddress
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from decimal import Decimal
from pathlib import Path

DB = "chaos"
INGREDIENTS = ("ddl", "json_extremes", "keyless_floats", "add_auto_increment", "server_restart", "server_crash",
               "kill_dump")
#: the pipeline's name: its checkpoint row in the target (mysqlddl.mysqlddl_checkpoint)
PIPELINE = "chaos"


# ------------------------------------------------------------------------------------ the tables

def _int_col(name: str, sqltype: str, bits: int, unsigned: bool):
    lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return name, f"{sqltype}{' UNSIGNED' if unsigned else ''}", lambda rr: rr.choice(
        [lo, hi, 0, rr.randint(lo, hi), rr.randint(-1 if not unsigned else 0, 1)])


def _decimal(p: int, s: int, *, unsigned: bool = False, odd: tuple[str, ...] = ()):
    top = ("9" * (p - s) or "0") + ("." + "9" * s if s else "")

    def gen(rr):
        r = rr.random()
        if r < 0.15:
            return top if unsigned or rr.random() < 0.5 else "-" + top
        if r < 0.35 and odd:
            return rr.choice(odd)
        ip = "".join(rr.choice("0123456789") for _ in range(rr.randint(0, p - s))).lstrip("0") or "0"
        frac = "." + "".join(rr.choice("0123456789") for _ in range(s)) if s else ""
        return ("" if unsigned or rr.random() < 0.5 else "-") + ip + frac
    return gen


def _stamp(rr, lo: int, hi: int, fsp: int) -> str:
    t = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=rr.randint(lo, hi))
    frac = "." + "".join(rr.choice("0123456789") for _ in range(fsp)) if fsp else ""
    return t.strftime("%Y-%m-%d %H:%M:%S") + frac


def _time(rr, fsp: int) -> str:
    if rr.random() < 0.15:
        return rr.choice(["-838:59:59", "838:59:59"]) + ("." + "0" * fsp if fsp else "")
    frac = "." + "".join(rr.choice("0123456789") for _ in range(fsp)) if fsp else ""
    return f"{rr.choice(['', '-'])}{rr.randint(0, 837)}:{rr.randint(0, 59):02d}:{rr.randint(0, 59):02d}{frac}"


UNI = "abcxyz ÀéüßΩж日本語😀🐍\u0301'\"\\\t%_"
LATIN1 = "abcxyz ÀéüßÿŠœ€‰'\"\\%_"
FLOATS = (0.0, -0.0, 1.5, 2.5, 0.1, -0.1, 1 / 3, 3.4028234663852886e38, -1.1754943508222875e-38, 16777217.0)
DOUBLES = (0.0, -0.0, 1.5, 2.5, 0.1, 1 / 3, 1.7976931348623157e308, -2.2250738585072014e-308, 5e-324, 1e-300,
           9007199254740993.0)


def _text(rr, pool: str, n: int) -> str:
    return "".join(rr.choice(pool) for _ in range(rr.randint(0, n)))


def _json_doc(rr):
    """A plain JSON document (numbers a double holds exactly as written: the extremes are an ingredient)."""
    return json.dumps({"i": rr.randint(-10**15, 10**15), "f": rr.choice([0.5, -2.25, 1e-7, 123.0]),
                       "s": _text(rr, UNI, 8), "a": [rr.randint(0, 9) for _ in range(rr.randint(0, 3))],
                       "n": None, "t": rr.random() < 0.5, "o": {"k": [{"x": "y"}]}},
                      ensure_ascii=rr.random() < 0.5)


#: the all-types table: (column, SQL type, generator of a value pymysql binds)
TYPE_COLUMNS = [
    *(_int_col(f"c_{n}{'u' if u else ''}", t, b, u)
      for n, t, b in (("ti", "TINYINT", 8), ("si", "SMALLINT", 16), ("mi", "MEDIUMINT", 24), ("i", "INT", 32),
                      ("bi", "BIGINT", 64)) for u in (False, True)),
    ("c_d65_30", "DECIMAL(65,30)", _decimal(65, 30, odd=("-0." + "0" * 29 + "1", "0." + "0" * 29 + "1"))),
    ("c_d10_4", "DECIMAL(10,4)", _decimal(10, 4, odd=("-0.0001", "0.0000"))),
    ("c_d20_0u", "DECIMAL(20,0) UNSIGNED", _decimal(20, 0, unsigned=True)),
    ("c_d38_38", "DECIMAL(38,38)", _decimal(38, 38, odd=("-0." + "0" * 37 + "1",))),
    ("c_f", "FLOAT", lambda rr: rr.choice([*FLOATS, rr.uniform(-1, 1) * 10 ** rr.randint(-30, 30)])),
    ("c_dbl", "DOUBLE", lambda rr: rr.choice([*DOUBLES, rr.uniform(-1, 1) * 10 ** rr.randint(-300, 300)])),
    ("c_bit1", "BIT(1)", lambda rr: rr.getrandbits(1)),
    ("c_bit13", "BIT(13)", lambda rr: rr.getrandbits(13)),
    ("c_bit64", "BIT(64)", lambda rr: rr.choice([0, (1 << 64) - 1, 1 << 63, rr.getrandbits(64)])),
    ("c_date", "DATE", lambda rr: rr.choice(["1000-01-01", "9999-12-31", _stamp(rr, -30000 * 86400, 10**10, 0)[:10]])),
    ("c_dt0", "DATETIME", lambda rr: rr.choice(["1000-01-01 00:00:00", "9999-12-31 23:59:59",
                                                _stamp(rr, -30000 * 86400, 10**10, 0)])),
    ("c_dt6", "DATETIME(6)", lambda rr: rr.choice(["9999-12-31 23:59:59.999999", _stamp(rr, 0, 10**10, 6)])),
    ("c_ts0", "TIMESTAMP NULL DEFAULT NULL", lambda rr: _stamp(rr, 1, (1 << 31) - 1, 0)),
    ("c_ts3", "TIMESTAMP(3) NULL DEFAULT NULL",
     lambda rr: rr.choice(["1970-01-01 00:00:01.000", "2038-01-19 03:14:07.999", _stamp(rr, 1, (1 << 31) - 1, 3)])),
    ("c_tm0", "TIME", lambda rr: _time(rr, 0)),
    ("c_tm6", "TIME(6)", lambda rr: _time(rr, 6)),
    ("c_yr", "YEAR", lambda rr: rr.choice([1901, 2155, rr.randint(1901, 2155)])),
    ("c_ch_u8", "CHAR(10) CHARACTER SET utf8mb4", lambda rr: _text(rr, UNI, 10)),
    ("c_vc_u8", "VARCHAR(255) CHARACTER SET utf8mb4", lambda rr: _text(rr, UNI, 255)),
    ("c_tx_u8", "TEXT CHARACTER SET utf8mb4", lambda rr: _text(rr, UNI, 2000)),
    ("c_ch_l1", "CHAR(10) CHARACTER SET latin1", lambda rr: _text(rr, LATIN1, 10)),
    ("c_vc_l1", "VARCHAR(100) CHARACTER SET latin1", lambda rr: _text(rr, LATIN1, 100)),
    ("c_tx_l1", "TEXT CHARACTER SET latin1", lambda rr: _text(rr, LATIN1, 500)),
    ("c_bin8", "BINARY(8)", lambda rr: rr.choice([b"", b"\0" * 8, b"a\0", rr.randbytes(rr.randint(0, 8))])),
    ("c_vb", "VARBINARY(64)", lambda rr: rr.choice([b"", b"\0", rr.randbytes(rr.randint(0, 64))])),
    ("c_blob", "BLOB", lambda rr: rr.randbytes(rr.randint(0, 3000))),
    ("c_enum", "ENUM('a','b','ünïcødé','x y') CHARACTER SET utf8mb4",
     lambda rr: rr.choice(["a", "b", "ünïcødé", "x y"])),
    ("c_set", "SET('p','q','r','s') CHARACTER SET utf8mb4",
     lambda rr: ",".join(m for m in "pqrs" if rr.random() < 0.5)),
    ("c_json", "JSON", _json_doc),
    ("c_bool", "TINYINT(1)", lambda rr: rr.choice([0, 1, -128, 127])),
    ("c_vc_u3", "VARCHAR(50) CHARACTER SET utf8mb3", lambda rr: _text(rr, "abcü€日本 '", 50)),
    ("c_vcz", "VARCHAR(500) COMPRESSED CHARACTER SET utf8mb4",
     lambda rr: rr.choice(["", "z" * 400, _text(rr, UNI, 500)])),
    ("c_mtx", "MEDIUMTEXT CHARACTER SET utf8mb4", lambda rr: _text(rr, UNI, 5000)),
    ("c_lblob", "LONGBLOB", lambda rr: rr.choice([b"", rr.randbytes(rr.randint(0, 20000))])),
    ("c_inet4", "INET4", lambda rr: str(ipaddress.IPv4Address(rr.getrandbits(32)))),
    ("c_inet6", "INET6",
     lambda rr: rr.choice(["::", "::ffff:192.0.2.1", str(ipaddress.IPv6Address(rr.getrandbits(128)))])),
    # (version 1 UUIDs are stored with their time fields swapped by MariaDB; any 128 bits are valid)
    ("c_uuid", "UUID", lambda rr: str(uuid.UUID(int=(rr.getrandbits(128) & ~(0xF << 76) & ~(0x3 << 62))
                                                | rr.choice([1, 4, 7]) << 76 | 0x2 << 62))),
    ("c_geo", "GEOMETRY", lambda rr: rr.choice(["POINT(1 2)", f"LINESTRING(0 0,{rr.uniform(-90, 90)} 1)",
                                                 "POLYGON((0 0,4 0,4 4,0 0))", "GEOMETRYCOLLECTION EMPTY"])),
    ("c_pt", "POINT", lambda rr: f"POINT({rr.uniform(-180, 180)} {rr.uniform(-1e300, 1e300)})"),
]
#: the placeholder of a column whose value is not bound as it is
PLACEHOLDERS = {"c_geo": "ST_GeomFromText(%s)", "c_pt": "ST_GeomFromText(%s)"}
#: generated columns of the all-types table: computed by the server, and by the target (sinks/pg/generated.py)
GENERATED_COLUMNS = ("c_g_bi BIGINT AS (c_i * 2) VIRTUAL", "c_g_d DECIMAL(30,4) AS (c_d10_4 * 3 + 1) VIRTUAL",
                     "c_g_s VARCHAR(40) CHARACTER SET utf8mb4 AS (CONCAT('id-', id, '/', IFNULL(c_ti, 'n'))) STORED")

#: JSON documents a plain json.loads gets wrong (issue #30 item 7): exact big numbers, overflow, `null`
JSON_EXTREMES = ("12345678901234567890.123", '{"big": 1e400}', '{"tiny": -1e-400}', "null",
                 '[18446744073709551616, -9223372036854775809, 0.1000000000000000055511151231257827]',
                 '{"a": null, "b": [null], "c": 1.0e2, "d": -0.0}', '"null"', "3.141592653589793238462643383279")


#: ingredient ``ddl``: schema changes made mid-run, in this order (the rows already there get what the
#: server gives them: the default of an added column, the converted value of a modified one)
SCHEMA_CHANGES = ("ALTER TABLE uq ADD COLUMN extra INT DEFAULT 7",
                  "ALTER TABLE types ADD COLUMN c_added DECIMAL(10,2) NOT NULL DEFAULT -1.25 AFTER c_i",
                  "CREATE TABLE late (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, v DOUBLE, "
                  "t DATETIME(3)) ENGINE=InnoDB",
                  "ALTER TABLE kl MODIFY s VARCHAR(40) CHARACTER SET utf8mb4",
                  "ALTER TABLE uq DROP COLUMN extra")


def tables(ingredients) -> list[tuple[str, str]]:
    """(name, CREATE TABLE) of every table the run writes."""
    out = [("types", "CREATE TABLE types (id INT NOT NULL PRIMARY KEY, "
                     + ", ".join([*(f"{n} {t}" for n, t, _g in TYPE_COLUMNS), *GENERATED_COLUMNS])
                     + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"),
           ("uq", "CREATE TABLE uq (u INT NOT NULL, v VARCHAR(20) CHARACTER SET utf8mb4, n BIGINT, UNIQUE KEY (u))"
                  " ENGINE=InnoDB"),
           ("kl", "CREATE TABLE kl (a INT, s VARCHAR(20) CHARACTER SET utf8mb4, b VARBINARY(8)) ENGINE=InnoDB")]
    if "keyless_floats" in ingredients:
        out.append(("kf", "CREATE TABLE kf (a INT, f FLOAT, d DOUBLE, note VARCHAR(10)) ENGINE=InnoDB"))
    if "json_extremes" in ingredients:
        out.append(("js", "CREATE TABLE js (id INT NOT NULL PRIMARY KEY, j JSON) ENGINE=InnoDB"))
    if "add_auto_increment" in ingredients:
        # (a UNIQUE NOT NULL key, filled out of order: InnoDB's clustered index, so the server numbers
        # the rows in k order; a keyless table's order, InnoDB's hidden row id, is one item 8 allows the
        # sink to refuse under the error strategy, so it is not here)
        out.append(("grow", "CREATE TABLE grow (k INT NOT NULL, a INT, s VARCHAR(20), UNIQUE KEY (k)) ENGINE=InnoDB "
                            "DEFAULT CHARSET=utf8mb4"))
    return out


# ------------------------------------------------------------------------------------ the writer

class Writer(threading.Thread):
    """The seeded workload (the module docstring) until ``stop`` is set; reconnects while the server
    is away. ``transactions``: committed (or, when the server went away at COMMIT, maybe committed:
    the comparison reads the server, never this count)."""

    def __init__(self, server, seed: int, ingredients, *, ddl: list[tuple[float, str]]):
        super().__init__(name="chaos-writer", daemon=True)
        self.server = server
        self.rr = random.Random(seed)
        self.ingredients = frozenset(ingredients)
        self.stop = threading.Event()
        t0 = time.monotonic()
        #: (when, statement): the schema changes still to make, in time order
        self.ddl = sorted((t0 + at, sql) for at, sql in ddl)
        self.ddl_done: list[str] = []
        self.transactions = self.rollbacks = self.reconnects = 0
        self.next_id = 1
        self.next_u = 1
        self.next_k = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._loop()
        except BaseException as e:          # (reported by the harness, not lost in a thread)
            self.error = e

    def _loop(self) -> None:
        import pymysql

        conn = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = self.server.connect(DB)
                    conn.cursor().execute("SET SESSION time_zone = '+00:00'")
                self._transaction(conn.cursor())
                time.sleep(self.rr.uniform(0, 0.02))
            except (pymysql.err.OperationalError, pymysql.err.InterfaceError):
                # (the server restart: the transaction's fate is the server's, read at the end)
                self.reconnects += 1
                try:
                    if conn is not None:
                        conn.close()
                except Exception:
                    pass
                conn = None
                time.sleep(0.2)
        if conn is not None:
            conn.close()

    def _transaction(self, cur) -> None:
        rr = self.rr
        if self.ddl and time.monotonic() >= self.ddl[0][0]:
            sql = self.ddl.pop(0)[1]       # (popped first: a lost connection must not run it twice)
            cur.execute(sql)
            self.ddl_done.append(sql.split(" (")[0])
            return
        if rr.random() < 0.01:
            # a big transaction now and then (kills land inside it too): many rows events, one COMMIT
            cur.execute("BEGIN")
            n = rr.randint(300, 1500)
            cur.execute("INSERT INTO kl (a, s, b) VALUES " + ", ".join(["(%s, %s, NULL)"] * n),
                        [v for i in range(n) for v in (100 + i % 50, rr.choice(["big", "x"]))])
            cur.execute("UPDATE kl SET s = 'bigger' WHERE a BETWEEN 100 AND 110 AND s = 'big'")
            cur.execute("COMMIT")
            self.transactions += 1
            return
        single = rr.random() < 0.2
        if not single:
            cur.execute("BEGIN")
        for _ in range(1 if single else rr.randint(1, 6)):
            self._statement(cur)
        if not single and rr.random() < 0.08:
            cur.execute("ROLLBACK")
            self.rollbacks += 1
            return
        if not single:
            cur.execute("COMMIT")
        self.transactions += 1

    def _statement(self, cur) -> None:
        rr = self.rr
        choices = ["types"] * 4 + ["uq"] * 2 + ["kl"] * 2
        if "keyless_floats" in self.ingredients:
            choices += ["kf"] * 2
        if "json_extremes" in self.ingredients:
            choices += ["js"] * 2
        if "add_auto_increment" in self.ingredients:
            choices += ["grow"]
        if any(d.startswith("CREATE TABLE late") for d in self.ddl_done):
            choices += ["late"]
        getattr(self, "_" + rr.choice(choices))(cur, rr)

    def _row(self, rr) -> list:
        return [None if rr.random() < 0.15 else gen(rr) for _n, _t, gen in TYPE_COLUMNS]

    def _types(self, cur, rr) -> None:
        r = rr.random()
        names = [n for n, _t, _g in TYPE_COLUMNS]
        if r < 0.5 or self.next_id < 5:
            rows = [[self._new_id(), *self._row(rr)] for _ in range(rr.randint(1, 3))]
            marks = "(%s, " + ", ".join(PLACEHOLDERS.get(n, "%s") for n in names) + ")"
            cur.execute(f"INSERT INTO types (id, {', '.join(names)}) VALUES " + ", ".join([marks] * len(rows)),
                        [v for row in rows for v in row])
        elif r < 0.85:
            picked = rr.sample(range(len(names)), rr.randint(1, 5))
            row = self._row(rr)
            sets = ", ".join(f"{names[i]} = {PLACEHOLDERS.get(names[i], '%s')}" for i in picked)
            lo = rr.randint(1, self.next_id - 1)
            cur.execute(f"UPDATE types SET {sets} WHERE id BETWEEN %s AND %s",
                        [row[i] for i in picked] + [lo, lo + rr.choice([0, 0, 2])])
        else:
            cur.execute("DELETE FROM types WHERE id = %s", (rr.randint(1, self.next_id - 1),))

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _uq(self, cur, rr) -> None:
        r = rr.random()
        u = rr.randint(1, max(1, self.next_u))
        if r < 0.5:
            self.next_u += 1
            cur.execute("INSERT INTO uq (u, v, n) VALUES (%s, %s, %s)",
                        (self.next_u, _text(rr, UNI, 20), rr.choice([None, -(1 << 63), rr.getrandbits(40)])))
        elif r < 0.7:
            cur.execute("UPDATE uq SET v = %s, n = n + 1 WHERE u = %s", (_text(rr, UNI, 20), u))
        elif r < 0.85:
            self.next_u += 1          # (the key itself changes: the target must find the row by its old key)
            cur.execute("UPDATE uq SET u = %s WHERE u = %s", (self.next_u, u))
        else:
            cur.execute("DELETE FROM uq WHERE u = %s", (u,))

    def _kl(self, cur, rr) -> None:
        a, s = rr.randint(0, 15), rr.choice(["x", "y", "ü", ""])
        r = rr.random()
        if r < 0.5:
            row, n = [a, s, rr.choice([None, b"\0", b"k"])], rr.randint(1, 3)      # (n times: duplicates)
            cur.execute("INSERT INTO kl (a, s, b) VALUES " + ", ".join(["(%s, %s, %s)"] * n), row * n)
        elif r < 0.8:
            cur.execute("UPDATE kl SET s = %s WHERE a = %s LIMIT 1", (rr.choice(["x", "y", "z"]), a))
        else:
            cur.execute("DELETE FROM kl WHERE a = %s AND s = %s LIMIT 1", (a, s))

    def _kf(self, cur, rr) -> None:
        a = rr.randint(0, 5)
        f, d = rr.choice(FLOATS[:7]), rr.choice(DOUBLES[:7])
        r = rr.random()
        if r < 0.5:
            row, n = [a, f, d, rr.choice(["x", "y"])], rr.randint(1, 2)
            cur.execute("INSERT INTO kf (a, f, d, note) VALUES " + ", ".join(["(%s, %s, %s, %s)"] * n), row * n)
        elif r < 0.7:
            # (the case: rows equal but for a float; only the one with this value changes)
            cur.execute("UPDATE kf SET note = %s WHERE d = %s LIMIT 1", (rr.choice(["changed", "again"]), d))
        elif r < 0.85:
            cur.execute("UPDATE kf SET d = %s, f = %s WHERE a = %s AND f = %s LIMIT 1", (rr.choice(DOUBLES), f, a, f))
        else:
            cur.execute("DELETE FROM kf WHERE d = %s LIMIT 1", (d,))

    def _js(self, cur, rr) -> None:
        doc = rr.choice([*JSON_EXTREMES, None, _json_doc(rr)])
        k = rr.randint(1, 40)
        r = rr.random()
        if r < 0.6:
            cur.execute("INSERT INTO js VALUES (%s, %s) ON DUPLICATE KEY UPDATE j = VALUES(j)", (k, doc))
        elif r < 0.85:
            cur.execute("UPDATE js SET j = %s WHERE id = %s", (doc, k))
        else:
            cur.execute("DELETE FROM js WHERE id = %s", (k,))

    def _late(self, cur, rr) -> None:
        r = rr.random()
        if r < 0.6:
            cur.execute("INSERT INTO late (v, t) VALUES (%s, %s)", (rr.choice(DOUBLES), _stamp(rr, 0, 10**10, 3)))
        elif r < 0.8:
            cur.execute("UPDATE late SET v = -v WHERE id %% 7 = %s", (rr.randint(0, 6),))
        else:
            cur.execute("DELETE FROM late WHERE id %% 11 = %s", (rr.randint(0, 10),))

    def _grow(self, cur, rr) -> None:
        a = rr.randint(0, 30)
        r = rr.random()
        if r < 0.6:
            self.next_k += 2        # (k scattered: insertion order is not key order)
            cur.execute("INSERT INTO grow (k, a, s) VALUES (%s, %s, %s), (%s, %s, %s)",
                        (self.next_k * 7919 % 100003, a, "r", (self.next_k + 1) * 7919 % 100003, a, _text(rr, UNI, 5)))
        elif r < 0.8:
            cur.execute("UPDATE grow SET s = %s WHERE a = %s LIMIT 1", (_text(rr, UNI, 5), a))
        else:
            cur.execute("DELETE FROM grow WHERE a = %s LIMIT 1", (a,))


# ------------------------------------------------------------------------------------ comparison

_JSON_NULL = ("json", "null")


def _freeze(v):
    """A parsed JSON value as a hashable one; bools and null kept apart from numbers (True == 1)."""
    if isinstance(v, dict):
        return ("{}", tuple(sorted((k, _freeze(x)) for k, x in v.items())))
    if isinstance(v, list):
        return ("[]", tuple(_freeze(x) for x in v))
    if v is None:
        return _JSON_NULL
    if isinstance(v, bool):
        return ("bool", v)
    return v


def _json_value(text):
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    # (every number a Decimal: exact, 1e400 included; the document `null` stays a value)
    return ("json", _freeze(json.loads(text, parse_float=Decimal, parse_int=Decimal)))


#: MariaDB data type -> how a value of it is read and normalised (the module docstring)
_INTS = {"tinyint", "smallint", "mediumint", "int", "bigint", "year"}
_BYTES = {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob"}
_GEOMETRY = {"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
             "geometrycollection"}


def _kind(data_type: str, pg_type: str | None) -> str:
    if pg_type == "jsonb" or pg_type == "json":
        return "json"
    if data_type in _INTS:
        return "int"
    if data_type in ("decimal", "float", "double", "bit", "set", "timestamp", "char"):
        return data_type
    if data_type in _BYTES:
        return "bytes"
    if data_type in _GEOMETRY:
        return "geometry"
    if data_type in ("inet4", "inet6", "uuid"):
        return data_type[:4]
    return "plain"     # (DATE, DATETIME, TIME, VARCHAR, TEXT, ENUM: the driver's value as it is)


def _mariadb_expr(col: str, kind: str) -> str:
    q = f"`{col}`"
    # (GEOMETRY: the WKB, which the sink stores in bytea, the SRID being the column's: sinks/pg/types.py)
    return {"float": f"CAST({q} AS DOUBLE)", "bit": f"{q} + 0", "geometry": f"ST_AsBinary({q})"}.get(kind, q)


def _pg_expr(col: str, kind: str) -> str:
    q = '"' + col.replace('"', '""') + '"'
    return {"float": f"{q}::float8", "bit": f"{q}::text", "json": f"{q}::text"}.get(kind, q)


def _normal(kind: str, v, *, pg: bool):
    if v is None:
        return None
    if kind == "json":
        return _json_value(v)
    if kind == "int":
        return int(v)
    if kind == "decimal":
        return Decimal(v)
    if kind in ("float", "double"):
        return float(v)
    if kind == "bit":
        return int(v, 2) if pg else int(v)
    if kind == "set":
        return tuple(v) if pg else tuple(v.split(",")) if v else ()
    if kind == "timestamp":
        return v.astimezone(datetime.timezone.utc).replace(tzinfo=None) if pg else v
    if kind == "char":
        return v.rstrip(" ")       # (PostgreSQL's char(n) pads; MariaDB strips trailing spaces on read)
    if kind in ("bytes", "geometry"):
        return bytes(v)
    if kind == "inet":
        return ipaddress.ip_address(str(v))
    if kind == "uuid":
        return uuid.UUID(str(v))
    return v


def compare(server, pg_uri: str, database: str = DB, *, examples: int = 3) -> tuple[list[str], dict]:
    """Every table of ``database`` against its PostgreSQL table (schema ``database``), as multisets
    of normalised rows. Returns (problems, {table: rows in MariaDB})."""
    import psycopg

    problems, counts = [], {}
    conn = server.connect(database)
    try:
        with conn.cursor() as cur, psycopg.connect(pg_uri) as pg:
            cur.execute("SET SESSION time_zone = '+00:00'")
            cur.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY 1",
                        (database,))
            for (table,) in cur.fetchall():
                cur.execute(f"SELECT COUNT(*) FROM `{table}`")
                counts[table] = cur.fetchone()[0]
                cur.execute("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = %s "
                            "AND table_name = %s ORDER BY ordinal_position", (database, table))
                cols = cur.fetchall()
                pg_types = dict(pg.execute("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                           "table_schema = %s AND table_name = %s", (database, table)).fetchall())
                if not pg_types:
                    problems.append(f"{table}: no such table in PostgreSQL ({counts[table]} rows lost)")
                    continue
                missing = [c for c, _t in cols if c not in pg_types]
                if missing:
                    problems.append(f"{table}: columns missing in PostgreSQL: {missing}")
                    continue
                kinds = [(c, _kind(t, pg_types[c])) for c, t in cols]
                cur.execute("SELECT " + ", ".join(_mariadb_expr(c, k) for c, k in kinds) + f" FROM `{table}`")
                want = collections.Counter(tuple(_normal(k, v, pg=False) for (_c, k), v in zip(kinds, row, strict=True))
                                           for row in cur.fetchall())
                pg_rows = pg.execute("SELECT " + ", ".join(_pg_expr(c, k) for c, k in kinds)
                                     + f' FROM "{database}"."{table}"').fetchall()
                got = collections.Counter(tuple(_normal(k, v, pg=True) for (_c, k), v in zip(kinds, row, strict=True))
                                          for row in pg_rows)
                lost, extra = want - got, got - want
                if lost or extra:
                    names = [c for c, _k in kinds]
                    problems.append(f"{table}: {sum(lost.values())} row(s) of MariaDB not in PostgreSQL, "
                                    f"{sum(extra.values())} row(s) of PostgreSQL not in MariaDB "
                                    f"(of {sum(want.values())} / {sum(got.values())}; columns {names}); "
                                    f"lost e.g. {_show(lost, examples)}; extra e.g. {_show(extra, examples)}")
    finally:
        conn.close()
    return problems, counts


def _show(rows: collections.Counter, n: int) -> str:
    out = []
    for row, k in list(rows.items())[:n]:
        text = repr(row)
        out.append((text if len(text) < 400 else text[:400] + "...") + (f" x{k}" if k > 1 else ""))
    return "; ".join(out) or "none"


# ------------------------------------------------------------------------------------ the harness

@dataclasses.dataclass
class Report:
    """What a run did (``actions``, in order, with seconds since its start) and found (``problems``:
    empty when nothing was lost, duplicated, different or stopped)."""

    seed: int
    ingredients: tuple[str, ...]
    actions: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    rows: dict = dataclasses.field(default_factory=dict)
    transactions: int = 0
    runs: int = 0

    def text(self) -> str:
        head = (f"chaos seed {self.seed}, ingredients {','.join(self.ingredients) or 'none'}: "
                f"{self.transactions} transactions, {self.runs} runs, rows {self.rows}")
        return "\n".join([head, *("  " + a for a in self.actions),
                          *(f"PROBLEM: {p}" for p in self.problems or ["none"])])


def _checkpoint_gtid(pg_uri: str) -> str | None:
    import psycopg

    with psycopg.connect(pg_uri) as pg:
        if pg.execute("SELECT to_regclass('mysqlddl.mysqlddl_checkpoint')").fetchone() == (None,):
            return None
        row = pg.execute("SELECT state FROM mysqlddl.mysqlddl_checkpoint WHERE pipeline = %s", (PIPELINE,)).fetchone()
    if row is None or row[0] is None:
        return None
    return json.loads(row[0])["checkpoint"]["gtid_set"]


def _covers(have: str | None, want: str) -> bool:
    """MariaDB GTID positions (``domain-server-seq,...``, one per domain): ``have`` reaches ``want``."""
    def seqs(text):
        return {int(d): int(q) for d, _s, q in (x.split("-") for x in filter(None, (text or "").split(",")))}
    got = seqs(have)
    return have is not None and all(got.get(d, -1) >= q for d, q in seqs(want).items())


#: runs that may end by themselves (each a problem) before the harness stops starting them again
MAX_ENDS = 3


class GaveUp(Exception):
    """The run kept ending by itself: the scenario stops there (the tables are still compared)."""


class _Follower:
    """The `mysqlddl run` being tested: started again after each kill; notices a run that ended."""

    def __init__(self, conf: Path, workdir: Path, report: Report, clock):
        self.conf, self.workdir, self.report, self.clock = conf, workdir, report, clock
        self.env = {k: v for k, v in os.environ.items() if k != "MYSQLDDL_FAULT"}
        self.env["MYSQL_PWD"] = "repl"          # the lab's replication account (tools/mariadb_lab.py)
        self.proc: subprocess.Popen | None = None
        self.log: Path | None = None
        self.ended = 0
        self.last_tail = None

    def start(self) -> None:
        self.report.runs += 1
        self.log = self.workdir / f"run-{self.report.runs}.log"
        with open(self.log, "wb") as err:
            # (from workdir: with -m the working directory comes first on sys.path, and the checkout's
            # bare source package would shadow the installed one)
            self.proc = subprocess.Popen([sys.executable, "-m", "mysqlddl", "run", str(self.conf), "--summary", "none"],
                                         cwd=self.workdir, env=self.env, stdout=subprocess.DEVNULL, stderr=err)

    def check(self, after: str) -> bool:
        """False (and a problem) when the run ended by itself; it is then started again, up to
        :data:`MAX_ENDS` times (a run that ends at the same event each time would end forever):
        then :class:`GaveUp`."""
        if self.proc.poll() is None:
            return True
        tail = self.log.read_text(errors="replace")[-700:].strip()
        self.ended += 1
        if tail == self.last_tail:
            self.report.problems.append(f"run {self.report.runs} ended the same way (exit code {self.proc.returncode})")
        else:
            self.report.problems.append(f"run {self.report.runs} ended by itself with exit code {self.proc.returncode} "
                                        f"at {self.clock():.1f} s (last action: {after}); its stderr ends: {tail!r}")
        self.last_tail = tail
        self.report.actions.append(f"{self.clock():6.1f} s  run {self.report.runs} had ended "
                                   f"(rc {self.proc.returncode})")
        if self.ended >= MAX_ENDS:
            raise GaveUp(f"gave up after {self.ended} runs ended by themselves")
        self.start()
        return False

    def kill(self, sig=signal.SIGKILL) -> int:
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(60)


def _kill_dump(server, deadline: float) -> list[int]:
    """KILL the server's Binlog Dump thread(s); waits (until ``deadline``) for one while the run
    is (re)connecting."""
    while True:
        ids = [int(r[0]) for r in server.query("SHOW PROCESSLIST") if str(r[4]).startswith("Binlog Dump")]
        if ids or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for i in ids:
        try:
            server.execute(f"KILL {i}")
        except Exception:
            pass            # (it ended meanwhile)
    return ids


def _crash(server) -> None:
    """SIGKILL the server and wait for it to be gone (the files stay: a process crash loses nothing
    the OS was given, so the binlog and InnoDB agree after its recovery)."""
    pid = int(server.pidfile.read_text().strip())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        proc = getattr(server, "_proc", None)
        if proc is not None and proc.pid == pid:
            if proc.poll() is not None:
                return
        else:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.05)
    raise RuntimeError(f"mariadbd pid {pid} still there 60 s after SIGKILL")


def write_pipeline(path: Path, server, pg_uri: str, server_id: int) -> Path:
    path.write_text(f'name = "{PIPELINE}"\n[source]\nuri = "mysql://repl@127.0.0.1:{server.port}/?server-id={server_id}'
                    f'&heartbeat=1"\n[sink]\nuri = "{pg_uri}"\n[checkpoint]\nevery_transactions = 20\n'
                    f'every_ms = 300\n[changes]\ndatabases = ["{DB}"]\n[stats]\nprogress = "never"\n',
                    encoding="utf-8")
    return path


def _disturb(server, schedule, seconds, follower, writer, rr, clock, act) -> str:
    """The writer's time: the scheduled kills and restarts, the run watched in between; then the
    writer is stopped. Returns the last action (for the messages)."""
    last = "start"
    try:
        for at, what in schedule:
            while clock() < at:
                follower.check(last)
                time.sleep(0.1)
            if what == "sigkill" and rr.random() < 0.25:
                # (now and then a stop asked for: it must end cleanly, its last batch committed)
                rc = follower.kill(signal.SIGTERM)
                act(f"run {follower.report.runs} SIGTERMed: exit code {rc} ({writer.transactions} transactions so far)")
                if rc != 0:
                    follower.report.problems.append(
                        f"run {follower.report.runs} stopped by SIGTERM exited {rc}, not 0: "
                        f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")
                follower.start()
            elif what == "sigkill":
                follower.kill()
                act(f"run {follower.report.runs} SIGKILLed ({writer.transactions} transactions so far)")
                follower.start()
            elif what == "server_restart":
                server.stop()
                act("MariaDB shut down cleanly")
                time.sleep(rr.uniform(0.2, 1.5))
                server.start()
                act("MariaDB started again on its port")
            elif what == "server_crash":
                _crash(server)
                act("MariaDB SIGKILLed (crash recovery at its start)")
                time.sleep(rr.uniform(0.2, 1.5))
                server.start()
                act("MariaDB started again on its port")
            else:
                ids = _kill_dump(server, time.monotonic() + 10)
                act(f"Binlog Dump thread(s) {ids} killed" if ids else "no Binlog Dump thread found to kill")
            last = f"{what} at {at:.1f} s"
        while clock() < seconds:
            follower.check(last)
            time.sleep(0.1)
    finally:
        writer.stop.set()
        writer.join(60)
        report = follower.report
        report.transactions = writer.transactions
        act(f"writer stopped: {writer.transactions} transactions, {writer.rollbacks} rolled back, "
            f"{writer.reconnects} reconnects; schema changes: {'; '.join(writer.ddl_done) or 'none'}")
        if writer.error is not None:
            report.problems.append(f"the writer failed: {writer.error!r}")
    return last


def _catch_up_and_stop(server, pg_uri, follower, catch_up_s, last, report, act) -> None:
    """The run must reach the server's GTID position (its checkpoint in the target), then stop on
    SIGTERM with exit code 0."""
    want = server.query("SELECT @@GLOBAL.gtid_binlog_pos")[0][0]
    deadline = time.monotonic() + catch_up_s
    have = None
    while time.monotonic() < deadline:
        follower.check(f"{last}, then the writer stopped")
        try:
            have = _checkpoint_gtid(pg_uri)
        except Exception as e:          # (the checkpoint table not made yet, a run restarting)
            have = f"(unreadable: {e})"
        if _covers(have, want):
            break
        time.sleep(0.3)
    else:
        report.problems.append(f"the run did not catch up within {catch_up_s:g} s: the target's checkpoint is at "
                               f"GTID {have!r}, the server at {want!r}; last run's stderr ends: "
                               f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")
    act(f"caught up at GTID {have}" if _covers(have, want) else "not caught up")
    if follower.check(f"{last}, caught up"):
        rc = follower.kill(signal.SIGTERM)
        act(f"run {report.runs} stopped by SIGTERM: exit code {rc}")
        if rc != 0:
            report.problems.append(f"run {report.runs} stopped by SIGTERM exited {rc}, not 0: "
                                   f"{follower.log.read_text(errors='replace')[-700:].strip()!r}")


def run(server, pg_uri: str, workdir: Path, *, seed: int, seconds: float = 30.0, kills: int = 3,
        restarts: int = 1, dump_kills: int = 1, ingredients=INGREDIENTS, server_id: int = 4242,
        catch_up_s: float = 120.0, log=None) -> Report:
    """The scenario of the module docstring on ``server`` (a tools/mariadb_lab.MariaDBServer, with
    no database ``chaos`` yet) into the empty PostgreSQL database ``pg_uri``. ``log``: called with
    each action as it happens."""
    unknown = set(ingredients) - set(INGREDIENTS)
    if unknown:
        raise ValueError(f"unknown ingredients {sorted(unknown)}; known: {', '.join(INGREDIENTS)}")
    ingredients = tuple(i for i in INGREDIENTS if i in ingredients)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    rr = random.Random(seed)
    report = Report(seed, ingredients)
    t0 = time.monotonic()

    def clock() -> float:
        return time.monotonic() - t0

    def act(text: str) -> None:
        report.actions.append(f"{clock():6.1f} s  {text}")
        if log:
            log(report.actions[-1])

    # (SHOW SLAVE HOSTS, the server-id check, needs this on MariaDB 10.5.2+: not binlogged)
    server.execute("SET SESSION sql_log_bin = 0",
                   f"GRANT REPLICATION MASTER ADMIN ON *.* TO '{server.REPL_USER}'@'127.0.0.1'")
    if server.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (DB,)):
        raise ValueError(f"the server already has a database {DB!r}: the harness needs a server of its own "
                         "(its binlog read from the start must hold this run only; with --keep, a new directory)")
    server.execute(f"CREATE DATABASE {DB}")
    server.execute(*(sql for _n, sql in tables(ingredients)), database=DB)
    conf = write_pipeline(workdir / "chaos.toml", server, pg_uri, server_id)
    schedule = [(rr.uniform(0.05, 0.95) * seconds, "sigkill") for _ in range(kills)]
    if "server_restart" in ingredients:
        schedule += [(rr.uniform(0.2, 0.8) * seconds, "server_restart") for _ in range(restarts)]
    if "server_crash" in ingredients:
        schedule += [(rr.uniform(0.2, 0.8) * seconds, "server_crash") for _ in range(restarts)]
    if "kill_dump" in ingredients:
        schedule += [(rr.uniform(0.1, 0.9) * seconds, "kill_dump") for _ in range(dump_kills)]
    schedule.sort()
    ddl = []
    if "ddl" in ingredients:
        ddl += [(f * seconds, sql) for f, sql in zip(sorted(rr.uniform(0.1, 0.9) for _ in SCHEMA_CHANGES),
                                                     SCHEMA_CHANGES, strict=True)]
    if "add_auto_increment" in ingredients:
        ddl.append((rr.uniform(0.3, 0.6) * seconds,
                    "ALTER TABLE grow ADD COLUMN id INT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST"))
    writer = Writer(server, rr.randrange(1 << 30), ingredients, ddl=ddl)
    follower = _Follower(conf, workdir, report, clock)
    follower.start()
    act(f"run 1 started (pid {follower.proc.pid}); writer started")
    writer.start()
    try:
        last = _disturb(server, schedule, seconds, follower, writer, rr, clock, act)
        _catch_up_and_stop(server, pg_uri, follower, catch_up_s, last, report, act)
    except GaveUp as e:
        report.problems.append(f"{e}: the scenario stopped there (the differences below may all come from it)")
        act(str(e))
    finally:
        writer.stop.set()
        writer.join(60)
        if follower.proc.poll() is None:
            follower.kill()
    problems, report.rows = compare(server, pg_uri)
    report.problems += problems
    act(f"compared {len(report.rows)} tables: {'no difference' if not problems else f'{len(problems)} problem(s)'}")
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the writer writes")
    ap.add_argument("--kills", type=int, default=5, help="SIGKILLs of the run")
    ap.add_argument("--restarts", type=int, default=1, help="server restarts (ingredient server_restart)")
    ap.add_argument("--dump-kills", type=int, default=2, help="killed dump threads (ingredient kill_dump)")
    ap.add_argument("--without", default="", help=f"ingredients left out, comma-separated: {', '.join(INGREDIENTS)}")
    ap.add_argument("--keep", type=Path, help="a directory for the servers and logs, kept afterwards")
    args = ap.parse_args(argv)
    left_out = {x.strip() for x in args.without.split(",") if x.strip()}
    if left_out - set(INGREDIENTS):
        ap.error(f"unknown ingredients {sorted(left_out - set(INGREDIENTS))}; known: {', '.join(INGREDIENTS)}")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import mariadb_lab
    import pg_lab

    base = args.keep or Path(tempfile.mkdtemp(prefix="chaos-"))
    base.mkdir(parents=True, exist_ok=True)
    mdb = mariadb_lab.MariaDBServer(base / "mdb")
    pg = pg_lab.PgServer(base / "pg", fsync=False)
    try:
        mdb.start()
        pg.start()
        report = run(mdb, pg.create_database("chaos"), base / "work", seed=args.seed, seconds=args.seconds,
                     kills=args.kills, restarts=args.restarts, dump_kills=args.dump_kills,
                     ingredients=[i for i in INGREDIENTS if i not in left_out], log=print)
    finally:
        if args.keep:
            mdb.stop()
            pg.stop()
        else:
            mdb.destroy()
            pg.destroy()
    print(report.text())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
