"""Row images -> converted values for the PostgreSQL sink: per target table, the value converters
(:mod:`.values`), a plan per image shape (which columns an image holds, in which order: computed once,
then a row is a tuple of converter calls), and the positions of the key and unique columns in it.

Decoded row tuples (a rows event's full images, nothing to retype) skip the image dict: per (table
version, column names) :meth:`RowConverter.tuple_plan` compiles one function that takes the tuple
and returns the converted values, with the common values checked inline (an int in the target's
range, text without NUL or surrogate, bytes, float, date, datetime pass as they are; a plain numeric is not
even looked at) and every other value handed to its converter. It raises ValueProblem where the
converter would: the caller then converts that row through :meth:`RowConverter.image` (the policy).
"""

from __future__ import annotations

import datetime
import re

from ...errors import SinkError
from .ddl import TargetTable
from .dml import unique_columns
from .types import ValuePolicy
from .values import PolicyCounts, ValueConverter, ValueProblem, _plain

_UNKNOWN = object()

# per converter kind: a check under which the value is its own conversion (exactly where the
# converter in values.py returns its argument unchanged), as source text over ``v``
# (text: UTF-8 encodes every code point but a surrogate, so no NUL and no surrogate is _text's check)
_TEXT = "v.__class__ is _str and _NUL not in v and (v.isascii() or _surrogate(v) is None)"
_PASS = {"int": "v.__class__ is _int and {lo} <= v <= {hi}", "text": _TEXT, "enum": _TEXT,
         "bytea": "v.__class__ is _bytes", "float": "v.__class__ is _float", "date": "v.__class__ is _date",
         "timestamp": "v.__class__ is _datetime"}
_NS = {"_int": int, "_str": str, "_bytes": bytes, "_float": float, "_date": datetime.date,
       "_datetime": datetime.datetime, "_NUL": "\x00", "_surrogate": re.compile("[\ud800-\udfff]").search}


def source_table(src) -> tuple[str | None, str | None]:
    """The source table a record's rows belong to, as the target's table versions key it: a binlog
    source's ``(db, table)``; OLR output's ``(owner, table)`` (Oracle's schema is the owner, as the
    schema history names its tables; its ``db`` is the database instance)."""
    return (src.owner, src.table) if src.kind == "olr" else (src.db, src.table)


def source_where(src) -> str:
    """Where a record came from, for a positioned error: ``file:pos`` in a binlog, ``file line N``
    in OLR output."""
    return f"{src.file} line {src.line}" if src.kind == "olr" else f"{src.file}:{src.pos}"


def source_ts(src):
    """A record's source time in seconds (OLR output's to the millisecond), None when unknown."""
    if src.kind == "olr":
        return src.ts_ms / 1000 if src.ts_ms else None
    return src.ts


def commit_source(src) -> tuple[str, int | None]:
    """(source identity, commit time in seconds) for the checkpoint row, from a transaction mark's
    source, for a commit position that carries neither (a BinlogPosition; an OLR position names its
    own kind: :func:`~.state.position_fields`)."""
    if src.kind == "olr":
        return "olr", src.ts or None
    return f"{src.connector}:{src.server_id}", src.ts or None


def full_images(ev) -> bool:
    """Whether every row image of the rows event ``ev`` holds every column (its columns-present
    bitmaps all set: no ABSENT in a decoded tuple; a FULL ``binlog_row_image``), and it is not a
    partial JSON update."""
    if ev.kind == "partial_update":
        return False
    full = (1 << ev.column_count) - 1
    return int.from_bytes(ev.present1, "little") == full and (
        ev.present2 is None or int.from_bytes(ev.present2, "little") == full)


def _compile(idx: tuple, fns: tuple, cols: tuple):
    """One function: a decoded row tuple -> the converted values of ``cols`` (its positions
    ``idx``, converters ``fns``). Generated source rather than a loop over converters: a tuple
    display of inline checks costs a fraction of a call per value (this is the sink's hot path)."""
    ns = dict(_NS)
    parts = []
    for j, (i, f, c) in enumerate(zip(idx, fns, cols, strict=True)):
        if f is _plain:
            parts.append(f"r[{i}]")
            continue
        ns[f"f{j}"] = f
        kind = c.natural.kind
        check = _PASS.get(kind) if kind != "int" or c.natural.limit else None
        if check is None:
            parts.append(f"(None if (v := r[{i}]) is None else f{j}(v))")
            continue
        if kind == "int":
            check = check.format(lo=c.natural.limit[0], hi=c.natural.limit[1])
        parts.append(f"(v if ((v := r[{i}]) is not None and {check}) else (None if v is None else f{j}(v)))")
    src = "def convert(r):\n    return (" + "".join(p + ", " for p in parts) + ")\n"
    exec(compile(src, "<mysqlddl.sinks.pg.rows tuple plan>", "exec"), ns)     # noqa: S102 (our own text)
    return ns["convert"]


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

        self._tplans: dict[tuple, tuple | None] = {}     # (id(convs), names) -> (cols, function) | None

    def clear(self) -> None:
        self._convs.clear()
        self._plans.clear()
        self._tplans.clear()
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

    def tuple_plan(self, convs: dict, names: tuple, where) -> tuple | None:
        """(target columns, function) converting a decoded row tuple whose columns are ``names``
        (see the module docstring); None when a column has a Python transform (its rows take
        :meth:`image`)."""
        k = (id(convs), names)
        try:
            return self._tplans[k]
        except KeyError:
            pass
        plan = self._plans.get(k)
        if plan is None:
            plan = self._plans[k] = self._plan(convs, names, where)
        cols, fns, idx = plan
        tp = self._tplans[k] = None if fns is None else (cols, _compile(idx, fns, cols))
        return tp

    def batch(self, tt: TargetTable, op: str, names: tuple, rows, where) -> tuple | None:
        """A rows event's decoded tuples (full images of columns ``names``) as (target columns,
        payloads, keys, rowwise flags), payloads as the sink buffers them (:func:`payload`); None
        when a column has a Python transform or no column is written (the rows take the per-row
        path). Requires a key for an update or delete."""
        convs = self.converters(tt)
        plan = self.tuple_plan(convs, names, where)
        if plan is None or not plan[0]:
            return None
        cols, fn = plan

        def one(r):
            try:
                return fn(r)
            except ValueProblem:        # (the policy decides: the image path counts and clamps)
                return self.image(convs, dict(zip(names, r, strict=True)), where)[1]

        def convert(images):
            try:
                return [fn(r) for r in images]
            except ValueProblem:        # (fn counts nothing: the images convert again, one by one)
                return [one(r) for r in images]

        if op == "c":
            return cols, convert(rows), None, None
        kp = self.key_positions(tt, cols, where)
        # (a key value that converts to a list, SET or VECTOR, is made hashable for the run's key set)
        lists = any(cols[i].natural.kind in ("set", "vector") for i in kp)
        payloads, keys, moves = [], [], []
        if op == "d":
            for vals in convert(rows):
                k = tuple(vals[i] for i in kp)
                payloads.append(k)
                keys.append(tuple(_hashable(v) for v in k) if lists else k)
            return cols, payloads, keys, [False] * len(keys)
        pairs = self.unique_pairs(tt, cols, cols)
        flat = convert([image for pair in rows for image in pair])
        for n in range(0, len(flat), 2):
            bvals, avals = flat[n], flat[n + 1]
            k = tuple(bvals[i] for i in kp)
            mv = any(avals[i] != bvals[j] for i, j in pairs)
            payloads.append((cols, bvals, avals) if mv else k + avals)
            keys.append(tuple(_hashable(v) for v in k) if lists else k)
            moves.append(mv)
        return cols, payloads, keys, moves

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
        return tuple(_hashable(vals[i]) for i in self.key_positions(tt, cols, where))

    def key_positions(self, tt: TargetTable, cols, where=None) -> tuple:
        """The positions of ``tt``'s key columns in ``cols`` (a plan's tuple); a SinkError when
        the image lacks one."""
        kp = self._keypos.get(id(cols))
        if kp is None:
            names = [c.name for c in cols]
            missing = [k.source.name for k in tt.key if k.name not in names]
            if missing:
                raise SinkError(f"the row image lacks key column(s) {', '.join(missing)} of {tt.source_name}: "
                                "the row cannot be found (is the source logging the key, e.g. Oracle supplemental "
                                "logging?)", position=where, table=tt.source_name)
            kp = self._keypos[id(cols)] = tuple(names.index(k.name) for k in tt.key)
        return kp

    def moves_unique(self, tt: TargetTable, bcols, bvals, acols, avals) -> bool:
        """Whether the update changes a primary or unique key column's value."""
        return any(avals[i] != bvals[j] for i, j in self.unique_pairs(tt, bcols, acols))

    def unique_pairs(self, tt: TargetTable, bcols, acols) -> tuple:
        """(position in ``acols``, position in ``bcols``) of each primary or unique key column
        both images hold."""
        pairs = self._uniqpos.get((id(bcols), id(acols)))
        if pairs is None:
            uniq = unique_columns(tt)
            bnames = [c.name for c in bcols]
            pairs = self._uniqpos[(id(bcols), id(acols))] = tuple(
                (i, bnames.index(c.name)) for i, c in enumerate(acols) if c.name in uniq and c.name in bnames)
        return pairs


__all__ = ["RowConverter", "full_images"]
