"""DROP TABLE, RENAME TABLE, TRUNCATE TABLE."""

import pytest

from mysqlddl.commands import CreateTable, DropTable, RenameTable, TableId, TruncateTable, col
from mysqlddl.errors import DdlSemanticError


def mk(run, name, *cols, **kw):
    run(CreateTable(TableId(None, name), cols or (col("id", "int"),), **kw))


def test_drop_several_tables(both):
    mk(both, "a"), mk(both, "b"), mk(both, "c")
    both(DropTable((TableId(None, "a"), TableId("db", "b"))))
    assert [t.name for t in both.catalog.all_tables()] == ["c"]
    assert set(both.catalog.changed) == {TableId("db", "a"), TableId("db", "b")}


def test_drop_unknown_fails_mysql_drops_nothing_mariadb_drops_the_rest(my, maria):
    from mysqlddl.commands import apply_all
    from mysqlddl.errors import PartialApplyError

    cmd = DropTable((TableId(None, "a"), TableId(None, "nope")))
    for run in (my, maria):
        mk(run, "a")
    with pytest.raises(DdlSemanticError, match="Unknown table 'db.nope'") as e:
        cmd.apply(my.catalog, my.options)
    assert not isinstance(e.value, PartialApplyError)
    with pytest.raises(PartialApplyError) as e:
        cmd.apply(maria.catalog, maria.options)
    assert e.value.catalog.table("db", "a") is None
    res = apply_all(maria.catalog, [cmd], maria.options.replace(error_policy="skip"))
    assert res.skipped == 1 and res.catalog.table("db", "a") is None
    res = apply_all(my.catalog, [cmd], my.options.replace(error_policy="skip"))
    assert res.skipped == 1 and res.catalog.table("db", "a") is not None


def test_drop_unknown_if_exists(both):
    mk(both, "a")
    both(DropTable((TableId(None, "a"), TableId(None, "nope")), if_exists=True))
    assert both.catalog.all_tables() == [] and both.catalog.changed == (TableId("db", "a"),)


def test_drop_temporary_prefers_the_temporary_table(both):
    mk(both, "t", col("base", "int"))
    mk(both, "t", col("tmp", "int"), temporary=True)
    both(DropTable((TableId(None, "t"),)))
    assert both.catalog.table("db", "t").column_names == ("base",)
    with pytest.raises(DdlSemanticError):
        DropTable((TableId(None, "t"),), temporary=True).apply(both.catalog, both.options)


def test_rename_pairs_in_sequence_swap(both):
    mk(both, "swap_a", col("a_only", "int"))
    mk(both, "swap_b", col("b_only", "int"))
    both(RenameTable(((TableId(None, "swap_a"), TableId(None, "swap_tmp")),
                      (TableId(None, "swap_b"), TableId(None, "swap_a")),
                      (TableId(None, "swap_tmp"), TableId(None, "swap_b")))))
    assert both.table("swap_a").column_names == ("b_only",)
    assert both.table("swap_b").column_names == ("a_only",)
    assert both.catalog.table("db", "swap_tmp") is None
    assert both.table("swap_a").id == TableId("db", "swap_a")


def test_rename_across_databases_and_errors(both):
    mk(both, "a"), mk(both, "b")
    both(RenameTable(((TableId(None, "a"), TableId("other", "a")),)))
    assert both.catalog.table("other", "a") is not None and both.catalog.table("db", "a") is None
    with pytest.raises(DdlSemanticError, match="already exists"):
        RenameTable(((TableId("other", "a"), TableId(None, "b")),)).apply(both.catalog, both.options)
    with pytest.raises(DdlSemanticError, match="doesn't exist"):
        RenameTable(((TableId(None, "zz"), TableId(None, "y")),)).apply(both.catalog, both.options)


def test_rename_version_counts_once(both):
    mk(both, "a")
    v = both.catalog.version
    both(RenameTable(((TableId(None, "a"), TableId(None, "b")), (TableId(None, "b"), TableId(None, "c")))))
    assert both.catalog.version == v + 1


def test_truncate_changes_no_definition(both):
    mk(both, "a")
    before = both.table("a")
    both(TruncateTable(TableId(None, "a")))
    assert both.table("a") is before and both.catalog.changed == (TableId("db", "a"),)
    with pytest.raises(DdlSemanticError):
        TruncateTable(TableId(None, "zz")).apply(both.catalog, both.options)


def test_lower_case_table_names_1_and_2():
    from mysqlddl.model import Catalog
    from mysqlddl.options import Options
    for lc, stored in ((1, "mytable"), (2, "MyTable")):
        o = Options(lower_case_table_names=lc)
        c = CreateTable(TableId("DB", "MyTable"), (col("a", "int"),)).apply(Catalog.empty(o), o)
        assert c.table("db", "MYTABLE").name == stored
    o = Options(lower_case_table_names=0)
    c = CreateTable(TableId("db", "MyTable"), (col("a", "int"),)).apply(Catalog.empty(o), o)
    assert c.table("db", "mytable") is None and c.table("db", "MyTable") is not None
