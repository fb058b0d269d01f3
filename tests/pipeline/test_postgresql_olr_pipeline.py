"""`mysqlddl run` from OLR output into PostgreSQL: the rophy fork's prebuilt scenarios
(../shared/corpora/olr-json), each scenario's tables from the CREATE/ALTER TABLE of its input.sql as
the baseline, against the private PostgreSQL of `pg_server` (tools/pg_lab.py). The reference is the
direct application tests/sinks/test_postgresql_olr.py makes (OlrReader -> PostgresSink ->
write_records), which that test checks against the LogMiner record of what the SQL did. The
pipeline's tables must equal it after one run, and after a run that saw the output cut in the
middle of the file then the whole file (the checkpoint kept in the target)."""

from __future__ import annotations

import re
import shutil

import psycopg
import pytest

from mysqlddl.olr import OlrReader
from mysqlddl.options import Options
from mysqlddl.pipeline import Pipeline, pipeline_status, run_pipeline
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink

PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"
OWNER = "OLR_TEST"
# the table DDL of a scenario's input.sql (SUPPLEMENTAL LOG clauses are not schema)
TABLE_DDL = re.compile(r"^(CREATE TABLE .*?\);"
                       r"|ALTER TABLE \w+ (?:ADD|MODIFY|DROP|RENAME)\b(?![^;]*SUPPLEMENTAL)[^;]*;)", re.S | re.M | re.I)
SCENARIOS = ["multi-table", "large-transaction", "interleaved-transactions", "number-precision"]


def tables(uri: str) -> dict:
    out = {}
    with psycopg.connect(uri) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        for (t,) in conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                                 "ORDER BY 1", (OWNER,)).fetchall():
            cols = [r[0] for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                                               "table_schema = %s AND table_name = %s ORDER BY 1",
                                               (OWNER, t)).fetchall()]
            q = ", ".join(f'"{c}"::text' for c in cols)
            out[t] = (cols, sorted(conn.execute(f'SELECT {q} FROM "{OWNER}"."{t}"').fetchall(),
                                   key=lambda r: [(x is None, x or "") for x in r]))
    return out


def _setup(shared_path, tmp_path, scenario):
    d = shared_path / PREBUILT / scenario
    ddl = "\n".join(m.group(1) for m in TABLE_DDL.finditer((d / "input.sql").read_text()))
    schema = tmp_path / "schema.sql"
    schema.write_text(ddl)
    return d / "output.json", ddl, schema


def _direct(pg_server, name, output, ddl) -> str:
    uri = pg_server.create_database(name)
    reader = OlrReader([output], Options(olr_time_unit="s"), baseline=ddl, baseline_owner=OWNER)
    with PostgresSink(uri, PgOptions()) as sink:
        sink.seed(reader.history.catalog)
        write_records(reader, sink)
    return uri


def _pipeline_file(tmp_path, source, uri, schema, extra=""):
    p = tmp_path / "olrpg.toml"
    p.write_text(f'[source]\nuri = "olr://{source}"\ntime_unit = "s"\n[sink]\nuri = "{uri}"\n'
                 f'[checkpoint]\nevery_transactions = 1\n{extra}'
                 f'[changes]\nschema = "{schema}"\nschema_database = "{OWNER}"\n', encoding="utf-8")
    return p


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_olr_pipeline_into_postgresql_equals_the_direct_application(scenario, shared_path, pg_server, tmp_path):
    output, ddl, schema = _setup(shared_path, tmp_path, scenario)
    want = tables(_direct(pg_server, f"olrd_{scenario}", output, ddl))
    assert sum(len(rows) for _, rows in want.values()) > 0
    uri = pg_server.create_database(f"olrp_{scenario}")
    p = _pipeline_file(tmp_path, output, uri, schema)
    r = run_pipeline(p, once=True)
    assert tables(uri) == want
    ck = pipeline_status(p)["checkpoint"]
    assert ck["position"]["kind"] == "olr" and ck["pos"] == r.checkpoint.position.pos
    again = Pipeline(p)
    again.run(once=True)
    assert again.reader.stats.documents == 0 and tables(uri) == want


def test_olr_pipeline_into_postgresql_resumes_in_the_middle_of_the_file(shared_path, pg_server, tmp_path):
    output, ddl, schema = _setup(shared_path, tmp_path, "multi-table")
    want = tables(_direct(pg_server, "olrd_resume", output, ddl))
    lines = output.read_bytes().splitlines(keepends=True)
    commits = [i for i, line in enumerate(lines) if b'"op":"commit"' in line]
    cut = commits[len(commits) // 2] + 1
    src = tmp_path / "src"
    src.mkdir()
    (src / "output.json").write_bytes(b"".join(lines[:cut]))
    uri = pg_server.create_database("olrp_resume")
    p = _pipeline_file(tmp_path, src / "output.json", uri, schema)
    run_pipeline(p, once=True)
    assert tables(uri) != want                      # half applied
    shutil.copyfile(output, src / "output.json")
    second = Pipeline(p)
    second.run(once=True)
    assert second.reader.stats.documents == len(lines) - cut
    assert tables(uri) == want
