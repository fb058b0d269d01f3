"""``tableProperties`` -> table options and partitioning (SQL Ref. "CREATE TABLE":
physical_properties, table_properties, table_partitioning_clauses).

The grammar keeps everything after the relational properties as one balanced token run; here it
is cut into options at the words that start a clause (:data:`LEADERS`), each becoming a
(NAME, value text) pair: ``TABLESPACE users`` -> ("TABLESPACE", "users"), ``ENABLE ROW MOVEMENT``
-> ("ENABLE ROW MOVEMENT", ""), ``PARTITION BY RANGE (d) (...)`` -> ("PARTITION BY",
"RANGE (d) (...)") and a :class:`~mysqlddl.model.table.Partitioning` summary. Words not in
the table continue the current option.
"""

from __future__ import annotations

import re

from ..._generated.oracle.OracleParser import OracleParser as P
from ...model.table import Partitioning
from .source import StatementSource

# Clause-starting word -> how many words make the option's name.
LEADERS: dict[str, int] = {
    "TABLESPACE": 1, "PCTFREE": 1, "PCTUSED": 1, "INITRANS": 1, "MAXTRANS": 1, "STORAGE": 1,
    "LOGGING": 1, "NOLOGGING": 1, "FILESYSTEM_LIKE_LOGGING": 1, "COMPRESS": 1, "NOCOMPRESS": 1,
    "CACHE": 1, "NOCACHE": 1, "PARALLEL": 1, "NOPARALLEL": 1, "MONITORING": 1, "NOMONITORING": 1,
    "ROWDEPENDENCIES": 1, "NOROWDEPENDENCIES": 1, "RESULT_CACHE": 1, "INMEMORY": 1, "ILM": 1,
    "LOB": 1, "VARRAY": 1, "NESTED": 2, "XMLTYPE": 1, "CLUSTER": 1, "EXTERNAL": 1,
    "ORGANIZATION": 2, "PARTITION": 2, "SEGMENT": 2, "ON": 2, "DEFAULT": 2, "ENABLE": 3,
    "DISABLE": 3, "ROW": 2, "NO": 2, "READ": 2, "FLASHBACK": 2, "MEMOPTIMIZE": 3, "CLUSTERING": 1,
    "SHARDING": 1, "PARENT": 1, "COLUMN": 1, "INDEXING": 1, "USAGE": 1, "SUPPLEMENTAL": 2,
    "OVERFLOW": 1, "MAPPING": 1, "PCTTHRESHOLD": 1, "INCLUDING": 1, "FOR": 3, "NO_DROP": 1,
    "NO_DELETE": 1, "HASHING": 1, "VERSION": 1, "BUFFER_POOL": 1, "DEFAULT_COLLATION": 1,
}

_PARTITION_NAME = re.compile(r'(?i)(?:^|[\s(,])PARTITION\s+("[^"]+"|[A-Za-z][\w$#]*)')


def _pieces(ctx: P.TablePropertiesContext):
    """(upper-case word or None, start offset, stop offset) of each top-level element."""
    for child in ctx.getChildren():
        pg = child.parenGroup() if isinstance(child, P.TablePropertyTokenContext) else None
        if pg is not None:
            yield None, pg.start.start, pg.stop.stop
            continue
        tok = child.start
        text = tok.text
        word = text.upper() if text[:1].isalpha() and tok.type != P.QUOTED_ID else None
        yield word, tok.start, child.stop.stop


def table_options(ctx: P.TablePropertiesContext | None, src: StatementSource):
    """(options, partitioning or None)."""
    if ctx is None or ctx.start is None or ctx.getChildCount() == 0:
        return (), None
    opts: list[list] = []  # [name words, first value offset or None, last offset]
    pending_name = 0
    for word, start, stop in _pieces(ctx):
        if pending_name and word is not None:
            opts[-1][0].append(word)
            opts[-1][2] = stop
            pending_name -= 1
            continue
        pending_name = 0
        if word is not None and word in LEADERS or not opts:
            opts.append([[word or src.span(start, stop)], None, stop])
            pending_name = LEADERS.get(word, 1) - 1
            continue
        if opts[-1][1] is None:
            opts[-1][1] = start
        opts[-1][2] = stop
    out = []
    partitioning = None
    for words, vstart, vstop in opts:
        nm = " ".join(words)
        value = src.span(vstart, vstop).strip() if vstart is not None else ""
        out.append((nm, value))
        if nm == "PARTITION BY" and partitioning is None:
            partitioning = _partitioning(value)
    return tuple(out), partitioning


def _partitioning(value: str) -> Partitioning:
    """A summary of PARTITION BY: method words, the first parenthesised expression, the names of
    the partitions listed."""
    head, _, rest = value.partition("(")
    method = " ".join(head.split()).upper() or value.upper()
    expr = None
    if rest:
        depth, i = 1, 0
        while i < len(rest) and depth:
            depth += {"(": 1, ")": -1}.get(rest[i], 0)
            i += 1
        expr = rest[:i - 1].strip()
        rest = rest[i:]
    names = tuple(m.group(1).strip('"') if m.group(1).startswith('"') else m.group(1).upper()
                  for m in _PARTITION_NAME.finditer(rest))
    return Partitioning(method, expr, None, names)
