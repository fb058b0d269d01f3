"""The Debezium sink and the CLI options: ``mysqlddl changes --format debezium`` (JSON Lines of
{topic, key, value[, headers]}), ``--topics-dir`` (values and keys per topic), ``--schemas``, the
handling modes under Debezium's names, the native default left as it was, and ``make_sink``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from mysqlddl.changes import ChangeOptions, ChangeReader
from mysqlddl.errors import ConfigError
from mysqlddl.options import change_event_options
from mysqlddl.sinks import JsonLinesSink, write_records
from mysqlddl.sinks.debezium import DebeziumOptions, DebeziumSink, make_sink
from mysqlddl.sources import open_source

DATA = Path(__file__).resolve().parents[2] / "data"
BINLOG, BASELINE = DATA / "shop-bin.000001", DATA / "shop-baseline.sql"


def reader():
    return ChangeReader(open_source([BINLOG]),
                        ChangeOptions(decode=change_event_options()), schema=BASELINE.read_text())


def lines(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines()]


def test_cli_debezium_json_lines(run_cli, tmp_path):
    out = tmp_path / "out.jsonl"
    p = run_cli("changes", BINLOG, "--schema", BASELINE, "--format", "debezium", "--name", "srv", "-o", out,
                "--summary", "none", "--decimal-handling-mode", "string", "--binary-handling-mode", "hex")
    assert p.returncode == 0, p.stderr
    msgs = lines(out.read_text())
    assert all(set(m) <= {"topic", "key", "value", "headers"} for m in msgs)
    assert {m["topic"] for m in msgs} == {"srv", "srv.transaction", "srv.shop.orders", "srv.shop.customers"}
    order = next(m for m in msgs if m["topic"] == "srv.shop.orders")
    assert order["value"]["after"]["total"] == "19.99"          # --decimal-handling-mode string
    assert sum(m["value"] is None for m in msgs) == 1            # the tombstone after the one delete


def test_cli_topics_dir_and_schemas(run_cli, tmp_path):
    d = tmp_path / "topics"
    p = run_cli("changes", BINLOG, "--schema", BASELINE, "--format", "debezium", "--name", "srv",
                "--topics-dir", d, "--schemas", "--summary", "none")
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in d.iterdir()) == sorted(
        f"{t}{ext}" for t in ("srv", "srv.transaction", "srv.shop.orders", "srv.shop.customers")
        for ext in (".jsonl", ".keys.jsonl"))
    values = (d / "srv.shop.orders.jsonl").read_text().split("\n")[:-1]
    keys = (d / "srv.shop.orders.keys.jsonl").read_text().splitlines()
    assert len(values) == len(keys)                              # line for line
    assert values.count("") == 1                                 # a tombstone is an empty line
    first = json.loads(values[0])
    assert set(first) == {"schema", "payload"} and first["schema"]["name"] == "srv.shop.orders.Envelope"
    assert json.loads(keys[0])["payload"] == {"id": 1}


def test_cli_rejects_topics_dir_without_the_debezium_format(run_cli, tmp_path):
    p = run_cli("changes", BINLOG, "--schema", BASELINE, "--topics-dir", tmp_path / "t", "--summary", "none")
    assert p.returncode == 1 and "--topics-dir needs --format debezium" in p.stderr
    p = run_cli("changes", BINLOG, "--format", "debezium", "--time-precision-mode", "nanos")
    assert p.returncode == 2 and "--time-precision-mode" in p.stderr


def test_native_stays_the_default():
    a, b = io.BytesIO(), io.BytesIO()
    with JsonLinesSink(a) as sink:
        write_records(reader(), sink)
    with make_sink("native", b) as sink:
        write_records(reader(), sink)
    assert a.getvalue() == b.getvalue() and b'"topic"' not in a.getvalue()


def test_make_sink_and_sink_streams(tmp_path):
    s = make_sink("debezium", io.StringIO(), name="srv")
    assert isinstance(s, DebeziumSink) and s.options == DebeziumOptions(topic_prefix="srv")
    text = io.StringIO()
    with DebeziumSink(text, DebeziumOptions(topic_prefix="x"), clock=lambda: 0) as sink:
        write_records(reader(), sink)
    msgs = lines(text.getvalue())
    assert msgs[1]["value"]["ts_ms"] == 0 and msgs[1]["topic"] == "x.shop.orders"
    with pytest.raises(ConfigError):
        make_sink("avro", io.StringIO())
    with pytest.raises(ConfigError):
        make_sink("native", None, topics_dir=tmp_path)
    with pytest.raises(ConfigError):
        DebeziumSink()


def test_readme_debezium_snippet_runs(monkeypatch):
    """The README's "Output formats: native and Debezium" Python example (run from the checkout's root)."""
    root = DATA.parents[1]
    text = (root / "README.md").read_text(encoding="utf-8")
    start = text.index("## Output formats: native and Debezium")
    section = text[start:text.index("\n## ", start + 10)]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    monkeypatch.chdir(root)
    exec(compile(code, "README.md (Debezium)", "exec"), {})  # noqa: S102
