"""Type synonyms, implied lengths and display widths, per dialect (resolved through CREATE TABLE)."""

import pytest

from mysqlddl.commands import CreateTable, TableId, col
from mysqlddl.model.types import TypeFamily


def make(run, *cols):
    run(CreateTable(TableId(None, "t"), tuple(cols)))
    return run.table()


@pytest.mark.parametrize("spelling,mysql,mariadb", [
    ("BOOL", "tinyint(1)", "tinyint(1)"),
    ("boolean", "tinyint(1)", "tinyint(1)"),
    ("INTEGER", "int", "int(11)"),
    ("int", "int", "int(11)"),
    ("tinyint", "tinyint", "tinyint(4)"),
    ("smallint", "smallint", "smallint(6)"),
    ("mediumint", "mediumint", "mediumint(9)"),
    ("MIDDLEINT", "mediumint", "mediumint(9)"),
    ("bigint", "bigint", "bigint(20)"),
    ("DEC", "decimal(10,0)", "decimal(10,0)"),
    ("FIXED", "decimal(10,0)", "decimal(10,0)"),
    ("NUMERIC", "decimal(10,0)", "decimal(10,0)"),
    ("DOUBLE PRECISION", "double", "double"),
    ("double   precision", "double", "double"),
    ("REAL", "double", "double"),
    ("bit", "bit(1)", "bit(1)"),
    ("char", "char(1)", "char(1)"),
    ("binary", "binary(1)", "binary(1)"),
    ("LONG VARCHAR", "mediumtext", "mediumtext"),
    ("LONG VARBINARY", "mediumblob", "mediumblob"),
    ("year", "year", "year(4)"),
])
def test_synonyms_and_implied_lengths(my, maria, spelling, mysql, mariadb):
    assert make(my, col("c", spelling)).column("c").column_type == mysql
    assert make(maria, col("c", spelling)).column("c").column_type == mariadb


def test_unsigned_default_widths_differ_from_signed_on_mariadb(maria):
    t = make(maria, col("a", "int", unsigned=True), col("b", "tinyint", unsigned=True),
             col("c", "bigint", unsigned=True))
    assert [c.column_type for c in t.columns] == ["int(10) unsigned", "tinyint(3) unsigned",
                                                  "bigint(20) unsigned"]


def test_mysql_8019_keeps_width_only_for_zerofill_and_tinyint1(my):
    t = make(my, col("a", "int", 5), col("b", "int", 5, zerofill=True), col("c", "smallint", zerofill=True),
             col("d", "tinyint", 1), col("e", "tinyint", 2))
    assert [c.column_type for c in t.columns] == [
        "int", "int(5) unsigned zerofill", "smallint(5) unsigned zerofill", "tinyint(1)", "tinyint"]


def test_mysql_before_8019_keeps_display_widths(my):
    my.options = my.options.replace(server_version=(8, 0, 18))
    assert make(my, col("a", "int")).column("a").column_type == "int(11)"


def test_explicit_width_kept_on_mariadb(maria):
    assert make(maria, col("a", "int", 5)).column("a").column_type == "int(5)"


def test_float_precision_picks_float_or_double(both):
    t = make(both, col("a", "float", 24), col("b", "float", 25), col("c", "float", 7, 3), col("d", "double", 8, 2))
    assert [c.column_type for c in t.columns] == ["float", "double", "float(7,3)", "double(8,2)"]


def test_real_as_float_sql_mode(my):
    my.options = my.options.replace(sql_mode="REAL_AS_FLOAT")
    assert make(my, col("r", "REAL")).column("r").type_name == "float"


def test_serial_implies_bigint_unsigned_not_null_auto_increment_unique(maria):
    t = make(maria, col("id", "SERIAL"))
    c = t.column("id")
    assert (c.column_type, c.nullable, c.auto_increment, c.default) == ("bigint(20) unsigned", False, True, None)
    assert [(k.kind.value, k.name, k.columns) for k in t.keys()] == [("unique", "id", ("id",))]


def test_decimal_precision_only_gets_scale_zero(both):
    assert make(both, col("d", "decimal", 5)).column("d").column_type == "decimal(5,0)"


def test_text_and_blob_lengths_pick_the_smallest_type(both):
    t = make(both, col("a", "text", 100, charset="latin1"), col("b", "text", 100, charset="utf8mb4"),
             col("c", "text", 20000, charset="utf8mb4"), col("d", "blob", 70000), col("e", "blob", 10))
    assert [c.type_name for c in t.columns] == ["tinytext", "text", "mediumtext", "mediumblob", "tinyblob"]


def test_charset_binary_turns_character_types_binary(both):
    t = make(both, col("a", "varchar", 3, charset="binary"), col("b", "char", 2, charset="binary"),
             col("c", "text", charset="binary"))
    assert [(c.column_type, c.charset) for c in t.columns] == [("varbinary(3)", None), ("binary(2)", None),
                                                              ("blob", None)]


def test_temporal_fsp(both):
    t = make(both, col("a", "datetime", 3), col("b", "time"), col("c", "timestamp", 6, nullable=True))
    assert [(c.column_type, c.fsp) for c in t.columns] == [("datetime(3)", 3), ("time", 0), ("timestamp(6)", 6)]


def test_json_is_longtext_on_mariadb_and_json_on_mysql(my, maria):
    c = make(maria, col("j", "json")).column("j")
    assert (c.column_type, c.charset, c.collation, c.family) == ("longtext", "utf8mb4", "utf8mb4_bin", TypeFamily.TEXT)
    assert [(k.name, k.expression) for k in maria.table().checks] == [("j", "json_valid(`j`)")]
    c = make(my, col("j", "json")).column("j")
    assert (c.column_type, c.charset, c.family) == ("json", None, TypeFamily.JSON)
    assert my.table().checks == ()


def test_enum_set_values_unescaped(both):
    t = make(both, col("e", "enum", values=("'a'", "'it''s'", "'x\\\\y'", "'b  '")),
             col("s", "set", values=('"p"', "'q\\'r'")))
    assert t.column("e").values == ("a", "it's", "x\\y", "b")
    assert t.column("s").values == ("p", "q'r")
    assert t.column("e").column_type == "enum('a','it''s','x\\\\y','b')"


def test_enum_values_with_no_backslash_escapes(my):
    my.options = my.options.replace(sql_mode="NO_BACKSLASH_ESCAPES")
    assert make(my, col("e", "enum", values=("'x\\y'",))).column("e").values == ("x\\y",)


def test_unknown_type_is_a_semantic_error(my):
    from mysqlddl.errors import DdlSemanticError
    with pytest.raises(DdlSemanticError, match="Unknown data type"):
        CreateTable(TableId("db", "t"), (col("a", "intt"),)).apply(my.catalog, my.options)


def test_declared_type_text_is_kept(both):
    c = make(both, col("a", "INTEGER", 11, unsigned=True)).column("a")
    assert c.declared_type == "INTEGER(11) UNSIGNED"
    assert c.type_name == "int" and c.family is TypeFamily.INTEGER
