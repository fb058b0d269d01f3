"""Object mapping rules: lookups, validation against a catalog, positioned errors."""

from __future__ import annotations

import pytest
import tomllib

from mysqlddl.ddl import run_script
from mysqlddl.errors import MappingError
from mysqlddl.mapping import ColumnRule, Mapping
from mysqlddl.model.catalog import Catalog
from mysqlddl.options import DEFAULT


def catalog(sql: str) -> Catalog:
    return run_script(Catalog.empty(DEFAULT), sql, DEFAULT).catalog


CAT = ("CREATE DATABASE d; USE d; CREATE TABLE t (id INT PRIMARY KEY, Name VARCHAR(9), secret TEXT); "
       "CREATE TABLE u (a INT)")


def test_lookups():
    m = Mapping.from_config({
        "tables": [{"database": "d", "schema": "s"}, {"database": "d", "table": "t", "name": "tt"}],
        "columns": [{"database": "d", "table": "t", "column": "name", "name": "full_name", "transform": "upper(%d)"},
                    {"database": "d", "table": "*", "column": "a", "type": "bigint"}],
        "exclude": [{"database": "d", "table": "t", "column": "secret"}, {"database": "x*"}],
    })
    assert m.table_for("d", "t") == ("s", "tt") and m.table_for("d", "u") == ("s", "u")
    assert m.table_for("e", "t") == ("e", "t")
    ct = m.column_for("d", "t", "NAME")               # columns match case-insensitively
    assert ct.name == "full_name" and ct.expression('s."Name"') == 'upper(s."Name")'
    assert m.column_for("d", "t", "secret") is None and m.column_for("d", "t", "id").name == "id"
    assert m.column_for("d", "u", "a").type == "bigint"
    assert not m.table_included("xy", "t") and m.table_included("d", "t")
    m.validate(catalog(CAT))


def test_include_lists_limit_tables_and_columns():
    m = Mapping.from_config({"include": [{"database": "d", "table": "t"},
                                         {"database": "d", "table": "t", "column": "id"}]})
    assert m.table_included("d", "t") and not m.table_included("d", "u")
    assert m.column_for("d", "t", "id") is not None and m.column_for("d", "t", "name") is None


@pytest.mark.parametrize(("config", "where", "setting"), [
    ({"columns": [{"database": "d", "table": "t", "column": "id", "transform": "x + 1"}]},
     "mapping.columns[0]", "transform"),
    ({"columns": [{"database": "d", "table": "t", "column": "id"}]}, "mapping.columns[0]", None),
    ({"tables": [{"database": "d", "table": "t", "shema": "x"}]}, "mapping.tables[0]", "shema"),
    ({"columns": [{"database": "d", "table": "t", "column": "i*", "name": "x"}]}, "mapping.columns[0]", "column"),
    ({"colums": []}, "mapping", "colums"),
])
def test_rule_errors_name_the_rule_and_key(config, where, setting):
    with pytest.raises(MappingError) as e:
        Mapping.from_config(config)
    assert e.value.rule == where and e.value.setting == setting
    assert where in str(e.value)


def test_validation_against_the_schema_in_force():
    cat = catalog(CAT)
    bad_col = Mapping.from_config({"columns": [{"database": "d", "table": "t", "column": "nope", "name": "x"}]})
    with pytest.raises(MappingError, match="has no column 'nope'") as e:
        bad_col.validate(cat)
    assert e.value.rule == "mapping.columns[0]"
    clash = Mapping.from_config({"tables": [{"database": "d", "table": "u", "name": "t"}]})
    with pytest.raises(MappingError, match="both map to d.t"):
        clash.validate(cat)
    cols = Mapping(columns=(ColumnRule("d", "t", "name", name="id", where="api"),))
    with pytest.raises(MappingError, match="both map to id"):
        cols.validate(cat)
    # a table not created yet is fine: a later CREATE brings it
    Mapping.from_config({"columns": [{"database": "d", "table": "later", "column": "c", "name": "x"}]}).validate(cat)


def test_a_table_the_history_saw_go_is_an_error_but_one_to_come_is_not():
    cat = catalog(CAT)
    m = Mapping.from_config({"tables": [{"database": "d", "table": "old", "name": "x"}],
                             "columns": [{"database": "d", "table": "later", "column": "c", "name": "y"}]})
    m.validate(cat, gone={("d", "gone_too")})
    with pytest.raises(MappingError, match="d.old no longer exists") as e:
        m.validate(cat, gone={("d", "old")})
    assert e.value.rule == "mapping.tables[0]" and e.value.setting == "table"
    # (a glob names no one table: it is not checked)
    Mapping.from_config({"tables": [{"database": "d", "table": "ol*", "name": "x"}]}).validate(cat, gone={("d", "old")})


def test_rules_carry_their_line_in_the_pipeline_file():
    text = ('name = "p"\n[source]\nuri = "file:///x/"\n'
            '[[mapping.columns]]\ndatabase = "d"\ntable = "t"\ncolumn = "nope"\nname = "x"\n'
            '[[mapping.tables]]  # a rename\ndatabase = "d"\ntable = "u"\nname = "v"\n'
            '[[ mapping.columns ]]\ndatabase = "d"\ntable = "u"\ncolumn = "a"\nname = "b"\n')
    m = Mapping.from_config(tomllib.loads(text)["mapping"]).with_lines(text, "p.toml")
    assert [r.where for r in m.columns] == ["mapping.columns[0] (p.toml line 4)", "mapping.columns[1] (p.toml line 13)"]
    assert m.tables[0].where == "mapping.tables[0] (p.toml line 9)"
    with pytest.raises(MappingError) as e:
        m.validate(catalog(CAT))
    assert str(e.value).startswith("mapping.columns[0] (p.toml line 4) (column): d.t has no column 'nope'")
    # inline tables have no header lines: left as they are
    inline = 'mapping.columns = [{database = "d", table = "t", column = "c", name = "x"}]\n'
    m2 = Mapping.from_config(tomllib.loads(inline)["mapping"]).with_lines(inline, "p.toml")
    assert m2.columns[0].where == "mapping.columns[0]"
