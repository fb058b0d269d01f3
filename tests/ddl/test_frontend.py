"""The DDL front door: one facade (``mysqlddl.ddl``) and one table of dialect front ends."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mysqlddl.ddl as ddl
from mysqlddl.ddl import FRONTENDS, Frontend, ParseEngine, StatementClass, frontend_for
from mysqlddl.options import Dialect, Options


def test_facade_all_resolves():
    assert len(set(ddl.__all__)) == len(ddl.__all__)
    for name in ddl.__all__:
        assert getattr(ddl, name) is not None, name


@pytest.mark.parametrize("dialect", list(Dialect))
def test_every_dialect_has_a_frontend(dialect):
    fe = FRONTENDS[dialect]
    assert isinstance(fe, Frontend)
    assert fe is frontend_for(Options(dialect=dialect))
    assert issubclass(fe.engine_class, ParseEngine)
    assert isinstance(ddl.default_engine(Options(dialect=dialect)), fe.engine_class)
    assert fe.classify("CREATE TABLE t (a INT)", Options(dialect=dialect)) is StatementClass.SCHEMA
    assert [s.text for s in fe.split_script("DROP TABLE a; DROP TABLE b", Options(dialect=dialect))] == \
        ["DROP TABLE a", "DROP TABLE b"]
    assert set(FRONTENDS) == set(Dialect) and len(FRONTENDS) == len(Dialect)


def test_mysql_and_mariadb_share_one_frontend():
    assert FRONTENDS[Dialect.MYSQL] is FRONTENDS[Dialect.MARIADB] is FRONTENDS["mysql"]
    assert FRONTENDS[Dialect.ORACLE] is not FRONTENDS[Dialect.MYSQL]


def test_engine_is_one_per_thread_and_dialect():
    mysql, oracle = Options(), Options(dialect=Dialect.ORACLE)
    assert ddl.default_engine(mysql) is ddl.default_engine(Options(dialect=Dialect.MARIADB))
    assert ddl.default_engine(oracle) is ddl.default_engine(oracle)
    assert ddl.default_engine(oracle) is not ddl.default_engine(mysql)


def test_a_mysql_run_does_not_load_the_oracle_grammar(tmp_path):
    code = ("import sys, mysqlddl.ddl as d; d.parse_ddl('CREATE TABLE t (a INT)'); "
            "print(any(m.startswith(('mysqlddl._generated.oracle', 'mysqlddl.ddl.oracle')) for m in sys.modules))")
    # from a neutral directory: `python -c` puts the working directory first on sys.path, and under
    # tox that is the checkout, whose bare sources have no generated parser
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "False"


def test_a_syntax_check_does_not_load_phase_2(tmp_path):
    # phase 1 (parse trees) must not pay for the commands, the model and the listeners (~0.15 s of a
    # cold start); phase 2's names still come from the facade, loaded on first use
    code = ("import sys, mysqlddl.ddl as d; d.parse_statement('CREATE TABLE t (a INT)'); "
            "heavy = ('mysqlddl.commands', 'mysqlddl.model.catalog', 'mysqlddl.ddl.mysql.dispatcher', "
            "'mysqlddl.ddl.apply'); print(sorted(m for m in heavy if m in sys.modules)); "
            "from mysqlddl.ddl import parse_ddl; print(type(parse_ddl('CREATE TABLE t (a INT)')[0]).__name__, "
            "all(m in sys.modules for m in heavy))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines() == ["[]", "CreateTable True"]


def test_the_facade_names_nothing_else():
    with pytest.raises(AttributeError):
        ddl.no_such_name  # noqa: B018
