"""Fixtures of the DDL grammar tests: ``statement_rule`` (parse and name the statement rule) and
``rejection`` (the first positioned syntax error of an invalid statement)."""

from __future__ import annotations

import pytest

from mysqlddl.ddl import Engine
from mysqlddl.options import DEFAULT, Options

ENGINE = Engine()


def statement_rule(sql: str, options: Options = DEFAULT) -> str:
    """The name of the statement-level rule ``sql`` parsed as (e.g. ``createTable``); fails the
    test with the positioned error when it does not parse."""
    res = ENGINE.parse(sql, options)
    assert res.ok, f"rejected: {sql!r}\n{res.errors[0]}"
    node = res.tree.sqlStatement()
    assert node is not None, f"empty statement: {sql!r}"
    # sqlStatement -> family rule (ddlStatement, ...) -> the statement rule; labelled alternatives
    # (accountStatement, adminStatement, ...) report their label's context name.
    while node.getChildCount() == 1 and not hasattr(node, "symbol"):
        child = node.getChild(0)
        if hasattr(child, "symbol"):
            break
        node = child
    name = type(node).__name__
    name = name[:-len("Context")] if name.endswith("Context") else name
    return name[0].lower() + name[1:]


def rejection(sql: str, options: Options = DEFAULT):
    """The first syntax error of ``sql``; fails the test when it parses."""
    res = ENGINE.parse(sql, options)
    assert not res.ok, f"accepted but should be rejected: {sql!r}"
    return res.errors[0]



@pytest.fixture(name="statement_rule")
def _statement_rule_fixture():
    return statement_rule


@pytest.fixture(name="rejection")
def _rejection_fixture():
    return rejection
