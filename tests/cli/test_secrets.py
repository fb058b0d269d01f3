"""No password is ever printed or stored (issue #30, item 9).

One sentinel password goes through every path a password can enter mysqlddl: a ``mysql://`` URI
(raw and percent-encoded) on the command line and in a pipeline file, a password key in the
pipeline file, ``MYSQL_PWD``, a MySQL option file (``--defaults-file``, ``[source] defaults_file``),
a ``postgresql://`` sink URI (raw and percent-encoded), ``PGPASSWORD``; with the right password
(accounts with it on a private MariaDB and PostgreSQL), a wrong one (the server refuses) and a
server that is down. Each is a real ``mysqlddl`` subprocess; then its stdout and stderr, every
file it left (checkpoint store bytes, stats file, segments, dead letters, outputs), ``mysqlddl
status`` (text and JSON) and the PostgreSQL target's checkpoint row are searched for the sentinel
in each of its forms: never found.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

SENTINEL = "Sentinel-Pw-7f3a9c"
#: as a user may percent-encode it in a URI (the issue's ``My%53ecret``), and wholly encoded
ENCODED = "%53entinel-Pw-7f3a9c"
FULLY = "".join(f"%{b:02X}" for b in SENTINEL.encode())
NEEDLES = (SENTINEL, ENCODED, FULLY, FULLY.lower(), quote(SENTINEL, safe=""),
           base64.b64encode(SENTINEL.encode()).decode(), SENTINEL.encode().hex())
OTHER = "other-pw-1b2c"         # the password the "wrong" accounts really have
DEAD_PORT = 9                   # (discard: nothing listens there on loopback)


class Lab:
    """The private servers with the sentinel's accounts, and a binlog file for file sources."""

    def __init__(self, mdb, pg, binlog: Path, pg_port: int):
        self.mdb, self.pg, self.binlog, self.pg_port = mdb, pg, binlog, pg_port
        self.n = 0

    def mysql(self, user="secret_user", password=None, port=None) -> str:
        self.n += 1
        auth = f"{user}:{password}@" if password is not None else f"{user}@" if user else ""
        return f"mysql://{auth}127.0.0.1:{port or self.mdb.port}/?server-id={93000 + self.n}"

    def pg_db(self, password: str | None, user="mysqlddl_secret", port=None) -> str:
        self.n += 1
        name = f"secret_{self.n}"
        self.pg.psql(f'CREATE DATABASE "{name}" OWNER {user}')
        auth = f"{user}:{password}" if password is not None else user
        return f"postgresql://{auth}@127.0.0.1:{port or self.pg_port}/{name}"


@pytest.fixture(scope="module")
def lab(mariadb_server, pg_server, tmp_path_factory):
    # accounts made with sql_log_bin off: the CREATE USER text (with the password) stays out of the
    # binlogs the runs read (what a user's statements hold is their data, not a leak of ours)
    mariadb_server.execute("SET sql_log_bin = 0",
                           f"CREATE OR REPLACE USER 'secret_user'@'127.0.0.1' IDENTIFIED BY '{SENTINEL}'",
                           f"CREATE OR REPLACE USER 'secret_other'@'127.0.0.1' IDENTIFIED BY '{OTHER}'",
                           "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT, RELOAD, REPLICATION MASTER ADMIN "
                           "ON *.* TO 'secret_user'@'127.0.0.1'")
    mariadb_server.flush_logs()
    mariadb_server.execute("CREATE DATABASE IF NOT EXISTS secret_db",
                           "CREATE TABLE secret_db.t (id INT PRIMARY KEY, note VARCHAR(20))",
                           "INSERT INTO secret_db.t VALUES (1, 'one'), (2, 'two')",
                           "UPDATE secret_db.t SET note = 'changed' WHERE id = 2")
    mariadb_server.flush_logs()
    binlog = tmp_path_factory.mktemp("secret-binlog") / "mariadb-bin.000001"
    shutil.copy(mariadb_server.binlog_files()[-2], binlog)
    # PostgreSQL: the lab cluster trusts 127.0.0.1; these two roles log in by password (the first
    # matching pg_hba.conf line wins: PostgreSQL manual, "The pg_hba.conf File")
    pg_server.psql(f"CREATE ROLE mysqlddl_secret LOGIN PASSWORD '{SENTINEL}'")
    pg_server.psql(f"CREATE ROLE mysqlddl_other LOGIN PASSWORD '{OTHER}'")
    hba = pg_server.datadir / "pg_hba.conf"
    hba.write_text("host all mysqlddl_secret,mysqlddl_other 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    pg_server.psql("SELECT pg_reload_conf()")
    return Lab(mariadb_server, pg_server, binlog, pg_server.port)


def _pipeline(d: Path, source: str, sink: str, extra: str = "") -> Path:
    p = d / "in" / "p.toml"
    run = d / "run"
    pg = sink.startswith("postgresql://")
    p.write_text(f'name = "secret"\n[source]\nuri = "{source}"\n{extra}[sink]\nuri = "{sink}"\n'
                 + ("" if pg else f'[checkpoint]\nuri = "sqlite://{run}/state.db"\n')
                 + f'[stats]\npath = "{run}/stats.json"\n[errors]\ndead_letter = "{run}/dead.jsonl"\n',
                 encoding="utf-8")
    return p


def _cnf(d: Path, user: str, password: str) -> Path:
    p = d / "in" / "my.cnf"
    p.write_text(f"[client]\nuser = {user}\npassword = {password}\n", encoding="utf-8")
    return p


# Each case: (lab, dir) -> (runs, expected return code of the first run, text the first run's output has).
# A run is (argv, env). The pipeline's runs are followed by `status` and `status --json`.

def _changes(uri, *more, env=None):
    return [(["changes", uri, *more], env or {})]


def _run(p, env=None, status=True):
    runs = [(["run", p, "--once"], env or {})]
    if status:
        runs += [(["status", p], env or {}), (["status", p, "--json"], env or {})]
    return runs


CASES = {
    "cli-uri-raw": lambda lab, d: (_changes(lab.mysql(password=SENTINEL)), 1, "password in the URI"),
    "cli-uri-encoded": lambda lab, d: (_changes(lab.mysql(password=ENCODED)), 1, "password in the URI"),
    "cli-uri-fully-encoded": lambda lab, d: (_changes(lab.mysql(password=FULLY)), 1, "password in the URI"),
    "toml-uri-raw": lambda lab, d: (_run(_pipeline(d, lab.mysql(password=SENTINEL), f"jsonl://{d}/run/out/")), 1,
                                    "password in the URI"),
    "toml-uri-encoded": lambda lab, d: (_run(_pipeline(d, lab.mysql(password=ENCODED), f"jsonl://{d}/run/out/")),
                                        1, "password in the URI"),
    "toml-password-key": lambda lab, d: (_run(_pipeline(d, lab.mysql(), f"jsonl://{d}/run/out/",
                                                        f'password = "{SENTINEL}"\n')), 1, "unknown key password"),
    "mysql-pwd-changes": lambda lab, d: (_changes(lab.mysql(), "-o", d / "run" / "out.jsonl",
                                                  env={"MYSQL_PWD": SENTINEL}), 0, ""),
    "mysql-pwd-run": lambda lab, d: (_run(_pipeline(d, lab.mysql(), f"jsonl://{d}/run/out/"),
                                          env={"MYSQL_PWD": SENTINEL}), 0, "done at"),
    "option-file-changes": lambda lab, d: (_changes(lab.mysql(user=None), "--defaults-file",
                                                    _cnf(d, "secret_user", SENTINEL), "-o", d / "run" / "out.jsonl"),
                                           0, ""),
    "option-file-run": lambda lab, d: (_run(_pipeline(d, lab.mysql(user=None),
                                                      f"jsonl://{d}/run/out/",
                                                      f'defaults_file = "{_cnf(d, "secret_user", SENTINEL)}"\n')),
                                       0, "done at"),
    "mysql-pwd-wrong": lambda lab, d: (_changes(lab.mysql(user="secret_other"), env={"MYSQL_PWD": SENTINEL}), 1,
                                       "error 1045"),
    "option-file-wrong": lambda lab, d: (_changes(lab.mysql(user="secret_other"), "--defaults-file",
                                                  _cnf(d, "secret_other", SENTINEL)), 1, "error 1045"),
    "mysql-server-down": lambda lab, d: (_run(_pipeline(d, lab.mysql(port=DEAD_PORT), f"jsonl://{d}/run/out/"),
                                              env={"MYSQL_PWD": SENTINEL}, status=False), 1, "127.0.0.1:9"),
    "pg-uri-raw": lambda lab, d: (_run(_pipeline(d, f"file://{lab.binlog}", lab.pg_db(SENTINEL))), 0, "done at"),
    "pg-uri-encoded": lambda lab, d: (_run(_pipeline(d, f"file://{lab.binlog}", lab.pg_db(FULLY))), 0, "done at"),
    "pgpassword": lambda lab, d: (_run(_pipeline(d, f"file://{lab.binlog}", lab.pg_db(None)),
                                       env={"PGPASSWORD": SENTINEL}), 0, "done at"),
    "pg-wrong": lambda lab, d: (_run(_pipeline(d, f"file://{lab.binlog}",
                                               lab.pg_db(SENTINEL, user="mysqlddl_other")), status=False), 1,
                                "password authentication failed"),
    "pg-server-down": lambda lab, d: (_run(_pipeline(d, f"file://{lab.binlog}", lab.pg_db(SENTINEL, port=DEAD_PORT)),
                                           status=False), 1, "cannot connect"),
}


def _leaks(text: str) -> list[str]:
    return [n for n in NEEDLES if n in text]


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_password_is_printed_or_stored(case, lab, run_cli, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "run").mkdir()
    runs, rc, said = CASES[case](lab, tmp_path)
    inputs = {p.resolve() for p in (tmp_path / "in").iterdir()}
    found = {}
    for i, (argv, env) in enumerate(runs):
        proc = run_cli(*argv, env=env, timeout=120)
        if i == 0:
            assert proc.returncode == rc, proc.stderr
            assert said in proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr
        for stream, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
            if _leaks(text):
                found[f"{' '.join(map(str, argv))} {stream}"] = text
    # every file the runs left, as bytes (the SQLite checkpoint store, the stats file, segments, ...)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.resolve() not in inputs]
    for p in files:
        if _leaks(p.read_bytes().decode("latin-1")):
            found[str(p)] = "(file)"
    if rc == 0 and case.startswith(("mysql-pwd-run", "option-file-run")):
        assert (tmp_path / "run" / "state.db").stat().st_size > 0 and (tmp_path / "run" / "stats.json").exists()
    # the PostgreSQL target's checkpoint row (its JSON state and schema history)
    for argv, _ in runs:
        sink = [line for line in argv[1].read_text().splitlines() if "postgresql://" in line] \
            if argv[0] == "run" and rc == 0 else []
        if sink:
            db = sink[0].rstrip('"').rsplit("/", 1)[1]
            rows = lab.pg.psql("SELECT row_to_json(c)::text FROM mysqlddl.mysqlddl_checkpoint c", dbname=db)
            assert '"secret"' in rows and "secret_db" in rows
            if _leaks(rows):
                found[f"{db} mysqlddl.mysqlddl_checkpoint"] = rows
    assert not found, found
