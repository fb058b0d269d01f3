"""The MySQL/MariaDB parse engine: :class:`~mysqlddl.ddl.parse_engine.ParseEngine` (one lexer and
one parser reused, two-stage SLL-then-LL prediction, every syntax error collected) on the
generated ``MySqlLexer``/``MySqlParser``.

Tokens come from :class:`lexing.FastTokenizer` (MySqlLexer's exact tokens from C regular
expressions; the generated lexer when it declines or with ``fast_lexer=False``), after
:mod:`.lexing` has prepared the text for the server version and sql_mode; the parser reads them
through a dense stream without whitespace and comment tokens.

Measured with tools/bench_ddl.py on the 1,173 MariaDB-accepted oracle statements (2 shared cores,
CPython 3.11): about 2,700 statements/s per core warm, 0.12 s cold (import + first statement).
"""

from __future__ import annotations

from antlr4 import CommonTokenStream, InputStream

from ..._generated.mysql.MySqlLexer import MySqlLexer
from ..._generated.mysql.MySqlParser import MySqlParser
from ...options import DEFAULT, Options
from ..parse_engine import DenseTokenStream, FastParser, ParseEngine, TokenNames
from . import lexing

# Token types that make up the parser's `identifier` rule, folded into one word in "expected".
_IDENT_TYPES = frozenset(
    t for t in range(1, len(MySqlParser.symbolicNames))
    if MySqlParser.symbolicNames[t] in ("ID", "BACKTICK_ID", "DQ_IDENT")
)


def _keyword_identifier_types() -> frozenset[int]:
    # The alternatives of keywordAsIdentifier, read from the ATN so grammar and code cannot drift.
    atn = MySqlParser.atn
    start = atn.ruleToStartState[MySqlParser.RULE_keywordAsIdentifier]
    types: set[int] = set()
    for t in atn.nextTokens(start):
        types.add(t)
    return frozenset(types)


KEYWORD_IDENT_TYPES = _keyword_identifier_types()


def _keyword_types() -> frozenset[int]:
    # Every token whose literal is a word ('SELECT', 'INT1', ...): the lexer's keyword rules.
    out = set()
    for t, lit in enumerate(MySqlParser.literalNames):  # the lexer's list is not indexed by type
        if len(lit) > 2 and lit[0] == "'" and lit[1:-1].replace("_", "").isalnum() and lit[1].isalpha():
            out.add(t)
    return frozenset(out)


KEYWORD_TYPES = _keyword_types()

MYSQL_TOKEN_NAMES = TokenNames(MySqlParser, _IDENT_TYPES | KEYWORD_IDENT_TYPES)
describe_expected = MYSQL_TOKEN_NAMES.describe


_FAST_TOKENIZER: lexing.FastTokenizer | None = None


def fast_tokenizer() -> lexing.FastTokenizer:
    """The one regex tokenizer of MySqlLexer's tokens (built on first use; it holds no state
    between statements, so the engines and the classifier share it)."""
    global _FAST_TOKENIZER
    if _FAST_TOKENIZER is None:
        _FAST_TOKENIZER = lexing.FastTokenizer(MySqlLexer, MySqlParser)
    return _FAST_TOKENIZER


class FastMySqlParser(FastParser, MySqlParser):
    """The generated parser with the engine's lean bookkeeping (parse_engine.FastParser, which
    needs the DenseTokenStream this engine always gives the parser)."""


class Engine(ParseEngine):
    """The MySQL/MariaDB engine."""

    dialect = "mysql"
    lexer_class = MySqlLexer
    parser_class = FastMySqlParser
    token_names = MYSQL_TOKEN_NAMES

    def __init__(self, options: Options = DEFAULT, *, fast_lexer: bool = True):
        super().__init__(options)
        # The regex tokenizer produces MySqlLexer's exact tokens at a fraction of the cost
        # (lexing.FastTokenizer); fast_lexer=False always runs the generated ANTLR lexer.
        self._fast = fast_tokenizer() if fast_lexer else None

    def tokenize(self, sql: str, options: Options | None = None, *, hidden: bool = True) -> CommonTokenStream:
        """The filtered token stream of ``sql``, positions in ``sql``; ``hidden=False`` leaves out
        whitespace and comments (the parser's view)."""
        options = options or self.options
        prepared = lexing.prepare_text(sql, options)
        source = (self.lexer, lexing.TextSource(prepared))
        toks = self._fast.tokens(prepared, source, hidden) if self._fast else None
        if toks is None:
            self.lexer.inputStream = InputStream(prepared)
            full = CommonTokenStream(self.lexer)
            full.fill()
            toks = full.tokens
            if not hidden:
                toks = [t for t in toks if t.channel == 0]
                for i, t in enumerate(toks):
                    t.tokenIndex = i
        lexing.retype_tokens(toks, options, MySqlLexer.DQ_STRING, MySqlLexer.DQ_IDENT)
        lexing.restore_texts(toks, sql, prepared)
        if "." in sql:
            lexing.retype_qualified_keywords(toks, MySqlLexer.DOT, MySqlLexer.ID, KEYWORD_TYPES)
        if not hidden:
            return DenseTokenStream(self.lexer, toks)
        stream = CommonTokenStream(self.lexer)
        stream.tokens = toks
        stream.fetchedEOF = True
        return stream
