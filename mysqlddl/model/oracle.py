"""Oracle columns: what an Oracle column definition makes (the ORACLE dialect's
``DialectRules.column_resolver``, called by :func:`mysqlddl.model.resolve.resolve_column`).

Types go through the table :data:`mysqlddl.model.types.ORACLE_TYPES` (spelling -> canonical
name, implied lengths, length semantics); families through :data:`~mysqlddl.model.types.FAMILIES`.
The rules, each from the Oracle Database SQL Language Reference (23ai):

- character columns carry no charset (the database character set is not in the DDL):
  ``length_semantics`` says whether the length counts bytes or characters;
- a nullable column without DEFAULT defaults to NULL; ``DEFAULT ON NULL`` and identity columns
  are NOT NULL ("CREATE TABLE", DEFAULT clause: "Oracle Database implicitly adds a NOT NULL
  constraint"; identity_clause: "creates a NOT NULL constraint"); identity and virtual columns
  have no default;
- default values: NULL, numbers and string literals are literals (strings unquoted); anything
  else (SYSDATE, SYS_GUID(), s.NEXTVAL, expressions) is kept as written, an EXPRESSION.
"""

from __future__ import annotations

import re

from ..errors import DdlSemanticError
from . import types as T
from .column import Column, Default, Generated, GeneratedKind
from .resolved import ResolvedColumn, text_value
from .spec import ColumnSpec, DataTypeSpec

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?")
_STRING = re.compile(r"[nN]?'((?:[^']|'')*)'", re.S)
_QSTRING = re.compile(r"[nN]?[qQ]'(.)(.*)(.)'", re.S)
_CLOSERS = {"[": "]", "{": "}", "(": ")", "<": ">"}


def resolve_type(t: DataTypeSpec) -> dict:
    """Column fields for an Oracle data type (type_name, length, scale, fsp, length_semantics).
    A spelling that is not a built-in type is a user-defined type: kept by name (family
    UNKNOWN, opaque)."""
    spelling = T.normalise_spelling(t.name)
    ot = T.ORACLE_TYPES.get(spelling)
    out = {"type_name": spelling, "length": None, "scale": None, "fsp": None, "length_semantics": None}
    if ot is None:  # a user-defined type: its name as the listener stored it (quoted parts keep their case)
        out["type_name"] = " ".join(t.name.split())
        return out
    length, scale, fsp = t.length, t.scale, None
    if ot.fixed:
        length, scale = ot.length, ot.scale
    elif ot.args == "precision":
        limit = 126 if ot.name == "FLOAT" else 38
        if length is not None and not 1 <= length <= limit:
            raise DdlSemanticError(f"numeric precision specifier is out of range (1 to {limit}): {length}")
        if length is None and scale is None:
            length, scale = ot.length, ot.scale  # NUMBER; DECIMAL -> (*, 0); FLOAT -> FLOAT(126)
        elif scale is None and ot.name != "FLOAT":
            scale = 0  # NUMBER(p) is NUMBER(p, 0)
        if ot.name == "FLOAT":
            scale = None
    elif ot.args == "length":
        length = length if length is not None else ot.length
        if length is None:  # VARCHAR2, NVARCHAR2 and RAW need a size (ORA-00906)
            raise DdlSemanticError(f"{ot.name} needs a length: {spelling}(n)")
        scale = None
    elif ot.args == "dims":
        scale = None
    elif ot.args == "fsp":
        fsp, length, scale = (length if length is not None else ot.fsp), None, None
    elif ot.args == "interval":
        length = length if length is not None else ot.length
        fsp = (scale if scale is not None else ot.fsp) if ot.fsp is not None else None
        scale = None
    else:
        length = scale = None
        fsp = ot.fsp
    semantics = None
    if ot.semantics is not None:
        semantics = "CHAR" if ot.semantics == "CHAR" else (t.length_semantics or "BYTE").upper()
    out.update(type_name=ot.name, length=length, scale=scale, fsp=fsp, length_semantics=semantics)
    return out


def type_spec(c: Column) -> DataTypeSpec:
    """The DataTypeSpec that resolves back to ``c``'s type (for a MODIFY that keeps the type)."""
    ot = T.ORACLE_TYPES.get(c.type_name)
    if ot is not None and ot.args == "fsp":
        return DataTypeSpec(c.type_name, c.fsp, length_semantics=c.length_semantics)
    if ot is not None and ot.args == "interval":
        return DataTypeSpec(c.type_name, c.length, c.fsp)
    return DataTypeSpec(c.type_name, c.length, c.scale, length_semantics=c.length_semantics)


def default_value(text: str) -> Default:
    """A DEFAULT clause's value: NULL, a literal (numbers as written, strings unquoted) or an
    expression kept as written."""
    s = text.strip()
    if s.upper() == "NULL":
        return Default.null()
    if _NUMBER.fullmatch(s):
        return Default.literal(s.lstrip("+"))
    m = _STRING.fullmatch(s)
    if m:
        return Default.literal(m.group(1).replace("''", "'"))
    m = _QSTRING.fullmatch(s)
    if m and _CLOSERS.get(m.group(1), m.group(1)) == m.group(3):
        return Default.literal(m.group(2))
    return Default.expression(s)


def resolve_column(spec: ColumnSpec, ctx):
    """An Oracle column definition (see the module docstring). Inline constraints other than
    [NOT] NULL reach the table as table-level specs (the listener moves them there)."""
    fields = resolve_type(spec.type)
    nullable = True if spec.nullable is None else spec.nullable
    if spec.default_on_null or spec.identity is not None:
        nullable = False
    generated = Generated(GeneratedKind.VIRTUAL, spec.generated) if spec.generated is not None else None
    default = None
    if generated is None and spec.identity is None:
        if spec.default is not None:
            default = default_value(spec.default)
        elif nullable:
            default = Default.null()
    if default is not None and not nullable and default.kind.value == "null" and spec.default_on_null:
        raise DdlSemanticError(f"DEFAULT ON NULL NULL for column '{spec.name}'")
    column = Column(
        name=spec.name, declared_type=spec.type.text or T.normalise_spelling(spec.type.name),
        nullable=nullable, default=default, generated=generated, comment=text_value(spec.comment, ctx),
        visible=spec.visible, collation=spec.type.collation, default_on_null=spec.default_on_null,
        identity=spec.identity, **fields)
    return ResolvedColumn(column, unique=spec.unique, primary=spec.primary_key)
