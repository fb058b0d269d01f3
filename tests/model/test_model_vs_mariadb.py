"""The model against a real MariaDB 10.11: the same DDL on both, then information_schema compared.

Each step is a command built directly (as a listener would build it); the SQL sent to the server
is rendered from the same command by ``to_sql`` below, so the two cannot drift apart. After every
step both sides must agree on success or failure, and then on:

- SCHEMATA: default charset and collation of every database the test created;
- TABLES: base table names, ENGINE, TABLE_COLLATION, TABLE_COMMENT;
- COLUMNS: names in order, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, CHARACTER_SET_NAME,
  COLLATION_NAME, EXTRA;
- STATISTICS: every key part (index name, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART,
  INDEX_TYPE);
- TABLE_CONSTRAINTS: (name, type) pairs;
- SHOW CREATE TABLE: the server's text equals ``render.create_table_sql`` for the table.

Differences that are allowed, each a documented rule (and counted as "explained"):

- CTAS expression columns (``SELECT x * 10 AS x10``): the server types them by evaluating the
  expression; the model records them as type ``unknown`` (row-based binlogs log CTAS as an
  explicit CREATE TABLE, so replay never needs this). Such columns are skipped.
- Aria tables: the engine adds PAGE_CHECKSUM=1 to SHOW CREATE TABLE; only information_schema is
  compared for them.

Expressions (CHECK, generated columns) are written in the server's canonical form so the CREATE
TABLE text can be compared exactly.
"""

from __future__ import annotations

import os
import random

import pytest

from mysqlddl import commands as C
from mysqlddl.commands import IndexKind, IndexPart, KeySpec, TableId, col
from mysqlddl.errors import DdlSemanticError, PartialApplyError
from mysqlddl.model import Catalog, Partitioning, render
from mysqlddl.model.spec import CheckSpec, ColumnSpec, ForeignKeySpec
from mysqlddl.options import Options

pytestmark = pytest.mark.mariadb

OPTS = Options(dialect="mariadb", server_version=(10, 11, 0))
# SHOW CREATE TABLE text is explicit about NULL and defaults; it is read the way mysqldump output is
# replayed, with the server default explicit_defaults_for_timestamp=ON (10.10+).
FED_BACK = OPTS.replace(explicit_defaults_for_timestamp=True)
STATS: dict[str, int] = {}


def bump(k: str, n: int = 1) -> None:
    STATS[k] = STATS.get(k, 0) + n


# ================================================================================ command -> SQL


def q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def tname(t: TableId) -> str:
    return f"{q(t.database)}.{q(t.name)}" if t.database else q(t.name)


def type_sql(s: ColumnSpec) -> str:
    t = s.type
    out = t.name
    if t.values:
        out += "(" + ",".join(t.values) + ")"
    elif t.length is not None:
        out += f"({t.length},{t.scale})" if t.scale is not None else f"({t.length})"
    if t.unsigned:
        out += " UNSIGNED"
    if t.zerofill:
        out += " ZEROFILL"
    if t.binary:
        out += " BINARY"
    if t.charset:
        out += f" CHARACTER SET {t.charset}"
    if t.collation:
        out += f" COLLATE {t.collation}"
    return out


def col_sql(s: ColumnSpec) -> str:
    out = [q(s.name), type_sql(s)]
    if s.generated is not None:
        out.append(f"AS ({s.generated}) " + ("STORED" if s.stored else "VIRTUAL"))
    if s.nullable is not None:
        out.append("NULL" if s.nullable else "NOT NULL")
    if s.default is not None:
        out.append(f"DEFAULT {s.default}")
    if s.on_update is not None:
        out.append(f"ON UPDATE {s.on_update}")
    if s.auto_increment:
        out.append("AUTO_INCREMENT")
    if s.unique:
        out.append("UNIQUE")
    if s.primary_key:
        out.append("PRIMARY KEY")
    if s.comment is not None:
        out.append(f"COMMENT {s.comment}")
    if not s.visible:
        out.append("INVISIBLE")
    if s.check is not None:
        out.append((f"CONSTRAINT {q(s.check_name)} " if s.check_name else "") + f"CHECK ({s.check})")
    return " ".join(out)


def parts_sql(parts) -> str:
    return (
        "("
        + ",".join(
            (q(p.column) if p.column else f"({p.expression})")
            + (f"({p.length})" if p.length else "")
            + (" DESC" if p.descending else "")
            for p in parts
        )
        + ")"
    )


def key_sql(k: KeySpec) -> str:
    head = (f"CONSTRAINT {q(k.constraint_name)} " if k.constraint_name else "") + {
        IndexKind.PRIMARY: "PRIMARY KEY",
        IndexKind.UNIQUE: "UNIQUE KEY",
        IndexKind.INDEX: "KEY",
        IndexKind.FULLTEXT: "FULLTEXT KEY",
        IndexKind.SPATIAL: "SPATIAL KEY",
    }[k.kind]
    if k.name:
        head += " " + q(k.name)
    s = head + " " + parts_sql(k.parts)
    if k.using:
        s += f" USING {k.using}"
    if k.comment:
        s += f" COMMENT {k.comment}"
    return s


def fk_sql(f: ForeignKeySpec) -> str:
    s = (
        (f"CONSTRAINT {q(f.name)} " if f.name else "")
        + "FOREIGN KEY "
        + (q(f.index_name) + " " if f.index_name else "")
    )
    s += (
        "("
        + ",".join(map(q, f.columns))
        + f") REFERENCES {tname(f.ref_table)} ("
        + ",".join(map(q, f.ref_columns))
        + ")"
    )
    if f.on_delete:
        s += f" ON DELETE {f.on_delete}"
    if f.on_update:
        s += f" ON UPDATE {f.on_update}"
    return s


def check_sql(c: CheckSpec) -> str:
    return (f"CONSTRAINT {q(c.name)} " if c.name else "") + f"CHECK ({c.expression})"


def opts_sql(options) -> str:
    return " ".join(f"{n}={v}" for n, v in options)


def op_sql(op) -> str:
    pos = lambda o: " FIRST" if o.first else (f" AFTER {q(o.after)}" if o.after else "")  # noqa: E731
    if isinstance(op, C.AddColumn):
        return "ADD COLUMN " + ("IF NOT EXISTS " if op.if_not_exists else "") + col_sql(op.column) + pos(op)
    if isinstance(op, C.DropColumn):
        return "DROP COLUMN " + ("IF EXISTS " if op.if_exists else "") + q(op.name)
    if isinstance(op, C.ChangeColumn):
        return f"CHANGE COLUMN {q(op.old_name)} " + col_sql(op.column) + pos(op)
    if isinstance(op, C.ModifyColumn):
        return "MODIFY COLUMN " + col_sql(op.column) + pos(op)
    if isinstance(op, C.RenameColumn):
        return f"RENAME COLUMN {q(op.old_name)} TO {q(op.new_name)}"
    if isinstance(op, C.AlterColumnDefault):
        return f"ALTER COLUMN {q(op.name)} " + (
            f"SET DEFAULT {op.default}" if op.default is not None else "DROP DEFAULT"
        )
    if isinstance(op, C.AddIndex):
        return "ADD " + key_sql(op.key)
    if isinstance(op, C.AddForeignKey):
        return "ADD " + fk_sql(op.foreign_key)
    if isinstance(op, C.AddCheck):
        return "ADD " + check_sql(op.check)
    if isinstance(op, C.DropKey):
        return "DROP KEY " + ("IF EXISTS " if op.if_exists else "") + q(op.name)
    if isinstance(op, C.DropPrimaryKey):
        return "DROP PRIMARY KEY"
    if isinstance(op, C.DropForeignKey):
        return f"DROP FOREIGN KEY {q(op.name)}"
    if isinstance(op, C.DropCheck):
        return f"DROP CONSTRAINT {q(op.name)}"
    if isinstance(op, C.DropConstraint):
        return f"DROP CONSTRAINT {q(op.name)}"
    if isinstance(op, C.RenameIndex):
        return f"RENAME KEY {q(op.old_name)} TO {q(op.new_name)}"
    if isinstance(op, C.RenameTo):
        return f"RENAME TO {tname(op.new_table)}"
    if isinstance(op, C.ConvertCharset):
        return f"CONVERT TO CHARACTER SET {op.charset}" + (f" COLLATE {op.collation}" if op.collation else "")
    if isinstance(op, C.DefaultCharset):
        return (
            "DEFAULT"
            + (f" CHARACTER SET {op.charset}" if op.charset else "")
            + (f" COLLATE {op.collation}" if op.collation else "")
        )
    if isinstance(op, C.TableOptions):
        return opts_sql(op.options)
    if isinstance(op, C.PartitionOp):
        return op.text
    raise AssertionError(f"no SQL for {op!r}")


def to_sql(cmd) -> str:
    if isinstance(cmd, C.CreateTable):
        head = (
            "CREATE "
            + ("OR REPLACE " if cmd.or_replace else "")
            + ("TEMPORARY " if cmd.temporary else "")
            + "TABLE "
            + ("IF NOT EXISTS " if cmd.if_not_exists else "")
            + tname(cmd.table)
        )
        if cmd.like is not None:
            return f"{head} LIKE {tname(cmd.like)}"
        elems = (
            [col_sql(c) for c in cmd.columns]
            + [key_sql(k) for k in cmd.keys]
            + [fk_sql(f) for f in cmd.foreign_keys]
            + [check_sql(c) for c in cmd.checks]
        )
        s = head + (" (" + ", ".join(elems) + ")" if elems else "")
        if cmd.options:
            s += " " + opts_sql(cmd.options)
        if cmd.as_select is not None:
            s += " AS " + cmd.as_select.text
        return s
    if isinstance(cmd, C.AlterTable):
        return (
            "ALTER TABLE "
            + ("IF EXISTS " if cmd.if_exists else "")
            + tname(cmd.table)
            + " "
            + ", ".join(op_sql(o) for o in cmd.operations)
        )
    if isinstance(cmd, C.DropTable):
        return (
            "DROP "
            + ("TEMPORARY " if cmd.temporary else "")
            + "TABLE "
            + ("IF EXISTS " if cmd.if_exists else "")
            + ", ".join(map(tname, cmd.tables))
        )
    if isinstance(cmd, C.RenameTable):
        return "RENAME TABLE " + ", ".join(f"{tname(a)} TO {tname(b)}" for a, b in cmd.pairs)
    if isinstance(cmd, C.TruncateTable):
        return f"TRUNCATE TABLE {tname(cmd.table)}"
    if isinstance(cmd, C.CreateIndex):
        k = cmd.key
        kind = {IndexKind.UNIQUE: "UNIQUE ", IndexKind.FULLTEXT: "FULLTEXT ", IndexKind.SPATIAL: "SPATIAL "}.get(
            k.kind, ""
        )
        return f"CREATE {kind}INDEX {q(k.name)} ON {tname(cmd.table)} {parts_sql(k.parts)}"
    if isinstance(cmd, C.DropIndex):
        return f"DROP INDEX {q(cmd.name)} ON {tname(cmd.table)}"
    if isinstance(cmd, C.CreateDatabase):
        return (
            "CREATE DATABASE "
            + ("IF NOT EXISTS " if cmd.if_not_exists else "")
            + q(cmd.name)
            + (f" CHARACTER SET {cmd.charset}" if cmd.charset else "")
            + (f" COLLATE {cmd.collation}" if cmd.collation else "")
        )
    if isinstance(cmd, C.AlterDatabase):
        return (
            "ALTER DATABASE "
            + (q(cmd.name) if cmd.name else "")
            + (f" CHARACTER SET {cmd.charset}" if cmd.charset else "")
            + (f" COLLATE {cmd.collation}" if cmd.collation else "")
        )
    if isinstance(cmd, C.DropDatabase):
        return "DROP DATABASE " + ("IF EXISTS " if cmd.if_exists else "") + q(cmd.name)
    if isinstance(cmd, C.UseDatabase):
        return f"USE {q(cmd.name)}"
    if isinstance(cmd, C.SetVariable):
        return "SET " + ", ".join(f"SESSION {a.name} = {a.value}" for a in cmd.assignments)
    if isinstance(cmd, C.CreateView):
        return "CREATE " + ("OR REPLACE " if cmd.or_replace else "") + f"VIEW {tname(cmd.view)} AS {cmd.definition}"
    if isinstance(cmd, C.AlterView):
        return f"ALTER VIEW {tname(cmd.view)} AS {cmd.definition}"
    if isinstance(cmd, C.DropView):
        return "DROP VIEW " + ("IF EXISTS " if cmd.if_exists else "") + ", ".join(map(tname, cmd.views))
    raise AssertionError(f"no SQL for {cmd!r}")


# ================================================================================ the lab


class Lab:
    """One server session and one model catalog, stepped together."""

    def __init__(self, server, prefix: str, options: Options = OPTS):
        self.conn = server.connect()
        self.prefix = prefix
        self.options = options  # (step_sql parses and applies with these)
        self.catalog = Catalog.empty(options)
        self.dbs: set[str] = set()
        self.diffs: list[str] = []

    def db(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    def close(self):
        with self.conn.cursor() as cur:
            for d in sorted(self.dbs):
                cur.execute(f"DROP DATABASE IF EXISTS {q(d)}")
        self.conn.close()

    def sql(self, text: str):
        with self.conn.cursor() as cur:
            cur.execute(text)
            return cur.fetchall()

    def step(self, cmd, *, expect_error: bool | None = None) -> bool:
        """Run one command on both sides; both must succeed or both fail. Returns success."""
        import pymysql

        text = to_sql(cmd)
        if isinstance(cmd, C.CreateDatabase):
            self.dbs.add(cmd.name)
        server_err = model_err = None
        try:
            self.sql(text)
        except pymysql.MySQLError as e:
            server_err = e
        try:
            new = cmd.apply(self.catalog, OPTS)
        except DdlSemanticError as e:
            model_err = e
            if isinstance(e, PartialApplyError):
                new = e.catalog
        bump("statements")
        if (server_err is None) != (model_err is None):
            tables = {
                t.name: [(c.name, c.column_type, c.nullable) for c in t.columns]
                for t in self.catalog.all_tables()
                if t.name in text
            }
        assert (server_err is None) == (model_err is None), (
            f"{text}\n server: {server_err!r}\n model: {model_err!r}\n tables before: {tables}"
        )
        if expect_error is not None:
            assert (server_err is not None) == expect_error, text
        if server_err is not None:
            bump("statements rejected by both")
            if isinstance(model_err, PartialApplyError):  # the server kept what it had done
                self.catalog = new
                self.compare(text)
            return False
        self.catalog = new
        self.compare(text)
        return True

    def run(self, *cmds):
        for c in cmds:
            self.step(c)

    def step_sql(self, text: str, *, expect_error: bool | None = None) -> bool:
        """Run one statement's text on the server and, through our parser, on the model (for
        clauses ``to_sql`` cannot render: sequences, periods, system versioning...)."""
        import pymysql

        from mysqlddl.ddl import parse_ddl

        server_err = model_err = None
        try:
            self.sql(text)
        except pymysql.MySQLError as e:
            server_err = e
        new = self.catalog
        try:
            for cmd in parse_ddl(text, options=self.options):
                if isinstance(cmd, C.CreateDatabase):
                    # (as the server stores it: lower-cased under lower_case_table_names=1)
                    self.dbs.add(cmd.name.lower() if self.options.lower_case_table_names == 1 else cmd.name)
                new = cmd.apply(new, self.options)
        except DdlSemanticError as e:
            model_err = e
            new = e.catalog if isinstance(e, PartialApplyError) else self.catalog
        bump("statements")
        bump("statements (SQL text)")
        assert (server_err is None) == (model_err is None), f"{text}\n server: {server_err!r}\n model: {model_err!r}"
        if expect_error is not None:
            assert (server_err is not None) == expect_error, text
        if server_err is not None:
            bump("statements rejected by both")
        self.catalog = new
        self.compare(text)
        return server_err is None

    def run_sql(self, *texts: str) -> None:
        for t in texts:
            self.step_sql(t)

    # -------------------------------------------------------------- comparison
    def compare(self, after: str) -> None:
        dbs = sorted(d for d in self.dbs if self.catalog.database(d) is not None or self._server_has_db(d))
        for d in dbs:
            self._compare_db(d, after)
        assert not self.diffs, "\n".join(self.diffs[:20])

    def _server_has_db(self, d: str) -> bool:
        return bool(self.sql(f"SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '{d}'"))

    def diff(self, after: str, what: str, server, model) -> None:
        bump("fields compared")
        if server != model:
            if isinstance(server, dict) and isinstance(model, dict):
                server, model = _narrow(server, model)
            self.diffs.append(f"after {after[:300]!r}: {what}:\n  server {server!r}\n  model  {model!r}")

    def _compare_db(self, d: str, after: str) -> None:
        rows = self.sql(
            "SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA "
            f"WHERE SCHEMA_NAME = '{d}'"
        )
        mdb = self.catalog.database(d)
        self.diff(after, f"schema {d}", rows[0] if rows else None, (mdb.charset, mdb.collation) if mdb else None)
        if not rows:
            return
        bump("schema comparisons")
        srv_tables = {
            r[0]: r[1:]
            for r in self.sql(
                "SELECT TABLE_NAME, ENGINE, TABLE_COLLATION, TABLE_COMMENT, TABLE_TYPE FROM information_schema.TABLES "
                f"WHERE TABLE_SCHEMA = '{d}' AND TABLE_TYPE IN ('BASE TABLE', 'SEQUENCE', 'SYSTEM VERSIONED')"
            )
        }
        model_tables = {t.name: t for t in self.catalog.tables_in(d)}
        self.diff(after, f"tables of {d}", sorted(srv_tables), sorted(model_tables))
        srv_views = sorted(
            r[0] for r in self.sql(f"SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = '{d}'")
        )
        self.diff(
            after,
            f"views of {d}",
            srv_views,
            sorted(v.id.name for v in self.catalog.views.values() if v.id.database == d),
        )
        for name in sorted(set(srv_tables) & set(model_tables)):
            self._compare_table(d, name, srv_tables[name], model_tables[name], after)

    def _compare_table(self, d, name, srv_meta, t, after):
        bump("table comparisons")
        where = f"TABLE_SCHEMA = '{d}' AND TABLE_NAME = '{name}'"
        self.diff(
            after,
            f"{d}.{name} engine/collation/comment/type",
            tuple(srv_meta),
            (t.engine, t.collation, t.comment or "", render.table_type(t)),
        )
        cols = self.sql(
            "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, CHARACTER_SET_NAME, "
            f"COLLATION_NAME, EXTRA FROM information_schema.COLUMNS WHERE {where} ORDER BY ORDINAL_POSITION"
        )
        # (MariaDB's hidden row_start/row_end are not in information_schema: render.shown_columns)
        self.diff(after, f"{d}.{name} column names", [c[0] for c in cols], [c.name for c in render.shown_columns(t)])
        unknown = False
        for row in cols:
            c = t.column(row[0])
            if c is None:
                continue
            if c.type_name == "unknown":
                bump("explained: CTAS expression column")
                unknown = True
                continue
            i = render.information_schema_column(c, OPTS)
            bump("columns compared")
            self.diff(
                after,
                f"{d}.{name}.{c.name}",
                tuple(row[1:]),
                (
                    i["COLUMN_TYPE"],
                    i["IS_NULLABLE"],
                    i["COLUMN_DEFAULT"],
                    i["CHARACTER_SET_NAME"],
                    i["COLLATION_NAME"],
                    i["EXTRA"],
                ),
            )
        stats = self.sql(
            "SELECT INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART, INDEX_TYPE, IGNORED "
            f"FROM information_schema.STATISTICS WHERE {where} ORDER BY INDEX_NAME, SEQ_IN_INDEX"
        )
        mine = []
        for k in t.keys():
            itype = render.index_type(k, t)
            ignored = "NO" if k.visible else "YES"
            lengths = [p.length for p in k.parts] + [None, None]  # (+ a WITHOUT OVERLAPS period's columns)
            for i, column in enumerate(render.index_columns(k, t), 1):
                length = lengths[i - 1]
                if k.kind is IndexKind.SPATIAL and length is None:
                    # MariaDB reports SUB_PART=32 for SPATIAL key parts (the stored MBR size);
                    # the model keeps the declared prefix length (none).
                    bump("explained: SPATIAL SUB_PART 32")
                    length = 32
                mine.append((k.name, 0 if k.unique else 1, i, column, length, itype, ignored))
        self.diff(after, f"{d}.{name} STATISTICS", sorted(tuple(r) for r in stats), sorted(mine))
        cons = self.sql(
            f"SELECT CONSTRAINT_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS WHERE {where}"
        )
        mine = [(k.name, "PRIMARY KEY" if k.kind is IndexKind.PRIMARY else "UNIQUE") for k in t.keys() if k.unique]
        mine += [(f.name, "FOREIGN KEY") for f in t.foreign_keys] + [(c.name, "CHECK") for c in t.checks]
        # an application-time period is reported as a CHECK named after it (MariaDB 10.11)
        mine += [(p.name, "CHECK") for p in t.periods if not p.system]
        self.diff(after, f"{d}.{name} TABLE_CONSTRAINTS", sorted(tuple(r) for r in cons), sorted(mine))
        if unknown or t.engine == "Aria":
            bump("explained: SHOW CREATE TABLE not compared (CTAS expression / Aria options)")
            return
        parts = self.sql(
            f"SELECT PARTITION_NAME FROM information_schema.PARTITIONS WHERE {where} AND PARTITION_NAME IS NOT NULL"
            " ORDER BY PARTITION_ORDINAL_POSITION"
        )
        p = t.partitioning
        if p is not None or parts:
            bump("partition lists compared")
            model_parts = (p.count if p and p.count is not None else len(p.names) if p else 0,
                           list(p.names) if p else [])
            srv_parts = (len(parts), [r[0] for r in parts] if p and p.names else [])
            self.diff(after, f"{d}.{name} partitions (count, names)", srv_parts, model_parts)
        show = self.sql(f"SHOW CREATE TABLE {q(d)}.{q(name)}")[0][1]
        bump("SHOW CREATE TABLE compared")
        self.diff(after, f"{d}.{name} SHOW CREATE TABLE", show, render.create_table_sql(t, OPTS))
        if t.sequence is not None:
            seq = self.sql(f"SHOW CREATE SEQUENCE {q(d)}.{q(name)}")[0][1]
            bump("SHOW CREATE SEQUENCE compared")
            self.diff(after, f"{d}.{name} SHOW CREATE SEQUENCE", seq, render.create_sequence_sql(t))
        self._compare_fed_back(d, show, t, after)

    def _compare_fed_back(self, d: str, show: str, t, after: str) -> None:
        """SHOW CREATE TABLE parsed by our parser and applied must give the same table JSON."""
        from mysqlddl.ddl import parse_ddl

        db = self.catalog.database(d)
        cat = Catalog.empty(FED_BACK)
        for cmd in (
            C.CreateDatabase(d, db.charset, db.collation),
            C.UseDatabase(d),
            *parse_ddl(show, options=FED_BACK),
        ):
            cat = cmd.apply(cat, FED_BACK)
        back = cat.table(d, t.name)
        bump("SHOW CREATE TABLE fed back through the parser")
        mine, theirs = render.table_json(t), render.table_json(back)
        if t.sequence is not None:
            # SHOW CREATE TABLE of a sequence says SEQUENCE=1 but not its settings (SHOW CREATE
            # SEQUENCE, compared above, does)
            theirs["sequence"] = mine["sequence"]
        for a, b in zip(mine["checks"], theirs["checks"], strict=False):
            if a["column"] is not None and a["column"] == b["column"] and a["name"] != b["name"]:
                # A column CHECK keeps its name through RENAME COLUMN (information_schema says so
                # too), but SHOW CREATE TABLE prints it inline without a name, so reading the text
                # back names it after the column again. The model follows information_schema.
                bump("explained: renamed column CHECK name lost by SHOW CREATE TABLE")
                b["name"] = a["name"]
        if theirs["keys"] != mine["keys"] and sorted(theirs["keys"], key=repr) == sorted(mine["keys"], key=repr):
            # MariaDB re-sorts keys only when a statement adds one or the head key loses its
            # standing (model/key_order.py), so a table whose columns became NOT NULL later keeps a
            # key order that a fresh CREATE TABLE from its own SHOW CREATE TABLE text does not
            # reproduce.
            bump("explained: key order of a re-created table")
            theirs["keys"] = mine["keys"]
        self.diff(after, f"{d}.{t.name} JSON of SHOW CREATE TABLE fed back", theirs, mine)


def _narrow(a, b):
    """The differing parts of two JSON-like values (for readable failure messages)."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        pairs = {k: _narrow(a.get(k), b.get(k)) for k in keys}
        return {k: v[0] for k, v in pairs.items()}, {k: v[1] for k, v in pairs.items()}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        idx = [i for i in range(len(a)) if a[i] != b[i]]
        pairs = {i: _narrow(a[i], b[i]) for i in idx}
        return {i: v[0] for i, v in pairs.items()}, {i: v[1] for i, v in pairs.items()}
    return a, b


@pytest.fixture
def lab(mariadb_server, request):
    prefix = "mdl_" + "".join(ch for ch in request.node.name if ch.isalnum())[-24:].lower()
    lab = Lab(mariadb_server, prefix)
    yield lab
    lab.close()


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    print("\nmodel vs MariaDB:", ", ".join(f"{k}={v}" for k, v in sorted(STATS.items())))


def T(name: str, db: str | None = None) -> TableId:
    return TableId(db, name)


def alter(t: TableId, *ops, **kw):
    return C.AlterTable(t, tuple(ops), **kw)


# ================================================================================ tests


def test_server_collations_match_the_charset_table(mariadb_server):
    from mysqlddl.model import charsets

    rows = mariadb_server.query(
        "SELECT CHARACTER_SET_NAME, DEFAULT_COLLATE_NAME, MAXLEN FROM information_schema.CHARACTER_SETS"
    )
    server = {r[0]: (r[1], r[2]) for r in rows}
    checked = 0
    for name, cs in charsets.CHARSETS.items():
        if name in server:
            assert (cs.mariadb_default, cs.maxlen) == server[name], name
            checked += 1
    assert checked >= 38
    srv_defaults = mariadb_server.query("SELECT @@character_set_server, @@collation_server")[0]
    assert srv_defaults == ("latin1", "latin1_swedish_ci")


def test_workload_phase_b(lab):
    """The DDL of shared/lab/workload.py phase (b), in order."""
    lab_db, tmp_db = lab.db("lab"), lab.db("tmp")
    evo = T("evo")
    lab.run(
        C.CreateDatabase(lab_db, "utf8mb4", "utf8mb4_general_ci"),
        C.UseDatabase(lab_db),
        C.CreateTable(
            evo,
            (
                col("id", "INT", nullable=False, auto_increment=True, primary_key=True),
                col("a", "INT"),
                col("b", "VARCHAR", 20),
            ),
            options=(("ENGINE", "InnoDB"),),
        ),
        alter(evo, C.AddColumn(col("c", "DATETIME", 3), after="a")),
        alter(
            evo,
            C.AddColumn(col("z", "BIGINT", unsigned=True, nullable=False, default="18446744073709551615"), first=True),
        ),
        alter(evo, C.DropColumn("a")),
        alter(evo, C.ModifyColumn(col("b", "VARCHAR", 300, charset="latin1"))),
        alter(evo, C.ModifyColumn(col("z", "INT", nullable=False, default="-1"))),
        alter(evo, C.ChangeColumn("b", col("b_renamed", "TEXT", charset="utf8mb4"))),
        alter(
            evo,
            C.AddColumn(col("x", "DECIMAL", 10, 2, default="1.50")),
            C.AddColumn(col("y", "ENUM", values=("'p'", "'q'", "'r'")), after="id"),
            C.DropColumn("c"),
        ),
        alter(evo, C.ChangeColumn("z", col("z", "INT", nullable=False, default="-1"), after="x")),
        alter(
            evo,
            C.AddColumn(col("select", "INT", default="1")),
            C.AddColumn(col("we`ird col", "VARCHAR", 5, default="'w'")),
            C.AddColumn(col("ünï", "SMALLINT", default="-2")),
        ),
        alter(
            evo,
            C.TableOptions((("ALGORITHM", "INSTANT"),))
            if False
            else C.AddColumn(col("inst", "VARCHAR", 10, default="'inst'")),
        ),
        alter(T("evo", lab_db), C.ModifyColumn(col("x", "DECIMAL", 20, 6, nullable=True))),
        C.RenameTable(((evo, T("evo2")),)),
        alter(T("evo2"), C.RenameTo(T("evo3"))),
        C.CreateTable(T("evo_like"), like=T("evo3")),
        C.TruncateTable(T("evo_like")),
        C.CreateTable(
            T("evo_ctas"),
            options=(("ENGINE", "InnoDB"),),
            as_select=C.AsSelect(
                "SELECT id, b_renamed AS txt, x * 10 AS x10 FROM evo3 WHERE id < 8",
                (C.SelectItem("id", T("evo3"), "id"), C.SelectItem("txt", T("evo3"), "b_renamed"), C.SelectItem("x10")),
            ),
        ),
        alter(T("evo3"), C.ConvertCharset("latin1")),
        C.CreateTable(T("swap_a"), (col("id", "INT", primary_key=True), col("a_only", "VARCHAR", 10))),
        C.CreateTable(T("swap_b"), (col("id", "INT", primary_key=True), col("b_only", "DOUBLE"), col("b2", "DATE"))),
        C.RenameTable(((T("swap_a"), T("swap_tmp")), (T("swap_b"), T("swap_a")), (T("swap_tmp"), T("swap_b")))),
        C.DropTable((T("evo_like"),)),
        C.CreateTable(T("evo_like"), (col("k", "VARCHAR", 8, primary_key=True), col("v", "JSON"), col("t", "TIME", 2))),
        C.CreateDatabase(tmp_db, "latin1"),
        C.CreateTable(T("t1", tmp_db), (col("id", "INT", primary_key=True), col("s", "VARCHAR", 10))),
        C.UseDatabase(tmp_db),
        C.CreateTable(T("t2"), (col("id", "INT", primary_key=True), col("evo_id", "INT"))),
        C.CreateTable(T("cross_db", lab_db), (col("id", "INT", primary_key=True), col("note", "VARCHAR", 20))),
        C.UseDatabase(lab_db),
        C.DropDatabase(tmp_db),
        C.DropTable((T("no_such_table"),), if_exists=True),
        C.CreateTable(T("tmp_rows"), (col("id", "INT"),), temporary=True),
        C.DropTable((T("tmp_rows"),), temporary=True),
        C.CreateTable(T("upsert"), (col("id", "INT", primary_key=True), col("u", "INT", unique=True), col("n", "INT"))),
        C.CreateTable(T("xa_t"), (col("id", "INT", primary_key=True), col("s", "VARCHAR", 20))),
        C.CreateTable(
            T("nontx"),
            (col("id", "INT", primary_key=True), col("s", "VARCHAR", 20)),
            options=(("ENGINE", "Aria"), ("TRANSACTIONAL", "0")),
        ),
        C.CreateTable(T("tx_only"), (col("id", "INT", primary_key=True),)),
        C.DropTable((T("evo_ctas"),)),
        C.CreateIndex(T("evo3"), KeySpec(IndexKind.INDEX, (IndexPart("z"),), name="idx_z")),
    )
    assert lab.catalog.table(lab_db, "evo3").column_names == (
        "id",
        "y",
        "b_renamed",
        "x",
        "z",
        "select",
        "we`ird col",
        "ünï",
        "inst",
    )


def test_every_type_and_synonym(lab):
    d = lab.db("types")
    lab.run(
        C.CreateDatabase(d, "latin1"),
        C.UseDatabase(d),
        C.CreateTable(
            T("all_types"),
            (
                col("c_ti", "TINYINT"),
                col("c_tiu", "TINYINT", unsigned=True),
                col("c_bool", "BOOL"),
                col("c_boolean", "BOOLEAN"),
                col("c_si", "SMALLINT"),
                col("c_siz", "SMALLINT", zerofill=True),
                col("c_mi", "MEDIUMINT"),
                col("c_mid", "MIDDLEINT"),
                col("c_i", "INT"),
                col("c_int5", "INT", 5),
                col("c_integer", "INTEGER", unsigned=True),
                col("c_bi", "BIGINT"),
                col("c_biu", "BIGINT", unsigned=True),
                col("c_int1", "INT1"),
                col("c_int8", "INT8"),
                col("c_dec", "DEC"),
                col("c_fixed", "FIXED", 6),
                col("c_num", "NUMERIC", 12, 4),
                col("c_d65", "DECIMAL", 65, 30),
                col("c_f", "FLOAT"),
                col("c_f24", "FLOAT", 24),
                col("c_f30", "FLOAT", 30),
                col("c_f73", "FLOAT", 7, 3),
                col("c_dbl", "DOUBLE"),
                col("c_dp", "DOUBLE PRECISION"),
                col("c_real", "REAL"),
                col("c_d82", "DOUBLE", 8, 2),
                col("c_bit", "BIT"),
                col("c_bit64", "BIT", 64),
                col("c_date", "DATE"),
                col("c_time", "TIME"),
                col("c_time6", "TIME", 6),
                col("c_dt", "DATETIME"),
                col("c_dt3", "DATETIME", 3),
                col("c_ts", "TIMESTAMP", nullable=True),
                col("c_ts6", "TIMESTAMP", 6, nullable=True),
                col("c_year", "YEAR"),
                col("c_char", "CHAR"),
                col("c_char10", "CHARACTER", 10),
                col("c_vc", "VARCHAR", 255),
                col("c_cv", "CHARACTER VARYING", 7),
                col("c_nchar", "NCHAR", 3),
                col("c_natchar", "NATIONAL CHAR", 2),
                col("c_nvc", "NVARCHAR", 4),
                col("c_natvc", "NATIONAL VARCHAR", 5),
                col("c_ncv", "NCHAR VARCHAR", 6),
                col("c_bin", "BINARY"),
                col("c_bin16", "BINARY", 16),
                col("c_vb", "VARBINARY", 3),
                col("c_tt", "TINYTEXT"),
                col("c_t", "TEXT"),
                col("c_mt", "MEDIUMTEXT"),
                col("c_lt", "LONGTEXT"),
                col("c_t100", "TEXT", 100),
                col("c_t300", "TEXT", 300),
                col("c_lvc", "LONG VARCHAR"),
                col("c_long", "LONG"),
                col("c_tb", "TINYBLOB"),
                col("c_b", "BLOB"),
                col("c_mb", "MEDIUMBLOB"),
                col("c_lb", "LONGBLOB"),
                col("c_b70k", "BLOB", 70000),
                col("c_lvb", "LONG VARBINARY"),
                col("c_enum", "ENUM", values=("'small'", "'it''s'", "'x\\\\y'", "'trail  '")),
                col("c_set", "SET", values=("'a'", "'b'", "'c'")),
                col("c_json", "JSON"),
                col("c_geom", "GEOMETRY"),
                col("c_point", "POINT"),
                col("c_ls", "LINESTRING"),
                col("c_poly", "POLYGON"),
                col("c_mpoint", "MULTIPOINT"),
                col("c_gc", "GEOMETRYCOLLECTION"),
                col("c_inet6", "INET6"),
                col("c_inet4", "INET4"),
                col("c_uuid", "UUID"),
                col("c_vcbin", "VARCHAR", 5, charset="binary"),
                col("c_textbin", "TEXT", charset="binary"),
            ),
        ),
    )
    assert len(lab.catalog.table(d, "all_types").columns) == 77


def test_defaults_and_literals(lab):
    d = lab.db("defaults")
    lab.run(
        C.CreateDatabase(d, "utf8mb4"),
        C.UseDatabase(d),
        C.CreateTable(
            T("t"),
            (
                col("d", "DECIMAL", 10, 2, default="1.5"),
                col("d0", "DECIMAL", 5, default="'3'"),
                col("i", "INT", default="'7'"),
                col("b", "BOOL", default="TRUE"),
                col("bf", "BOOLEAN", default="false"),
                col("neg", "INT", default="-1"),
                col("dt", "DATETIME", 3, default="'2020-01-01'"),
                col("dt0", "DATETIME", default="'2020-01-02 03:04:05'"),
                col("dte", "DATE", default="'2021-12-31'"),
                col("f", "DOUBLE", default="1e3"),
                col("f2", "FLOAT", default="1.5"),
                col("bits", "BIT", 3, default="b'101'"),
                col("bitn", "BIT", 8, default="5"),
                col("c", "CHAR", 3, default="'ab  '"),
                col("e", "ENUM", values=("'a'", "'it''s'"), default="'IT''S'"),
                col("s", "SET", values=("'x'", "'y'"), default="'y,x'"),
                col("vc", "VARCHAR", 10, default="'it''s \\\\ ok'"),
                col("vb", "VARBINARY", 3, default="0x41"),
                col("tm", "TIME", 2, default="'1:2:3'"),
                col("y", "YEAR", default="2024"),
                col("nn", "INT", nullable=False, default="0"),
                col("nul", "VARCHAR", 3, default="NULL"),
                col(
                    "ts",
                    "TIMESTAMP",
                    3,
                    default="CURRENT_TIMESTAMP(3)",
                    on_update="CURRENT_TIMESTAMP(3)",
                    nullable=False,
                ),
                col("dtn", "DATETIME", default="CURRENT_TIMESTAMP"),
                col("txt", "TEXT", default="'x'"),
                col("ex", "INT", default="(1 + 2)"),
                col("u", "VARCHAR", 36, default="uuid()"),
                col("cm", "INT", comment="'a comment'"),
                col("inv", "INT", visible=False),
                col("g", "INT", generated="`neg` + 1"),
                col("gs", "INT", generated="`neg` * 2", stored=True),
            ),
        ),
        alter(
            T("t"), C.AlterColumnDefault("i", "42"), C.AlterColumnDefault("vc", None), C.AlterColumnDefault("e", "'a'")
        ),
    )


def test_timestamps_with_explicit_defaults_off(lab):
    d = lab.db("ts")
    lab.run(
        C.CreateDatabase(d),
        C.UseDatabase(d),
        C.SetVariable((C.Assignment("explicit_defaults_for_timestamp", "0"),)),
        C.CreateTable(
            T("ts"),
            (
                col("a", "INT"),
                col("t1", "TIMESTAMP"),
                col("t2", "TIMESTAMP"),
                col("t3", "TIMESTAMP", nullable=True),
                col("t4", "TIMESTAMP", 3, nullable=False),
                col("t5", "TIMESTAMP", on_update="CURRENT_TIMESTAMP"),
                col("t6", "TIMESTAMP", default="NULL"),
            ),
        ),
        alter(T("ts"), C.AddColumn(col("t0", "TIMESTAMP"), first=True)),
        C.CreateTable(T("ts2"), (col("a", "INT"), col("t2", "TIMESTAMP", default="0"))),
        alter(T("ts2"), C.AddColumn(col("t1", "TIMESTAMP"), first=True), C.AddColumn(col("t3", "TIMESTAMP"))),
        C.CreateTable(T("ts3"), (col("t1", "TIMESTAMP", default="'2020-01-01 00:00:00'"), col("t2", "TIMESTAMP", 2))),
        C.CreateTable(T("ts5"), (col("t1", "TIMESTAMP", default="NULL"), col("t2", "TIMESTAMP", default="NULL"))),
        C.SetVariable((C.Assignment("explicit_defaults_for_timestamp", "1"),)),
        C.CreateTable(T("ts4"), (col("t1", "TIMESTAMP"), col("t2", "TIMESTAMP", nullable=False))),
    )


def test_charset_inheritance(lab):
    d1, d2 = lab.db("cs1"), lab.db("cs2")
    lab.run(
        C.CreateDatabase(d1),
        C.CreateDatabase(d2, collation="utf8mb4_unicode_ci"),
        C.AlterDatabase(d1, "utf8mb4"),
        C.UseDatabase(d2),
        C.CreateTable(
            T("a"),
            (
                col("s", "VARCHAR", 3),
                col("l", "VARCHAR", 3, charset="latin1"),
                col("b", "VARCHAR", 3, binary=True),
                col("lb", "CHAR", 3, charset="latin1", binary=True),
                col("c", "VARCHAR", 3, collation="utf8mb4_bin"),
                col("g", "VARCHAR", 3, charset="utf8mb4"),
                col("n", "NCHAR", 2),
                col("u8", "VARCHAR", 2, charset="utf8"),
                col("e", "ENUM", values=("'x'",), charset="latin1"),
                col("t", "TEXT", collation="latin1_bin"),
            ),
        ),
        C.CreateTable(T("b", d1), (col("s", "VARCHAR", 3),), options=(("COLLATE", "utf8mb4_bin"),)),
        C.CreateTable(T("c"), (col("s", "VARCHAR", 3),), options=(("DEFAULT CHARSET", "latin1"),)),
        alter(T("c"), C.AddColumn(col("x", "VARCHAR", 3)), C.DefaultCharset("utf8mb4"), C.AddColumn(col("y", "TEXT"))),
        alter(T("c"), C.DefaultCharset(None, "latin1_bin")),
        alter(T("c"), C.ConvertCharset("utf8mb4", "utf8mb4_unicode_ci")),
        C.CreateTable(
            T("cv"),
            (
                col("a", "TINYTEXT"),
                col("b", "TEXT"),
                col("c", "MEDIUMTEXT"),
                col("d", "VARCHAR", 10),
                col("e", "ENUM", values=("'x'",)),
                col("f", "TEXT", charset="utf8mb4"),
                col("g", "VARCHAR", 5, collation="latin1_bin"),
                col("h", "VARBINARY", 4),
            ),
            options=(("CHARSET", "latin1"),),
        ),
        alter(T("cv"), C.ConvertCharset("utf8mb4")),
        alter(T("cv"), C.ConvertCharset("latin1")),
        C.SetVariable((C.Assignment("character_set_server", "utf8mb4"),)),
    )
    # SET character_set_server affects only CREATE DATABASE without a charset
    lab.step(C.CreateDatabase(lab.db("cs3")))
    lab.step(C.SetVariable((C.Assignment("collation_server", "'utf8mb4_unicode_ci'"),)))
    lab.step(C.CreateDatabase(lab.db("cs4")))
    lab.step(C.CreateDatabase(lab.db("cs4"), if_not_exists=True))
    lab.step(
        C.CreateTable(T("bad"), (col("s", "VARCHAR", 3, charset="latin1", collation="utf8mb4_bin"),)), expect_error=True
    )


def test_keys_foreign_keys_and_checks(lab):
    d = lab.db("keys")
    lab.run(
        C.CreateDatabase(d),
        C.UseDatabase(d),
        C.CreateTable(
            T("p"),
            (col("id", "INT", primary_key=True), col("id2", "INT")),
            keys=(KeySpec(IndexKind.INDEX, (IndexPart("id"), IndexPart("id2"))),),
        ),
        C.CreateTable(
            T("c1"),
            (col("a", "INT"), col("b", "INT")),
            foreign_keys=(
                ForeignKeySpec(("a",), T("p"), ("id",)),
                ForeignKeySpec(("b",), T("p"), ("id",), name="fkx"),
                ForeignKeySpec(("a", "b"), T("p"), ("id", "id2"), name="fky", index_name="idxy"),
            ),
        ),
        C.CreateTable(
            T("c2"),
            (col("a", "INT"), col("b", "INT")),
            foreign_keys=(ForeignKeySpec(("a",), T("p"), ("id",), on_delete="CASCADE", on_update="SET NULL"),),
        ),
        C.CreateTable(
            T("k"),
            (
                col("a", "INT", unique=True),
                col("b", "INT", nullable=False),
                col("c", "VARCHAR", 20),
                col("d", "INT", check="`d` > 0"),
                col("e", "INT", check="`e` < 5"),
                col("g", "GEOMETRY", nullable=False),
                col("s", "SERIAL"),
            ),
            keys=(
                KeySpec(IndexKind.INDEX, (IndexPart("a"),)),
                KeySpec(IndexKind.UNIQUE, (IndexPart("b"), IndexPart("c", 4)), constraint_name="uq"),
                KeySpec(IndexKind.UNIQUE, (IndexPart("b"),)),
                KeySpec(IndexKind.FULLTEXT, (IndexPart("c"),), name="ft"),
                KeySpec(IndexKind.SPATIAL, (IndexPart("g"),), name="sp"),
                KeySpec(
                    IndexKind.INDEX, (IndexPart("c", descending=True),), name="kc", using="HASH" if False else "BTREE"
                ),
                KeySpec(IndexKind.INDEX, (IndexPart("d"),), name="kd", comment="'key comment'"),
            ),
            checks=(CheckSpec("`a` < `b`"), CheckSpec("`b` > 1", name="named"), CheckSpec("`d` <> 3")),
        ),
        alter(
            T("k"),
            C.DropKey("a_2"),
            C.RenameIndex("kc", "kc2"),
            C.AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("a"),))),
        ),
        alter(T("k"), C.DropCheck("named"), C.AddCheck(CheckSpec("`a` <> 7")), C.DropConstraint("CONSTRAINT_1")),
        alter(T("k"), C.AddIndex(KeySpec(IndexKind.PRIMARY, (IndexPart("a"), IndexPart("b"))))),
        alter(T("k"), C.DropPrimaryKey()),
        alter(T("c1"), C.DropForeignKey("fkx"), C.AddForeignKey(ForeignKeySpec(("b",), T("p"), ("id",), name="fkz"))),
        alter(T("c1"), C.AddForeignKey(ForeignKeySpec(("b", "a"), T("p"), ("id", "id2")))),
        C.CreateIndex(T("c2"), KeySpec(IndexKind.UNIQUE, (IndexPart("b"),), name="ub")),
        C.DropIndex(T("c2"), "ub"),
    )
    lab.step(alter(T("k"), C.DropKey("nope")), expect_error=True)
    lab.step(alter(T("k"), C.AddIndex(KeySpec(IndexKind.INDEX, (IndexPart("zz"),), name="z"))), expect_error=True)


def test_alter_operations(lab):
    d = lab.db("alter")
    t = T("t")
    lab.run(
        C.CreateDatabase(d),
        C.UseDatabase(d),
        C.CreateTable(
            t,
            (
                col("id", "INT", nullable=False, auto_increment=True, primary_key=True),
                col("a", "INT"),
                col("b", "VARCHAR", 20),
            ),
            options=(("COMMENT", "'first'"),),
        ),
        alter(t, C.AddColumn(col("c", "INT"), first=True), C.AddColumn(col("d", "INT"), after="c")),
        alter(t, C.AddColumn(col("a", "TEXT"), if_not_exists=True), C.DropColumn("nope", if_exists=True)),
        alter(t, C.ModifyColumn(col("b", "VARCHAR", 30, nullable=False, default="'x'"), first=True)),
        alter(t, C.ModifyColumn(col("b", "VARCHAR", 30))),
        alter(t, C.ChangeColumn("a", col("a2", "BIGINT", unsigned=True), after="id")),
        alter(t, C.RenameColumn("a2", "a3")),
        alter(t, C.AlterColumnDefault("a3", "5")),
        alter(t, C.AlterColumnDefault("a3", None)),
        alter(t, C.ModifyColumn(col("id", "BIGINT"))),
        alter(t, C.DropPrimaryKey(), C.AddIndex(KeySpec(IndexKind.PRIMARY, (IndexPart("c"),)))),
        alter(t, C.DropColumn("c")),
        alter(t, C.TableOptions((("ENGINE", "MyISAM"), ("COMMENT", "'second'")))),
        alter(t, C.TableOptions((("ENGINE", "InnoDB"),))),
        alter(t, C.RenameTo(T("t_renamed"))),
        alter(T("t_renamed"), C.RenameTo(T("t_moved", lab.db("alter2"))))
        if False
        else C.CreateTable(
            T("m"),
            (col("a", "INT"), col("b", "INT"), col("c", "INT")),
            keys=(
                KeySpec(IndexKind.UNIQUE, (IndexPart("a"), IndexPart("b")), name="uab"),
                KeySpec(IndexKind.INDEX, (IndexPart("a"), IndexPart("c")), name="kac"),
            ),
        ),
        alter(T("m"), C.DropColumn("c")),
    )
    # MariaDB refuses to drop a column of a multi-column UNIQUE key (dialect rule)
    lab.step(alter(T("m"), C.DropColumn("a")), expect_error=True)
    lab.step(alter(T("nope"), C.DropColumn("a")), expect_error=True)
    lab.step(alter(T("nope"), C.DropColumn("a"), if_exists=True), expect_error=False)
    lab.step(alter(T("m"), C.DropColumn("b"), C.DropColumn("a")), expect_error=True)  # all columns
    lab.step(alter(T("m"), C.AddColumn(col("z", "INT")), C.DropColumn("b"), C.DropColumn("a")))
    lab.step(alter(T("m"), C.AddColumn(col("z", "INT")), C.DropColumn("uab_nope")), expect_error=True)


def test_tables_databases_views(lab):
    d, o = lab.db("misc"), lab.db("other")
    lab.run(
        C.CreateDatabase(d),
        C.CreateDatabase(o, "utf8mb4"),
        C.UseDatabase(d),
        C.CreateTable(T("a"), (col("id", "INT"),)),
        C.CreateTable(T("b"), (col("id", "INT"),)),
        C.CreateTable(T("a"), (col("zz", "INT"),), if_not_exists=True),
        C.CreateTable(T("a"), (col("zz", "INT"),), or_replace=True),
        C.RenameTable(((T("a"), T("a", o)), (T("b"), T("a")))),
        C.CreateView(T("v"), "select `id` AS `id` from `a`"),
        C.CreateView(T("v"), "select 1 AS `x`", or_replace=True),
        C.AlterView(T("v"), "select 2 AS `y`"),
        C.DropView((T("v"), T("w")), if_exists=True),
        C.TruncateTable(T("a")),
        C.DropTable((T("a"), T("nope")), if_exists=True),
        C.CreateTable(T("t", o), (col("s", "VARCHAR", 2),)),
        C.DropDatabase(o),
    )
    lab.step(C.CreateTable(T("b"), (col("id", "INT"),)), expect_error=False)
    lab.step(C.CreateTable(T("b"), (col("id", "INT"),)), expect_error=True)
    lab.step(C.DropDatabase(o), expect_error=True)
    lab.step(C.CreateDatabase(d), expect_error=True)
    lab.step(C.RenameTable(((T("b"), T("c")), (T("zz"), T("y")))), expect_error=True)
    lab.step(C.DropTable((T("b"), T("nope"))), expect_error=True)  # MariaDB still drops b
    assert lab.catalog.table(d, "b") is None


def test_partitioning_is_recorded(lab):
    d = lab.db("part")
    lab.run(
        C.CreateDatabase(d),
        C.UseDatabase(d),
        C.CreateTable(
            T("p"),
            (col("id", "INT", nullable=False), col("v", "INT")),
            keys=(KeySpec(IndexKind.PRIMARY, (IndexPart("id"),)),),
        ),
    )
    lab.step(
        alter(
            T("p"),
            C.PartitionOp(
                "PARTITION BY",
                partitioning=Partitioning("HASH", "`id`", 4),
                text="PARTITION BY HASH (`id`) PARTITIONS 4",
            ),
        )
    )
    lab.step(alter(T("p"), C.PartitionOp("REMOVE PARTITIONING", text="REMOVE PARTITIONING")))
    assert lab.catalog.table(d, "p").partitioning is None


# ---------------------------------------------------------------------------- random sequences

TYPE_POOL = [
    lambda r: col("", "INT", unsigned=r.random() < 0.3),
    lambda r: col("", "BIGINT"),
    lambda r: col("", "TINYINT", 1),
    lambda r: col("", "SMALLINT", zerofill=r.random() < 0.2),
    lambda r: col("", "DECIMAL", r.randint(5, 20), r.randint(0, 4)),
    lambda r: col("", "DOUBLE"),
    lambda r: col("", "FLOAT"),
    lambda r: col("", "BIT", r.randint(1, 64)),
    lambda r: col("", "DATE"),
    lambda r: col("", "DATETIME", r.choice([None, 3, 6])),
    lambda r: col("", "TIME", r.choice([None, 2])),
    lambda r: col("", "TIMESTAMP", r.choice([None, 6]), nullable=True),
    lambda r: col("", "YEAR"),
    lambda r: col("", "CHAR", r.randint(1, 30)),
    lambda r: col("", "VARCHAR", r.randint(1, 300)),
    lambda r: col("", "VARCHAR", r.randint(1, 50), charset=r.choice(["latin1", "utf8mb4", "utf8"])),
    lambda r: col("", "VARCHAR", r.randint(1, 50), binary=True),
    lambda r: col("", "NVARCHAR", r.randint(1, 20)),
    lambda r: col("", "TEXT"),
    lambda r: col("", "MEDIUMTEXT", charset="latin1"),
    lambda r: col("", "TINYTEXT"),
    lambda r: col("", "BLOB"),
    lambda r: col("", "VARBINARY", r.randint(1, 40)),
    lambda r: col("", "BINARY", r.randint(1, 16)),
    lambda r: col("", "ENUM", values=("'a'", "'b'", "'c'")),
    lambda r: col("", "SET", values=("'x'", "'y'")),
    lambda r: col("", "JSON"),
    lambda r: col("", "BOOL"),
    lambda r: col("", "INTEGER"),
    lambda r: col("", "TIMESTAMP", r.choice([None, 3])),
    lambda r: col("", "TIMESTAMP", default="CURRENT_TIMESTAMP", on_update="CURRENT_TIMESTAMP"),
    lambda r: col("", "DATETIME", default="CURRENT_TIMESTAMP"),
    lambda r: col("", "NUMERIC", r.randint(1, 30)),
    lambda r: col("", "DOUBLE PRECISION"),
    lambda r: col("", "LONG VARCHAR"),
    lambda r: col("", "CHAR", r.randint(1, 10), charset="binary"),
    lambda r: col("", "TEXT", r.choice([10, 300, 70000])),
    # INET6/UUID are left out here: MariaDB refuses some type changes from them ("Cannot cast
    # 'inet6' as 'tinyint'"), a conversion rule the model does not carry (failed DDL never reaches
    # a binlog). test_every_type_and_synonym covers them.
    lambda r: col(
        "", "VARCHAR", r.randint(1, 40), collation=r.choice(["latin1_bin", "utf8mb4_bin", "utf8mb4_unicode_ci"])
    ),
]
DEFAULTS = {
    "INT": "'3'",
    "BIGINT": "-5",
    "TINYINT": "1",
    "SMALLINT": "7",
    "DECIMAL": "1.25",
    "DOUBLE": "2.5",
    "FLOAT": "0",
    "DATE": "'2020-02-03'",
    "DATETIME": "'2001-01-01 01:01:01'",
    "YEAR": "1999",
    "CHAR": "'c'",
    "VARCHAR": "'v'",
    "ENUM": "'b'",
    "SET": "'x,y'",
    "BOOL": "TRUE",
    "INTEGER": "10",
    "TIME": "'01:02:03'",
    "BIT": "b'1'",
}


def random_column(r: random.Random, name: str) -> ColumnSpec:
    import dataclasses

    spec = r.choice(TYPE_POOL)(r)
    kw = {"name": name}
    x = r.random()
    if x < 0.25:
        kw["nullable"] = False
    elif x < 0.35:
        kw["nullable"] = True
    if r.random() < 0.3 and spec.type.name in DEFAULTS:
        kw["default"] = DEFAULTS[spec.type.name]
    if r.random() < 0.05 and spec.type.name in ("INT", "VARCHAR"):
        kw["unique"] = True
    return dataclasses.replace(spec, **kw)


def random_key(r: random.Random, t) -> KeySpec:
    cols = list(t.column_names)
    n = r.choice([1, 1, 1, 2, 3])
    parts = []
    for c in r.sample(cols, min(n, len(cols))):
        col_ = t.column(c)
        length = None
        if col_.family.value in ("varchar", "char", "text", "blob", "varbinary") and r.random() < 0.4:
            length = r.randint(1, 10)
        parts.append(IndexPart(c, length))
    kind = r.choice([IndexKind.INDEX, IndexKind.INDEX, IndexKind.UNIQUE, IndexKind.FULLTEXT, IndexKind.PRIMARY])
    if kind is IndexKind.FULLTEXT:
        parts = [IndexPart(p.column) for p in parts]
    name = r.choice([None, None, f"k{r.randint(0, 20)}"]) if kind is not IndexKind.PRIMARY else None
    return KeySpec(kind, tuple(parts), name=name)


def random_op(r: random.Random, t, names: list[str], counter: list[int]):
    cols = list(t.column_names)
    k = r.random()
    if k < 0.28 or len(cols) < 2:
        counter[0] += 1
        where = r.random()
        return C.AddColumn(
            random_column(r, f"c{counter[0]}"),
            first=where < 0.15,
            after=r.choice(cols) if 0.15 <= where < 0.5 and cols else None,
        )
    if k < 0.38:
        return C.DropColumn(r.choice(cols))
    if k < 0.50:
        return C.ModifyColumn(random_column(r, r.choice(cols)), first=r.random() < 0.1)
    if k < 0.58:
        counter[0] += 1
        old = r.choice(cols)
        return C.ChangeColumn(
            old, random_column(r, f"c{counter[0]}"), after=r.choice(cols) if r.random() < 0.3 else None
        )
    if k < 0.70:
        return C.AddIndex(random_key(r, t))
    if k < 0.75 and t.keys():
        return C.DropKey(r.choice(t.keys()).name) if r.random() < 0.8 or t.primary_key is None else C.DropPrimaryKey()
    if k < 0.78 and t.indexes:
        return C.RenameIndex(r.choice(t.indexes).name, f"ri{r.randint(0, 50)}")
    if k < 0.83:
        return C.RenameColumn(r.choice(cols), f"r{counter[0]}_{r.randint(0, 99)}")
    if k < 0.88:
        return (
            C.DefaultCharset(r.choice(["latin1", "utf8mb4"]), None)
            if r.random() < 0.5
            else C.DefaultCharset(None, r.choice(["latin1_bin", "utf8mb4_unicode_ci"]))
        )
    if k < 0.91:
        return C.ConvertCharset(r.choice(["latin1", "utf8mb4", "utf8"]))
    if k < 0.94:
        return C.AlterColumnDefault(r.choice(cols), r.choice([None, "NULL", "'1'"]))
    if k < 0.95:
        numeric = [c.name for c in t.columns if c.family.value in ("integer", "decimal", "float")]
        if numeric:
            return C.AddCheck(CheckSpec(f"`{r.choice(numeric)}` > 0", name=r.choice([None, f"ck{r.randint(0, 9)}"])))
    if k < 0.96 and t.checks:
        return C.DropConstraint(r.choice(t.checks).name)
    if k < 0.97:
        return C.DropColumn(r.choice(cols))
    return C.TableOptions((("COMMENT", f"'c{r.randint(0, 9)}'"),))


# MYSQLDDL_MODEL_SEEDS=N runs seeds 1..N (default 12) for a longer search.
@pytest.mark.parametrize("seed", range(1, int(os.environ.get("MYSQLDDL_MODEL_SEEDS", "12")) + 1))
def test_random_sequences(lab, seed):
    """Random ALTER TABLE sequences (fixed seeds) on two tables, plus table-level statements."""
    r = random.Random(seed)
    d = lab.db("rnd")
    lab.run(C.CreateDatabase(d, r.choice(["latin1", "utf8mb4"])), C.UseDatabase(d))
    if seed % 2:
        lab.step(C.SetVariable((C.Assignment("explicit_defaults_for_timestamp", "0"),)))
    names = ["r1", "r2"]
    counter = [0]
    for n in names:
        cols = tuple(random_column(r, f"c{counter[0] + i}") for i in range(1, 5))
        keys = (KeySpec(IndexKind.PRIMARY, (IndexPart(cols[0].name),)),) if r.random() < 0.3 else ()
        lab.step(
            C.CreateTable(
                T(n),
                cols,
                keys=keys,
                options=((("DEFAULT CHARSET", r.choice(["latin1", "utf8mb4"])),) if r.random() < 0.5 else ()),
            )
        )
        counter[0] += 5
    ok = 0
    for _ in range(45):
        n = r.choice(names)
        t = lab.catalog.table(d, n)
        if t is None:
            continue
        ops = tuple(random_op(r, t, names, counter) for _ in range(r.choice([1, 1, 2, 3])))
        ok += lab.step(alter(T(n), *ops))
        x = r.random()
        if x < 0.04:
            lab.step(C.RenameTable(((T("r1"), T("tmp")), (T("r2"), T("r1")), (T("tmp"), T("r2")))))
        elif x < 0.07:
            lab.step(C.CreateTable(T("lk"), like=T(n), or_replace=True))
        elif x < 0.09:
            lab.step(C.DropTable((T("lk"),), if_exists=True))
    bump("random ALTERs accepted", ok)
    assert ok >= 10


def random_create(r: random.Random, name: str, counter: list[int]) -> C.CreateTable:
    cols = []
    for _ in range(r.randint(2, 7)):
        counter[0] += 1
        cols.append(random_column(r, f"c{counter[0]}"))
    keys, checks = [], []
    for _ in range(r.choice([0, 1, 2, 3])):
        fake = _FakeTable(cols)
        keys.append(random_key(r, fake))
    numeric = [c.name for c in cols if c.type.name in ("INT", "BIGINT", "SMALLINT", "DECIMAL", "DOUBLE")]
    if numeric and r.random() < 0.4:
        checks.append(CheckSpec(f"`{r.choice(numeric)}` > 0", name=r.choice([None, f"chk{r.randint(0, 9)}"])))
    opts = []
    if r.random() < 0.4:
        opts.append(("DEFAULT CHARSET", r.choice(["latin1", "utf8mb4", "utf8", "ascii"])))
    if r.random() < 0.2:
        opts.append(("COLLATE", r.choice(["utf8mb4_unicode_ci", "latin1_bin"])))
    if r.random() < 0.2:
        opts.append(("ENGINE", r.choice(["MyISAM", "InnoDB", "MEMORY"])))
    if r.random() < 0.2:
        opts.append(("COMMENT", f"'t{r.randint(0, 9)}'"))
    return C.CreateTable(
        T(name),
        tuple(cols),
        keys=tuple(keys),
        checks=tuple(checks),
        options=tuple(opts),
        or_replace=r.random() < 0.3,
        if_not_exists=r.random() < 0.1,
    )


class _FakeTable:
    """Just enough of a Table for random_key() before the table exists."""

    def __init__(self, specs):
        from mysqlddl.model.types import FAMILIES, SYNONYMS, TypeFamily, normalise_spelling

        self._fam = {}
        for s in specs:
            sp = normalise_spelling(s.type.name)
            tn = SYNONYMS[sp].name if sp in SYNONYMS else sp.lower()
            self._fam[s.name] = FAMILIES.get(tn, TypeFamily.UNKNOWN)
        self.column_names = tuple(self._fam)

    def column(self, name):
        fam = self._fam[name]
        return type("C", (), {"family": fam})()


@pytest.mark.parametrize("seed", range(1, int(os.environ.get("MYSQLDDL_MODEL_SEEDS", "12")) + 1))
def test_random_create_tables(lab, seed):
    """Random CREATE TABLE statements (columns, keys, checks, options), LIKE copies and drops."""
    r = random.Random(1000 + seed)
    d = lab.db("rct")
    lab.run(C.CreateDatabase(d, r.choice(["latin1", "utf8mb4"])), C.UseDatabase(d))
    counter = [0]
    ok = 0
    for i in range(30):
        name = f"t{r.randint(0, 5)}"
        ok += lab.step(random_create(r, name, counter))
        x = r.random()
        if x < 0.15:
            lab.step(C.CreateTable(T(f"l{i}"), like=T(name)))
        elif x < 0.25:
            lab.step(C.DropTable((T(name), T(f"t{r.randint(0, 5)}")), if_exists=True))
    bump("random CREATE TABLEs accepted", ok)
    assert ok >= 5
