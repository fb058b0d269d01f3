"""commentOn -> CommentOn (SQL Ref. \"COMMENT\")."""

from __future__ import annotations

from mysqlddl.commands import CommentOn

from .conftest import commands, table


def test_comment_on_table_and_column():
    t = table("""CREATE TABLE t (a NUMBER, "b c" NUMBER);
        COMMENT ON TABLE t IS 'It''s a table';
        COMMENT ON COLUMN t.a IS q'[A's]';
        COMMENT ON COLUMN app.t."b c" IS 'spaces'""", "T")
    assert t.comment == "It's a table"
    assert t.column("A").comment == "A's" and t.column("b c").comment == "spaces"
    t = table("CREATE TABLE t (a NUMBER); COMMENT ON TABLE t IS 'x'; COMMENT ON TABLE t IS ''", "T")
    assert t.comment is None
    (cmd,) = commands("COMMENT ON COLUMN s.t.c IS 'x'")
    assert cmd == CommentOn(cmd.table, "C", "x") and cmd.table.database == "S"
