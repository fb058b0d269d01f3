"""Our own corpus for every other statement kind that appears in binlogs and dumps (issue 3):
DML incl. multi-table, GRANT/REVOKE and users/roles, routines/triggers/events with BEGIN...END
bodies, XA and transactions, FLUSH/ANALYZE/OPTIMIZE/REPAIR/LOCK/KILL/PREPARE — and full SELECT."""

from __future__ import annotations

import pytest

ACCEPTED = [
    # SELECT (manual 15.2.13) with joins, grouping, windows, locking, set operations, CTEs
    ("SELECT DISTINCT a, b AS c, t.* FROM t WHERE a > 1 GROUP BY a WITH ROLLUP HAVING COUNT(*) > 2 ORDER BY 1 "
     "DESC LIMIT 10 OFFSET 5", "queryExpression"),
    ("SELECT SQL_NO_CACHE STRAIGHT_JOIN * FROM a INNER JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id) "
     "CROSS JOIN d NATURAL JOIN e", "querySpecification"),
    ("SELECT * FROM a LEFT JOIN b JOIN c ON c.id = b.id ON a.id = b.id", "querySpecification"),
    ("SELECT * FROM t1 PARTITION (p0) AS x FORCE INDEX (i1) USE KEY FOR ORDER BY (i2) IGNORE INDEX FOR JOIN "
     "(PRIMARY)", "querySpecification"),
    ("SELECT a, RANK() OVER (PARTITION BY b ORDER BY c ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM "
     "t WINDOW w AS (ORDER BY a)", "querySpecification"),
    ("SELECT * FROM t FOR UPDATE OF t NOWAIT", "queryExpression"),
    ("SELECT * FROM t LOCK IN SHARE MODE", "queryExpression"),
    ("SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3 INTERSECT DISTINCT SELECT 4 ORDER BY 1", "queryExpression"),
    ("WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT * FROM c", "queryExpression"),
    ("(SELECT a FROM t1) UNION (SELECT b FROM t2) LIMIT 3", "queryExpression"),
    ("SELECT * FROM (SELECT 1 AS x) AS d, LATERAL (SELECT d.x) AS l", "querySpecification"),
    ("SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (rn FOR ORDINALITY, v INT PATH '$')) AS jt", "querySpecification"),
    ("SELECT a INTO @x FROM t LIMIT 1", "queryExpression"),
    ("SELECT max(id) FROM t INTO @m", "queryExpression"),
    ("SELECT * FROM t INTO OUTFILE '/tmp/x' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES "
     "TERMINATED BY '\\n'", "queryExpression"),
    ("TABLE t", "queryTerm"),
    ("VALUES ROW(1, 2), ROW(3, 4)", "queryTerm"),
    ("SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t", "querySpecification"),
    # DML (manual 15.2)
    ("INSERT INTO t (a, b) VALUES (1, 'x'), (2, DEFAULT)", "insertStatement"),
    ("INSERT LOW_PRIORITY IGNORE t VALUE (1)", "insertStatement"),
    ("INSERT INTO t SET a = 1, b = b + 1", "insertStatement"),
    ("INSERT INTO t (a) SELECT a FROM s ON DUPLICATE KEY UPDATE a = VALUES(a)", "insertStatement"),
    ("INSERT INTO t VALUES (1) AS new ON DUPLICATE KEY UPDATE a = new.a", "insertStatement"),
    ("INSERT INTO t PARTITION (p0) (a) VALUES (1) RETURNING a", "insertStatement"),
    ("REPLACE INTO t VALUES (1, 2)", "replaceStatement"),
    ("REPLACE DELAYED t SET a = 1", "replaceStatement"),
    ("UPDATE t SET a = 1 WHERE b = 2 ORDER BY c LIMIT 1", "updateStatement"),
    ("UPDATE LOW_PRIORITY IGNORE a JOIN b ON a.id = b.id SET a.x = b.x, b.y = DEFAULT", "updateStatement"),
    ("WITH c AS (SELECT 1 AS id) UPDATE t, c SET t.v = 0 WHERE t.id = c.id", "updateStatement"),
    ("DELETE FROM t WHERE a = 1 ORDER BY b LIMIT 5", "deleteStatement"),
    ("DELETE LOW_PRIORITY QUICK IGNORE t1, t2 FROM t1 INNER JOIN t2 ON t1.id = t2.id "
     "WHERE t1.x = 0", "deleteStatement"),
    ("DELETE FROM t1.*, t2 USING t1 JOIN t2 ON t1.a = t2.a", "deleteStatement"),
    ("DELETE FROM t RETURNING *", "deleteStatement"),
    ("LOAD DATA LOCAL INFILE '/x.csv' REPLACE INTO TABLE t CHARACTER SET utf8 FIELDS TERMINATED BY ',' IGNORE "
     "1 LINES (a, @b) SET c = @b", "loadDataStatement"),
    ("CALL db.proc(1, @out)", "callStatement"),
    ("CALL p", "callStatement"),
    ("DO SLEEP(1)", "doStatement"),
    ("HANDLER t OPEN", "handlerStatement"),
    # transactions, XA, locks (manual 15.3)
    ("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY", "startTransaction"),
    ("BEGIN", "beginWork"),
    ("BEGIN WORK", "beginWork"),
    ("COMMIT", "commitWork"),
    ("COMMIT WORK AND NO CHAIN NO RELEASE", "commitWork"),
    ("ROLLBACK", "rollbackWork"),
    ("ROLLBACK TO SAVEPOINT s1", "rollbackToSavepoint"),
    ("SAVEPOINT s1", "savepointStatement"),
    ("RELEASE SAVEPOINT s1", "releaseSavepoint"),
    ("LOCK TABLES t1 READ, t2 AS x WRITE, t3 READ LOCAL", "lockTables"),
    ("LOCK TABLE t1 WRITE NOWAIT", "lockTables"),
    ("UNLOCK TABLES", "unlockTables"),
    ("LOCK INSTANCE FOR BACKUP", "lockInstance"),
    ("XA START 'trx1'", "xaStart"),
    ("XA BEGIN X'0102', 'b', 1 JOIN", "xaStart"),
    ("XA END 'trx1' SUSPEND FOR MIGRATE", "xaEnd"),
    ("XA PREPARE 'trx1'", "xaPrepare"),
    ("XA COMMIT 'trx1' ONE PHASE", "xaCommit"),
    ("XA ROLLBACK 'trx1'", "xaRollback"),
    ("XA RECOVER CONVERT XID", "xaRecover"),
    # accounts (manual 15.7.1)
    ("CREATE USER 'u'@'%' IDENTIFIED BY 'p'", "createUser"),
    ("CREATE USER IF NOT EXISTS u@localhost IDENTIFIED WITH 'mysql_native_password' AS '*ABC' PASSWORD EXPIRE "
     "NEVER COMMENT 'x'", "createUser"),
    ("CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('x') OR unix_socket", "createUser"),
    ("CREATE USER 'u'@'%' IDENTIFIED WITH 'caching_sha2_password' AS 0x2441243030352456 REQUIRE NONE PASSWORD "
     "EXPIRE DEFAULT ACCOUNT UNLOCK PASSWORD HISTORY DEFAULT PASSWORD REUSE INTERVAL DEFAULT PASSWORD REQUIRE "
     "CURRENT DEFAULT", "createUser"),
    ("CREATE OR REPLACE USER u REQUIRE SSL AND X509 WITH MAX_QUERIES_PER_HOUR 10 ACCOUNT LOCK", "createUser"),
    ("ALTER USER 'u'@'%' IDENTIFIED BY 'new' RETAIN CURRENT PASSWORD", "alterUser"),
    ("ALTER USER IF EXISTS u DEFAULT ROLE r1, r2 PASSWORD HISTORY 5 FAILED_LOGIN_ATTEMPTS 3 "
     "PASSWORD_LOCK_TIME UNBOUNDED", "alterUser"),
    ("DROP USER IF EXISTS u1, 'u2'@'h'", "dropUser"),
    ("RENAME USER a@h TO b@h", "renameUser"),
    ("CREATE ROLE IF NOT EXISTS r1, 'r2'@'%'", "createRole"),
    ("DROP ROLE r1", "dropRole"),
    ("GRANT SELECT, INSERT (a, b), UPDATE ON db.* TO 'u'@'%' WITH GRANT OPTION", "grantPrivileges"),
    ("GRANT ALL PRIVILEGES ON *.* TO u", "grantPrivileges"),
    ("GRANT CREATE TEMPORARY TABLES, LOCK TABLES, REPLICATION SLAVE, BACKUP_ADMIN ON *.* TO u", "grantPrivileges"),
    ("GRANT EXECUTE ON PROCEDURE db.p TO u AS root WITH ROLE DEFAULT", "grantPrivileges"),
    ("GRANT PROXY ON 'a'@'h' TO 'b'@'h' WITH GRANT OPTION", "grantProxy"),
    ("GRANT r1, r2 TO u1, u2 WITH ADMIN OPTION", "grantRoles"),
    ("REVOKE INSERT ON db.t FROM u", "revokePrivileges"),
    ("REVOKE ALL PRIVILEGES, GRANT OPTION FROM u", "revokeAll"),
    ("REVOKE r1 FROM u", "revokeRoles"),
    ("SET PASSWORD FOR u = 'x'", "setPassword"),
    ("SET DEFAULT ROLE ALL TO u", "setDefaultRole"),
    ("SET ROLE NONE", "setRole"),
    # routines, triggers, events (manual 15.1.17/22/13, 15.6)
    ("CREATE PROCEDURE p(IN a INT, OUT b VARCHAR(10), INOUT c INT) SQL SECURITY INVOKER COMMENT 'x' BEGIN "
     "DECLARE x INT DEFAULT 0; SET x = a; SELECT x INTO b; END", "createProcedure"),
    ("CREATE DEFINER=`root`@`%` PROCEDURE p() BEGIN DECLARE c CURSOR FOR SELECT 1; DECLARE CONTINUE HANDLER "
     "FOR NOT FOUND SET @done = 1; OPEN c; l: LOOP FETCH c INTO @v; IF @done THEN LEAVE l; END IF; ITERATE l; "
     "END LOOP l; CLOSE c; END", "createProcedure"),
    ("CREATE PROCEDURE p() BEGIN WHILE @i < 3 DO SET @i = @i + 1; END WHILE; REPEAT SET @i = @i - 1; UNTIL @i "
     "= 0 END REPEAT; CASE @i WHEN 0 THEN SELECT 0; ELSE BEGIN END; END CASE; END", "createProcedure"),
    ("CREATE PROCEDURE p() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN GET DIAGNOSTICS CONDITION 1 @m = "
     "MESSAGE_TEXT; RESIGNAL; END; SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x'; END", "createProcedure"),
    ("CREATE FUNCTION f(a INT) RETURNS INT DETERMINISTIC RETURN a + 1", "createFunction"),
    ("CREATE OR REPLACE FUNCTION IF NOT EXISTS f() RETURNS VARCHAR(5) CHARSET utf8 READS SQL DATA BEGIN "
     "RETURN 'x'; END", "createFunction"),
    ("CREATE AGGREGATE FUNCTION f RETURNS STRING SONAME 'udf.so'", "createFunction"),
    ("CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = NEW.a + 1", "createTrigger"),
    ("CREATE DEFINER = CURRENT_USER TRIGGER IF NOT EXISTS tr AFTER UPDATE ON db.t FOR EACH ROW FOLLOWS other "
     "BEGIN INSERT INTO log VALUES (OLD.id); END", "createTrigger"),
    ("CREATE EVENT IF NOT EXISTS e ON SCHEDULE EVERY 1 DAY STARTS CURRENT_TIMESTAMP + INTERVAL 1 HOUR ON "
     "COMPLETION NOT PRESERVE DISABLE ON SLAVE COMMENT 'x' DO DELETE FROM t", "createEvent"),
    ("CREATE EVENT e ON SCHEDULE AT '2030-01-01 00:00:00' DO BEGIN UPDATE t SET a = 1; END", "createEvent"),
    ("ALTER EVENT e ON SCHEDULE EVERY 2 HOUR RENAME TO e2 ENABLE", "alterEvent"),
    ("ALTER PROCEDURE p COMMENT 'y' SQL SECURITY DEFINER", "alterRoutine"),
    ("DROP PROCEDURE IF EXISTS db.p", "dropRoutine"),
    ("DROP FUNCTION f", "dropRoutine"),
    ("DROP TRIGGER IF EXISTS tr", "dropRoutine"),
    ("DROP EVENT e", "dropRoutine"),
    ("BEGIN NOT ATOMIC SELECT 1; END", "compoundStatement"),
    ("GET DIAGNOSTICS @n = NUMBER", "getDiagnostics"),
    ("SIGNAL SQLSTATE '01000'", "signalStatement"),
    # administration (manual 15.7)
    ("ANALYZE TABLE t1, t2", "tableMaintenance"),
    ("ANALYZE LOCAL TABLE t UPDATE HISTOGRAM ON a, b WITH 16 BUCKETS", "tableMaintenance"),
    ("OPTIMIZE NO_WRITE_TO_BINLOG TABLE t", "tableMaintenance"),
    ("REPAIR TABLE t QUICK EXTENDED USE_FRM", "tableMaintenance"),
    ("CHECK TABLE t FOR UPGRADE", "tableMaintenance"),
    ("CHECKSUM TABLE t EXTENDED", "tableMaintenance"),
    ("FLUSH PRIVILEGES", "flushStatement"),
    ("FLUSH LOCAL TABLES t1, t2 WITH READ LOCK", "flushStatement"),
    ("FLUSH BINARY LOGS, ENGINE LOGS, STATUS, QUERY CACHE", "flushStatement"),
    ("FLUSH TABLES t FOR EXPORT", "flushStatement"),
    ("KILL 42", "killStatement"),
    ("KILL QUERY 42", "killStatement"),
    ("KILL HARD CONNECTION 7", "killStatement"),
    ("KILL USER 'u'@'h'", "killUser"),
    ("PREPARE s FROM 'SELECT ?'", "prepareStatement"),
    ("PREPARE s FROM @sql", "prepareStatement"),
    ("EXECUTE s USING @a, @b", "executeStatement"),
    ("DEALLOCATE PREPARE s", "deallocateStatement"),
    ("DROP PREPARE s", "deallocateStatement"),
    ("SHOW CREATE TABLE t", "showStatement"),
    ("EXPLAIN SELECT 1", "explainStatement"),
    ("BINLOG 'AAAA'", "binlogStatement"),
    ("PURGE BINARY LOGS TO 'mysql-bin.010'", "purgeLogs"),
    ("RESET MASTER", "resetStatement"),
    ("CHANGE MASTER TO MASTER_HOST='h', MASTER_PORT=3306 FOR CHANNEL 'c'", "changeReplication"),
    ("START SLAVE", "replicationControl"),
    ("INSTALL PLUGIN p SONAME 'p.so'", "installStatement"),
    ("ALTER INSTANCE ROTATE INNODB MASTER KEY", "alterInstance"),
    ("CLONE LOCAL DATA DIRECTORY = '/x'", "cloneStatement"),
    ("IMPORT TABLE FROM '/tmp/t.sdi'", "importTable"),
    ("CREATE RESOURCE GROUP rg TYPE = USER VCPU = 0-1", "resourceGroup"),
    ("SET RESOURCE GROUP rg FOR 12", "setResourceGroup"),
    ("CREATE OR REPLACE SPATIAL REFERENCE SYSTEM 4120 NAME 'x' DEFINITION 'y'", "spatialReferenceSystem"),
    ("BACKUP STAGE BLOCK_COMMIT", "backupStatement"),
    ("CREATE TABLESPACE ts ADD DATAFILE 'ts.ibd' ENGINE=InnoDB", "createTablespace"),
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql "
     "OPTIONS (USER 'r', HOST 'h', DATABASE 'd', PORT 3306)", "createServer"),
]

# Every statement here is also a syntax error (1064) for the lab MariaDB 10.11 (PREPARE).
REJECTED = [
    ("SELECT FROM t", "FROM", 1, 7),
    ("SELECT * FROM t WHERE", "<EOF>", 1, 21),
    ("SELECT * FROM t ORDER a", "a", 1, 22),
    ("INSERT INTO t VALUES", "<EOF>", 1, 20),
    ("INSERT INTO t (a VALUES (1)", "VALUES", 1, 17),
    ("UPDATE t WHERE a = 1", "WHERE", 1, 9),
    ("DELETE t", "<EOF>", 1, 8),
    ("GRANT SELECT ON *.* u", "u", 1, 20),
    ("CREATE USER", "<EOF>", 1, 11),
    ("CREATE PROCEDURE p() BEGIN SELECT 1; ", "<EOF>", 1, 37),
    ("CREATE PROCEDURE p() BEGIN IF 1 THEN SELECT 1; END; END", ";", 1, 50),
    ("CREATE TRIGGER tr BEFORE INSERT ON t SET x = 1", "SET", 1, 37),
    ("XA START", "<EOF>", 1, 8),
    ("LOCK TABLES t", "<EOF>", 1, 13),
    ("KILL", "<EOF>", 1, 4),
    ("PREPARE s 'SELECT 1'", "'SELECT 1'", 1, 10),
    ("FLUSH", "<EOF>", 1, 5),
    ("COMMIT ROLLBACK", "ROLLBACK", 1, 7),
]


@pytest.mark.parametrize("sql,rule", ACCEPTED)
def test_other_statements_are_recognised(statement_rule, sql, rule):
    assert statement_rule(sql) == rule


@pytest.mark.parametrize("sql,token,line,column", REJECTED)
def test_invalid_other_statements_are_rejected_with_position(rejection, sql, token, line, column):
    err = rejection(sql)
    assert (err.token, err.line, err.column) == (token, line, column)
