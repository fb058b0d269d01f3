"""GEOMETRY columns as PostGIS geometry, when the target database has the postgis extension.

On real servers: spatial columns (POINT, LINESTRING, POLYGON, GEOMETRY; with and without an SRID
attribute, values with SRIDs) on the private MariaDB, rows inserted, updated and deleted, the binlog
applied to a database of the private PostgreSQL where ``CREATE EXTENSION postgis`` was run: the
columns are geometry(Subtype[,SRID]) and ST_AsText / ST_SRID of every value equal the source's.
The same binlog into a database without the extension keeps bytea WKB (the sink checks pg_extension).
"""

from __future__ import annotations

import os

import psycopg
import pytest

from mysqlddl.changes.filters import Filters
from mysqlddl.changes.options import ChangeOptions
from mysqlddl.changes.reader import ChangeReader
from mysqlddl.sinks.base import write_records
from mysqlddl.sinks.pg.types import PgOptions
from mysqlddl.sinks.postgresql import PostgresSink
from mysqlddl.sources import open_source

DB = "pggis"
COLS = ["p", "p4326", "l", "poly", "g"]
ROWS = [
    (1, "ST_GeomFromText('POINT(1 2)')", "ST_GeomFromText('POINT(-71.06 42.36)', 4326)",
     "ST_GeomFromText('LINESTRING(0 0,1 1,2 1.5)')",
     "ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,2 1,2 2,1 1))')",
     "ST_GeomFromText('MULTIPOINT(1 1,2 2)', 3857)"),
    (2, "ST_GeomFromText('POINT(0.5 -3.25)', 4326)", "ST_GeomFromText('POINT(2.35 48.85)', 4326)",
     "ST_GeomFromText('LINESTRING(10 10,20 25)', 4326)", "ST_GeomFromText('POLYGON((0 0,1 0,1 1,0 0))', 4326)",
     "ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))')"),
    (3, "NULL", "NULL", "NULL", "NULL", "NULL"),
]


@pytest.fixture(scope="module")
def gis_binlogs(mariadb_server):
    srv = mariadb_server
    srv.flush_logs()
    first = srv.current_binlog()[0]
    srv.execute(f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}",
                f"CREATE TABLE {DB}.g (id INT PRIMARY KEY, p POINT, p4326 POINT REF_SYSTEM_ID=4326, "
                "l LINESTRING, poly POLYGON, g GEOMETRY)",
                f"CREATE TABLE {DB}.k (p POINT, n INT)")
    for r in ROWS:
        srv.execute(f"INSERT INTO {DB}.g VALUES ({r[0]}, {', '.join(r[1:])})")
    srv.execute(f"UPDATE {DB}.g SET p = ST_GeomFromText('POINT(9 9)'), l = ST_GeomFromText('LINESTRING(1 1,2 2)', "
                "4326) WHERE id = 1",
                f"UPDATE {DB}.g SET g = ST_GeomFromText('POLYGON((0 0,2 0,0 2,0 0))', 4326) WHERE id = 3",
                f"INSERT INTO {DB}.g VALUES (4, ST_GeomFromText('POINT(7 7)'), NULL, NULL, NULL, NULL)",
                f"DELETE FROM {DB}.g WHERE id = 4",
                # a table without a key: rows found by their geometry
                f"INSERT INTO {DB}.k VALUES (ST_GeomFromText('POINT(1 1)'), 1), (ST_GeomFromText('POINT(2 2)'), 2)",
                f"UPDATE {DB}.k SET n = 20 WHERE n = 2", f"DELETE FROM {DB}.k WHERE n = 1")
    srv.flush_logs()
    files = srv.binlog_files()
    return files[files.index(first):-1]


def _apply(files, uri):
    sink = PostgresSink(uri, PgOptions(commit_every=2))
    with sink:
        write_records(ChangeReader(open_source(files), ChangeOptions(filters=Filters(databases=(DB,)))), sink)
    return sink


def _postgis(tool):
    if not tool("pg_lab").postgis_installed():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("PostGIS is not installed (python tools/pg_lab.py install; CI=true: no skip)", pytrace=False)
        pytest.skip("PostGIS is not installed: python tools/pg_lab.py install")


def test_geometry_becomes_postgis_geometry(gis_binlogs, mariadb_server, pg_server, tool):
    _postgis(tool)
    uri = pg_server.create_database("gis_postgis")
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION postgis")
    sink = _apply(gis_binlogs, uri)
    assert sink.options.geometry == "postgis" and sink.options.postgis_schema == "public"
    q = ", ".join(f"ST_AsText({c}), ST_SRID({c})" for c in COLS)
    want = [tuple(r) for r in mariadb_server.query(f"SELECT id, {q} FROM {DB}.g ORDER BY id")]
    with psycopg.connect(uri) as conn:
        got = conn.execute(f"SELECT id, {q} FROM {DB}.g ORDER BY id").fetchall()
        types = dict(conn.execute("SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                                  f"WHERE a.attrelid = '{DB}.g'::regclass AND a.attnum > 0").fetchall())
        keyless = conn.execute(f"SELECT ST_AsText(p), n FROM {DB}.k").fetchall()
    assert len(want) == 3 and want[1][3] == "POINT(2.35 48.85)" and want[1][4] == 4326
    # ST_AsText of the source's ST_AsText (PostGIS writes MULTIPOINT((1 1),(2 2)) where MariaDB
    # writes MULTIPOINT(1 1,2 2): the same geometry)
    with psycopg.connect(uri) as conn:
        want = [tuple(conn.execute("SELECT ST_AsText(ST_GeomFromText(%s))", (v,)).fetchone()[0]
                      if isinstance(v, str) else v for v in r) for r in want]
    assert "MULTIPOINT((1 1),(2 2))" in want[0]
    assert [tuple(r) for r in got] == want
    assert types["p"] == "geometry(Point)" and types["p4326"] == "geometry(Point,4326)"
    assert (types["l"], types["poly"], types["g"]) == ("geometry(LineString)", "geometry(Polygon)", "geometry")
    assert keyless == [("POINT(2 2)", 20)]


def test_without_the_extension_geometry_stays_wkb(gis_binlogs, mariadb_server, pg_server):
    uri = pg_server.create_database("gis_wkb")
    sink = _apply(gis_binlogs, uri)
    assert sink.options.geometry == "wkb"
    want = [tuple(r) for r in mariadb_server.query(f"SELECT id, ST_AsWKB(p4326), ST_AsWKB(g) FROM {DB}.g ORDER BY id")]
    with psycopg.connect(uri) as conn:
        got = conn.execute(f"SELECT id, p4326, g FROM {DB}.g ORDER BY id").fetchall()
        kind = conn.execute(f"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '{DB}.g'::"
                            "regclass AND attname = 'p'").fetchone()
    assert kind == ("bytea",)
    assert [(i, a and bytes(a), b and bytes(b)) for i, a, b in got] == [(i, a, b) for i, a, b in want]
