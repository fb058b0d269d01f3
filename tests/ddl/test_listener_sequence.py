"""createSequence / alterSequence / dropSequence listeners (MariaDB)."""

import pytest

from mysqlddl.commands import AlterSequence, CreateSequence, DropSequence, TableId
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog
from mysqlddl.options import Options

MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))


def test_command_shapes():
    (c,) = parse_ddl("CREATE OR REPLACE SEQUENCE d.s START WITH 5 INCREMENT BY -2 NOCACHE CYCLE ENGINE=Aria",
                     "mariadb")
    assert c == CreateSequence(TableId("d", "s"), (("START", "5"), ("INCREMENT", "-2"), ("CACHE", None),
                                                   ("CYCLE", "1")), (("ENGINE", "Aria"),), or_replace=True)
    (a,) = parse_ddl("ALTER SEQUENCE IF EXISTS s RESTART WITH 3 NO MAXVALUE NOCYCLE", "mariadb")
    assert a == AlterSequence(TableId(None, "s"), (("MAXVALUE", None), ("CYCLE", None)), if_exists=True)
    (d,) = parse_ddl("DROP TEMPORARY SEQUENCE IF EXISTS s, t", "mariadb")
    assert d == DropSequence((TableId(None, "s"), TableId(None, "t")), True, True)


def test_a_sequence_is_a_table_with_fixed_columns():
    cat = apply_script(Catalog.empty(MARIADB), "USE db;\nCREATE SEQUENCE s INCREMENT BY -1 CACHE 5;\n"
                                               "ALTER SEQUENCE s INCREMENT BY -3;", MARIADB)
    t = cat.table("db", "s")
    assert t.column_names[:3] == ("next_not_cached_value", "minimum_value", "maximum_value")
    assert len(t.columns) == 8 and t.option("SEQUENCE") == "1"
    q = t.sequence
    assert (q.start, q.minvalue, q.maxvalue, q.increment, q.cache) == (-1, -9223372036854775807, -1, -3, 5)
    with pytest.raises(DdlError, match="not a SEQUENCE"):
        apply_script(cat, "CREATE TABLE t (a INT);\nDROP SEQUENCE t;", MARIADB)
    with pytest.raises(DdlError, match="structure is invalid"):
        apply_script(cat, "ALTER TABLE s ADD z INT;", MARIADB)
    assert apply_script(cat, "DROP TABLE s;", MARIADB).table("db", "s") is None
