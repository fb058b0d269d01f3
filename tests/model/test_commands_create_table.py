"""CREATE TABLE: the resulting table."""

import pytest

from mysqlddl.commands import (
    AsSelect,
    CheckSpec,
    CreateTable,
    ForeignKeySpec,
    IndexKind,
    IndexPart,
    KeySpec,
    SelectItem,
    TableId,
    col,
)
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import DefaultKind, Partitioning

T = TableId(None, "t")


def test_implicit_nullability_and_default_null(both):
    both(CreateTable(T, (col("a", "int"), col("b", "int", nullable=False), col("c", "int", nullable=True))))
    a, b, c = both.table().columns
    assert (a.nullable, a.default.kind) == (True, DefaultKind.NULL)
    assert (b.nullable, b.default) == (False, None)
    assert (c.nullable, c.default.kind) == (True, DefaultKind.NULL)


def test_text_implicit_default_null_differs_by_dialect(my, maria):
    for run in (my, maria):
        run(CreateTable(T, (col("t", "text"), col("g", "geometry"))))
    assert my.table().column("t").default is None and my.table().column("g").default is None
    assert maria.table().column("t").default.kind is DefaultKind.NULL


def test_inline_and_table_primary_key_columns_become_not_null(both):
    both(CreateTable(T, (col("a", "int", primary_key=True),)))
    assert both.table().column("a").nullable is False
    assert both.table().column("a").default is None
    both(
        CreateTable(
            TableId(None, "u"),
            (col("a", "int"), col("b", "varchar", 3)),
            keys=(KeySpec(IndexKind.PRIMARY, (IndexPart("a"), IndexPart("b"))),),
        )
    )
    u = both.table("u")
    assert [c.nullable for c in u.columns] == [False, False]
    assert u.primary_key.columns == ("a", "b") and u.primary_key.name == "PRIMARY"


def test_timestamp_defaults_when_explicit_defaults_off(both):
    both.options = both.options.replace(explicit_defaults_for_timestamp=False)
    both(
        CreateTable(
            T,
            (
                col("a", "int"),
                col("t1", "timestamp"),
                col("t2", "timestamp"),
                col("t3", "timestamp", nullable=True),
                col("t4", "timestamp", 3, nullable=False),
                col("t5", "timestamp", on_update="CURRENT_TIMESTAMP"),
            ),
        )
    )
    t = both.table()
    t1, t2, t3, t4, t5 = (t.column(n) for n in ("t1", "t2", "t3", "t4", "t5"))
    assert (t1.nullable, t1.default.kind, t1.on_update.kind) == (
        False,
        DefaultKind.CURRENT_TIMESTAMP,
        DefaultKind.CURRENT_TIMESTAMP,
    )
    assert (t2.nullable, t2.default.value, t2.on_update) == (False, "0000-00-00 00:00:00", None)
    assert (t3.nullable, t3.default.kind) == (True, DefaultKind.NULL)
    assert t4.default.value == "0000-00-00 00:00:00.000"
    assert (t5.default.value, t5.on_update.kind) == ("0000-00-00 00:00:00", DefaultKind.CURRENT_TIMESTAMP)


def test_timestamp_is_ordinary_when_explicit_defaults_on(both):
    both.options = both.options.replace(explicit_defaults_for_timestamp=True)
    both(CreateTable(T, (col("t1", "timestamp"), col("t2", "timestamp", nullable=False))))
    t1, t2 = both.table().columns
    assert (t1.nullable, t1.default.kind, t1.on_update) == (True, DefaultKind.NULL, None)
    assert (t2.nullable, t2.default) == (False, None)


def test_literal_defaults_are_normalised_to_the_type(maria):
    maria(
        CreateTable(
            T,
            (
                col("d", "decimal", 10, 2, default="1.5"),
                col("i", "int", default="'7'"),
                col("b", "bool", default="TRUE"),
                col("dt", "datetime", 3, default="'2020-01-01'"),
                col("f", "double", default="1e3"),
                col("bits", "bit", 3, default="b'101'"),
                col("c", "char", 3, default="'ab  '"),
                col("e", "enum", values=("'a'", "'it''s'"), default="'IT''S'"),
                col("s", "varchar", 5, default="_utf8mb4'x' 'y'"),
                col("v", "varbinary", 3, default="0x41"),
                col("tm", "time", 2, default="'1:2:3'"),
                col("y", "year", default="'69'"),
                col("n", "int", default="-1"),
                col("ex", "int", default="(1 + 2)"),
            ),
        )
    )
    t = maria.table()
    got = {c.name: c.default.value for c in t.columns}
    assert got == {
        "d": "1.50",
        "i": "7",
        "b": "1",
        "dt": "2020-01-01 00:00:00.000",
        "f": "1000",
        "bits": "b'101'",
        "c": "ab",
        "e": "it's",
        "s": "xy",
        "v": "A",
        "tm": "01:02:03.00",
        "y": "2069",
        "n": "-1",
        "ex": "(1 + 2)",
    }
    assert t.column("ex").default.kind is DefaultKind.EXPRESSION


def test_current_timestamp_default_with_fsp(both):
    both(CreateTable(T, (col("t", "datetime", 6, default="CURRENT_TIMESTAMP(6)", on_update="now(6)"),)))
    c = both.table().column("t")
    assert (c.default.kind, c.default.fsp, c.on_update.fsp) == (DefaultKind.CURRENT_TIMESTAMP, 6, 6)


def test_not_null_with_default_null_is_rejected(both):
    with pytest.raises(DdlSemanticError, match="Invalid default"):
        CreateTable(T, (col("a", "int", nullable=False, default="NULL"),)).apply(both.catalog, both.options)


def test_keys_are_named_like_the_server(both):
    both(
        CreateTable(
            T,
            (col("a", "int", unique=True), col("b", "int"), col("c", "varchar", 10)),
            keys=(
                KeySpec(IndexKind.INDEX, (IndexPart("a"),)),
                KeySpec(IndexKind.UNIQUE, (IndexPart("b"), IndexPart("c", 4)), constraint_name="uq"),
                KeySpec(IndexKind.FULLTEXT, (IndexPart("c"),), name="ft"),
                KeySpec(IndexKind.INDEX, (IndexPart("c", descending=True),), name="kc", using="BTREE"),
            ),
        )
    )
    t = both.table()
    assert [(k.name, k.kind.value, k.columns) for k in t.keys()] == [
        ("a", "unique", ("a",)),
        ("uq", "unique", ("b", "c")),
        ("a_2", "index", ("a",)),
        ("kc", "index", ("c",)),
        ("ft", "fulltext", ("c",)),
    ]
    assert t.index("uq").parts[1].length == 4 and t.index("kc").parts[0].descending


def test_unique_not_null_keys_sort_before_nullable_ones(both):
    both(
        CreateTable(
            T,
            (col("a", "int"), col("b", "int", nullable=False)),
            keys=(KeySpec(IndexKind.UNIQUE, (IndexPart("a"),)), KeySpec(IndexKind.UNIQUE, (IndexPart("b"),))),
        )
    )
    assert [k.name for k in both.table().keys()] == ["b", "a"]


def test_foreign_keys_get_names_and_an_index(both):
    both(CreateTable(TableId(None, "p"), (col("id", "int", primary_key=True), col("id2", "int"))))
    both(
        CreateTable(
            T,
            (col("a", "int"), col("b", "int")),
            foreign_keys=(
                ForeignKeySpec(("a",), TableId(None, "p"), ("id",)),
                ForeignKeySpec(("b",), TableId(None, "p"), ("id",), name="fkx", on_delete="CASCADE"),
                ForeignKeySpec(("a", "b"), TableId(None, "p"), ("id", "id2"), name="fky", index_name="idxy"),
            ),
        )
    )
    t = both.table()
    assert [(f.name, f.ref_table, f.on_delete) for f in t.foreign_keys] == [
        ("t_ibfk_1", TableId("db", "p"), None),
        ("fkx", TableId("db", "p"), "CASCADE"),
        ("fky", TableId("db", "p"), None),
    ]
    assert [(k.name, k.columns) for k in t.keys()] == [("fkx", ("b",)), ("fky", ("a", "b"))]


def test_check_names_differ_by_dialect(my, maria):
    for run in (my, maria):
        run(
            CreateTable(
                T,
                (col("a", "int", check="a > 0"), col("b", "int")),
                checks=(CheckSpec("a < b"), CheckSpec("b > 1", name="named")),
            )
        )
    assert [(c.name, c.column) for c in maria.table().checks] == [("a", "a"), ("CONSTRAINT_1", None), ("named", None)]
    assert [(c.name, c.column) for c in my.table().checks] == [("t_chk_1", None), ("t_chk_2", None), ("named", None)]


def test_table_options(both):
    both(
        CreateTable(
            T,
            (col("a", "int"),),
            options=(
                ("ENGINE", "myisam"),
                ("COMMENT", "'it''s'"),
                ("ROW_FORMAT", "DYNAMIC"),
                ("AUTO_INCREMENT", "5"),
                ("DEFAULT CHARACTER SET", "latin1"),
            ),
        )
    )
    t = both.table()
    assert (t.engine, t.comment, t.options, t.charset) == ("MyISAM", "it's", (("ROW_FORMAT", "DYNAMIC"),), "latin1")


def test_default_engine_is_innodb(both):
    both(CreateTable(T, (col("a", "int"),)))
    assert both.table().engine == "InnoDB"


def test_if_not_exists_on_an_existing_table_is_a_no_op(both):
    both(CreateTable(T, (col("a", "int"),)))
    before = both.table()
    v = both.catalog.version
    both(CreateTable(T, (col("z", "int"),), if_not_exists=True))
    assert both.table() is before
    assert both.catalog.version == v + 1 and both.catalog.changed == ()


def test_create_existing_table_is_an_error(both):
    both(CreateTable(T, (col("a", "int"),)))
    with pytest.raises(DdlSemanticError, match="already exists"):
        CreateTable(T, (col("a", "int"),)).apply(both.catalog, both.options)


def test_or_replace_replaces(maria):
    maria(CreateTable(T, (col("a", "int"),)))
    maria(CreateTable(T, (col("z", "int"),), or_replace=True))
    assert maria.table().column_names == ("z",)


def test_like_copies_everything_but_foreign_keys(both):
    both(CreateTable(TableId(None, "p"), (col("id", "int", primary_key=True),)))
    both(
        CreateTable(
            T,
            (col("id", "int", auto_increment=True, primary_key=True), col("p", "int")),
            foreign_keys=(ForeignKeySpec(("p",), TableId(None, "p"), ("id",)),),
            options=(("COMMENT", "'c'"),),
        )
    )
    both(CreateTable(TableId(None, "l"), like=TableId(None, "t")))
    t, lk = both.table(), both.table("l")
    assert lk.columns == t.columns and lk.keys() == t.keys() and lk.comment == "c"
    assert lk.foreign_keys == () and lk.id == TableId("db", "l")


def test_like_unknown_source_is_an_error(both):
    with pytest.raises(DdlSemanticError, match="doesn't exist"):
        CreateTable(T, like=TableId(None, "nope")).apply(both.catalog, both.options)


def test_as_select_copies_source_columns(maria):
    maria(
        CreateTable(
            TableId(None, "ai"),
            (
                col("id", "int", auto_increment=True, primary_key=True),
                col("t", "text"),
                col("v", "varchar", 3, nullable=False, default="'x'"),
            ),
        )
    )
    maria(
        CreateTable(
            T,
            (col("extra", "int"),),
            as_select=AsSelect(
                "SELECT id, t AS tt, id*2 AS x, v FROM ai",
                (
                    SelectItem("id", TableId(None, "ai"), "id"),
                    SelectItem("tt", TableId(None, "ai"), "t"),
                    SelectItem("x"),
                    SelectItem("v", TableId(None, "ai"), "v"),
                ),
            ),
        )
    )
    t = maria.table()
    assert t.column_names == ("extra", "id", "tt", "x", "v")
    i = t.column("id")
    assert (i.auto_increment, i.nullable, i.default.value) == (False, False, "0")
    assert t.column("v").default.value == "x" and t.column("x").type_name == "unknown"
    assert t.primary_key is None


def test_temporary_tables_are_separate(both):
    both(CreateTable(T, (col("a", "int"),)))
    both(CreateTable(T, (col("tmp", "int"),), temporary=True))
    assert both.catalog.table("db", "t").column_names == ("tmp",)  # shadows the base table
    assert both.catalog.base_table(TableId("db", "t")).column_names == ("a",)
    assert len(both.catalog.temporary_tables) == 1


def test_unknown_database_is_created_with_server_defaults(maria):
    maria(CreateTable(TableId("other", "x"), (col("s", "varchar", 2),)))
    assert maria.catalog.database("other").charset == "latin1"
    assert maria.catalog.table("other", "x").column("s").collation == "latin1_swedish_ci"


def test_partitioning_summary_is_kept(both):
    p = Partitioning("RANGE", "id", 2, ("p0", "p1"))
    both(CreateTable(T, (col("id", "int"),), partitioning=p))
    assert both.table().partitioning == p


def test_generated_and_invisible_columns(both):
    both(
        CreateTable(
            T,
            (
                col("a", "int"),
                col("g", "int", generated="a + 1", stored=True),
                col("h", "int", visible=False, comment="'note'"),
            ),
        )
    )
    t = both.table()
    assert (t.column("g").generated.kind.value, t.column("g").generated.expression, t.column("g").default) == (
        "stored",
        "a + 1",
        None,
    )
    assert (t.column("h").visible, t.column("h").comment) == (False, "note")


def test_legacy_timestamp_default_null_by_dialect(my, maria):
    for run in (my, maria):
        run.options = run.options.replace(explicit_defaults_for_timestamp=False)
    maria(CreateTable(T, (col("f", "timestamp", default="NULL"), col("a", "timestamp", default="NULL"))))
    f, a = maria.table().columns
    assert (a.nullable, a.default.value) == (False, "0000-00-00 00:00:00")
    assert (f.nullable, f.default.kind) == (False, DefaultKind.CURRENT_TIMESTAMP)  # first one auto-inits
    with pytest.raises(DdlSemanticError, match="Invalid default"):
        CreateTable(T, (col("a", "timestamp", default="NULL"),)).apply(my.catalog, my.options)


def test_unique_key_on_text_without_prefix_by_dialect(my, maria):
    spec = (col("t", "text", nullable=False), col("i", "int", nullable=False, unique=True))
    maria(CreateTable(T, spec, keys=(KeySpec(IndexKind.UNIQUE, (IndexPart("t"),)),)))
    assert [(k.name, k.using) for k in maria.table().keys()] == [("i", None), ("t", "HASH")]
    with pytest.raises(DdlSemanticError, match="without a key length"):
        CreateTable(T, spec, keys=(KeySpec(IndexKind.UNIQUE, (IndexPart("t"),)),)).apply(my.catalog, my.options)
    with pytest.raises(DdlSemanticError, match="without a key length"):
        CreateTable(TableId(None, "u"), spec, keys=(KeySpec(IndexKind.PRIMARY, (IndexPart("t"),)),)).apply(
            maria.catalog, maria.options
        )


def test_mariadb_shortens_plain_keys_on_long_columns(maria):
    maria(
        CreateTable(
            T,
            (col("t", "text"), col("tt", "tinytext"), col("b", "blob", charset=None), col("v", "varchar", 1000)),
            keys=tuple(KeySpec(IndexKind.INDEX, (IndexPart(n),)) for n in ("t", "tt", "b", "v")),
        )
    )
    assert [k.parts[0].length for k in maria.table().keys()] == [768, 255, 3072, 768]


def test_auto_increment_must_be_a_single_key_column(both):
    with pytest.raises(DdlSemanticError, match="only one auto column"):
        CreateTable(T, (col("a", "int", auto_increment=True),)).apply(both.catalog, both.options)
    with pytest.raises(DdlSemanticError, match="only one auto column"):
        CreateTable(T, (col("a", "int", auto_increment=True, primary_key=True), col("s", "serial"))).apply(
            both.catalog, both.options
        )
    both(CreateTable(T, (col("a", "int", auto_increment=True, unique=True),)))
    assert both.table().column("a").auto_increment


def test_failed_or_replace_leaves_no_table(maria):
    from mysqlddl.errors import PartialApplyError

    maria(CreateTable(T, (col("a", "int"),)))
    with pytest.raises(PartialApplyError) as e:
        CreateTable(T, (col("a", "int"), col("a", "int")), or_replace=True).apply(maria.catalog, maria.options)
    assert e.value.catalog.table("db", "t") is None and maria.table().column_names == ("a",)
    with pytest.raises(DdlSemanticError, match="OR REPLACE and IF NOT EXISTS"):
        CreateTable(T, (col("a", "int"),), or_replace=True, if_not_exists=True).apply(maria.catalog, maria.options)


def test_memory_engine_rules(both):
    from mysqlddl.model import render

    with pytest.raises(DdlSemanticError, match="doesn't support BLOB/TEXT"):
        CreateTable(T, (col("a", "text"),), options=(("ENGINE", "MEMORY"),)).apply(both.catalog, both.options)
    both(
        CreateTable(
            T, (col("a", "int"),), keys=(KeySpec(IndexKind.INDEX, (IndexPart("a"),)),), options=(("ENGINE", "memory"),)
        )
    )
    t = both.table()
    assert t.engine == "MEMORY" and render.index_type(t.keys()[0], t) == "HASH"
