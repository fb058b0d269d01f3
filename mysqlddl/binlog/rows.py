"""Row images of rows events: TABLE_MAP column metadata, the per-TABLE_MAP decode plan, and
``decode_rows`` (which runs on the compiled core or on its pure twin, see speedups.py).

Rows event body after its header (sql/log_event.cc ``Rows_log_event::write_data_body``,
``Rows_log_event::print_verbose``)::

    columns-present bitmap (before image) | [columns-present bitmap (after image), UPDATE only]
    row*  where  row ::= image | before-image after-image (UPDATE)
    image ::= null-bitmap value*

    The null bitmap has one bit per *present* column ((present + 7) // 8 bytes, bit i of byte i//8
    for the i-th present column); a value follows for every present column whose null bit is clear.
    Bitmaps are little-endian bit order within bytes; padding bits past the column count may be set
    and are ignored.

A decoded row is a tuple with one entry per table column: the value, None for NULL, or ABSENT when
the columns-present bitmap excludes the column (MINIMAL/NOBLOB row images).
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import ConfigError, CorruptEventError
from ..options import Dialect
from . import speedups
from .absent import ABSENT as ABSENT  # public here too: a decoded row holds it (see above)
from .coltypes import BLOB_TYPES, CHARACTER_TYPES, signedness_columns
from .coltypes import ColumnType as T
from .values import charsets
from .values.meta import ColumnMeta
from .values.numeric import decimal_size

# ------------------------------------------------------------------------------- column metadata
#
# Per-column metadata widths (sql/log_event.cc ``Table_map_log_event::save_field_metadata`` via each
# Field's ``do_save_field_metadata``; read back in sql/rpl_utility.cc ``table_def::table_def``):
#
#   FLOAT, DOUBLE                  1  pack length (4/8)
#   *BLOB, GEOMETRY, JSON, VECTOR  1  bytes of the length prefix (1-4)
#   MariaDB BLOB_COMPRESSED (140)  1  bytes of the length prefix
#   TIME2, DATETIME2, TIMESTAMP2   1  fsp (0-6)
#   VARCHAR, VARCHAR_COMPRESSED    2  maximum byte length, little-endian
#   BIT                            2  [M % 8][M // 8]                 -> value (M//8) << 8 | M % 8
#   NEWDECIMAL                     2  [precision][scale]              -> value precision << 8 | scale
#   STRING/VAR_STRING (CHAR, BINARY, ENUM, SET)
#                                  2  [real type ^ length bits 8-9][length bits 0-7]
#                                                                     -> value byte0 << 8 | byte1
#   everything else                0
#
# The values keep the server's own composition so they compare with what `mariadb-binlog -vv`
# prints as "meta=".

_META1 = frozenset({T.FLOAT, T.DOUBLE, T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB, T.BLOB, T.GEOMETRY, T.JSON,
                    T.VECTOR, T.BLOB_COMPRESSED, T.TIME2, T.DATETIME2, T.TIMESTAMP2})
_META2_LE = frozenset({T.VARCHAR, T.VARCHAR_COMPRESSED, T.BIT})
_META2_BE = frozenset({T.NEWDECIMAL, T.STRING, T.VAR_STRING, T.ENUM, T.SET})


def parse_column_metadata(column_types, buf) -> tuple:
    """Decode a TABLE_MAP's per-column metadata block (``buf`` is exactly the block) into one int
    per column (0 where the type has none). Consumption must be exact: CorruptEventError otherwise."""
    out = []
    pos = 0
    n = len(buf)
    for i, t in enumerate(column_types):
        if t in _META1:
            width = 1
        elif t in _META2_LE or t in _META2_BE:
            width = 2
        else:
            out.append(0)
            continue
        if pos + width > n:
            raise CorruptEventError(
                f"TABLE_MAP metadata block of {n} bytes ends inside column {i} ({T(t).name} needs {width})",
                column=i)
        if width == 1:
            out.append(buf[pos])
        elif t in _META2_LE:
            out.append(buf[pos] | buf[pos + 1] << 8)
        else:
            out.append(buf[pos] << 8 | buf[pos + 1])
        pos += width
    if pos != n:
        raise CorruptEventError(f"TABLE_MAP metadata block has {n - pos} bytes left over after "
                                f"{len(column_types)} columns ({pos} of {n} used)")
    return tuple(out)


def string_real_type(metadata: int) -> tuple[int, int]:
    """(real type, max byte length) of a STRING column's metadata.

    CHAR columns longer than 255 bytes fold bits 8-9 of the length into bits 4-5 of the type byte,
    inverted (sql/field.cc ``Field_string::do_save_field_metadata``; undone as in
    sql/log_event.cc ``log_event_print_value``)::

        byte0 = real_type ^ ((length & 0x300) >> 4)     byte1 = length & 0xff
    """
    b0, b1 = metadata >> 8, metadata & 0xFF
    if (b0 & 0x30) != 0x30:
        return b0 | 0x30, b1 | (((b0 & 0x30) ^ 0x30) << 4)
    return b0, b1


# ------------------------------------------------------------------------------------------ plan


class DecodePlan:
    """The compiled per-column steps of one TABLE_MAP (STYLE.md 10): built once by
    :func:`build_plan`, then each implementation (compiled / pure) compiles ``columns`` into its own
    form on first use and keeps it here."""

    __slots__ = ("columns", "ncols", "database", "table", "_compiled")

    def __init__(self, columns: tuple[ColumnMeta, ...], database=None, table=None):
        self.columns = columns
        self.ncols = len(columns)
        self.database = database
        self.table = table
        self._compiled = {}

    def compiled(self, impl):
        c = self._compiled.get(impl.IMPLEMENTATION)
        if c is None:
            c = self._compiled[impl.IMPLEMENTATION] = impl.compile_plan(self.columns)
        return c

    def __repr__(self) -> str:
        return f"<DecodePlan {self.database}.{self.table} {self.ncols} columns>"


def _attr(col, name):
    if col is None:
        return None
    if isinstance(col, dict):
        return col.get(name)
    return getattr(col, name, None)


def _per_column(values, ncols: int, selected: list[int], what: str):
    """Spread optional metadata given either per table column or per selected column (the binlog's
    own layout: one entry per numeric / character / ENUM / SET column, in column order)."""
    if values is None:
        return {}
    values = tuple(values)
    if len(values) == ncols:
        return dict(enumerate(values))
    if len(values) == len(selected):
        return dict(zip(selected, values, strict=True))
    raise CorruptEventError(f"TABLE_MAP {what} has {len(values)} entries for {ncols} columns "
                            f"({len(selected)} eligible)")


def _charsets_of(table_map, per_column: str, default: str, ncols: int, selected: list[int]) -> dict:
    """Collation per column from the TABLE_MAP's COLUMN_CHARSET (one per selected column) or
    DEFAULT_CHARSET ((default, ((index among selected columns, collation), ...)) form; sql/log_event.cc
    ``Table_map_log_event::init_charset_field``)."""
    values = getattr(table_map, per_column, None)
    if values is not None:
        return _per_column(values, ncols, selected, per_column)
    dflt = getattr(table_map, default, None)
    if dflt is None:
        return {}
    collation, exceptions = dflt
    out = dict.fromkeys(selected, collation)
    for k, coll in exceptions:
        if not 0 <= k < len(selected):
            raise CorruptEventError(f"TABLE_MAP {default} names character column {k} of {len(selected)}")
        out[selected[k]] = coll
    return out


def _names_text(names, collation, options) -> tuple:
    """ENUM/SET member names as str (the TABLE_MAP logs them as bytes in the column's charset)."""
    out = []
    for n in names:
        if isinstance(n, (bytes, bytearray)):
            codec, _ = _encoding(collation, options.replace(charset_fallback="utf8mb4"), "ENUM/SET names")
            n = charsets.decode_text(bytes(n), codec, "surrogateescape") if codec else bytes(n).decode(
                "utf-8", "surrogateescape")
        out.append(n)
    return tuple(out)


def _encoding(charset, options, what):
    """A column charset (collation id, charset name) -> (codec or None for bytes, mbmaxlen)."""
    if isinstance(charset, int):
        name = charsets.charset_of_collation(charset)
    else:
        name = charset
    if name is None:
        name = options.charset_fallback
    entry = charsets.codec_for_charset_name(name)
    if entry is False:
        raise ConfigError(f"{what}: unknown character set {name!r}")
    return entry


def build_plan(table_map, options, columns=None) -> DecodePlan:
    """Resolve every column of a TABLE_MAP into a ColumnMeta once (STYLE.md 10).

    ``table_map`` exposes ``column_types``, ``column_metadata`` (from parse_column_metadata),
    ``null_bitmap`` and optionally ``signedness`` (True = unsigned; one per column, or one per
    column of coltypes.signedness_columns: MySQL's numeric columns, MariaDB's also YEAR; the count
    tells which), ``column_charsets`` / ``default_charset`` (collation ids; per column or per
    character column), ``enum_values`` / ``set_values`` (tuples of names; per column or per ENUM/SET column),
    ``database``, ``table``. ``columns`` (optional, one per column: objects or dicts) is what the
    schema knows and wins over the TABLE_MAP: ``unsigned``, ``charset`` (collation id or charset
    name, "binary" for bytes), ``fsp`` (MariaDB pre-10.1 temporal types), ``enum_values`` /
    ``set_values``, ``length`` (pre-5.0 DECIMAL characters).
    """
    types = tuple(table_map.column_types)
    metas = tuple(table_map.column_metadata)
    key = None
    if columns is None:
        # Servers repeat the same TABLE_MAP before every transaction on a table: reuse its plan
        # (and the implementations' compiled forms) instead of resolving it again.
        key = (types, metas, options, getattr(table_map, "database", None), getattr(table_map, "table", None),
               *(getattr(table_map, a, None) for a in _OPTIONAL_FIELDS))
        try:
            plan = _PLAN_CACHE.get(key)
        except TypeError:  # an unhashable optional field: no caching
            key = plan = None
        if plan is not None:
            return plan
    plan = _build_plan(table_map, options, columns, types, metas)
    if key is not None:
        if len(_PLAN_CACHE) >= _PLAN_CACHE_SIZE:
            _PLAN_CACHE.clear()
        _PLAN_CACHE[key] = plan
    return plan


_OPTIONAL_FIELDS = ("signedness", "column_charsets", "default_charset", "enum_values", "set_values",
                    "enum_set_column_charsets", "enum_set_default_charset")
_PLAN_CACHE: dict = {}
_PLAN_CACHE_SIZE = 512


def _build_plan(table_map, options, columns, types, metas) -> DecodePlan:
    ncols = len(types)
    if len(metas) != ncols:
        raise CorruptEventError(f"TABLE_MAP has {ncols} column types but {len(metas)} metadata entries")
    if columns is not None and len(columns) != ncols:
        raise ConfigError(f"columns= describes {len(columns)} columns, the TABLE_MAP has {ncols}")
    real = []
    for t, m in zip(types, metas, strict=True):
        if t in (T.STRING, T.VAR_STRING):
            rt, _ = string_real_type(m)
            real.append(rt if rt in (T.ENUM, T.SET) else t)
        else:
            real.append(t)
    numeric = signedness_columns(types, mariadb=False)
    given = getattr(table_map, "signedness", None)
    if given is not None and len(tuple(given)) != len(numeric):
        # MariaDB also counts YEAR columns (coltypes.MARIADB_SIGNEDNESS_TYPES): the count tells
        # which server's reading the TABLE_MAP follows.
        mariadb = signedness_columns(types, mariadb=True)
        if len(tuple(given)) == len(mariadb):
            numeric = mariadb
    character = [i for i, t in enumerate(real) if t in CHARACTER_TYPES]
    enums = [i for i, t in enumerate(real) if t == T.ENUM]
    sets = [i for i, t in enumerate(real) if t == T.SET]
    unsigned = _per_column(getattr(table_map, "signedness", None), ncols, numeric, "signedness")
    # MariaDB counts GEOMETRY columns (binary charset) among the character columns of COLUMN_CHARSET
    # / DEFAULT_CHARSET, MySQL does not (seen in MariaDB 10.11 binlogs: 39 collations for 31 string
    # and 8 geometry columns): pick the reading whose count fits, else go by the dialect.
    with_geometry = [i for i, t in enumerate(real) if t in CHARACTER_TYPES or t == T.GEOMETRY]
    given = getattr(table_map, "column_charsets", None)
    if given is not None and len(with_geometry) != len(character) and len(tuple(given)) == len(with_geometry):
        character = with_geometry
    elif given is None and options.dialect == Dialect.MARIADB:
        character = with_geometry
    cs = _charsets_of(table_map, "column_charsets", "default_charset", ncols, character)
    es = sorted(enums + sets)
    es_cs = _charsets_of(table_map, "enum_set_column_charsets", "enum_set_default_charset", ncols, es)
    enum_names = _per_column(getattr(table_map, "enum_values", None), ncols, enums, "ENUM values")
    set_names = _per_column(getattr(table_map, "set_values", None), ncols, sets, "SET values")
    for names in (enum_names, set_names):
        for i, v in names.items():
            if v is not None:
                names[i] = _names_text(v, es_cs.get(i), options)
    common = {"errors": options.charset_errors, "decimal_as_str": options.decimal_as == "str",
              "invalid_as_none": options.invalid_temporal_as == "none",
              "json_as_text": options.json_as == "text"}
    out = []
    for i, (t, m, rt) in enumerate(zip(types, metas, real, strict=True)):
        col = columns[i] if columns is not None else None
        try:
            out.append(_column(i, t, m, rt, col, unsigned, cs, enum_names, set_names, options, common))
        except CorruptEventError as e:
            raise e.with_context(column=i) from None
    return DecodePlan(tuple(out), getattr(table_map, "database", None), getattr(table_map, "table", None))


def _column(i, t, m, rt, col, unsigned, cs, enum_names, set_names, options, common) -> ColumnMeta:
    kw = dict(common, type=rt, binlog_type=t, metadata=m)
    u = _attr(col, "unsigned")
    kw["unsigned"] = bool(unsigned.get(i, False) if u is None else u)
    if t in (T.FLOAT, T.DOUBLE):
        pass  # the pack length is implied by the type
    elif t == T.NEWDECIMAL:
        p, s = m >> 8, m & 0xFF
        if not (1 <= p <= 65 and s <= min(p, 38)):
            raise CorruptEventError(f"DECIMAL({p},{s}) metadata out of range")
        kw.update(precision=p, scale=s, length=decimal_size(p, s))
    elif t == T.DECIMAL:
        kw["length"] = int(_attr(col, "length") or 0)
    elif t in (T.TIME2, T.DATETIME2, T.TIMESTAMP2):
        if m > 6:
            raise CorruptEventError(f"{T(t).name} fsp {m} above 6")
        kw["fsp"] = m
    elif t in (T.TIME, T.DATETIME, T.TIMESTAMP):
        fsp = _attr(col, "fsp")
        if fsp is not None and not 0 <= int(fsp) <= 6:
            raise ConfigError(f"column {i}: fsp {fsp} outside 0..6")
        kw["fsp"] = int(fsp) if fsp is not None else None
    elif t == T.BIT:
        bits, nbytes = m & 0xFF, m >> 8
        total = nbytes + (1 if bits else 0)
        if bits > 7 or not 1 <= total <= 8:
            raise CorruptEventError(f"BIT metadata {m:#06x} is not a BIT(1..64)")
        kw["length"] = total
    elif rt in (T.ENUM, T.SET):
        _, size = string_real_type(m)
        if not (1 <= size <= 2 if rt == T.ENUM else 1 <= size <= 8):
            raise CorruptEventError(f"{T(rt).name} pack length {size} out of range")
        names = _attr(col, "enum_values" if rt == T.ENUM else "set_values")
        if names is None:
            names = (enum_names if rt == T.ENUM else set_names).get(i)
        kw.update(length=size, names=tuple(names) if names is not None else None)
    elif t in (T.STRING, T.VAR_STRING, T.VARCHAR, T.VARCHAR_COMPRESSED):
        if t == T.VARCHAR or t == T.VARCHAR_COMPRESSED:
            maxlen = m
        else:
            rtype, maxlen = string_real_type(m)
            if rtype not in (T.STRING, T.VAR_STRING):
                raise CorruptEventError(f"STRING metadata names real type {rtype}")
        kw.update(length=maxlen, len_bytes=1 if maxlen < 256 else 2)
        _text(kw, i, col, cs, options, t in (T.STRING, T.VAR_STRING))
    elif t in BLOB_TYPES or t == T.BLOB_COMPRESSED:
        if not 1 <= m <= 4:
            raise CorruptEventError(f"BLOB length-prefix width {m} outside 1..4")
        kw["len_bytes"] = m
        _text(kw, i, col, cs, options, False)
    elif t in (T.JSON, T.GEOMETRY, T.VECTOR):
        if not 1 <= m <= 4:
            raise CorruptEventError(f"{T(t).name} length-prefix width {m} outside 1..4")
        kw["len_bytes"] = m
    return ColumnMeta(**kw)


def _text(kw, i, col, cs, options, fixed: bool):
    charset = _attr(col, "charset")
    if charset is None:
        charset = cs.get(i)
    encoding, mbmaxlen = _encoding(charset, options, f"column {i}")
    if options.strings_as_bytes:
        encoding = None
    kw["encoding"] = encoding
    if fixed and charset is not None and (charset == charsets.BINARY or charset == "binary"):
        kw["pad_bytes"] = kw["length"]  # BINARY(N): the server strips trailing 0x00
    elif fixed and encoding is not None and options.pad_char:
        kw["pad_chars"] = kw["length"] // mbmaxlen


# ------------------------------------------------------------------------------------------ rows


def _compiled(plan: DecodePlan):
    """``(speedups.impl, the plan compiled for it)``, compiled once per implementation."""
    impl = speedups.impl
    compiled = plan._compiled.get(impl.IMPLEMENTATION)
    if compiled is None:
        compiled = plan.compiled(impl)
    return impl, compiled


def decode_rows(plan: DecodePlan, buf, start: int, end: int, present1: bytes, present2: bytes | None = None,
                base: int = 0) -> list:
    """Decode every row image of a rows event body ``buf[start:end]`` (after the columns-present
    bitmaps) against ``plan``: ``[row, ...]``, or ``[(before, after), ...]`` when ``present2`` (the
    UPDATE after-image bitmap) is given. Errors carry ``column`` and ``offset`` = ``base`` + the
    index in ``buf`` (pass the file offset of ``buf[0]`` as ``base`` for absolute offsets).

    Runs on ``speedups.impl`` (the compiled core, or the pure twin); both give identical values and
    both check the range and the bitmaps' lengths."""
    impl, compiled = _compiled(plan)
    return impl.decode_rows(compiled, buf, start, end, present1, present2, base)


def decode_partial_update_rows(plan: DecodePlan, buf, start: int, end: int, present1: bytes, present2: bytes,
                               base: int = 0) -> list:
    """Rows of a PARTIAL_UPDATE_ROWS event (MySQL 8.0.3+, binlog_row_value_options=PARTIAL_JSON):
    ``[(before, after), ...]`` as for UPDATE, where a JSON column updated in place holds a
    ``values.jsonb.JsonPartialUpdate`` (every diff the server logged for it, in order; its
    ``apply(before_value)`` gives the new document) instead of a whole document. Runs on
    ``speedups.impl`` like :func:`decode_rows` (layout: _twin.decode_partial_update_rows)."""
    impl, compiled = _compiled(plan)
    return impl.decode_partial_update_rows(compiled, buf, start, end, present1, present2, base)


# --------------------------------------------------------------------------- rows to JSON text


class JsonRowsFormat:
    """How :func:`render_rows` writes a row image as a JSON object: ``keys`` (per table column, the
    JSON text of its name, e.g. ``'"id"'``), ``value_json`` (a typed value -> its JSON text: the
    reference rendering, used by the pure twin for every value and by the compiled core for the
    types it does not render itself), ``column_json`` (optional, per column: a callable that
    replaces ``value_json`` for that column, e.g. values the schema retypes; None for the rest).
    NULL is always ``null``; columns absent from a MINIMAL/NOBLOB image are left out. The compiled
    core renders the other values natively to the bytes ``value_json`` would give (json's
    ensure_ascii encoding of the envelope's value choices; tests/binlog/test_render_rows.py)."""

    __slots__ = ("keys", "value_json", "column_json", "_compiled")

    def __init__(self, keys, value_json, column_json=None):
        self.keys = tuple(keys)
        self.value_json = value_json
        self.column_json = tuple(column_json) if column_json is not None else None
        if self.column_json is not None and len(self.column_json) != len(self.keys):
            raise ConfigError(f"{len(self.column_json)} column_json entries for {len(self.keys)} keys")
        self._compiled = {}

    def compiled(self, impl, compiled_plan):
        hit = self._compiled.get(impl.IMPLEMENTATION)
        if hit is None or hit[0] is not compiled_plan:
            hit = self._compiled[impl.IMPLEMENTATION] = (compiled_plan,
                                                         impl.compile_json_format(compiled_plan, self))
        return hit[1]


_OPS = {"c": 0, "d": 1, "u": 2}


def _op_code(op: str) -> int:
    try:
        return _OPS[op]
    except KeyError:
        raise ConfigError(f"op must be c, d or u, not {op!r}") from None


def render_rows(plan: DecodePlan, fmt: JsonRowsFormat, buf, start: int, end: int, present1: bytes,
                present2: bytes | None = None, base: int = 0, *, op: str, parts, total0: int = 0,
                table0: int = 0) -> tuple[bytes, int]:
    """The rows of a rows event (arguments as :func:`decode_rows`) as ASCII text: one line per row,
    ``(text, rows)`` with ``text`` bytes (the parts and every value's JSON text must be ASCII, as
    json's ensure_ascii makes them). Each line is the template ``parts`` (six ASCII strings) with
    five holes::

        parts[0] BEFORE parts[1] AFTER parts[2] ROW parts[3] TOTAL parts[4] TABLE parts[5]

    BEFORE/AFTER: the row images as JSON objects (see :class:`JsonRowsFormat`), ``null`` for the
    image the ``op`` lacks (``"c"``: the row is the after image; ``"d"``: the before image; ``"u"``:
    both, with ``present2``); ROW: the row's index in the event (0-based); TOTAL/TABLE:
    ``total0``/``table0`` + the 1-based index. Errors are those of :func:`decode_rows`, at the same
    offsets. Runs on ``speedups.impl`` (the compiled core renders in C; the pure twin decodes and
    calls ``fmt.value_json``); both give the same bytes."""
    impl, compiled = _compiled(plan)
    code = _op_code(op)
    return impl.render_rows(compiled, fmt.compiled(impl, compiled), buf, start, end, present1, present2, base,
                            code, tuple(parts), total0, table0)


class RenderedImages(NamedTuple):
    """:func:`render_images`' result: each side's row images as one ASCII text and its Arrow
    string offsets (``rows + 1`` int32 in the machine's byte order: row i is
    ``text[offsets[i]:offsets[i + 1]]``), so an Arrow string array takes both without a copy."""

    before: bytes
    before_offsets: bytes
    after: bytes
    after_offsets: bytes
    rows: int


INT32_MAX = 0x7FFFFFFF


def render_images(plan: DecodePlan, fmt: JsonRowsFormat, buf, start: int, end: int, present1: bytes,
                  present2: bytes | None = None, base: int = 0, *, op: str,
                  limit: int = INT32_MAX) -> RenderedImages:
    """The rows of a rows event (arguments as :func:`render_rows`) as two columns of JSON text, the
    before images and the after images, each the bytes :func:`render_rows` puts in its BEFORE /
    AFTER hole (``null`` for the image the ``op`` lacks). For columnar writers (the Spark job's
    Arrow batches): no template to split again. ``limit``: OverflowError if a side's text would
    pass that many bytes (an int32 offset; a caller appending to a column passes what is left).
    Errors otherwise as :func:`decode_rows`; the same bytes on both twins."""
    impl, compiled = _compiled(plan)
    code = _op_code(op)
    return RenderedImages(*impl.render_images(compiled, fmt.compiled(impl, compiled), buf, start, end, present1,
                                              present2, base, code, limit))
