"""alterTable listener: ALTER TABLE text in, the resulting table out (operations in order)."""

import pytest

from mysqlddl.commands import AlterTable, PartitionOp
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog, DefaultKind, IndexKind
from mysqlddl.options import Options

MYSQL = Options(dialect="mysql", server_version=(8, 0, 40))
MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))
BASE = "CREATE TABLE t (id INT NOT NULL, a VARCHAR(10), b INT, PRIMARY KEY (id), KEY ka (a));\n"


def table(sql, name="t", options=MYSQL):
    cat = apply_script(Catalog.empty(options), "USE db;\n" + BASE + sql, options)
    return cat.table("db", name)


def test_add_columns_with_positions():
    t = table("ALTER TABLE t ADD COLUMN c INT FIRST, ADD d INT AFTER id, ADD (e INT, f TEXT);")
    assert t.column_names == ("c", "id", "d", "a", "b", "e", "f")


def test_change_and_modify_replace_the_definition():
    t = table("ALTER TABLE t CHANGE a a2 VARCHAR(20) NOT NULL DEFAULT 'z' FIRST, MODIFY b BIGINT "
              "UNSIGNED AFTER id;")
    assert t.column_names == ("a2", "id", "b")
    a2 = t.column("a2")
    assert (a2.length, a2.nullable, a2.default.value) == (20, False, "z")
    assert t.column("b").column_type == "bigint unsigned"
    assert next(k for k in t.keys() if k.name == "ka").columns == ("a2",)


def test_rename_column_and_alter_default_and_visibility():
    t = table("ALTER TABLE t RENAME COLUMN b TO bb, ALTER COLUMN a SET DEFAULT 'q';\n"
              "ALTER TABLE t ALTER bb SET INVISIBLE;")
    assert t.column_names == ("id", "a", "bb")
    assert t.column("a").default.value == "q" and t.column("bb").visible is False
    t = table("ALTER TABLE t ADD c INT NOT NULL DEFAULT 3;\nALTER TABLE t ALTER c DROP DEFAULT;")
    assert t.column("c").default is None


def test_drop_column_and_keys():
    t = table("ALTER TABLE t DROP COLUMN b, DROP INDEX ka, DROP PRIMARY KEY;")
    assert t.column_names == ("id", "a")
    assert t.keys() == ()
    assert t.column("id").nullable is False  # dropping the PK keeps NOT NULL


def test_add_keys_foreign_keys_and_checks():
    t = table("ALTER TABLE t ADD UNIQUE KEY ub (b), ADD INDEX (a, b), ADD FULLTEXT (a), "
              "ADD CONSTRAINT fk FOREIGN KEY (b) REFERENCES p (id) ON DELETE RESTRICT, "
              "ADD CONSTRAINT c1 CHECK (b <> 0);")
    kinds = {k.name: k.kind for k in t.keys()}
    assert (kinds["ub"], kinds["a"], kinds["a_2"]) == (IndexKind.UNIQUE, IndexKind.INDEX, IndexKind.FULLTEXT)
    assert (t.foreign_keys[0].name, t.foreign_keys[0].on_delete) == ("fk", "RESTRICT")
    assert [c.name for c in t.checks] == ["c1"]
    t2 = table("ALTER TABLE t ADD CONSTRAINT c1 CHECK (b > 0), ADD CONSTRAINT fk FOREIGN KEY (b) "
               "REFERENCES p (id);\nALTER TABLE t DROP CHECK c1, DROP FOREIGN KEY fk;")
    assert t2.checks == () and t2.foreign_keys == ()


def test_drop_constraint_and_rename_index():
    t = table("ALTER TABLE t ADD CONSTRAINT u UNIQUE (b);\nALTER TABLE t DROP CONSTRAINT u, "
              "RENAME INDEX ka TO kb;")
    assert [k.name for k in t.keys()] == ["PRIMARY", "kb"]


def test_rename_table_in_alter():
    cat = apply_script(Catalog.empty(MYSQL), "USE db;\n" + BASE + "ALTER TABLE t RENAME TO other.t2;", MYSQL)
    assert cat.table("db", "t") is None and cat.table("other", "t2").column_names == ("id", "a", "b")


def test_convert_vs_default_charset():
    t = table("ALTER TABLE t CONVERT TO CHARACTER SET latin1;")
    assert (t.charset, t.column("a").charset) == ("latin1", "latin1")
    t = table("ALTER TABLE t DEFAULT CHARACTER SET latin1 COLLATE latin1_bin;")
    assert (t.charset, t.collation, t.column("a").charset) == ("latin1", "latin1_bin", "utf8mb4")


def test_table_options_and_noop_clauses():
    t = table("ALTER TABLE t ENGINE=MyISAM, COMMENT 'c', ALGORITHM=INPLACE, LOCK=NONE, FORCE;")
    assert (t.engine, t.comment) == ("MyISAM", "c")
    (cmd,) = parse_ddl("ALTER TABLE t ALGORITHM=COPY, LOCK=SHARED, ORDER BY a, DISABLE KEYS")
    assert cmd.operations == ()


def test_partition_operations():
    t = table("ALTER TABLE t PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (10), "
              "PARTITION p1 VALUES LESS THAN (20));\n"
              "ALTER TABLE t ADD PARTITION (PARTITION p2 VALUES LESS THAN (30));\n"
              "ALTER TABLE t DROP PARTITION p0;")
    assert t.partitioning.names == ("p1", "p2")
    t = table("ALTER TABLE t PARTITION BY HASH (id) PARTITIONS 2;\nALTER TABLE t REMOVE PARTITIONING;")
    assert t.partitioning is None
    (cmd,) = parse_ddl("ALTER TABLE t TRUNCATE PARTITION p1, p2")
    assert cmd.operations == (PartitionOp("TRUNCATE PARTITION", ("p1", "p2"), text="TRUNCATE PARTITION p1, p2"),)


def test_mariadb_if_exists_forms():
    t = table("ALTER TABLE t ADD COLUMN IF NOT EXISTS a INT, DROP COLUMN IF EXISTS zz, "
              "DROP INDEX IF EXISTS nope, ADD COLUMN IF NOT EXISTS c INT;", options=MARIADB)
    assert t.column_names == ("id", "a", "b", "c")
    (cmd,) = parse_ddl("ALTER TABLE IF EXISTS nope ADD x INT", "mariadb")
    assert isinstance(cmd, AlterTable) and cmd.if_exists


def test_unknown_column_in_after_is_an_error():
    with pytest.raises(DdlError, match="Unknown column 'zz'"):
        table("ALTER TABLE t ADD c INT AFTER zz;")


def test_unmodelled_clause_is_a_positioned_error():
    with pytest.raises(DdlError, match="CONVERT PARTITION") as ei:
        parse_ddl("ALTER TABLE t ADD c INT,\n  CONVERT PARTITION p0 TO TABLE t0", "mariadb")
    assert (ei.value.line, ei.value.column) == (2, 2)


def test_index_visibility_per_dialect():
    t = table("ALTER TABLE t ALTER INDEX ka INVISIBLE, ADD KEY kb (b) INVISIBLE;")
    assert [(k.name, k.visible) for k in t.indexes] == [("ka", False), ("kb", False)]
    assert table("ALTER TABLE t ALTER INDEX ka INVISIBLE;\nALTER TABLE t ALTER INDEX ka VISIBLE;").index("ka").visible
    t = table("ALTER TABLE t ALTER INDEX ka IGNORED;\nCREATE INDEX kb ON t (b) IGNORED;", options=MARIADB)
    assert [(k.name, k.visible) for k in t.indexes] == [("ka", False), ("kb", False)]
    assert table("ALTER TABLE t ALTER KEY ka IGNORED;\nALTER TABLE t ALTER KEY ka NOT IGNORED;",
                 options=MARIADB).index("ka").visible
    # each server's spelling is a syntax error on the other (MariaDB 10.11 checked)
    with pytest.raises(DdlError, match="INVISIBLE") as ei:
        parse_ddl("ALTER TABLE t ADD c INT,\n  ALTER INDEX ka INVISIBLE", "mariadb")
    assert (ei.value.line, ei.value.column) == (2, 2)
    with pytest.raises(DdlError, match="IGNORED"):
        parse_ddl("ALTER TABLE t ALTER INDEX ka IGNORED", "mysql")
    with pytest.raises(DdlError, match="primary key"):
        table("ALTER TABLE t ALTER INDEX `PRIMARY` INVISIBLE;")


def test_check_enforcement_mysql():
    t = table("ALTER TABLE t ADD CONSTRAINT c CHECK (b > 0) NOT ENFORCED;")
    assert t.checks[0].enforced is False
    t = table("ALTER TABLE t ADD CONSTRAINT c CHECK (b > 0);\nALTER TABLE t ALTER CHECK c NOT ENFORCED;\n"
              "ALTER TABLE t ADD d INT CHECK (d < 9) NOT ENFORCED;")
    assert [(c.name, c.enforced) for c in t.checks] == [("c", False), ("t_chk_1", False)]
    assert table("ALTER TABLE t ADD CONSTRAINT c CHECK (b > 0) NOT ENFORCED;\n"
                 "ALTER TABLE t ALTER CONSTRAINT c ENFORCED;").checks[0].enforced
    with pytest.raises(DdlError, match="NOT ENFORCED"):
        table("ALTER TABLE t ADD CONSTRAINT c CHECK (b > 0) NOT ENFORCED;", options=MARIADB)


def test_periods_and_system_versioning_mariadb():
    t = table("ALTER TABLE t ADD s DATE, ADD e DATE, ADD PERIOD FOR p (s, e);", options=MARIADB)
    assert [(p.name, p.start, p.end) for p in t.periods] == [("p", "s", "e")]
    assert not t.column("s").nullable
    assert table("ALTER TABLE t ADD s DATE, ADD e DATE, ADD PERIOD FOR p (s, e);\n"
                 "ALTER TABLE t DROP PERIOD FOR p;", options=MARIADB).periods == ()
    t = table("ALTER TABLE t ADD SYSTEM VERSIONING;\nALTER TABLE t ADD z INT;", options=MARIADB)
    assert t.system_versioning and t.column_names == ("id", "a", "b", "z", "row_start", "row_end")
    assert table("ALTER TABLE t ADD SYSTEM VERSIONING;\nALTER TABLE t DROP SYSTEM VERSIONING;",
                 options=MARIADB).column_names == ("id", "a", "b")


def test_partition_counts():
    base = "ALTER TABLE t PARTITION BY HASH (id) PARTITIONS 4;\n"
    assert table(base + "ALTER TABLE t ADD PARTITION PARTITIONS 3;").partitioning.count == 7
    assert table(base + "ALTER TABLE t COALESCE PARTITION 3;").partitioning.count == 1
    with pytest.raises(DdlError, match="remove all partitions"):
        table(base + "ALTER TABLE t COALESCE PARTITION 4;")
    with pytest.raises(DdlError, match="HASH/KEY"):
        table("ALTER TABLE t PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (5));\n"
              "ALTER TABLE t COALESCE PARTITION 1;")


def test_set_default_expression_text():
    t = table("ALTER TABLE t ALTER COLUMN b SET DEFAULT (b_default  + 1);")
    d = t.column("b").default
    assert d.kind is DefaultKind.EXPRESSION and "b_default  + 1" in d.value  # spacing as written
