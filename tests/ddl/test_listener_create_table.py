"""createTable / createTableLike listeners: CREATE TABLE text in, the resulting table out."""

import pytest

from mysqlddl.commands import CreateTable
from mysqlddl.ddl import apply_script, parse_ddl
from mysqlddl.errors import DdlError
from mysqlddl.model import Catalog, DefaultKind, GeneratedKind, IndexKind
from mysqlddl.options import Options

MYSQL = Options(dialect="mysql", server_version=(8, 0, 40))
MARIADB = Options(dialect="mariadb", server_version=(10, 11, 0))


def run(sql, options=MYSQL):
    return apply_script(Catalog.empty(options), "USE db;\n" + sql, options)


def table(sql, name="t", options=MYSQL):
    t = run(sql, options).table("db", name)
    assert t is not None, f"db.{name} missing"
    return t


def test_columns_types_and_nullability():
    t = table("CREATE TABLE t (id INT UNSIGNED NOT NULL, price DECIMAL(10,2), d DEC, "
              "name VARCHAR(20) NOT NULL DEFAULT 'x', flag BOOL, big SERIAL)")
    assert t.column_names == ("id", "price", "d", "name", "flag", "big")
    assert (t.column("id").type_name, t.column("id").unsigned, t.column("id").nullable) == ("int", True, False)
    assert (t.column("price").length, t.column("price").scale) == (10, 2)
    assert (t.column("d").length, t.column("d").scale) == (10, 0)
    assert t.column("name").default.value == "x"
    assert t.column("flag").column_type == "tinyint(1)"
    big = t.column("big")
    assert (big.type_name, big.unsigned, big.auto_increment, big.nullable) == ("bigint", True, True, False)
    assert [k.kind for k in t.keys()] == [IndexKind.UNIQUE]


def test_multiword_type_spellings():
    t = table("CREATE TABLE t (a DOUBLE PRECISION, b NATIONAL VARCHAR(5), c LONG VARCHAR, "
              "d CHARACTER VARYING(7), e INT8, f CHAR(3) BYTE)")
    assert [c.type_name for c in t.columns] == ["double", "varchar", "mediumtext", "varchar", "bigint",
                                                "binary"]
    assert t.column("b").charset == "utf8mb3"
    assert t.column("d").length == 7


def test_decimal_number_as_length_keeps_its_integer_part():
    t = table("CREATE TABLE t (a FLOAT(7.4), b FLOAT(30.2), c DECIMAL(6.2))")
    assert [c.column_type for c in t.columns] == ["float", "double", "decimal(6,0)"]


def test_charset_collate_and_binary_attribute():
    t = table("CREATE TABLE t (a VARCHAR(5) CHARACTER SET latin1, b TEXT COLLATE utf8mb4_bin, "
              "c CHAR(2) BINARY, d VARCHAR(3) ASCII) DEFAULT CHARSET=utf8mb4")
    assert (t.column("a").charset, t.column("a").collation) == ("latin1", "latin1_swedish_ci")
    assert (t.column("b").charset, t.column("b").collation) == ("utf8mb4", "utf8mb4_bin")
    assert t.column("c").collation == "utf8mb4_bin"
    assert t.column("d").charset == "latin1"


def test_enum_values_are_unescaped():
    t = table(r"CREATE TABLE t (e ENUM('a', 'it''s', 'b\'c ', _utf8mb4'x'), s SET('p','q'))")
    assert t.column("e").values == ("a", "it's", "b'c", "x")
    assert t.column("s").values == ("p", "q")


def test_default_expression_text_keeps_its_spacing():
    t = table("CREATE TABLE t (a INT DEFAULT (1 +  2), b DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) "
              "ON UPDATE CURRENT_TIMESTAMP(3), c INT DEFAULT -1, d VARCHAR(3) DEFAULT NULL)")
    a = t.column("a").default
    assert a.kind is DefaultKind.EXPRESSION and "1 +  2" in a.value  # spacing as written
    b = t.column("b")
    assert (b.default.kind, b.default.fsp, b.on_update.fsp) == (DefaultKind.CURRENT_TIMESTAMP, 3, 3)
    assert t.column("c").default.value == "-1"
    assert t.column("d").default.kind is DefaultKind.NULL


def test_generated_columns_and_attributes():
    t = table("CREATE TABLE t (a INT, b INT AS (a * 2) STORED, c INT GENERATED ALWAYS AS (a + 1) VIRTUAL "
              "INVISIBLE COMMENT 'it''s c', g POINT NOT NULL SRID 4326)")
    assert (t.column("b").generated.kind, t.column("b").generated.expression) == (GeneratedKind.STORED, "a * 2")
    c = t.column("c")
    assert (c.generated.kind, c.visible, c.comment) == (GeneratedKind.VIRTUAL, False, "it's c")
    assert t.column("g").srid == 4326


def test_keys_and_constraints():
    t = table("""CREATE TABLE t (
        id INT AUTO_INCREMENT, a VARCHAR(30), b INT, c INT UNIQUE,
        PRIMARY KEY (id), UNIQUE KEY uk (a(10), b DESC), KEY (b) USING BTREE COMMENT 'bee',
        FULLTEXT INDEX ft (a), INDEX fx ((b + 1)),
        CONSTRAINT fk1 FOREIGN KEY (b) REFERENCES p (id) ON DELETE CASCADE ON UPDATE SET NULL,
        CONSTRAINT chk_b CHECK (b > 0))""")
    assert t.primary_key.columns == ("id",) and t.column("id").nullable is False
    uk = next(k for k in t.keys() if k.name == "uk")
    assert [(p.column, p.length, p.descending) for p in uk.parts] == [("a", 10, False), ("b", None, True)]
    kb = next(k for k in t.keys() if k.name == "b")
    assert (kb.using, kb.comment) == ("BTREE", "bee")
    assert next(k for k in t.keys() if k.name == "ft").kind is IndexKind.FULLTEXT
    assert next(k for k in t.keys() if k.name == "fx").parts[0].expression == "b + 1"
    assert next(k for k in t.keys() if k.name == "c").kind is IndexKind.UNIQUE
    fk = t.foreign_keys[0]
    assert (fk.name, fk.columns, fk.ref_table.name, fk.ref_columns, fk.on_delete, fk.on_update) == \
        ("fk1", ("b",), "p", ("id",), "CASCADE", "SET NULL")
    assert [(c.name, c.expression) for c in t.checks] == [("chk_b", "b > 0")]


def test_quoted_identifiers_and_keywords_as_names():
    t = table('CREATE TABLE `we``ird` (`select` INT, `first name` TEXT, status INT, `key` INT, '
              'KEY `idx``1` (`select`))', name="we`ird")
    assert t.column_names == ("select", "first name", "status", "key")
    assert "idx`1" in [k.name for k in t.keys()]


def test_ansi_quotes_follow_set_sql_mode():
    cat = run("SET sql_mode = 'ANSI_QUOTES';\nCREATE TABLE \"q t\" (\"a b\" INT DEFAULT 1);")
    assert cat.table("db", "q t").column_names == ("a b",)


def test_table_options_and_partitioning():
    t = table("CREATE TABLE t (id INT, d DATE) ENGINE=myisam DEFAULT CHARSET=latin1 COMMENT='tbl' "
              "ROW_FORMAT=DYNAMIC AUTO_INCREMENT=5 PARTITION BY RANGE (id) "
              "(PARTITION p0 VALUES LESS THAN (10), PARTITION p1 VALUES LESS THAN MAXVALUE)")
    assert (t.engine, t.charset, t.comment) == ("MyISAM", "latin1", "tbl")
    assert dict(t.options).get("ROW_FORMAT") == "DYNAMIC"
    assert "AUTO_INCREMENT" not in dict(t.options)
    p = t.partitioning
    assert (p.method, p.expression, p.names) == ("RANGE", "id", ("p0", "p1"))


def test_partition_by_key_and_hash_count():
    t = table("CREATE TABLE t (a INT, b INT) PARTITION BY LINEAR KEY (a, b) PARTITIONS 3")
    assert (t.partitioning.method, t.partitioning.expression, t.partitioning.count) == ("LINEAR KEY", "a,b", 3)


def test_versioned_comments_are_executed():
    t = table("CREATE TABLE t (a INT /*!80023 INVISIBLE */, b INT) /*!50100 ENGINE=MyISAM */")
    assert t.column("a").visible is False and t.engine == "MyISAM"
    t = table("CREATE TABLE t (a INT /*!99999 INVISIBLE */)")
    assert t.column("a").visible is True


def test_temporary_and_if_not_exists():
    cat = run("CREATE TABLE t (a INT);\nCREATE TABLE IF NOT EXISTS t (b INT);\n"
              "CREATE TEMPORARY TABLE tmp (x INT);")
    assert cat.table("db", "t").column_names == ("a",)
    assert cat.table("db", "tmp").temporary is True
    with pytest.raises(DdlError, match="already exists"):
        run("CREATE TABLE t (a INT);\nCREATE TABLE t (b INT);")


def test_or_replace_mariadb():
    t = table("CREATE TABLE t (a INT);\nCREATE OR REPLACE TABLE t (b INT);", options=MARIADB)
    assert t.column_names == ("b",)


def test_like_copies_the_definition():
    cat = run("CREATE TABLE src (a INT PRIMARY KEY, b VARCHAR(3));\nCREATE TABLE t LIKE src;\n"
              "CREATE TABLE u (LIKE src);")
    for n in ("t", "u"):
        assert cat.table("db", n).column_names == ("a", "b")
        assert cat.table("db", n).primary_key.columns == ("a",)
    (cmd,) = parse_ddl("CREATE TABLE db2.t LIKE db1.s")
    assert (cmd.table.database, cmd.like.database, cmd.like.name) == ("db2", "db1", "s")


def test_create_table_select_columns():
    cat = run("CREATE TABLE src (a INT NOT NULL, b VARCHAR(9));\n"
              "CREATE TABLE t (x INT) AS SELECT s.a, b AS bee, a + 1 FROM src AS s;")
    t = cat.table("db", "t")
    assert t.column_names == ("x", "a", "bee", "a + 1")
    assert (t.column("a").type_name, t.column("a").nullable) == ("int", False)
    assert t.column("bee").length == 9
    assert t.column("a + 1").type_name == "unknown"


def test_create_table_select_star_expands_from_the_catalog():
    cat = apply_script(Catalog.empty(), "USE db;\nCREATE TABLE src (a INT NOT NULL, b VARCHAR(3));\n"
                                        "CREATE TABLE o (c DATE);\n"
                                        "CREATE TABLE t AS SELECT *, s.b AS b2 FROM src s;\n"
                                        "CREATE TABLE u AS SELECT o.*, src.* FROM src JOIN o;")
    assert cat.table("db", "t").column_names == ("a", "b", "b2")
    assert cat.table("db", "u").column_names == ("c", "a", "b")
    with pytest.raises(DdlError, match="Duplicate column name"):
        apply_script(cat, "CREATE TABLE v AS SELECT *, 1 AS a FROM src;")
    with pytest.raises(DdlError, match="doesn't exist"):
        apply_script(cat, "CREATE TABLE v AS SELECT * FROM nope;")


def test_create_table_select_literal_and_cast_types():
    cat = apply_script(Catalog.empty(), "USE db;\nSET NAMES utf8mb4;\nCREATE TABLE src (d DECIMAL(6,2));\n"
                                        "CREATE TABLE t AS SELECT 7 i, -123456789 j, 1234567890 k, 2.50 m, 'ab' s,"
                                        " NULL n, CAST(d AS CHAR(4)) c, CAST(d AS DECIMAL(8,3)) dd, NOW(3) w,"
                                        " x'0102' h, 1e2 f, d * 2 x FROM src;")
    t = cat.table("db", "t")
    got = {c.name: (c.column_type, c.nullable) for c in t.columns}
    assert got == {"i": ("int(1)", False), "j": ("bigint(10)", False), "k": ("bigint(10)", False),
                   "m": ("decimal(3,2)", False), "s": ("varchar(2)", False), "n": ("binary(0)", True),
                   "c": ("varchar(4)", True), "dd": ("decimal(8,3)", True), "w": ("datetime(3)", False),
                   "h": ("varbinary(2)", False), "f": ("double", False), "x": ("unknown", True)}
    assert (t.column("s").charset, t.column("c").charset) == ("utf8mb4", "utf8mb4")


def test_periods_versioning_and_without_overlaps():
    maria = Options(dialect="mariadb", server_version=(10, 11, 0))
    cat = apply_script(Catalog.empty(maria), "USE db;\nCREATE TABLE p (id INT, s DATE, e DATE, PERIOD FOR app (s, e),"
                                             " UNIQUE u (id, app WITHOUT OVERLAPS));\n"
                                             "CREATE TABLE v (a INT, b INT WITHOUT SYSTEM VERSIONING,"
                                             " rs TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
                                             " re TIMESTAMP(6) GENERATED ALWAYS AS ROW END,"
                                             " PERIOD FOR SYSTEM_TIME (rs, re)) WITH SYSTEM VERSIONING;", maria)
    p = cat.table("db", "p")
    assert p.index("u").without_overlaps == "app" and not p.column("s").nullable
    v = cat.table("db", "v")
    assert v.system_versioning and [c.row_period for c in v.columns] == [None, None, "start", "end"]
    assert not v.column("b").versioned and not any(c.hidden for c in v.columns)


def test_command_shape():
    (cmd,) = parse_ddl("CREATE TABLE IF NOT EXISTS db.t (a INT) ENGINE=InnoDB")
    assert isinstance(cmd, CreateTable)
    assert (cmd.table.database, cmd.table.name, cmd.if_not_exists) == ("db", "t", True)
    assert cmd.options == (("ENGINE", "InnoDB"),)
    assert CreateTable.from_json(cmd.to_json()) == cmd
