"""mysqlddl.sinks.typed: the Arrow type of each column of a table version, and row changes turned into
Arrow tables of that schema, with the values a column's type cannot hold nulled and counted.
(The Spark job's typed datasets against the CLI, on real binlogs: tests/spark/test_job.py.)"""

from __future__ import annotations

import datetime
import decimal

import pytest

from mysqlddl.binlog.values.geometry import Geometry
from mysqlddl.binlog.values.jsonb import JsonPartialUpdate
from mysqlddl.errors import ConfigError
from mysqlddl.model.column import Column
from mysqlddl.model.ids import TableId
from mysqlddl.model.table import Table
from mysqlddl.sinks import typed
from mysqlddl.sinks.jsonl import json_value

# pyarrow comes with the spark extra: these run in tox's spark environment, with the Spark tests
pytestmark = pytest.mark.spark

UTC = datetime.timezone.utc


@pytest.mark.parametrize(("col", "want"), [
    (Column("a", "tinyint"), lambda pa: pa.int8()),
    (Column("a", "tinyint", unsigned=True), lambda pa: pa.uint8()),
    (Column("a", "smallint", unsigned=True), lambda pa: pa.uint16()),
    (Column("a", "mediumint"), lambda pa: pa.int32()),
    (Column("a", "mediumint", unsigned=True), lambda pa: pa.uint32()),
    (Column("a", "int"), lambda pa: pa.int32()),
    (Column("a", "bigint", unsigned=True), lambda pa: pa.uint64()),
    (Column("a", "decimal", length=38, scale=38), lambda pa: pa.decimal128(38, 38)),
    (Column("a", "decimal", length=39, scale=0), lambda pa: pa.decimal256(39, 0)),
    (Column("a", "decimal", length=65, scale=30), lambda pa: pa.decimal256(65, 30)),
    (Column("a", "decimal"), lambda pa: pa.decimal128(10, 0)),   # DECIMAL alone is DECIMAL(10,0)
    (Column("a", "float"), lambda pa: pa.float32()),
    (Column("a", "double"), lambda pa: pa.float64()),
    (Column("a", "bit", length=64), lambda pa: pa.uint64()),
    (Column("a", "year"), lambda pa: pa.int16()),
    (Column("a", "date"), lambda pa: pa.date32()),
    (Column("a", "datetime", fsp=6), lambda pa: pa.timestamp("us")),
    (Column("a", "timestamp"), lambda pa: pa.timestamp("us", tz="UTC")),
    (Column("a", "time", fsp=3), lambda pa: pa.duration("us")),
    (Column("a", "varchar", length=10, charset="utf8mb4"), lambda pa: pa.string()),
    (Column("a", "enum", values=("x", "y")), lambda pa: pa.string()),
    (Column("a", "set", values=("x", "y")), lambda pa: pa.string()),
    (Column("a", "json"), lambda pa: pa.string()),
    (Column("a", "varbinary", length=10), lambda pa: pa.binary()),
    (Column("a", "longblob"), lambda pa: pa.binary()),
    (Column("a", "point"), lambda pa: pa.struct([("srid", pa.uint32()), ("wkb", pa.binary())])),
    (Column("a", "vector", length=3), lambda pa: pa.list_(pa.float32())),
    (Column("a", "inet6"), lambda pa: pa.string()),
    (Column("a", "uuid"), lambda pa: pa.string()),
    (Column("a", "unknown"), lambda pa: pa.string()),
])
def test_column_types(col, want):
    import pyarrow as pa

    assert typed.column_type(col)[0] == want(pa)


def _table(*cols):
    return Table(TableId("db", "t"), columns=tuple(cols))


def test_schema_starts_with_the_change_fields_and_refuses_a_column_named_like_them():
    schema = typed.arrow_schema(_table(Column("id", "int"), Column("v", "varchar", length=5)))
    assert schema.names == [n for n, _ in typed.META_COLUMNS] + ["id", "v"]
    with pytest.raises(ConfigError, match="__op"):
        typed.arrow_schema(_table(Column("__op", "int")))


def test_rows_become_an_arrow_table_with_the_cli_values():
    t = _table(Column("id", "bigint", unsigned=True), Column("d", "decimal", length=40, scale=3),
               Column("f", "float"), Column("day", "date"), Column("at", "datetime", fsp=6),
               Column("ts", "timestamp", fsp=6), Column("dur", "time", fsp=6),
               Column("s", "set", values=("a", "b")), Column("b", "varbinary", length=8),
               Column("g", "geometry"), Column("vec", "vector", length=2))
    row = {"id": 2**64 - 1, "d": decimal.Decimal("-1234567890123456789012345678901234567.125"),
           "f": 1.5, "day": datetime.date(2024, 2, 29), "at": datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
           "ts": datetime.datetime(2038, 1, 19, 3, 14, 7, 1, tzinfo=UTC), "dur": -datetime.timedelta(hours=838),
           "s": "a,b", "b": b"\x00\xff", "g": Geometry(4326, b"\x01\x01\x00\x00\x00" + bytes(16)),
           "vec": (0.5, -2.0)}
    rows = typed.TypedRows()
    key = ("db", "t", "3-400")
    assert rows.add_image(key, t, ("c", 3, 500, 0, 1_700_000_000_000, "0-1-9"), row) == 1
    assert rows.add(key, t, ("d", 3, 600, 1, 1_700_000_000_000, None), (None,) * len(row)) == 2
    out = rows.flush(key)
    assert out.schema == typed.arrow_schema(t)
    first, second = out.to_pylist()
    assert {k: first[k] for k in ("__op", "__file_seq", "__pos", "__row", "__gtid")} == \
        {"__op": "c", "__file_seq": 3, "__pos": 500, "__row": 0, "__gtid": "0-1-9"}
    assert {k: json_value(first[k]) for k in row} == {k: json_value(v) for k, v in row.items()}
    assert all(second[k] is None for k in row) and second["__op"] == "d"
    assert rows.rows == {key: 2} and not rows.nulled and not rows.absent and not rows.pending


def test_values_the_type_cannot_hold_are_null_and_counted():
    """Zero and invalid dates come from the decoder as text; an absent column (MINIMAL image) has
    no key; a partial JSON update is a diff, not a document."""
    t = _table(Column("day", "date"), Column("ts", "timestamp"), Column("n", "int"), Column("j", "json"))
    rows = typed.TypedRows()
    key = ("db", "t", "0-0")
    rows.add_image(key, t, ("c", 1, 4, 0, 0, None),
                   {"day": "0000-00-00", "ts": "0000-00-00 00:00:00", "n": 1, "j": "{}"})
    rows.add_image(key, t, ("u", 1, 9, 0, 0, None), {"day": datetime.date(2000, 1, 1), "ts": True,
                                                     "j": JsonPartialUpdate(())})
    out = rows.flush(key).to_pylist()
    assert [r["day"] for r in out] == [None, datetime.date(2000, 1, 1)]
    assert [r["ts"] for r in out] == [None, None] and [r["n"] for r in out] == [1, None]
    assert [r["j"] for r in out] == ["{}", None]
    assert rows.nulled == {"db.t.day": 1, "db.t.ts": 2, "db.t.j": 1}
    assert rows.absent == {"db.t.n": 1}


def test_a_column_of_no_known_type_holds_the_cli_rendering():
    t = _table(Column("x", "unknown"))
    rows = typed.TypedRows()
    rows.add(("db", "t", "0-0"), t, ("c", 1, 4, 0, 0, None), ({"k": b"\x01"},))
    assert rows.flush(("db", "t", "0-0")).to_pylist()[0]["x"] == '{"k":"AQ=="}'


def test_fields_carry_their_mysql_type_and_enum_set_columns_are_dictionary_encoded():
    schema = typed.arrow_schema(_table(Column("id", "int", unsigned=True), Column("e", "enum", values=("a", "b")),
                                       Column("s", "set", values=("x",)), Column("v", "varchar", length=9)))
    assert schema.field("id").metadata == {b"mysql_type": b"int unsigned"}
    assert schema.field("e").metadata == {b"mysql_type": b"enum('a','b')"}
    assert typed.dictionary_columns(schema) == ["__op", "__gtid", "e", "s"]
