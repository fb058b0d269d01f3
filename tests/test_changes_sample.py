"""The README's main job: its opening block is exactly the set-up (system packages, a venv and
`pip install .`) and the `changes` command on the sample binlog the project generates itself
(tools/make_sample_binlog.py; see tests/data/shop-bin.PROVENANCE.md: MariaDB 10.11.19, ROW,
binlog_row_metadata=MINIMAL). That
command, run as written (paths resolved against the checkout) by `run_cli`, prints exactly the
changes the sample's SQL made."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_readme_opens_with_install_and_the_main_job():
    # issue #19: the set-up names the build's system packages (a C compiler and the Python headers
    # for the Cython core, Java 17 for the parser) and installs into a virtual environment
    assert readme_commands() == [
        "sudo apt-get install -y build-essential python3-dev python3-venv openjdk-17-jre-headless",
        "python3 -m venv .venv && . .venv/bin/activate && pip install .",
        "mysqlddl changes tests/data/shop-bin.000001 --schema tests/data/shop-baseline.sql"]
    assert (ROOT / "tests/data/shop-bin.000001").stat().st_size < 200_000


def test_the_readme_main_job_command(run_cli):
    words = readme_commands()[-1].split()
    assert words[0] == "mysqlddl"
    args = [str(ROOT / w) if w.startswith("tests/") else w for w in words[1:]]
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    rows = [(e["source"]["table"], e["op"], e["before"], e["after"]) for e in events if "op" in e]
    note = '{"items": ["book"], "gift": false}'
    grace = {"id": 2, "name": "Grace", "email": None, "created": "2023-11-02T10:30:00"}
    assert rows == [
        ("orders", "c", None, {"id": 1, "customer_id": 1, "total": "19.99", "status": "new", "note": note}),
        ("orders", "c", None, {"id": 2, "customer_id": 2, "total": "1250.00", "status": "new", "note": None}),
        # a row written before the binlog: named by the baseline
        ("customers", "u", grace, {**grace, "email": "grace@example.net"}),
        # after the ALTER inside the file: the new column, in its place
        ("customers", "c", None, {"id": 4, "name": "Zo\u00eb", "email": "zoe@example.com",
                                  "phone": "+33 1 23 45 67 89", "created": "2023-11-14T22:14:20"}),
        ("orders", "u", {"id": 1, "customer_id": 1, "total": "19.99", "status": "new", "note": note},
         {"id": 1, "customer_id": 1, "total": "19.99", "status": "paid", "note": note}),
        ("orders", "u", {"id": 2, "customer_id": 2, "total": "1250.00", "status": "new", "note": None},
         {"id": 2, "customer_id": 2, "total": "1250.00", "status": "paid", "note": None}),
        ("orders", "c", None, {"id": 3, "customer_id": 4, "total": "5.50", "status": "paid",
                               "note": '{"coupon": "WELCOME"}'}),
        ("orders", "d", {"id": 2, "customer_id": 2, "total": "1250.00", "status": "paid", "note": None}, None),
    ]                               # and nothing of the rolled-back XA refund
    (ddl,) = [e for e in events if "ddl" in e]
    assert ddl["ddl"] == "ALTER TABLE customers ADD COLUMN phone VARCHAR(20) AFTER email"
    assert [c["name"] for c in ddl["tableChanges"][0]["table"]["columns"]] == \
        ["id", "name", "email", "phone", "created"]
    assert isinstance(ddl["source"]["thread"], int)
    first = next(e for e in events if "op" in e)
    assert first["source"]["connector"] == "mariadb" and first["source"]["gtid"] == first["transaction"]["id"]
    # source.query only when asked (Debezium's include.query), from the ANNOTATE_ROWS event
    assert first["source"]["query"] is None
    asked = run_cli(*args, "--include-query", "--summary", "none")
    queries = [json.loads(line)["source"]["query"] for line in asked.stdout.splitlines() if '"op"' in line]
    assert queries[0] == queries[1] and queries[0].startswith("INSERT INTO orders VALUES (1, 1, 19.99")
    assert queries[-1] == "DELETE FROM orders WHERE id = 2"
    assert [e["status"] for e in events if "status" in e] == ["BEGIN", "END"] * 5
    # the closing summary on stderr
    assert "DDL 1 (errors skipped 0), DML rows 8, transactions 5" in proc.stderr
    assert "  shop.orders: c=3, d=1, u=2" in proc.stderr and "  shop.customers: c=1, u=1" in proc.stderr
    assert "last event 2023-11-14 22:16:20 UTC" in proc.stderr
    assert "rolled back 1 (1 rows discarded)" in proc.stderr
