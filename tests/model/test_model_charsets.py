"""Charset/collation tables and the server -> database -> table -> column inheritance."""

import pytest

from mysqlddl.commands import AlterDatabase, Assignment, CreateDatabase, CreateTable, SetVariable, TableId, col
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import Catalog, charsets
from mysqlddl.options import Options

MYSQL = Options(dialect="mysql")
MARIADB = Options(dialect="mariadb")


@pytest.mark.parametrize("cs,mysql,mariadb", [
    ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_general_ci"),
    ("latin1", "latin1_swedish_ci", "latin1_swedish_ci"),
    ("utf8", "utf8mb3_general_ci", "utf8mb3_general_ci"),
    ("binary", "binary", "binary"),
    ("ascii", "ascii_general_ci", "ascii_general_ci"),
    ("cp932", "cp932_japanese_ci", "cp932_japanese_ci"),
])
def test_default_collation_per_dialect(cs, mysql, mariadb):
    assert charsets.default_collation(cs, "mysql") == mysql
    assert charsets.default_collation(cs, "mariadb") == mariadb


@pytest.mark.parametrize("coll,cs", [("utf8mb4_bin", "utf8mb4"), ("utf8_general_ci", "utf8mb3"),
                                     ("utf16le_general_ci", "utf16le"), ("binary", "binary"),
                                     ("latin1_german2_ci", "latin1")])
def test_charset_of_collation(coll, cs):
    assert charsets.charset_of_collation(coll) == cs


def test_unknown_collation_and_mismatch_are_errors():
    with pytest.raises(DdlSemanticError, match="Unknown collation"):
        charsets.charset_of_collation("klingon_ci")
    with pytest.raises(DdlSemanticError, match="not valid for CHARACTER SET"):
        charsets.resolve_pair("latin1", "utf8mb4_bin", ("latin1", "latin1_swedish_ci"), "mysql")


def test_utf8_collation_alias_resolves_to_utf8mb3():
    assert charsets.canonical_collation("UTF8_BIN") == "utf8mb3_bin"
    assert charsets.canonical_charset("utf8") == "utf8mb3"


def test_server_defaults_per_dialect():
    assert Catalog.empty(MYSQL).server_charset(MYSQL) == ("utf8mb4", "utf8mb4_0900_ai_ci")
    assert Catalog.empty(MARIADB).server_charset(MARIADB) == ("latin1", "latin1_swedish_ci")
    o = MARIADB.replace(character_set_server="utf8mb4")
    assert Catalog.empty(o).server_charset(o) == ("utf8mb4", "utf8mb4_general_ci")


def _db(cat, name):
    return (cat.database(name).charset, cat.database(name).collation)


def test_database_inherits_server_and_collate_alone_picks_charset():
    c = Catalog.empty(MYSQL)
    c = CreateDatabase("a").apply(c, MYSQL)
    c = CreateDatabase("b", collation="latin1_bin").apply(c, MYSQL)
    c = CreateDatabase("c", charset="latin1").apply(c, MYSQL)
    assert _db(c, "a") == ("utf8mb4", "utf8mb4_0900_ai_ci")
    assert _db(c, "b") == ("latin1", "latin1_bin")
    assert _db(c, "c") == ("latin1", "latin1_swedish_ci")


def test_set_character_set_server_changes_later_databases():
    c = Catalog.empty(MARIADB)
    c = SetVariable((Assignment("character_set_server", "utf8mb4"),)).apply(c, MARIADB)
    c = CreateDatabase("a").apply(c, MARIADB)
    c = SetVariable((Assignment("@@session.collation_server", "'utf8mb4_unicode_ci'"),)).apply(c, MARIADB)
    c = CreateDatabase("b").apply(c, MARIADB)
    assert _db(c, "a") == ("utf8mb4", "utf8mb4_general_ci")
    assert _db(c, "b") == ("utf8mb4", "utf8mb4_unicode_ci")


def test_alter_database_keeps_existing_tables(tmp_path):
    c = Catalog.empty(MARIADB)
    c = CreateDatabase("d", "latin1").apply(c, MARIADB)
    c = CreateTable(TableId("d", "t"), (col("s", "varchar", 3),)).apply(c, MARIADB)
    c = AlterDatabase("d", "utf8mb4").apply(c, MARIADB)
    c = CreateTable(TableId("d", "u"), (col("s", "varchar", 3),)).apply(c, MARIADB)
    assert c.table("d", "t").column("s").charset == "latin1"
    assert c.table("d", "u").column("s").collation == "utf8mb4_general_ci"
    assert _db(c, "d") == ("utf8mb4", "utf8mb4_general_ci")


def _cols(run_opts, *cols, table_opts=(), db_cs="latin1"):
    c = Catalog.empty(run_opts)
    c = CreateDatabase("d", db_cs).apply(c, run_opts)
    c = CreateTable(TableId("d", "t"), tuple(cols), options=table_opts).apply(c, run_opts)
    return c.table("d", "t")


def test_table_inherits_database_and_column_inherits_table():
    t = _cols(MYSQL, col("a", "varchar", 3))
    assert (t.charset, t.collation) == ("latin1", "latin1_swedish_ci")
    assert (t.column("a").charset, t.column("a").collation) == ("latin1", "latin1_swedish_ci")
    t = _cols(MYSQL, col("a", "varchar", 3), table_opts=(("DEFAULT CHARSET", "utf8mb4"),))
    assert (t.column("a").charset, t.column("a").collation) == ("utf8mb4", "utf8mb4_0900_ai_ci")


def test_column_charset_alone_takes_its_default_collation_not_the_tables():
    t = _cols(MARIADB, col("a", "varchar", 3, charset="utf8mb4"), col("b", "char", 2, collation="utf8mb4_bin"),
              table_opts=(("COLLATE", "utf8mb4_unicode_ci"),))
    assert (t.charset, t.collation) == ("utf8mb4", "utf8mb4_unicode_ci")
    assert t.column("a").collation == "utf8mb4_general_ci"
    assert (t.column("b").charset, t.column("b").collation) == ("utf8mb4", "utf8mb4_bin")


def test_binary_attribute_selects_the_bin_collation():
    t = _cols(MARIADB, col("a", "varchar", 5, binary=True), col("b", "varchar", 5, binary=True, charset="utf8mb4"))
    assert t.column("a").collation == "latin1_bin"
    assert (t.column("b").charset, t.column("b").collation) == ("utf8mb4", "utf8mb4_bin")


def test_national_types_use_utf8mb3():
    t = _cols(MARIADB, col("a", "NCHAR", 3), col("b", "NATIONAL VARCHAR", 4), col("c", "nvarchar", 2))
    assert [(c.column_type, c.charset, c.collation) for c in t.columns] == [
        ("char(3)", "utf8mb3", "utf8mb3_general_ci"), ("varchar(4)", "utf8mb3", "utf8mb3_general_ci"),
        ("varchar(2)", "utf8mb3", "utf8mb3_general_ci")]


def test_non_character_columns_have_no_charset():
    t = _cols(MYSQL, col("a", "int"), col("b", "blob"), col("c", "datetime"))
    assert {(c.charset, c.collation) for c in t.columns} == {(None, None)}
