"""The Oracle parse engine: one statement in, a parse tree or positioned syntax errors out.

The contract, the reuse of one lexer and parser and the two-stage prediction come from
:class:`mysqlddl.ddl.parse_engine.ParseEngine` (shared/ANTLR-NOTES.md); this module names Oracle's
generated classes and says how its text becomes the parser's dense token stream. Oracle
text needs no preparation (no versioned comments, no sql_mode), so token offsets are offsets in
the statement as given.
"""

from __future__ import annotations

from antlr4 import CommonTokenStream, InputStream
from antlr4.Token import Token

from ..._generated.oracle.OracleLexer import OracleLexer
from ..._generated.oracle.OracleParser import OracleParser
from ...options import Options
from ..parse_engine import DenseTokenStream, ParseEngine, TokenNames


def _rule_tokens(rule_index: int) -> frozenset[int]:
    atn = OracleParser.atn
    return frozenset(atn.nextTokens(atn.ruleToStartState[rule_index]))


# The tokens that can start `identifier` (read from the ATN, so grammar and code cannot drift)
# are folded into one word in "expected" lists.
ORACLE_TOKEN_NAMES = TokenNames(OracleParser, _rule_tokens(OracleParser.RULE_identifier))
describe_expected = ORACLE_TOKEN_NAMES.describe


class OracleEngine(ParseEngine):
    """Parses Oracle statements one at a time, reusing one lexer and one parser. Not
    thread-safe: one engine per thread (the DFA cache is shared anyway)."""

    dialect = "oracle"
    lexer_class = OracleLexer
    parser_class = OracleParser
    token_names = ORACLE_TOKEN_NAMES

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
        return DenseTokenStream(self.lexer, dense)
