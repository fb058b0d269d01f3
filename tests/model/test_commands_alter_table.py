"""ALTER TABLE: each operation, asserted on the resulting table."""

import pytest

from mysqlddl.commands import (
    AddCheck,
    AddColumn,
    AddForeignKey,
    AddIndex,
    AlterColumnDefault,
    AlterColumnVisibility,
    AlterTable,
    ChangeColumn,
    CheckSpec,
    ConvertCharset,
    CreateTable,
    DefaultCharset,
    DropCheck,
    DropColumn,
    DropConstraint,
    DropForeignKey,
    DropKey,
    DropPrimaryKey,
    ForeignKeySpec,
    IndexKind,
    IndexPart,
    KeySpec,
    ModifyColumn,
    PartitionOp,
    RenameColumn,
    RenameIndex,
    RenameTo,
    TableId,
    TableOptions,
    col,
)
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import DefaultKind, Partitioning

T = TableId(None, "t")


def alter(run, *ops, **kw):
    return run(AlterTable(T, tuple(ops), **kw))


@pytest.fixture
def evo(both):
    both(
        CreateTable(
            T,
            (
                col("id", "int", nullable=False, auto_increment=True, primary_key=True),
                col("a", "int"),
                col("b", "varchar", 20),
            ),
        )
    )
    return both


def test_add_column_first_after_and_last(evo):
    alter(evo, AddColumn(col("c", "datetime", 3), after="a"))
    alter(evo, AddColumn(col("z", "bigint", unsigned=True, nullable=False, default="18446744073709551615"), first=True))
    alter(evo, AddColumn(col("last", "int")))
    t = evo.table()
    assert t.column_names == ("z", "id", "a", "c", "b", "last")
    assert [c.position for c in t.columns] == [1, 2, 3, 4, 5, 6]
    assert t.column("z").default.value == "18446744073709551615"


def test_add_existing_column_is_an_error_unless_if_not_exists(evo):
    with pytest.raises(DdlSemanticError, match="Duplicate column"):
        AlterTable(T, (AddColumn(col("A", "int")),)).apply(evo.catalog, evo.options)
    alter(evo, AddColumn(col("a", "text"), if_not_exists=True))
    assert evo.table().column("a").type_name == "int"


def test_drop_column_removes_it_from_keys(evo):
    alter(
        evo,
        AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"), IndexPart("b")), name="kab")),
        AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),), name="ka")),
    )
    alter(evo, DropColumn("a"))
    t = evo.table()
    assert t.column_names == ("id", "b")
    assert [(k.name, k.columns) for k in t.keys()] == [("PRIMARY", ("id",)), ("kab", ("b",))]


def test_dropping_the_pk_column_drops_the_primary_key(evo):
    alter(evo, DropColumn("id"))
    t = evo.table()
    assert t.primary_key is None and t.column_names == ("a", "b")


def test_drop_column_of_multi_column_unique_key_by_dialect(my, maria):
    for run in (my, maria):
        run(
            CreateTable(
                T,
                (col("a", "int"), col("b", "int"), col("c", "int")),
                keys=(KeySpec(IndexKind.UNIQUE, (IndexPart("a"), IndexPart("b")), name="uab"),),
            )
        )
    alter(my, DropColumn("a"))
    assert my.table().index("uab").columns == ("b",)
    with pytest.raises(DdlSemanticError, match="Key column 'a'"):
        AlterTable(T, (DropColumn("a"),)).apply(maria.catalog, maria.options)


def test_drop_all_columns_is_an_error(both):
    both(CreateTable(T, (col("a", "int"),)))
    with pytest.raises(DdlSemanticError, match="delete all columns"):
        AlterTable(T, (DropColumn("a"),)).apply(both.catalog, both.options)


def test_drop_unknown_column_if_exists(evo):
    alter(evo, DropColumn("nope", if_exists=True))
    with pytest.raises(DdlSemanticError, match="Can't DROP COLUMN"):
        AlterTable(T, (DropColumn("nope"),)).apply(evo.catalog, evo.options)


def test_modify_replaces_the_whole_definition(evo):
    alter(evo, ModifyColumn(col("b", "varchar", 300, charset="latin1", nullable=False, default="'x'")))
    alter(evo, ModifyColumn(col("b", "varchar", 300)))  # attributes not repeated are gone
    b = evo.table().column("b")
    assert (b.column_type, b.nullable, b.default.kind, b.charset) == ("varchar(300)", True, DefaultKind.NULL, "utf8mb4")


def test_modify_of_pk_column_stays_not_null(evo):
    alter(evo, ModifyColumn(col("id", "bigint")))
    i = evo.table().column("id")
    assert (i.type_name, i.nullable, i.auto_increment, i.default) == ("bigint", False, False, None)


def test_change_renames_moves_and_renames_in_keys(evo):
    alter(evo, AddIndex(KeySpec(IndexKind.UNIQUE, (IndexPart("b", 5),))))
    alter(evo, ChangeColumn("b", col("b_renamed", "text", charset="utf8mb4"), first=True))
    t = evo.table()
    assert t.column_names == ("b_renamed", "id", "a")
    assert t.index("b").parts[0].column == "b_renamed"


def test_change_after_itself_is_an_error(evo):
    with pytest.raises(DdlSemanticError):
        AlterTable(T, (ChangeColumn("a", col("a", "int"), after="a"),)).apply(evo.catalog, evo.options)


def test_change_move_to_the_end(evo):
    alter(evo, ChangeColumn("id", col("id", "int", nullable=False), after="b"))
    assert evo.table().column_names == ("a", "b", "id")


def test_rename_column_keeps_definition(evo):
    alter(evo, RenameColumn("b", "bb"))
    assert evo.table().column("bb").column_type == "varchar(20)" and evo.table().column("b") is None


def test_alter_column_default_set_and_drop(evo):
    alter(evo, AlterColumnDefault("a", "'5'"))
    assert evo.table().column("a").default.value == "5"
    alter(evo, AlterColumnDefault("a", None))
    assert evo.table().column("a").default.kind is DefaultKind.NULL  # nullable: DEFAULT NULL
    alter(evo, ModifyColumn(col("a", "int", nullable=False, default="1")))
    alter(evo, AlterColumnDefault("a", None))
    assert evo.table().column("a").default is None


def test_alter_column_visibility(evo):
    alter(evo, AlterColumnVisibility("a", False))
    assert evo.table().column("a").visible is False


def test_add_and_drop_keys(evo):
    alter(
        evo,
        AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),))),
        AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),))),
    )
    assert [k.name for k in evo.table().indexes] == ["a", "a_2"]
    alter(evo, DropKey("a"), RenameIndex("a_2", "ka"))
    assert [k.name for k in evo.table().indexes] == ["ka"]
    alter(evo, DropKey("nope", if_exists=True))
    with pytest.raises(DdlSemanticError, match="check that it exists"):
        AlterTable(T, (DropKey("nope"),)).apply(evo.catalog, evo.options)


def test_add_index_if_not_exists(evo):
    alter(evo, AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),), name="k")))
    alter(evo, AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("b"),), name="k"), if_not_exists=True))
    assert evo.table().index("k").columns == ("a",)


def test_drop_and_add_primary_key(evo):
    alter(evo, ModifyColumn(col("id", "int", nullable=False)), DropPrimaryKey())
    assert evo.table().primary_key is None and evo.table().column("id").nullable is False
    alter(evo, AddIndex(KeySpec(IndexKind.PRIMARY, (IndexPart("a"),))))
    a = evo.table().column("a")
    assert evo.table().primary_key.columns == ("a",) and a.nullable is False and a.default is None
    with pytest.raises(DdlSemanticError, match="Multiple primary key"):
        AlterTable(T, (AddIndex(KeySpec(IndexKind.PRIMARY, (IndexPart("b"),))),)).apply(evo.catalog, evo.options)


def test_foreign_key_and_check_operations(evo):
    alter(
        evo,
        AddForeignKey(ForeignKeySpec(("a",), TableId(None, "t"), ("id",))),
        AddCheck(CheckSpec("a > 0", name="pos")),
    )
    t = evo.table()
    assert [f.name for f in t.foreign_keys] == ["t_ibfk_1"] and t.index("a") is not None
    alter(evo, DropForeignKey("t_ibfk_1"), DropCheck("pos"))
    t = evo.table()
    assert t.foreign_keys == () and t.checks == () and t.index("a") is not None  # the index stays


def test_drop_constraint_finds_fk_check_or_unique(evo):
    alter(
        evo,
        AddForeignKey(ForeignKeySpec(("a",), TableId(None, "t"), ("id",), name="f")),
        AddCheck(CheckSpec("a > 0", name="c")),
        AddIndex(KeySpec(IndexKind.UNIQUE, (IndexPart("b"),), name="u")),
    )
    alter(evo, DropConstraint("f"), DropConstraint("c"), DropConstraint("u"))
    t = evo.table()
    assert (t.foreign_keys, t.checks, t.unique_keys) == ((), (), ())
    with pytest.raises(DdlSemanticError):
        AlterTable(T, (DropConstraint("zz"),)).apply(evo.catalog, evo.options)


def test_rename_to_moves_the_table(evo):
    alter(evo, RenameTo(TableId(None, "t2")))
    assert evo.catalog.table("db", "t") is None and evo.table("t2").column_names == ("id", "a", "b")
    assert set(evo.catalog.changed) == {TableId("db", "t"), TableId("db", "t2")}


def test_convert_to_charset_changes_every_text_column_and_promotes_text(maria):
    maria(
        CreateTable(
            T,
            (
                col("a", "tinytext"),
                col("b", "text"),
                col("c", "mediumtext"),
                col("d", "varchar", 10),
                col("e", "enum", values=("'x'",)),
                col("g", "varchar", 5, collation="latin1_bin"),
                col("i", "int"),
            ),
            options=(("CHARSET", "latin1"),),
        )
    )
    alter(maria, ConvertCharset("utf8mb4"))
    t = maria.table()
    assert [c.type_name for c in t.columns] == ["text", "mediumtext", "longtext", "varchar", "enum", "varchar", "int"]
    assert {c.collation for c in t.columns if c.name != "i"} == {"utf8mb4_general_ci"}
    assert t.column("i").charset is None and (t.charset, t.collation) == ("utf8mb4", "utf8mb4_general_ci")


def test_convert_to_smaller_charset_keeps_text_types(maria):
    maria(CreateTable(T, (col("a", "text"),), options=(("CHARSET", "utf8mb4"),)))
    alter(maria, ConvertCharset("latin1"))
    assert maria.table().column("a").column_type == "text" and maria.table().column("a").charset == "latin1"


def test_default_charset_changes_only_the_table_default(evo):
    alter(evo, DefaultCharset("latin1"))
    t = evo.table()
    assert (t.charset, t.column("b").charset) == ("latin1", "utf8mb4")


def test_columns_added_with_a_charset_change_use_the_new_default(both):
    both(CreateTable(T, (col("a", "int"),), options=(("DEFAULT CHARSET", "utf8mb4"),)))
    alter(
        both,
        AddColumn(col("b", "varchar", 3)),
        TableOptions((("DEFAULT CHARSET", "latin1"),)),
        AddColumn(col("c", "varchar", 3)),
    )
    t = both.table()
    assert (t.column("b").charset, t.column("c").charset, t.charset) == ("latin1", "latin1", "latin1")


def test_table_options(evo):
    alter(evo, TableOptions((("ENGINE", "Aria"), ("COMMENT", "'hi'"), ("ROW_FORMAT", "COMPACT"))))
    t = evo.table()
    assert (t.engine, t.comment, t.option("row_format")) == ("Aria", "hi", "COMPACT")


def test_partition_operations_are_recorded(evo):
    alter(evo, PartitionOp("PARTITION BY", partitioning=Partitioning("HASH", "id", 4)))
    assert evo.table().partitioning.count == 4
    alter(evo, PartitionOp("REMOVE PARTITIONING"))
    assert evo.table().partitioning is None
    alter(evo, PartitionOp("PARTITION BY", partitioning=Partitioning("RANGE", "id", None, ("p0", "p1"))))
    alter(evo, PartitionOp("ADD PARTITION", names=("p2",)), PartitionOp("DROP PARTITION", names=("p0",)))
    assert evo.table().partitioning.names == ("p1", "p2")


def test_timestamp_added_first_gets_auto_init_when_off(both):
    both.options = both.options.replace(explicit_defaults_for_timestamp=False)
    both(CreateTable(T, (col("a", "int"), col("t2", "timestamp", default="0"))))
    alter(both, AddColumn(col("t1", "timestamp"), first=True), AddColumn(col("t3", "timestamp")))
    t = both.table()
    assert t.column("t1").default.kind is DefaultKind.CURRENT_TIMESTAMP
    assert t.column("t3").default.value == "0000-00-00 00:00:00"
    assert t.column("t2").default.value == "0000-00-00 00:00:00"


def test_alter_unknown_table(both):
    with pytest.raises(DdlSemanticError, match="doesn't exist"):
        AlterTable(TableId(None, "nope"), (DropColumn("a"),)).apply(both.catalog, both.options)
    v = both.catalog.version
    both(AlterTable(TableId(None, "nope"), (DropColumn("a"),), if_exists=True))
    assert both.catalog.version == v + 1


def test_failed_alter_changes_nothing(evo):
    before = evo.table()
    with pytest.raises(DdlSemanticError):
        AlterTable(T, (DropColumn("a"), DropColumn("nope"))).apply(evo.catalog, evo.options)
    assert evo.table() is before


def test_drops_apply_before_adds(maria):
    maria(CreateTable(T, (col("a", "int"),), checks=(CheckSpec("a > 0"),)))
    alter(maria, AddCheck(CheckSpec("a <> 7")), DropConstraint("CONSTRAINT_1"))
    assert [(c.name, c.expression) for c in maria.table().checks] == [("CONSTRAINT_1", "a <> 7")]
    alter(maria, AddColumn(col("a", "text")), DropColumn("a"))
    assert maria.table().column("a").type_name == "text"


def test_a_column_is_changed_at_most_once_per_statement(evo):
    with pytest.raises(DdlSemanticError, match="Unknown column 'a'"):
        AlterTable(T, (ModifyColumn(col("a", "bigint")), RenameColumn("a", "a2"))).apply(evo.catalog, evo.options)
    with pytest.raises(DdlSemanticError, match="Unknown column 'n'"):
        AlterTable(T, (AddColumn(col("n", "int")), ModifyColumn(col("n", "bigint")))).apply(evo.catalog, evo.options)
    with pytest.raises(DdlSemanticError, match="Can't DROP COLUMN"):
        AlterTable(T, (AddColumn(col("n", "int")), DropColumn("n"))).apply(evo.catalog, evo.options)


def test_key_order_is_resorted_only_when_a_key_is_added(maria):
    maria(
        CreateTable(
            T,
            (col("a", "int"), col("b", "int")),
            keys=(
                KeySpec(IndexKind.UNIQUE, (IndexPart("a"),), name="ua"),
                KeySpec(IndexKind.UNIQUE, (IndexPart("b"),), name="ub"),
            ),
        )
    )
    alter(maria, ModifyColumn(col("b", "int", nullable=False)))
    assert [k.name for k in maria.table().keys()] == ["ua", "ub"]
    alter(
        maria,
        AddColumn(col("d", "int", nullable=False)),
        AddIndex(KeySpec(IndexKind.UNIQUE, (IndexPart("d"),), name="ud")),
    )
    assert [k.name for k in maria.table().keys()] == ["ub", "ud", "ua"]


def test_explicit_default_charset_wins_over_convert_for_the_table_default(maria):
    maria(CreateTable(T, (col("a", "varchar", 3),), options=(("CHARSET", "latin1"),)))
    alter(maria, ConvertCharset("utf8"), DefaultCharset(None, "latin1_bin"), AddColumn(col("b", "varchar", 2)))
    t = maria.table()
    assert (t.charset, t.collation) == ("latin1", "latin1_bin")
    assert [(c.charset, c.collation) for c in t.columns] == [("utf8mb3", "utf8mb3_general_ci")] * 2


def test_new_keys_see_the_new_column_names(evo):
    with pytest.raises(DdlSemanticError, match="Key column 'a'"):
        AlterTable(
            T, (AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),))), ChangeColumn("a", col("a2", "int")))
        ).apply(evo.catalog, evo.options)
    alter(evo, AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("n"),))), AddColumn(col("n", "int")))
    assert evo.table().index("n").columns == ("n",)


def test_after_sees_the_new_column_names(evo):
    with pytest.raises(DdlSemanticError, match="Unknown column 'a'"):
        AlterTable(T, (AddColumn(col("n", "int"), after="a"), ChangeColumn("a", col("a2", "int")))).apply(
            evo.catalog, evo.options
        )
    alter(evo, AddColumn(col("n", "int"), after="a2"), ChangeColumn("a", col("a2", "int"), first=True))
    assert evo.table().column_names == ("a2", "id", "n", "b")  # as MariaDB 10.11.19 does it


def test_rename_rewrites_backquoted_expressions(maria):
    maria(
        CreateTable(
            T, (col("j", "json"), col("a", "int"), col("g", "int", generated="`a` + 1")), checks=(CheckSpec("`a` > 0"),)
        )
    )
    alter(maria, RenameColumn("j", "j2"))
    alter(maria, ChangeColumn("a", col("b", "int")))
    t = maria.table()
    assert [(c.name, c.expression) for c in t.checks] == [
        ("CONSTRAINT_1", "`b` > 0"),
        ("j", "json_valid(`j2`)"),
    ] or sorted((c.name, c.expression) for c in t.checks) == [("CONSTRAINT_1", "`b` > 0"), ("j", "json_valid(`j2`)")]
    assert t.column("g").generated.expression == "`b` + 1"


def test_binary_attribute_survives_convert_in_the_same_statement(maria):
    maria(CreateTable(T, (col("a", "varchar", 3), col("b", "varchar", 3)), options=(("CHARSET", "latin1"),)))
    alter(maria, ConvertCharset("utf8mb4"), ModifyColumn(col("a", "varchar", 3, binary=True)))
    t = maria.table()
    assert (t.column("a").collation, t.column("b").collation) == ("utf8mb4_bin", "utf8mb4_general_ci")


def test_conflicting_collations_and_key_drops_before_column_drops(maria):
    maria(
        CreateTable(
            T, (col("a", "int"), col("b", "int")), keys=(KeySpec(IndexKind.INDEX, (IndexPart("a"),), name="k"),)
        )
    )
    with pytest.raises(DdlSemanticError, match="Conflicting declarations"):
        AlterTable(T, (DefaultCharset(None, "latin1_bin"), DefaultCharset(None, "utf8mb4_bin"))).apply(
            maria.catalog, maria.options
        )
    alter(maria, DropColumn("a"), DropKey("k"))
    assert maria.table().keys() == () and maria.table().column_names == ("b",)


def test_zerofill_default_is_padded(both):
    both(CreateTable(T, (col("z", "smallint", zerofill=True, default="7"),)))
    assert both.table().column("z").default.value == "00007"


def test_alter_column_may_target_a_column_added_by_the_statement(evo):
    alter(evo, AddColumn(col("x1", "int")), AlterColumnDefault("x1", "5"))
    assert evo.table().column("x1").default.value == "5"


def test_set_default_and_on_update_by_dialect(my, maria):
    for run in (my, maria):
        run(CreateTable(T, (col("ts", "timestamp", default="CURRENT_TIMESTAMP", on_update="CURRENT_TIMESTAMP"),)))
        alter(run, AlterColumnDefault("ts", "'2020-01-01 00:00:00'"))
    assert my.table().column("ts").on_update is not None  # MySQL keeps ON UPDATE
    assert maria.table().column("ts").on_update is None  # MariaDB 10.11 drops it
    assert maria.table().column("ts").default.value == "2020-01-01 00:00:00"


def test_alter_column_conflicts_with_an_in_place_redefinition(evo):
    for ops in (
        (ModifyColumn(col("a", "bigint")), AlterColumnDefault("a", "1")),
        (AlterColumnDefault("a", "1"), AlterColumnDefault("a", None)),
    ):
        with pytest.raises(DdlSemanticError, match="Unknown column 'a'"):
            AlterTable(T, ops).apply(evo.catalog, evo.options)
    alter(evo, AlterColumnDefault("a", "7"), ModifyColumn(col("a", "bigint"), first=True))
    assert evo.table().column_names[0] == "a" and evo.table().column("a").type_name == "bigint"
