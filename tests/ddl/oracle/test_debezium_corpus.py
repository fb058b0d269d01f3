"""Debezium's Oracle DDL parser test input (connector-tests/ddl__create_table.sql, the input of
OracleDdlParserTest.shouldParseCreateAndAlterTable): the resulting table, column by column."""

from __future__ import annotations

from mysqlddl.model.column import DefaultKind
from mysqlddl.model.types import TypeFamily as F

from .conftest import apply


def test_create_table_sql(shared_path):
    sql = (shared_path / "corpora/oracle/debezium/connector-tests/ddl__create_table.sql").read_text()
    t = apply(sql).table("DEBEZIUM", "TEST")
    got = {c.name: (c.type_name, c.length, c.scale, c.nullable) for c in t.columns}
    assert got == {
        "ID": ("NUMBER", 19, 0, False),
        "COL1": ("NUMBER", 4, 2, True),
        "COL2": ("VARCHAR2", 255, None, False),
        "COL3": ("NVARCHAR2", 255, None, False),
        "COL4": ("CHAR", 4, None, True),
        "COL5": ("NCHAR", 4, None, True),
        "COL6": ("FLOAT", 126, None, True),
        "COL7": ("DATE", None, None, True),
        "COL8": ("TIMESTAMP", None, None, True),
        "COL9": ("BLOB", None, None, True),
        "COL10": ("CLOB", None, None, True),
        "COL11": ("mdsys.sdo_geometry", None, None, True),
        "COL12": ("NUMBER", 1, 0, True),
        "COL13": ("DATE", None, None, False),
    }
    assert t.column("COL8").fsp == 6 and t.column("COL11").family is F.UNKNOWN
    d = t.column("COL2").default
    assert (d.kind, d.value) == (DefaultKind.LITERAL, "debezium")
    assert t.primary_key.columns == ("ID",)
    assert t.column("COL3").length_semantics == "CHAR" and t.column("COL2").length_semantics == "BYTE"
