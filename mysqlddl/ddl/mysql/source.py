"""The statement a tree came from: its original text, and positioned errors.

Expression text (DEFAULT (expr), generated columns, CHECK, key parts, view bodies) is cut from the
statement by token character offsets, never rebuilt with ``getText()`` (which drops the whitespace
between tokens: ``a + b`` would become ``a+b`` and ``NOT NULL`` ``NOTNULL``).

The lexer sees a *prepared* copy of the statement (:func:`.lexing.prepare_text`), the same length
as the original: opened versioned-comment markers are blanked to spaces and, under
NO_BACKSLASH_ESCAPES, backslashes inside strings are replaced by a placeholder. :meth:`text` cuts
the prepared copy (so ``/*!50100 ... */`` markers do not leak into expressions) and puts the
original backslashes back.
"""

from __future__ import annotations

import dataclasses

from antlr4 import ParserRuleContext
from antlr4.tree.Tree import TerminalNode

from ...errors import DdlError, DdlSemanticError
from ...options import DEFAULT, Options
from .lexing import BACKSLASH_PLACEHOLDER, prepare_text


@dataclasses.dataclass(slots=True)
class StatementSource:
    """One statement being turned into commands. ``text`` is the statement as given;
    ``statement_index`` and ``source`` label errors (None when unknown)."""

    text: str
    options: Options = DEFAULT
    statement_index: int | None = None
    source: str | None = None
    _prepared: str | None = None

    @property
    def prepared(self) -> str:
        if self._prepared is None:
            self._prepared = prepare_text(self.text, self.options)
        return self._prepared

    def span(self, start: int, stop: int) -> str:
        """Characters ``start..stop`` (inclusive, as ANTLR token offsets) of the statement."""
        if start < 0 or stop < start:
            return ""
        cut = self.prepared[start:stop + 1]
        if BACKSLASH_PLACEHOLDER in cut and self.prepared is not self.text:
            orig = self.text[start:stop + 1]
            cut = "".join(o if p == BACKSLASH_PLACEHOLDER else p for p, o in zip(cut, orig, strict=True))
        return cut

    def text_of(self, ctx) -> str:
        """The source text of a rule context or terminal node, whitespace and comments included
        (stripped at both ends)."""
        if ctx is None:
            return ""
        if isinstance(ctx, TerminalNode):
            tok = ctx.getSymbol()
            return self.span(tok.start, tok.stop)
        start, stop = ctx.start, ctx.stop
        if start is None or stop is None:
            return ""
        return self.span(start.start, stop.stop).strip()

    def text_between(self, first, last) -> str:
        """Source text from the start of ``first`` to the end of ``last`` (contexts or nodes)."""
        a = first.getSymbol() if isinstance(first, TerminalNode) else first.start
        b = last.getSymbol() if isinstance(last, TerminalNode) else last.stop
        return self.span(a.start, b.stop).strip()

    def error(self, ctx, message: str, cls: type[DdlError] = DdlSemanticError) -> DdlError:
        """A positioned error at the start of ``ctx`` (a context, a terminal node or a token)."""
        err = cls(message, statement=self.text, statement_index=self.statement_index, source=self.source)
        return self.position(err, ctx)

    def handler(self, table: dict, ctx, what: str):
        """The handler ``table`` holds for the grammar alternative ``ctx`` is (None: nothing to
        model); an alternative the table does not list is a positioned error, never dropped."""
        h = table.get(type(ctx), False)
        if h is False:
            raise self.error(ctx, f"{what} {self.text_of(ctx)!r} is not handled")
        return h

    def build(self, family: str, builder, node) -> list:
        """Run a statement family's builder on ``node`` with the family isolated (STYLE.md 1): its
        DdlError gets this statement's position, any other exception (a builder bug) becomes a
        positioned error naming the family. Returns the commands as a list (a builder may return
        one command, a sequence, or None for "no schema change")."""
        try:
            out = builder(node, self)
        except DdlError as e:
            raise self.position(e, node) from None
        except Exception as e:  # noqa: BLE001 - isolate the family: a builder bug is a positioned error
            raise self.error(node, f"{family}: cannot build commands: {type(e).__name__}: {e}") from e
        if out is None:
            return []
        return list(out) if isinstance(out, (list, tuple)) else [out]

    def position(self, err: DdlError, ctx) -> DdlError:
        """Fill in whatever position ``err`` lacks from ``ctx`` and this statement."""
        tok = None
        if isinstance(ctx, TerminalNode):
            tok = ctx.getSymbol()
        elif isinstance(ctx, ParserRuleContext):
            tok = ctx.start
        elif ctx is not None and hasattr(ctx, "line"):
            tok = ctx
        if err.line is None and tok is not None:
            err.line, err.column, err.offset = tok.line, tok.column, tok.start
        if err.statement is None:
            err.statement = self.text
        if err.statement_index is None:
            err.statement_index = self.statement_index
        if err.source is None:
            err.source = self.source
        return err
