"""The statement a tree came from (Oracle): the MySQL :class:`~mysqlddl.ddl.mysql.source.
StatementSource` without text preparation (Oracle text is lexed as given), plus the dialect rules."""

from __future__ import annotations

import dataclasses

from ...model.dialects import DialectRules, rules_for
from ..mysql.source import StatementSource as _Source


@dataclasses.dataclass(slots=True)
class StatementSource(_Source):
    @property
    def prepared(self) -> str:
        return self.text

    @property
    def rules(self) -> DialectRules:
        return rules_for(self.options)

    def inner_text(self, paren_group) -> str:
        """The text inside a ``parenGroup`` (without its outer parentheses), stripped."""
        return self.text_of(paren_group)[1:-1].strip()
