"""Script splitting like the mysql client: ';', DELIMITER changes, quotes and comments that hide
delimiters, statement positions, and positioned ScriptErrors."""

from __future__ import annotations

import pytest

from mysqlddl.ddl import Engine, split_script
from mysqlddl.errors import ScriptError
from mysqlddl.options import Options


def texts(script: str, **kw):
    return [s.text for s in split_script(script, **kw)]


def test_semicolons_inside_quotes_and_comments_do_not_split():
    script = """INSERT INTO t VALUES ('a;b', "c;d", `e;f`); -- x; y
# z; w
SELECT 1 /* ; */ ;SELECT 'it''s;' ; SELECT 'a\\';'"""
    assert texts(script) == ["INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`)", "SELECT 1 /* ; */",
                             "SELECT 'it''s;'", "SELECT 'a\\';'"]


def test_positions_of_statements():
    script = "CREATE TABLE a (x INT);\n\n  DROP TABLE a;  SELECT\n1"
    got = [(s.index, s.line, s.column, s.offset) for s in split_script(script)]
    assert got == [(0, 1, 0, 0), (1, 3, 2, 27), (2, 3, 17, 42)]
    assert [s.text for s in split_script(script)][2] == "SELECT\n1"


def test_delimiter_changes_like_mysqldump():
    script = """DELIMITER ;;
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN
  SET NEW.a = 1;
  SET NEW.b = 2;
END ;;
DELIMITER ;
DROP TABLE x;
delimiter $$
CREATE PROCEDURE p() BEGIN SELECT 1; END$$
DELIMITER ;
SELECT 2"""
    stmts = list(split_script(script))
    assert [s.text.split()[0] for s in stmts] == ["CREATE", "DROP", "CREATE", "SELECT"]
    assert stmts[0].text.endswith("END") and stmts[0].delimiter == ";;"
    assert stmts[2].text == "CREATE PROCEDURE p() BEGIN SELECT 1; END" and stmts[2].delimiter == "$$"
    assert [s.line for s in stmts] == [2, 7, 9, 11]
    eng = Engine()
    assert all(eng.parse(s.text).ok for s in stmts)


def test_comments_between_statements_are_dropped_versioned_ones_kept():
    script = "-- header\n/* c */\n/*!40101 SET NAMES utf8 */;\n# end\n"
    assert texts(script) == ["/*!40101 SET NAMES utf8 */"]


def test_no_backslash_escapes_changes_where_strings_end():
    script = "SELECT 'a\\'; SELECT 2"
    assert texts(script, options=Options(sql_mode="NO_BACKSLASH_ESCAPES")) == ["SELECT 'a\\'", "SELECT 2"]
    with pytest.raises(ScriptError):
        texts(script)  # with escapes the quote never closes


@pytest.mark.parametrize("script,line,column,what", [
    ("SELECT 1;\nSELECT 'abc", 2, 7, "quote"),
    ("SELECT 1;\n  SELECT `x", 2, 9, "quote"),
    ("SELECT 1 /* never closed", 1, 9, "comment"),
])
def test_unterminated_quote_or_comment_is_a_positioned_script_error(script, line, column, what):
    with pytest.raises(ScriptError) as ei:
        texts(script)
    assert (ei.value.line, ei.value.column) == (line, column)
    assert what in ei.value.message


def test_delimiter_command_without_delimiter():
    with pytest.raises(ScriptError) as ei:
        texts("SELECT 1;\nDELIMITER\nSELECT 2")
    assert ei.value.line == 2


def test_compound_bodies_mode_keeps_routine_bodies_together():
    script = ("CREATE PROCEDURE p() BEGIN DECLARE x INT; SET x = CASE WHEN 1 THEN 2 END; "
              "IF x THEN SELECT 1; END IF; END;\nSELECT 1;")
    assert len(texts(script)) > 2  # the mysql client's split: the body is cut at its first ';'
    got = texts(script, compound_bodies=True)
    assert len(got) == 2 and got[0].endswith("END IF; END")
    assert Engine().parse(got[0]).ok


MYSQLBINLOG = """# The proper term is pseudo_replica_mode, but we use this compatibility alias
/*!50530 SET @@SESSION.PSEUDO_SLAVE_MODE=1*/;
DELIMITER /*!*/;
# at 4
#240521 10:00:00 server id 1  end_log_pos 126 CRC32 0x2a3c4f1e 	Start: binlog v 4
# at 235
#240521 10:00:01 server id 1  end_log_pos 412 CRC32 0x0c1d2e3f 	Query	thread_id=8	exec_time=0	error_code=0	Xid = 12
use `shop`/*!*/;
SET TIMESTAMP=1716285601/*!*/;
SET @@session.pseudo_thread_id=8/*!*/;
SET @@session.sql_mode=1168113696/*!*/;
/*!\\C utf8mb4 *//*!*/;
SET @@session.character_set_client=255,@@session.collation_connection=255/*!*/;
/*!80011 SET @@session.default_collation_for_utf8mb4=255*//*!*/;
CREATE TABLE t (a INT COMMENT 'x;y')
/*!*/;
BINLOG '
AAAAAAAAAAAA
'/*!*/;
SET @@SESSION.GTID_NEXT= 'AUTOMATIC' /* added by mysqlbinlog */ /*!*/;
DELIMITER ;
# End of log file
/*!50003 SET COMPLETION_TYPE=@OLD_COMPLETION_TYPE*/;
"""


def test_mysqlbinlog_output_with_its_comment_delimiter():
    stmts = list(split_script(MYSQLBINLOG))
    assert [s.text.split()[0] for s in stmts] == [
        "/*!50530", "use", "SET", "SET", "SET", "/*!\\C", "SET", "/*!80011", "CREATE", "BINLOG", "SET", "/*!50003"]
    assert stmts[8].text == "CREATE TABLE t (a INT COMMENT 'x;y')" and stmts[8].delimiter == "/*!*/;"
    eng = Engine()
    assert [s.line for s in stmts if not eng.parse(s.text).ok] == []
