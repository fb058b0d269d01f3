"""CREATE/ALTER/DROP DATABASE, USE, SET."""

import pytest

from mysqlddl.commands import (
    AlterDatabase,
    Assignment,
    CreateDatabase,
    CreateTable,
    DropDatabase,
    SetVariable,
    TableId,
    UseDatabase,
    col,
)
from mysqlddl.errors import DdlSemanticError
from mysqlddl.model import DefaultKind


def test_create_database_if_not_exists_and_duplicate(both):
    with pytest.raises(DdlSemanticError, match="database exists"):
        CreateDatabase("db").apply(both.catalog, both.options)
    before = both.catalog.database("db")
    both(CreateDatabase("db", "latin1", if_not_exists=True))
    assert both.catalog.database("db") is before


def test_create_database_comment_and_or_replace(maria):
    maria(CreateTable(TableId(None, "t"), (col("a", "int"),)))
    maria(CreateDatabase("db", "latin1", or_replace=True, comment="'hi'"))
    d = maria.catalog.database("db")
    assert (d.charset, d.comment) == ("latin1", "hi") and maria.catalog.all_tables() == []


def test_drop_database_removes_its_tables(both):
    both(CreateDatabase("other"), CreateTable(TableId(None, "t"), (col("a", "int"),)),
         CreateTable(TableId("other", "t"), (col("a", "int"),)))
    both(DropDatabase("db"))
    assert [str(t.id) for t in both.catalog.all_tables()] == ["other.t"]
    assert both.catalog.database("db") is None and both.catalog.changed == (TableId("db", "t"),)
    with pytest.raises(DdlSemanticError, match="doesn't exist"):
        DropDatabase("db").apply(both.catalog, both.options)
    both(DropDatabase("db", if_exists=True))


def test_use_database_qualifies_later_names(both):
    both(CreateDatabase("other"), UseDatabase("other"), CreateTable(TableId(None, "t"), (col("a", "int"),)))
    assert both.catalog.table("other", "t") is not None and both.catalog.session.database == "other"


def test_alter_database_default_db(both):
    both(AlterDatabase(None, collation="latin1_bin"))
    d = both.catalog.database("db")
    assert (d.charset, d.collation) == ("latin1", "latin1_bin")
    with pytest.raises(DdlSemanticError, match="Unknown database"):
        AlterDatabase("nope", "latin1").apply(both.catalog, both.options)


def test_set_explicit_defaults_for_timestamp_and_sql_mode(both):
    both(SetVariable((Assignment("explicit_defaults_for_timestamp", "OFF"), Assignment("sql_mode", "'REAL_AS_FLOAT'"))))
    both(CreateTable(TableId(None, "t"), (col("ts", "timestamp"), col("r", "real"))))
    t = both.table()
    assert t.column("ts").default.kind is DefaultKind.CURRENT_TIMESTAMP and t.column("r").type_name == "float"
    both(SetVariable((Assignment("explicit_defaults_for_timestamp", "DEFAULT"), Assignment("sql_mode", "DEFAULT"))))
    assert both.catalog.session.explicit_defaults_for_timestamp is None and both.catalog.session.sql_mode is None


def test_set_names_foreign_key_checks_and_other_variables(both):
    both(SetVariable((Assignment("names", "utf8", collation="utf8_bin"), Assignment("foreign_key_checks", "0"),
                      Assignment("@@session.time_zone", "'+00:00'"))))
    s = both.catalog.session
    assert (s.character_set_client, s.foreign_key_checks, s.variables) == ("utf8mb3", False,
                                                                           (("time_zone", "'+00:00'"),))


def test_set_default_storage_engine(both):
    both(SetVariable((Assignment("default_storage_engine", "MyISAM"),)))
    both(CreateTable(TableId(None, "t"), (col("a", "int"),)))
    assert both.table().engine == "MyISAM"


def test_set_bad_boolean_is_an_error(both):
    with pytest.raises(DdlSemanticError):
        SetVariable((Assignment("foreign_key_checks", "maybe"),)).apply(both.catalog, both.options)
