"""Table, TableEditor and Catalog invariants."""

import dataclasses

import pytest

from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import Catalog, Column, Default, Index, IndexKind, IndexPart, Table, TableId


def tbl():
    return Table(TableId("d", "t"), columns=(Column("a", "int"), Column("b", "varchar", length=3),
                                             Column("c", "int")))


def test_model_values_are_frozen():
    t = tbl()
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.columns = ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.columns[0].name = "x"
    assert isinstance(t.columns, tuple)


def test_editor_builds_a_new_table_and_leaves_the_old_one():
    t = tbl()
    t2 = t.edit().add_column(Column("z", "int"), first=True).drop_column("b").build()
    assert t.column_names == ("a", "b", "c") and t2.column_names == ("z", "a", "c")
    assert [c.position for c in t2.columns] == [1, 2, 3]


def test_editor_moves_columns():
    t = tbl().edit().move_column("a", after="c").build()
    assert t.column_names == ("b", "c", "a")
    t = t.edit().move_column("c", first=True).build()
    assert t.column_names == ("c", "b", "a")


def test_column_lookup_is_case_insensitive():
    t = tbl()
    assert t.column("B").name == "b"
    with pytest.raises(DdlSemanticError):
        t.edit().add_column(Column("A", "int"))


def test_build_makes_primary_key_columns_not_null():
    t = Table(TableId("d", "t"), columns=(Column("a", "int", default=Default.null()),))
    t2 = t.edit().add_index(Index(IndexKind.PRIMARY, "x", (IndexPart("a"),))).build()
    assert (t2.column("a").nullable, t2.column("a").default, t2.primary_key.name) == (False, None, "PRIMARY")


def test_unique_index_names():
    ed = tbl().edit()
    ed.add_index(Index(IndexKind.INDEX, "a", (IndexPart("a"),)))
    assert ed.unique_index_name("a") == "a_2" and ed.unique_index_name("primary") == "primary_2"
    with pytest.raises(DdlSemanticError, match="Duplicate key"):
        ed.add_index(Index(IndexKind.UNIQUE, "A", (IndexPart("b"),)))


def test_options_set_replace_and_remove():
    t = tbl().edit().set_option("row_format", "DYNAMIC").set_option("KEY_BLOCK_SIZE", "8").build()
    t = t.edit().set_option("ROW_FORMAT", "COMPACT").set_option("key_block_size", None).build()
    assert t.options == (("ROW_FORMAT", "COMPACT"),)


def test_set_rejects_unknown_fields():
    with pytest.raises(TypeError):
        tbl().edit().set(columns=())


def test_catalog_evolve_counts_versions_and_keeps_old_versions():
    c0 = Catalog.empty()
    c1 = c0.evolve(put=[tbl()], changed=[TableId("d", "t")])
    assert (c0.version, c1.version) == (0, 1)
    assert c0.table("d", "t") is None and c1.table("d", "t") is not None
    with pytest.raises(TypeError):
        c1.tables[TableId("d", "x")] = tbl()  # read-only mapping
