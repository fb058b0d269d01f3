"""The dispatcher: one table of families, non-schema statements give nothing, errors are positioned."""

import pytest

from mysqlddl.ddl import parse_ddl, parse_statement, run_script
from mysqlddl.ddl.mysql import dispatcher
from mysqlddl.ddl.mysql.dispatcher import FAMILIES, build_commands
from mysqlddl.ddl.mysql.source import StatementSource
from mysqlddl.errors import DdlError, DdlSemanticError, DdlSyntaxError
from mysqlddl.model import Catalog
from mysqlddl.options import ErrorPolicy, Options


def test_every_family_is_named_after_its_rule():
    names = {fam for fam, _ in FAMILIES.values()}
    assert {"createTable", "alterTable", "dropTable", "renameTable", "truncateTable", "createDatabase",
            "alterDatabase", "dropDatabase", "createIndex", "dropIndex", "createView", "useStatement",
            "setStatement"} <= names
    for ctx, (fam, _) in FAMILIES.items():
        # setStatement's schema-relevant alternative is the labelled one, setVariables
        expected = "SetVariablesContext" if fam == "setStatement" else fam[0].upper() + fam[1:] + "Context"
        assert ctx.__name__ == expected


@pytest.mark.parametrize("sql", [
    "INSERT INTO t VALUES (1)", "SELECT 1", "BEGIN", "COMMIT", "GRANT SELECT ON *.* TO u",
    "FLUSH TABLES", "ANALYZE TABLE t", "SHOW TABLES", "",
])
def test_statements_that_change_no_schema_give_nothing(sql):
    assert parse_ddl(sql) == []


def test_builder_failure_becomes_a_positioned_error(monkeypatch):
    def boom(ctx, src):
        raise KeyError("x")
    monkeypatch.setitem(dispatcher.FAMILIES, dispatcher.P.DropTableContext, ("dropTable", boom))
    sql = "  DROP TABLE t"
    with pytest.raises(DdlSemanticError, match="dropTable: cannot build commands: KeyError") as ei:
        build_commands(parse_statement(sql), StatementSource(sql, statement_index=4, source="f.sql"))
    e = ei.value
    assert (e.line, e.column, e.offset, e.statement_index, e.source) == (1, 2, 2, 4, "f.sql")
    assert isinstance(e.__cause__, KeyError)


def test_builder_errors_carry_the_statement_index():
    with pytest.raises(DdlError, match="AS type") as ei:
        parse_ddl("CREATE TABLE a (x INT);\nCREATE SEQUENCE s AS TINYINT", "mariadb")
    assert ei.value.statement_index == 1


def test_syntax_errors_carry_statement_index():
    with pytest.raises(DdlSyntaxError) as ei:
        parse_ddl("CREATE TABLE a (x INT);\nCREATE TABLE b (x INT,);")
    assert ei.value.statement_index == 1 and ei.value.line == 1


def test_skip_policy_collects_and_goes_on():
    opts = Options(error_policy=ErrorPolicy.COLLECT)
    res = run_script(Catalog.empty(opts), "USE d;\nCREATE TABLE a (x INT);\nCREATE TABLE a (y INT);\n"
                                          "CREATE TABLE b (x INT,);\nCREATE TABLE c (z INT);", opts)
    assert [t.name for t in res.catalog.all_tables()] == ["a", "c"]
    assert [e.statement_index for e in res.errors] == [2, 3]
    assert res.catalog.table("d", "a").column_names == ("x",)


def test_public_api_is_exported_lazily():
    import mysqlddl
    from mysqlddl import ddl

    assert mysqlddl.parse_ddl is ddl.parse_ddl and mysqlddl.apply_script is ddl.apply_script
    assert [type(c).__name__ for c in mysqlddl.parse_ddl("USE d; CREATE TABLE t (a INT)")] == \
        ["UseDatabase", "CreateTable"]
