"""Round trip against a real MariaDB: for DDL sequences covering every statement family, each table
our model builds from the sequence must equal the table our parser builds from the server's own
SHOW CREATE TABLE (dialect=mariadb), and the set of tables must equal the server's.

Documented differences, applied by :func:`normalise` and nowhere else:

- Expression text (CHECK, generated columns, DEFAULT (expr), functional key parts, partitioning
  expressions) is stored by the server in its own printed form: identifiers in backticks, its own
  spacing and letter case (MariaDB KB "Generated Columns": "the expression is stored in a
  normalized form"; the same holds for CHECK constraints). Listeners keep the text as written, so
  the comparison ignores backticks, case and whitespace inside expressions.

Model gaps found by this test are listed in :data:`KNOWN_MODEL_GAPS` with the server behaviour;
each entry is asserted to *still* differ, so a model fix makes the test say the entry can go.
"""

from __future__ import annotations

import re

import pytest

from mysqlddl.ddl import apply_script
from mysqlddl.model import Catalog, render
from mysqlddl.options import Options

pytestmark = pytest.mark.mariadb

# name -> statements; {db} is the sequence's database (created and selected first), {db2} a second one.
SEQUENCES: dict[str, list[str]] = {
    "types_and_keys": [
        "CREATE TABLE t1 (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT, b VARCHAR(20), "
        "c DECIMAL(10,2) DEFAULT 1.5, d DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), "
        "e ENUM('x','y''z') NOT NULL DEFAULT 'x', f SET('p','q') DEFAULT 'q,p', g TEXT, h BLOB, j JSON, "
        "k BIT(3) DEFAULT b'101', l CHAR(4) CHARACTER SET latin1 COLLATE latin1_bin, m DOUBLE, "
        "n FLOAT(7,3) UNSIGNED, o YEAR, p TIME(2), q TIMESTAMP NULL, r BOOL DEFAULT TRUE, "
        "s BIGINT UNSIGNED ZEROFILL, u VARBINARY(10), w GEOMETRY, x INT AS (a + 1) VIRTUAL, "
        "y INT AS (a * 2) PERSISTENT, z INT INVISIBLE COMMENT 'zed', "
        "UNIQUE KEY ub (b(5)), KEY kab (a, b DESC) COMMENT 'ab', FULLTEXT KEY ft (g), "
        "CONSTRAINT chk CHECK (a > 0)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='t one'",
        "CREATE TABLE t7 (a SERIAL, b NATIONAL VARCHAR(4), c LONG VARCHAR, d INT1, e DEC, f NUMERIC(5), "
        "g CHAR, h BINARY, i TINYTEXT, j MEDIUMINT UNSIGNED, k INET6, l UUID, m INTEGER(5) ZEROFILL, "
        "n DOUBLE PRECISION DEFAULT '2.50', o CHAR(3) BINARY, p VARCHAR(4) ASCII, "
        "`we``ird name` INT DEFAULT -1, `select` TIMESTAMP(6) NOT NULL DEFAULT '2001-02-03 04:05:06')",
        "CREATE TABLE t8 (a INT, b INT) PARTITION BY RANGE (a) "
        "(PARTITION p0 VALUES LESS THAN (10), PARTITION p1 VALUES LESS THAN MAXVALUE)",
        "CREATE TABLE t9 (a INT NOT NULL, b VARCHAR(10), PRIMARY KEY (a) USING BTREE) "
        "ENGINE=MyISAM ROW_FORMAT=FIXED CHECKSUM=1",
        "CREATE TABLE t10 (f4 FLOAT(7.4), f5 FLOAT(30.2), d DECIMAL(6.2), e FLOAT(7,4), g FLOAT(5))",
    ],
    "alter_table": [
        "CREATE TABLE t (id INT, v VARCHAR(10) DEFAULT 'a', dd DATE DEFAULT '2020-01-01', "
        "dflt INT DEFAULT (1 + 2)) ENGINE=MyISAM ROW_FORMAT=DYNAMIC",
        "ALTER TABLE t ADD COLUMN nn INT NOT NULL FIRST, ADD INDEX (v), CHANGE dd dd2 DATETIME NOT NULL, "
        "MODIFY v VARCHAR(30) CHARACTER SET latin1, RENAME COLUMN id TO id2, "
        "ALTER COLUMN dflt SET DEFAULT 7, ADD PRIMARY KEY (nn)",
        "ALTER TABLE t RENAME INDEX v TO v_idx, DROP COLUMN dflt, CONVERT TO CHARACTER SET utf8mb3, "
        "ENGINE=InnoDB, COMMENT 'three'",
        # MariaDB 10.11: ALTER COLUMN may name a column ADDed earlier in the same statement (but not a
        # column renamed by it: ER_BAD_FIELD_ERROR 1054, checked)
        "ALTER TABLE t ADD (x1 INT, x2 TEXT, INDEX ix (x1)), ALTER x1 SET DEFAULT 5, ALTER v DROP DEFAULT",
        "ALTER TABLE t ADD COLUMN IF NOT EXISTS x1 INT, DROP COLUMN IF EXISTS nope, "
        "ADD CONSTRAINT c1 CHECK (x1 < 100), DEFAULT CHARSET latin1",
        "ALTER TABLE t ADD c2 VARCHAR(5), DROP INDEX ix, DROP PRIMARY KEY, ADD UNIQUE KEY (id2, nn)",
        "ALTER TABLE t MODIFY x2 MEDIUMTEXT AFTER nn, ALGORITHM=COPY, LOCK=SHARED",
        "ALTER TABLE t DROP CONSTRAINT c1, ADD g POINT NOT NULL, ADD SPATIAL INDEX sp (g)",
        "CREATE TABLE u (a INT PRIMARY KEY, b INT)",
        "ALTER TABLE u PARTITION BY HASH (a) PARTITIONS 3",
        "ALTER TABLE u COALESCE PARTITION 1",
        "ALTER TABLE u REMOVE PARTITIONING",
        "ALTER TABLE u RENAME TO u2",
    ],
    "evolution": [  # the shape of shared/lab/workload.py phase (b)
        "CREATE TABLE evo (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT, b VARCHAR(20)) ENGINE=InnoDB",
        "ALTER TABLE evo ADD COLUMN c DATETIME(3) AFTER a",
        "ALTER TABLE evo ADD COLUMN z BIGINT UNSIGNED NOT NULL DEFAULT 18446744073709551615 FIRST",
        "ALTER TABLE evo DROP COLUMN a",
        "ALTER TABLE evo MODIFY b VARCHAR(300) CHARACTER SET latin1",
        "ALTER TABLE evo MODIFY z INT NOT NULL DEFAULT -1",
        "ALTER TABLE evo CHANGE b b_renamed TEXT CHARACTER SET utf8mb4",
        "ALTER TABLE evo ADD COLUMN x DECIMAL(10,2) DEFAULT 1.50, ADD COLUMN y ENUM('p','q','r') AFTER id, "
        "DROP COLUMN c",
        "ALTER TABLE evo CHANGE COLUMN z z INT NOT NULL DEFAULT -1 AFTER x",
        "ALTER TABLE evo ADD COLUMN `select` INT DEFAULT 1, ADD COLUMN `we``ird col` VARCHAR(5) DEFAULT 'w', "
        "ADD COLUMN `ünï` SMALLINT /* inline comment */ DEFAULT -2",
        "ALTER TABLE evo ALGORITHM=INSTANT, ADD COLUMN inst VARCHAR(10) DEFAULT 'inst'",
        "/* leading comment */ alter   TABLE `{db}`.`evo`\n  -- line comment\n  MODIFY `x` DECIMAL(20,6) NULL",
        "RENAME TABLE evo TO evo2",
        "ALTER TABLE evo2 RENAME TO evo3",
        "CREATE TABLE evo_like LIKE evo3",
        "TRUNCATE TABLE evo_like",
        "CREATE TABLE evo_ctas ENGINE=InnoDB AS SELECT id, b_renamed AS txt FROM evo3 WHERE id < 8",
        "ALTER TABLE evo3 CONVERT TO CHARACTER SET latin1",
        "CREATE TABLE swap_a (id INT PRIMARY KEY, a_only VARCHAR(10))",
        "CREATE TABLE swap_b (id INT PRIMARY KEY, b_only DOUBLE, b2 DATE)",
        "RENAME TABLE swap_a TO swap_tmp, swap_b TO swap_a, swap_tmp TO swap_b",
        "DROP TABLE evo_like",
        "CREATE TABLE evo_like (k VARCHAR(8) PRIMARY KEY, v JSON, t TIME(2))",
        "CREATE DATABASE {db2} CHARACTER SET latin1",
        "CREATE TABLE {db2}.t1 (id INT PRIMARY KEY, s VARCHAR(10))",
        "USE {db2}",
        "CREATE TABLE t2 (id INT PRIMARY KEY, evo_id INT)",
        "CREATE TABLE {db}.cross_db (id INT PRIMARY KEY, note VARCHAR(20))",
        "USE {db}",
    ],
    "databases_indexes_views": [
        "CREATE DATABASE IF NOT EXISTS {db2} DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
        "CREATE TABLE {db2}.a (s VARCHAR(5), t TEXT CHARACTER SET latin1)",
        "ALTER DATABASE {db2} CHARACTER SET latin1",
        "CREATE TABLE {db2}.b (s VARCHAR(5))",
        "SET character_set_server = utf8mb3",
        "SET NAMES utf8mb4",
        "CREATE TABLE i (a INT, b VARCHAR(20), c TEXT, g POINT NOT NULL)",
        "CREATE UNIQUE INDEX ua ON i (a) COMMENT 'u'",
        "CREATE INDEX ib ON i (b(4) DESC, a) USING BTREE",
        "CREATE FULLTEXT INDEX fc ON i (c)",
        "CREATE SPATIAL INDEX sg ON i (g)",
        "CREATE INDEX gone ON i (a, b)",
        "DROP INDEX gone ON i",
        "CREATE OR REPLACE INDEX ua ON i (a, b)",
        "CREATE INDEX IF NOT EXISTS ib ON i (c(3))",
        "CREATE VIEW v AS SELECT a, b FROM i",
        "CREATE OR REPLACE VIEW v (x) AS SELECT a FROM i",
        "DROP VIEW v",
        "CREATE TABLE dropped (a INT)",
        "DROP TABLE IF EXISTS dropped, never_existed",
        "CREATE DATABASE {db2}_gone",
        "CREATE TABLE {db2}_gone.t (a INT)",
        "DROP DATABASE {db2}_gone",
        "CREATE TEMPORARY TABLE tmp (a INT)",
        "SET SESSION sql_mode = 'ANSI_QUOTES'",
        "CREATE TABLE \"ansi\" (\"q\" INT)",
        "SET sql_mode = DEFAULT",
    ],
    "foreign_keys_and_checks": [
        "CREATE TABLE p (id INT PRIMARY KEY, k INT, UNIQUE KEY (k))",
        "CREATE TABLE c1 (id INT PRIMARY KEY, pid INT, CONSTRAINT fk_named FOREIGN KEY (pid) REFERENCES p (id) "
        "ON DELETE SET NULL ON UPDATE CASCADE)",
        "CREATE TABLE c3 (id INT PRIMARY KEY, pid INT, CONSTRAINT cn FOREIGN KEY ix2 (pid) REFERENCES p (id))",
        "CREATE TABLE c4 (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id), "
        "KEY covering (pid, id))",
        "ALTER TABLE c4 ADD CONSTRAINT fk_k FOREIGN KEY (id) REFERENCES p (k), ADD CHECK (pid <> 0), "
        "ADD CONSTRAINT named_chk CHECK (id > 0)",
        "ALTER TABLE c4 DROP FOREIGN KEY fk_k, DROP CONSTRAINT named_chk",
        "CREATE TABLE c6 (id INT PRIMARY KEY, v VARCHAR(5) CHECK (v <> 'x'), w INT CHECK (w > 0))",
        "CREATE TABLE c2 (id INT PRIMARY KEY, pid INT, FOREIGN KEY ix_named (pid) REFERENCES p (id))",
        "CREATE TABLE c5 (id INT PRIMARY KEY, pid INT, CONSTRAINT fa FOREIGN KEY (pid) REFERENCES p (id), "
        "CONSTRAINT fb FOREIGN KEY (pid) REFERENCES p (id))",
        "CREATE TABLE c7 (id INT PRIMARY KEY, v VARCHAR(5) CHECK (v <> 'x'))",
        "ALTER TABLE c7 MODIFY v VARCHAR(9)",
    ],
}

# (sequence, table) -> what the server does that the model does not (yet). Checked to still differ.
# (FOREIGN KEY ix naming and COALESCE PARTITION counts were here; both are modelled now.)
KNOWN_MODEL_GAPS: dict[tuple[str, str], str] = {}

_EXPR_NOISE = re.compile(r"[`\s]")


def normalise_expression(text: str | None) -> str | None:
    return None if text is None else _EXPR_NOISE.sub("", text).lower()


def normalise(t: dict) -> dict:
    """The documented differences (module docstring): expression text only."""
    for c in t["columns"]:
        if c["generated"]:
            c["generated"]["expression"] = normalise_expression(c["generated"]["expression"])
        if c["default"] and c["default"]["kind"] == "expression":
            c["default"]["value"] = normalise_expression(c["default"]["value"])
    for chk in t["checks"]:
        chk["expression"] = normalise_expression(chk["expression"])
    for k in t["keys"]:
        for p in k["parts"]:
            p["expression"] = normalise_expression(p["expression"])
    if t["partitioning"]:
        t["partitioning"]["expression"] = normalise_expression(t["partitioning"]["expression"])
    return t


def differences(a, b, path="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: model {a!r} != server {b!r}"]


@pytest.fixture(scope="module")
def options(mariadb_server) -> Options:
    version = tuple(int(x) for x in mariadb_server.version.split("-")[0].split(".")[:3])
    return Options(dialect="mariadb", server_version=version)


def _server_tables(cur, databases) -> set[tuple[str, str]]:
    out = set()
    for db in databases:
        cur.execute("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s "
                    "AND TABLE_TYPE = 'BASE TABLE'", (db,))
        out |= {(db, r[0]) for r in cur.fetchall()}
    return out


def _compare(cur, catalog, options, known) -> tuple[int, int, dict[str, list[str]]]:
    """Every table of ``catalog`` against its SHOW CREATE TABLE: (compared, exactly equal,
    {table: differences after normalising})."""
    exact, diffs = 0, {}
    tables = catalog.all_tables()
    for table in tables:
        d, n = table.database, table.name
        cur.execute(f"SHOW CREATE TABLE `{d}`.`{n}`")
        ddl = cur.fetchall()[0][1]
        dbrec = catalog.database(d)
        base = apply_script(Catalog.empty(options), f"CREATE DATABASE `{d}` CHARACTER SET {dbrec.charset} "
                            f"COLLATE {dbrec.collation};\nUSE `{d}`;", options)
        ours, theirs = render.table_json(table), render.table_json(apply_script(base, ddl, options).table(d, n))
        exact += ours == theirs
        diff = differences(normalise(ours), normalise(theirs))
        if diff:
            diffs[n] = diff
    return len(tables), exact, diffs


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_show_create_table_round_trip(mariadb_server, options, name):
    """After every statement of the sequence: same tables as the server, and every table equal to
    its SHOW CREATE TABLE read back (up to the documented differences)."""
    db, db2 = f"rt_{name}", f"rt_{name}_2"
    statements = [s.format(db=db, db2=db2) for s in SEQUENCES[name]]
    known = {t for (seq, t) in KNOWN_MODEL_GAPS if seq == name}
    conn = mariadb_server.connect()
    show_conn = mariadb_server.connect()
    try:
        cur = conn.cursor()
        show = show_conn.cursor()
        for d in (db, db2, db2 + "_gone"):
            cur.execute(f"DROP DATABASE IF EXISTS `{d}`")
        cur.execute(f"CREATE DATABASE `{db}`")
        cur.execute(f"USE `{db}`")
        catalog = apply_script(Catalog.empty(options), f"CREATE DATABASE `{db}`;\nUSE `{db}`;", options)
        compared = exact = gap_hits = 0
        diffs: dict[str, list[str]] = {}
        seen: set[str] = set()  # tables that differed at some point
        for i, stmt in enumerate(statements):
            cur.execute(stmt)
            catalog = apply_script(catalog, stmt, options)
            ours = {(t.database, t.name) for t in catalog.all_tables()}
            assert ours == _server_tables(cur, (db, db2, db2 + "_gone")), f"tables differ after statement {i}: {stmt}"
            # SHOW CREATE TABLE on its own connection: the sequence's session may be under ANSI_QUOTES
            c, e, diffs = _compare(show, catalog, options, known)
            seen |= set(diffs)
            compared, exact, gap_hits = compared + c, exact + e, gap_hits + len(diffs)
            unexplained = {n: d for n, d in diffs.items() if n not in known}
            assert unexplained == {}, f"after statement {i}: {stmt}"
        print(f"\nround trip {name}: {len(statements)} statements, {compared} table comparisons, "
              f"{exact} exactly equal, {compared - exact - gap_hits} equal after "
              f"normalising expressions; known model gaps seen: {sorted(seen & known)}")
        fixed = known - seen
        assert not fixed, f"model gaps fixed, remove from KNOWN_MODEL_GAPS: {sorted(fixed)}"
    finally:
        conn.close()
        show_conn.close()
