"""createTable -> CreateTable -> the resulting table (types, lengths, NULL-ability, defaults,
keys, foreign keys, checks, identity, virtual columns, options)."""

from __future__ import annotations

import pytest

from mysqlddl.commands import CreateTable
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model.column import DefaultKind, GeneratedKind
from mysqlddl.model.table import IndexKind
from mysqlddl.model.types import TypeFamily as F

from .conftest import apply, commands, table

# (declared type, type_name, family, length, scale, fsp, length semantics): SQL Ref. 2.1.
TYPES = [
    ("NUMBER", "NUMBER", F.DECIMAL, None, None, None, None),
    ("NUMBER(10)", "NUMBER", F.DECIMAL, 10, 0, None, None),
    ("NUMBER(10,2)", "NUMBER", F.DECIMAL, 10, 2, None, None),
    ("NUMBER(*,2)", "NUMBER", F.DECIMAL, None, 2, None, None),
    ("NUMBER(5,-2)", "NUMBER", F.DECIMAL, 5, -2, None, None),
    ("FLOAT", "FLOAT", F.DECIMAL, 126, None, None, None),
    ("FLOAT(10)", "FLOAT", F.DECIMAL, 10, None, None, None),
    ("BINARY_FLOAT", "BINARY_FLOAT", F.FLOAT, None, None, None, None),
    ("BINARY_DOUBLE", "BINARY_DOUBLE", F.FLOAT, None, None, None, None),
    ("INTEGER", "NUMBER", F.DECIMAL, 38, 0, None, None),
    ("INT", "NUMBER", F.DECIMAL, 38, 0, None, None),
    ("SMALLINT", "NUMBER", F.DECIMAL, 38, 0, None, None),
    ("DECIMAL(9,3)", "NUMBER", F.DECIMAL, 9, 3, None, None),
    ("NUMERIC(7)", "NUMBER", F.DECIMAL, 7, 0, None, None),
    ("DECIMAL", "NUMBER", F.DECIMAL, None, 0, None, None),
    ("REAL", "FLOAT", F.DECIMAL, 63, None, None, None),
    ("DOUBLE PRECISION", "FLOAT", F.DECIMAL, 126, None, None, None),
    ("BOOLEAN", "BOOLEAN", F.BOOLEAN, None, None, None, None),
    ("VARCHAR2(20)", "VARCHAR2", F.VARCHAR, 20, None, None, "BYTE"),
    ("VARCHAR2(20 BYTE)", "VARCHAR2", F.VARCHAR, 20, None, None, "BYTE"),
    ("VARCHAR2(20 CHAR)", "VARCHAR2", F.VARCHAR, 20, None, None, "CHAR"),
    ("VARCHAR(20)", "VARCHAR2", F.VARCHAR, 20, None, None, "BYTE"),
    ("CHARACTER VARYING(9)", "VARCHAR2", F.VARCHAR, 9, None, None, "BYTE"),
    ("NVARCHAR2(50)", "NVARCHAR2", F.VARCHAR, 50, None, None, "CHAR"),
    ("NATIONAL CHAR VARYING(5)", "NVARCHAR2", F.VARCHAR, 5, None, None, "CHAR"),
    ("CHAR", "CHAR", F.CHAR, 1, None, None, "BYTE"),
    ("CHAR(10 CHAR)", "CHAR", F.CHAR, 10, None, None, "CHAR"),
    ("NCHAR(10)", "NCHAR", F.CHAR, 10, None, None, "CHAR"),
    ("RAW(100)", "RAW", F.VARBINARY, 100, None, None, None),
    ("LONG", "LONG", F.TEXT, None, None, None, None),
    ("LONG RAW", "LONG RAW", F.BLOB, None, None, None, None),
    ("DATE", "DATE", F.DATETIME, None, None, 0, None),
    ("TIMESTAMP", "TIMESTAMP", F.DATETIME, None, None, 6, None),
    ("TIMESTAMP(3)", "TIMESTAMP", F.DATETIME, None, None, 3, None),
    ("TIMESTAMP(9) WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", F.TIMESTAMP_TZ, None, None, 9, None),
    ("TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP WITH LOCAL TIME ZONE", F.TIMESTAMP, None, None, 6, None),
    ("INTERVAL YEAR TO MONTH", "INTERVAL YEAR TO MONTH", F.INTERVAL, 2, None, None, None),
    ("INTERVAL YEAR(4) TO MONTH", "INTERVAL YEAR TO MONTH", F.INTERVAL, 4, None, None, None),
    ("INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND", F.INTERVAL, 2, None, 6, None),
    ("INTERVAL DAY(3) TO SECOND(2)", "INTERVAL DAY TO SECOND", F.INTERVAL, 3, None, 2, None),
    ("INTERVAL DAY TO SECOND(0)", "INTERVAL DAY TO SECOND", F.INTERVAL, 2, None, 0, None),
    ("CLOB", "CLOB", F.TEXT, None, None, None, None),
    ("NCLOB", "NCLOB", F.TEXT, None, None, None, None),
    ("BLOB", "BLOB", F.BLOB, None, None, None, None),
    ("BFILE", "BFILE", F.UNKNOWN, None, None, None, None),
    ("ROWID", "ROWID", F.VARCHAR, None, None, None, None),
    ("UROWID", "UROWID", F.VARCHAR, 4000, None, None, None),
    ("UROWID(100)", "UROWID", F.VARCHAR, 100, None, None, None),
    ("XMLTYPE", "XMLTYPE", F.UNKNOWN, None, None, None, None),
    ("SYS.XMLTYPE", "XMLTYPE", F.UNKNOWN, None, None, None, None),
    ("JSON", "JSON", F.JSON, None, None, None, None),
    ("MDSYS.SDO_GEOMETRY", "MDSYS.SDO_GEOMETRY", F.UNKNOWN, None, None, None, None),
    ('"MDSYS"."sdo_geometry"', "MDSYS.sdo_geometry", F.UNKNOWN, None, None, None, None),
    ("VECTOR(768, FLOAT32)", "VECTOR", F.VECTOR, 768, None, None, None),
    ("VECTOR(*, *)", "VECTOR", F.VECTOR, None, None, None, None),
]


@pytest.mark.parametrize("declared,type_name,family,length,scale,fsp,semantics", TYPES)
def test_every_builtin_type_maps_to_its_family(declared, type_name, family, length, scale, fsp, semantics):
    c = table(f"CREATE TABLE t (c {declared})", "T").column("C")
    assert (c.type_name, c.family, c.length, c.scale, c.fsp, c.length_semantics) == \
        (type_name, family, length, scale, fsp, semantics)
    assert c.declared_type == declared
    assert c.charset is None  # the database character set is not in the DDL


def test_unquoted_names_are_stored_upper_case_and_quoted_ones_as_written():
    t = table('CREATE TABLE app.Mixed (id NUMBER, "lower" NUMBER, "With Space" VARCHAR2(5))', "MIXED")
    assert t.column_names == ("ID", "lower", "With Space")
    t = table('CREATE TABLE "quoted table" (a NUMBER)', "quoted table")
    assert t.id.name == "quoted table"


def test_nullability_and_defaults():
    t = table("""CREATE TABLE t (
        a NUMBER, b NUMBER NOT NULL, c NUMBER NULL,
        d VARCHAR2(10) DEFAULT 'it''s', e NUMBER DEFAULT -1.5, f DATE DEFAULT SYSDATE,
        g NUMBER DEFAULT ON NULL 0, h VARCHAR2(5) DEFAULT NULL, i TIMESTAMP DEFAULT systimestamp(3),
        j RAW(16) DEFAULT SYS_GUID(), k NUMBER DEFAULT seq.NEXTVAL, l VARCHAR2(9) DEFAULT q'[a'b]')""", "T")
    assert [c.nullable for c in t.columns[:3]] == [True, False, True]
    assert t.column("A").default.kind is DefaultKind.NULL
    assert t.column("B").default is None
    assert (t.column("D").default.kind, t.column("D").default.value) == (DefaultKind.LITERAL, "it's")
    assert t.column("E").default.value == "-1.5"
    assert (t.column("F").default.kind, t.column("F").default.value) == (DefaultKind.EXPRESSION, "SYSDATE")
    g = t.column("G")
    assert g.default_on_null and not g.nullable and g.default.value == "0"
    assert t.column("H").default.kind is DefaultKind.NULL
    assert t.column("I").default.value == "systimestamp(3)"
    assert t.column("J").default.value == "SYS_GUID()"
    assert t.column("K").default.value == "seq.NEXTVAL"
    assert t.column("L").default.value == "a'b"


def test_identity_columns():
    t = table("""CREATE TABLE t (
        a NUMBER GENERATED ALWAYS AS IDENTITY,
        b NUMBER GENERATED BY DEFAULT AS IDENTITY (START WITH 100 INCREMENT BY 10),
        c NUMBER GENERATED BY DEFAULT ON NULL AS IDENTITY)""", "T")
    a, b, c = t.columns
    assert a.identity.always and not a.identity.on_null and a.identity.options is None
    assert not b.identity.always and b.identity.options == "START WITH 100 INCREMENT BY 10"
    assert c.identity.on_null
    assert all(not x.nullable and x.default is None and not x.auto_increment for x in t.columns)


def test_virtual_columns():
    t = table("""CREATE TABLE t (a NUMBER, b NUMBER GENERATED ALWAYS AS (a * 2) VIRTUAL,
                 c AS (a + 1), d VARCHAR2(10) INVISIBLE)""", "T")
    assert t.column("B").generated.kind is GeneratedKind.VIRTUAL
    assert t.column("B").generated.expression == "a * 2"
    assert t.column("B").type_name == "NUMBER" and t.column("B").default is None
    assert t.column("C").generated.expression == "a + 1" and t.column("C").family is F.UNKNOWN
    assert t.column("D").visible is False


def test_inline_and_out_of_line_constraints_with_names_and_states():
    t = table("""CREATE TABLE t (
        id NUMBER CONSTRAINT pk_t PRIMARY KEY USING INDEX TABLESPACE idx ENABLE,
        code VARCHAR2(5) UNIQUE,
        parent NUMBER REFERENCES app.p (id) ON DELETE SET NULL,
        qty NUMBER CONSTRAINT qty_pos CHECK (qty > 0) DISABLE,
        a NUMBER, b NUMBER,
        CONSTRAINT uq_ab UNIQUE (a, b) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT fk_a FOREIGN KEY (a) REFERENCES other ON DELETE CASCADE NOVALIDATE,
        CHECK (a < b) RELY)""", "T")
    pk = t.primary_key
    assert pk.columns == ("ID",) and pk.constraint_name == "PK_T" and pk.state is None
    assert not t.column("ID").nullable
    assert [(u.name, u.columns) for u in t.unique_keys] == [("CODE", ("CODE",)), ("UQ_AB", ("A", "B"))]
    assert t.unique_keys[1].state.deferrable and t.unique_keys[1].state.initially_deferred
    fks = {f.name: f for f in t.foreign_keys}
    gen = [f for f in t.foreign_keys if f.name != "FK_A"][0]
    assert (gen.columns, gen.ref_table.name, gen.ref_columns, gen.on_delete) == (("PARENT",), "P", ("ID",), "SET NULL")
    assert fks["FK_A"].ref_columns == () and fks["FK_A"].on_delete == "CASCADE"
    assert fks["FK_A"].state.enabled and not fks["FK_A"].state.validated
    assert not t.indexes  # Oracle creates no index for a foreign key
    checks = {c.name: c for c in t.checks}
    assert checks["QTY_POS"].expression == "qty > 0" and not checks["QTY_POS"].enforced
    assert not checks["QTY_POS"].state.enabled
    other = [c for c in t.checks if c.name != "QTY_POS"][0]
    assert other.expression == "a < b" and other.state.rely


def test_disabled_not_null_is_not_enforced():
    t = table("CREATE TABLE t (a NUMBER NOT NULL DISABLE, b NUMBER CONSTRAINT nn_b NOT NULL ENABLE)", "T")
    assert t.column("A").nullable and not t.column("B").nullable


def test_multi_column_primary_key_on_long_strings_is_accepted():
    t = table("""CREATE TABLE t (a VARCHAR2(4000), b VARCHAR2(4000), c CLOB,
                 CONSTRAINT pk PRIMARY KEY (a, b))""", "T")
    assert t.primary_key.columns == ("A", "B")


def test_physical_properties_and_partitioning_are_options():
    t = table("""CREATE TABLE t (d DATE, n NUMBER, c CLOB)
        SEGMENT CREATION IMMEDIATE PCTFREE 10 INITRANS 2
        STORAGE (INITIAL 65536 NEXT 1048576) TABLESPACE "USERS"
        LOB (c) STORE AS SECUREFILE (TABLESPACE lobs ENABLE STORAGE IN ROW)
        PARTITION BY RANGE (d) INTERVAL (NUMTOYMINTERVAL(1, 'MONTH'))
          (PARTITION p0 VALUES LESS THAN (DATE '2020-01-01'), PARTITION "p1" VALUES LESS THAN (MAXVALUE))
        ENABLE ROW MOVEMENT""", "T")
    opts = dict(t.options)
    assert opts["SEGMENT CREATION"] == "IMMEDIATE"
    assert opts["PCTFREE"] == "10" and opts["INITRANS"] == "2"
    assert opts["STORAGE"] == "(INITIAL 65536 NEXT 1048576)"
    assert opts["TABLESPACE"] == "USERS"
    assert opts["LOB"].startswith("(c) STORE AS SECUREFILE")
    assert "ENABLE ROW MOVEMENT" in opts
    assert t.partitioning.method == "RANGE" and t.partitioning.expression == "d"
    assert t.partitioning.names == ("P0", "p1")


def test_table_kinds():
    t = table("CREATE GLOBAL TEMPORARY TABLE g (a NUMBER) ON COMMIT PRESERVE ROWS", "G")
    assert not t.temporary and t.options[0] == ("GLOBAL TEMPORARY", "")
    assert dict(t.options)["ON COMMIT"] == "PRESERVE ROWS"
    (cmd,) = commands("CREATE PRIVATE TEMPORARY TABLE ora$ptt_x (a NUMBER)")
    assert cmd.temporary


def test_if_not_exists_and_schema_qualified_names():
    (cmd,) = commands("create table if not exists hr.emp (id number)")
    assert isinstance(cmd, CreateTable) and cmd.if_not_exists
    assert (cmd.table.database, cmd.table.name) == ("HR", "EMP")


@pytest.mark.parametrize("sql,what", [
    ("CREATE TABLE t OF person_t", "object tables"),
    ("CREATE TABLE t AS WITH q AS (SELECT 1 x FROM dual) SELECT * FROM q", "AS subquery"),
])
def test_unmodelled_forms_are_positioned_errors(sql, what):
    with pytest.raises(DdlSemanticError) as e:
        commands(sql)
    assert what in str(e.value) and e.value.line == 1 and e.value.column > 0


def test_number_precision_out_of_range_is_an_error():
    with pytest.raises(DdlSemanticError):
        table("CREATE TABLE t (a NUMBER(39))", "T")


def test_keys_of_the_resulting_table():
    t = table("CREATE TABLE t (a NUMBER, b NUMBER, PRIMARY KEY (a, b))", "T")
    assert t.primary_key.kind is IndexKind.PRIMARY and t.primary_key.constraint_name is None
    assert not t.column("A").nullable and not t.column("B").nullable


def test_period_definitions_are_accepted_and_not_modelled():
    t = table("CREATE TABLE t (a DATE, b DATE, PERIOD FOR valid_time (a, b), period NUMBER)", "T")
    assert t.column_names == ("A", "B", "PERIOD")


# Column.column_type spells a type as ALL_TAB_COLUMNS.DATA_TYPE does: the precision of TIMESTAMP
# WITH [LOCAL] TIME ZONE and of INTERVAL sits inside the name (SQL Ref. 2.1.1 "Oracle Built-in
# Data Types"), never after it.
@pytest.mark.parametrize("declared,column_type", [
    ("TIMESTAMP", "TIMESTAMP(6)"),
    ("TIMESTAMP(0)", "TIMESTAMP(0)"),
    ("TIMESTAMP(9) WITH TIME ZONE", "TIMESTAMP(9) WITH TIME ZONE"),
    ("TIMESTAMP WITH TIME ZONE", "TIMESTAMP(6) WITH TIME ZONE"),
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
    ("INTERVAL YEAR TO MONTH", "INTERVAL YEAR(2) TO MONTH"),
    ("INTERVAL YEAR(4) TO MONTH", "INTERVAL YEAR(4) TO MONTH"),
    ("INTERVAL DAY TO SECOND", "INTERVAL DAY(2) TO SECOND(6)"),
    ("INTERVAL DAY(3) TO SECOND(0)", "INTERVAL DAY(3) TO SECOND(0)"),
    ("NUMBER(*, 2)", "NUMBER(*,2)"),
    ("NUMBER(10)", "NUMBER(10,0)"),
    ("NUMBER", "NUMBER"),
    ("DATE", "DATE"),
    ("VARCHAR2(20 CHAR)", "VARCHAR2(20)"),
    ("FLOAT", "FLOAT(126)"),
])
def test_column_type_spells_the_type_as_the_data_dictionary(declared, column_type):
    assert table(f"CREATE TABLE t (c {declared})", "T").column("C").column_type == column_type


def test_tables_carry_no_engine_or_charset():
    # DialectRules.table_engine/table_charset (ORACLE: False): Oracle has no storage engines, and
    # the database character set is not said or inherited in table DDL.
    cat = apply("CREATE TABLE t (a VARCHAR2(10), b NUMBER);\n"
                "ALTER TABLE t ADD (c CHAR(2));\n"
                "CREATE TABLE other.u (a CLOB)")
    for t in cat.all_tables():
        assert (t.engine, t.charset, t.collation) == (None, None, None), t.name
        assert all(c.charset is None and c.collation is None for c in t.columns)
    assert (cat.database("OTHER").charset, cat.database("OTHER").collation) == (None, None)
