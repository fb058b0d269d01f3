"""Our own CREATE TABLE corpus: every column, index, constraint, table-option and partition form of
issue 3 (MySQL 8.4 manual 15.1.20, MariaDB CREATE TABLE), accepted as ``createTable`` /
``createTableLike``; and invalid forms, rejected with a positioned error."""

from __future__ import annotations

import pytest

ACCEPTED = [
    # data types (manual chapter 13) and their attributes
    "CREATE TABLE t (a TINYINT(3) UNSIGNED ZEROFILL, b SMALLINT SIGNED, c MEDIUMINT, d INT(11), e INTEGER, f "
    "BIGINT UNSIGNED)",
    "CREATE TABLE t (a INT1, b INT2, c INT3, d INT4, e INT8, f MIDDLEINT)",
    "CREATE TABLE t (a DECIMAL(10,2) UNSIGNED, b DEC(5), c NUMERIC, d FIXED(4,1), e DECIMAL(19.5))",
    "CREATE TABLE t (a FLOAT, b FLOAT(7,4), c FLOAT(24), d DOUBLE, e DOUBLE PRECISION(10,2), f REAL, g "
    "FLOAT4, h FLOAT8)",
    "CREATE TABLE t (a BIT, b BIT(18), c BOOL, d BOOLEAN, e SERIAL)",
    "CREATE TABLE t (a DATE, b DATETIME(6), c TIMESTAMP(3), d TIME, e YEAR, f YEAR(4))",
    "CREATE TABLE t (a CHAR(10), b VARCHAR(255), c NCHAR(5), d NVARCHAR(5), e NATIONAL CHAR(3), f NATIONAL VARCHAR(9))",
    "CREATE TABLE t (a CHARACTER VARYING(10), b CHAR VARYING(3), c CHAR(10) BINARY, d VARCHAR(10) ASCII, e "
    "CHAR UNICODE)",
    "CREATE TABLE t (a BINARY(16), b VARBINARY(200), c TINYBLOB, d BLOB(100), e MEDIUMBLOB, f LONGBLOB)",
    "CREATE TABLE t (a TINYTEXT, b TEXT(100), c MEDIUMTEXT, d LONGTEXT, e LONG, f LONG VARCHAR, g LONG VARBINARY)",
    "CREATE TABLE t (a ENUM('x','y') CHARACTER SET latin1, b SET('a','b') COLLATE latin1_bin)",
    "CREATE TABLE t (a JSON, b GEOMETRY, c POINT, d LINESTRING, e POLYGON, f MULTIPOINT, g MULTILINESTRING, h "
    "MULTIPOLYGON, i GEOMETRYCOLLECTION, j GEOMCOLLECTION)",
    "CREATE TABLE t (a INET4, b INET6, c UUID, d VECTOR(128), e VECTOR)",
    # column attributes
    "CREATE TABLE t (a INT NOT NULL DEFAULT 0 AUTO_INCREMENT PRIMARY KEY COMMENT 'id')",
    "CREATE TABLE t (a INT NULL DEFAULT NULL, b INT DEFAULT -1, c VARCHAR(3) DEFAULT 'x', d BIT DEFAULT b'1', "
    "e BLOB DEFAULT (UUID()))",
    "CREATE TABLE t (a TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))",
    "CREATE TABLE t (a DATETIME DEFAULT NOW() ON UPDATE NOW(), b DATE DEFAULT (CURRENT_DATE + INTERVAL 1 DAY))",
    "CREATE TABLE t (a VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, b TEXT CHARSET latin1)",
    "CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL, c INT AS (a + 1) STORED NOT NULL, d "
    "INT AS (a) PERSISTENT)",
    "CREATE TABLE t (a POINT NOT NULL SRID 4326, b INT INVISIBLE, c INT VISIBLE)",
    "CREATE TABLE t (a INT COLUMN_FORMAT FIXED STORAGE DISK, b INT COLUMN_FORMAT DYNAMIC STORAGE MEMORY, c "
    "INT COLUMN_FORMAT DEFAULT)",
    "CREATE TABLE t (a INT UNIQUE, b INT UNIQUE KEY, c INT KEY, d INT REFERENCES p (id) ON DELETE CASCADE)",
    "CREATE TABLE t (a INT CHECK (a > 0), b INT CONSTRAINT b_pos CHECK (b >= 0) NOT ENFORCED)",
    "CREATE TABLE t (a INT ENGINE_ATTRIBUTE '{}' SECONDARY_ENGINE_ATTRIBUTE = '{}', b INT NOT SECONDARY)",
    "CREATE TABLE t (id SERIAL, v INT SERIAL DEFAULT VALUE)",
    "CREATE TABLE t (a BLOB COMPRESSED, b TEXT COMPRESSED=zlib)",
    # index, key and constraint forms
    "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a), UNIQUE KEY uk (b), KEY k1 (a, b), INDEX k2 USING BTREE (b DESC))",
    "CREATE TABLE t (a TEXT, b GEOMETRY NOT NULL SRID 0, FULLTEXT INDEX ft (a) WITH PARSER ngram, SPATIAL KEY sp (b))",
    "CREATE TABLE t (a VARCHAR(100), KEY k (a(10)) COMMENT 'prefix' KEY_BLOCK_SIZE = 8 INVISIBLE)",
    "CREATE TABLE t (a INT, b JSON, INDEX f1 ((a + 1)), KEY f2 ((CAST(b->>'$.x' AS CHAR(30))) DESC))",
    "CREATE TABLE t (a INT, CONSTRAINT pk PRIMARY KEY USING HASH (a), CONSTRAINT uq UNIQUE INDEX (a) VISIBLE)",
    "CREATE TABLE c (id INT, p INT, CONSTRAINT fk FOREIGN KEY fk_idx (p) REFERENCES par (id) MATCH FULL ON "
    "DELETE SET NULL ON UPDATE NO ACTION)",
    "CREATE TABLE c (p INT, FOREIGN KEY (p) REFERENCES db.par (id) ON UPDATE CASCADE ON DELETE RESTRICT)",
    "CREATE TABLE t (a INT, CHECK (a < 10), CONSTRAINT c2 CHECK (a <> 3) ENFORCED)",
    "CREATE TABLE t (Name CHAR(64) NOT NULL, PRIMARY KEY Name (Name))",
    "CREATE TABLE t (a INT, KEY k (a) IGNORED, KEY k2 (a) NOT IGNORED)",
    # table options (manual 15.1.20 table_option)
    "CREATE TABLE t (a INT) ENGINE=InnoDB AUTO_INCREMENT=10 DEFAULT CHARSET=utf8mb4 "
    "COLLATE=utf8mb4_unicode_ci COMMENT='x'",
    "CREATE TABLE t (a INT) ENGINE InnoDB, ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE=8, STATS_PERSISTENT=0, "
    "STATS_AUTO_RECALC=DEFAULT",
    "CREATE TABLE t (a INT) AVG_ROW_LENGTH=100 MAX_ROWS=1000 MIN_ROWS=1 CHECKSUM=1 DELAY_KEY_WRITE=1 PACK_KEYS=DEFAULT",
    "CREATE TABLE t (a INT) COMPRESSION='zlib' ENCRYPTION='Y' CONNECTION='mysql://u@h/db/t' PASSWORD='p' "
    "AUTOEXTEND_SIZE=4M",
    "CREATE TABLE t (a INT) DATA DIRECTORY='/d' INDEX DIRECTORY='/i' TABLESPACE ts1 STORAGE DISK STATS_SAMPLE_PAGES=10",
    "CREATE TABLE m (a INT) ENGINE=MERGE UNION=(t1, t2) INSERT_METHOD=LAST",
    "CREATE TABLE t (a INT) DEFAULT CHARACTER SET = latin1 CHARACTER SET utf8 CHAR SET = utf8 START TRANSACTION",
    "CREATE TABLE t (a INT) ENGINE=Aria PAGE_CHECKSUM=1 TRANSACTIONAL=1 PAGE_COMPRESSED=1 "
    "PAGE_COMPRESSION_LEVEL=3 ENCRYPTED=YES ENCRYPTION_KEY_ID=2",
    "CREATE TABLE t (a INT) ENGINE=CONNECT TABLE_TYPE=CSV `encrypted`=yes",
    "CREATE TABLE t (a INT) SECONDARY_ENGINE=RAPID ENGINE_ATTRIBUTE='{}' SECONDARY_ENGINE_ATTRIBUTE='{}'",
    # partitioning (manual 26.2)
    "CREATE TABLE t (a INT) PARTITION BY HASH (a) PARTITIONS 4",
    "CREATE TABLE t (a INT) PARTITION BY LINEAR HASH (YEAR(a)) PARTITIONS 2",
    "CREATE TABLE t (a INT) PARTITION BY KEY (a) PARTITIONS 3",
    "CREATE TABLE t (a INT) PARTITION BY LINEAR KEY ALGORITHM=2 (a)",
    "CREATE TABLE t (a INT) PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS THAN (10), PARTITION p1 VALUES "
    "LESS THAN MAXVALUE)",
    "CREATE TABLE t (a INT, b DATE) PARTITION BY RANGE COLUMNS (a, b) (PARTITION p0 VALUES LESS THAN (5, "
    "'2020-01-01'), PARTITION p1 VALUES LESS THAN (MAXVALUE, MAXVALUE))",
    "CREATE TABLE t (a INT) PARTITION BY LIST (a) (PARTITION p0 VALUES IN (1, 2) ENGINE=InnoDB COMMENT 'x', "
    "PARTITION p1 VALUES IN (3) DATA DIRECTORY '/d')",
    "CREATE TABLE t (a VARCHAR(3)) PARTITION BY LIST COLUMNS (a) (PARTITION p0 VALUES IN ('a', 'b'), "
    "PARTITION pd DEFAULT)",
    "CREATE TABLE t (a INT, b INT) PARTITION BY RANGE (a) SUBPARTITION BY HASH (b) SUBPARTITIONS 2 (PARTITION "
    "p0 VALUES LESS THAN (10))",
    "CREATE TABLE t (a INT, b INT) PARTITION BY RANGE (a) SUBPARTITION BY KEY (b) (PARTITION p0 VALUES LESS "
    "THAN (10) (SUBPARTITION s0 ENGINE=InnoDB, SUBPARTITION s1 MAX_ROWS=5))",
    "CREATE TABLE t (a INT) WITH SYSTEM VERSIONING PARTITION BY SYSTEM_TIME INTERVAL 1 MONTH (PARTITION p0 "
    "HISTORY, PARTITION pn CURRENT)",
    "CREATE TABLE t (a INT) WITH SYSTEM VERSIONING PARTITION BY SYSTEM_TIME LIMIT 1000",
    "CREATE TABLE t (a INT) /*!50100 PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS THAN (5) ENGINE = InnoDB) */",
    # MariaDB system versioning and periods
    "CREATE TABLE t (a INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START INVISIBLE, e TIMESTAMP(6) GENERATED "
    "ALWAYS AS ROW END INVISIBLE, PERIOD FOR SYSTEM_TIME(s, e)) WITH SYSTEM VERSIONING",
    "CREATE TABLE t (a INT WITHOUT SYSTEM VERSIONING, b INT WITH SYSTEM VERSIONING) WITH SYSTEM VERSIONING",
    "CREATE TABLE t (id INT, s DATE, e DATE, PERIOD FOR p(s, e), UNIQUE (id, p WITHOUT OVERLAPS))",
    # heads: IF NOT EXISTS, TEMPORARY, OR REPLACE, qualified and quoted names, LIKE, SELECT
    "CREATE TEMPORARY TABLE IF NOT EXISTS `db`.`t``x` (`select` INT, `é` INT, ключ INT)",
    "CREATE OR REPLACE TABLE t (a INT)",
    "CREATE TABLE t (a INT) SELECT 1 AS a",
    "CREATE TABLE t (a INT) IGNORE SELECT a FROM s",
    "CREATE TABLE t REPLACE AS SELECT * FROM s WHERE x > 1",
    "CREATE TABLE t AS (SELECT 1) UNION (SELECT 2)",
    "CREATE TABLE t AS WITH c AS (SELECT 1 AS x) SELECT x FROM c",
    "CREATE TABLE t (a INT) TABLE s",
    # keywords usable as identifiers (lesson 5)
    "CREATE TABLE status (date DATE, time TIME, timestamp TIMESTAMP, text TEXT, comment INT, year INT, row "
    "INT, position INT, value INT, system INT, virtual INT)",
    "CREATE TABLE t (tbl.a BIGINT, .b INT)",
]

ACCEPTED_LIKE = [
    "CREATE TABLE t2 LIKE t1",
    "CREATE TABLE IF NOT EXISTS db.t2 (LIKE db.t1)",
    "CREATE TEMPORARY TABLE t2 LIKE t1",
]

# Every statement here is also a syntax error (1064) for the lab MariaDB 10.11 (PREPARE).
REJECTED = [
    # (sql, offending token text, 1-based line, 0-based column)
    ("CREATE TABLE t (a INT,)", ")", 1, 22),
    ("CREATE TABLE t (a INT", "<EOF>", 1, 21),
    ("CREATE TABLE t (a VARCHAR(10) NOT NOT NULL)", "NOT", 1, 34),
    ("CREATE TABLE t (a INT DEFAULT)", ")", 1, 29),
    ("CREATE TABLE t (a ENUM(1, 2))", "1", 1, 23),
    ("CREATE TABLE t (a INT, PRIMARY KEY)", ")", 1, 34),
    ("CREATE TABLE t (a INT, FOREIGN KEY (a) REFERENCES)", ")", 1, 49),
    ("CREATE TABLE t (a INT) PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS (1))", "(", 1, 72),
    ("CREATE TABLE select (a INT)", "select", 1, 13),
    ("CREATE TABLE t (a INT)\nENGINE = = InnoDB", "=", 2, 9),
    ("CREATE TABLE t (a DECIMAL(10,))", ")", 1, 29),
    ("CREATE TABLE IF EXISTS t (a INT)", "EXISTS", 1, 16),
]


@pytest.mark.parametrize("sql", ACCEPTED)
def test_create_table_forms_are_accepted(statement_rule, sql):
    assert statement_rule(sql) == "createTable"


@pytest.mark.parametrize("sql", ACCEPTED_LIKE)
def test_create_table_like_is_its_own_rule(statement_rule, sql):
    assert statement_rule(sql) == "createTableLike"


@pytest.mark.parametrize("sql,token,line,column", REJECTED)
def test_invalid_create_table_is_rejected_with_position(rejection, sql, token, line, column):
    err = rejection(sql)
    assert (err.token, err.line, err.column) == (token, line, column)
    assert err.expected, "a rejection says what was expected"
    assert err.statement == sql


def test_column_definition_rules_are_reachable_for_the_listener():
    """The listener layer walks createTable -> tableElement -> columnDefinition -> dataType and
    columnAttribute: the rule names are part of the contract (grammars/mysql/README.md)."""
    from mysqlddl.ddl import parse_statement

    tree = parse_statement("CREATE TABLE t (a INT NOT NULL DEFAULT 1 COMMENT 'c', KEY k (a))")
    ct = tree.sqlStatement().ddlStatement().createTable()
    elements = ct.tableElementList().tableElement()
    col = elements[0].columnDefinition()
    assert col.columnName().getText() == "a"
    assert col.dataType().getText().upper() == "INT"
    assert [type(a).__name__ for a in col.columnAttribute()] == [
        "NullAttrContext", "DefaultAttrContext", "CommentAttrContext"]
    assert elements[1].indexDefinition() is not None
