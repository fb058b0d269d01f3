"""Syntax-check whole inputs (``mysqlddl parse``, tools/conformance): every statement of every
``.sql`` script or ``.jsonl`` row, with a summary and one positioned record per rejection."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import ConfigError, MysqlddlError, ScriptEncodingError, ScriptError
from ..options import DEFAULT, Options
from ..textfiles import sql_text
from .frontend import frontend_for
from .parse_engine import ParseEngine


def _scripts_of(path: Path, encoding: str | None = None) -> Iterator[tuple[int | None, str | MysqlddlError]]:
    """(row number or None, script) for a .sql file or a .jsonl file with a "sql" field per row; a
    row that is not such an object comes as its error, so the rows after it are still checked. A
    .sql file is read in ``encoding``, else as its BOM or opening SET NAMES says, else UTF-8
    (:func:`mysqlddl.textfiles.sql_text`); bytes that are not text in it come as the error."""
    if path.suffix == ".jsonl":
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as e:
                    yield n, ConfigError(f"not a JSON object ({e})")
                    continue
                if not isinstance(row, dict) or not isinstance(row.get("sql"), str):
                    yield n, ConfigError("row has no string field \"sql\"")
                    continue
                yield n, row["sql"]
    else:
        try:
            yield None, sql_text(path.read_bytes(), encoding=encoding, label=str(path))
        except ScriptEncodingError as e:
            yield None, e


def check_inputs(paths: Iterable[str | Path], options: Options = DEFAULT, *, compound_bodies: bool = False,
                 on_rejection: Callable[[dict], None] | None = None,
                 engine: ParseEngine | None = None, encoding: str | None = None) -> dict:
    """Syntax-check every statement of every input (``.sql`` script or ``.jsonl`` rows with a
    ``"sql"`` script) and return the summary: ``total``, ``accepted``, ``rejected``, ``fallbacks``
    and ``rejections`` (one dict per rejected statement with input, row, statement_index (0-based),
    line/column in its script, token, expected, message and the statement text).
    ``on_rejection`` is called with each rejection as it is found; ``encoding``: the .sql scripts'
    (default: as each one's BOM or opening SET NAMES says, else UTF-8)."""
    fe = frontend_for(options)
    eng = engine or fe.engine(options)
    total = accepted = 0
    rejections: list[dict] = []

    def reject(rec: dict) -> None:
        rejections.append(rec)
        if on_rejection is not None:
            on_rejection(rec)

    before = eng.fallbacks
    for p in paths:
        path = Path(p)
        for row, script in _scripts_of(path, encoding):
            if isinstance(script, ScriptEncodingError):
                total += 1
                reject({"input": str(path), "row": row, "statement_index": None, "line": script.line,
                        "column": script.column, "token": None, "expected": None, "message": script.message,
                        "errors": 1, "sql": None})
                continue
            if isinstance(script, ConfigError):
                total += 1
                reject({"input": str(path), "row": row, "statement_index": None, "line": 1, "column": 0,
                        "token": None, "expected": None, "message": str(script), "errors": 1, "sql": None})
                continue
            try:
                for stmt in fe.split_script(script, options, source=str(path), compound_bodies=compound_bodies):
                    total += 1
                    res = eng.parse(stmt.text, options, statement_index=stmt.index, source=str(path))
                    if res.ok:
                        accepted += 1
                        continue
                    err = res.errors[0]
                    line = stmt.line + (err.line or 1) - 1
                    col = (err.column or 0) + (stmt.column if (err.line or 1) == 1 else 0)
                    reject({"input": str(path), "row": row, "statement_index": stmt.index, "line": line,
                            "column": col, "token": err.token, "expected": err.expected,
                            "message": err.message, "errors": len(res.errors), "sql": stmt.text})
            except ScriptError as e:
                total += 1
                reject({"input": str(path), "row": row, "statement_index": e.statement_index, "line": e.line,
                        "column": e.column, "token": None, "expected": None, "message": e.message,
                        "errors": 1, "sql": e.statement})
    return {"total": total, "accepted": accepted, "rejected": len(rejections),
            "fallbacks": eng.fallbacks - before, "rejections": rejections}


def format_rejection(rec: dict) -> str:
    """One line per rejection: where, the offending token and what was expected."""
    where = rec["input"] + (f":row {rec['row']}" if rec.get("row") is not None else "")
    idx = rec.get("statement_index")
    stmt = f"statement {idx + 1}" if idx is not None else "script"
    return f"{where}: {stmt}: line {rec['line']}:{rec['column']}: {rec['message']}"


__all__ = ["check_inputs", "format_rejection"]
