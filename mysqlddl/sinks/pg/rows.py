"""Row images -> converted values for the PostgreSQL sink: per target table, the value converters
(:mod:`.values`), a plan per image shape (which columns an image holds, in which order: computed once,
then a row is a tuple of converter calls), and the positions of the key and unique columns in it."""

from __future__ import annotations

from ...errors import SinkError
from .ddl import TargetTable
from .dml import unique_columns
from .types import ValuePolicy
from .values import PolicyCounts, ValueConverter, ValueProblem

_UNKNOWN = object()


def _hashable(v):
    return tuple(v) if isinstance(v, list) else v


class RowConverter:
    """Converts row images of target tables (see the module docstring). Its caches are keyed by
    object ids of TargetTables and plans: :meth:`clear` whenever a table version changes."""

    def __init__(self, policy: ValuePolicy, counts: PolicyCounts, json_text: bool = False):
        self.policy, self.counts, self.json_text = policy, counts, json_text
        self._convs: dict[int, dict] = {}
        self._plans: dict[tuple, tuple] = {}
        self._keypos: dict[int, tuple] = {}          # id(plan cols) -> key positions
        self._uniqpos: dict[tuple, tuple] = {}       # (id(before cols), id(after cols)) -> unique positions

    def clear(self) -> None:
        self._convs.clear()
        self._plans.clear()
        self._keypos.clear()
        self._uniqpos.clear()

    def converters(self, tt: TargetTable) -> dict:
        convs = self._convs.get(id(tt))
        if convs is None:
            convs = {c.name: None for c in tt.source.columns}      # excluded by the mapping: left out
            for c in tt.columns:
                if c.generated is not None:
                    continue        # (the target computes it: PostgreSQL refuses a value for it)
                conv = ValueConverter(c.natural, self.policy, self.counts,
                                      (tt.source_name, c.source.name), c.nullable, self.json_text)
                convs[c.source.name] = (c, conv, c.target.function)
            self._convs[id(tt)] = convs
        return convs

    def image(self, convs: dict, image: dict, where) -> tuple[tuple, tuple]:
        """(target columns, converted values) of a row image. The fast path runs a per-(table,
        image shape) plan of converter functions; a value that needs the policy, or a Python
        transform, takes the slow path."""
        names = tuple(image)
        plan = self._plans.get((id(convs), names))
        if plan is None:
            plan = self._plans[(id(convs), names)] = self._plan(convs, names, where)
        cols, fns, idx = plan
        if fns is not None:
            vals = tuple(image.values())
            try:
                return cols, tuple(None if (v := vals[i]) is None else f(v) for i, f in zip(idx, fns, strict=True))
            except ValueProblem:
                pass
        out = []
        for c in cols:
            _c, conv, fn = convs[c.source.name]
            v = conv(image[c.source.name], where)
            out.append(fn(v) if fn is not None else v)
        return cols, tuple(out)

    @staticmethod
    def _plan(convs: dict, names: tuple, where) -> tuple:
        cols, fns, idx = [], [], []
        for i, name in enumerate(names):
            hit = convs.get(name, _UNKNOWN)
            if hit is None:
                continue
            if hit is _UNKNOWN:
                raise SinkError(f"column {name!r} is not in the table version in force (columns: "
                                f"{', '.join(convs)}): a DDL the sink never saw?", position=where)
            c, conv, fn = hit
            cols.append(c)
            fns.append(conv.fn if fn is None else None)
            idx.append(i)
        return tuple(cols), (None if None in fns else tuple(fns)), tuple(idx)

    def key(self, tt: TargetTable, cols, vals, where=None):
        """The row's key values (None for a keyless table), by positions computed once per image
        shape (``cols`` is a plan's tuple: its id is stable while the plan is cached)."""
        if not tt.key:
            return None
        kp = self._keypos.get(id(cols))
        if kp is None:
            names = [c.name for c in cols]
            missing = [k.source.name for k in tt.key if k.name not in names]
            if missing:
                raise SinkError(f"the row image lacks key column(s) {', '.join(missing)} of {tt.source_name}: "
                                "the row cannot be found (is the source logging the key, e.g. Oracle supplemental "
                                "logging?)", position=where, table=tt.source_name)
            kp = self._keypos[id(cols)] = tuple(names.index(k.name) for k in tt.key)
        return tuple(_hashable(vals[i]) for i in kp)

    def moves_unique(self, tt: TargetTable, bcols, bvals, acols, avals) -> bool:
        """Whether the update changes a primary or unique key column's value."""
        pairs = self._uniqpos.get((id(bcols), id(acols)))
        if pairs is None:
            uniq = unique_columns(tt)
            bnames = [c.name for c in bcols]
            pairs = self._uniqpos[(id(bcols), id(acols))] = tuple(
                (i, bnames.index(c.name)) for i, c in enumerate(acols) if c.name in uniq and c.name in bnames)
        return any(avals[i] != bvals[j] for i, j in pairs)


__all__ = ["RowConverter"]
