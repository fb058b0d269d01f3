"""A default ``mariadb-dump --no-data`` file as a baseline, against the server it was dumped from.

The dump is generated here from the lab MariaDB with default options (not --compact), so it has
the header and footer that save and restore session variables through user variables
(``SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO'`` ... ``SET
SQL_MODE=@OLD_SQL_MODE``), ``SET character_set_client = ...`` around each CREATE TABLE,
FOREIGN_KEY_CHECKS=0 with tables in name order (a child before its parent), and the view stubs.
The catalog built from it, by ``run_script`` and by ``ChangeReader(schema=...)`` (what
``mysqlddl changes --schema`` does), is compared with information_schema by the lab's helpers.
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from mysqlddl.ddl import run_script
from mysqlddl.model import Catalog
from mysqlddl.sources import open_source

_spec = importlib.util.spec_from_file_location("_model_vs_mariadb",
                                               Path(__file__).with_name("test_model_vs_mariadb.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

pytestmark = pytest.mark.mariadb

TABLES = [
    "CREATE TABLE b_parent (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4 "
    "DEFAULT 'x', ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, j JSON, "
    "e ENUM('a','b') NOT NULL, d DECIMAL(10,2) DEFAULT 1.5, UNIQUE KEY uk_name (name)) COMMENT 'parent'",
    # created after its parent, dumped before it (name order, FOREIGN_KEY_CHECKS=0)
    "CREATE TABLE a_child (id INT NOT NULL, p INT, t TEXT, b BIT(3) DEFAULT b'101', PRIMARY KEY (id), "
    "CONSTRAINT fk_p FOREIGN KEY (p) REFERENCES b_parent (id) ON DELETE CASCADE, CHECK (`id` > 0)) "
    "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci",
    "CREATE TABLE c_misc (a INT, v VARCHAR(10) DEFAULT NULL, KEY k_a (a), FULLTEXT KEY ft (v)) ENGINE=MyISAM",
    "CREATE VIEW v_parent AS SELECT id, name FROM b_parent",
]


def _dump(server, db: str) -> str:
    out = subprocess.run(["mariadb-dump", "--no-defaults", f"--socket={server.socket}", "--user=root",
                          "--no-data", "--databases", db], check=True, capture_output=True, text=True)
    return out.stdout


@pytest.fixture
def dumped(mariadb_server, request):
    lab = base.Lab(mariadb_server, "mdd_" + "".join(ch for ch in request.node.name if ch.isalnum())[-24:].lower())
    d = lab.db("d")
    # latin1 database, utf8mb4 tables and columns: the charsets the dump's SET NAMES and
    # character_set_client switches must not disturb
    lab.run_sql(f"CREATE DATABASE `{d}` CHARACTER SET latin1", f"USE `{d}`", *TABLES)
    text = _dump(mariadb_server, d)
    yield lab, d, text
    lab.close()


def _check_is_a_default_dump(text: str) -> None:
    for piece in ("SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT", "SET NAMES utf8mb4",
                  "SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0",
                  "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO'",
                  "SET @saved_cs_client     = @@character_set_client", "SET character_set_client = ",
                  "SET SQL_MODE=@OLD_SQL_MODE", "SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS",
                  "SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT"):
        assert piece in text, piece
    assert text.index("CREATE TABLE `a_child`") < text.index("CREATE TABLE `b_parent`")


def test_default_dump_applies_with_run_script(dumped):
    lab, d, text = dumped
    _check_is_a_default_dump(text)
    res = run_script(Catalog.empty(base.OPTS), text, base.OPTS)
    assert res.errors == ()
    lab.catalog = res.catalog
    lab.compare("the mariadb-dump file")
    assert sorted(t.name for t in res.catalog.tables_in(d)) == ["a_child", "b_parent", "c_misc"]
    s = res.catalog.session
    # the footer restored what the header saved: the starting sql_mode, checks on again
    assert s.foreign_key_checks is True
    assert res.catalog.sql_mode(base.OPTS) == Catalog.empty(base.OPTS).sql_mode(base.OPTS)
    assert dict(s.user_variables)["old_sql_mode"] == ",".join(sorted(base.OPTS.sql_mode))
    assert dict(s.user_variables)["old_foreign_key_checks"] == "1"


def test_default_dump_as_the_changes_schema_baseline(dumped, mariadb_server):
    from mysqlddl.changes import ChangeOptions, ChangeReader
    from mysqlddl.positions import BinlogPosition

    lab, d, text = dumped
    mariadb_server.execute("FLUSH BINARY LOGS")
    reader = ChangeReader(open_source(mariadb_server.binlog_files()[-1]), ChangeOptions(decode=base.OPTS), schema=text)
    cat = reader.history.catalog_at(BinlogPosition(-1, 0))
    assert sorted(t.name for t in cat.tables_in(d)) == ["a_child", "b_parent", "c_misc"]
    lab.catalog = cat
    lab.compare("the mariadb-dump file as ChangeReader(schema=...)")
