"""The chaos harness's workload (tools/chaos.py): the tables, the seeded writer, and the value-by-value
comparison of every table with its PostgreSQL copy.

- :func:`tables`: the CREATE TABLE of each table a run writes (``types``: every column type the
  PostgreSQL sink maps, sinks/pg/types.py, generated columns included; ``uq``: a UNIQUE NOT NULL key
  and no primary key; ``kl``: keyless, duplicate rows; per ingredient ``kf``, ``js``, ``grow``;
  ``late``, made mid-run by the ``ddl`` ingredient, :data:`SCHEMA_CHANGES`);
- :class:`Writer`: the seeded transactions (tools/chaos.py's docstring says which);
- :func:`compare`: MariaDB's rows against PostgreSQL's as multisets, each value normalised by its
  MariaDB type: integers and DECIMAL exactly (Decimal), FLOAT as the server's ``CAST(col AS DOUBLE)``
  against PostgreSQL's ``col::float8`` (both the exact single-precision value: the server prints a
  FLOAT with 6 digits), DOUBLE as the value the server returns, BIT as its integer, TIMESTAMP in
  UTC, SET as its members, GEOMETRY as its WKB, INET4/INET6/UUID as addresses and UUIDs, CHAR
  without its padding, JSON parsed with every number a Decimal (exact, 1e400 included) and the
  document ``null`` distinct from SQL NULL.

Loaded by tools/chaos.py (tools/ is not a package: by file, as tests/conftest.py's ``tool()``).
"""

from __future__ import annotations

import collections
import datetime
import ipaddress
import json
import random
import threading
import time
import uuid
from decimal import Decimal

DB = "chaos"


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
