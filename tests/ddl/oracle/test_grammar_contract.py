"""The grammar/listener contract (grammars/oracle/README.md): every labelled alternative has a
listener entry, every keyword token is either an identifier or one of the words the README says
are reserved, and the rule names the listeners use exist."""

from __future__ import annotations

import inspect

from mysqlddl._generated.oracle import OracleParser as parser_module
from mysqlddl._generated.oracle.OracleLexer import OracleLexer as L
from mysqlddl._generated.oracle.OracleParser import OracleParser as P

from mysqlddl.ddl.oracle import alter_table, column_definition, constraint, dispatcher

# Oracle's reserved words (SQL Ref. Appendix D) that are tokens here, plus the four words README
# decision 3 keeps out of `identifier`.
RESERVED = {
    "ADD", "ALL", "ALTER", "AND", "AS", "BY", "CHAR", "CHECK", "CLUSTER", "COLUMN", "COMMENT",
    "CREATE", "DATE", "DECIMAL", "DEFAULT", "DELETE", "DROP", "EXISTS", "FLOAT", "FOR", "GRANT",
    "IDENTIFIED", "IMMEDIATE", "INDEX", "INSERT", "INTEGER", "INTO", "IS", "LOCK", "LONG", "MODIFY",
    "NOAUDIT", "NOT", "NULL", "NUMBER", "OF", "ON", "ONLINE", "OR", "RAW", "RENAME", "REVOKE", "ROW",
    "ROWID", "SELECT", "SET", "SMALLINT", "TABLE", "TO", "UNIQUE", "UPDATE", "VALIDATE", "VARCHAR",
    "VARCHAR2", "VIEW", "WITH", "AUDIT",
    "CONSTRAINT", "PRIMARY", "FOREIGN", "SUPPLEMENTAL",  # README decision 3
    "REFERENCES",  # starts an inline constraint right after a column's (optional) type
}


def _subclasses(base) -> set[type]:
    return {c for _, c in inspect.getmembers(parser_module.OracleParser, inspect.isclass)
            if issubclass(c, base) and c is not base}


def test_every_alter_clause_label_has_a_handler():
    assert _subclasses(P.AlterTableClauseContext) == set(alter_table._CLAUSES)


def test_every_column_attribute_label_has_an_entry():
    assert _subclasses(P.ColumnAttributeContext) == set(column_definition._ATTRIBUTES)


def test_constraint_bodies_and_states_are_all_handled():
    src = inspect.getsource(constraint)
    for cls in _subclasses(P.InlineConstraintBodyContext) | _subclasses(P.OutOfLineConstraintBodyContext) \
            | _subclasses(P.ConstraintStateContext):
        if cls in (P.UsingIndexStateContext, P.ExceptionsStateContext, P.CheckInlineContext,
                   P.CheckConstraintContext):
            continue  # not recorded / the fall-through branch
        assert f"P.{cls.__name__}" in src, cls.__name__


def test_statement_families():
    assert {name for name, _ in dispatcher.FAMILIES.values()} == {
        "createTable", "alterTable", "dropTable", "truncateTable", "commentOnTable", "commentOnColumn",
        "renameObject"}


def test_every_keyword_is_an_identifier_unless_reserved():
    atn = P.atn
    ident = set(atn.nextTokens(atn.ruleToStartState[P.RULE_identifier]))
    keywords = {t for t, lit in enumerate(P.literalNames) if lit[:1] == "'" and lit[1:2].isalpha()}
    not_ident = {P.literalNames[t].strip("'") for t in keywords - ident}
    assert not_ident == RESERVED
    assert L.ID in ident and L.QUOTED_ID in ident
