"""Server settings as the model's inputs, against a real MariaDB 10.11 (issue #23, "Server settings
as inputs"): the server's session runs ``SET SESSION var = value`` before the statements, the model
gets the same setting through :class:`Options` only (not through the SET), and the Lab compares
information_schema and SHOW CREATE TABLE after each statement (test_model_vs_mariadb.py).
lower_case_table_names is read-only at run time: the lab server runs with 0, which is checked;
the other values are tested without a server in tests/cli/test_server_settings.py.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from mysqlddl.options import Options

_spec = importlib.util.spec_from_file_location("_model_vs_mariadb",
                                               Path(__file__).with_name("test_model_vs_mariadb.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

pytestmark = pytest.mark.mariadb

MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))
TABLE = ("CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, ts2 TIMESTAMP, r REAL, "
         "s VARCHAR(5), d DATETIME)")


def run(mariadb_server, request, options: Options, session: str, *statements: str):
    name = "".join(ch for ch in request.node.name if ch.isalnum())[-20:].lower()
    lab = base.Lab(mariadb_server, "mss_" + name, options)
    try:
        if session:
            lab.sql(session)
        d = lab.db("s")
        lab.run_sql(f"CREATE DATABASE `{d}`", f"USE `{d}`", *statements)
        return lab.catalog.table(base.T("t", d))
    finally:
        lab.close()


@pytest.mark.parametrize("options", [
    MARIADB.replace(explicit_defaults_for_timestamp=False),  # said
    MARIADB.replace(server_version=(10, 6, 0)),  # the default before 10.10
], ids=["set", "version-default"])
def test_explicit_defaults_for_timestamp_off(mariadb_server, request, options):
    t = run(mariadb_server, request, options, "SET SESSION explicit_defaults_for_timestamp = OFF", TABLE)
    assert not t.column("ts").nullable and t.column("ts").on_update is not None
    assert not t.column("ts2").nullable


def test_explicit_defaults_for_timestamp_on(mariadb_server, request):
    t = run(mariadb_server, request, MARIADB.replace(server_version=(10, 6, 0), explicit_defaults_for_timestamp=True),
            "SET SESSION explicit_defaults_for_timestamp = ON", TABLE)
    assert t.column("ts").nullable


def test_sql_mode_real_as_float(mariadb_server, request):
    t = run(mariadb_server, request, MARIADB.replace(sql_mode="REAL_AS_FLOAT,STRICT_TRANS_TABLES"),
            "SET SESSION sql_mode = 'REAL_AS_FLOAT,STRICT_TRANS_TABLES'", TABLE)
    assert t.column("r").column_type == "float"


def test_server_charset_and_collation(mariadb_server, request):
    t = run(mariadb_server, request,
            MARIADB.replace(character_set_server="utf8mb4", collation_server="utf8mb4_unicode_ci"),
            "SET SESSION character_set_server = utf8mb4, collation_server = utf8mb4_unicode_ci", TABLE)
    assert (t.charset, t.collation) == ("utf8mb4", "utf8mb4_unicode_ci")
    t = run(mariadb_server, request, MARIADB.replace(character_set_server="latin2"),
            "SET SESSION character_set_server = latin2", TABLE)
    assert (t.charset, t.collation) == ("latin2", "latin2_general_ci")


def test_default_storage_engine(mariadb_server, request):
    t = run(mariadb_server, request, MARIADB.replace(default_storage_engine="MyISAM"),
            "SET SESSION default_storage_engine = MyISAM", TABLE)
    assert t.engine == "MyISAM"


def test_lower_case_table_names_of_the_lab_server(mariadb_server, request):
    conn = mariadb_server.connect()
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT @@lower_case_table_names")
            assert cur.fetchone()[0] == 0
    finally:
        conn.close()
    run(mariadb_server, request, MARIADB.replace(lower_case_table_names=0), "",
        "CREATE TABLE Mixed (a INT)", "CREATE TABLE mixed (a INT)", TABLE)
