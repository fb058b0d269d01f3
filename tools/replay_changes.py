#!/usr/bin/env python3
"""Apply the change events of `mysqlddl changes` to a MySQL/MariaDB server: the replay half of the
round trip that proves the events are complete and exact.

    mysqlddl changes BINLOG... -o changes.jsonl
    python tools/replay_changes.py changes.jsonl --socket /tmp/mdb-x/mysqld.sock

What is applied, in log order:
  - schema-change events: ``USE databaseName`` then the DDL text as logged (the server logs
    CREATE TABLE ... SELECT as a plain CREATE TABLE followed by the copied rows as row events, so
    the replay creates the table and the row events fill it);
  - row events: ``c`` -> INSERT of every stored column of ``after``; ``u`` -> UPDATE of those
    columns WHERE the primary key equals ``before``'s (no primary key: every stored column of
    ``before`` compared with ``<=>``, LIMIT 1); ``d`` -> DELETE likewise. Each UPDATE/DELETE must
    find exactly one row, else the replay stops: a change that does not apply is a decoding bug;
  - ``t`` (truncate) events are skipped when the TRUNCATE's schema change was applied (it is the
    same statement), and applied as TRUNCATE TABLE otherwise;
  - transaction BEGIN/END events: BEGIN/COMMIT.

Generated columns (virtual or stored) are never written: the server computes them. Column types,
primary keys and generated columns come from the schema-change events' ``mysqlddl_table`` (so the
stream must start with the tables' CREATE, or the replay is given ``tables`` from a baseline).
JSON values turn back into SQL by column family: base64 -> bytes for binary strings, GEOMETRY
``{srid, wkb}`` -> the server's internal form (4-byte little-endian SRID + WKB), ISO temporal text
-> the server's literal. The session runs in UTC with a permissive sql_mode, as the workload does,
so zero dates and out-of-range values already stored replay as they are.

Needs pymysql.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import json
import sys
from collections import Counter
from collections.abc import Iterable

BINARY_FAMILIES = {"binary", "varbinary", "blob"}
TEMPORAL_FAMILIES = {"datetime", "timestamp"}


def quote_ident(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


@dataclasses.dataclass
class TableInfo:
    db: str | None
    name: str
    columns: dict[str, dict]           # name -> mysqlddl column JSON
    stored: list[str]                   # writable columns (not generated), in table order
    pk: list[str]

    @classmethod
    def from_json(cls, t: dict) -> TableInfo:
        cols = {c["name"]: c for c in t["columns"]}
        pk = next((list(p["column"] for p in k["parts"]) for k in t.get("keys", ())
                   if k["kind"] == "primary"), [])
        return cls(t.get("database"), t["name"], cols,
                   [c["name"] for c in t["columns"] if not c.get("generated")], pk)

    @property
    def qualified(self) -> str:
        return f"{quote_ident(self.db)}.{quote_ident(self.name)}" if self.db else quote_ident(self.name)


@dataclasses.dataclass
class ReplayStats:
    ddl: int = 0
    rows: Counter = dataclasses.field(default_factory=Counter)      # op -> count
    transactions: int = 0
    truncates_skipped: int = 0


class ReplayError(RuntimeError):
    pass


def sql_value(col: dict | None, v):
    """A JSON value of the envelope as what the server needs for that column."""
    if v is None or col is None:
        return v
    fam = col.get("family")
    if fam in BINARY_FAMILIES and isinstance(v, str):
        return base64.b64decode(v)
    if fam == "geometry" and isinstance(v, dict):
        return int(v["srid"]).to_bytes(4, "little") + base64.b64decode(v["wkb"])
    if fam in TEMPORAL_FAMILIES and isinstance(v, str):
        return v.replace("T", " ").removesuffix("Z")
    if fam == "bit" and isinstance(v, int):
        return v
    if isinstance(v, (dict, list)):             # a JSON document the reader kept as an object
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:              # undecodable bytes kept as surrogate escapes
            return v.encode("utf-8", "surrogateescape")
    return v


class Replayer:
    """Applies change events (dicts, as `mysqlddl changes` prints them) on one connection."""

    def __init__(self, conn, *, tables: dict | None = None, log=None):
        self.conn = conn
        self.cur = conn.cursor()
        self.tables: dict[tuple[str | None, str], TableInfo] = dict(tables or {})
        self.db: str | None = None
        self.stats = ReplayStats()
        self.truncate_ddl_applied = False     # the last DDL was a TRUNCATE (its "t" events follow)
        self.log = log or (lambda m: None)
        for sql in ("SET SESSION time_zone = '+00:00'", "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'",
                    "SET SESSION foreign_key_checks = 0"):
            self.cur.execute(sql)

    # -- events -----------------------------------------------------------------------------------
    def apply(self, event: dict) -> None:
        if "ddl" in event:
            self._ddl(event)
        elif "op" in event:
            self._row(event)
        elif event.get("status") == "BEGIN":
            self.cur.execute("BEGIN")
        elif event.get("status") == "END":
            self.cur.execute("COMMIT")
            self.stats.transactions += 1

    def _use(self, db: str | None) -> None:
        if not db or db == self.db:
            return
        try:
            self.cur.execute(f"USE {quote_ident(db)}")
            self.db = db
        except Exception as e:       # noqa: BLE001 - CREATE DATABASE is logged with itself as the default
            if getattr(e, "args", (None,))[0] != 1049:      # ER_BAD_DB_ERROR
                raise

    def _ddl(self, ev: dict) -> None:
        self._use(ev.get("databaseName"))
        self.cur.execute(ev["ddl"])
        self.stats.ddl += 1
        for tc in ev.get("tableChanges", ()):
            db, _, name = tc["id"].partition(".")
            key = (db.strip('"') or None, name.strip('"')) if name else (None, db.strip('"'))
            if tc["type"] == "DROP":
                self.tables.pop(key, None)
            else:
                self.tables[key] = TableInfo.from_json(tc["mysqlddl_table"])
        # the truncate events of a TRUNCATE follow its schema change: they are that statement
        self.truncate_ddl_applied = ev["ddl"].lstrip().upper().startswith("TRUNCATE")

    def _table(self, src: dict) -> TableInfo:
        t = self.tables.get((src["db"], src["table"]))
        if t is None:
            raise ReplayError(f"no table definition for {src['db']}.{src['table']} (the stream must carry its "
                              "CREATE, or pass tables=)")
        return t

    def _where(self, t: TableInfo, before: dict) -> tuple[str, list]:
        keys = t.pk or [c for c in t.stored if c in before
                        and t.columns[c].get("family") not in ("float",)]
        parts, args = [], []
        for k in keys:
            parts.append(f"{quote_ident(k)} <=> %s")
            args.append(sql_value(t.columns.get(k), before.get(k)))
        return " AND ".join(parts), args

    def _row(self, ev: dict) -> None:
        op, src = ev["op"], ev["source"]
        if ev.get("mysqlddl", {}).get("naming", "schema") != "schema":
            raise ReplayError(f"{src['file']}:{src['pos']}: columns named {ev['mysqlddl']['naming']}: give "
                              "mysqlddl changes the schema (--schema) to replay")
        if op == "t":
            if self.truncate_ddl_applied:
                self.stats.truncates_skipped += 1
                return
            self.cur.execute(f"TRUNCATE TABLE {self._table(src).qualified}")
            return
        t = self._table(src)
        if op == "c":
            after = ev["after"]
            cols = [c for c in t.stored if c in after]
            self.cur.execute(f"INSERT INTO {t.qualified} ({','.join(quote_ident(c) for c in cols)}) VALUES "
                             f"({','.join(['%s'] * len(cols))})", [sql_value(t.columns[c], after[c]) for c in cols])
        elif op in ("u", "d"):
            where, args = self._where(t, ev["before"])
            if op == "u":
                after = ev["after"]
                cols = [c for c in t.stored if c in after]
                sets = ",".join(f"{quote_ident(c)} = %s" for c in cols)
                n = self.cur.execute(f"UPDATE {t.qualified} SET {sets} WHERE {where} LIMIT 1",
                                     [sql_value(t.columns[c], after[c]) for c in cols] + args)
            else:
                n = self.cur.execute(f"DELETE FROM {t.qualified} WHERE {where} LIMIT 1", args)
            if n != 1:
                raise ReplayError(f"{src['file']}:{src['pos']} row {src['row']}: {op} on {t.qualified} matched "
                                  f"{n} rows (before: {ev['before']!r:.300})")
        else:
            raise ReplayError(f"unknown op {op!r}")
        self.stats.rows[op] += 1


def connect(socket: str, user: str = "root", password: str | None = None):
    """A pymysql connection that counts matched (not changed) rows, so an UPDATE that sets the
    values a row already has still reports the row it found."""
    import pymysql
    from pymysql.constants import CLIENT

    return pymysql.connect(unix_socket=socket, user=user, password=password or "", charset="utf8mb4",
                           autocommit=True, client_flag=CLIENT.FOUND_ROWS, max_allowed_packet=1 << 30)


def replay(events: Iterable[dict], conn, **kw) -> ReplayStats:
    r = Replayer(conn, **kw)
    for ev in events:
        r.apply(ev)
    return r.stats


def read_jsonl(path: str) -> Iterable[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("changes", help="JSON Lines from `mysqlddl changes` ('-' for stdin)")
    ap.add_argument("--socket", required=True)
    ap.add_argument("--user", default="root")
    ap.add_argument("--password")
    a = ap.parse_args(argv)
    events = (json.loads(line) for line in sys.stdin if line.strip()) if a.changes == "-" else read_jsonl(a.changes)
    conn = connect(a.socket, a.user, a.password)
    try:
        stats = replay(events, conn)
    except ReplayError as e:
        print(f"replay_changes: {e}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print(json.dumps(dataclasses.asdict(stats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
