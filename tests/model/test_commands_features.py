"""Commands for index visibility, CHECK enforcement, FK naming, key renames, sequences, system
versioning, periods, partition counts and CTAS types, per dialect (the MariaDB side is also
checked against the server in test_model_vs_mariadb_features.py)."""

import pytest

from mysqlddl import commands as C
from mysqlddl.commands import IndexKind, IndexPart, KeySpec, TableId, col, ctas_types
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import render
from mysqlddl.model.spec import CheckSpec, DataTypeSpec, ForeignKeySpec

T = TableId(None, "t")


def alter(*ops):
    return C.AlterTable(T, ops)


def key(name, *cols, kind=IndexKind.INDEX, **kw):
    return KeySpec(kind, tuple(IndexPart(c) for c in cols), name=name, **kw)


def make(run):
    run(C.CreateTable(T, (col("a", "INT"), col("b", "INT"), col("c", "INT", nullable=False)),
                      keys=(key("ka", "a"), key("kb", "b"), key("uc", "c", kind=IndexKind.UNIQUE))))


def test_invisible_index_rendered_per_dialect(both):
    make(both)
    both(alter(C.AlterIndexVisibility("ka", False)))
    t = both.table()
    assert not t.index("ka").visible
    word = "IGNORED" if both.options.dialect.value == "mariadb" else "/*!80000 INVISIBLE */"
    assert f"KEY `ka` (`a`) {word}" in render.create_table_sql(t, both.options)


def test_implicit_primary_key_cannot_be_invisible(both):
    make(both)  # uc: the first UNIQUE key on NOT NULL columns acts as the primary key
    with pytest.raises(DdlSemanticError, match="primary key"):
        alter(C.AlterIndexVisibility("uc", False)).apply(both.catalog, both.options)
    both(alter(C.AddIndex(key("PRIMARY", "c", kind=IndexKind.PRIMARY))))
    both(alter(C.AlterIndexVisibility("uc", False)))  # no longer the implicit one
    assert not both.table().index("uc").visible


def test_alter_index_names_old_keys_only(maria):
    make(maria)
    for ops in ((C.AddIndex(key("kn", "a")), C.AlterIndexVisibility("kn", False)),
                (C.RenameIndex("ka", "k2"), C.AlterIndexVisibility("ka", False)),
                (C.RenameIndex("ka", "k2"), C.AlterIndexVisibility("k2", False))):
        with pytest.raises(DdlSemanticError, match="doesn't exist"):
            alter(*ops).apply(maria.catalog, maria.options)


def test_key_renames_use_old_names_and_check_duplicates_at_the_end(maria):
    make(maria)
    maria(alter(C.RenameIndex("ka", "kb"), C.RenameIndex("kb", "kc")))
    assert [k.name for k in maria.table().indexes] == ["kb", "kc"]
    maria(alter(C.RenameIndex("kb", "x"), C.DropKey("kc")))
    assert [k.name for k in maria.table().indexes] == ["x"]
    for ops in ((C.RenameIndex("x", "y"), C.RenameIndex("y", "z")), (C.RenameIndex("x", "uc"),),
                (C.RenameIndex("x", "y"), C.DropKey("y"))):
        with pytest.raises(DdlSemanticError):
            alter(*ops).apply(maria.catalog, maria.options)


def test_check_enforcement_mysql(my):
    my(C.CreateTable(T, (col("a", "INT", check="`a` > 0", check_enforced=False),),
                     checks=(CheckSpec("`a` < 9", "c"),)))
    my(alter(C.AlterCheckEnforcement("c", False)))
    t = my.table()
    assert [(c.name, c.enforced) for c in t.checks] == [("t_chk_1", False), ("c", False)]
    assert "CHECK (`a` < 9) /*!80016 NOT ENFORCED */" in render.create_table_sql(t, my.options)
    with pytest.raises(DdlSemanticError, match="not found"):
        alter(C.AlterCheckEnforcement("nope", True)).apply(my.catalog, my.options)


def test_check_enforcement_is_refused_by_mariadb(maria):
    maria(C.CreateTable(T, (col("a", "INT"),), checks=(CheckSpec("`a` > 0", "c"),)))
    for cmd in (alter(C.AlterCheckEnforcement("c", True)),
                alter(C.AddCheck(CheckSpec("`a` > 1", enforced=False))),
                C.CreateTable(TableId(None, "u"), (col("a", "INT", check="a > 0", check_enforced=False),))):
        with pytest.raises(DdlSemanticError, match="ENFORCED"):
            cmd.apply(maria.catalog, maria.options)


def test_foreign_key_named_by_index_name_per_dialect(both):
    both(C.CreateTable(TableId(None, "p"), (col("id", "INT", primary_key=True),)))
    both(C.CreateTable(T, (col("a", "INT"),), foreign_keys=(
        ForeignKeySpec(("a",), TableId(None, "p"), ("id",), index_name="ix"),)))
    t = both.table()
    want = "ix" if both.options.dialect.value == "mariadb" else "t_ibfk_1"
    assert [f.name for f in t.foreign_keys] == [want]
    assert [k.name for k in t.indexes] == ["ix"]  # the index is named ix on both


def test_rename_table_if_exists(both):
    make(both)
    both(C.RenameTable(((TableId(None, "nope"), TableId(None, "x")), (T, TableId(None, "u"))), if_exists=True))
    assert both.catalog.table("db", "u") is not None and both.catalog.table("db", "x") is None
    with pytest.raises(DdlSemanticError):
        C.RenameTable(((TableId(None, "nope"), TableId(None, "x")),)).apply(both.catalog, both.options)


def test_sequence_settings_and_render(maria):
    maria(C.CreateSequence(T, (("START", "5"), ("CACHE", None), ("CYCLE", "1")), (("COMMENT", "'c'"),)))
    t = maria.table()
    assert render.table_type(t) == "SEQUENCE"
    assert render.create_sequence_sql(t) == ("CREATE SEQUENCE `t` start with 5 minvalue 1 maxvalue "
                                             "9223372036854775806 increment by 1 nocache cycle ENGINE=InnoDB "
                                             "COMMENT='c'")
    assert render.create_table_sql(t, maria.options).endswith(") ENGINE=InnoDB SEQUENCE=1 COMMENT='c'")
    maria(C.CreateTable(TableId(None, "u"), like=T))
    assert maria.table("u").sequence == C.Sequence()  # LIKE copies the structure, not the settings
    with pytest.raises(DdlSemanticError, match="out of range"):
        C.CreateSequence(T, (("MINVALUE", "10"), ("MAXVALUE", "5")), or_replace=True).apply(
            maria.catalog, maria.options)


def test_system_versioning_hidden_columns(maria):
    maria(C.CreateTable(T, (col("a", "INT"), col("b", "INT", versioning=False)), system_versioning=True))
    t = maria.table()
    assert [(c.name, c.hidden, c.row_period) for c in t.columns] == [
        ("a", False, None), ("b", False, None), ("row_start", True, "start"), ("row_end", True, "end")]
    sql = render.create_table_sql(t, maria.options)
    assert "row_start" not in sql and sql.endswith(" WITH SYSTEM VERSIONING")
    assert "`b` int(11) DEFAULT NULL WITHOUT SYSTEM VERSIONING" in sql
    maria(alter(C.AddColumn(col("c", "INT")), C.AddColumn(col("d", "INT"), first=True)))
    assert maria.table().column_names == ("d", "a", "b", "c", "row_start", "row_end")
    maria(alter(C.DropSystemVersioning()))
    assert maria.table().column_names == ("d", "a", "b", "c") and render.table_type(maria.table()) == "BASE TABLE"
    with pytest.raises(DdlSemanticError, match="not system-versioned"):
        alter(C.DropSystemVersioning()).apply(maria.catalog, maria.options)


def test_period_rules(maria):
    maria(C.CreateTable(T, (col("id", "INT"), col("s", "DATE"), col("e", "DATE")),
                        keys=(key("u", "id", kind=IndexKind.UNIQUE, without_overlaps="p"),),
                        periods=(C.Period("p", "s", "e"),)))
    t = maria.table()
    assert render.index_columns(t.index("u"), t) == ("id", "e", "s")
    assert "PERIOD FOR `p` (`s`, `e`),\n  UNIQUE KEY `u` (`id`,`p` WITHOUT OVERLAPS)" in render.create_table_sql(
        t, maria.options)
    for ops in ((C.DropColumn("s"),), (C.AddPeriod(C.Period("p", "s", "e")),), (C.DropPeriod("q"),)):
        with pytest.raises(DdlSemanticError):
            alter(*ops).apply(maria.catalog, maria.options)


@pytest.mark.parametrize("text, column_type, nullable", [
    ("0", "int(1)", False), ("-0", "int(1)", False), ("123456789", "int(9)", False),
    ("-12345678", "int(9)", False), ("-123456789", "bigint(10)", False),
    ("9223372036854775807", "bigint(19)", False), ("9223372036854775808", "bigint(20) unsigned", False),
    ("18446744073709551616", "decimal(20,0)", False), (".5", "decimal(1,1)", False),
    ("-0.50", "decimal(3,2)", False), ("1e-3", "double", False), ("x'ABCD'", "varbinary(2)", False),
    ("b'101010101'", "varbinary(2)", False), ("''", "char(0)", False), ("'it''s'", "varchar(4)", False),
    ("NULL", "binary(0)", True),
])
def test_ctas_literal_types(text, column_type, nullable):
    c = ctas_types.literal_column("x", text, ("utf8mb4", None), "mariadb")
    assert (c.column_type, c.nullable) == (column_type, nullable)


def test_ctas_cast_types():
    conn = ("latin1", None)
    c = ctas_types.cast_column("x", DataTypeSpec("CHAR", 3), False, conn, "mariadb")
    assert (c.column_type, c.charset, c.nullable, c.default.kind.value) == ("varchar(3)", "latin1", True, "null")
    assert ctas_types.cast_column("x", DataTypeSpec("DECIMAL", 6, 2), False, conn, "mariadb").nullable is False
    assert ctas_types.cast_column("x", DataTypeSpec("DECIMAL"), True, conn, "mariadb").column_type == "decimal(10,0)"
    assert ctas_types.cast_column("x", DataTypeSpec("SIGNED"), False, conn, "mariadb") is None  # not typed
    assert ctas_types.function_column("x", "NOW", "2").column_type == "datetime(2)"
