"""Every command (and every ALTER operation) survives to_json() -> Command.from_json()."""

import json

import pytest

from mysqlddl import commands as C
from mysqlddl.commands import TableId, col
from mysqlddl.model import Partitioning

T = TableId("db", "t")
FULL_COL = col(
    "c",
    "varchar",
    10,
    binary=True,
    charset="latin1",
    collation="latin1_bin",
    nullable=False,
    default="'x'",
    comment="'c'",
    check="c <> ''",
    check_name="chk",
    visible=False,
    text="VARCHAR(10)",
)
KEY = C.KeySpec(
    C.IndexKind.UNIQUE,
    (C.IndexPart("c", 3, True), C.IndexPart(expression="lower(c)")),
    "k",
    "cn",
    "BTREE",
    "'kc'",
    False,
)
FK = C.ForeignKeySpec(("a",), TableId(None, "p"), ("id",), "f", "ix", "CASCADE", "SET NULL", "FULL")
OPS = [
    C.AddColumn(FULL_COL, after="a", if_not_exists=True),
    C.AddColumn(col("s", "SERIAL"), first=True),
    C.DropColumn("a", True),
    C.ChangeColumn("a", col("b", "enum", values=("'x'", "'y'")), True, None, True),
    C.ModifyColumn(col("d", "decimal", 10, 2, unsigned=True, zerofill=True)),
    C.RenameColumn("a", "b"),
    C.AlterColumnDefault("a", "'1'"),
    C.AlterColumnDefault("a", None),
    C.AlterColumnVisibility("a", False),
    C.AddIndex(KEY, True),
    C.AddForeignKey(FK, True),
    C.AddCheck(C.CheckSpec("a > 0", "c", False)),
    C.DropKey("k", True),
    C.DropPrimaryKey(),
    C.DropForeignKey("f", True),
    C.DropCheck("c", True),
    C.DropConstraint("x", True),
    C.RenameIndex("a", "b"),
    C.RenameTo(TableId("o", "t2")),
    C.ConvertCharset("utf8mb4", "utf8mb4_bin"),
    C.DefaultCharset(None, "latin1_bin"),
    C.TableOptions((("ENGINE", "InnoDB"), ("COMMENT", "'x'"))),
    C.PartitionOp("ADD PARTITION", ("p9",), Partitioning("RANGE", "id", 3, ("p0",), "HASH(id)"), "ADD PARTITION ..."),
    C.PartitionOp("COALESCE PARTITION", text="COALESCE PARTITION 2", count=2),
    C.AlterIndexVisibility("k", False),
    C.AlterCheckEnforcement("c", False),
    C.AddPeriod(C.Period("p", "s", "e"), if_not_exists=True),
    C.DropPeriod("p", True),
    C.AddSystemVersioning(),
    C.DropSystemVersioning(),
    # the Oracle dialect's operations (mysqlddl/commands/oracle.py)
    C.ReviseColumn("a", C.DataTypeSpec("NUMBER", 5), nullable=False, default="1", visible=False),
    C.SetConstraintState(constraint="c", enabled=False, validated=True),
    C.DropNamedConstraint("c"),
    C.DropUniqueKey(("a", "b")),
    C.RenameConstraint("a", "b"),
]
COMMANDS = [
    C.CreateTable(
        T,
        (FULL_COL, col("g", "int", generated="a+1", stored=True, srid=4326)),
        (KEY,),
        (FK,),
        (C.CheckSpec("1"),),
        (("ENGINE", "InnoDB"),),
        Partitioning("HASH", "id", 4),
        True,
        False,
        True,
    ),
    C.CreateTable(T, like=TableId(None, "src"), or_replace=True),
    C.CreateTable(T, (col("s", "timestamp", 6, row_period="start", versioning=False, check="s>0",
                          check_enforced=False),),
                  periods=(C.Period("SYSTEM_TIME", "s", "e"),), system_versioning=True),
    C.CreateTable(T, as_select=C.AsSelect("SELECT *, CAST(a AS CHAR(3)) c, NOW(3) n FROM s", (
        C.SelectItem("*", star=True, tables=(TableId(None, "s"),)),
        C.SelectItem("c", TableId(None, "s"), "a", cast=C.DataTypeSpec("CHAR", 3)),
        C.SelectItem("n", function="NOW", literal="3")))),
    C.CreateSequence(T, (("START", "5"), ("NOCACHE", None)), (("ENGINE", "Aria"),), True, False, True),
    C.AlterSequence(T, (("INCREMENT", "2"),), True),
    C.DropSequence((T,), True, True),
    C.CommentOn(T, "a", "'x'"),
    C.RenameTable(((T, TableId(None, "u")),), if_exists=True),
    C.CreateTable(
        T, as_select=C.AsSelect("SELECT a FROM s", (C.SelectItem("a", TableId(None, "s"), "a"), C.SelectItem("x")))
    ),
    C.AlterTable(T, tuple(OPS), if_exists=True),
    C.DropTable((T, TableId(None, "u")), True, True),
    C.RenameTable(((T, TableId(None, "u")), (TableId(None, "u"), T))),
    C.TruncateTable(T),
    C.CreateIndex(T, KEY, True),
    C.DropIndex(T, "k", True),
    C.CreateDatabase("d", "utf8mb4", "utf8mb4_bin", True, True, "'c'"),
    C.AlterDatabase(None, "latin1", None, "'x'"),
    C.DropDatabase("d", True),
    C.UseDatabase("d"),
    C.SetVariable(
        (C.Assignment("names", "utf8mb4", "session", "utf8mb4_bin"), C.Assignment("sql_mode", "''", "global"))
    ),
    C.CreateView(T, "SELECT 1", ("x",), True, True, (("ALGORITHM", "MERGE"),)),
    C.AlterView(T, "SELECT 2", ("y",)),
    C.DropView((T,), True),
]


def test_every_command_class_is_covered():
    covered = {type(c).__name__ for c in COMMANDS} | {type(o).__name__ for o in OPS}
    expected = {
        n
        for n in C.__all__
        if isinstance(getattr(C, n), type)
        and issubclass(getattr(C, n), (C.Command, C.AlterOperation))
        and getattr(C, n) not in (C.Command, C.AlterOperation)
    }
    assert expected - covered == set()


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: type(c).__name__)
def test_round_trip(cmd):
    text = cmd.to_json()
    back = C.Command.from_json(text)
    assert back == cmd and type(back) is type(cmd)
    assert back.to_json() == text
    assert json.loads(text)["@type"] == type(cmd).__name__


def test_defaults_are_left_out_of_the_json():
    d = json.loads(C.DropTable((T,)).to_json())
    assert d == {"@type": "DropTable", "tables": [{"database": "db", "name": "t"}]}


def test_unknown_type_tag_is_not_silently_accepted():
    from mysqlddl.errors import SchemaHistoryError

    with pytest.raises(SchemaHistoryError, match="cannot decode a Command"):
        C.Command.from_json('{"@type": "NoSuchCommand", "table": {"database": "d", "name": "t"}}')
