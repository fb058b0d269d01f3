"""OLR samples applied to PostgreSQL: each rophy-fork scenario's tables (the CREATE/ALTER TABLE of
its input.sql, applied as the OLR reader's baseline and created in the target by
``PostgresSink.seed``), then its OLR output applied, must hold the rows the scenario's SQL left,
value for value: the expected rows are the LogMiner reference's changes replayed (an independent
record of what the SQL did: ../shared/corpora/olr-json PROVENANCE.md), compared with
tests/olr/logminer.py ``compare`` (equal, or a documented difference of the two tools)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import psycopg
import pytest

from mysqlddl.errors import SinkError
from mysqlddl.model.ids import TableId
from mysqlddl.olr import OlrReader
from mysqlddl.options import Options
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink

sys.path.insert(0, str(Path(__file__).parent.parent / "olr"))
import logminer  # noqa: E402

PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"
ROPHY = Options(olr_time_unit="s")       # the fork's format.timestamp 7
OWNER = "OLR_TEST"
# the table DDL of a scenario's input.sql (SUPPLEMENTAL LOG clauses are not schema)
TABLE_DDL = re.compile(r"^(CREATE TABLE .*?\);"
                       r"|ALTER TABLE \w+ (?:ADD|MODIFY|DROP|RENAME)\b(?![^;]*SUPPLEMENTAL)[^;]*;)", re.S | re.M | re.I)
OK = {"equal", "float6", "second", "lm_lob_unlogged", "lm_newline"}
SCENARIOS = ["basic-crud", "concurrent-updates", "data-types", "ddl-add-column", "interleaved-transactions",
             "large-transaction", "lob-operations", "long-spanning-txn", "many-columns", "multi-table",
             "null-handling", "number-precision", "partitioned-table", "rac-concurrent-tables", "rac-interleaved",
             "rac-thread2-only", "rollback", "special-chars", "timestamp-variants", "wide-rows"]


def run(shared_path, pg_server, scenario: str):
    d = shared_path / PREBUILT / scenario
    ddl = "\n".join(m.group(1) for m in TABLE_DDL.finditer((d / "input.sql").read_text()))
    uri = pg_server.create_database(f"olr_{scenario}")
    reader = OlrReader([d / "output.json"], ROPHY, baseline=ddl, baseline_owner=OWNER)
    catalog = reader.history.catalog
    sink = PostgresSink(uri, PgOptions())
    with sink:
        sink.seed(catalog)
        write_records(reader, sink)
    return uri, catalog, sink


def expected_rows(path, catalog) -> dict:
    """The reference's changes replayed: (table, key) -> {column: LogMiner text}."""
    recs, _ = logminer.fold_lob_writes(logminer.load(path))
    rows: dict = {}
    for m in recs:
        pk = catalog.table(_tid(m["table"])).primary_key.columns[0]
        k = (m["table"], (m.get("before") or m.get("after"))[pk])
        if m["op"] == "INSERT":
            rows[k] = dict(m["after"])
        elif m["op"] == "UPDATE":
            row = rows.pop(k)
            row.update(m["after"])
            rows[(m["table"], row[pk])] = row
        else:
            rows.pop(k)
    return rows


def _tid(table: str) -> TableId:
    return TableId(OWNER, table)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_olr_sample_applied_gives_the_rows_its_sql_left(shared_path, pg_server, scenario):
    uri, catalog, sink = run(shared_path, pg_server, scenario)
    want = expected_rows(shared_path / PREBUILT / scenario / "logminer-reference.json", catalog)
    verdicts: dict[str, int] = {}
    tables = {t for t, _ in want} | {t.name for t in catalog.tables.values()}
    with psycopg.connect(uri) as conn:
        have = sum(conn.execute(f'SELECT count(*) FROM "{OWNER}"."{t}"').fetchone()[0] for t in tables)
        assert have == len(want)
        for (table, key), row in want.items():
            pk = catalog.table(_tid(table)).primary_key.columns[0]
            cols = list(row)
            got = conn.execute(f'SELECT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in cols)} FROM "{OWNER}"."{table}" '
                               f'WHERE "{pk}" = %s', (key,)).fetchone()
            assert got is not None, (table, key)
            for col, v in zip(cols, got, strict=True):
                verdict = logminer.compare(v, row[col])
                assert verdict in OK, (table, key, col, v, row[col])
                verdicts[verdict] = verdicts.get(verdict, 0) + 1
    assert sink.report()["ddl"] == 0 and not sink.report()["value_policy"]
    assert sum(verdicts.values()) == sum(len(r) for r in want.values())


def test_olr_update_without_its_key_is_a_positioned_error(shared_path, pg_server):
    # boolean-type's OLR output carries update images without the ID (its table logs no key)
    with pytest.raises(SinkError, match="lacks key column") as e:
        run(shared_path, pg_server, "boolean-type")
    assert "output.json line" in str(e.value)
