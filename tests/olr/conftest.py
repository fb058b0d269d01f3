"""Fixtures of the OLR tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def oracle_ddl():
    """The Oracle DDL parser (``parse_ddl(..., dialect="oracle")``). The grammar half of issue #8
    has landed, so a basic CREATE TABLE with Oracle types must parse: a failure here is an error
    of every test that uses the fixture, never a skip (they must not silently stop running)."""
    from mysqlddl.ddl import parse_ddl
    from mysqlddl.errors import MysqlddlError

    try:
        parse_ddl("CREATE TABLE T (ID NUMBER(10) PRIMARY KEY, D DATE, R RAW(8), B BINARY_DOUBLE)", dialect="oracle")
    except MysqlddlError as e:
        pytest.fail(f"the Oracle DDL grammar does not parse a basic CREATE TABLE: {e}")
    return parse_ddl
