"""Grammar conformance over the shared MySQL corpora (issue 3).

Two measurements, both written to one JSON report (default: conformance-report.json):

1. **Oracle**: ``corpora/mysql/ddl-subset.mariadb-labeled.jsonl``, 1,339 distinct model-relevant
   DDL rows labelled by MariaDB 10.11's own parser. Every row labelled ``ok`` (and ``other:NNNN``,
   which is a non-syntax error such as "table does not exist", so the syntax was accepted) must be
   accepted. ``syntax`` rows are MySQL-only syntax, ANSI_QUOTES, or corpus artefacts: their accept
   count is reported, not required.
2. **Corpus**: every ``.sql``/``.ddl`` file under ``corpora/mysql`` (Debezium's DDL test inputs and
   the grammars-v4 MySQL/MariaDB examples), split like the ``mysql`` client would, plus the lenient
   ``compound_bodies`` mode (routine files there are written for whole-file parsers and define
   BEGIN...END bodies without DELIMITER). Statements listed in the reviewed exclusion file
   (``tests/ddl/corpus_exclusions.jsonl``: invalid for both servers, each with its reason) are
   counted separately.

Each rejection records its first syntax error (line:column, offending token, expected tokens).

    python tools/conformance.py [--shared DIR] [--report FILE] [--write-baseline] [--list-rejections]

``--write-baseline`` stores the accepted counts in ``tests/ddl/corpus_baseline.json``; the corpus
test fails when a later run accepts fewer.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared"
EXCLUSIONS = ROOT / "tests" / "ddl" / "corpus_exclusions.jsonl"
BASELINE = ROOT / "tests" / "ddl" / "corpus_baseline.json"
ORACLE_NAME = "ddl-subset.mariadb-labeled.jsonl"


def statement_key(rel_path: str, line: int, text: str) -> str:
    """Identity of a corpus statement in the exclusion file: file, start line, text digest."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
    return f"{rel_path}:{line}:{digest}"


def load_exclusions(path: Path = EXCLUSIONS) -> dict[str, str]:
    """key -> reason. Every row must carry a non-empty reason."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if not row.get("reason"):
            raise ValueError(f"{path}:{n}: exclusion without a reason")
        out[row["key"]] = row["reason"]
    return out


def corpus_files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".sql", ".ddl"))


def run_oracle(corpus: Path, engine) -> dict:
    """Parse each labelled row (one script per row) and compare with MariaDB's label."""
    from mysqlddl.ddl import split_script
    from mysqlddl.errors import ScriptError

    rows = [json.loads(x) for x in (corpus / ORACLE_NAME).read_text(encoding="utf-8").splitlines() if x.strip()]
    must_total = must_ok = syntax_total = syntax_ok = 0
    failures = []
    for i, row in enumerate(rows):
        label = row["mariadb"]
        first = None
        try:
            for stmt in split_script(row["sql"]):
                res = engine.parse(stmt.text)
                if not res.ok:
                    e = res.errors[0]
                    first = {"line": stmt.line + e.line - 1, "column": e.column, "token": e.token,
                             "expected": e.expected, "message": e.message}
                    break
        except ScriptError as e:
            first = {"line": e.line, "column": e.column, "token": None, "expected": None, "message": e.message}
        accepted = first is None
        if label == "syntax":
            syntax_total += 1
            syntax_ok += accepted
        else:
            must_total += 1
            must_ok += accepted
            if not accepted:
                failures.append({"row": i + 1, "label": label, "sql": row["sql"], **first})
    return {"rows": len(rows), "must_accept": must_total, "must_accepted": must_ok,
            "syntax_rows": syntax_total, "syntax_rows_accepted": syntax_ok, "failures": failures}


def run_corpus(corpus: Path, engine, exclusions: dict[str, str]) -> dict:
    from mysqlddl.ddl import split_script
    from mysqlddl.errors import ScriptError

    total = accepted = excluded = excluded_accepted = 0
    rejections = []
    per_file = {}
    # The corpora hold the same example files in several places (grammars-v4 and Debezium's copy
    # of it): identical statement text has an identical outcome, so each text is parsed once.
    outcomes: dict[str, object] = {}
    for path in corpus_files(corpus):
        rel = str(path.relative_to(corpus))
        text = path.read_text(encoding="utf-8", errors="replace")
        f_total = f_ok = 0
        try:
            stmts = list(split_script(text, compound_bodies=True))
        except ScriptError as e:
            rejections.append({"file": rel, "line": e.line, "column": e.column, "message": e.message,
                               "key": statement_key(rel, e.line or 0, ""), "sql": ""})
            continue
        for stmt in stmts:
            key = statement_key(rel, stmt.line, stmt.text)
            res = outcomes.get(stmt.text)
            if res is None:
                res = outcomes[stmt.text] = engine.parse(stmt.text)
            if key in exclusions:
                excluded += 1
                excluded_accepted += res.ok
                continue
            total += 1
            f_total += 1
            if res.ok:
                accepted += 1
                f_ok += 1
            else:
                e = res.errors[0]
                rejections.append({
                    "file": rel, "line": stmt.line + e.line - 1,
                    "column": e.column + (stmt.column if e.line == 1 else 0),
                    "token": e.token, "expected": e.expected, "message": e.message, "key": key,
                    "sql": stmt.text,
                })
        per_file[rel] = {"total": f_total, "accepted": f_ok}
    return {"files": len(per_file), "total": total, "accepted": accepted, "excluded": excluded,
            "excluded_but_accepted": excluded_accepted, "rejections": rejections, "per_file": per_file}


def run(shared: Path) -> dict:
    from mysqlddl.ddl import Engine

    corpus = shared / "corpora" / "mysql"
    engine = Engine()
    t0 = time.process_time()
    oracle = run_oracle(corpus, engine)
    t1 = time.process_time()
    corpus_result = run_corpus(corpus, engine, load_exclusions())
    t2 = time.process_time()
    return {"oracle": oracle, "corpus": corpus_result, "fallbacks": engine.fallbacks,
            "statements": engine.statements,
            "cpu_seconds": {"oracle": round(t1 - t0, 2), "corpus": round(t2 - t1, 2)}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared directory (../shared)")
    ap.add_argument("--report", type=Path, default=Path("conformance-report.json"))
    ap.add_argument("--write-baseline", action="store_true", help=f"store the accepted counts in {BASELINE}")
    ap.add_argument("--list-rejections", action="store_true", help="print every corpus rejection")
    ap.add_argument("--dialect", choices=("mysql", "oracle"), default="mysql",
                    help="oracle: the Oracle corpora (tools/conformance_oracle.py)")
    args = ap.parse_args(argv)
    if args.dialect == "oracle":
        sys.path.insert(0, str(ROOT / "tools"))
        import conformance_oracle

        return conformance_oracle.main(args)
    result = run(args.shared)
    args.report.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    o, c = result["oracle"], result["corpus"]
    print(f"oracle: {o['must_accepted']}/{o['must_accept']} MariaDB-accepted rows accepted "
          f"({100 * o['must_accepted'] / max(1, o['must_accept']):.2f}%); "
          f"{o['syntax_rows_accepted']}/{o['syntax_rows']} MariaDB-rejected rows accepted (MySQL-only syntax)")
    print(f"corpus: {c['accepted']}/{c['total']} statements accepted "
          f"({100 * c['accepted'] / max(1, c['total']):.2f}%) in {c['files']} files; "
          f"{c['excluded']} excluded (reviewed, invalid for both servers)")
    print(f"SLL->LL fallbacks: {result['fallbacks']} over {result['statements']} parses; "
          f"cpu {result['cpu_seconds']}")
    for f in o["failures"]:
        print(f"ORACLE row {f['row']} ({f['label']}): line {f['line']}:{f['column']}: {f['message']}")
    if args.list_rejections:
        for r in c["rejections"]:
            print(f"{r['file']}:{r['line']}:{r['column']}: {r['message'][:160]}  [{r['key']}]")
    if args.write_baseline:
        BASELINE.write_text(json.dumps({
            "oracle_must_accept": o["must_accept"], "oracle_must_accepted": o["must_accepted"],
            "corpus_total": c["total"], "corpus_accepted": c["accepted"], "corpus_excluded": c["excluded"],
        }, indent=1) + "\n", encoding="utf-8")
        print(f"baseline written to {BASELINE}")
    return 0 if not o["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
