"""CREATE/DROP INDEX and the recorded views."""

import pytest

from mysqlddl.commands import (
    AlterView,
    CreateIndex,
    CreateTable,
    CreateView,
    DropIndex,
    DropView,
    IndexKind,
    IndexPart,
    KeySpec,
    TableId,
    col,
)
from mysqlddl.errors import DdlSemanticError

T = TableId(None, "t")


def test_create_and_drop_index(both):
    both(CreateTable(T, (col("a", "int"), col("b", "varchar", 10))))
    both(CreateIndex(T, KeySpec(IndexKind.UNIQUE, (IndexPart("b", 3),), name="ub")))
    assert both.table().index("ub").parts == (IndexPart("b", 3),)
    both(CreateIndex(T, KeySpec(IndexKind.INDEX, (IndexPart("a"),), name="ub"), if_not_exists=True))
    assert both.table().index("ub").kind is IndexKind.UNIQUE
    both(DropIndex(T, "ub"))
    assert both.table().keys() == ()
    with pytest.raises(DdlSemanticError):
        DropIndex(T, "ub").apply(both.catalog, both.options)
    with pytest.raises(DdlSemanticError, match="doesn't exist"):
        CreateIndex(T, KeySpec(IndexKind.INDEX, (IndexPart("zz"),), name="k")).apply(both.catalog, both.options)


def test_views_are_recorded(both):
    both(CreateView(TableId(None, "v"), "SELECT 1 AS x", ("x",), options=(("ALGORITHM", "MERGE"),)))
    v = both.catalog.view(TableId("db", "v"))
    assert (v.definition, v.columns, v.options) == ("SELECT 1 AS x", ("x",), (("ALGORITHM", "MERGE"),))
    with pytest.raises(DdlSemanticError, match="already exists"):
        CreateView(TableId(None, "v"), "SELECT 2").apply(both.catalog, both.options)
    both(CreateView(TableId(None, "v"), "SELECT 2", or_replace=True))
    both(AlterView(TableId(None, "v"), "SELECT 3"))
    assert both.catalog.view(TableId("db", "v")).definition == "SELECT 3"
    both(DropView((TableId(None, "v"), TableId(None, "w")), if_exists=True))
    assert both.catalog.views == {}
    with pytest.raises(DdlSemanticError, match="Unknown VIEW"):
        DropView((TableId(None, "v"),)).apply(both.catalog, both.options)
