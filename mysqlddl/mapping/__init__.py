"""Object mapping: renames, type overrides, transforms, include/exclude (see :mod:`.rules`)."""

from .rules import VALUE_MARK, ColumnRule, ColumnTarget, Mapping, Pattern, TableRule

__all__ = ["VALUE_MARK", "ColumnRule", "ColumnTarget", "Mapping", "Pattern", "TableRule"]
