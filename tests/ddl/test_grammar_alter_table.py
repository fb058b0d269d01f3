"""Our own ALTER TABLE corpus: every alter specification of issue 3 (MySQL 8.4 manual 15.1.9,
MariaDB ALTER TABLE incl. IF [NOT] EXISTS forms), positive and negative."""

from __future__ import annotations

import pytest
from mysqlddl._generated.mysql.MySqlParser import MySqlParser

from mysqlddl.ddl import parse_statement

# (sql, label of the (first) alterSpecification alternative)
ACCEPTED = [
    ("ALTER TABLE t ADD COLUMN c INT NOT NULL AFTER b", "AddColumn"),
    ("ALTER TABLE t ADD c INT FIRST", "AddColumn"),
    ("ALTER TABLE t ADD COLUMN IF NOT EXISTS c INT", "AddColumn"),
    ("ALTER TABLE t ADD COLUMN (c INT, d TEXT)", "AddColumns"),
    ("ALTER TABLE t ADD (x1 INT, INDEX ix (x1), PRIMARY KEY (id))", "AddColumns"),
    ("ALTER TABLE t DROP COLUMN c", "DropColumn"),
    ("ALTER TABLE t DROP c, DROP COLUMN IF EXISTS d", "DropColumn"),
    ("ALTER TABLE t CHANGE COLUMN a b BIGINT UNSIGNED DEFAULT 0 AFTER c", "ChangeColumn"),
    ("ALTER TABLE t CHANGE IF EXISTS a a INT FIRST", "ChangeColumn"),
    ("ALTER TABLE t MODIFY COLUMN a VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL", "ModifyColumn"),
    ("ALTER TABLE t MODIFY IF EXISTS a INT AFTER b", "ModifyColumn"),
    ("ALTER TABLE t RENAME COLUMN a TO b", "RenameColumn"),
    ("ALTER TABLE t ALTER COLUMN a SET DEFAULT 5", "AlterColumn"),
    ("ALTER TABLE t ALTER a SET DEFAULT (RAND() * 10)", "AlterColumn"),
    ("ALTER TABLE t ALTER COLUMN a DROP DEFAULT", "AlterColumn"),
    ("ALTER TABLE t ALTER COLUMN a SET INVISIBLE", "AlterColumn"),
    ("ALTER TABLE t ALTER a SET VISIBLE", "AlterColumn"),
    ("ALTER TABLE t ADD INDEX ix (a), ADD KEY (b(10) DESC)", "AddIndex"),
    ("ALTER TABLE t ADD INDEX IF NOT EXISTS ix (a)", "AddIndex"),
    ("ALTER TABLE t ADD FULLTEXT INDEX ft (a), ADD SPATIAL KEY sp (g)", "AddIndex"),
    ("ALTER TABLE t ADD PRIMARY KEY (a, b)", "AddConstraint"),
    ("ALTER TABLE t ADD CONSTRAINT pk PRIMARY KEY USING BTREE (a)", "AddConstraint"),
    ("ALTER TABLE t ADD UNIQUE KEY uk (a), ADD UNIQUE INDEX IF NOT EXISTS uk2 (b)", "AddConstraint"),
    ("ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (p) REFERENCES par (id) ON DELETE CASCADE", "AddConstraint"),
    ("ALTER TABLE t ADD FOREIGN KEY IF NOT EXISTS (p) REFERENCES par (id)", "AddConstraint"),
    ("ALTER TABLE t ADD CHECK (a > 0)", "AddConstraint"),
    ("ALTER TABLE t ADD CONSTRAINT c1 CHECK (a > 0) NOT ENFORCED", "AddConstraint"),
    ("ALTER TABLE t ADD INDEX f ((a + b))", "AddIndex"),
    ("ALTER TABLE t DROP INDEX ix", "DropIndexSpec"),
    ("ALTER TABLE t DROP KEY IF EXISTS ix", "DropIndexSpec"),
    ("ALTER TABLE t DROP PRIMARY KEY", "DropPrimaryKey"),
    ("ALTER TABLE t DROP FOREIGN KEY fk", "DropForeignKey"),
    ("ALTER TABLE t DROP FOREIGN KEY IF EXISTS fk", "DropForeignKey"),
    ("ALTER TABLE t DROP CHECK c1", "DropConstraint"),
    ("ALTER TABLE t DROP CONSTRAINT IF EXISTS c1", "DropConstraint"),
    ("ALTER TABLE t ALTER CHECK c1 NOT ENFORCED", "AlterConstraint"),
    ("ALTER TABLE t ALTER CONSTRAINT c1 ENFORCED", "AlterConstraint"),
    ("ALTER TABLE t ALTER INDEX ix INVISIBLE", "AlterIndexVisibility"),
    ("ALTER TABLE t ALTER INDEX IF EXISTS ix IGNORED", "AlterIndexVisibility"),
    ("ALTER TABLE t RENAME INDEX a TO b", "RenameIndex"),
    ("ALTER TABLE t RENAME KEY a TO b", "RenameIndex"),
    ("ALTER TABLE t RENAME TO db2.t2", "RenameTableSpec"),
    ("ALTER TABLE t RENAME AS t2", "RenameTableSpec"),
    ("ALTER TABLE t RENAME t2", "RenameTableSpec"),
    ("ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "ConvertToCharset"),
    ("ALTER TABLE t CONVERT TO CHARSET latin1", "ConvertToCharset"),
    ("ALTER TABLE t DEFAULT CHARACTER SET = utf8mb4 COLLATE = utf8mb4_bin", "AlterTableOptions"),
    ("ALTER TABLE t CHARACTER SET latin1", "AlterTableOptions"),
    ("ALTER TABLE t ENGINE=InnoDB, AUTO_INCREMENT=100, COMMENT 'x'", "AlterTableOptions"),
    ("ALTER TABLE t ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=8", "AlterTableOptions"),
    ("ALTER TABLE t ORDER BY a, b DESC", "AlterOrderBy"),
    ("ALTER TABLE t ALGORITHM=INPLACE, LOCK=NONE", "AlterAlgorithm"),
    ("ALTER TABLE t ALGORITHM INSTANT", "AlterAlgorithm"),
    ("ALTER TABLE t LOCK = EXCLUSIVE", "AlterLock"),
    ("ALTER TABLE t FORCE", "ForceRebuild"),
    ("ALTER TABLE t DISCARD TABLESPACE", "TablespaceAction"),
    ("ALTER TABLE t IMPORT TABLESPACE", "TablespaceAction"),
    ("ALTER TABLE t DISABLE KEYS", "EnableKeys"),
    ("ALTER TABLE t ENABLE KEYS", "EnableKeys"),
    ("ALTER TABLE t WITHOUT VALIDATION", "ValidationSpec"),
    # partition operations
    ("ALTER TABLE t ADD PARTITION (PARTITION p3 VALUES LESS THAN (2002))", "AddPartition"),
    ("ALTER TABLE t ADD PARTITION IF NOT EXISTS (PARTITION p3 VALUES IN (7))", "AddPartition"),
    ("ALTER TABLE t ADD PARTITION PARTITIONS 2", "AddPartition"),
    ("ALTER TABLE t DROP PARTITION p0, p1", "DropPartition"),
    ("ALTER TABLE t DROP PARTITION IF EXISTS p0", "DropPartition"),
    ("ALTER TABLE t DISCARD PARTITION p0 TABLESPACE", "PartitionTablespace"),
    ("ALTER TABLE t IMPORT PARTITION ALL TABLESPACE", "PartitionTablespace"),
    ("ALTER TABLE t TRUNCATE PARTITION ALL", "TruncatePartition"),
    ("ALTER TABLE t COALESCE PARTITION 2", "CoalescePartition"),
    ("ALTER TABLE t REORGANIZE PARTITION p0, p1 INTO (PARTITION p2 VALUES LESS THAN (10))", "ReorganizePartition"),
    ("ALTER TABLE t EXCHANGE PARTITION p0 WITH TABLE t2 WITHOUT VALIDATION", "ExchangePartition"),
    ("ALTER TABLE t ANALYZE PARTITION p0", "PartitionMaintenance"),
    ("ALTER TABLE t CHECK PARTITION ALL", "PartitionMaintenance"),
    ("ALTER TABLE t OPTIMIZE PARTITION p0", "PartitionMaintenance"),
    ("ALTER TABLE t REBUILD PARTITION p0, p1", "PartitionMaintenance"),
    ("ALTER TABLE t REPAIR PARTITION p0", "PartitionMaintenance"),
    ("ALTER TABLE t REMOVE PARTITIONING", "RemovePartitioning"),
    ("ALTER TABLE t UPGRADE PARTITIONING", "UpgradePartitioning"),
    ("ALTER TABLE t CONVERT PARTITION p0 TO TABLE t_old", "ConvertPartitionToTable"),
    ("ALTER TABLE t CONVERT TABLE t_new TO PARTITION p9 VALUES LESS THAN (100)", "ConvertTableToPartition"),
    # MariaDB versioning and periods
    ("ALTER TABLE t ADD SYSTEM VERSIONING", "AddSystemVersioning"),
    ("ALTER TABLE t DROP SYSTEM VERSIONING", "DropSystemVersioning"),
    ("ALTER TABLE t ADD PERIOD FOR SYSTEM_TIME(s, e)", "AddPeriod"),
    ("ALTER TABLE t DROP PERIOD FOR p", "DropPeriod"),
]

ACCEPTED_WHOLE = [
    "ALTER TABLE t",
    "ALTER ONLINE IGNORE TABLE IF EXISTS db.t WAIT 5 ADD c INT",
    "ALTER TABLE t NOWAIT DROP c",
    "ALTER TABLE t PARTITION BY HASH (a) PARTITIONS 8",
    "ALTER TABLE t ENGINE=InnoDB PARTITION BY KEY () PARTITIONS 2",
    "ALTER TABLE default.task ADD COLUMN x INT",
    "ALTER TABLE `order` ADD COLUMN `key` INT, ADD returning INT",
    "ALTER TABLE t /*!50100 PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS THAN (1)) */",
]

# Every statement here is also a syntax error (1064) for the lab MariaDB 10.11 (PREPARE).
REJECTED = [
    ("ALTER TABLE t ADD", "<EOF>", 1, 17),
    ("ALTER TABLE t ADD COLUMN", "<EOF>", 1, 24),
    ("ALTER TABLE t DROP", "<EOF>", 1, 18),
    ("ALTER TABLE t CHANGE a INT", "INT", 1, 23),  # INT is reserved: not a new column name
    ("ALTER TABLE t RENAME COLUMN a b", "b", 1, 30),
    ("ALTER TABLE t ALTER COLUMN a SET", "<EOF>", 1, 32),
    ("ALTER TABLE t ADD c INT, , ADD d INT", ",", 1, 25),
    ("ALTER TABLE t ALGORITHM INPLACE COPY", "COPY", 1, 32),
    ("ALTER TABLE t MODIFY a INT AFTER", "<EOF>", 1, 32),
    ("ALTER TABLE t COALESCE PARTITION", "<EOF>", 1, 32),
]


def _first_spec(sql: str):
    tree = parse_statement(sql)
    at = tree.sqlStatement().ddlStatement().alterTable()
    assert at is not None
    return at.alterSpecification(0)


@pytest.mark.parametrize("sql,label", ACCEPTED)
def test_alter_specifications_parse_to_their_labelled_alternative(sql, label):
    spec = _first_spec(sql)
    assert type(spec).__name__ == f"{label}Context"
    assert isinstance(spec, MySqlParser.AlterSpecificationContext)


@pytest.mark.parametrize("sql", ACCEPTED_WHOLE)
def test_alter_table_heads_and_trailing_partitioning(statement_rule, sql):
    assert statement_rule(sql) == "alterTable"


@pytest.mark.parametrize("sql,token,line,column", REJECTED)
def test_invalid_alter_table_is_rejected_with_position(rejection, sql, token, line, column):
    err = rejection(sql)
    assert (err.token, err.line, err.column) == (token, line, column)


def test_every_alter_specification_label_is_exercised():
    """A new alterSpecification alternative must get a case here (and a listener decision)."""
    labels = {name[:-len("Context")] for name in dir(MySqlParser)
              if name.endswith("Context") and isinstance(getattr(MySqlParser, name), type)
              and issubclass(getattr(MySqlParser, name), MySqlParser.AlterSpecificationContext)
              and getattr(MySqlParser, name) is not MySqlParser.AlterSpecificationContext}
    covered = {label for _, label in ACCEPTED}
    assert labels - covered == set()
