#!/usr/bin/env python3
"""Make the README's sample: a small MariaDB binlog of a shop database plus the baseline schema
(`mariadb-dump --no-data`) of the tables it changes, written by the project's own lab server.

    python tools/make_sample_binlog.py [--out tests/data]

writes ``shop-bin.000001`` (the binlog), ``shop-baseline.sql`` (the schema dumped right before the
binlog starts: the tables were created, and some rows written, before it) and
``shop-bin.PROVENANCE.md`` (server version, settings, every statement, how to regenerate).

The binlog is written with the server's default binlog_row_metadata=MINIMAL, like most archived
logs: its TABLE_MAPs carry no column names, so ``mysqlddl changes`` needs the baseline to name the
columns of tables created before the file (``--schema shop-baseline.sql``), and follows the ALTER
inside the file on its own. Timestamps are pinned (SET timestamp), so a regenerated file differs
only where the server version or its table ids differ.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EPOCH = 1_700_000_000          # 2023-11-14 22:13:20 UTC

BEFORE = [                     # before the sample file: in the baseline, not in the binlog
    "CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci",
    "USE shop",
    "CREATE TABLE customers (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL,"
    " email VARCHAR(255), created DATETIME(3) NOT NULL)",
    "CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer_id INT NOT NULL,"
    " total DECIMAL(10,2) UNSIGNED NOT NULL, status ENUM('new','paid','shipped') NOT NULL DEFAULT 'new',"
    " note JSON, KEY (customer_id))",
    "INSERT INTO customers (name, email, created) VALUES ('Ada', 'ada@example.com', '2023-11-01 09:00:00.125'),"
    " ('Grace', NULL, '2023-11-02 10:30:00'), ('Linus', 'linus@example.org', '2023-11-03 11:45:00.5')",
]

SAMPLE = [                     # the sample binlog: every statement, in order
    ("tick", 0),
    "BEGIN",
    "INSERT INTO orders VALUES (1, 1, 19.99, 'new', '{\"items\": [\"book\"], \"gift\": false}'),"
    " (2, 2, 1250.00, 'new', NULL)",
    "UPDATE customers SET email = 'grace@example.net' WHERE id = 2",
    "COMMIT",
    ("tick", 60),
    "ALTER TABLE customers ADD COLUMN phone VARCHAR(20) AFTER email",
    "INSERT INTO customers (name, email, phone, created) VALUES ('Zoë', 'zoe@example.com', '+33 1 23 45 67 89',"
    " '2023-11-14 22:14:20')",
    ("tick", 60),
    "UPDATE orders SET status = 'paid' WHERE id IN (1, 2)",
    "INSERT INTO orders VALUES (3, 4, 5.50, 'paid', '{\"coupon\": \"WELCOME\"}')",
    "DELETE FROM orders WHERE id = 2",
    ("tick", 60),
    # an XA transaction rolled back after PREPARE: its row is in the log (logged at PREPARE) and
    # must not come out as a change
    "XA START 'refund-1'",
    "UPDATE orders SET total = 0 WHERE id = 1",
    "XA END 'refund-1'",
    "XA PREPARE 'refund-1'",
    "XA ROLLBACK 'refund-1'",
]


def _lab():
    spec = importlib.util.spec_from_file_location("_mysqlddl_tools_mariadb_lab_sample", HERE / "mariadb_lab.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(out: Path) -> dict:
    lab = _lab()
    base = Path(tempfile.mkdtemp(prefix="mdb-sample-"))
    srv = lab.MariaDBServer(base).start()
    try:
        conn = srv.connect()
        cur = conn.cursor()
        cur.execute("SET SESSION time_zone = '+00:00'")
        cur.execute(f"SET SESSION timestamp = {EPOCH - 3600}")
        for sql in BEFORE:
            cur.execute(sql)
        # the baseline: the schema as it stands where the sample file begins
        dump = subprocess.run(["mariadb-dump", "--no-defaults", "-S", srv.socket, "-u", "root", "--no-data",
                               "--compact", "--databases", "shop"], capture_output=True, text=True, check=True)
        cur.execute("FLUSH BINARY LOGS")
        first, _ = srv.current_binlog()
        clock = EPOCH
        for sql in SAMPLE:
            if isinstance(sql, tuple):
                clock += sql[1]
                cur.execute(f"SET SESSION timestamp = {clock}")
                continue
            cur.execute(sql)
        cur.execute("FLUSH BINARY LOGS")
        version = srv.version
        conn.close()
        out.mkdir(parents=True, exist_ok=True)
        binlog = out / "shop-bin.000001"
        shutil.copyfile(first, binlog)
        (out / "shop-baseline.sql").write_text(dump.stdout)
        (out / "shop-bin.PROVENANCE.md").write_text(provenance(version, srv.row_metadata, first.name))
        return {"binlog": str(binlog), "bytes": binlog.stat().st_size, "server": version}
    finally:
        srv.destroy()


def provenance(version: str, row_metadata: str, original_name: str) -> str:
    def sql_lines(stmts):
        return "\n".join(f"SET timestamp = +{s[1]};" if isinstance(s, tuple) else s + ";" for s in stmts)

    return f"""# tests/data/shop-bin.000001 and shop-baseline.sql

Written by `python tools/make_sample_binlog.py` (run it again to regenerate both files and this note)
on a private server from `tools/mariadb_lab.py`: MariaDB {version}, binlog_format=ROW,
binlog_row_image=FULL, binlog_checksum=CRC32, binlog_row_metadata={row_metadata}, server_id=1,
session time_zone +00:00, session timestamp pinned from {EPOCH} (2023-11-14 22:13:20 UTC).
The file is the server's `{original_name}`, renamed.

`shop-baseline.sql` is `mariadb-dump --no-data --compact --databases shop` taken right before
the binlog starts (after the statements below under "Before"). The README's main job reads both:

    mysqlddl changes tests/data/shop-bin.000001 --schema tests/data/shop-baseline.sql

## Before the binlog (in the baseline, not in the file; session timestamp {EPOCH - 3600})

```sql
{sql_lines(BEFORE)}
```

## In the binlog (one session; `SET timestamp = +N` advances the pinned clock)

```sql
{sql_lines(SAMPLE)}
```

The XA transaction is rolled back after PREPARE: MariaDB logs its row at PREPARE, and
`mysqlddl changes` must not emit it.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE.parent / "tests" / "data")
    a = ap.parse_args(argv)
    print(make(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
