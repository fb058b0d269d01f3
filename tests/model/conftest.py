"""Helpers for the model/commands tests: options per dialect and a command runner."""

from __future__ import annotations

import pytest

from mysqlddl.commands import CreateDatabase, UseDatabase, apply_all
from mysqlddl.model import Catalog
from mysqlddl.options import Options

MYSQL = Options(dialect="mysql", server_version=(8, 0, 40))
MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))


class Runner:
    """Applies commands to a catalog that starts with database ``db`` (charset ``cs``) in use."""

    def __init__(self, options: Options, cs: str = "utf8mb4"):
        self.options = options
        self.catalog = Catalog.empty(options)
        self(CreateDatabase("db", cs), UseDatabase("db"))

    def __call__(self, *commands):
        self.catalog = apply_all(self.catalog, commands, self.options).catalog
        return self.catalog

    def table(self, name: str = "t"):
        t = self.catalog.table("db", name)
        assert t is not None, f"table db.{name} missing"
        return t


@pytest.fixture
def my():
    return Runner(MYSQL)


@pytest.fixture
def maria():
    return Runner(MARIADB)


@pytest.fixture(params=["mysql", "mariadb"])
def both(request):
    return Runner(MYSQL if request.param == "mysql" else MARIADB)
