"""Grammar conformance of the Oracle dialect (issue 8), run by ``tools/conformance.py --dialect oracle``.

Three measurements over ``<shared>/corpora/oracle``, written to one JSON report:

1. **synchdb** (must-pass): every statement of ``synchdb/statements.jsonl`` parses.
2. **table DDL** (issue target >= 95%): the CREATE/ALTER/DROP/TRUNCATE TABLE and COMMENT ON
   statements of the Debezium corpus (``ddl-parser-examples/**`` .sql/.pks/.pkb files,
   ``connector-tests/*.sql`` and the rows of ``connector-tests/statements.jsonl``) and of the
   grammars-v4 PL/SQL examples (``examples/**``, ``more-examples/**``). Files are split with the
   Oracle splitter (SQL*Plus rules: ``/`` lines, PL/SQL units, SQL*Plus commands); a statement is
   table DDL when its first tokens say so (our lexer, not a regular expression). The corpora hold
   the same example files twice (Debezium copied grammars-v4's), so statements are counted once
   per distinct text (whitespace collapsed); per-corpus figures are reported too. Nothing is
   excluded: Debezium's Java-extracted rows include String.format templates (``%s``) and
   truncated concatenations, which are invalid SQL and count as rejections.
3. **all statements**: every statement of those files (indexes, views, grants, PL/SQL, ...), which
   must be recognised (``otherStatement``) or parsed.

Each rejection records its first syntax error (line:column, offending token, expected tokens).
The number of SLL->LL fallbacks on accepted statements is reported (it should be 0).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path


def table_ddl_kind(engine, text: str) -> str | None:
    """The statement's table-DDL kind from its first tokens (:mod:`mysqlddl.ddl.oracle.classify`)."""
    from mysqlddl.ddl.oracle.classify import table_ddl_kind as kind

    return kind(text, engine)


def corpus_statements(corpus: Path) -> Iterator[tuple[str, str, object]]:
    """(group, input, statement) for every statement of the Debezium and grammars-v4 inputs."""
    from mysqlddl.ddl.oracle import split_script

    groups = (("debezium", corpus / "debezium"), ("grammars-v4", corpus / "grammars-v4-plsql"))
    for group, root in groups:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            rel = str(path.relative_to(corpus))
            if path.suffix.lower() in (".sql", ".pks", ".pkb"):
                for st in split_script(path.read_text(encoding="utf-8", errors="replace")):
                    yield group, rel, st
            elif path.name == "statements.jsonl" and group == "debezium":
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if line.strip():
                        for st in split_script(json.loads(line)["text"]):
                            yield group, f"{rel}:row {n}", st


def _first_error(res, st) -> dict:
    e = res.errors[0]
    return {"line": st.line + (e.line or 1) - 1, "column": (e.column or 0) + (st.column if (e.line or 1) == 1 else 0),
            "token": e.token, "expected": e.expected, "message": e.message}


def run(shared: Path) -> dict:
    from mysqlddl.ddl.oracle import OracleEngine, split_script

    corpus = shared / "corpora" / "oracle"
    engine = OracleEngine()
    t0 = time.process_time()
    # 1. synchdb
    syn_total = syn_ok = 0
    syn_failures = []
    for n, line in enumerate((corpus / "synchdb" / "statements.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        for st in split_script(json.loads(line)["text"]):
            syn_total += 1
            res = engine.parse(st.text)
            if res.ok:
                syn_ok += 1
            else:
                syn_failures.append({"row": n, "sql": st.text, **_first_error(res, st)})
    # 2. and 3.
    outcomes: dict[str, tuple[bool, bool]] = {}  # text -> (ok, needed the LL fallback)
    per_group: dict[str, dict] = {}
    distinct: dict[str, dict] = {}
    all_total = all_ok = 0
    by_kind: dict[str, list[int]] = {}
    for group, rel, st in corpus_statements(corpus):
        key = " ".join(st.text.split())
        if key not in outcomes:
            before = engine.fallbacks
            res = engine.parse(st.text)
            outcomes[key] = (res.ok, engine.fallbacks > before)
            kind = table_ddl_kind(engine, st.text)
            if kind is not None:
                distinct[key] = {"kind": kind, "ok": res.ok, "fallback": res.ok and engine.fallbacks > before,
                                 "input": rel, "sql": st.text, **({} if res.ok else _first_error(res, st))}
        ok = outcomes[key][0]
        all_total += 1
        all_ok += ok
        if key in distinct:
            g = per_group.setdefault(group, {"statements": 0, "accepted": 0, "distinct": set()})
            g["statements"] += 1
            g["accepted"] += ok
            g["distinct"].add(key)
    for rec in distinct.values():
        k = by_kind.setdefault(rec["kind"], [0, 0])
        k[0] += 1
        k[1] += rec["ok"]
    accepted = sum(r["ok"] for r in distinct.values())
    groups = {}
    for name, g in per_group.items():
        d = g.pop("distinct")
        groups[name] = {**g, "distinct": len(d), "distinct_accepted": sum(distinct[k]["ok"] for k in d)}
    return {
        "synchdb": {"total": syn_total, "accepted": syn_ok, "failures": syn_failures},
        "table_ddl": {"distinct": len(distinct), "accepted": accepted,
                      "rate": round(accepted / max(1, len(distinct)), 4), "by_kind": by_kind,
                      "groups": groups, "fallbacks_on_accepted": sum(r["fallback"] for r in distinct.values()),
                      "rejections": [r for r in distinct.values() if not r["ok"]]},
        "all_statements": {"total": all_total, "accepted": all_ok},
        "fallbacks": engine.fallbacks, "parses": engine.statements,
        "cpu_seconds": round(time.process_time() - t0, 2),
    }


def main(args) -> int:
    """``args``: the parsed arguments of tools/conformance.py (shared, report, list_rejections)."""
    result = run(args.shared)
    report = args.report if args.report != Path("conformance-report.json") else Path("conformance-oracle-report.json")
    report.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    s, t, a = result["synchdb"], result["table_ddl"], result["all_statements"]
    print(f"synchdb: {s['accepted']}/{s['total']} statements accepted")
    print(f"table DDL (Debezium + grammars-v4, distinct texts): {t['accepted']}/{t['distinct']} accepted "
          f"({100 * t['rate']:.1f}%); SLL->LL fallbacks on accepted statements: {t['fallbacks_on_accepted']}")
    for kind, (n, ok) in sorted(t["by_kind"].items()):
        print(f"  {kind}: {ok}/{n}")
    for name, g in sorted(t["groups"].items()):
        print(f"  {name}: {g['distinct_accepted']}/{g['distinct']} distinct "
              f"({g['accepted']}/{g['statements']} with repeats)")
    print(f"all statements of those inputs (recognised or parsed): {a['accepted']}/{a['total']}; "
          f"cpu {result['cpu_seconds']} s, {result['parses']} parses, {result['fallbacks']} fallbacks")
    for f in s["failures"]:
        print(f"SYNCHDB row {f['row']}: line {f['line']}:{f['column']}: {f['message']}")
    rej = t["rejections"] if args.list_rejections else t["rejections"][:10]
    for r in rej:
        print(f"{r['input']}:{r['line']}:{r['column']}: {r['message'][:160]}")
    if not args.list_rejections and len(t["rejections"]) > 10:
        print(f"... {len(t['rejections']) - 10} more (--list-rejections)")
    print(f"report written to {report}")
    return 0 if not s["failures"] and t["rate"] >= 0.95 else 1
