"""SchemaHistory: positions, table_at / catalog_at, persistence and the error policy."""

import json

import pytest

from mysqlddl.commands import (
    AddColumn,
    AlterTable,
    CreateDatabase,
    CreateTable,
    DropColumn,
    DropDatabase,
    DropTable,
    RenameTable,
    TableId,
    TruncateTable,
    col,
)
from mysqlddl.errors import ConfigError, DdlSemanticError, SchemaHistoryError
from mysqlddl.history import SchemaHistory
from mysqlddl.options import Options
from mysqlddl.positions import BinlogPosition as P

OPTS = Options(dialect="mariadb")
T = TableId("lab", "t")


def p(n, pos):
    return P.of(f"mariadb-bin.{n:06d}", pos)


@pytest.fixture
def h():
    h = SchemaHistory(OPTS)
    h.record(p(1, 100), None, "CREATE DATABASE lab", [CreateDatabase("lab")])
    h.record(p(1, 200), "lab", "CREATE TABLE t (a INT)", [CreateTable(TableId(None, "t"), (col("a", "int"),))])
    h.record(
        p(2, 50), "lab", "ALTER TABLE t ADD b INT", [AlterTable(TableId(None, "t"), (AddColumn(col("b", "int")),))]
    )
    h.record(p(2, 80), "lab", "RENAME TABLE t TO u", [RenameTable(((TableId(None, "t"), TableId(None, "u")),))])
    h.record(p(10, 4), "lab", "DROP TABLE u", [DropTable((TableId(None, "u"),))])
    return h


def test_positions_compare_as_integers_not_strings():
    assert P.of("bin.000010", 4) > P.of("bin.000009", 999999)
    assert P.of("bin.1000000", 4) > P.of("bin.999999", 4)
    assert P.of("bin.000002", 100, gtid="0-1-5") == P.of("other.000002", 100)
    with pytest.raises(ConfigError, match="numeric suffix"):
        P.of("no-suffix", 4)


def test_table_at_takes_effect_at_the_end_position(h):
    assert h.table_at(T, p(1, 199)) is None
    assert h.table_at(T, p(1, 200)).column_names == ("a",)
    assert h.table_at(T, p(2, 49)).column_names == ("a",)
    assert h.table_at(T, p(2, 50)).column_names == ("a", "b")
    assert h.table_at(T, p(2, 80)) is None
    assert h.table_at(TableId("lab", "u"), p(3, 1)).column_names == ("a", "b")
    assert h.table_at(TableId("lab", "u"), p(10, 4)) is None


def test_catalog_at(h):
    assert [str(t.id) for t in h.catalog_at(p(2, 60)).all_tables()] == ["lab.t"]
    assert [str(t.id) for t in h.catalog_at(p(9, 1)).all_tables()] == ["lab.u"]
    assert h.catalog_at(p(1, 150)).database("lab").charset == "latin1"
    assert h.catalog_at(p(1, 50)).database("lab") is None


def test_records_store_changed_table_versions_only(h):
    assert [len(r.tables) for r in h.records] == [0, 1, 1, 2, 1]
    assert h.records[3].tables[0][1] is None or h.records[3].tables[1][1] is None


def test_truncate_records_no_table_version(h):
    h.record(p(11, 4), "lab", "CREATE TABLE x (a INT)", [CreateTable(TableId(None, "x"), (col("a", "int"),))])
    rec = h.record(p(11, 90), "lab", "TRUNCATE x", [TruncateTable(TableId(None, "x"))])
    assert rec.tables == ()


def test_drop_database_records_dropped_tables(h):
    h.record(p(11, 4), "lab", "CREATE TABLE x (a INT)", [CreateTable(TableId(None, "x"), (col("a", "int"),))])
    rec = h.record(p(11, 90), None, "DROP DATABASE lab", [DropDatabase("lab")])
    assert rec.tables == ((TableId("lab", "x"), None),)
    assert h.catalog_at(p(11, 90)).database("lab") is None


def test_append_only(h):
    with pytest.raises(SchemaHistoryError, match="append-only"):
        h.record(p(2, 1), "lab", "x", [])


def test_save_and_load_give_the_same_answers(h, tmp_path):
    f = tmp_path / "h.jsonl"
    h.save(f)
    lines = f.read_text().splitlines()
    assert len(lines) == 1 + len(h.records)
    rec = json.loads(lines[3])
    assert set(rec) >= {"position", "default_db", "ddl", "commands", "tables"}
    assert rec["position"] == {"file": "mariadb-bin.000002", "file_seq": 2, "pos": 50}
    assert rec["tables"][0]["table"]["columns"][1]["name"] == "b"
    h2 = SchemaHistory.load(f, OPTS)
    for pos in (p(1, 199), p(1, 200), p(2, 50), p(2, 80), p(9, 9), p(10, 4)):
        for tid in (T, TableId("lab", "u")):
            assert h2.table_at(tid, pos) == h.table_at(tid, pos)
        assert h2.catalog_at(pos).all_tables() == h.catalog_at(pos).all_tables()
    assert [r.commands for r in h2.records] == [r.commands for r in h.records]
    # the reloaded history can go on recording
    h2.record(p(11, 4), "lab", "CREATE TABLE t (z INT)", [CreateTable(TableId(None, "t"), (col("z", "int"),))])
    assert h2.table_at(T, p(11, 4)).column_names == ("z",)


def test_load_rejects_other_files(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text('{"hello": 1}\n')
    with pytest.raises(SchemaHistoryError):
        SchemaHistory.load(f)


def test_strict_policy_stops_with_the_position(h):
    with pytest.raises(DdlSemanticError) as e:
        h.record(p(11, 4), "lab", "ALTER TABLE nope DROP a", [AlterTable(TableId(None, "nope"), (DropColumn("a"),))])
    assert "mariadb-bin.000011:4" in str(e.value) and e.value.statement == "ALTER TABLE nope DROP a"
    assert h.last_position == p(10, 4)


@pytest.mark.parametrize("policy", ["skip", "warn", "collect"])
def test_lenient_policies_count_and_report(h, policy, recwarn):
    opts = OPTS.replace(error_policy=policy)
    rec = h.record(
        p(11, 4), "lab", "ALTER TABLE nope DROP a", [AlterTable(TableId(None, "nope"), (DropColumn("a"),))], opts
    )
    h.record(p(11, 9), "lab", "CREATE TABLE t (a INT)", [CreateTable(TableId(None, "t"), (col("a", "int"),))], opts)
    assert h.skipped == 1 and "doesn't exist" in h.errors[0][2] and rec.errors
    assert h.table_at(T, p(11, 9)) is not None
    assert len([w for w in recwarn if "skipped" in str(w.message)]) == (1 if policy == "warn" else 0)


def test_baseline_tables_answer_before_any_record():
    from mysqlddl.model import Catalog

    base = CreateTable(TableId("lab", "b"), (col("a", "int"),)).apply(Catalog.empty(OPTS), OPTS)
    h = SchemaHistory(OPTS, baseline=base)
    assert h.table_at(TableId("lab", "b"), p(1, 4)).column_names == ("a",)


def test_gtid_is_carried_and_persisted(tmp_path):
    h = SchemaHistory(OPTS)
    pos = P.of("mariadb-bin.000003", 900, gtid="0-1-42")
    h.record(pos, None, "CREATE DATABASE g", [CreateDatabase("g")])
    f = tmp_path / "g.jsonl"
    h.save(f)
    assert json.loads(f.read_text().splitlines()[1])["position"]["gtid"] == "0-1-42"
    assert SchemaHistory.load(f, OPTS).records[0].position.gtid == "0-1-42"


def test_partial_drop_is_recorded_under_a_lenient_policy():
    h = SchemaHistory(OPTS.replace(error_policy="skip"))
    h.record(p(1, 10), None, "CREATE DATABASE lab", [CreateDatabase("lab")])
    h.record(p(1, 20), "lab", "CREATE TABLE a", [CreateTable(TableId(None, "a"), (col("x", "int"),))])
    rec = h.record(p(1, 30), "lab", "DROP TABLE a, nope", [DropTable((TableId(None, "a"), TableId(None, "nope")))])
    assert h.skipped == 1 and rec.tables == ((TableId("lab", "a"), None),)
    assert h.table_at(TableId("lab", "a"), p(1, 30)) is None


def test_views_are_versioned_and_persisted(h, tmp_path):
    from mysqlddl.commands import CreateView, DropView

    h.record(p(11, 4), "lab", "CREATE VIEW v AS SELECT 1", [CreateView(TableId(None, "v"), "SELECT 1")])
    h.record(p(11, 9), "lab", "DROP VIEW v", [DropView((TableId(None, "v"),))])
    assert h.catalog_at(p(11, 5)).view(TableId("lab", "v")).definition == "SELECT 1"
    assert h.catalog_at(p(11, 9)).view(TableId("lab", "v")) is None
    f = tmp_path / "v.jsonl"
    h.save(f)
    h2 = SchemaHistory.load(f, OPTS)
    assert h2.catalog_at(p(11, 5)).view(TableId("lab", "v")).definition == "SELECT 1"
    assert h2.catalog_at(p(11, 9)).view(TableId("lab", "v")) is None


def test_baseline_views_are_persisted():
    """A baseline's views (a schema file with CREATE VIEW, or the catalog a failover re-bases on)
    come back from the stored lines: a DROP VIEW after a restart finds them, as it would have in
    one uninterrupted run (it used to fail with "Unknown VIEW")."""
    from mysqlddl.commands import CreateView, DropView
    from mysqlddl.model import Catalog

    base = CreateTable(TableId("lab", "b"), (col("a", "int"),)).apply(Catalog.empty(OPTS), OPTS)
    base = CreateView(TableId("lab", "v"), "SELECT a FROM b").apply(base, OPTS)
    h2 = SchemaHistory.from_lines(list(SchemaHistory(OPTS, baseline=base).lines()), OPTS)
    assert h2.catalog_at(p(1, 4)).view(TableId("lab", "v")).definition == "SELECT a FROM b"
    rec = h2.record(p(1, 10), "lab", "DROP VIEW v", [DropView((TableId(None, "v"),))])
    assert rec.errors == () and h2.catalog.view(TableId("lab", "v")) is None
