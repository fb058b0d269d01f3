"""Helpers of the Oracle DDL tests: parse with the Oracle dialect, apply to a catalog whose
default schema is ``APP``, and look tables up by their stored (upper-case) names."""

from __future__ import annotations

import pytest

from mysqlddl.commands import UseDatabase
from mysqlddl.ddl import parse_ddl, run_script
from mysqlddl.model import Catalog
from mysqlddl.options import Options

ORACLE = Options(dialect="oracle")


def commands(sql: str):
    return parse_ddl(sql, dialect="oracle")


def apply(sql: str, catalog: Catalog | None = None) -> Catalog:
    """The catalog after ``sql`` (strict: the first failing statement raises)."""
    if catalog is None:
        catalog = UseDatabase("APP").apply(Catalog.empty(ORACLE), ORACLE)
    return run_script(catalog, sql, ORACLE).catalog


def table(sql: str, name: str, catalog: Catalog | None = None):
    cat = apply(sql, catalog)
    t = cat.table("APP", name)
    assert t is not None, f"no table APP.{name}: {[str(x.id) for x in cat.all_tables()]}"
    return t


@pytest.fixture
def oracle_options() -> Options:
    return ORACLE
