"""Grammar conformance over ../shared/corpora/mysql (issue 3), using tools/conformance.py:

- the MariaDB-labelled oracle: every row MariaDB 10.11 accepts must be accepted;
- every .sql/.ddl file of the corpus: the accepted count must not fall below the committed
  baseline (tests/ddl/corpus_baseline.json), and every reviewed exclusion must still name a
  statement of the corpus (no stale rows);
- SLL-friendliness (ANTLR-NOTES lesson 3): no accepted statement needs the full-LL fallback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mysqlddl.ddl import Engine

ROOT = Path(__file__).resolve().parents[2]


BASELINE = json.loads((ROOT / "tests" / "ddl" / "corpus_baseline.json").read_text())


class _CountingEngine(Engine):
    """Counts accepted statements that needed the LL stage."""

    def __init__(self):
        super().__init__()
        self.accepted_with_fallback: list[str] = []

    def parse(self, sql, options=None, **kw):
        res = super().parse(sql, options, **kw)
        if res.ok and res.fallback:
            self.accepted_with_fallback.append(sql)
        return res


@pytest.fixture(scope="module")
def conformance(tool):
    return tool("conformance")


@pytest.fixture(scope="module")
def corpus(shared_path, conformance) -> Path:
    path = shared_path / "corpora" / "mysql"
    if not (path / conformance.ORACLE_NAME).exists():
        pytest.fail(f"{path} has no {conformance.ORACLE_NAME}")
    return path


def test_every_mariadb_accepted_oracle_row_is_accepted(corpus, conformance):
    eng = _CountingEngine()
    result = conformance.run_oracle(corpus, eng)
    failures = [f"row {f['row']} ({f['label']}) line {f['line']}:{f['column']}: {f['message'][:120]}"
                for f in result["failures"]]
    assert failures == []
    assert result["must_accepted"] == result["must_accept"] >= BASELINE["oracle_must_accepted"]
    assert eng.accepted_with_fallback == []


def test_corpus_accept_count_holds_the_baseline(corpus, conformance):
    eng = _CountingEngine()
    exclusions = conformance.load_exclusions()
    result = conformance.run_corpus(corpus, eng, exclusions)
    assert result["accepted"] >= BASELINE["corpus_accepted"], (
        f"accepted {result['accepted']} < baseline {BASELINE['corpus_accepted']}; new rejections:\n"
        + "\n".join(f"{r['file']}:{r['line']}:{r['column']}: {r['message'][:120]}" for r in result["rejections"][:20]))
    assert result["excluded"] == len(exclusions), "an exclusion no longer matches a corpus statement"
    assert eng.accepted_with_fallback == []


def test_exclusions_are_reviewed_rows(conformance):
    rows = [json.loads(x) for x in conformance.EXCLUSIONS.read_text().splitlines() if x.strip()]
    assert rows, "the exclusion file is empty"
    assert len({r["key"] for r in rows}) == len(rows)
    for r in rows:
        assert r["reason"].strip() and r["lab"].strip(), r
        path, line, digest = r["key"].rsplit(":", 2)
        assert path.endswith((".sql", ".ddl")) and int(line) > 0 and len(digest) == 12
