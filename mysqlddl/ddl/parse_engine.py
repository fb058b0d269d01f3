"""What every dialect's parse engine shares: one statement in, a parse tree or positioned syntax
errors out.

Speed measures (shared/ANTLR-NOTES.md):

- one lexer and one parser per engine, reused for every statement; the prediction DFA lives on
  the generated classes, so it stays warm across statements and engines;
- two-stage prediction: first SLL with :class:`BailErrorStrategy` (fast, stops at the first
  problem); only when that fails, the statement is parsed again with full LL and the normal
  recovering strategy, so every syntax error of the statement is collected with its position.
  The number of SLL->LL fallbacks is counted (``ParseEngine.fallbacks``); on valid input it
  should be 0;
- the console error listeners are removed; ours collects :class:`DdlSyntaxError` objects;
- the parser reads a :class:`DenseTokenStream`: every token on the default channel, fetched.

A dialect's engine (:class:`mysqlddl.ddl.mysql.engine.Engine`,
:class:`mysqlddl.ddl.oracle.engine.OracleEngine`) names its generated classes and token names and
says how its text becomes tokens.
"""

from __future__ import annotations

import dataclasses
import gc
import sys
import threading
from typing import ClassVar

from antlr4 import CommonTokenStream, InputStream, ParserRuleContext
from antlr4.atn.ParserATNSimulator import ParserATNSimulator
from antlr4.atn.PredictionMode import PredictionMode
from antlr4.error.ErrorListener import ErrorListener
from antlr4.error.Errors import IllegalStateException, ParseCancellationException
from antlr4.error.ErrorStrategy import BailErrorStrategy, DefaultErrorStrategy
from antlr4.Token import Token
from antlr4.tree.Tree import TerminalNodeImpl

from ..errors import DdlSyntaxError
from ..options import DEFAULT, Options
from . import dfa_cache


class TokenNames:
    """How one generated parser's token types read in an "expected ..." list: keywords and
    symbols by their literal, every token that can be an identifier folded into one word
    ``identifier`` (a list of 300 keywords would bury the useful alternatives)."""

    __slots__ = ("parser_class", "ident_types")

    def __init__(self, parser_class, ident_types: frozenset[int]):
        self.parser_class = parser_class
        self.ident_types = ident_types

    def describe(self, types, limit: int | None = None) -> str:
        """A readable summary of ``types``; at most ``limit`` names."""
        lits, syms = self.parser_class.literalNames, self.parser_class.symbolicNames
        names: list[str] = []
        has_ident = False
        for t in sorted(types):
            if t in self.ident_types:
                has_ident = True
                continue
            if t == Token.EOF:
                names.append("<EOF>")
                continue
            lit = lits[t] if t < len(lits) else "<INVALID>"
            if lit != "<INVALID>":
                names.append(lit)
            elif t < len(syms):
                names.append(syms[t])
        if has_ident:
            names.insert(0, "identifier")
        if limit is not None and len(names) > limit:
            names = names[:limit] + [f"... ({len(names) - limit} more)"]
        return ", ".join(names)


def token_display(token) -> str:
    if token is None:
        return "<unknown>"
    if token.type == Token.EOF:
        return "<EOF>"
    text = token.text
    return text if len(text) <= 40 else text[:37] + "..."


class _CollectingErrorListener(ErrorListener):
    def __init__(self, names: TokenNames):
        self.names = names
        self.errors: list[DdlSyntaxError] = []
        self.statement: str | None = None
        self.statement_index: int | None = None
        self.source: str | None = None

    def reset(self, statement: str, statement_index: int | None, source: str | None) -> None:
        self.errors = []
        self.statement = statement
        self.statement_index = statement_index
        self.source = source

    def syntaxError(self, recognizer, offendingSymbol, line, column, msg, e):
        expected = short = None
        try:
            if e is not None and e.getExpectedTokens() is not None:
                types = _interval_types(e.getExpectedTokens())
            else:
                types = _interval_types(recognizer.getExpectedTokens())
            expected, short = self.names.describe(types), self.names.describe(types, 15)
        except Exception:  # noqa: BLE001 - expected tokens are a courtesy, the error stands
            expected = short = None
        tok = token_display(offendingSymbol)
        offset = offendingSymbol.start if offendingSymbol is not None and offendingSymbol.start >= 0 else None
        if offendingSymbol is not None and offendingSymbol.type == Token.EOF:
            message = "unexpected end of statement"
        else:
            message = f"unexpected {tok!r}"
        if short:
            message += f", expected {short}"
        self.errors.append(DdlSyntaxError(
            message, line=line, column=column, offset=offset, statement=self.statement,
            statement_index=self.statement_index, source=self.source, token=tok, expected=expected,
        ))


def _interval_types(intervals) -> list[int]:
    out: list[int] = []
    if intervals is None or intervals.intervals is None:
        return out
    for r in intervals.intervals:
        out.extend(r)
    return out


@dataclasses.dataclass(slots=True)
class ParseResult:
    """The outcome of parsing one statement.

    ``tree`` is the ``singleStatement`` context (``None`` when there were syntax errors);
    ``errors`` every syntax error found (empty when the statement is valid); ``fallback`` whether
    the statement needed the second, full-LL stage; ``tokens`` the parser's token stream
    (default channel only: no whitespace or comments; token character offsets refer to ``text``,
    the original statement, whose length the lexer's prepared copy keeps).
    """

    text: str
    tree: ParserRuleContext | None
    errors: list[DdlSyntaxError]
    fallback: bool
    tokens: CommonTokenStream | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    def error(self) -> DdlSyntaxError:
        """One error carrying all of them (``.errors``); only valid when not ``ok``."""
        first = self.errors[0]
        if len(self.errors) > 1:
            first.errors = list(self.errors)
        return first


class DenseTokenStream(CommonTokenStream):
    """The parser's token stream when every token is on the default channel and fetched (EOF
    last): LT/LA/consume/seek index the list directly instead of skipping hidden tokens."""

    def __init__(self, source, tokens: list):
        super().__init__(source)
        self.tokens = tokens
        self.fetchedEOF = True
        self.index = 0

    def LT(self, k: int):
        if k == 1:  # by far the most frequent call; index never passes EOF (see consume)
            return self.tokens[self.index]
        if k > 0:
            i = self.index + k - 1
            toks = self.tokens
            return toks[i] if i < len(toks) else toks[-1]
        if k == 0:
            return None
        i = self.index + k
        return self.tokens[i] if i >= 0 else None

    def LA(self, i: int) -> int:
        if i == 1:
            return self.tokens[self.index].type
        return self.LT(i).type

    def LB(self, k: int):
        return self.LT(-k)

    def consume(self) -> None:
        if self.index >= len(self.tokens) - 1:
            raise IllegalStateException("cannot consume EOF")
        self.index += 1

    def seek(self, index: int) -> None:
        self.index = index


class _Terminal(TerminalNodeImpl):
    """A token's parse-tree node, without the runtime's pass-through ``__setattr__`` (a Python
    call per attribute on ~130,000 nodes a pass over the conformance DDL)."""

    __slots__ = ()
    __setattr__ = object.__setattr__


class FastSimulator(ParserATNSimulator):
    """Adaptive prediction that walks an existing DFA path itself.

    In SLL mode, ``execATN`` follows DFA edges until an accept state and returns its prediction;
    only a missing edge, the error state or a state with predicates needs the ATN. This walks the
    edges over the dense token list (no stream mark/seek, no per-step method calls) and hands any
    other case, from the start, to the runtime's ``adaptivePredict``, which then does exactly
    what it would have done (nothing was consumed or changed). Warm, nearly every prediction is
    a walk (ANTLR-NOTES.md: a DFA hit is what warm parsing is made of)."""

    def adaptivePredict(self, input, decision: int, outerContext):
        if self.predictionMode is PredictionMode.SLL:
            dfa = self.decisionToDFA[decision]
            s = dfa.getPrecedenceStartState(self.parser.getPrecedence()) if dfa.precedenceDfa else dfa.s0
            if s is not None:
                tokens, i, error = input.tokens, input.index, self.ERROR
                while True:
                    edges = s.edges
                    t = tokens[i].type
                    if edges is None or t + 1 >= len(edges):
                        break
                    s = edges[t + 1]
                    if s is None or s is error:
                        break
                    if s.isAcceptState:
                        if s.predicates is None:
                            return s.prediction
                        break
                    if t != Token.EOF:
                        i += 1
        return super().adaptivePredict(input, decision, outerContext)


class FastParser:
    """Mixed in before a generated parser class (``class P(FastParser, GeneratedParser)``): the
    runtime's per-token and per-rule bookkeeping without what our engines never use.

    Our engines build parse trees, never attach parse listeners, and in stage 1 use the bail
    strategy, which has no error-recovery state to keep. Under those conditions the runtime's
    ``consume``/``match``/``enterRule``/``exitRule``/``enterOuterAlt`` and the ``state`` property
    do work whose outcome is fixed, and as Python calls they were ~30% of a warm parse (profiled
    with tools/bench_ddl.py's statements). Stage 2 (``fast = False``, the recovering strategy)
    runs the runtime's own ``match`` and ``consume``, so error nodes and recovery are untouched.

    ``state`` is assigned before nearly every element by the generated code; the runtime keeps it
    in a slot behind a property. Here it is a plain instance attribute, and ``_stateNumber`` (which
    the recovering strategy reads directly) a property over it, so both names stay one value.
    """

    state = -1
    fast = False

    def __init__(self, input, output=sys.stdout):
        super().__init__(input, output)
        self._interp = FastSimulator(self, self.atn, self.decisionsToDFA, self.sharedContextCache)

    @property
    def _stateNumber(self):
        return self.state

    @_stateNumber.setter
    def _stateNumber(self, value):
        self.state = value

    def consume(self):
        if not self.fast:
            return super().consume()
        stream = self._input
        o = stream.tokens[stream.index]
        if o.type != Token.EOF:
            stream.index += 1
        node = _Terminal(o)
        ctx = self._ctx
        node.parentCtx = ctx
        children = ctx.children
        if children is None:
            ctx.children = [node]
        else:
            children.append(node)
        return o

    def match(self, ttype: int):
        stream = self._input
        if not self.fast or stream.tokens[stream.index].type != ttype:
            return super().match(ttype)     # (in stage 1 the bail strategy raises with the position)
        return self.consume()

    def enterRule(self, localctx, state: int, ruleIndex: int):
        self.state = state
        self._ctx = localctx
        stream = self._input
        localctx.start = stream.tokens[stream.index]
        parent = localctx.parentCtx
        if parent is not None:
            children = parent.children
            if children is None:
                parent.children = [localctx]
            else:
                children.append(localctx)

    def exitRule(self):
        ctx = self._ctx
        stream = self._input
        ctx.stop = stream.tokens[stream.index - 1] if stream.index > 0 else None
        self.state = ctx.invokingState
        self._ctx = ctx.parentCtx

    def enterOuterAlt(self, localctx, altNum: int):
        ctx = self._ctx
        if ctx is not localctx:
            parent = ctx.parentCtx
            if parent is not None:
                # a labelled alternative replaces the generic context entered first
                parent.children[-1] = localctx
        self._ctx = localctx


# Each thread's engines, one per engine class (ParseEngine.for_this_thread).
_THREAD = threading.local()


class ParseEngine:
    """What every dialect's engine shares: one lexer and one parser reused for every statement,
    and :meth:`parse`, the two-stage (SLL, then LL with every error collected) prediction above.
    A dialect names its generated classes and token names and says how text becomes tokens
    (:meth:`tokenize`). Not thread-safe: use one engine per thread (the DFA cache is shared
    between them anyway)."""

    dialect: ClassVar[str]
    lexer_class: ClassVar[type]
    parser_class: ClassVar[type]
    token_names: ClassVar[TokenNames]

    def __init__(self, options: Options = DEFAULT):
        self.options = options
        # The prediction DFAs learnt from the project's own DDL at build time (dfa_cache): without
        # them the first pass over a file runs the ATN simulation at nearly every decision.
        dfa_cache.ensure_loaded(self.parser_class)
        self.lexer = self.lexer_class(InputStream(""))
        self.lexer.removeErrorListeners()
        self.parser = self.parser_class(CommonTokenStream(self.lexer))
        self.parser.removeErrorListeners()
        self._listener = _CollectingErrorListener(self.token_names)
        self._bail = BailErrorStrategy()
        self._recover = DefaultErrorStrategy()
        self.statements = 0
        self.fallbacks = 0

    @classmethod
    def for_this_thread(cls, options: Options = DEFAULT) -> ParseEngine:
        """This thread's engine of this class, made with ``options`` on first use (later calls
        return it as it is: :meth:`parse` takes the options of each statement)."""
        engines = getattr(_THREAD, "engines", None)
        if engines is None:
            engines = _THREAD.engines = {}
        eng = engines.get(cls)
        if eng is None:
            eng = engines[cls] = cls(options)
        return eng

    def tokenize(self, sql: str, options: Options | None = None, *, hidden: bool = True) -> CommonTokenStream:
        raise NotImplementedError

    def parse(self, sql: str, options: Options | None = None, *, statement_index: int | None = None,
              source: str | None = None) -> ParseResult:
        """Parse one statement (an optional trailing ``;`` is allowed). Never raises on bad SQL:
        the errors are in the result."""
        # The cyclic collector is paused for the statement. A parse allocates hundreds of linked
        # objects (tokens, contexts with parent links: cycles), so collections fell mid-parse,
        # found the half-built tree alive and promoted it, and the older generations then
        # traversed the parser's ATN and DFAs again and again: measured, 235 young, 21 middle
        # and 1 full collection per pass over the conformance DDL, ~1/3 of a warm pass. Paused,
        # the collection that follows finds the finished statement's objects already garbage.
        # Only an enabled collector is re-enabled (a caller's gc.disable() is kept).
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._parse(sql, options, statement_index, source)
        finally:
            if paused:
                gc.enable()

    def _parse(self, sql: str, options: Options | None, statement_index: int | None,
               source: str | None) -> ParseResult:
        stream = self.tokenize(sql, options, hidden=False)
        parser = self.parser
        self.statements += 1
        # Stage 1: SLL, bail out at the first error.
        parser.setTokenStream(stream)
        parser._errHandler = self._bail
        parser._interp.predictionMode = PredictionMode.SLL
        parser.fast = True
        try:
            tree = parser.singleStatement()
            return ParseResult(sql, tree, [], False, stream)
        except ParseCancellationException:
            pass
        # Stage 2: full LL with recovery, collecting every error.
        self.fallbacks += 1
        stream.seek(0)
        parser.setTokenStream(stream)
        parser._errHandler = self._recover
        parser._interp.predictionMode = PredictionMode.LL
        parser.fast = False
        self._listener.reset(sql, statement_index, source)
        parser.addErrorListener(self._listener)
        try:
            tree = parser.singleStatement()
        finally:
            parser.removeErrorListener(self._listener)
        errors = self._listener.errors
        return ParseResult(sql, None if errors else tree, errors, True, stream)
