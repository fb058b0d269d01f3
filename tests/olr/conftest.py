"""Fixtures of the OLR tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def oracle_ddl():
    """The Oracle DDL parser (``parse_ddl(..., dialect="oracle")``), written in parallel by the
    grammar half of issue #8; tests that need it skip, saying so, until it parses a basic CREATE
    TABLE with Oracle types."""
    from mysqlddl.ddl.api import parse_ddl
    from mysqlddl.errors import MysqlddlError

    try:
        parse_ddl("CREATE TABLE T (ID NUMBER(10) PRIMARY KEY, D DATE, R RAW(8), B BINARY_DOUBLE)", dialect="oracle")
    except MysqlddlError as e:
        pytest.skip(f"the Oracle DDL grammar does not parse a basic CREATE TABLE yet: {e}")
    return parse_ddl
