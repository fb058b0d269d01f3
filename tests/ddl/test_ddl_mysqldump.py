# ruff: noqa: E501 -- the dump below keeps mysqldump's own long lines verbatim
"""A script in the shape mysqldump 8.0 writes (header/footer versioned comments, LOCK TABLES,
DELIMITER ;; around triggers, routines and events, views as versioned-comment stubs): every
statement splits and parses, under an 8.0 server version and under 5.7."""

from __future__ import annotations

import pytest

from mysqlddl.ddl import Engine, split_script
from mysqlddl.options import Options

DUMP = r"""-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
--
-- Host: localhost    Database: shop
-- ------------------------------------------------------
-- Server version	8.0.36

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
SET @MYSQLDUMP_TEMP_LOG_BIN = @@SESSION.SQL_LOG_BIN;
SET @@SESSION.SQL_LOG_BIN= 0;
SET @@GLOBAL.GTID_PURGED=/*!80000 '+'*/ '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5';

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci */ /*!80016 DEFAULT ENCRYPTION='N' */;
USE `shop`;

--
-- Table structure for table `orders`
--

DROP TABLE IF EXISTS `orders`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE `orders` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
  `note` text,
  `amount` decimal(12,2) NOT NULL DEFAULT '0.00',
  `created` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),
  `doc` json DEFAULT NULL,
  `total` decimal(12,2) GENERATED ALWAYS AS ((`amount` * 1.2)) VIRTUAL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_customer` (`customer`,`created`),
  KEY `idx_doc` ((cast(json_extract(`doc`,_utf8mb4'$.tags') as char(32) array))),
  CONSTRAINT `fk_c` FOREIGN KEY (`customer`) REFERENCES `customers` (`name`) ON DELETE CASCADE,
  CONSTRAINT `chk_amount` CHECK ((`amount` >= 0))
) ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci COMMENT='it''s'
/*!50100 PARTITION BY RANGE (`id`)
(PARTITION p0 VALUES LESS THAN (1000) ENGINE = InnoDB,
 PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */;
/*!40101 SET character_set_client = @saved_cs_client */;

LOCK TABLES `orders` WRITE;
/*!40000 ALTER TABLE `orders` DISABLE KEYS */;
INSERT INTO `orders` VALUES (1,'a;b','x\'y',1.00,'2024-01-01 00:00:00.000000',_binary 0x7B7D,DEFAULT),(2,'c','',2.50,'2024-01-02 00:00:00.000000',NULL,DEFAULT);
/*!40000 ALTER TABLE `orders` ENABLE KEYS */;
UNLOCK TABLES;

/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET sql_mode              = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES' */ ;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER `orders_bi` BEFORE INSERT ON `orders` FOR EACH ROW BEGIN
  IF NEW.amount < 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'negative; no';
  END IF;
END */;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;

--
-- Temporary view structure for view `big_orders`
--

DROP TABLE IF EXISTS `big_orders`;
/*!50001 DROP VIEW IF EXISTS `big_orders`*/;
/*!50001 CREATE VIEW `big_orders` AS SELECT
 1 AS `id`,
 1 AS `amount`*/;

/*!50001 DROP VIEW IF EXISTS `big_orders`*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=`root`@`localhost` SQL SECURITY DEFINER */
/*!50001 VIEW `big_orders` AS select `orders`.`id` AS `id`,`orders`.`amount` AS `amount` from `orders` where (`orders`.`amount` > 100) */;

DELIMITER ;;
/*!50106 SET @save_time_zone= @@TIME_ZONE */ ;;
/*!50106 CREATE*/ /*!50117 DEFINER=`root`@`localhost`*/ /*!50106 EVENT `purge` ON SCHEDULE EVERY 1 DAY STARTS '2024-01-01 00:00:00' ON COMPLETION NOT PRESERVE ENABLE DO DELETE FROM orders WHERE created < NOW() - INTERVAL 1 YEAR */ ;;
/*!50106 SET TIME_ZONE= @save_time_zone */ ;;
CREATE DEFINER=`root`@`localhost` PROCEDURE `p_total`(IN c VARCHAR(64), OUT t DECIMAL(12,2))
    READS SQL DATA
BEGIN
  SELECT SUM(amount) INTO t FROM orders WHERE customer = c;
END ;;
DELIMITER ;
SET @@SESSION.SQL_LOG_BIN = @MYSQLDUMP_TEMP_LOG_BIN;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;
/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;

-- Dump completed on 2024-05-21 10:00:00
"""


@pytest.mark.parametrize("version", [(8, 0, 36), (5, 7, 44)])
def test_every_dump_statement_parses(version):
    opts = Options(server_version=version)
    eng = Engine()
    stmts = list(split_script(DUMP, opts))
    assert len(stmts) == 39
    bad = [(s.line, str(r.errors[0])) for s in stmts if not (r := eng.parse(s.text, opts)).ok]
    assert bad == []
    assert eng.fallbacks == 0


def test_versioned_content_is_parsed_only_when_it_applies():
    create_db = next(s.text for s in split_script(DUMP) if s.text.startswith("CREATE DATABASE"))
    eng = Engine()
    new = eng.parse(create_db, Options(server_version=(8, 0, 36)))
    old = eng.parse(create_db, Options(server_version=(5, 7, 44)))
    options_of = lambda res: [o.getText().upper() for o in  # noqa: E731
                              res.tree.sqlStatement().ddlStatement().createDatabase().databaseOption()]
    assert options_of(new) == ["DEFAULTCHARACTERSETUTF8MB4", "COLLATEUTF8MB4_0900_AI_CI", "DEFAULTENCRYPTION='N'"]
    assert options_of(old) == ["DEFAULTCHARACTERSETUTF8MB4", "COLLATEUTF8MB4_0900_AI_CI"]
