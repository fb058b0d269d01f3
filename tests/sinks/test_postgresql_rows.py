"""The PostgreSQL sink's row conversion without a server: the compiled tuple path
(:meth:`RowConverter.batch`, a rows event's full images) gives what the image path gives, value for
value and type for type, and the value policy counts the same, also for values it must change."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from mysqlddl.ddl import run_script
from mysqlddl.errors import ValuePolicyError
from mysqlddl.mapping import Mapping
from mysqlddl.model.catalog import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.options import DEFAULT
from mysqlddl.sinks.pg import ddl as D
from mysqlddl.sinks.pg.rows import RowConverter
from mysqlddl.sinks.pg.types import PgOptions, ValuePolicy
from mysqlddl.sinks.pg.values import PolicyCounts

DDL = ("CREATE TABLE t (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, i INT, ti TINYINT, si SMALLINT UNSIGNED, "
       "d DECIMAL(10,2), f DOUBLE, dt DATETIME(6), dd DATE, ts TIMESTAMP(3) NULL, tm TIME, "
       "v VARCHAR(20), e ENUM('a','b'), s SET('x','y'), b VARBINARY(8), bt BIT(4), j JSON, ok TINYINT(1))")
NAMES = ("id", "i", "ti", "si", "d", "f", "dt", "dd", "ts", "tm", "v", "e", "s", "b", "bt", "j", "ok")
DT = datetime.datetime(2024, 2, 29, 12, 30, 1, 5)

ROWS = [
    (1, 7, -3, 65535, Decimal("1.25"), 1.5, DT, datetime.date(2024, 1, 2), DT, datetime.timedelta(seconds=5),
     "plain", "a", "x,y", b"\x00\x01", 5, {"k": [1, "é"]}, 1),
    (2, None, None, None, None, None, None, None, None, None, None, None, None, None, None, None, None),
    (3, True, 0, 0, Decimal("-0.01"), 2, "0000-00-00 00:00:00", "2020-00-15", "0000-00-00 00:00:00", "-838:59:59",
     "näive ünïcode", "b", "", bytearray(b"ab"), b"\x0f", "text", 2),
    (4, 1 << 40, 1, 1, Decimal(0), -0.0, DT, DT, DT.replace(tzinfo=datetime.timezone.utc), datetime.timedelta(0),
     "nul\x00inside", "a\udcff", ("x",), "str as bytes", 0, None, 0),
]


def converter(policy=ValuePolicy.CLAMP, opts=None):
    opts = opts or PgOptions()
    cat = run_script(Catalog.empty(DEFAULT), "CREATE DATABASE d; USE d; " + DDL, DEFAULT).catalog
    tt = D.resolve(cat.table(TableId("d", "t")), Mapping(), opts)
    counts = PolicyCounts()
    return tt, RowConverter(policy, counts, opts.json_text), counts


def typed(vals):
    return [(type(v), v) for v in vals]


@pytest.mark.parametrize("policy", [ValuePolicy.CLAMP, ValuePolicy.NULL])
@pytest.mark.parametrize("opts", [PgOptions(), PgOptions(tinyint1_boolean=False)])
def test_tuple_path_equals_image_path(policy, opts):
    tt, fast, fast_counts = converter(policy, opts)
    _tt2, slow, slow_counts = converter(policy, opts)
    cols, vals, keys, moves = fast.batch(tt, "c", NAMES, ROWS, "here")
    assert keys is None and moves is None
    convs = slow.converters(tt)
    for row, got in zip(ROWS, vals, strict=True):
        want_cols, want = slow.image(convs, dict(zip(NAMES, row, strict=True)), "here")
        assert [c.name for c in cols] == [c.name for c in want_cols]
        assert typed(got) == typed(want)
    assert fast_counts == slow_counts and fast_counts       # (rows 3 and 4 hold values the policy changed)


def test_tuple_path_keys_and_updates():
    tt, conv, _counts = converter()
    cols, payloads, keys, moves = conv.batch(tt, "d", NAMES, ROWS[:2], "here")
    assert payloads == [(1,), (2,)] and keys == [(1,), (2,)] and moves == [False, False]
    pairs = [(ROWS[0], ROWS[0][:1] + ROWS[1][1:]), (ROWS[1], (9,) + ROWS[1][1:])]
    cols, payloads, keys, moves = conv.batch(tt, "u", NAMES, pairs, "here")
    assert moves == [False, True] and keys == [(1,), (2,)]
    assert payloads[0][:2] == (1, 1) and payloads[0][2] is None      # staged: the key, then the after image
    bcols, bvals, avals = payloads[1]                                  # row by row: a key moved
    assert bcols is cols and bvals[0] == 2 and avals[0] == 9


def test_tuple_path_policy_error():
    tt, conv, _counts = converter(ValuePolicy.ERROR)
    with pytest.raises(ValuePolicyError) as e:
        conv.batch(tt, "c", NAMES, ROWS[2:3], "f:4")
    assert e.value.position == "f:4"


# ---------------------------------------------------------------------------- COPY text (a server)
COPY_COLS = (("i", "bigint", "int"), ("n", "numeric", "numeric"), ("f", "double precision", "float"),
             ("s", "text", "text"), ("b", "bytea", "bytea"), ("d", "date", "date"), ("ts", "timestamp(6)", "timestamp"),
             ("tz", "timestamptz(6)", "timestamptz"), ("ok", "boolean", "bool"))
UTC = datetime.timezone.utc
COPY_ROWS = [
    (1, Decimal("1.25"), 1.5, "plain", b"\x00\x01\\", datetime.date(1, 1, 1), DT, DT.replace(tzinfo=UTC), True),
    (-(1 << 63), Decimal("1E+3"), -0.0, "tab\there\nnew\rline \\ back\\slash \\N \\.", b"", datetime.date(9999, 12, 31),
     datetime.datetime(1, 1, 1), datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=5))),
     False),
    (None, None, None, None, None, None, None, None, None),
    (0, 12345678901234567890, 1e-300, "ünïcode ☃ \U0001f600", bytes(range(256)), datetime.date(2024, 2, 29),
     datetime.datetime(2024, 2, 29, 23, 59, 59, 999999), DT.replace(tzinfo=UTC), True),
    (7, Decimal("-0"), 1.7976931348623157e308, "", b"\n\t", None, None, None, None),
    (8, Decimal("0E-10"), 5e-324, "\\", b"x", None, None, None, None),
]


def test_copy_text_stores_what_the_driver_stores(pg_server):
    """Each value written as COPY text lines reads back equal to the same value written by the
    driver's write_row (and an unformatted value raises Unformatted, not a wrong line)."""
    psycopg = pytest.importorskip("psycopg")
    from mysqlddl.sinks.pg.copytext import Unformatted, formatter

    fmt = formatter(tuple(k for _n, _t, k in COPY_COLS))
    assert fmt is not None
    uri = pg_server.create_database("copytext")
    decl = ", ".join(f"{n} {t}" for n, t, _k in COPY_COLS)
    names = ", ".join(n for n, _t, _k in COPY_COLS)
    with psycopg.connect(uri) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        for t in ("ours", "driver"):
            conn.execute(f"CREATE TABLE {t} (seq int, {decl})")
        rows = [(i, *r) for i, r in enumerate(COPY_ROWS)]
        with conn.cursor().copy(f"COPY ours (seq, {names}) FROM STDIN") as cp:
            cp.write(formatter(("int",) + tuple(k for _n, _t, k in COPY_COLS))(rows))
        with conn.cursor().copy(f"COPY driver (seq, {names}) FROM STDIN") as cp:
            for r in rows:
                cp.write_row(r)
        ours = conn.execute("SELECT * FROM ours ORDER BY seq").fetchall()
        driver = conn.execute("SELECT * FROM driver ORDER BY seq").fetchall()
    assert len(ours) == len(COPY_ROWS) and ours == driver
    assert [str(r[4]) for r in ours[:2]] == ["plain", COPY_ROWS[1][3]]
    for bad in ([(float("inf"),) + COPY_ROWS[0][1:]], [(1, "1.5") + COPY_ROWS[0][2:]]):
        with pytest.raises(Unformatted):
            fmt(bad)
    assert formatter(("int", "interval")) is None
