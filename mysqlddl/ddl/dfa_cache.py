"""A prediction cache (the parser's DFA) built once, at build time, and loaded by every process.

Why: ANTLR's adaptive prediction memoizes what it learns in a DFA per decision, kept on the
generated parser class. A fresh process starts with empty DFAs, so its first pass over DDL runs
the full ATN simulation at nearly every decision: measured with ``tools/bench_ddl.py``, about 480
statements/s on the first pass against 2,300/s warm (shared/ANTLR-NOTES.md: "the first pass over
diverse input costs 25-164 ms per statement while the DFA fills up"). Most users parse a DDL file
or a binlog's DDL once, so the first pass is what they feel.

What is stored: for every decision, the DFA states with their edges, accept flags, predictions and
configuration sets, and the prediction contexts (graph-shaped call stacks) the configurations
point at, as plain tuples of ints written with :mod:`marshal`. Loading rebuilds the runtime's own
objects through their constructors: the runtime caches hash codes inside its objects and some of
them hash strings, which are salted per process (``PYTHONHASHSEED``), so pickled objects would
carry stale hashes and break the context merges that compare them.

A DFA is a memo of the ATN simulation: any state it holds is one the simulation would compute
again for the same input, so a loaded cache changes how fast a statement parses, never how. Only a
cache made from the very same ATN is valid: the file carries the grammar stamp
(``generated/STAMP.json``: grammar hashes + ANTLR version) and the serialized ATN's hash, and a
mismatch leaves the DFAs empty (``load`` returns False), so a regenerated parser never uses a stale
cache.

The cache file is written by ``tools/grammar_build.py`` after generating the parser, from the
project's own DDL (``grammars/mysql/warmup/*.sql``), and shipped in the wheel beside the parser.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from pathlib import Path

from antlr4.atn.ATNConfig import ATNConfig
from antlr4.atn.ATNConfigSet import ATNConfigSet
from antlr4.atn.SemanticContext import AND, OR, PrecedencePredicate, Predicate, SemanticContext
from antlr4.dfa.DFAState import DFAState, PredPrediction
from antlr4.PredictionContext import ArrayPredictionContext, PredictionContext, SingletonPredictionContext

FORMAT = 1
#: The cache's file name, beside the generated parser module (tools/grammar_build.py DFA_CACHE_NAME).
CACHE_NAME = "dfa.bin"


def _generated_module(parser_class):
    """The generated module behind ``parser_class`` (which may be a subclass of the generated
    parser, e.g. with :class:`~mysqlddl.ddl.parse_engine.FastParser` mixed in)."""
    for klass in parser_class.__mro__:
        module = sys.modules.get(klass.__module__)
        if module is not None and hasattr(module, "serializedATN"):
            return module
    raise TypeError(f"{parser_class.__name__} is not a generated ANTLR parser")


def atn_digest(parser_class) -> str:
    """The hash of the parser's serialized ATN (the generated module's ``serializedATN()``): the
    cache is only valid for exactly this ATN."""
    atn = _generated_module(parser_class).serializedATN()
    return hashlib.sha256(repr(list(atn)).encode()).hexdigest()


# -- writing ------------------------------------------------------------------------------------------

class _Tables:
    """Interns contexts and semantic contexts as small integer ids (0: EMPTY / NONE)."""

    def __init__(self):
        self.ctx_ids: dict[int, int] = {id(PredictionContext.EMPTY): 0}
        self.ctxs: list = [None]
        self.sem_ids: dict[int, int] = {id(SemanticContext.NONE): 0}
        self.sems: list = [None]

    def ctx(self, c) -> int:
        if c is None:
            return -1
        got = self.ctx_ids.get(id(c))
        if got is not None:
            return got
        if isinstance(c, SingletonPredictionContext):
            row = (1, (self.ctx(c.parentCtx),), (c.returnState,))
        elif isinstance(c, ArrayPredictionContext):
            row = (2, tuple(self.ctx(p) for p in c.parents), tuple(c.returnStates))
        else:
            raise TypeError(f"unexpected prediction context {type(c).__name__}")
        self.ctx_ids[id(c)] = len(self.ctxs)
        self.ctxs.append(row)
        return len(self.ctxs) - 1

    def sem(self, s) -> int:
        got = self.sem_ids.get(id(s))
        if got is not None:
            return got
        if type(s) is Predicate:
            row = (1, s.ruleIndex, s.predIndex, int(s.isCtxDependent))
        elif type(s) is PrecedencePredicate:
            row = (2, s.precedence)
        elif type(s) in (AND, OR):
            row = (3 if type(s) is AND else 4, tuple(self.sem(o) for o in s.opnds))
        else:
            raise TypeError(f"unexpected semantic context {type(s).__name__}")
        self.sem_ids[id(s)] = len(self.sems)
        self.sems.append(row)
        return len(self.sems) - 1


def _configs_row(tables: _Tables, cs: ATNConfigSet) -> tuple:
    configs = tuple((c.state.stateNumber, c.alt, tables.ctx(c.context), tables.sem(c.semanticContext),
                     c.reachesIntoOuterContext, int(c.precedenceFilterSuppressed)) for c in cs.configs)
    conflicting = None if cs.conflictingAlts is None else tuple(sorted(cs.conflictingAlts))
    return (configs, int(cs.fullCtx), cs.uniqueAlt, conflicting, int(cs.hasSemanticContext),
            int(cs.dipsIntoOuterContext))


def dumps(parser_class, stamp: str, warmup_digest: str = "") -> bytes:
    """The DFAs of ``parser_class`` (as filled by parsing in this process), serialized; ``stamp``
    is the grammar stamp's text (:func:`installed_stamp`), ``warmup_digest`` names the corpus that
    filled them (the build rebuilds the cache when either changes)."""
    tables = _Tables()
    decisions = []
    for dfa in parser_class.decisionsToDFA:
        states = list(dfa._states)
        if dfa.precedenceDfa and dfa.s0 is not None:
            states.append(dfa.s0)
        if not states:
            continue
        index = {id(s): i for i, s in enumerate(states)}
        rows = []
        for s in states:
            edges = None if s.edges is None else tuple(-1 if e is None else index.get(id(e), -1) for e in s.edges)
            preds = None if s.predicates is None else tuple((tables.sem(p.pred), p.alt) for p in s.predicates)
            rows.append((s.stateNumber, _configs_row(tables, s.configs), edges, int(s.isAcceptState),
                         s.prediction, int(s.requiresFullContext), preds))
        s0 = -1 if dfa.s0 is None else index[id(dfa.s0)]
        # Each decision's states are marshalled on their own, so a process builds only the
        # decisions its statements reach (building all of them costs ~0.15 s).
        decisions.append((dfa.decision, len(rows), marshal.dumps((s0, tuple(rows)))))
    payload = (FORMAT, stamp, atn_digest(parser_class), warmup_digest, tuple(tables.ctxs), tuple(tables.sems),
               tuple(decisions))
    return marshal.dumps(payload)


def dump(parser_class, path: str | Path, stamp: str, warmup_digest: str = "") -> int:
    """Write the cache file; returns the number of DFA states written (a precedence DFA's start
    state, kept outside its states, not counted)."""
    Path(path).write_bytes(dumps(parser_class, stamp, warmup_digest))
    return states_held(parser_class)


def states_held(parser_class) -> int:
    """The DFA states ``parser_class`` holds now (a decision the cache has not filled yet counts as
    empty: this never fills one)."""
    dfas = parser_class.decisionsToDFA
    return sum(len(list.__getitem__(dfas, i)._states) for i in range(len(dfas)))


# -- loading ------------------------------------------------------------------------------------------

class _Builder:
    """Rebuilds the runtime's objects from the cache's rows, contexts and semantic contexts on
    first use (a decision's states reach only part of them)."""

    def __init__(self, parser_class, ctx_rows, sem_rows):
        self.atn_states = parser_class.atn.states
        self.cache = parser_class.sharedContextCache
        self.ctx_rows = ctx_rows
        self.sem_rows = sem_rows
        self.ctxs: dict[int, object] = {0: PredictionContext.EMPTY, -1: None}
        self.sems: dict[int, object] = {0: SemanticContext.NONE}

    def ctx(self, i: int):
        got = self.ctxs.get(i)
        if got is not None or i == -1:
            return got
        # Iterative post-order: context graphs can be deeper than Python's recursion limit.
        stack = [i]
        while stack:
            j = stack[-1]
            if j in self.ctxs:
                stack.pop()
                continue
            kind, parents, returns = self.ctx_rows[j]
            todo = [p for p in parents if p not in self.ctxs]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            ps = [self.ctxs[p] for p in parents]
            c = (SingletonPredictionContext.create(ps[0], returns[0]) if kind == 1
                 else ArrayPredictionContext(ps, list(returns)))
            self.ctxs[j] = self.cache.add(c)
        return self.ctxs[i]

    def sem(self, i: int):
        got = self.sems.get(i)
        if got is not None:
            return got
        row = self.sem_rows[i]
        kind = row[0]
        if kind == 1:
            got = Predicate(row[1], row[2], bool(row[3]))
        elif kind == 2:
            got = PrecedencePredicate(row[1])
        else:
            # AND/OR keep their operands in a list made from a set (its order follows this
            # process's hashes), so they are built the way the runtime builds them, pairwise.
            make = AND if kind == 3 else OR
            ops = [self.sem(o) for o in row[1]]
            got = ops[0]
            for o in ops[1:]:
                got = make(got, o)
        self.sems[i] = got
        return got

    def fill(self, dfa, blob: bytes) -> None:
        s0, rows = marshal.loads(blob)
        atn_states, ctx, sem = self.atn_states, self.ctx, self.sem
        built = []
        for number, crow, _edges, accept, prediction, full, preds in rows:
            configs, full_ctx, unique, conflicting, has_sem, dips = crow
            cs = ATNConfigSet(bool(full_ctx))
            for st, alt, c_id, sem_id, reach, suppressed in configs:
                c = ATNConfig(atn_states[st], alt, ctx(c_id), sem(sem_id))
                c.reachesIntoOuterContext = reach
                c.precedenceFilterSuppressed = bool(suppressed)
                cs.configs.append(c)
            cs.uniqueAlt = unique
            cs.conflictingAlts = None if conflicting is None else set(conflicting)
            cs.hasSemanticContext = bool(has_sem)
            cs.dipsIntoOuterContext = bool(dips)
            cs.readonly = True
            cs.configLookup = None
            s = DFAState(number, cs)
            s.isAcceptState = bool(accept)
            s.prediction = prediction
            s.requiresFullContext = bool(full)
            s.predicates = None if preds is None else [PredPrediction(sem(sp), alt) for sp, alt in preds]
            built.append(s)
        for s, row in zip(built, rows, strict=True):
            if row[2] is not None:
                s.edges = [None if e < 0 else built[e] for e in row[2]]
        for i, s in enumerate(built):
            if dfa.precedenceDfa and i == s0:
                continue          # a precedence DFA's start state is not one of its states
            dfa._states[s] = s
        if s0 >= 0:
            dfa.s0 = built[s0]


class _LazyDFAs(list):
    """The parser class's ``decisionsToDFA`` list, filling a decision's DFA from the cache the
    first time the simulator asks for it (``ParserATNSimulator.adaptivePredict`` indexes it)."""

    def __init__(self, dfas, builder: _Builder, pending: dict[int, bytes]):
        super().__init__(dfas)
        self._builder = builder
        self._pending = pending

    def __getitem__(self, i):
        dfa = list.__getitem__(self, i)
        if self._pending:
            blob = self._pending.pop(i, None)
            if blob is not None:
                self._builder.fill(dfa, blob)
        return dfa

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def load(parser_class, path: str | Path, stamp: str) -> bool:
    """Install the cache file at ``path`` into ``parser_class``'s (empty) DFAs, each decision
    filled on first use.

    Returns False, changing nothing, when the file is unreadable or was made for another grammar,
    ANTLR version or ATN, or when the DFAs already hold states (a cache never overwrites what
    this process learnt). Call it before the first parser of the class is made: a parser keeps
    the list it found."""
    p = Path(path)
    if not p.is_file():
        return False
    try:
        fmt, file_stamp, digest, _warmup, ctx_rows, sem_rows, decisions = marshal.loads(p.read_bytes())
    except (ValueError, EOFError, TypeError):
        return False
    if fmt != FORMAT or file_stamp != stamp or digest != atn_digest(parser_class):
        return False
    if states_held(parser_class):
        return False
    dfas = parser_class.decisionsToDFA
    pending = {decision: blob for decision, _n, blob in decisions}
    # Installed on the generated class itself, so every subclass and every parser made from it
    # sees the one list.
    owner = next(k for k in parser_class.__mro__ if "decisionsToDFA" in k.__dict__)
    owner.decisionsToDFA = _LazyDFAs(dfas, _Builder(parser_class, ctx_rows, sem_rows), pending)
    return True


#: Per generated parser class name: what :func:`ensure_loaded` found ("loaded", "missing", "stale",
#: "disabled", "skipped": the DFAs were no longer empty).
STATUS: dict[str, str] = {}


def installed_stamp(parser_class) -> str | None:
    """The text of the STAMP.json beside the generated package of ``parser_class``."""
    stamp = Path(_generated_module(parser_class).__file__).parent.parent / "STAMP.json"
    try:
        return json.dumps(json.loads(stamp.read_text()), sort_keys=True)
    except (OSError, ValueError):
        return None


def ensure_loaded(parser_class) -> str:
    """Load the shipped cache into ``parser_class`` once per process (the first engine of a
    dialect calls it); ``MYSQLDDL_DFA_CACHE=0`` turns it off (the benchmark's cold comparison, the
    build that makes the cache). Returns the :data:`STATUS` entry."""
    name = _generated_module(parser_class).__name__.rsplit(".", 1)[-1]
    done = STATUS.get(name)
    if done is not None:
        return done
    path = Path(_generated_module(parser_class).__file__).parent / CACHE_NAME
    stamp = installed_stamp(parser_class)
    if os.environ.get("MYSQLDDL_DFA_CACHE", "1") == "0":
        status = "disabled"
    elif not path.is_file() or stamp is None:
        status = "missing"
    elif states_held(parser_class):
        status = "skipped"
    else:
        status = "loaded" if load(parser_class, path, stamp) else "stale"
    STATUS[name] = status
    return status


__all__ = ["CACHE_NAME", "STATUS", "atn_digest", "dump", "dumps", "ensure_loaded", "installed_stamp", "load",
           "states_held"]
