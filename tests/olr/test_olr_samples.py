"""Every OLR sample in ../shared/corpora/olr-json converts; values against the LogMiner reference.

Formats differ per source (PROVENANCE.md there): the rophy fork's tests use format scn 1 (hex
``scns``), timestamp 7 (epoch seconds as text, for ``tms`` and for DATE/TIMESTAMP values), xid 1,
compact columns and no ``schema.columns``; SynchDB's config gives decimal ``scn``, ``tm`` in
nanoseconds, ``schema.columns``, ``rid``, ``num`` and DDL.
"""

from __future__ import annotations

import datetime
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from mysqlddl.changes.records import RowChange, TransactionMark
from mysqlddl.errors import OlrJsonError
from mysqlddl.olr import OlrReader
from mysqlddl.options import Options
from mysqlddl.sinks.oracle import envelope

sys.path.insert(0, str(Path(__file__).parent))
import logminer  # noqa: E402

PREBUILT = "corpora/olr-json/rophy-olr-fork-prebuilt"
ROPHY = Options(olr_time_unit="s")      # the fork's format.timestamp 7

# payload ops per scenario, counted in output.json (PROVENANCE.md: 866 messages with the fixture)
OPS = {
    "basic-crud": dict(begin=3, c=3, u=1, d=1, commit=3),
    "boolean-type": dict(begin=7, c=4, u=3, d=1, commit=7),
    "concurrent-updates": dict(begin=8, c=4, u=7, d=1, commit=8),
    "data-types": dict(begin=3, c=2, u=1, d=1, commit=3),
    "ddl-add-column": dict(begin=2, c=4, u=2, d=1, commit=2),
    "interleaved-transactions": dict(begin=6, c=5, u=4, d=1, commit=6),
    "large-transaction": dict(begin=3, c=200, u=200, d=100, commit=3),
    "lob-operations": dict(begin=7, c=4, u=3, d=1, commit=7),
    "long-spanning-txn": dict(begin=2, c=6, u=2, d=2, commit=2),
    "many-columns": dict(begin=6, c=2, u=2, d=2, commit=6),
    "multi-table": dict(begin=4, c=7, u=2, d=2, commit=4),
    "null-handling": dict(begin=5, c=3, u=3, d=1, commit=5),
    "number-precision": dict(begin=8, c=7, u=2, d=2, commit=8),
    "partitioned-table": dict(begin=6, c=7, u=3, d=3, commit=6),
    "rac-concurrent-tables": dict(begin=4, c=4, u=2, d=2, commit=4),
    "rac-interleaved": dict(begin=4, c=4, u=1, d=1, commit=4),
    "rac-thread2-only": dict(begin=3, c=3, u=1, d=1, commit=3),
    "rollback": dict(begin=4, c=5, commit=4, d=1),
    "special-chars": dict(begin=4, c=8, u=1, commit=4),
    "timestamp-variants": dict(begin=7, c=4, u=2, d=1, commit=7),
    "wide-rows": dict(begin=6, c=2, u=3, d=1, commit=6),
}


def _read(path, options=ROPHY, **kw):
    r = OlrReader([path], options, **kw)
    return list(r), r


@pytest.mark.parametrize("scenario", sorted(OPS))
def test_prebuilt_scenario_converts(shared_path, scenario):
    changes, r = _read(shared_path / PREBUILT / scenario / "output.json")
    assert dict(r.stats.ops) == OPS[scenario]
    assert r.stats.skipped == 0 and r.stats.open_transactions == 0
    rows = [c for c in changes if isinstance(c, RowChange)]
    marks = [c for c in changes if isinstance(c, TransactionMark)]
    assert len(rows) == sum(OPS[scenario].get(op, 0) for op in "cud")
    assert len(marks) == 2 * OPS[scenario]["begin"]
    # every END counts the rows of its transaction
    assert sum(m.event_count for m in marks if m.status == "END") == len(rows)
    empty = 0
    for c in rows:
        assert c.source.scn is not None and c.source.ts_ms is not None and c.source.owner == "OLR_TEST"
        assert c.typing == "none"        # no schema.columns and no DDL in these files
        env = envelope(c)
        assert env["op"] == c.op and env["source"]["connector"] == "oracle"
        present = env["mysqlddl"]["present"]
        assert present == {"before": None if c.before is None else list(c.before),
                           "after": None if c.after is None else list(c.after)}
        empty += sum(1 for side in present.values() if side == [])
    # OLR's golden output has two BOOLEAN updates with an empty image (lines 15 and 18: "after":{} /
    # "before":{}); they are passed on as they are, with nothing present
    assert empty == (2 if scenario == "boolean-type" else 0)


def test_sample_totals(shared_path):
    """PROVENANCE.md: 866 messages, begin 103, c 289, u 245, d 126, commit 103 (prebuilt + fixture)."""
    files = sorted((shared_path / PREBUILT).glob("*/output.json")) + \
        [shared_path / "corpora/olr-json/rophy-olr-fork-fixture/output.json"]
    r = OlrReader(files, ROPHY)
    list(r)
    assert r.stats.documents == 866
    assert dict(r.stats.ops) == {"begin": 103, "c": 289, "u": 245, "d": 126, "commit": 103}


def test_checkpoint_positions_are_not_an_order(shared_path):
    """(c_scn, c_idx) is where a restart reads from, not a sequence: OLR writes transactions in
    commit order and a late-committing transaction keeps its earlier start c_scn."""
    changes, _ = _read(shared_path / PREBUILT / "interleaved-transactions" / "output.json")
    begins = [(m.id, m.source.c_scn) for m in changes if isinstance(m, TransactionMark)
              and m.status == "BEGIN"]
    assert begins[2:4] == [("10.1.985", 3806547), ("1.8.741", 3806533)]
    assert begins[0][1] == 3806533      # 8.6.795: the same c_scn, and the same c_idx values


def test_compact_update_keeps_absent_apart_from_null(shared_path):
    # ddl-add-column line 8: "before":{"ID":1,"EMAIL":null},"after":{"ID":1,"EMAIL":"alice@test.com"}
    changes, _ = _read(shared_path / PREBUILT / "ddl-add-column" / "output.json")
    u = next(c for c in changes if isinstance(c, RowChange) and c.op == "u")
    assert u.before == {"ID": 1, "EMAIL": None} and "NAME" not in u.before
    env = envelope(u)
    assert env["mysqlddl"]["present"] == {"before": ["ID", "EMAIL"], "after": ["ID", "EMAIL"]}


@pytest.mark.parametrize("scenario", sorted(s for s in OPS if s != "boolean-type"))
def test_values_equal_logminer(shared_path, scenario):
    """Values equal LogMiner's (see tests/olr/logminer.py for the two differences of the reference
    that are undone first); the only other differences are OLR's documented lossy printing, each
    checked within its tolerance by ``logminer.compare``."""
    d = shared_path / PREBUILT / scenario
    recs, folded = logminer.fold_lob_writes(logminer.load(d / "logminer-reference.json"))
    assert folded == (6 if scenario == "lob-operations" else 0)
    changes, _ = _read(d / "output.json")
    rows = [c for c in changes if isinstance(c, RowChange)]
    pairs, ours, theirs = logminer.pair(rows, recs)
    assert not ours and not theirs
    verdicts = Counter()
    for row, rec in pairs:
        for side in ("before", "after"):
            a, b = getattr(row, side) or {}, rec.get(side) or {}
            for col in set(a) & set(b):
                v = logminer.compare(a[col], b[col])
                assert v != "different", (side, col, a[col], b[col])
                verdicts[v] += 1
    assert verdicts["equal"] > 0


def test_logminer_totals(shared_path):
    """The measured figures: 2257 values compared on 20 scenarios, 2227 equal; the rest are
    BINARY_FLOAT/DOUBLE at 6 significant digits (9), timestamps printed to the second by the fork's
    format.timestamp 7 (18), and 3 where the reference is the one that lost data (2 line breaks
    shown as spaces, 1 LOB written out of line shown as EMPTY_CLOB())."""
    verdicts = Counter()
    for d in sorted((shared_path / PREBUILT).glob("*/logminer-reference.json")):
        recs, _ = logminer.fold_lob_writes(logminer.load(d))
        rows = [c for c in _read(d.parent / "output.json")[0] if isinstance(c, RowChange)]
        for row, rec in logminer.pair(rows, recs)[0]:
            for side in ("before", "after"):
                a, b = getattr(row, side) or {}, rec.get(side) or {}
                verdicts.update(logminer.compare(a[c], b[c]) for c in set(a) & set(b))
    assert dict(verdicts) == {"equal": 2227, "second": 18, "float6": 9, "lm_newline": 2, "lm_lob_unlogged": 1}


def test_binary_double_tolerance_is_six_digits():
    # data-types: OLR 2.71828, LogMiner 2.7182818284590451E+000; 1e+100 vs 1.0E+100 is exact
    assert logminer.compare(Decimal("2.71828"), "2.7182818284590451E+000") == "float6"
    assert logminer.compare(Decimal("2.71829"), "2.7182818284590451E+000") == "different"
    assert logminer.compare(Decimal("1e+100"), "1.0E+100") == "equal"
    # timestamp-variants: 23:59:59.999 printed as the next second (rounded), within 0.5 s
    assert logminer.compare("1798761600", "31-DEC-26 11.59.59.999 PM") == "second"
    assert logminer.compare("1798761601", "31-DEC-26 11.59.59.999 PM") == "different"


def test_fixture_example(shared_path):
    d = shared_path / "corpora/olr-json/rophy-olr-fork-fixture"
    changes, r = _read(d / "output.json")
    (row,) = [c for c in changes if isinstance(c, RowChange)]
    (rec,) = logminer.load(d / "logminer-reference.json")
    assert row.after == {"ID": 1, "NAME": "hello world"}
    assert all(logminer.compare(row.after[k], v) == "equal" for k, v in rec["after"].items())
    assert (row.source.scn, row.source.c_scn, row.source.c_idx) == (0x229a3b, 2267707, 2)


def test_synchdb_dml_typed_by_schema_columns(shared_path):
    changes, r = _read(shared_path / "corpora/olr-json/synchdb-docs/dml_payload.json", Options())
    (row,) = [c for c in changes if isinstance(c, RowChange)]
    assert row.typing == "columns" and not row.flags
    assert row.after == {"ORDER_NUMBER": Decimal(10013), "ORDER_DATE": datetime.datetime(2024, 1, 1),
                         "PURCHASER": Decimal(1003), "QUANTITY": Decimal(2), "PRODUCT_ID": Decimal(107)}
    s = row.source
    assert (s.scn, s.c_scn, s.c_idx, s.xid, s.db, s.owner, s.table, s.rid, s.ts_ms) == (
        3531590, 3531691, 2, "0x0007.01a.000004a1", "FREE", "DBZUSER", "ORDERS", "AAAR6+AAFAAAACGAAA",
        1752686342000)
    env = envelope(row)
    assert env["after"]["ORDER_DATE"] == "2024-01-01T00:00:00" and env["after"]["ORDER_NUMBER"] == "10013"
    # no begin message in this excerpt: the row opens its transaction, which is still open at the end
    assert r.stats.open_transactions == 1


def test_olr_doc_examples(shared_path):
    """format_examples.jsonl: line 3 is invalid JSON as published (negative test); lenient reading
    skips it and types line 4 by the columns line 2 sent (format.schema 0x0001: once per table)."""
    p = shared_path / "corpora/olr-json/olr-docs/format_examples.jsonl"
    with pytest.raises(OlrJsonError) as ei:
        list(OlrReader([p], Options(olr_time_unit="ms")))
    assert (ei.value.line, ei.value.document) == (3, 2)
    r = OlrReader([p], Options(olr_time_unit="ms", error_policy="skip"))
    rows = [c for c in r if isinstance(c, RowChange)]
    assert r.stats.skipped == 1 and [e.line for e in r.errors] == [3]
    assert [c.typing for c in rows] == ["none", "columns", "columns"]
    assert rows[1].after["C"] == Decimal("10.22") and rows[1].after["D"] == "xx2       "
    assert rows[1].after["F"] == datetime.datetime(2019, 8, 1, 12, 34, 56)   # 1564662896000 ms
    assert rows[0].after["F"] == 1564662896000 and "after.F" in rows[0].flags["untyped"]
