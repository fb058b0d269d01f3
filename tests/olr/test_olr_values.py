"""Value converters: tables of (OLR JSON value, Oracle type, unit) -> expected, with where each
input form comes from."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from mysqlddl.olr.values import LOSSY, UNKNOWN, Kind, ValueContext, column_kind, convert, type_kind

NS, S = ValueContext("ns"), ValueContext("s")
DT = datetime.datetime
UTC = datetime.timezone.utc

CASES = [
    # NUMBER: unquoted JSON numbers, parsed with parse_float=Decimal (rophy data-types: 12345.67,
    # -999.99; number-precision: 0, 1, -1)
    ("number", Decimal("12345.67"), NS, Decimal("12345.67"), None),
    ("number", Decimal("-999.99"), NS, Decimal("-999.99"), None),
    ("number", 10013, NS, Decimal(10013), None),                       # SynchDB dml_payload ORDER_NUMBER
    ("number", Decimal("0.000000000000000000000000000000000000001"), NS,
     Decimal("1E-39"), None),                                          # beyond a double's 17 digits: exact
    ("NUMBER(38)", Decimal("99999999999999999999999999999999999999"), NS,
     Decimal("99999999999999999999999999999999999999"), None),
    ("float", Decimal("3.5"), NS, Decimal("3.5"), None),               # Oracle FLOAT(b) is a NUMBER
    # BINARY_DOUBLE/FLOAT: C++ ostream, 6 significant digits (rophy data-types COL_DOUBLE 2.71828,
    # 1e+100; LogMiner has 2.7182818284590451E+000)
    ("binary_double", Decimal("2.71828"), NS, 2.71828, LOSSY),
    ("binary_double", Decimal("1e+100"), NS, 1e100, LOSSY),
    ("binary_float", Decimal("3.14"), NS, 3.14, LOSSY),
    ("binary_float", "inf", NS, float("inf"), LOSSY),
    # DATE/TIMESTAMP, format.timestamp 7: epoch seconds as a string (rophy timestamp-variants:
    # 2025-06-15 10:30:00 -> "1749983400"; 2000-01-01 -> "946684800")
    ("date", "1749983400", S, DT(2025, 6, 15, 10, 30), None),
    ("timestamp", "946684800", S, DT(2000, 1, 1), None),
    # format.timestamp 0: nanoseconds as a number (SynchDB dml_payload ORDER_DATE 2024-01-01)
    ("date", 1704067200000000000, NS, DT(2024, 1, 1), None),
    ("timestamp", 1749983400123456789, NS, DT(2025, 6, 15, 10, 30, 0, 123456), LOSSY),  # 789 ns lost
    ("timestamp", 1749983400123456000, NS, DT(2025, 6, 15, 10, 30, 0, 123456), None),
    ("timestamp(3)", 1564662896000, ValueContext("ms"), DT(2019, 8, 1, 12, 34, 56), None),  # OLR doc example F
    ("timestamp", -1000000, NS, DT(1969, 12, 31, 23, 59, 59, 999000), None),   # before 1970
    # format.timestamp 8-15: ISO-8601 text (OLR json/4.format.adoc examples)
    ("timestamp", "2022-05-01T06:00:00.123456789Z", NS, DT(2022, 5, 1, 6, 0, 0, 123456, UTC), LOSSY),
    ("timestamp", "2022-05-01 06:00:00.123", NS, DT(2022, 5, 1, 6, 0, 0, 123000), None),
    ("timestamp with local time zone", "1651384800", S, DT(2022, 5, 1, 6), None),
    # TIMESTAMP WITH TIME ZONE, format.timestamp-tz 0 / 11 (OLR json/4.format.adoc)
    ("timestamp with time zone", "1651384800123456000,Europe/Warsaw", NS,
     DT(2022, 5, 1, 6, 0, 0, 123456, UTC), None),
    ("timestamp(6) with time zone", "2022-05-01 06:00:00 +02:00", NS,
     DT(2022, 5, 1, 4, 0, 0, 0, UTC), None),
    # RAW/BLOB: lowercase hex (rophy data-types COL_RAW "deadbeef"; lob-operations COL_BLOB)
    ("raw", "deadbeef", NS, b"\xde\xad\xbe\xef", None),
    ("blob", "0102030405", NS, b"\x01\x02\x03\x04\x05", None),
    ("raw", "", NS, b"", None),
    # BOOLEAN (23ai): 1/0 (rophy boolean-type)
    ("boolean", 1, NS, True, None),
    ("boolean", 0, NS, False, None),
    # character types: as printed (rophy data-types COL_CHAR keeps its padding)
    ("char", "fixed               ", NS, "fixed               ", None),
    ("varchar2", "?", NS, "?", None),                                 # a real '?' in text is text
    ("interval day to second", "01,06:00:00.123456789", NS, "01,06:00:00.123456789", None),
    ("rowid", "AAAR6+AAFAAAACGAAA", NS, "AAAR6+AAFAAAACGAAA", None),
    (None, Decimal("1.5"), NS, Decimal("1.5"), None),                 # untyped: as the JSON gave it
]


@pytest.mark.parametrize("type_name,value,ctx,expected,note", CASES)
def test_convert(type_name, value, ctx, expected, note):
    got, got_note = convert(type_kind(type_name), value, ctx)
    assert got == expected
    assert type(got) is type(expected)
    assert got_note == note


def test_timestamp_tz_keeps_the_zone():
    got, _ = convert(Kind.TIMESTAMP_TZ, "1651384800000000000,Europe/Warsaw", NS)
    assert got.isoformat() == "2022-05-01T08:00:00+02:00"


@pytest.mark.parametrize("kind", [Kind.NUMBER, Kind.DATE, Kind.RAW, Kind.BINARY_DOUBLE, Kind.UNTYPED])
def test_question_mark_is_unknown(kind):
    # OLR prints ? for a value it could not decode (format.unknown 0)
    assert convert(kind, "?", NS) == (UNKNOWN, None)
    assert str(UNKNOWN) == "?"


def test_null_stays_null():
    assert convert(Kind.NUMBER, None, NS) == (None, None)


@pytest.mark.parametrize("type_name,value", [
    ("raw", "xyz"), ("raw", 12), ("number", "abc"), ("number", True), ("date", "yesterday"),
    ("date", 10 ** 30), ("boolean", 2), ("binary_double", "x"), ("timestamp with time zone", "1,Mars/Base"),
])
def test_bad_values_raise(type_name, value):
    with pytest.raises(ValueError):
        convert(type_kind(type_name), value, NS)


@pytest.mark.parametrize("type_name,kind", [
    ("NUMBER(15,2)", Kind.NUMBER), ("number", Kind.NUMBER), ("VARCHAR2(10 CHAR)", Kind.TEXT),
    ("TIMESTAMP(9)", Kind.TIMESTAMP), ("timestamp with time zone", Kind.TIMESTAMP_TZ),
    ("TIMESTAMP(6) WITH LOCAL TIME ZONE", Kind.TIMESTAMP), ("long raw", Kind.RAW),
    ("INTERVAL DAY(2) TO SECOND(6)", Kind.AS_GIVEN), ("xmltype", Kind.AS_GIVEN), ("sdo_geometry", Kind.UNTYPED),
])
def test_type_kind(type_name, kind):
    assert type_kind(type_name) is kind


def test_column_kind_from_model_columns():
    from mysqlddl.model.column import Column

    # an Oracle declared type wins; otherwise the model family decides
    assert column_kind(Column("A", "decimal", declared_type="NUMBER(10,2)")) is Kind.NUMBER
    assert column_kind(Column("B", "double", declared_type="BINARY_DOUBLE")) is Kind.BINARY_DOUBLE
    assert column_kind(Column("C", "datetime")) is Kind.TIMESTAMP
    assert column_kind(Column("D", "varbinary")) is Kind.RAW
    assert column_kind(Column("E", "double")) is Kind.BINARY_DOUBLE
    assert column_kind(Column("F", "geometry")) is Kind.UNTYPED
