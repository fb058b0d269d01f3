"""The Oracle parse engine: one statement in, a parse tree or positioned syntax errors out.

The same contract and speed measures as the MySQL :class:`mysqlddl.ddl.engine.Engine`
(shared/ANTLR-NOTES.md): one lexer and one parser reused for every statement, the prediction
DFA kept warm on the generated classes, two-stage prediction (SLL with
:class:`BailErrorStrategy`, then full LL with recovery and our collecting error listener only
when SLL fails; ``fallbacks`` counts it), a dense token stream without hidden tokens. Oracle
text needs no preparation (no versioned comments, no sql_mode), so token offsets are offsets in
the statement as given.
"""

from __future__ import annotations

from antlr4 import CommonTokenStream, InputStream
from antlr4.atn.PredictionMode import PredictionMode
from antlr4.error.ErrorListener import ErrorListener
from antlr4.error.Errors import ParseCancellationException
from antlr4.error.ErrorStrategy import BailErrorStrategy, DefaultErrorStrategy
from antlr4.Token import Token

from ..._generated.oracle.OracleLexer import OracleLexer
from ..._generated.oracle.OracleParser import OracleParser
from ...errors import DdlSyntaxError
from ...options import DEFAULT, Options
from ..engine import ParseResult, _DenseTokenStream, _interval_types, token_display

_P = OracleParser


def _rule_tokens(rule_index: int) -> frozenset[int]:
    atn = _P.atn
    return frozenset(atn.nextTokens(atn.ruleToStartState[rule_index]))


# Token types that make up `identifier`, folded into one word in "expected" lists.
_IDENT_TYPES = _rule_tokens(_P.RULE_identifier)


def describe_expected(types, limit: int | None = None) -> str:
    """A readable summary of an expected-token set: keywords and symbols by name, every token
    that can be an identifier folded into ``identifier``; at most ``limit`` names."""
    names: list[str] = []
    has_ident = False
    for t in sorted(types):
        if t in _IDENT_TYPES:
            has_ident = True
            continue
        if t == Token.EOF:
            names.append("<EOF>")
            continue
        lit = _P.literalNames[t] if t < len(_P.literalNames) else "<INVALID>"
        if lit != "<INVALID>":
            names.append(lit)
        elif t < len(_P.symbolicNames):
            names.append(_P.symbolicNames[t])
    if has_ident:
        names.insert(0, "identifier")
    if limit is not None and len(names) > limit:
        names = names[:limit] + [f"... ({len(names) - limit} more)"]
    return ", ".join(names)


class _CollectingErrorListener(ErrorListener):
    def __init__(self):
        self.errors: list[DdlSyntaxError] = []
        self.statement = self.statement_index = self.source = None

    def reset(self, statement: str, statement_index: int | None, source: str | None) -> None:
        self.errors = []
        self.statement, self.statement_index, self.source = statement, statement_index, source

    def syntaxError(self, recognizer, offendingSymbol, line, column, msg, e):
        expected = short = None
        try:
            intervals = e.getExpectedTokens() if e is not None and e.getExpectedTokens() is not None \
                else recognizer.getExpectedTokens()
            types = _interval_types(intervals)
            expected, short = describe_expected(types), describe_expected(types, 15)
        except Exception:  # noqa: BLE001 - expected tokens are a courtesy, the error stands
            pass
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


class OracleEngine:
    """Parses Oracle statements one at a time, reusing one lexer and one parser. Not
    thread-safe: one engine per thread (the DFA cache is shared anyway)."""

    dialect = "oracle"

    def __init__(self, options: Options = DEFAULT):
        self.options = options
        self.lexer = OracleLexer(InputStream(""))
        self.lexer.removeErrorListeners()
        self.parser = OracleParser(CommonTokenStream(self.lexer))
        self.parser.removeErrorListeners()
        self._listener = _CollectingErrorListener()
        self._bail = BailErrorStrategy()
        self._recover = DefaultErrorStrategy()
        self.statements = 0
        self.fallbacks = 0

    def tokenize(self, sql: str, options: Options | None = None, *, hidden: bool = True) -> CommonTokenStream:
        """The token stream of ``sql``; ``hidden=False`` leaves out whitespace and comments (the
        parser's view)."""
        self.lexer.inputStream = InputStream(sql)
        full = CommonTokenStream(self.lexer)
        full.fill()
        toks = full.tokens
        if hidden:
            return full
        dense = [t for t in toks if t.channel == Token.DEFAULT_CHANNEL]
        for i, t in enumerate(dense):
            t.tokenIndex = i
        return _DenseTokenStream(self.lexer, dense)

    def parse(self, sql: str, options: Options | None = None, *, statement_index: int | None = None,
              source: str | None = None) -> ParseResult:
        """Parse one statement (an optional trailing ``;`` is allowed). Never raises on bad SQL:
        the errors are in the result."""
        stream = self.tokenize(sql, options, hidden=False)
        parser = self.parser
        self.statements += 1
        parser.setTokenStream(stream)
        parser._errHandler = self._bail
        parser._interp.predictionMode = PredictionMode.SLL
        try:
            return ParseResult(sql, parser.singleStatement(), [], False, stream)
        except ParseCancellationException:
            pass
        self.fallbacks += 1
        stream.seek(0)
        parser.setTokenStream(stream)
        parser._errHandler = self._recover
        parser._interp.predictionMode = PredictionMode.LL
        self._listener.reset(sql, statement_index, source)
        parser.addErrorListener(self._listener)
        try:
            tree = parser.singleStatement()
        finally:
            parser.removeErrorListener(self._listener)
        errors = self._listener.errors
        return ParseResult(sql, None if errors else tree, errors, True, stream)
