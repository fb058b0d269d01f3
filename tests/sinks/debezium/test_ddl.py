"""Schema-change events in the Debezium format: tableChanges columns as Debezium's MySQL DDL parser
describes them (jdbcType from its data type resolver, ``MySqlAntlrDdlParser``; typeName, length,
scale, enumValues from ``ColumnDefinitionParserListener``), compared with the example message of
mysql.adoc "Schema change topic"; RENAME and TRUNCATE on a real server."""

from __future__ import annotations

import pytest

import mysqlddl
from mysqlddl.changes import ChangeOptions, ChangeReader
from mysqlddl.model.catalog import Catalog
from mysqlddl.model.ids import TableId
from mysqlddl.options import change_event_options
from mysqlddl.sinks.debezium import DebeziumOptions, debezium_messages
from mysqlddl.sinks.debezium.ddl import column_change, table_struct
from mysqlddl.sources import open_source


def table(body: str, options: str = "DEFAULT CHARSET utf8mb4"):
    cat = mysqlddl.apply_script(Catalog(), f"CREATE DATABASE inventory; CREATE TABLE inventory.t ({body}) {options}")
    return cat.table(TableId("inventory", "t"))


def test_the_documented_customers_example():
    # mysql.adoc "Schema change topic", the example ALTER of `customers`: id INT AUTO_INCREMENT is
    # jdbcType 4, typeName INT, no length, not optional, autoIncremented and generated; the VARCHARs
    # jdbcType 12, length 255, the table's utf8mb4
    t = table("id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, first_name VARCHAR(255) NOT NULL, middle_name "
              "VARCHAR(255), last_name VARCHAR(255) NOT NULL, email VARCHAR(255) NOT NULL UNIQUE KEY")
    s = table_struct(t)
    assert s["defaultCharsetName"] == "utf8mb4" and s["primaryKeyColumnNames"] == ["id"]
    assert s["columns"][0] == {"name": "id", "jdbcType": 4, "nativeType": None, "typeName": "INT",
                               "typeExpression": "INT", "charsetName": None, "length": None, "scale": None,
                               "position": 1, "optional": False, "autoIncremented": True, "generated": True,
                               "comment": None, "defaultValueExpression": None, "enumValues": None}
    middle = s["columns"][2]
    assert {k: middle[k] for k in ("name", "jdbcType", "typeName", "typeExpression", "charsetName", "length",
                                    "scale", "position", "optional", "autoIncremented", "generated")} == \
        {"name": "middle_name", "jdbcType": 12, "typeName": "VARCHAR", "typeExpression": "VARCHAR",
         "charsetName": "utf8mb4", "length": 255, "scale": None, "position": 3, "optional": True,
         "autoIncremented": False, "generated": False}


@pytest.mark.parametrize(("sqltype", "jdbc", "name"), [
    # java.sql.Types per the resolver: TINYINT/SMALLINT SMALLINT (5), MEDIUMINT/INT INTEGER (4),
    # BIGINT -5, REAL 7, FLOAT 6, DOUBLE 8, DECIMAL 3, NUMERIC 2, BIT -7, BOOL/BOOLEAN 16, DATE 91,
    # TIME 92, DATETIME 93, TIMESTAMP 2014, YEAR 4, CHAR 1, VARCHAR and the TEXT family 12, BINARY -2,
    # VARBINARY -3, the BLOB family 2004, ENUM/SET 1, JSON and spatial 1111
    ("TINYINT", 5, "TINYINT"), ("SMALLINT", 5, "SMALLINT"), ("MEDIUMINT", 4, "MEDIUMINT"), ("INT", 4, "INT"),
    ("INTEGER", 4, "INTEGER"), ("INT UNSIGNED", 4, "INT UNSIGNED"), ("BIGINT UNSIGNED ZEROFILL", -5,
                                                                    "BIGINT UNSIGNED ZEROFILL"),
    ("REAL", 7, "REAL"), ("FLOAT", 6, "FLOAT"), ("DOUBLE", 8, "DOUBLE"), ("DECIMAL(5,2)", 3, "DECIMAL"),
    ("NUMERIC(5,2)", 2, "NUMERIC"), ("BIT(3)", -7, "BIT"), ("BOOL", 16, "BOOL"), ("BOOLEAN", 16, "BOOLEAN"),
    ("DATE", 91, "DATE"), ("TIME(3)", 92, "TIME"), ("DATETIME(6)", 93, "DATETIME"),
    ("TIMESTAMP(3) NULL", 2014, "TIMESTAMP"), ("YEAR", 4, "YEAR"), ("CHAR(2)", 1, "CHAR"),
    ("VARCHAR(9)", 12, "VARCHAR"), ("TINYTEXT", 12, "TINYTEXT"), ("TEXT", 12, "TEXT"),
    ("MEDIUMTEXT", 12, "MEDIUMTEXT"), ("LONGTEXT", 12, "LONGTEXT"), ("BINARY(4)", -2, "BINARY"),
    ("VARBINARY(4)", -3, "VARBINARY"), ("TINYBLOB", 2004, "TINYBLOB"), ("BLOB", 2004, "BLOB"),
    ("MEDIUMBLOB", 2004, "MEDIUMBLOB"), ("LONGBLOB", 2004, "LONGBLOB"), ("ENUM('a','b')", 1, "ENUM"),
    ("SET('a','b','c')", 1, "SET"), ("JSON", 1111, "JSON"), ("GEOMETRY", 1111, "GEOMETRY"),
    ("POINT", 1111, "POINT"), ("MULTIPOLYGON", 1111, "MULTIPOLYGON"),
])
def test_jdbc_type_and_type_name(sqltype, jdbc, name):
    c = column_change(table(f"c {sqltype}").columns[0])
    assert (c["jdbcType"], c["typeName"], c["typeExpression"]) == (jdbc, name, name)


@pytest.mark.parametrize(("sqltype", "length", "scale"), [
    ("INT", None, None), ("INT(8)", 8, None), ("VARCHAR(30)", 30, None), ("TEXT", None, None),
    ("DECIMAL", 10, 0), ("DECIMAL(7,3)", 7, 3), ("BIT", 1, None), ("BIT(9)", 9, None),
    ("DATETIME", None, None), ("DATETIME(3)", 3, None), ("TIMESTAMP(6) NULL", 6, None),
    ("ENUM('a','b','c')", 1, None), ("SET('a','b','c')", 5, None), ("FLOAT(7,2)", 7, 2),
])
def test_length_and_scale_as_written(sqltype, length, scale):
    # "length null where no width was given"; the resolver's default dimension for DECIMAL (10,0)
    # and BIT (1); ENUM 1 and SET members*2-1 (ColumnDefinitionParserListener)
    c = column_change(table(f"c {sqltype}").columns[0])
    assert (c["length"], c["scale"]) == (length, scale)


def test_defaults_enum_values_charsets_and_no_comments():
    t = table("a DECIMAL(10,2) DEFAULT 1.5, b VARCHAR(5) CHARACTER SET latin1 DEFAULT 'x' COMMENT 'hi',"
              " c ENUM('p','q''s') DEFAULT 'p', d TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), e INT NULL")
    a, b, c, d, e = (column_change(col) for col in t.columns)
    assert a["defaultValueExpression"] == "1.50" and e["defaultValueExpression"] is None
    assert (b["defaultValueExpression"], b["charsetName"]) == ("x", "latin1")
    assert b["comment"] is None                       # include.schema.comments defaults to false
    assert c["enumValues"] == ["'p'", "'q''s'"] and c["charsetName"] == "utf8mb4"
    assert d["defaultValueExpression"] == "CURRENT_TIMESTAMP(3)" and d["optional"] is False
    assert a["charsetName"] is None


@pytest.mark.mariadb
def test_rename_is_an_alter_of_the_new_name_and_truncate_has_no_event(mariadb_server):
    srv = mariadb_server
    srv.execute("DROP DATABASE IF EXISTS dbz_ddl")
    srv.flush_logs()
    first, _ = srv.current_binlog()
    srv.execute("CREATE DATABASE dbz_ddl CHARACTER SET utf8mb4",
                "CREATE TABLE dbz_ddl.a (id INT PRIMARY KEY, v VARCHAR(10))",
                "RENAME TABLE dbz_ddl.a TO dbz_ddl.b",
                "ALTER TABLE dbz_ddl.b RENAME TO dbz_ddl.c",
                "TRUNCATE TABLE dbz_ddl.c",
                "DROP TABLE dbz_ddl.c")
    srv.flush_logs()
    files = [p for p in srv.binlog_files() if p.name >= first.name][:-1]
    reader = ChangeReader(open_source(files), ChangeOptions(decode=change_event_options()))
    msgs = [m for m in debezium_messages(reader, DebeziumOptions(topic_prefix="p")) if m.topic == "p"]
    got = [(m.key["databaseName"], [(c["type"], c["id"]) for c in m.value["tableChanges"]], m.value["ddl"])
           for m in msgs]
    assert got == [
        ("dbz_ddl", [], "CREATE DATABASE dbz_ddl CHARACTER SET utf8mb4"),
        ("dbz_ddl", [("CREATE", '"dbz_ddl"."a"')], "CREATE TABLE dbz_ddl.a (id INT PRIMARY KEY, v VARCHAR(10))"),
        ("dbz_ddl", [("ALTER", '"dbz_ddl"."b"')], "RENAME TABLE dbz_ddl.a TO dbz_ddl.b"),
        ("dbz_ddl", [("ALTER", '"dbz_ddl"."c"')], "ALTER TABLE dbz_ddl.b RENAME TO dbz_ddl.c"),
        ("dbz_ddl", [("DROP", '"dbz_ddl"."c"')], "DROP TABLE `dbz_ddl`.`c` /* generated by server */"),
    ]
    assert msgs[2].value["tableChanges"][0]["table"]["primaryKeyColumnNames"] == ["id"]
