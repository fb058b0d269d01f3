"""Column values in the Debezium format, per type and per handling mode, against the facts of
Debezium's MySQL connector documentation (mysql.adoc, "Data type mappings": "Basic types",
"Temporal types", "Decimal types", "Boolean values", "Spatial types"; "Connector properties" for the
modes) and the expected values of Debezium's own tests where cited."""

from __future__ import annotations

import base64
import datetime
import decimal
import struct

import pytest

import mysqlddl
from mysqlddl.binlog.values.geometry import Geometry
from mysqlddl.changes.values import value_family
from mysqlddl.errors import ConfigError
from mysqlddl.model.catalog import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.sinks.debezium import DebeziumOptions
from mysqlddl.sinks.debezium.values import NO_DEFAULT, column_codec, default_json, unscaled_bytes, zoned_text

UTC = datetime.timezone.utc


def codec(sqltype: str, **opts):
    cat = mysqlddl.apply_script(Catalog(), f"CREATE DATABASE d; CREATE TABLE d.t (c {sqltype}) DEFAULT CHARSET utf8mb4")
    table = cat.table(TableId("d", "t"))
    col = table.columns[0]
    return column_codec(col, value_family(col, table), DebeziumOptions(**opts))


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


# -- "Basic types" -------------------------------------------------------------------------------

@pytest.mark.parametrize(("sqltype", "kind"), [
    ("TINYINT", "int16"), ("TINYINT UNSIGNED", "int16"), ("SMALLINT", "int16"), ("SMALLINT UNSIGNED", "int32"),
    ("MEDIUMINT", "int32"), ("MEDIUMINT UNSIGNED", "int32"), ("INT", "int32"), ("INTEGER", "int32"),
    ("INT UNSIGNED", "int64"), ("BIGINT", "int64"), ("BIGINT UNSIGNED", "int64"),
    ("REAL", "float"), ("FLOAT", "float"), ("FLOAT(10)", "float"), ("FLOAT(30)", "double"), ("FLOAT(7,2)", "double"),
    ("DOUBLE", "double"), ("CHAR(3)", "string"), ("VARCHAR(10)", "string"), ("TINYTEXT", "string"),
    ("TEXT", "string"), ("LONGTEXT", "string"), ("BINARY(4)", "bytes"), ("VARBINARY(4)", "bytes"),
    ("TINYBLOB", "bytes"), ("BLOB", "bytes"), ("MEDIUMBLOB", "bytes"), ("LONGBLOB", "bytes"),
    ("BOOLEAN", "boolean"), ("BOOL", "boolean"), ("BIT(1)", "boolean"), ("BIT", "boolean"),
])
def test_basic_type_literal_types(sqltype, kind):
    # mysql.adoc "Basic types": the literal type column (TINYINT INT16, REAL FLOAT32, FLOAT(P): P 0-23
    # FLOAT32, 24-53 FLOAT64, FLOAT(M,D) FLOAT64, BIT(1) and BOOLEAN BOOLEAN, BINARY..BLOB BYTES)
    assert codec(sqltype).schema["type"] == kind


def test_integers_and_bigint_unsigned_modes():
    assert codec("INT").encode(-5) == -5
    assert codec("INT UNSIGNED").encode(4294967295) == 4294967295
    # bigint.unsigned.handling.mode=long: Java's long, so 2^64 - 1 reads back as -1
    assert codec("BIGINT UNSIGNED").encode(18446744073709551615) == -1
    assert codec("BIGINT UNSIGNED").encode(9223372036854775807) == 9223372036854775807
    # precise: Kafka Connect Decimal with scale 0 (the property's description)
    c = codec("BIGINT UNSIGNED", bigint_unsigned_handling_mode="precise")
    assert c.schema["name"] == "org.apache.kafka.connect.data.Decimal"
    assert c.schema["parameters"] == {"scale": "0", "connect.decimal.precision": "20"}
    assert base64.b64decode(c.encode(18446744073709551615)) == b"\x00" + b"\xff" * 8


def test_boolean_and_bits():
    # "Boolean values": BOOLEAN is TINYINT(1) underneath; a non-zero value is true
    assert codec("BOOLEAN").encode(1) is True and codec("BOOLEAN").encode(0) is False
    assert codec("BOOLEAN").encode(-3) is True
    assert codec("BIT(1)").encode(1) is True
    # BIT(>1): io.debezium.data.Bits, `length` = number of bits, little-endian, n/8 rounded up bytes
    c = codec("BIT(10)")
    assert c.schema["name"] == "io.debezium.data.Bits" and c.schema["parameters"] == {"length": "10"}
    assert base64.b64decode(c.encode(0b1000000001)) == bytes([0x01, 0x02])
    assert base64.b64decode(codec("BIT(64)").encode(0x8000000000000000)) == b"\x00" * 7 + b"\x80"
    assert base64.b64decode(codec("BIT(8)").encode(0xA5)) == b"\xa5"


def test_float32_prints_as_java_prints_a_float():
    c = codec("FLOAT")
    as_f32 = struct.unpack("<f", struct.pack("<f", 1.1))[0]      # what the binlog holds
    assert c.encode(as_f32) == 1.1
    assert c.encode(struct.unpack("<f", struct.pack("<f", 3.402823466e38))[0]) == 3.4028235e38


def test_float_columns_as_in_debeziums_float_test():
    # Debezium MySqlFloatIT.shouldHandleFloatAsFloatAndDouble (DBZ-3865), table DBZ3865_2 with the row
    # (5.6, 5.61, 30.123456, 64.1, 64.1, 64.1, 64.1234): FLOAT float32 5.6; FLOAT(10,2) and FLOAT(35,5)
    # float64 holding the float32 widened; FLOAT(23) and FLOAT(24) float32; FLOAT(25) (a DOUBLE)
    # float64 64.1; FLOAT UNSIGNED float32
    def f32(x):
        return struct.unpack("<f", struct.pack("<f", x))[0]     # the binlog's FLOAT value
    assert (codec("FLOAT").schema["type"], codec("FLOAT").encode(f32(5.6))) == ("float", 5.6)
    for t, v in (("FLOAT(10,2)", 5.61), ("FLOAT(35,5)", 30.12346)):
        assert (codec(t).schema["type"], codec(t).encode(f32(v))) == ("double", f32(v))
    for t in ("FLOAT(23)", "FLOAT(24)"):
        assert (codec(t).schema["type"], codec(t).encode(f32(64.1))) == ("float", 64.1)
    assert (codec("FLOAT(25)").schema["type"], codec("FLOAT(25)").encode(64.1)) == ("double", 64.1)
    assert (codec("FLOAT UNSIGNED").schema["type"], codec("FLOAT UNSIGNED").encode(f32(64.1234))) == \
        ("float", 64.1234)


def test_enum_set_json():
    # "Basic types": ENUM io.debezium.data.Enum / SET io.debezium.data.EnumSet, `allowed` = the
    # comma-separated values; JSON io.debezium.data.Json, the document's text
    e = codec("ENUM('small','medium','large')")
    assert e.schema == {"type": "string", "optional": True, "name": "io.debezium.data.Enum", "version": 1,
                        "parameters": {"allowed": "small,medium,large"}}
    assert e.encode("medium") == "medium"
    s = codec("SET('a','b','c')")
    assert s.schema["name"] == "io.debezium.data.EnumSet" and s.schema["parameters"] == {"allowed": "a,b,c"}
    assert s.encode("a,c") == "a,c"
    # a comma inside a member is escaped in `allowed` (MySqlAntlrDdlParser.extractEnumAndSetOptions)
    assert codec("ENUM('a,b','it''s')").schema["parameters"] == {"allowed": "a\\,b,it's"}
    j = codec("JSON")
    assert (j.schema["type"], j.schema["name"]) == ("string", "io.debezium.data.Json")
    assert j.encode('{"k": [1, 2]}') == '{"k": [1, 2]}'


# -- binary.handling.mode ------------------------------------------------------------------------

@pytest.mark.parametrize(("mode", "kind", "text"), [
    ("bytes", "bytes", "+//A"), ("base64", "string", "+//A"), ("base64-url-safe", "string", "-__A"),
    ("hex", "string", "fbffc0"),
])
def test_binary_handling_modes(mode, kind, text):
    # "Connector properties", binary.handling.mode: bytes (the JSON converter writes BYTES as base64),
    # base64, base64-url-safe, hex
    c = codec("VARBINARY(8)", binary_handling_mode=mode)
    assert c.schema["type"] == kind
    assert c.encode(b"\xfb\xff\xc0") == text


# -- "Decimal types" -----------------------------------------------------------------------------

def test_decimal_precise_is_the_unscaled_twos_complement():
    c = codec("DECIMAL(10,2)")
    assert c.schema == {"type": "bytes", "optional": True, "name": "org.apache.kafka.connect.data.Decimal",
                        "version": 1, "parameters": {"scale": "2", "connect.decimal.precision": "10"}}
    # BigInteger.toByteArray: 19.99 -> unscaled 1999 = 0x07CF; -0.01 -> -1 = 0xFF; 1.28 -> 128 = 0x0080
    assert c.encode(decimal.Decimal("19.99")) == b64(b"\x07\xcf")
    assert c.encode(decimal.Decimal("-0.01")) == b64(b"\xff")
    assert c.encode(decimal.Decimal("1.28")) == b64(b"\x00\x80")
    assert c.encode(decimal.Decimal("0.00")) == b64(b"\x00")
    assert unscaled_bytes(decimal.Decimal("-1.28"), 2) == b"\x80"         # -128 fits one byte
    assert unscaled_bytes(decimal.Decimal("-1.29"), 2) == b"\xff\x7f"
    assert unscaled_bytes(decimal.Decimal("-" + "9" * 65), 0) == (-int("9" * 65)).to_bytes(28, "big", signed=True)


def test_decimal_double_and_string_modes():
    d = codec("DECIMAL(10,2)", decimal_handling_mode="double")
    assert d.schema == {"type": "double", "optional": True} and d.encode(decimal.Decimal("-12.25")) == -12.25
    s = codec("DECIMAL(10,2)", decimal_handling_mode="string")
    assert s.schema == {"type": "string", "optional": True}
    assert s.encode(decimal.Decimal("1.50")) == "1.50" and s.encode(decimal.Decimal("-1E-7")) == "-0.0000001"
    # the default dimension (10, 0) when none was written
    assert codec("DECIMAL").schema["parameters"] == {"scale": "0", "connect.decimal.precision": "10"}


# -- "Temporal types" ----------------------------------------------------------------------------

def test_temporal_adaptive_time_microseconds():
    date = codec("DATE")
    assert (date.schema["type"], date.schema["name"]) == ("int32", "io.debezium.time.Date")
    assert date.encode(datetime.date(1970, 1, 2)) == 1 and date.encode(datetime.date(1969, 12, 31)) == -1
    t = codec("TIME(6)")
    assert (t.schema["type"], t.schema["name"]) == ("int64", "io.debezium.time.MicroTime")
    assert t.encode(datetime.timedelta(hours=838, minutes=59, seconds=59)) == 3_020_399_000_000
    assert t.encode(-datetime.timedelta(microseconds=1)) == -1
    # "DATETIME with a value of 2018-06-20 06:37:03 becomes 1529476623000"
    dt3 = codec("DATETIME(3)")
    assert (dt3.schema["type"], dt3.schema["name"]) == ("int64", "io.debezium.time.Timestamp")
    assert dt3.encode(datetime.datetime(2018, 6, 20, 6, 37, 3)) == 1529476623000
    assert codec("DATETIME").schema["name"] == "io.debezium.time.Timestamp"
    dt6 = codec("DATETIME(6)")
    assert dt6.schema["name"] == "io.debezium.time.MicroTimestamp"
    assert dt6.encode(datetime.datetime(2018, 6, 20, 6, 37, 3, 5)) == 1529476623000005
    y = codec("YEAR")
    assert (y.schema["type"], y.schema["name"], y.encode(2155)) == ("int32", "io.debezium.time.Year", 2155)


@pytest.mark.parametrize(("sqltype", "value", "text"), [
    # "TIMESTAMP with a value of 2018-06-20 06:37:03 becomes 2018-06-20T13:37:03Z" (the server in
    # America/Los_Angeles: 13:37:03 UTC is what the binlog holds)
    ("TIMESTAMP", datetime.datetime(2018, 6, 20, 13, 37, 3, tzinfo=UTC), "2018-06-20T13:37:03Z"),
    ("TIMESTAMP(3)", datetime.datetime(2018, 6, 20, 13, 37, 3, 120000, tzinfo=UTC), "2018-06-20T13:37:03.120Z"),
    ("TIMESTAMP(6)", datetime.datetime(2018, 6, 20, 13, 37, 3, 1, tzinfo=UTC), "2018-06-20T13:37:03.000001Z"),
    ("TIMESTAMP(1)", datetime.datetime(2038, 1, 19, 3, 14, 7, 900000, tzinfo=UTC), "2038-01-19T03:14:07.9Z"),
])
def test_timestamp_is_zoned_utc_with_the_column_fsp(sqltype, value, text):
    c = codec(sqltype + " NULL")
    assert (c.schema["type"], c.schema["name"]) == ("string", "io.debezium.time.ZonedTimestamp")
    assert c.encode(value) == text


def test_zero_dates_null_or_epoch():
    # "Temporal types": zero-values are null when the column allows null, else the epoch
    assert codec("DATE").encode("0000-00-00") is None
    assert codec("DATE NOT NULL").encode("0000-00-00") == 0
    assert codec("DATETIME(6) NOT NULL").encode("0000-00-00 00:00:00.000000") == 0
    assert codec("TIMESTAMP NULL").encode("0000-00-00 00:00:00") is None
    assert codec("TIMESTAMP(2) NOT NULL DEFAULT '2000-01-01'").encode("0000-00-00 00:00:00") == \
        "1970-01-01T00:00:00.00Z"
    assert codec("DATETIME").encode("2020-00-15 12:34:56") is None        # invalid dates alike


def test_time_precision_connect_and_isostring():
    # time.precision.mode=connect: Kafka Connect's Date (days), Time (ms), Timestamp (ms)
    c = {t: codec(t, time_precision_mode="connect") for t in ("DATE", "TIME(6)", "DATETIME(6)")}
    assert c["DATE"].schema["name"] == "org.apache.kafka.connect.data.Date"
    assert (c["TIME(6)"].schema["type"], c["TIME(6)"].schema["name"]) == ("int32", "org.apache.kafka.connect.data.Time")
    assert c["TIME(6)"].encode(datetime.timedelta(seconds=1, microseconds=999)) == 1000
    assert c["DATETIME(6)"].schema["name"] == "org.apache.kafka.connect.data.Timestamp"
    assert c["DATETIME(6)"].encode(datetime.datetime(2018, 6, 20, 6, 37, 3, 999)) == 1529476623000
    # TIMESTAMP stays a ZonedTimestamp in every mode
    assert codec("TIMESTAMP NULL", time_precision_mode="connect").schema["name"] == "io.debezium.time.ZonedTimestamp"
    iso = {t: codec(t, time_precision_mode="isostring") for t in ("DATE", "TIME(6)", "DATETIME(6)")}
    assert iso["DATE"].encode(datetime.date(2024, 2, 29)) == "2024-02-29"
    assert iso["TIME(6)"].encode(datetime.timedelta(hours=1, microseconds=500000)) == "01:00:00.5"
    assert iso["DATETIME(6)"].encode(datetime.datetime(2024, 2, 29, 23, 59, 59)) == "2024-02-29T23:59:59"
    assert iso["DATETIME(6)"].schema["name"] == "io.debezium.time.IsoTimestamp"


def test_zoned_text_converts_to_utc():
    ist = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    assert zoned_text(datetime.datetime(2024, 6, 1, 17, 30, tzinfo=ist), 0) == "2024-06-01T12:00:00Z"


# -- "Spatial types" -----------------------------------------------------------------------------

def test_geometry_and_point():
    wkb = struct.pack("<BIdd", 1, 1, 1.5, -2.25)
    g = codec("GEOMETRY")
    assert g.schema["name"] == "io.debezium.data.geometry.Geometry"
    assert [f["field"] for f in g.schema["fields"]] == ["wkb", "srid"]
    assert g.encode(Geometry(4326, wkb)) == {"wkb": b64(wkb), "srid": 4326}
    p = codec("POINT")
    assert p.schema["name"] == "io.debezium.data.geometry.Point"
    assert [f["field"] for f in p.schema["fields"]] == ["x", "y", "wkb", "srid"]
    assert p.encode(Geometry(0, wkb)) == {"x": 1.5, "y": -2.25, "wkb": b64(wkb), "srid": 0}


def test_options_validate_with_debezium_names():
    with pytest.raises(ConfigError, match="decimal.handling.mode"):
        DebeziumOptions(decimal_handling_mode="exact")
    o = DebeziumOptions.from_properties({"time.precision.mode": "connect", "tombstones.on.delete": "false",
                                         "topic.prefix": "srv"})
    assert (o.time_precision_mode, o.tombstones_on_delete, o.topic_prefix) == ("connect", False, "srv")
    with pytest.raises(ConfigError, match="unknown Debezium property"):
        DebeziumOptions.from_properties({"snapshot.mode": "never"})


@pytest.mark.parametrize(("sqltype", "default"), [
    ("INT NOT NULL DEFAULT 7", 7), ("DECIMAL(10,2) DEFAULT 1.5", b64(b"\x00\x96")), ("VARCHAR(5) DEFAULT 'x'", "x"),
    ("ENUM('p','q') DEFAULT 'q'", "q"), ("DATE DEFAULT '2020-01-02'", 18263), ("BOOLEAN DEFAULT 1", True),
    ("DATETIME(3) DEFAULT '2018-06-20 06:37:03'", 1529476623000), ("YEAR DEFAULT 2000", 2000),
    # "Temporal types": a TIMESTAMP defaulting to CURRENT_TIMESTAMP has 1970-01-01 00:00:00 in the schema
    ("TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)", "1970-01-01T00:00:00.000Z"),
    ("INT NULL DEFAULT NULL", NO_DEFAULT), ("INT NOT NULL", NO_DEFAULT), ("DATE DEFAULT '0000-00-00'", NO_DEFAULT),
])
def test_schema_defaults(sqltype, default):
    cat = mysqlddl.apply_script(Catalog(), f"CREATE DATABASE d; CREATE TABLE d.t (c {sqltype})")
    t = cat.table(TableId("d", "t"))
    col = t.columns[0]
    fam = value_family(col, t)
    assert default_json(col, fam, column_codec(col, fam, DebeziumOptions())) == default
