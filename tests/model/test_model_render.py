"""Catalog JSON and CREATE TABLE renderings, information_schema presentation."""

import json

from mysqlddl.commands import CreateTable, ForeignKeySpec, IndexKind, IndexPart, KeySpec, TableId, col
from mysqlddl.model import render


def build(run):
    run(CreateTable(TableId(None, "p"), (col("id", "int", primary_key=True),)))
    run(
        CreateTable(
            TableId(None, "t"),
            (
                col("id", "int", nullable=False, auto_increment=True),
                col("s", "varchar", 5, charset="latin1", binary=True),
                col("d", "decimal", 10, 2, default="1.5"),
                col("e", "enum", values=("'a'", "'it''s'"), default="'a'"),
                col(
                    "ts",
                    "timestamp",
                    3,
                    nullable=True,
                    default="CURRENT_TIMESTAMP(3)",
                    on_update="CURRENT_TIMESTAMP(3)",
                ),
                col("j", "json"),
                col("c", "varchar", 3, collation="utf8mb4_bin", comment="'note'"),
            ),
            keys=(
                KeySpec(IndexKind.PRIMARY, (IndexPart("id"),)),
                KeySpec(IndexKind.INDEX, (IndexPart("s", 2),), name="ks"),
            ),
            foreign_keys=(ForeignKeySpec(("id",), TableId(None, "p"), ("id",), name="fk", on_delete="CASCADE"),),
            options=(("COMMENT", "'tbl'"),),
        )
    )
    return run.table()


def test_catalog_json_is_sorted_and_deterministic(both):
    build(both)
    j = render.catalog_json(both.catalog)
    assert [t["name"] for t in j["tables"]] == ["p", "t"]
    assert render.dumps(j) == render.dumps(json.loads(render.dumps(j)))
    t = j["tables"][1]
    assert t["database"] == "db" and [c["name"] for c in t["columns"]] == ["id", "s", "d", "e", "ts", "j", "c"]
    assert [k["name"] for k in t["keys"]] == ["PRIMARY", "ks"]
    assert [f["name"] for f in t["foreign_keys"]] == ["fk"]
    s = t["columns"][1]
    assert (s["type"], s["charset"], s["collation"], s["nullable"]) == ("varchar(5)", "latin1", "latin1_bin", True)


def test_create_table_sql_mariadb_layout(maria):
    sql = render.create_table_sql(build(maria), maria.options)
    assert sql.splitlines() == [
        "CREATE TABLE `t` (",
        "  `id` int(11) NOT NULL AUTO_INCREMENT,",
        "  `s` varchar(5) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,",
        "  `d` decimal(10,2) DEFAULT 1.50,",
        "  `e` enum('a','it''s') DEFAULT 'a',",
        "  `ts` timestamp(3) NULL DEFAULT current_timestamp(3) ON UPDATE current_timestamp(3),",
        "  `j` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`j`)),",
        "  `c` varchar(3) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL COMMENT 'note',",
        "  PRIMARY KEY (`id`),",
        "  KEY `ks` (`s`(2)),",
        "  CONSTRAINT `fk` FOREIGN KEY (`id`) REFERENCES `p` (`id`) ON DELETE CASCADE",
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='tbl'",
    ]


def test_information_schema_defaults_by_dialect(my, maria):
    for run in (my, maria):
        build(run)
    mi = {c.name: render.information_schema_column(c, maria.options) for c in maria.table().columns}
    yi = {c.name: render.information_schema_column(c, my.options) for c in my.table().columns}
    assert (mi["e"]["COLUMN_DEFAULT"], yi["e"]["COLUMN_DEFAULT"]) == ("'a'", "a")
    assert (mi["s"]["COLUMN_DEFAULT"], yi["s"]["COLUMN_DEFAULT"]) == ("NULL", None)
    assert (mi["d"]["COLUMN_DEFAULT"], mi["id"]["COLUMN_DEFAULT"]) == ("1.50", None)
    assert (mi["ts"]["COLUMN_DEFAULT"], yi["ts"]["COLUMN_DEFAULT"]) == ("current_timestamp(3)", "CURRENT_TIMESTAMP(3)")
    assert mi["ts"]["EXTRA"] == "on update current_timestamp(3)" and mi["id"]["EXTRA"] == "auto_increment"
    assert (mi["j"]["COLUMN_TYPE"], yi["j"]["COLUMN_TYPE"]) == ("longtext", "json")


def test_catalog_sql_lists_every_table(both):
    build(both)
    out = render.catalog_sql(both.catalog, both.options)
    assert out.count("CREATE TABLE") == 2 and "-- db.p" in out and out.index("-- db.p") < out.index("-- db.t")


def test_mysql_spelling_of_current_timestamp(my):
    build(my)
    t = my.table()
    sql = render.create_table_sql(t, my.options)
    assert "`ts` timestamp(3) NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)" in sql
    assert "`id` int NOT NULL AUTO_INCREMENT" in sql and "`j` json DEFAULT NULL" not in sql
    extra = render.information_schema_column(t.column("ts"), my.options)["EXTRA"]
    assert extra == "DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)"
