"""``dataType`` -> :class:`~mysqlddl.model.spec.DataTypeSpec` (MySQL 8.4 manual ch. 13 "Data Types").

The listener records what was written; synonyms (BOOL, INTEGER, DEC, SERIAL, LONG VARCHAR...),
implied lengths and charset inheritance are the model's job (:mod:`mysqlddl.model.resolve`).
The type's spelling is its keyword tokens joined by single spaces (``DOUBLE PRECISION``,
``NATIONAL CHAR VARYING``), whatever the alternative of the grammar rule.

Attributes written after string types (manual 13.3.1 "String Data Type Syntax"): ``BINARY`` is the
binary-collation attribute; ``ASCII`` is shorthand for ``CHARACTER SET latin1`` and ``UNICODE`` for
``CHARACTER SET ucs2``; ``CHAR BYTE`` is the BINARY *type* (not the attribute, which keeps a
character type), so ``BYTE`` turns the spelling into ``BINARY``.
"""

from __future__ import annotations

from antlr4.tree.Tree import TerminalNode

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...model.spec import DataTypeSpec
from .source import StatementSource

# Attribute keyword -> charset it stands for (manual 13.3.1).
_CHARSET_SHORTHANDS = {"ASCII": "latin1", "UNICODE": "ucs2"}


def _int(node) -> int:
    return int(node.getText())


def data_type_spec(ctx: P.DataTypeContext, src: StatementSource) -> DataTypeSpec:
    """The type as written. CHARACTER SET / COLLATE are column attributes in the grammar: the
    column listener adds them (:func:`mysqlddl.ddl.mysql.column_definition.column_spec`)."""
    words: list[str] = []
    length = scale = None
    unsigned = zerofill = binary = False
    charset = None
    values: list[str] = []
    for child in ctx.getChildren():
        if isinstance(child, TerminalNode):
            t = child.getSymbol().type
            if t in (P.LPAREN, P.RPAREN, P.COMMA):
                continue
            words.append(child.getText().upper())
        elif isinstance(child, P.FieldLengthContext):
            length = _int(child.DECIMAL_LITERAL())
        elif isinstance(child, P.PrecisionContext):
            nums = child.DECIMAL_LITERAL()
            if nums:
                length = _int(nums[0])
                scale = _int(nums[1]) if len(nums) > 1 else None
            else:
                # FLOAT(7.4): the server reads a decimal number as a length and keeps its integer
                # part (sql_yacc field_length accepts DECIMAL_NUM; checked on MariaDB 10.11).
                length = int(child.REAL_LITERAL().getText().split(".")[0] or 0)
        elif isinstance(child, P.NumericAttributeContext):
            w = child.getText().upper()
            unsigned |= w == "UNSIGNED"
            zerofill |= w == "ZEROFILL"
        elif isinstance(child, P.StringAttributeContext):
            w = child.getText().upper()
            if w == "BINARY":
                binary = True
            elif w == "BYTE":
                words = ["BINARY"]
            else:
                charset = _CHARSET_SHORTHANDS[w]
        elif isinstance(child, P.TextLiteralContext):
            values.append(src.text_of(child))
    return DataTypeSpec(" ".join(words), length, scale, unsigned=unsigned, zerofill=zerofill,
                        binary=binary, charset=charset, values=tuple(values), text=src.text_of(ctx))
